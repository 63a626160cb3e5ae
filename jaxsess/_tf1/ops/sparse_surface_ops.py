"""More of ``tf.sparse``: ``eye``, ``expand_dims``, ``to_indicator``, ``reset_shape``,
``mask``, ``reduce_sum_sparse`` and ``reduce_max_sparse``, over the existing ops.

``expand_dims`` and ``to_indicator`` need the dense shape known when the graph
is built (``expand_dims`` is a ``sparse.reshape`` with a 1 inserted;
``to_indicator`` a ``scatter_nd``). ``mask`` and the ``*_sparse`` reductions
have as many entries as the data decide (TF's ``ListDiff``,
``SparseReduce*Sparse``), so they need the indices known when the graph is
built (constants); the values may be fed or computed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import constant_value, convert_to_tensor, identity
from jaxsess._core.graph._graph import get_default_graph
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import (
    array_ops as array_ops,
    check_ops as check_ops,
    gather_ops as gather_ops,
    indexing_ops as indexing_ops,
    math_ops as math_ops,
    segment_ops as segment_ops,
)
from jaxsess._tf1.ops._args import op_scope, static_int
from jaxsess._tf1.ops.indexed_slices import IndexedSlices
from jaxsess._tf1.ops.segment_ops import DataDependentShapeError
from jaxsess._tf1.ops.sparse_ops import _dense_shape, as_sparse, sparse_reshape
from jaxsess._tf1.ops.sparse_tensor import SparseTensor

__all__ = ["eye", "expand_dims", "to_indicator", "reset_shape", "mask", "reduce_sum_sparse", "reduce_max_sparse"]


def eye(num_rows: Any, num_columns: Any = None, dtype: Any = _dtypes.float32, name: str | None = None) -> SparseTensor:
    """The ``[num_rows, num_columns]`` identity as a ``SparseTensor`` (ones on the diagonal), as
    ``tf.sparse.eye`` (sizes known when the graph is built)."""
    with op_scope(name, "eye", [num_rows, num_columns]):
        rows = static_int(num_rows, "sparse.eye", "num_rows")
        cols = rows if num_columns is None else static_int(num_columns, "sparse.eye", "num_columns")
        n = min(rows, cols)
        idx = np.stack([np.arange(n), np.arange(n)], axis=1).astype(np.int64)
        return SparseTensor(idx, np.ones(n, _dtypes.as_dtype(dtype).np_dtype), np.array([rows, cols], np.int64))


def expand_dims(sp_input: Any, axis: int | None = None, name: str | None = None) -> SparseTensor:
    """``sp_input`` with a dimension of size 1 inserted at ``axis`` (default -1), as
    ``tf.sparse.expand_dims``.

    Raises:
      ValueError: ``axis`` out of ``[-rank - 1, rank]``.
    """
    sp = as_sparse(sp_input, "sparse.expand_dims")
    dims = list(_dense_shape(sp, "sparse.expand_dims"))
    ax = -1 if axis is None else int(axis)
    if not -len(dims) - 1 <= ax <= len(dims):
        raise ValueError(f"sparse.expand_dims: axis {ax} is out of range for rank {len(dims)}.")
    if ax < 0:
        ax += len(dims) + 1
    with op_scope(name, "expand_dims", [sp.indices, sp.values]):
        return sparse_reshape(sp, dims[:ax] + [1] + dims[ax:])


def to_indicator(sp_input: Any, vocab_size: Any, name: str | None = None) -> Any:
    """The dense bool ``[..., vocab_size]`` indicator of ``sp_input``'s ids (its last dimension
    lists ids per row), as ``tf.sparse.to_indicator`` (``sparse_to_indicator``); ids outside
    ``[0, vocab_size)`` are dropped (TF raises at run time).

    Raises:
      DataDependentShapeError: the dense shape is unknown when the graph is built.
    """
    sp = as_sparse(sp_input, "sparse.to_indicator")
    dims = list(_dense_shape(sp, "sparse.to_indicator"))
    vocab = static_int(vocab_size, "sparse.to_indicator", "vocab_size")
    with op_scope(name, "SparseToIndicator", [sp.indices, sp.values]) as scope:
        ids = math_ops.cast(sp.values, _dtypes.int64)
        lead = array_ops.slice(sp.indices, [0, 0], [-1, len(dims) - 1])
        idx = array_ops.concat([lead, array_ops.expand_dims(ids, 1)], 1)
        hits = indexing_ops.scatter_nd(idx, array_ops.ones_like(ids, dtype=_dtypes.int32), dims[:-1] + [vocab])
        return math_ops.greater(hits, 0, name=scope)


def reset_shape(sp_input: Any, new_shape: Any = None) -> SparseTensor:
    """``sp_input`` with dense shape ``new_shape``, or (``None``) the tight shape ``max(indices) + 1``
    per dimension, as ``tf.sparse.reset_shape`` (indices and values unchanged).

    Raises:
      ValueError: ``new_shape`` not 1-D, of another rank, or (both known when the graph is built)
        smaller than ``sp_input``'s shape in some dimension.
    """
    sp = as_sparse(sp_input, "sparse.reset_shape")
    indices = identity(sp.indices)
    values = identity(sp.values)
    in_shape = identity(sp.dense_shape)
    if new_shape is None:
        low = math_ops.reduce_max(indices, axis=0)
        out = math_ops.maximum(convert_to_tensor(0, dtype=_dtypes.int64), math_ops.add(low, array_ops.ones_like(in_shape)))
        return SparseTensor(indices, values, out)
    shape_t = math_ops.cast(convert_to_tensor(new_shape), _dtypes.int64)
    st = TensorShape(shape_t.shape)
    if st.ndims is not None and st.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {st.ndims}")
    rank = sp.shape.ndims
    if st.ndims == 1 and st[0] is not None and rank is not None and st[0] != rank:
        raise ValueError(f"Dimensions {st[0]} and {rank} are not compatible")
    const = constant_value(shape_t)
    if const is not None and sp.shape.is_fully_defined():
        cur = np.array(sp.shape.as_list())
        if not np.all(cur <= const):
            raise ValueError(f"Requested new_shape should have dimension sizes >= sp_input.shape.  Found new_shape "
                             f"({cur}), sp_input.shape ({const}).")
        return SparseTensor(indices, values, const.astype(np.int64))
    with get_default_graph().control_dependencies([check_ops.assert_less_equal(in_shape, shape_t)]):
        shape_t = identity(shape_t)
    return SparseTensor(indices, values, shape_t)


def mask(a: Any, mask_indices: Any, name: str | None = None) -> IndexedSlices:
    """The slices of ``a`` (an ``IndexedSlices``) whose index is not in ``mask_indices``, as
    ``tf.sparse.mask`` (``a``'s order kept; ``a.indices`` and ``mask_indices`` known when the
    graph is built: the number of slices kept depends on them).

    Raises:
      DataDependentShapeError: the indices depend on fed or variable values.
    """
    with op_scope(name, "sparse_mask", [a, mask_indices]) as scope:
        out_indices, to_gather = segment_ops.setdiff1d(a.indices, mask_indices)
        out_values = gather_ops.gather(a.values, to_gather, name=scope)
        return IndexedSlices(out_values, out_indices, a.dense_shape)


def _reduce_sparse(fn: str, segment: Any, sp_input: Any, axis: Any, keepdims: Any, reduction_axes: Any,
                   keep_dims: Any, name: str | None) -> SparseTensor:
    sp = as_sparse(sp_input, fn)
    idx = constant_value(sp.indices)
    if idx is None:
        raise DataDependentShapeError(f"sparse.{fn}", sp.indices, "Give the SparseTensor constant indices, or "
                                      "use tf.sparse.reduce_sum/reduce_max (dense results).")
    dims = _dense_shape(sp, f"sparse.{fn}")
    rank = len(dims)
    ax = reduction_axes if axis is None else axis
    axes = set(range(rank)) if ax is None else {int(a) % rank for a in np.atleast_1d(np.asarray(ax)).tolist()}
    keep = bool(keep_dims if keepdims is None else keepdims)
    kept = [d for d in range(rank) if d not in axes]
    idx = np.asarray(idx, np.int64).reshape(-1, rank)
    if kept:
        groups, inverse = np.unique(idx[:, kept], axis=0, return_inverse=True)
    else:
        groups, inverse = np.zeros((min(len(idx), 1), 0), np.int64), np.zeros(len(idx), np.int64)
    n = len(groups)
    if keep:
        out_idx = np.zeros((n, rank), np.int64)
        out_idx[:, kept] = groups
        out_shape = [1 if d in axes else dims[d] for d in range(rank)]
    else:
        out_idx = groups.astype(np.int64)
        out_shape = [dims[d] for d in kept]
    with op_scope(name, f"Sparse{fn.title().replace('_', '')}", [sp.indices, sp.values]):
        values = segment(sp.values, np.asarray(inverse, np.int32).reshape(-1), n)
        return SparseTensor(out_idx, values, np.asarray(out_shape, np.int64))


def reduce_sum_sparse(sp_input: Any, axis: Any = None, keepdims: Any = None, reduction_axes: Any = None,
                      keep_dims: Any = None, name: str | None = None) -> SparseTensor:
    """The sums of ``sp_input``'s stored values over ``axis`` as a ``SparseTensor``, as
    ``tf.sparse.reduce_sum_sparse``: one entry per group of the remaining index that has stored
    values (sorted as TF's), the dense shape the reduced one (``keepdims``: size-1 dims kept).

    Raises:
      DataDependentShapeError: ``sp_input``'s indices are not known when the graph is built.
    """
    return _reduce_sparse("reduce_sum_sparse", segment_ops.unsorted_segment_sum, sp_input, axis, keepdims,
                          reduction_axes, keep_dims, name)


def reduce_max_sparse(sp_input: Any, axis: Any = None, keepdims: Any = None, reduction_axes: Any = None,
                      keep_dims: Any = None, name: str | None = None) -> SparseTensor:
    """The maxima of ``sp_input``'s stored values over ``axis`` as a ``SparseTensor``, as
    ``tf.sparse.reduce_max_sparse`` (see :func:`reduce_sum_sparse`).

    Raises:
      DataDependentShapeError: ``sp_input``'s indices are not known when the graph is built.
    """
    return _reduce_sparse("reduce_max_sparse", segment_ops.unsorted_segment_max, sp_input, axis, keepdims,
                          reduction_axes, keep_dims, name)
