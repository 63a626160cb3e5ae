"""``jaxsess.contrib.seq2seq``: TF 1.15's ``tf.contrib.seq2seq``: ``sequence_loss``
(``loss.py``, here), the helpers, ``BasicDecoder`` and ``dynamic_decode``
(:mod:`jaxsess._tf1.contrib._seq2seq_decoder`), the attention mechanisms and
``AttentionWrapper`` (:mod:`jaxsess._tf1.contrib._attention`), ``BeamSearchDecoder``,
``tile_batch`` and ``gather_tree`` (:mod:`jaxsess._tf1.contrib._beam_search`).

Re-exports :mod:`jaxsess._tf1.contrib.seq2seq`.
"""

from jaxsess._tf1.contrib.seq2seq import *  # noqa: F403
