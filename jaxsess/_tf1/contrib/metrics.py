"""``tf.contrib.metrics``' streaming metrics (TF 1.x): :mod:`jaxsess.metrics` with contrib's
argument order (``predictions`` before ``labels``), each returning ``(value, update_op)``, plus
``aggregate_metrics``/``aggregate_metric_map``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jaxsess._tf1.ops import metrics_ops as _m

__all__ = ["streaming_accuracy", "streaming_mean", "streaming_mean_tensor", "streaming_auc", "streaming_precision",
           "streaming_recall", "streaming_mean_absolute_error", "streaming_mean_squared_error",
           "streaming_root_mean_squared_error", "streaming_mean_iou", "streaming_mean_relative_error",
           "streaming_mean_cosine_distance", "streaming_percentage_less", "streaming_true_positives",
           "streaming_false_positives", "streaming_true_negatives", "streaming_false_negatives",
           "aggregate_metrics", "aggregate_metric_map"]


def _swapped(fn: Callable[..., Any], contrib_name: str) -> Callable[..., Any]:
    """``fn(labels, predictions, ...)`` called as contrib's ``(predictions, labels, ...)``."""

    def metric(predictions: Any, labels: Any, *args: Any, **kwargs: Any) -> Any:
        return fn(labels, predictions, *args, **kwargs)

    metric.__name__ = metric.__qualname__ = contrib_name
    metric.__doc__ = (f"``tf.contrib.metrics.{contrib_name}(predictions, labels, ...)``: "
                      f"``tf.metrics.{fn.__name__}(labels, predictions, ...)``; returns ``(value, update_op)``.")
    return metric


streaming_accuracy = _swapped(_m.accuracy, "streaming_accuracy")
streaming_auc = _swapped(_m.auc, "streaming_auc")
streaming_precision = _swapped(_m.precision, "streaming_precision")
streaming_recall = _swapped(_m.recall, "streaming_recall")
streaming_mean_absolute_error = _swapped(_m.mean_absolute_error, "streaming_mean_absolute_error")
streaming_mean_squared_error = _swapped(_m.mean_squared_error, "streaming_mean_squared_error")
streaming_root_mean_squared_error = _swapped(_m.root_mean_squared_error, "streaming_root_mean_squared_error")
streaming_mean_iou = _swapped(_m.mean_iou, "streaming_mean_iou")
streaming_mean_relative_error = _swapped(_m.mean_relative_error, "streaming_mean_relative_error")
streaming_mean_cosine_distance = _swapped(_m.mean_cosine_distance, "streaming_mean_cosine_distance")
streaming_true_positives = _swapped(_m.true_positives, "streaming_true_positives")
streaming_false_positives = _swapped(_m.false_positives, "streaming_false_positives")
streaming_true_negatives = _swapped(_m.true_negatives, "streaming_true_negatives")
streaming_false_negatives = _swapped(_m.false_negatives, "streaming_false_negatives")
streaming_mean = _m.mean
streaming_mean_tensor = _m.mean_tensor
streaming_percentage_less = _m.percentage_below


def aggregate_metrics(*value_update_tuples: tuple[Any, Any]) -> tuple[list[Any], list[Any]]:
    """``([values], [update_ops])`` from ``(value, update_op)`` pairs, as ``tf.contrib.metrics.aggregate_metrics``.

    Raises:
      ValueError: no pairs given.
    """
    if not value_update_tuples:
        raise ValueError("Expected at least one value_tensor/update_op pair")
    values, updates = zip(*value_update_tuples, strict=True)
    return list(values), list(updates)


def aggregate_metric_map(names_to_tuples: dict[str, tuple[Any, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``({name: value}, {name: update_op})``, as ``tf.contrib.metrics.aggregate_metric_map``."""
    names: Sequence[str] = list(names_to_tuples)
    return ({n: names_to_tuples[n][0] for n in names}, {n: names_to_tuples[n][1] for n in names})
