"""Streaming metrics, as TF1's ``tf.compat.v1.metrics`` (``metrics_impl.py``).

Each metric returns ``(value, update_op)``: ``update_op`` adds a batch to
the metric's accumulators and returns the metric over everything seen so far;
``value`` reads it without updating. The accumulators are local variables
(zero-initialised, not trainable) in the collections ``local_variables`` and
``metric_variables`` (:data:`METRIC_VARIABLES`), named as TF names them
(``accuracy/total``, ``accuracy/count``, ``precision/true_positives/count``,
``auc/true_positives``...): initialise them with
``tf.local_variables_initializer()``; re-running it resets the metric.

The value and update tensors are named ``<scope>/value`` and
``<scope>/update_op`` where TF names them so; dtypes follow TF (``float32``
values, ``mean_iou``'s confusion matrix in ``float64``). Metrics are graph
only: building one inside an ``EagerSession`` raises ``RuntimeError``, as TF.
Ranks must be known when the graph is built (TF also handles unknown ranks
with run-time conditionals).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor, executing_eagerly, identity
from jaxsess._core.graph._graph import GraphKeys, Tensor, TensorShape, add_to_collections, name_scope
from jaxsess._tf1.ops import math_ops as math_ops
from jaxsess._tf1.ops.array_ops import (
    expand_dims,
    one_hot,
    ones_like,
    reshape,
    size,
    squeeze,
    zeros,
    zeros_like,
)
from jaxsess._tf1.ops.check_ops import assert_greater_equal, assert_less_equal
from jaxsess._tf1.ops.nn_impl import div_no_nan
from jaxsess._tf1.ops.nn_ops import top_k
from jaxsess._tf1.ops.state_ops import Variable, assign_add
from jaxsess._tf1.ops.variable_scope import variable_scope

__all__ = [
    "METRIC_VARIABLES",
    "metric_variable",
    "mean",
    "accuracy",
    "mean_absolute_error",
    "mean_squared_error",
    "root_mean_squared_error",
    "percentage_below",
    "true_positives",
    "false_positives",
    "true_negatives",
    "false_negatives",
    "precision",
    "recall",
    "auc",
    "mean_iou",
    "mean_per_class_accuracy",
    "mean_tensor",
    "mean_relative_error",
    "mean_cosine_distance",
    "true_positives_at_thresholds",
    "false_positives_at_thresholds",
    "true_negatives_at_thresholds",
    "false_negatives_at_thresholds",
    "precision_at_thresholds",
    "recall_at_thresholds",
    "sensitivity_at_specificity",
    "specificity_at_sensitivity",
    "recall_at_k",
    "recall_at_top_k",
    "precision_at_k",
    "precision_at_top_k",
    "sparse_precision_at_k",
    "interpolate_pr_auc",
    "confusion_counts_at_thresholds",
]

METRIC_VARIABLES = GraphKeys.METRIC_VARIABLES
LOCAL_VARIABLES = GraphKeys.LOCAL_VARIABLES


def _graph_only(fn: str) -> None:
    if executing_eagerly():
        raise RuntimeError(f"tf.metrics.{fn} is not supported when eager execution is enabled.")


def metric_variable(shape: Any, dtype: Any, validate_shape: bool = True, name: str | None = None) -> Variable:
    """A zero-initialised, non-trainable variable in ``local_variables`` and
    ``metric_variables``, as TF's ``metrics_impl.metric_variable``."""
    shape = TensorShape(shape).as_list()
    return Variable(lambda: zeros(shape, dtype), trainable=False, collections=[LOCAL_VARIABLES, METRIC_VARIABLES],
                    validate_shape=validate_shape, name=name)


def _collect(collections: Sequence[str] | None, value: Any) -> None:
    if collections:
        add_to_collections(collections, value)


def _remove_squeezable(predictions: Any, labels: Any, weights: Any) -> tuple[Any, Any, Any]:
    """TF's ``_remove_squeezable_dimensions`` (static ranks)."""
    predictions = convert_to_tensor(predictions)
    if labels is not None:
        labels = convert_to_tensor(labels)
        pr, lr = predictions.shape.ndims, labels.shape.ndims
        if pr is not None and lr is not None:
            if pr - lr == 1 and predictions.shape.as_list()[-1] in (1, None):
                predictions = squeeze(predictions, [-1])
            elif lr - pr == 1 and labels.shape.as_list()[-1] in (1, None):
                labels = squeeze(labels, [-1])
        if not predictions.shape.is_compatible_with(labels.shape):
            raise ValueError(f"Shapes {predictions.shape} and {labels.shape} are incompatible")
    if weights is None:
        return predictions, labels, None
    weights = convert_to_tensor(weights)
    wr, pr = weights.shape.ndims, predictions.shape.ndims
    if wr == 0 or wr is None or pr is None:
        return predictions, labels, weights
    if wr - pr == 1:
        weights = squeeze(weights, [-1])
    elif pr - wr == 1:
        weights = expand_dims(weights, -1)
    return predictions, labels, weights


def _broadcast_weights(weights: Any, values: Any) -> Any:
    return math_ops.multiply(math_ops.cast(weights, _dtypes.float32), ones_like(values))


