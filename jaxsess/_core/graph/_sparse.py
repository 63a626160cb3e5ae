"""``SparseTensor``: a sparse value as three graph tensors, as ``tf.compat.v1.SparseTensor``.

A ``SparseTensor`` is a composite, not a graph node: ``indices`` (int64
``[N, rank]``), ``values`` (``[N]``) and ``dense_shape`` (int64 ``[rank]``)
are ordinary tensors. ``Session.run`` fetches it as a
:class:`SparseTensorValue` of host arrays and feeds it (a
``sparse_placeholder``) from a ``SparseTensorValue`` or an
``(indices, values, dense_shape)`` tuple (see :mod:`jaxsess._core.runtime._fetch`).

Static shapes: XLA compiles static shapes. The number of stored values ``N``
is a dimension like any other unknown dimension: a plan is compiled once per
distinct ``N`` that is fed (as for a placeholder of shape ``[None]``). The
*dense* shape is a value, not a shape; ops whose output shape is (part of)
the dense shape (``sparse.to_dense``, ``sparse.reduce_sum`` with an axis,
``sparse_dense_matmul``, ``sparse.softmax``, ``embedding_lookup_sparse``)
take it as a static attribute:

* from a constant ``dense_shape``, or a ``sparse_placeholder``'s fully
  defined ``shape`` (a fed ``dense_shape`` must then equal it:
  ``Session.run`` checks);
* from a ``sparse_placeholder`` without a full shape: when the run is traced
  (the fed dense shape travels as the shape of an empty array), so there is
  one compiled plan per distinct fed dense shape;
* otherwise (a ``dense_shape`` computed from fed or variable *values*, e.g.
  a ``SparseTensor`` built from three plain placeholders) those ops raise
  ``DataDependentShapeError`` when the graph is built. (``string_split``
  passes its dense shape to the plan as the shape of an empty array too.)
"""

from __future__ import annotations

import weakref
from typing import Any, NamedTuple

import numpy as np

from jaxsess._core import _context, dtypes as _dtypes
from jaxsess._core.graph._builder import (
    constant_value,
    convert_to_tensor,
    op_scope,
)
from jaxsess._core.graph._graph import Graph, Operation, SessionLike, Tensor
from jaxsess._core.graph._shape import TensorShape
from jaxsess._core.types import DTypeLike, FeedDict, ShapeLike, TensorLike

__all__ = [
    "SHAPE_CARRIERS", "SparseTensor", "SparseTensorValue", "convert_to_tensor_or_sparse_tensor", "is_sparse",
    "as_sparse",
]


# The ``dense_shape`` tensor of each ``sparse_placeholder`` without a full
# shape -> the empty bool placeholder whose shape carries it: feeding the
# ``dense_shape`` tensor itself feeds that placeholder (``_fetch.sparse_feeds``).
SHAPE_CARRIERS: weakref.WeakKeyDictionary[Tensor, Tensor] = weakref.WeakKeyDictionary()


class SparseTensorValue(NamedTuple):
    """A fetched (or fed) sparse value of host arrays, as ``tf.compat.v1.SparseTensorValue``.

    Attributes:
      indices: int64 ``[N, rank]``.
      values: ``[N]``.
      dense_shape: int64 ``[rank]``.
    """

    indices: Any
    values: Any
    dense_shape: Any


