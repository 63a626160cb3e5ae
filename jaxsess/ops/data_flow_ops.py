"""Queues, as ``tf.compat.v1.FIFOQueue``, ``RandomShuffleQueue`` and ``PaddingFIFOQueue``.

Re-exports :mod:`jaxsess._tf1.ops.data_flow_ops`.
"""

from jaxsess._tf1.ops.data_flow_ops import *  # noqa: F403
