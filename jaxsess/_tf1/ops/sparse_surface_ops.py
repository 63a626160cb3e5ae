"""More of ``tf.sparse``: ``eye``, ``expand_dims`` and ``to_indicator``, over the existing ops.

``expand_dims`` and ``to_indicator`` need the dense shape known when the graph
is built (``expand_dims`` is a ``sparse.reshape`` with a 1 inserted;
``to_indicator`` a ``scatter_nd``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._tf1.ops import array_ops as array_ops, indexing_ops as indexing_ops, math_ops as math_ops
from jaxsess._tf1.ops._args import op_scope, static_int
from jaxsess._tf1.ops.sparse_ops import _dense_shape, as_sparse, sparse_reshape
from jaxsess._tf1.ops.sparse_tensor import SparseTensor

__all__ = ["eye", "expand_dims", "to_indicator"]


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
