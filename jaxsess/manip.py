"""``jaxsess.manip``: ``tf.compat.v1.manip``, TF 1's old home of some array ops (re-exports)."""

from jaxsess._tf1.ops.gather_ops import gather_nd as gather_nd
from jaxsess._tf1.ops.indexing_ops import roll as roll, scatter_nd as scatter_nd
from jaxsess._tf1.ops.shape_ops import reshape as reshape, reverse as reverse, tile as tile
from jaxsess._tf1.ops.space_ops import (
    batch_to_space_nd as batch_to_space_nd,
    space_to_batch_nd as space_to_batch_nd,
)

__all__ = ["batch_to_space_nd", "gather_nd", "reshape", "reverse", "roll", "scatter_nd", "space_to_batch_nd", "tile"]
