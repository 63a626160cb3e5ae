"""``sparse_placeholder``, and the sparse value types of :mod:`jaxsess._core.graph._sparse`
re-exported (as ``tf.compat.v1.SparseTensor``), see there."""

from __future__ import annotations

from typing import Any, cast

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import constant, executing_eagerly, placeholder, placeholder_with_default
from jaxsess._core.graph._shape import TensorShape
from jaxsess._core.graph._sparse import (
    SHAPE_CARRIERS as SHAPE_CARRIERS,
    SparseTensor as SparseTensor,
    SparseTensorValue as SparseTensorValue,
    as_sparse as as_sparse,
    convert_to_tensor_or_sparse_tensor as convert_to_tensor_or_sparse_tensor,
    is_sparse as is_sparse,
)
from jaxsess._tf1.ops.indexing_ops import strided_slice
from jaxsess._tf1.ops.shape_ops import shape as shape_of

__all__ = [
    "SHAPE_CARRIERS", "SparseTensor", "SparseTensorValue", "sparse_placeholder", "convert_to_tensor_or_sparse_tensor",
    "is_sparse", "as_sparse",
]


def sparse_placeholder(dtype: Any, shape: Any = None, name: str | None = None) -> SparseTensor:
    """A ``SparseTensor`` of placeholders to feed, as ``tf.compat.v1.sparse_placeholder``.

    ``values`` is a placeholder ``[None]``, ``indices`` one of int64
    ``[None, rank]``. With a fully defined ``shape``, ``dense_shape`` is a
    ``PlaceholderWithDefault`` of it, as TF. Otherwise (no ``shape``, or
    ``None``/``-1`` dims) the fed dense shape reaches the device plan as the
    shape of an empty bool placeholder (``dense_shape + [0]``, fed for you),
    so the ops that need the dense shape get it when the run is traced: one
    compiled plan per distinct fed dense shape (and ``N``), as for a
    placeholder with ``None`` dimensions. ``dense_shape`` is then computed
    from that shape; feeding it (the tensor, not its name) feeds that
    placeholder.

    Feed it with a :class:`SparseTensorValue` or an ``(indices, values,
    dense_shape)`` tuple.

    Raises:
      RuntimeError: inside an ``EagerSession`` (graph-only).
    """
    if executing_eagerly():
        raise RuntimeError("`sparse_placeholder` is not compatible with eager execution.")
    shape_name = None if name is None else name + "/shape"
    carrier = None
    static = TensorShape(None if shape is None else [
        None if d is None or d == -1 else d for d in TensorShape(shape).as_list()])
    rank = static.ndims
    if static.is_fully_defined():
        default = constant(cast("list[int]", static.as_list()), dtype=_dtypes.int64,
                           name="Const" if name is None else name + "/shape_default")
        dense_shape = placeholder_with_default(default, shape=[rank], name=shape_name)
    else:
        # The dense shape travels as the shape of an empty array, so that the
        # ops that need it get it when the run is traced (one plan per shape).
        carrier = placeholder(_dtypes.bool, shape=None if rank is None else [*static.as_list(), 0],
                              name=("SparsePlaceholderShape" if name is None else name + "/shape_carrier"))
        dense_shape = strided_slice(shape_of(carrier, out_type=_dtypes.int64), [0], [-1],
                                    name=shape_name or "Placeholder")
    values = placeholder(dtype, shape=[None], name=None if name is None else name + "/values")
    indices = placeholder(_dtypes.int64, shape=[None, rank], name=None if name is None else name + "/indices")
    sp = SparseTensor(indices, values, dense_shape)
    sp._shape = static
    sp._shape_carrier = carrier
    if carrier is not None:
        SHAPE_CARRIERS[dense_shape] = carrier
    return sp
