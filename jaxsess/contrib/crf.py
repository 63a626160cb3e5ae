"""A linear-chain CRF, as TF 1.x's ``tf.contrib.crf``: sequence scores, the log partition function
(forward algorithm), the log-likelihood with a ``transitions`` variable, and Viterbi decoding in
the graph (:func:`crf_decode`) or in NumPy (:func:`viterbi_decode`).

Re-exports :mod:`jaxsess._tf1.contrib.crf`.
"""

from jaxsess._tf1.contrib.crf import *  # noqa: F403
