"""Mean average precision at k, as ``tf.compat.v1.metrics.average_precision_at_k`` (and its
older name ``sparse_average_precision_at_k``), TF's ``metrics_impl``.

Per row: the top ``k`` class ids of ``predictions``; ``relevant[i]`` whether id ``i`` is among
the row's labels (a set); ``AP = sum_i precision@i * relevant[i] / min(num_labels, k)`` with
``num_labels`` the labels' last dimension (dense labels: TF counts the columns, not the
distinct ids). Accumulators ``<scope>/max_1`` (rows seen, or their summed weights: TF's name) and
``<scope>/total`` (summed, weighted AP), ``float64``; the metric is ``total / max`` (0 before
any row: TF's ``div_no_nan``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._graph import Tensor, get_default_graph, name_scope
from jaxsess._tf1.ops import math_ops as math_ops
from jaxsess._tf1.ops.array_ops import expand_dims, ones_like, size
from jaxsess._tf1.ops.metrics_ops import (
    _at_k_name,
    _collect,
    _graph_only,
    _maybe_expand_labels,
    metric_variable,
)
from jaxsess._tf1.ops.nn_impl import div_no_nan
from jaxsess._tf1.ops.nn_ops import top_k
from jaxsess._tf1.ops.state_ops import assign_add

__all__ = ["average_precision_at_k", "sparse_average_precision_at_k"]


def _average_precision(labels: Any, predictions_idx: Any) -> Any:
    """Per-row average precision (``float64 [D1, ..., DN]``) of ``predictions_idx [..., k]``."""
    with name_scope(None, "average_precision") as scope:
        idx = math_ops.cast(predictions_idx, _dtypes.int64, name="predictions_idx")
        k = idx.shape.as_list()[-1] if idx.shape.ndims else None
        if k is None:
            raise ValueError("The last dimension of predictions_idx must be set.")
        labels = _maybe_expand_labels(labels, idx)
        num_labels = labels.shape.as_list()[-1]
        if num_labels is None:
            raise ValueError("jaxsess's average_precision_at_k needs the labels' last dimension known when the "
                             "graph is built.")
        found = math_ops.equal(expand_dims(idx, -1), expand_dims(math_ops.cast(labels, _dtypes.int64), -2))
        relevant = math_ops.cast(math_ops.reduce_any(found, -1), _dtypes.float64, name="relevant_per_k")
        tp = math_ops.cumsum(relevant, axis=-1, name="tp_per_k")
        retrieved = convert_to_tensor(np.arange(1, k + 1, dtype=np.float64), name="retrieved_per_k")
        precision = math_ops.divide(tp, retrieved, name="precision_per_k")
        total = math_ops.reduce_sum(math_ops.multiply(precision, relevant), -1, name="precision_sum")
        return math_ops.divide(total, float(min(num_labels, k)), name=scope)


def average_precision_at_k(labels: Any, predictions: Any, k: int, weights: Any = None,
                           metrics_collections: Sequence[str] | None = None,
                           updates_collections: Sequence[str] | None = None,
                           name: str | None = None) -> tuple[Tensor, Tensor]:
    """Mean average precision of the top ``k`` classes of ``predictions`` (``float[..., num_classes]``
    scores) against ``labels`` (``int [...]`` or ``[..., num_labels]``, dense), as
    ``tf.compat.v1.metrics.average_precision_at_k``.

    Returns:
      ``(mean_average_precision, update_op)``, ``float64`` scalars.

    Raises:
      ValueError: ``k < 1``, or labels whose rank is neither the predictions' nor one less.
      NotImplementedError: ``SparseTensor`` labels.
    """
    _graph_only("average_precision_at_k")
    if k < 1:
        raise ValueError(f"Invalid k={k}.")
    with name_scope(name, _at_k_name("average_precision", k)) as scope:
        _, predictions_idx = top_k(predictions, k)
        ap = _average_precision(labels, predictions_idx)
        # TF's per-row computation takes the name 'max' in this scope (its accumulator is 'max_1')
        get_default_graph().unique_name("max")
        w = None
        if weights is not None:
            w = math_ops.multiply(math_ops.cast(weights, _dtypes.float64), ones_like(ap))
            ap = math_ops.multiply(ap, w)
        with name_scope(None, "max") as max_scope:
            max_var = metric_variable([], _dtypes.float64, name=max_scope)
            batch_max = (math_ops.cast(size(ap, name="batch_max"), _dtypes.float64) if w is None
                         else math_ops.reduce_sum(w, name="batch_max"))
            max_update = assign_add(max_var, batch_max, name="update")
        with name_scope(None, "total") as total_scope:
            total_var = metric_variable([], _dtypes.float64, name=total_scope)
            total_update = assign_add(total_var, math_ops.reduce_sum(ap, name="batch_total"), name="update")
        metric = div_no_nan(total_var, max_var, name="mean")
        _collect(metrics_collections, metric)
        update = div_no_nan(total_update, max_update, name=scope)
        _collect(updates_collections, update)
        return metric, update


sparse_average_precision_at_k = average_precision_at_k