def mean(values: Any, weights: Any = None, metrics_collections: Sequence[str] | None = None,
         updates_collections: Sequence[str] | None = None, name: str | None = None) -> tuple[Tensor, Tensor]:
    """The (weighted) mean of ``values`` over all batches, as ``tf.compat.v1.metrics.mean``.

    Variables ``<name>/total`` and ``<name>/count`` (``float32`` scalars).

    Returns:
      ``(mean, update_op)``: ``float32`` scalars; 0 before any update.

    Raises:
      RuntimeError: inside an ``EagerSession``.
    """
    _graph_only("mean")
    with variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, _dtypes.float32)
        total = metric_variable([], _dtypes.float32, name="total")
        count = metric_variable([], _dtypes.float32, name="count")
        if weights is None:
            num_values = math_ops.cast(size(values), _dtypes.float32)
        else:
            values, _, weights = _remove_squeezable(values, None, weights)
            weights = _broadcast_weights(weights, values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.reduce_sum(weights)
        update_total = assign_add(total, math_ops.reduce_sum(values))
        with values.graph.control_dependencies([values]):
            update_count = assign_add(count, num_values)
        value = div_no_nan(total, math_ops.maximum(count, 0.0), name="value")
        _collect(metrics_collections, value)
        update_op = div_no_nan(update_total, math_ops.maximum(update_count, 0.0), name="update_op")
        _collect(updates_collections, update_op)
        return value, update_op


def accuracy(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Sequence[str] | None = None,
             updates_collections: Sequence[str] | None = None, name: str | None = None) -> tuple[Tensor, Tensor]:
    """How often ``predictions`` equals ``labels``, as ``tf.compat.v1.metrics.accuracy``
    (a :func:`mean` of ``float32(predictions == labels)``, variables ``accuracy/total``, ``accuracy/count``).

    Raises:
      ValueError: the shapes of ``labels`` and ``predictions`` differ.
      RuntimeError: inside an ``EagerSession``.
    """
    _graph_only("accuracy")
    predictions, labels, weights = _remove_squeezable(predictions, labels, weights)
    if labels.dtype != predictions.dtype:
        predictions = math_ops.cast(predictions, labels.dtype)
    is_correct = math_ops.cast(math_ops.equal(predictions, labels), _dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")


def mean_absolute_error(labels: Any, predictions: Any, weights: Any = None,
                        metrics_collections: Sequence[str] | None = None,
                        updates_collections: Sequence[str] | None = None,
                        name: str | None = None) -> tuple[Tensor, Tensor]:
    """The mean of ``|predictions - labels|``, as ``tf.compat.v1.metrics.mean_absolute_error``."""
    _graph_only("mean_absolute_error")
    predictions, labels, weights = _remove_squeezable(predictions, labels, weights)
    errors = math_ops.abs(math_ops.subtract(predictions, labels))
    return mean(errors, weights, metrics_collections, updates_collections, name or "mean_absolute_error")


def mean_squared_error(labels: Any, predictions: Any, weights: Any = None,
                       metrics_collections: Sequence[str] | None = None,
                       updates_collections: Sequence[str] | None = None,
                       name: str | None = None) -> tuple[Tensor, Tensor]:
    """The mean of ``(labels - predictions)**2``, as ``tf.compat.v1.metrics.mean_squared_error``."""
    _graph_only("mean_squared_error")
    predictions, labels, weights = _remove_squeezable(predictions, labels, weights)
    errors = math_ops.squared_difference(labels, predictions)
    return mean(errors, weights, metrics_collections, updates_collections, name or "mean_squared_error")


def root_mean_squared_error(labels: Any, predictions: Any, weights: Any = None,
                            metrics_collections: Sequence[str] | None = None,
                            updates_collections: Sequence[str] | None = None,
                            name: str | None = None) -> tuple[Tensor, Tensor]:
    """The square root of :func:`mean_squared_error`, as ``tf.compat.v1.metrics.root_mean_squared_error``."""
    _graph_only("root_mean_squared_error")
    predictions, labels, weights = _remove_squeezable(predictions, labels, weights)
    mse, update_mse = mean(math_ops.squared_difference(labels, predictions), weights, None, None,
                           name or "root_mean_squared_error")
    rmse = math_ops.sqrt(mse)
    _collect(metrics_collections, rmse)
    update_op = math_ops.sqrt(update_mse)
    _collect(updates_collections, update_op)
    return rmse, update_op


def percentage_below(values: Any, threshold: float, weights: Any = None,
                     metrics_collections: Sequence[str] | None = None,
                     updates_collections: Sequence[str] | None = None,
                     name: str | None = None) -> tuple[Tensor, Tensor]:
    """The fraction of ``values`` below ``threshold``, as ``tf.compat.v1.metrics.percentage_below``."""
    _graph_only("percentage_below")
    below = math_ops.cast(math_ops.less(values, threshold), _dtypes.float32)
    return mean(below, weights, metrics_collections, updates_collections, name or "percentage_below_threshold")


def _count_condition(values: Any, weights: Any, metrics_collections: Sequence[str] | None,
                     updates_collections: Sequence[str] | None) -> tuple[Tensor, Tensor]:
    count = metric_variable([], _dtypes.float32, name="count")
    values = math_ops.cast(values, _dtypes.float32)
    if weights is not None:
        values = math_ops.multiply(values, math_ops.cast(weights, _dtypes.float32))
    value = identity(count)
    _collect(metrics_collections, value)
    update_op = assign_add(count, math_ops.reduce_sum(values))
    _collect(updates_collections, update_op)
    return value, update_op


def _counter(fn: str, label_value: bool, prediction_value: bool) -> Any:
    def metric(labels: Any, predictions: Any, weights: Any = None,
               metrics_collections: Sequence[str] | None = None, updates_collections: Sequence[str] | None = None,
               name: str | None = None) -> tuple[Tensor, Tensor]:
        _graph_only(fn)
        with variable_scope(name, fn, (predictions, labels, weights)):
            predictions, labels, weights = _remove_squeezable(
                math_ops.cast(predictions, _dtypes.bool), math_ops.cast(labels, _dtypes.bool), weights)
            hit = math_ops.logical_and(math_ops.equal(labels, label_value),
                                       math_ops.equal(predictions, prediction_value))
            return _count_condition(hit, weights, metrics_collections, updates_collections)

    metric.__name__ = metric.__qualname__ = fn
    metric.__doc__ = (
        f"The (weighted) number of {fn.replace('_', ' ')} (labels and predictions cast to bool), as "
        f"``tf.compat.v1.metrics.{fn}``.\n\nVariable ``{fn}/count`` (``float32`` scalar).\n\n"
        "Returns:\n  ``(count, update_op)``, ``float32`` scalars.\n"
    )
    return metric


true_positives = _counter("true_positives", True, True)
false_positives = _counter("false_positives", False, True)
true_negatives = _counter("true_negatives", False, False)
false_negatives = _counter("false_negatives", True, False)


def _ratio(fn: str, other: Any) -> Any:
    def metric(labels: Any, predictions: Any, weights: Any = None,
               metrics_collections: Sequence[str] | None = None, updates_collections: Sequence[str] | None = None,
               name: str | None = None) -> tuple[Tensor, Tensor]:
        _graph_only(fn)
        with variable_scope(name, fn, (predictions, labels, weights)):
            predictions, labels, weights = _remove_squeezable(
                math_ops.cast(predictions, _dtypes.bool), math_ops.cast(labels, _dtypes.bool), weights)
            tp, tp_update = true_positives(labels, predictions, weights)
            o, o_update = other(labels, predictions, weights)

            def ratio(a: Any, b: Any, op_name: str) -> Any:
                total = math_ops.add(a, b)
                return math_ops.where(math_ops.greater(total, 0.0), div_no_nan(a, total), zeros_like(a),
                                      name=op_name)

            value = ratio(tp, o, "value")
            _collect(metrics_collections, value)
            update_op = ratio(tp_update, o_update, "update_op")
            _collect(updates_collections, update_op)
            return value, update_op

    return metric


precision = _ratio("precision", false_positives)
precision.__doc__ = """``tp / (tp + fp)`` (0 when nothing is predicted positive), as
``tf.compat.v1.metrics.precision``; variables ``precision/true_positives/count`` and
``precision/false_positives/count``.

Returns:
  ``(precision, update_op)``, ``float32`` scalars.
"""
recall = _ratio("recall", false_negatives)
recall.__doc__ = """``tp / (tp + fn)`` (0 when there is no positive label), as
``tf.compat.v1.metrics.recall``; variables ``recall/true_positives/count`` and
``recall/false_negatives/count``.

Returns:
  ``(recall, update_op)``, ``float32`` scalars.
"""


def _confusion_at_thresholds(labels: Any, predictions: Any, thresholds: list[float], weights: Any,
                             includes: tuple[str, ...] = ("tp", "fn", "tn", "fp")
                             ) -> tuple[dict[str, Any], dict[str, Any]]:
    predictions = convert_to_tensor(predictions)
    checks = []
    if predictions.dtype != _dtypes.float32:
        # TF's range checks guard the cast to float32, which TF skips for float32
        # predictions: then nothing depends on them and they never run.
        checks = [
            assert_greater_equal(predictions, math_ops.cast(0.0, predictions.dtype),
                                 message="predictions must be in [0, 1]"),
            assert_less_equal(predictions, math_ops.cast(1.0, predictions.dtype),
                              message="predictions must be in [0, 1]"),
        ]
    with predictions.graph.control_dependencies([c for c in checks if c is not None]):
        predictions, labels, weights = _remove_squeezable(
            math_ops.cast(predictions, _dtypes.float32), math_ops.cast(labels, _dtypes.bool), weights)
    w = None if weights is None else _broadcast_weights(weights, predictions)
    counts = confusion_counts_at_thresholds(labels, predictions, thresholds, w, includes)
    values: dict[str, Any] = {}
    updates: dict[str, Any] = {}
    names = {"tp": "true_positives", "fn": "false_negatives", "tn": "true_negatives", "fp": "false_positives"}
    for key, count in counts.items():
        var = metric_variable([len(thresholds)], _dtypes.float32, name=names[key])
        updates[key] = assign_add(var, count)
        values[key] = var
    return values, updates


def confusion_counts_at_thresholds(labels: Any, predictions: Any, thresholds: Sequence[float], weights: Any,
                                   keys: Sequence[str]) -> dict[str, Any]:
    """Per threshold, the (weighted) numbers of true/false positives/negatives
    (``keys`` among ``'tp'``, ``'fn'``, ``'tn'``, ``'fp'``, in that order) with
    ``predictions > threshold``: ``float32[len(thresholds)]`` each, as TF's
    ``_confusion_matrix_at_thresholds`` and Keras' ``update_confusion_matrix_variables``.

    Args:
      labels: bool tensor of ``predictions``' size.
      predictions: float32 tensor.
      weights: ``None`` or float32 weights of ``predictions``' size.
    """
    pred_row = reshape(predictions, [1, -1])
    label_row = reshape(labels, [1, -1])
    thresh = convert_to_tensor([[t] for t in thresholds], dtype=_dtypes.float32)
    pred_is_pos = math_ops.greater(pred_row, thresh)  # [n, batch]
    pred_is_neg = math_ops.logical_not(pred_is_pos)
    label_is_pos = math_ops.logical_and(label_row, math_ops.greater_equal(thresh, thresh))
    label_is_neg = math_ops.logical_not(label_is_pos)
    w = None if weights is None else reshape(weights, [1, -1])
    counts: dict[str, Any] = {}
    for key, a, b in (("tp", label_is_pos, pred_is_pos), ("fn", label_is_pos, pred_is_neg),
                      ("tn", label_is_neg, pred_is_neg), ("fp", label_is_neg, pred_is_pos)):
        if key not in keys:
            continue
        hit = math_ops.cast(math_ops.logical_and(a, b), _dtypes.float32)
        if w is not None:
            hit = math_ops.multiply(hit, w)
        counts[key] = math_ops.reduce_sum(hit, 1)
    return counts


def _at_thresholds(fn: str, key: str) -> Any:
    def metric(labels: Any, predictions: Any, thresholds: Sequence[float], weights: Any = None,
               metrics_collections: Sequence[str] | None = None, updates_collections: Sequence[str] | None = None,
               name: str | None = None) -> tuple[Tensor, Tensor]:
        _graph_only(fn + "_at_thresholds")
        with variable_scope(name, fn, (predictions, labels, weights)):
            values, updates = _confusion_at_thresholds(labels, predictions, [float(t) for t in thresholds], weights,
                                                       includes=(key,))
            value = identity(values[key])
            _collect(metrics_collections, value)
            _collect(updates_collections, updates[key])
            return value, updates[key]

    metric.__name__ = metric.__qualname__ = fn + "_at_thresholds"
    metric.__doc__ = (
        f"Per threshold, the (weighted) number of {fn.replace('_', ' ')} with ``predictions > threshold``, "
        f"as ``tf.compat.v1.metrics.{fn}_at_thresholds``.\n\nVariable ``{fn}/{fn}`` "
        "(``float32[len(thresholds)]``).\n\nReturns:\n  ``(counts, update_op)``, ``float32[len(thresholds)]``.\n"
    )
    return metric


true_positives_at_thresholds = _at_thresholds("true_positives", "tp")
false_positives_at_thresholds = _at_thresholds("false_positives", "fp")
true_negatives_at_thresholds = _at_thresholds("true_negatives", "tn")
false_negatives_at_thresholds = _at_thresholds("false_negatives", "fn")


def _ratio_at_thresholds(fn: str, other: str) -> Any:
    def metric(labels: Any, predictions: Any, thresholds: Sequence[float], weights: Any = None,
               metrics_collections: Sequence[str] | None = None, updates_collections: Sequence[str] | None = None,
               name: str | None = None) -> tuple[Tensor, Tensor]:
        _graph_only(fn + "_at_thresholds")
        with variable_scope(name, fn + "_at_thresholds", (predictions, labels, weights)):
            values, updates = _confusion_at_thresholds(labels, predictions, [float(t) for t in thresholds], weights,
                                                       includes=("tp", other))
            epsilon = 1e-7

            def ratio(tp: Any, o: Any, op_name: str) -> Any:
                return math_ops.divide(tp, epsilon + tp + o, name=f"{fn}_{op_name}")

            value = ratio(values["tp"], values[other], "value")
            _collect(metrics_collections, value)
            update_op = ratio(updates["tp"], updates[other], "update_op")
            _collect(updates_collections, update_op)
            return value, update_op

    metric.__name__ = metric.__qualname__ = fn + "_at_thresholds"
    metric.__doc__ = (
        f"``tp / (1e-7 + tp + {other})`` per threshold (``predictions > threshold``), as "
        f"``tf.compat.v1.metrics.{fn}_at_thresholds``.\n\nReturns:\n  ``({fn}, update_op)``, "
        "``float32[len(thresholds)]``.\n"
    )
    return metric


precision_at_thresholds = _ratio_at_thresholds("precision", "fp")
recall_at_thresholds = _ratio_at_thresholds("recall", "fn")


def interpolate_pr_auc(tp: Any, fp: Any, fn: Any, n: int) -> Any:
    """The area under the PR curve from ``n`` thresholds' confusion counts, by TF's
    closed-form interpolation (Davis et al., 2006), as ``metrics.auc(curve='PR',
    summation_method='careful_interpolation')`` and Keras' ``AUC(curve='PR')``."""
    dtp = tp[: n - 1] - tp[1:]
    p = tp + fp
    prec_slope = div_no_nan(dtp, math_ops.maximum(p[: n - 1] - p[1:], 0.0), name="prec_slope")
    intercept = tp[1:] - math_ops.multiply(prec_slope, p[1:])
    safe_p_ratio = math_ops.where(
        math_ops.logical_and(math_ops.greater(p[: n - 1], 0.0), math_ops.greater(p[1:], 0.0)),
        div_no_nan(p[: n - 1], math_ops.maximum(p[1:], 0.0), name="recall_relative_ratio"),
        ones_like(p[1:]),
    )
    return math_ops.reduce_sum(
        div_no_nan(prec_slope * (dtp + intercept * math_ops.log(safe_p_ratio)),
                   math_ops.maximum(tp[1:] + fn[1:], 0.0), name="pr_auc_increment"),
        name="interpolate_pr_auc",
    )


def auc(labels: Any, predictions: Any, weights: Any = None, num_thresholds: int = 200,
        metrics_collections: Sequence[str] | None = None, updates_collections: Sequence[str] | None = None,
        curve: str = "ROC", name: str | None = None, summation_method: str = "trapezoidal",
        thresholds: Sequence[float] | None = None) -> tuple[Tensor, Tensor]:
    """The area under the ROC or PR curve, by a Riemann sum over thresholds, as
    ``tf.compat.v1.metrics.auc``.

    Args:
      labels: bool (or castable) labels.
      predictions: floats in ``[0, 1]`` (as TF: checked at run time only when
        not ``float32``; a value outside raises ``InvalidArgumentError``).
      num_thresholds: thresholds ``-1e-7, 1/(n-1), ..., (n-2)/(n-1), 1+1e-7``
        (default 200), unless ``thresholds`` are given.
      curve: ``'ROC'`` or ``'PR'``.
      summation_method: ``'trapezoidal'`` (also for ``'careful_interpolation'``
        of ROC), ``'minoring'``, ``'majoring'``; ``'careful_interpolation'`` of PR
        is TF's interpolated PR-AUC.

    Variables ``auc/true_positives``, ``auc/false_negatives``,
    ``auc/true_negatives``, ``auc/false_positives`` (``float32[num_thresholds]``).

    Returns:
      ``(auc, update_op)``, ``float32`` scalars.

    Raises:
      ValueError: an unknown ``curve`` or ``summation_method``.
    """
    _graph_only("auc")
    with variable_scope(name, "auc", (labels, predictions, weights)):
        if curve not in ("ROC", "PR"):
            raise ValueError(f"Curve must be either ROC or PR. Curve {curve} is unknown.")
        if summation_method not in ("trapezoidal", "careful_interpolation", "minoring", "majoring"):
            raise ValueError(f"Invalid summation_method: {summation_method} summation_method should be "
                             "'trapezoidal', 'careful_interpolation', 'minoring', or 'majoring'.")
        kepsilon = 1e-7
        if thresholds is not None:
            inner = sorted(float(t) for t in thresholds)
            num_thresholds = len(inner) + 2
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        all_thresholds = [0.0 - kepsilon, *inner, 1.0 + kepsilon]
        values, updates = _confusion_at_thresholds(labels, predictions, all_thresholds, weights)
        epsilon = 1.0e-6
        n = num_thresholds

        def compute(tp: Any, fn: Any, tn: Any, fp: Any, op_name: str) -> Any:
            if curve == "PR" and summation_method == "careful_interpolation":
                return interpolate_pr_auc(tp, fp, fn, n)
            rec = math_ops.divide(tp + epsilon, tp + fn + epsilon)
            if curve == "ROC":
                x, y = math_ops.divide(fp, fp + tn + epsilon), rec
            else:
                x, y = rec, math_ops.divide(tp + epsilon, tp + fp + epsilon)
            dx = x[: n - 1] - x[1:]
            if summation_method == "minoring":
                h = math_ops.minimum(y[: n - 1], y[1:])
            elif summation_method == "majoring":
                h = math_ops.maximum(y[: n - 1], y[1:])
            else:
                h = (y[: n - 1] + y[1:]) / 2.0
            return math_ops.reduce_sum(math_ops.multiply(dx, h), name=op_name)

        value = compute(values["tp"], values["fn"], values["tn"], values["fp"], "value")
        _collect(metrics_collections, value)
        update_op = compute(updates["tp"], updates["fn"], updates["tn"], updates["fp"], "update_op")
        _collect(updates_collections, update_op)
        return value, update_op


def mean_iou(labels: Any, predictions: Any, num_classes: int, weights: Any = None,
             metrics_collections: Sequence[str] | None = None, updates_collections: Sequence[str] | None = None,
             name: str | None = None) -> tuple[Tensor, Tensor]:
    """The mean intersection-over-union over classes, as ``tf.compat.v1.metrics.mean_iou``.

    Variable ``mean_iou/total_confusion_matrix`` (``float64[num_classes, num_classes]``,
    rows: labels, columns: predictions). Classes that appear in neither are left out
    of the mean.

    Returns:
      ``(mean_iou, update_op)``: a ``float32`` scalar, and the update of the
      confusion matrix (``float64[num_classes, num_classes]``), as TF.
    """
    _graph_only("mean_iou")
    with variable_scope(name, "mean_iou", (predictions, labels, weights)):
        labels = convert_to_tensor(labels)
        predictions = convert_to_tensor(predictions)
        if not predictions.shape.is_compatible_with(labels.shape):
            raise ValueError(f"Shapes {predictions.shape} and {labels.shape} are incompatible")
        total_cm = metric_variable([num_classes, num_classes], _dtypes.float64, name="total_confusion_matrix")
        lab = one_hot(reshape(math_ops.cast(labels, _dtypes.int32), [-1]), num_classes, dtype=_dtypes.float64)
        pred = one_hot(reshape(math_ops.cast(predictions, _dtypes.int32), [-1]), num_classes, dtype=_dtypes.float64)
        if weights is not None:
            w = reshape(math_ops.cast(weights, _dtypes.float64), [-1, 1])
            lab = math_ops.multiply(lab, w)
        current = math_ops.matmul(lab, pred, transpose_a=True)
        update_op = assign_add(total_cm, current)
        cm = math_ops.cast(total_cm, _dtypes.float32)
        sum_over_row = math_ops.reduce_sum(cm, 0)
        sum_over_col = math_ops.reduce_sum(cm, 1)
        eye = convert_to_tensor([[float(i == j) for j in range(num_classes)] for i in range(num_classes)],
                                dtype=_dtypes.float32)
        diag = math_ops.reduce_sum(math_ops.multiply(cm, eye), 1)
        denominator = sum_over_row + sum_over_col - diag
        num_valid = math_ops.reduce_sum(math_ops.cast(math_ops.not_equal(denominator, 0.0), _dtypes.float32))
        denominator = math_ops.where(math_ops.greater(denominator, 0.0), denominator, ones_like(denominator))
        iou = math_ops.divide(diag, denominator)
        value = math_ops.where(math_ops.greater(num_valid, 0.0),
                               div_no_nan(math_ops.reduce_sum(iou), num_valid), 0.0)
        _collect(metrics_collections, value)
        _collect(updates_collections, update_op)
        return value, update_op


def mean_per_class_accuracy(labels: Any, predictions: Any, num_classes: int, weights: Any = None,
                            metrics_collections: Sequence[str] | None = None,
                            updates_collections: Sequence[str] | None = None,
                            name: str | None = None) -> tuple[Tensor, Tensor]:
    """The mean over classes of each class's accuracy, as
    ``tf.compat.v1.metrics.mean_per_class_accuracy``.

    Variables ``mean_accuracy/total`` and ``mean_accuracy/count``
    (``float32[num_classes]``: per label class, the (weighted) examples and the
    correct ones).

    Returns:
      ``(mean_accuracy, update_op)``: a ``float32`` scalar, and (as TF) the
      per-class accuracies ``float32[num_classes]`` after the update.
    """
    _graph_only("mean_per_class_accuracy")
    with variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels = reshape(math_ops.cast(labels, _dtypes.int64), [-1])
        predictions = reshape(convert_to_tensor(predictions), [-1])
        total = metric_variable([num_classes], _dtypes.float32, name="total")
        count = metric_variable([num_classes], _dtypes.float32, name="count")
        if labels.dtype != predictions.dtype:
            predictions = math_ops.cast(predictions, labels.dtype)
        is_correct = math_ops.cast(math_ops.equal(predictions, labels), _dtypes.float32)
        ones = ones_like(is_correct)
        if weights is not None:
            w = reshape(math_ops.cast(weights, _dtypes.float32), [-1])
            is_correct = math_ops.multiply(is_correct, w)
            ones = math_ops.multiply(ones, w)
        per_class = one_hot(math_ops.cast(labels, _dtypes.int32), num_classes, dtype=_dtypes.float32)
        update_total = assign_add(total, math_ops.reduce_sum(per_class * reshape(ones, [-1, 1]), 0))
        update_count = assign_add(count, math_ops.reduce_sum(per_class * reshape(is_correct, [-1, 1]), 0))
        value = math_ops.reduce_mean(div_no_nan(count, math_ops.maximum(total, 0.0)), name="mean_accuracy")
        _collect(metrics_collections, value)
        update_op = div_no_nan(update_count, math_ops.maximum(update_total, 0.0), name="update_op")
        _collect(updates_collections, update_op)
        return value, update_op


def mean_tensor(values: Any, weights: Any = None, metrics_collections: Sequence[str] | None = None,
                updates_collections: Sequence[str] | None = None, name: str | None = None) -> tuple[Tensor, Tensor]:
    """The element-wise (weighted) mean of ``values`` over batches, as
    ``tf.compat.v1.metrics.mean_tensor`` (variables ``mean/total_tensor`` and
    ``mean/count_tensor``, of ``values``' static shape)."""
    _graph_only("mean_tensor")
    with variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, _dtypes.float32)
        total = metric_variable(values.shape, _dtypes.float32, name="total_tensor")
        count = metric_variable(values.shape, _dtypes.float32, name="count_tensor")
        num_values = ones_like(values)
        if weights is not None:
            values, _, weights = _remove_squeezable(values, None, weights)
            weights = _broadcast_weights(weights, values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.multiply(num_values, weights)
        update_total = assign_add(total, values)
        with values.graph.control_dependencies([values]):
            update_count = assign_add(count, num_values)
        value = div_no_nan(total, math_ops.maximum(count, 0.0), name="value")
        _collect(metrics_collections, value)
        update_op = div_no_nan(update_total, math_ops.maximum(update_count, 0.0), name="update_op")
        _collect(updates_collections, update_op)
        return value, update_op


def mean_relative_error(labels: Any, predictions: Any, normalizer: Any, weights: Any = None,
                        metrics_collections: Sequence[str] | None = None,
                        updates_collections: Sequence[str] | None = None,
                        name: str | None = None) -> tuple[Tensor, Tensor]:
    """The mean of ``|labels - predictions| / normalizer`` (0 where the normalizer is 0), as
    ``tf.compat.v1.metrics.mean_relative_error``."""
    _graph_only("mean_relative_error")
    predictions, labels, weights = _remove_squeezable(predictions, labels, weights)
    normalizer = convert_to_tensor(normalizer)
    zero = math_ops.equal(normalizer, 0.0)
    relative = math_ops.where(zero, zeros_like(labels),
                              math_ops.divide(math_ops.abs(labels - predictions),
                                              math_ops.where(zero, ones_like(normalizer), normalizer)))
    return mean(relative, weights, metrics_collections, updates_collections, name or "mean_relative_error")


def mean_cosine_distance(labels: Any, predictions: Any, dim: int, weights: Any = None,
                         metrics_collections: Sequence[str] | None = None,
                         updates_collections: Sequence[str] | None = None,
                         name: str | None = None) -> tuple[Tensor, Tensor]:
    """``1 - mean(sum(labels * predictions, dim))`` (unit-normalised inputs), as
    ``tf.compat.v1.metrics.mean_cosine_distance``."""
    _graph_only("mean_cosine_distance")
    predictions, labels, weights = _remove_squeezable(predictions, labels, weights)
    radial = math_ops.reduce_sum(math_ops.multiply(predictions, labels), axis=[dim], keepdims=True)
    distance, update = mean(radial, weights, None, None, name or "mean_cosine_distance")
    distance = math_ops.subtract(1.0, distance)
    update = math_ops.subtract(1.0, update)
    _collect(metrics_collections, distance)
    _collect(updates_collections, update)
    return distance, update


# -- sensitivity / specificity ------------------------------------------------------------------


def _at_operating_point(fn: str, target_name: str, target: float, labels: Any, predictions: Any, weights: Any,
                        num_thresholds: int, metrics_collections: Sequence[str] | None,
                        updates_collections: Sequence[str] | None, name: str | None) -> tuple[Tensor, Tensor]:
    _graph_only(fn)
    if target < 0 or target > 1:
        got = "got" if fn == "sensitivity_at_specificity" else "is"
        raise ValueError(f"`{target_name}` must be in the range [0, 1]. Currently, `{target_name}` {got} {target}.")
    with variable_scope(name, fn, (predictions, labels, weights)):
        kepsilon = 1e-7  # as TF: floating point imprecisions
        inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        last = 1.0 + kepsilon if fn == "sensitivity_at_specificity" else 1.0 - kepsilon
        values, updates = _confusion_at_thresholds(labels, predictions, [0.0 - kepsilon, *inner, last], weights)

        def compute(v: dict[str, Any], op_name: str) -> Any:
            tp, tn, fp, fn_ = v["tp"], v["tn"], v["fp"], v["fn"]
            if fn == "sensitivity_at_specificity":
                specificities = math_ops.divide(tn, tn + fp + kepsilon)
                index = math_ops.cast(math_ops.argmin(math_ops.abs(specificities - target), 0), _dtypes.int32)
                return math_ops.divide(tp[index], tp[index] + fn_[index] + kepsilon, name=op_name)
            sensitivities = math_ops.divide(tp, tp + fn_ + kepsilon)
            gap = math_ops.abs(sensitivities - target)
            at_min = math_ops.cast(math_ops.equal(gap, math_ops.reduce_min(gap)), _dtypes.int64)
            index = math_ops.cast(math_ops.argmax(math_ops.cumsum(at_min), 0), _dtypes.int32)
            return math_ops.divide(tn[index], tn[index] + fp[index] + kepsilon, name=op_name)

        value = compute(values, "value")
        _collect(metrics_collections, value)
        update_op = compute(updates, "update_op")
        _collect(updates_collections, update_op)
        return value, update_op


def sensitivity_at_specificity(labels: Any, predictions: Any, specificity: float, weights: Any = None,
                               num_thresholds: int = 200, metrics_collections: Sequence[str] | None = None,
                               updates_collections: Sequence[str] | None = None,
                               name: str | None = None) -> tuple[Tensor, Tensor]:
    """The sensitivity (recall) at the threshold whose specificity is closest to
    ``specificity``, over ``num_thresholds`` thresholds in ``[0, 1]``, as
    ``tf.compat.v1.metrics.sensitivity_at_specificity``.

    Variables as :func:`auc`'s (``sensitivity_at_specificity/true_positives``, ...).

    Returns:
      ``(sensitivity, update_op)``, ``float32`` scalars.

    Raises:
      ValueError: ``specificity`` outside ``[0, 1]``.
    """
    return _at_operating_point("sensitivity_at_specificity", "specificity", specificity, labels, predictions,
                               weights, num_thresholds, metrics_collections, updates_collections, name)


def specificity_at_sensitivity(labels: Any, predictions: Any, sensitivity: float, weights: Any = None,
                               num_thresholds: int = 200, metrics_collections: Sequence[str] | None = None,
                               updates_collections: Sequence[str] | None = None,
                               name: str | None = None) -> tuple[Tensor, Tensor]:
    """The specificity at the (last) threshold whose sensitivity is closest to
    ``sensitivity``, as ``tf.compat.v1.metrics.specificity_at_sensitivity``.

    Returns:
      ``(specificity, update_op)``, ``float32`` scalars.

    Raises:
      ValueError: ``sensitivity`` outside ``[0, 1]``.
    """
    return _at_operating_point("specificity_at_sensitivity", "sensitivity", sensitivity, labels, predictions,
                               weights, num_thresholds, metrics_collections, updates_collections, name)


# -- precision / recall at k --------------------------------------------------------------------


def _at_k_name(name: str, k: int | None = None, class_id: int | None = None) -> str:
    name = f"{name}_at_{k}" if k is not None else f"{name}_at_k"
    return f"{name}_class{class_id}" if class_id is not None else name


def _maybe_expand_labels(labels: Any, predictions: Any) -> Any:
    """``labels`` with a last dimension of 1 added when they have one dimension
    less than ``predictions``, as TF's ``_maybe_expand_labels`` (static ranks)."""
    if type(labels).__name__ == "SparseTensor":
        raise NotImplementedError("jaxsess's *_at_k metrics take dense labels ([batch] or [batch, num_labels]).")
    labels = convert_to_tensor(labels)
    lr, pr = labels.shape.ndims, predictions.shape.ndims
    if lr is None or pr is None:
        raise ValueError("jaxsess's *_at_k metrics need the ranks of labels and predictions known when the "
                         "graph is built.")
    if pr == lr:
        return labels
    if pr == lr + 1:
        with name_scope(None, "expand_labels") as scope:
            return expand_dims(labels, -1, name=scope)
    raise ValueError(f"Unexpected labels shape {labels.shape} for predictions shape {predictions.shape}. "
                     "Predictions rank should be the same rank as labels rank or labels rank plus one .")


def _distinct(ids: Any) -> Any:
    """Per position of the last dimension: whether no earlier position holds the
    same id (set semantics: each id counts once)."""
    n = ids.shape.as_list()[-1]
    same = math_ops.equal(expand_dims(ids, -1), expand_dims(ids, -2))  # [..., n, n]
    earlier = convert_to_tensor([[j < i for j in range(n)] for i in range(n)], dtype=_dtypes.bool)
    return math_ops.logical_not(math_ops.reduce_any(math_ops.logical_and(same, earlier), -1))


def _set_counts(labels: Any, top_idx: Any, class_id: int | None, kind: str) -> Any:
    """Per row, the size of ``top_idx ∩ labels`` (``kind='tp'``), ``labels - top_idx``
    (``'fn'``) or ``top_idx - labels`` (``'fp'``) as sets, restricted to ``class_id``
    when given: TF's ``set_size`` of ``set_intersection``/``set_difference``, float64."""
    labels = math_ops.cast(labels, _dtypes.int64)
    if class_id is not None:
        in_labels = math_ops.reduce_any(math_ops.equal(labels, class_id), -1)
        in_top = math_ops.reduce_any(math_ops.equal(top_idx, class_id), -1)
        a, b = (in_labels, in_top) if kind == "fn" else (in_top, in_labels)
        hit = math_ops.logical_and(in_labels, in_top) if kind == "tp" else math_ops.logical_and(
            a, math_ops.logical_not(b))
        return math_ops.cast(hit, _dtypes.float64)
    # the elements of one set found in the other: labels in the top k (tp, fn), top k ids in labels (fp)
    own, other = (top_idx, labels) if kind == "fp" else (labels, top_idx)
    found = math_ops.reduce_any(math_ops.equal(expand_dims(own, -1), expand_dims(other, -2)), -1)
    keep = found if kind == "tp" else math_ops.logical_not(found)
    counted = math_ops.logical_and(keep, _distinct(own))
    return math_ops.reduce_sum(math_ops.cast(counted, _dtypes.float64), -1)


def _streaming_at_k(labels: Any, top_idx: Any, k: int | None, class_id: int | None, weights: Any,
                    kind: str, var_name: str) -> tuple[Any, Any]:
    """A float64 scalar accumulator ``<scope>/<var_name>_at_<k>`` of the (weighted) set counts, and its update."""
    with name_scope(None, _at_k_name(var_name, k, class_id=class_id)) as scope:
        counts = _set_counts(labels, top_idx, class_id, kind)
        if weights is not None:
            counts = math_ops.multiply(counts, math_ops.cast(weights, _dtypes.float64))
        batch_total = math_ops.cast(math_ops.reduce_sum(counts), _dtypes.float64)
        var = metric_variable([], _dtypes.float64, name=scope)
        return var, assign_add(var, batch_total, name="update")


def _ratio_at_top_k(fn: str, labels: Any, predictions_idx: Any, k: int | None, class_id: int | None,
                    weights: Any, metrics_collections: Sequence[str] | None,
                    updates_collections: Sequence[str] | None, name: str | None) -> tuple[Tensor, Tensor]:
    _graph_only(fn + "_at_top_k")
    other, other_name = ("fn", "false_negative") if fn == "recall" else ("fp", "false_positive")
    predictions_idx = convert_to_tensor(predictions_idx)
    with name_scope(name, _at_k_name(fn, k, class_id=class_id)) as scope:
        labels = _maybe_expand_labels(labels, predictions_idx)
        top_idx = math_ops.cast(predictions_idx, _dtypes.int64)
        tp, tp_update = _streaming_at_k(labels, top_idx, k, class_id, weights, "tp", "true_positive")
        o, o_update = _streaming_at_k(labels, top_idx, k, class_id, weights, other, other_name)
        metric = math_ops.divide(tp, math_ops.add(tp, o), name=scope)
        _collect(metrics_collections, metric)
        update = math_ops.divide(tp_update, math_ops.add(tp_update, o_update), name="update")
        _collect(updates_collections, update)
        return metric, update


def recall_at_top_k(labels: Any, predictions_idx: Any, k: int | None = None, class_id: int | None = None,
                    weights: Any = None, metrics_collections: Sequence[str] | None = None,
                    updates_collections: Sequence[str] | None = None,
                    name: str | None = None) -> tuple[Tensor, Tensor]:
    """Recall of the top-k class ids ``predictions_idx`` (``int[batch, k]``)
    against the labels (``int64[batch]`` or ``[batch, num_labels]``, as sets),
    as ``tf.compat.v1.metrics.recall_at_top_k``: ``tp / (tp + fn)`` over all
    batches so far, for ``class_id`` only when given.

    Variables ``recall_at_<k>/true_positive_at_<k>`` and
    ``.../false_negative_at_<k>`` (``float64`` scalars; ``_class<id>`` suffixes
    with ``class_id``).

    Returns:
      ``(recall, update_op)``, ``float64`` scalars (NaN before any label).

    Raises:
      ValueError: labels whose rank is neither the predictions' nor one less.
      NotImplementedError: ``SparseTensor`` labels.
    """
    return _ratio_at_top_k("recall", labels, predictions_idx, k, class_id, weights, metrics_collections,
                           updates_collections, name)


def precision_at_top_k(labels: Any, predictions_idx: Any, k: int | None = None, class_id: int | None = None,
                       weights: Any = None, metrics_collections: Sequence[str] | None = None,
                       updates_collections: Sequence[str] | None = None,
                       name: str | None = None) -> tuple[Tensor, Tensor]:
    """Precision of the top-k class ids ``predictions_idx`` against the labels
    (as sets), ``tp / (tp + fp)``, as ``tf.compat.v1.metrics.precision_at_top_k``
    (see :func:`recall_at_top_k`; variables ``.../false_positive_at_<k>``)."""
    return _ratio_at_top_k("precision", labels, predictions_idx, k, class_id, weights, metrics_collections,
                           updates_collections, name)


def recall_at_k(labels: Any, predictions: Any, k: int, class_id: int | None = None, weights: Any = None,
                metrics_collections: Sequence[str] | None = None, updates_collections: Sequence[str] | None = None,
                name: str | None = None) -> tuple[Tensor, Tensor]:
    """:func:`recall_at_top_k` of ``nn.top_k(predictions, k)`` (``predictions``:
    ``float[batch, num_classes]`` scores), as ``tf.compat.v1.metrics.recall_at_k``."""
    _graph_only("recall_at_k")
    with name_scope(name, _at_k_name("recall", k, class_id=class_id)) as scope:
        _, top_k_idx = top_k(predictions, k)
        return recall_at_top_k(labels, top_k_idx, k, class_id, weights, metrics_collections, updates_collections,
                               scope)


def precision_at_k(labels: Any, predictions: Any, k: int, class_id: int | None = None, weights: Any = None,
                   metrics_collections: Sequence[str] | None = None, updates_collections: Sequence[str] | None = None,
                   name: str | None = None) -> tuple[Tensor, Tensor]:
    """:func:`precision_at_top_k` of ``nn.top_k(predictions, k)``, as
    ``tf.compat.v1.metrics.precision_at_k``."""
    _graph_only("precision_at_k")
    with name_scope(name, _at_k_name("precision", k, class_id=class_id)) as scope:
        _, top_k_idx = top_k(predictions, k)
        return precision_at_top_k(labels, top_k_idx, k, class_id, weights, metrics_collections,
                                  updates_collections, scope)


sparse_precision_at_k = precision_at_k
