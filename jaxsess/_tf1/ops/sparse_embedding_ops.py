"""Embeddings of sparse ids, as ``tf.compat.v1.nn.embedding_lookup_sparse`` and
``safe_embedding_lookup_sparse``.

Built from ``embedding_lookup`` and an ``unsorted_segment_sum`` over the
rows of the ids' ``SparseTensor``, whose number (``dense_shape[0]``) is known
when the graph is built or, for a ``sparse_placeholder``, when the run is
traced (see :mod:`jaxsess._tf1.ops.sparse_tensor`). Gradients with respect to
``params`` are dense tensors (TF: ``IndexedSlices``).
"""

from __future__ import annotations

from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import identity
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import (
    array_ops as array_ops,
    math_ops as math_ops,
    nn_impl as nn_impl,
    nn_ops as nn_ops,
)
from jaxsess._tf1.ops._args import op_scope
from jaxsess._tf1.ops.sparse_ops import dim_attr, segment_sum_rows
from jaxsess._tf1.ops.sparse_tensor import as_sparse

__all__ = ["embedding_lookup_sparse", "safe_embedding_lookup_sparse"]


def embedding_lookup_sparse(params: Any, sp_ids: Any, sp_weights: Any, partition_strategy: str = "mod",
                            name: str | None = None, combiner: str | None = None, max_norm: Any = None,
                            allow_fast_lookup: bool = False) -> Any:
    """Combined embeddings of each row of ``sp_ids``, as ``tf.nn.embedding_lookup_sparse``.

    Args:
      params: ``[vocab, ...]`` (or a list holding one such tensor).
      sp_ids: ``SparseTensor`` ``[d0, d1]`` of int ids; its row of each id is
        ``indices[:, 0]``; ``d0`` must be known when the graph is built.
      sp_weights: ``SparseTensor`` of float weights with the same indices, or ``None`` (all 1).
      combiner: ``'sum'``, ``'mean'`` (default) or ``'sqrtn'``: the weighted
        sum divided by 1, the sum of the weights, or the root of the sum of
        their squares (rows without ids give 0).
      max_norm: clip each looked-up embedding to this L2 norm.

    Returns:
      ``[d0, *params.shape[1:]]``. TF's output has ``max(row id) + 1`` rows
      (the documented ``d0`` when the last row has ids); jaxsess always has
      ``d0``, the trailing empty rows zeros.

    Raises:
      DataDependentShapeError: ``d0`` is unknown when the graph is built.
      ValueError: an unknown ``combiner``.
    """
    if combiner is None:
        combiner = "mean"
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner!r}")
    ids = as_sparse(sp_ids, "embedding_lookup_sparse")
    weights = None if sp_weights is None else as_sparse(sp_weights, "embedding_lookup_sparse")
    rows = dim_attr(ids, 0, "embedding_lookup_sparse")
    with op_scope(name, "embedding_lookup_sparse", [ids.values]) as scope:
        segment_ids = math_ops.cast(array_ops.gather(ids.indices, 0, axis=1), _dtypes.int32)
        emb = nn_ops.embedding_lookup(params, ids.values, partition_strategy=partition_strategy, max_norm=max_norm)
        rank = TensorShape(emb.shape).ndims
        if weights is None:
            w = None
        else:
            w = weights.values
            if w.dtype != emb.dtype:
                w = math_ops.cast(w, emb.dtype)
            w = array_ops.reshape(w, [-1] + [1] * ((rank or 2) - 1))
            emb = math_ops.multiply(emb, w)
        total = segment_sum_rows(emb, segment_ids, rows)
        if combiner == "sum":
            return identity(total, name=scope)
        if w is None:
            w = array_ops.ones_like(array_ops.reshape(math_ops.cast(ids.values, emb.dtype),
                                                      [-1] + [1] * ((rank or 2) - 1)))
        if combiner == "mean":
            denom = segment_sum_rows(w, segment_ids, rows)
        else:
            denom = math_ops.sqrt(segment_sum_rows(math_ops.square(w), segment_ids, rows))
        return nn_impl.div_no_nan(total, denom, name=scope)


def safe_embedding_lookup_sparse(embedding_weights: Any, sparse_ids: Any, sparse_weights: Any = None,
                                 combiner: str = "mean", default_id: Any = None, name: str | None = None,
                                 partition_strategy: str = "div", max_norm: Any = None,
                                 allow_fast_lookup: bool = False) -> Any:
    """``embedding_lookup_sparse`` of a rank-2 ``sparse_ids`` where rows without
    ids give zeros (or the ``default_id`` embedding), as ``tf.nn.safe_embedding_lookup_sparse``.

    Negative ids are not pruned (TF drops them; that changes ``N`` with the data):
    they must not occur.

    Returns:
      ``[d0, *embedding_weights.shape[1:]]``.

    Raises:
      DataDependentShapeError: ``d0`` is unknown when the graph is built.
      NotImplementedError: ``sparse_ids`` of rank other than 2.
    """
    ids = as_sparse(sparse_ids, "safe_embedding_lookup_sparse")
    if ids.shape.ndims not in (None, 2):
        raise NotImplementedError("safe_embedding_lookup_sparse supports rank-2 sparse_ids only.")
    out = embedding_lookup_sparse(embedding_weights, ids, sparse_weights, partition_strategy=partition_strategy,
                                  name=name, combiner=combiner, max_norm=max_norm)
    if default_id is None:
        return out
    rows = dim_attr(ids, 0, "safe_embedding_lookup_sparse")
    params = embedding_weights[0] if isinstance(embedding_weights, list | tuple) else embedding_weights
    counts = segment_sum_rows(array_ops.ones_like(math_ops.cast(ids.values, _dtypes.int32)),
                                  math_ops.cast(array_ops.gather(ids.indices, 0, axis=1), _dtypes.int32), rows)
    lead = [-1] + [1] * ((TensorShape(out.shape).ndims or 2) - 1)
    empty = math_ops.cast(array_ops.reshape(math_ops.equal(counts, 0), lead), out.dtype)
    default = array_ops.gather(params, default_id)
    return math_ops.add(math_ops.multiply(out, 1 - empty), math_ops.multiply(default, empty))
