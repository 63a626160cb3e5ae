"""Array ops, as ``tf.compat.v1``'s ``array_ops``: one namespace over the
modules that define them by theme.

* :mod:`jaxsess._tf1.ops.shape_ops`: shape, size, rank, reshape, transpose,
  reverse, concat, stack, unstack, split, squeeze, expand_dims, tile, pad,
  broadcast_to, slice;
* :mod:`jaxsess._tf1.ops.gather_ops`: gather, gather_nd, one_hot;
* :mod:`jaxsess._tf1.ops.fill_ops`: fill, zeros, ones, zeros_like, ones_like, range.

XLA compiles static shapes, so shape-like arguments (a reshape ``shape``,
``tile`` multiples, ``pad`` paddings, ``fill`` dims, ``range`` bounds, axes,
permutations, split sizes) become static attributes. They may be Python
values, NumPy arrays, or tensors whose value is known when the graph is built
(constants and shapes of fully defined tensors, folded by
:func:`~jaxsess._core.graph._builder.constant_value`).

A few ops (``reshape``, ``fill``/``zeros``/``ones``, ``tile``, ``slice``,
``broadcast_to``, ``range``) also accept a shape-like tensor that is computed
from *tensor shapes* only, such as ``[tf.shape(x)[0], -1]`` where ``x`` has an
unknown batch dimension: the graph then holds a ``Dynamic<Op>`` node whose
argument is evaluated when the run is traced (when every shape is concrete;
see :mod:`jaxsess._core.graph._dynamic`). A shape-like argument that depends on fed
or variable *values* raises ``ValueError`` naming the argument.
"""

from __future__ import annotations

from jaxsess._tf1.ops.fill_ops import (
    fill as fill,
    ones as ones,
    ones_like as ones_like,
    range as range,
    zeros as zeros,
    zeros_like as zeros_like,
)
from jaxsess._tf1.ops.gather_ops import gather as gather, gather_nd as gather_nd, one_hot as one_hot
from jaxsess._tf1.ops.shape_ops import (
    broadcast_to as broadcast_to,
    concat as concat,
    expand_dims as expand_dims,
    pad as pad,
    rank as rank,
    reshape as reshape,
    reverse as reverse,
    shape as shape,
    size as size,
    slice as slice,
    split as split,
    squeeze as squeeze,
    stack as stack,
    tile as tile,
    transpose as transpose,
    unstack as unstack,
)

__all__ = [
    "reshape", "transpose", "concat", "stack", "unstack", "split", "squeeze", "expand_dims",
    "tile", "pad", "gather", "gather_nd", "one_hot", "zeros", "ones", "fill", "zeros_like",
    "ones_like", "range", "shape", "size", "rank", "reverse", "slice", "broadcast_to",
]