class SparseTensor:
    """A sparse tensor as three dense tensors, as ``tf.compat.v1.SparseTensor``.

    Args:
      indices: int64 ``[N, rank]`` (any int converts): the positions of the
        stored values, in row-major order for the ops that assume it
        (``sparse.reorder`` sorts them).
      values: ``[N]``: the stored values, of any dtype.
      dense_shape: int64 ``[rank]``: the shape of the dense tensor.

    Raises:
      ValueError: the three do not fit together (``indices`` not of rank 2,
        ``values`` not of rank 1, ``dense_shape`` not a vector, or their
        ``N`` / rank differ), naming the tensors.
    """

    __slots__ = ("_indices", "_values", "_dense_shape", "_shape", "_shape_carrier")

    def __init__(self, indices: TensorLike, values: TensorLike, dense_shape: TensorLike) -> None:
        with op_scope(None, "SparseTensor", [indices, values, dense_shape]):
            self._indices: Tensor = convert_to_tensor(indices, dtype=_dtypes.int64, name="indices")
            self._values: Tensor = convert_to_tensor(values, name="values")
            self._dense_shape: Tensor = convert_to_tensor(dense_shape, dtype=_dtypes.int64, name="dense_shape")
        ishape = TensorShape(self._indices.shape)
        vshape = TensorShape(self._values.shape)
        sshape = TensorShape(self._dense_shape.shape)
        if ishape.ndims is not None and ishape.ndims != 2:
            raise ValueError(f"SparseTensor: indices {self._indices.name} must have rank 2, got shape {ishape}.")
        if vshape.ndims is not None and vshape.ndims != 1:
            raise ValueError(f"SparseTensor: values {self._values.name} must have rank 1, got shape {vshape}.")
        if sshape.ndims is not None and sshape.ndims != 1:
            raise ValueError(
                f"SparseTensor: dense_shape {self._dense_shape.name} must have rank 1, got shape {sshape}."
            )
        n_i = ishape.as_list()[0] if ishape.ndims else None
        n_v = vshape.as_list()[0] if vshape.ndims else None
        if n_i is not None and n_v is not None and n_i != n_v:
            raise ValueError(f"SparseTensor: indices have {n_i} rows but values have {n_v} elements.")
        rank = sshape.as_list()[0] if sshape.ndims else None
        r_i = ishape.as_list()[1] if ishape.ndims else None
        if rank is not None and r_i is not None and rank != r_i:
            raise ValueError(f"SparseTensor: indices have {r_i} columns but dense_shape has {rank} elements.")
        self._shape = _static_dense_shape(self._dense_shape, rank if rank is not None else r_i)
        # sparse_placeholder without a full shape: the empty bool placeholder
        # whose shape is ``dense_shape + [0]``, fed in its place (see ``_fetch.sparse_feeds``).
        self._shape_carrier: Tensor | None = None

    @classmethod
    def from_value(cls, value: SparseTensor | SparseTensorValue) -> SparseTensor:
        """A ``SparseTensor`` of constants from a :class:`SparseTensorValue` (a ``SparseTensor`` passes)."""
        if isinstance(value, SparseTensor):
            return value
        return cls(indices=value.indices, values=value.values, dense_shape=value.dense_shape)

    @property
    def indices(self) -> Tensor:
        """int64 ``[N, rank]``: the positions of the stored values."""
        return self._indices

    @property
    def values(self) -> Tensor:
        """``[N]``: the stored values."""
        return self._values

    @property
    def dense_shape(self) -> Tensor:
        """int64 ``[rank]``: the dense shape, as a tensor."""
        return self._dense_shape

    @property
    def dtype(self) -> _dtypes.DType:
        """The dtype of ``values``."""
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        """The static dense shape: what is known of ``dense_shape`` when the graph is built."""
        return self._shape

    def get_shape(self) -> TensorShape:
        """:attr:`shape`, as TF1."""
        return self._shape

    def set_shape(self, shape: ShapeLike) -> None:
        """Merges ``shape`` into the static dense shape, as TF's ``SparseTensor.set_shape``.

        Raises:
          ValueError: ``shape`` is incompatible with the known shape.
        """
        self._shape = self._shape.merge_with(TensorShape(shape))

    @property
    def op(self) -> Operation:
        """The op that produces ``values``, as TF."""
        return self._values.op

    @property
    def graph(self) -> Graph:
        """The graph of the three tensors."""
        return self._values.graph

    def eval(self, feed_dict: FeedDict | None = None, session: SessionLike | None = None) -> SparseTensorValue:
        """The value in ``session`` (default: the default session), as ``SparseTensor.eval``."""
        if session is None:
            stack = _context.session_stack()
            if not stack:
                raise ValueError(
                    "Cannot evaluate tensor using `eval()`: No default session is registered. "
                    "Use `with sess.as_default()` or pass an explicit session to `eval(session=sess)`"
                )
            session = stack[-1]
        return session.run(self, feed_dict)  # type: ignore[no-any-return]

    def consumers(self) -> list[Operation]:
        """The ops that read any of the three tensors."""
        seen: list[Operation] = []
        for t in (self._indices, self._values, self._dense_shape):
            for op in t.consumers():
                if op not in seen:
                    seen.append(op)
        return seen

    def __repr__(self) -> str:
        return f"SparseTensor(indices={self._indices!r}, values={self._values!r}, dense_shape={self._dense_shape!r})"

    def __str__(self) -> str:
        return (f"SparseTensor(indices={self._indices}, values={self._values}, "
                f"dense_shape={self._dense_shape})")


def _static_dense_shape(dense_shape: Tensor, rank: int | None) -> TensorShape:
    """What is known of a ``dense_shape`` tensor's value when the graph is built (-1: unknown)."""
    v = constant_value(dense_shape)
    if v is not None:
        return TensorShape([None if int(d) < 0 else int(d) for d in np.asarray(v).reshape(-1)])
    return TensorShape(None if rank is None else [None] * rank)


def is_sparse(x: object) -> bool:
    """Whether ``x`` is a ``SparseTensor`` or a ``SparseTensorValue``."""
    return isinstance(x, SparseTensor | SparseTensorValue)


def convert_to_tensor_or_sparse_tensor(
    value: TensorLike | SparseTensor | SparseTensorValue, dtype: DTypeLike | None = None, name: str | None = None
) -> Any:
    """``value`` as a ``SparseTensor`` (from a ``SparseTensorValue``) or a dense tensor,
    as ``tf.compat.v1.convert_to_tensor_or_sparse_tensor``.

    Raises:
      RuntimeError: a sparse value of another dtype than ``dtype``.
    """
    if isinstance(value, SparseTensor | SparseTensorValue):
        sp = SparseTensor.from_value(value)
        if dtype is not None and sp.dtype != _dtypes.as_dtype(dtype):
            raise RuntimeError(f"Sparse dtype mismatch. Requested: {_dtypes.as_dtype(dtype).name}, "
                               f" Actual: {sp.dtype.name}")
        return sp
    return convert_to_tensor(value, dtype=dtype, name=name)


def as_sparse(sp: object, fn: str) -> SparseTensor:
    """``sp`` as a ``SparseTensor`` (a ``SparseTensorValue`` becomes constants).

    Raises:
      TypeError: ``sp`` is not sparse (names ``fn``).
    """
    if isinstance(sp, SparseTensorValue):
        return SparseTensor.from_value(sp)
    if not isinstance(sp, SparseTensor):
        raise TypeError(f"{fn}: expected a SparseTensor, got {type(sp).__name__}.")
    return sp
