"""Segment reductions and ops whose output shape depends on the data, as ``tf.compat.v1``.

Re-exports :mod:`jaxsess._tf1.ops.segment_ops`.
"""

from jaxsess._tf1.ops.segment_ops import *  # noqa: F403
