"""``tf.bitwise``: bit operations on integer tensors, as ``tf.compat.v1.bitwise``.

Only re-exports; the ops live in :mod:`jaxsess._tf1.ops.math_special_ops` (and
``bitwise_and`` in :mod:`jaxsess._tf1.ops.math_ops`).
"""

from jaxsess._tf1.ops.math_ops import bitwise_and as bitwise_and
from jaxsess._tf1.ops.math_special_ops import (
    bitwise_or as bitwise_or,
    bitwise_xor as bitwise_xor,
    invert as invert,
    left_shift as left_shift,
    right_shift as right_shift,
)

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]
