"""``jaxsess.sets``: set operations over the last dimension, as ``tf.compat.v1.sets``.

Only re-exports; the ops live in :mod:`jaxsess._tf1.ops.set_ops`.
"""

from jaxsess._tf1.ops.set_ops import (
    set_difference as difference,
    set_difference as set_difference,
    set_intersection as intersection,
    set_intersection as set_intersection,
    set_size as set_size,
    set_size as size,
    set_union as set_union,
    set_union as union,
)

__all__ = [
    "difference", "intersection", "size", "union", "set_difference", "set_intersection", "set_size", "set_union",
]
