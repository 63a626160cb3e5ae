"""Shape and layout ops, as ``tf.compat.v1``: shape, size, rank, reshape,
transpose, reverse, concat, stack, unstack, split, squeeze, expand_dims, tile,
pad, broadcast_to, slice.

Re-exports :mod:`jaxsess._tf1.ops.shape_ops`.
"""

from jaxsess._tf1.ops.shape_ops import *  # noqa: F403
