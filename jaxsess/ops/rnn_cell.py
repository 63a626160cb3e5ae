"""Recurrent cells, as ``tf.compat.v1.nn.rnn_cell``.

Re-exports :mod:`jaxsess._tf1.ops.rnn_cell`.
"""

from jaxsess._tf1.ops.rnn_cell import *  # noqa: F403
