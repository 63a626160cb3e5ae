"""Filled tensors, as ``tf.compat.v1``: fill, zeros, ones, zeros_like,
ones_like, range.

Re-exports :mod:`jaxsess._tf1.ops.fill_ops`.
"""

from jaxsess._tf1.ops.fill_ops import *  # noqa: F403
