"""Recurrent networks, as ``tf.compat.v1.nn.dynamic_rnn`` / ``static_rnn`` /
``bidirectional_dynamic_rnn`` / ``static_bidirectional_rnn``.

Re-exports :mod:`jaxsess._tf1.ops.rnn`.
"""

from jaxsess._tf1.ops.rnn import *  # noqa: F403
