"""``jaxsess.contrib.rnn``: ``tf.contrib.rnn``'s common names, aliases of
:mod:`jaxsess.nn.rnn_cell` and the RNN functions of :mod:`jaxsess.nn`, plus TF 1.x contrib's
projection wrappers, ``LSTMBlockCell`` and the stacked bidirectional RNNs.

Re-exports :mod:`jaxsess._tf1.contrib.rnn`.
"""

from jaxsess._tf1.contrib.rnn import *  # noqa: F403
