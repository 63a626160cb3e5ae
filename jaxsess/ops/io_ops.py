"""File readers for queue-based input pipelines, as ``tf.compat.v1.TFRecordReader``,
``TextLineReader``, ``FixedLengthRecordReader``, ``WholeFileReader`` and ``IdentityReader``.

Re-exports :mod:`jaxsess._tf1.ops.io_ops`.
"""

from jaxsess._tf1.ops.io_ops import *  # noqa: F403
