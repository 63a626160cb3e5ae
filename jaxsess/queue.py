"""``jaxsess.queue``: the queues, as ``tf.compat.v1.queue``.

Only re-exports; the queues live in :mod:`jaxsess._tf1.ops.data_flow_ops`.
"""

from jaxsess._tf1.ops.data_flow_ops import (
    FIFOQueue as FIFOQueue,
    PaddingFIFOQueue as PaddingFIFOQueue,
    QueueBase as QueueBase,
    RandomShuffleQueue as RandomShuffleQueue,
)

__all__ = ["FIFOQueue", "PaddingFIFOQueue", "QueueBase", "RandomShuffleQueue"]
