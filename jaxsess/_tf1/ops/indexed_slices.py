"""``tf.IndexedSlices``: a sparse set of rows of a dense tensor, as TF1's.

What jaxsess's gradients are: ``tf.gradients`` of ``gather`` /
``embedding_lookup`` give a *dense* ``Tensor`` here (JAX's gradient is a
scatter-add into zeros, which XLA fuses), where TF gives ``IndexedSlices``.
Code written for TF keeps working: ``isinstance(g, tf.IndexedSlices)`` is
``False``, so it takes its dense branch (the numbers are the same); and an
``IndexedSlices`` the program builds itself converts to its dense tensor
wherever a tensor is expected (``tf.convert_to_tensor``, any op,
``Optimizer.apply_gradients``), as TF's conversion function does.
"""

from __future__ import annotations

from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import constant_value, convert_to_tensor
from jaxsess._core.graph._graph import TensorShape
from jaxsess._tf1.ops import segment_ops as segment_ops
from jaxsess._tf1.ops._args import label, op_scope
from jaxsess._tf1.ops.sparse_tensor import SparseTensor

__all__ = ["IndexedSlices", "convert_to_tensor_or_indexed_slices"]


class IndexedSlices:
    """Rows ``values[i]`` of a dense tensor at row ``indices[i]``, as ``tf.IndexedSlices``.

    Args:
      values: ``[N, ...]`` of any dtype.
      indices: int32/int64 ``[N]``; repeated indices add up when densified.
      dense_shape: optional int ``[rank]``: the dense tensor's shape (its
        first entry must be known when the graph is built to densify).
    """

    def __init__(self, values: Any, indices: Any, dense_shape: Any = None) -> None:
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape
        self._dense: Any = None

    @property
    def values(self) -> Any:
        """The ``[N, ...]`` rows."""
        return self._values

    @property
    def indices(self) -> Any:
        """The ``[N]`` row indices."""
        return self._indices

    @property
    def dense_shape(self) -> Any:
        """The dense tensor's shape (a 1-D tensor) or ``None``."""
        return self._dense_shape

    @property
    def dtype(self) -> _dtypes.DType:
        return _dtypes.as_dtype(self._values.dtype)

    @property
    def name(self) -> str:
        return self._values.name

    @property
    def op(self) -> Any:
        return self._values.op

    @property
    def graph(self) -> Any:
        return self._values.graph

    @property
    def device(self) -> str:
        return self._values.device

    @property
    def shape(self) -> TensorShape:
        """The dense shape as far as known: from ``dense_shape``'s value, else ``values``' shape
        with an unknown first dimension (as TF)."""
        if self._dense_shape is not None:
            val = constant_value(self._dense_shape)
            if val is not None:
                return TensorShape([int(v) for v in val])
        vs = TensorShape(self._values.shape)
        return TensorShape(None) if vs.dims is None else TensorShape([None, *vs.as_list()[1:]])

    def _as_graph_element(self) -> Any:
        if self._dense is None:
            self._dense = _to_dense(self)
        return self._dense

    def __neg__(self) -> IndexedSlices:
        return IndexedSlices(-convert_to_tensor(self._values), self._indices, self._dense_shape)

    def __repr__(self) -> str:
        shape = "" if self._dense_shape is None else f", dense_shape={self._dense_shape}"
        return f"IndexedSlices(indices={self._indices}, values={self._values}{shape})"


def _to_dense(s: IndexedSlices) -> Any:
    if s.dense_shape is None:
        raise ValueError(f"Tensor conversion requested for IndexedSlices without dense_shape: {s!r}")
    rows = constant_value(s.dense_shape)
    if rows is None:
        raise ValueError(f"Converting IndexedSlices to a tensor needs dense_shape known when the graph is "
                         f"built, got {label(s.dense_shape)}.")
    with op_scope(None, "IndexedSlices", [s.values, s.indices]):
        return segment_ops.unsorted_segment_sum(s.values, s.indices, int(rows[0]))


def convert_to_tensor_or_indexed_slices(value: Any, dtype: Any = None, name: str | None = None) -> Any:
    """``value`` unchanged if it is an :class:`IndexedSlices` (or a ``SparseTensor``), else
    ``convert_to_tensor(value, dtype, name)``, as ``tf.convert_to_tensor_or_indexed_slices``.

    Raises:
      ValueError: ``dtype`` differs from the ``IndexedSlices``' dtype.
    """
    if isinstance(value, IndexedSlices | SparseTensor):
        if dtype is not None and _dtypes.as_dtype(dtype) != value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dtypes.as_dtype(dtype).name} for Tensor with "
                             f"dtype {value.dtype.name}: {value!r}")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)
