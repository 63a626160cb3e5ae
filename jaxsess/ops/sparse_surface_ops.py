"""More of ``tf.sparse``: ``eye`` and ``expand_dims``, over the existing sparse ops.

Both need the dense shape known when the graph is built (``expand_dims`` is a
``sparse.reshape`` with a 1 inserted).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess import dtypes as _dtypes
from jaxsess.ops._args import op_scope, static_int
from jaxsess.ops.sparse_ops import _dense_shape, as_sparse, sparse_reshape
from jaxsess.ops.sparse_tensor import SparseTensor

__all__ = ["eye", "expand_dims"]


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
