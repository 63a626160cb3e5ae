"""``jaxsess._tf1.keras.metrics``: the metric functions, as ``tf.keras.metrics`` (per-sample values;
``compile`` averages them over each batch and the epoch): the accuracies, the top-k accuracies, and
the loss functions under their metric names (``mae``, ``mse``, ...). :func:`get` resolves the names
``compile(metrics=[...])`` takes."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph import _builder as _core
from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._graph import Operation, get_default_graph
from jaxsess._tf1.keras import backend as K, losses as _losses
from jaxsess._tf1.keras.losses import (
    MAE as MAE,
    MAPE as MAPE,
    MSE as MSE,
    MSLE as MSLE,
    binary_crossentropy as binary_crossentropy,
    categorical_crossentropy as categorical_crossentropy,
    categorical_hinge as categorical_hinge,
    cosine_proximity as cosine_proximity,
    hinge as hinge,
    kl_divergence as kl_divergence,
    kld as kld,
    kullback_leibler_divergence as kullback_leibler_divergence,
    log_cosh as log_cosh,
    logcosh as logcosh,
    mae as mae,
    mape as mape,
    mean_absolute_error as mean_absolute_error,
    mean_absolute_percentage_error as mean_absolute_percentage_error,
    mean_squared_error as mean_squared_error,
    mean_squared_logarithmic_error as mean_squared_logarithmic_error,
    mse as mse,
    msle as msle,
    poisson as poisson,
    sparse_categorical_crossentropy as sparse_categorical_crossentropy,
    squared_hinge as squared_hinge,
)
from jaxsess._tf1.ops import (
    array_ops as _array_ops,
    fill_ops as _fill_ops,
    math_ops as _math,
    nn_impl as _nn_impl,
    nn_ops as _nn,
    shape_ops as _shape_ops,
)
from jaxsess._tf1.ops.metrics_ops import confusion_counts_at_thresholds, interpolate_pr_auc
from jaxsess._tf1.ops.state_ops import Variable, assign_add

__all__ = ["binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy", "top_k_categorical_accuracy",
           "sparse_top_k_categorical_accuracy", "get", "binary_crossentropy", "categorical_crossentropy",
           "sparse_categorical_crossentropy", "mean_squared_error", "mean_absolute_error",
           "mean_absolute_percentage_error", "mean_squared_logarithmic_error", "hinge", "squared_hinge",
           "categorical_hinge", "kl_divergence", "kullback_leibler_divergence", "poisson", "log_cosh", "logcosh",
           "cosine_proximity", "mse", "mae", "mape", "msle", "kld", "MSE", "MAE", "MAPE", "MSLE", "accuracy",
           "Metric", "Mean", "Sum", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy", "CategoricalAccuracy",
           "SparseCategoricalAccuracy", "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy",
           "MeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError",
           "RootMeanSquaredError", "BinaryCrossentropy", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
           "Hinge", "SquaredHinge", "KLDivergence", "Poisson", "LogCoshError", "TruePositives", "FalsePositives",
           "TrueNegatives", "FalseNegatives", "Precision", "Recall", "AUC"]


def binary_accuracy(y_true: Any, y_pred: Any, threshold: float = 0.5) -> Any:
    """``mean(y_true == (y_pred > threshold), axis=-1)`` (floatx), as ``tf.keras.metrics.binary_accuracy``."""
    y_pred = convert_to_tensor(y_pred)
    pred = _math.cast(_math.greater(y_pred, threshold), y_pred.dtype)
    return _math.reduce_mean(_math.cast(_math.equal(_math.cast(y_true, y_pred.dtype), pred), K.floatx()), -1)


def categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
    """``argmax(y_true, -1) == argmax(y_pred, -1)`` (floatx), as ``tf.keras.metrics.categorical_accuracy``."""
    return _math.cast(_math.equal(_math.argmax(y_true, -1), _math.argmax(y_pred, -1)), K.floatx())


def sparse_categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
    """``y_true == argmax(y_pred, -1)`` for integer ids ``y_true`` (``[N]`` or ``[N, 1]``), floatx
    ``[N]``, as ``tf.keras.metrics.sparse_categorical_accuracy``."""
    ids = _shape_ops.reshape(_math.cast(y_true, K.floatx()), [-1])
    pred = _math.cast(_math.argmax(y_pred, -1), K.floatx())
    return _math.cast(_math.equal(ids, _shape_ops.reshape(pred, [-1])), K.floatx())


def sparse_top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Any:
    """Whether the integer id ``y_true`` (``[N]`` or ``[N, 1]``) is among the ``k`` largest of
    ``y_pred`` (``[..., C]``), floatx in ``y_true``'s shape, as
    ``tf.keras.metrics.sparse_top_k_categorical_accuracy``."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    if (y_pred.shape.ndims or 0) > 2:
        y_pred = _shape_ops.reshape(y_pred, [-1, y_pred.shape.as_list()[-1]])
    ids = _math.cast(_shape_ops.reshape(y_true, [-1]), "int32")
    matches = _math.cast(_nn.in_top_k(_math.cast(y_pred, "float32"), ids, k), K.floatx())
    if (y_true.shape.ndims or 0) > 1:
        return _shape_ops.reshape(matches, _shape_ops.shape(y_true))
    return matches


def top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Any:
    """Whether ``argmax(y_true, -1)`` is among the ``k`` largest of ``y_pred`` (``[N, C]``),
    floatx ``[N]``, as ``tf.keras.metrics.top_k_categorical_accuracy``."""
    return sparse_top_k_categorical_accuracy(_math.argmax(y_true, -1), y_pred, k)


def _cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    """``sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)``: the metric Keras'
    names ``'cosine_proximity'``/``'cosine_similarity'`` give (positive, unlike the loss
    ``keras.metrics.cosine_proximity`` is)."""
    y_true = _nn.l2_normalize(y_true, axis=axis)
    y_pred = _nn.l2_normalize(y_pred, axis=axis)
    return _math.reduce_sum(_math.multiply(y_true, y_pred), axis)


_BY_NAME: dict[str, Callable[..., Any]] = {
    **{f.__name__: f for f in (binary_accuracy, categorical_accuracy, sparse_categorical_accuracy,
                               top_k_categorical_accuracy, sparse_top_k_categorical_accuracy)},
    "cosine_proximity": _cosine_similarity, "cosine_similarity": _cosine_similarity,
}


def get(identifier: Any) -> Callable[..., Any]:
    """A metric function from its name (an accuracy, a top-k accuracy, or a
    loss's name such as ``'mae'``), or ``identifier`` itself when callable, as
    ``tf.keras.metrics.get``.

    Raises:
      ValueError: an unknown name.
    """
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier  # type: ignore[no-any-return]
    return _losses.get(identifier)


# -- stateful metric classes ---------------------------------------------------------------------


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower().replace("a_u_c", "auc")


class Metric:
    """A stateful metric, as ``tf.keras.metrics.Metric`` in graph mode: its
    accumulators are variables (in no collection, as Keras'; the Keras session
    initialises them), ``update_state`` returns the op that adds a batch,
    ``result()`` the value over what was added, ``reset_states()`` zeroes them.
    Calling the metric updates it and gives the result. In ``compile(metrics=...)``
    the accumulators are reset at the start of each epoch and evaluation.

    Default names are the class name in snake case, made unique per graph
    (``auc``, ``auc_1``), as Keras."""

    def __init__(self, name: str | None = None, dtype: Any = None) -> None:
        self.name = name if name is not None else K.unique_object_name(_snake(type(self).__name__))
        self.dtype = _dtypes.as_dtype(dtype or K.floatx())
        self._vars: list[Variable] = []

    @property
    def variables(self) -> list[Variable]:
        """The accumulators."""
        return list(self._vars)

    weights = variables

    def add_weight(self, name: str, shape: Sequence[int] = (), dtype: Any = None) -> Variable:
        """A zero-initialised accumulator named ``name`` (no scope, as Keras')."""
        dt = _dtypes.as_dtype(dtype or self.dtype)
        v = Variable(lambda: _fill_ops.zeros(list(shape), dt), trainable=False, name=name, collections=[], use_resource=True)
        K.track_variable(v)
        self._vars.append(v)
        return v

    def update_state(self, *args: Any, **kwargs: Any) -> Operation:
        raise NotImplementedError

    def result(self) -> Any:
        raise NotImplementedError

    def reset_states(self) -> None:
        """Zeroes the accumulators (in the Keras session)."""
        K.batch_set_value([(v, np.zeros(v.shape.as_list(), v.dtype.as_numpy_dtype)) for v in self._vars])

    reset_state = reset_states

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        update = self.update_state(*args, **kwargs)
        with get_default_graph().control_dependencies([update]):
            return _core.identity(self.result())

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype.name}


class Mean(Metric):
    """The (weighted) mean of the values given, as ``tf.keras.metrics.Mean``
    (accumulators ``total`` and ``count``)."""

    def __init__(self, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(name, dtype)
        self.total = self.add_weight("total")
        self.count = self.add_weight("count")

    def update_state(self, values: Any, sample_weight: Any = None) -> Operation:
        values = _math.cast(values, self.dtype)
        if sample_weight is None:
            weights = _array_ops.ones_like(values)
        else:
            weights = _math.multiply(_math.cast(sample_weight, self.dtype), _array_ops.ones_like(values))
            values = _math.multiply(values, weights)
        return _core.group(assign_add(self.total, _math.reduce_sum(values)),
                           assign_add(self.count, _math.reduce_sum(weights)))

    def result(self) -> Any:
        return _nn_impl.div_no_nan(self.total, self.count)


class Sum(Metric):
    """The (weighted) sum of the values given, as ``tf.keras.metrics.Sum`` (accumulator ``total``)."""

    def __init__(self, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(name, dtype)
        self.total = self.add_weight("total")

    def update_state(self, values: Any, sample_weight: Any = None) -> Operation:
        values = _math.cast(values, self.dtype)
        if sample_weight is not None:
            values = _math.multiply(values, _math.cast(sample_weight, self.dtype))
        return _core.group(assign_add(self.total, _math.reduce_sum(values)))

    def result(self) -> Any:
        return _core.identity(self.total)


class MeanMetricWrapper(Mean):
    """The mean of ``fn(y_true, y_pred, **kwargs)`` over the samples, as
    ``tf.keras.metrics.MeanMetricWrapper``."""

    def __init__(self, fn: Callable[..., Any], name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name, dtype)
        self._fn, self._fn_kwargs = fn, kwargs

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Operation:  # type: ignore[override]
        return super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), **self._fn_kwargs}


def _wrapper(class_name: str, fn: Callable[..., Any], doc: str, **defaults: Any) -> type[MeanMetricWrapper]:
    def __init__(self: MeanMetricWrapper, name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        MeanMetricWrapper.__init__(self, fn, name, dtype, **{**defaults, **kwargs})

    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc})


def accuracy(y_true: Any, y_pred: Any) -> Any:
    """``y_true == y_pred`` (floatx), as ``tf.keras.metrics.accuracy``."""
    y_pred = convert_to_tensor(y_pred)
    return _math.cast(_math.equal(_math.cast(y_true, y_pred.dtype), y_pred), K.floatx())


def _root_mean_squared_error_update(y_true: Any, y_pred: Any) -> Any:
    y_pred = convert_to_tensor(y_pred)
    return _math.square(_math.subtract(y_pred, _math.cast(y_true, y_pred.dtype)))


Accuracy = _wrapper("Accuracy", accuracy, "The fraction of ``y_pred`` equal to ``y_true``, as ``tf.keras.metrics.Accuracy``.")
BinaryAccuracy = _wrapper("BinaryAccuracy", binary_accuracy, "As ``tf.keras.metrics.BinaryAccuracy``.", threshold=0.5)
CategoricalAccuracy = _wrapper("CategoricalAccuracy", categorical_accuracy, "As ``tf.keras.metrics.CategoricalAccuracy``.")
SparseCategoricalAccuracy = _wrapper("SparseCategoricalAccuracy", sparse_categorical_accuracy,
                                     "As ``tf.keras.metrics.SparseCategoricalAccuracy``.")
TopKCategoricalAccuracy = _wrapper("TopKCategoricalAccuracy", top_k_categorical_accuracy,
                                   "As ``tf.keras.metrics.TopKCategoricalAccuracy``.", k=5)
SparseTopKCategoricalAccuracy = _wrapper("SparseTopKCategoricalAccuracy", sparse_top_k_categorical_accuracy,
                                         "As ``tf.keras.metrics.SparseTopKCategoricalAccuracy``.", k=5)
MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "As ``tf.keras.metrics.MeanSquaredError``.")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "As ``tf.keras.metrics.MeanAbsoluteError``.")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                       "As ``tf.keras.metrics.MeanAbsolutePercentageError``.")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                       "As ``tf.keras.metrics.MeanSquaredLogarithmicError``.")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "As ``tf.keras.metrics.BinaryCrossentropy``.")
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", categorical_crossentropy,
                                   "As ``tf.keras.metrics.CategoricalCrossentropy``.")
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
                                         "As ``tf.keras.metrics.SparseCategoricalCrossentropy``.")
Hinge = _wrapper("Hinge", hinge, "As ``tf.keras.metrics.Hinge``.")
SquaredHinge = _wrapper("SquaredHinge", squared_hinge, "As ``tf.keras.metrics.SquaredHinge``.")
KLDivergence = _wrapper("KLDivergence", kl_divergence, "As ``tf.keras.metrics.KLDivergence``.")
Poisson = _wrapper("Poisson", poisson, "As ``tf.keras.metrics.Poisson``.")
LogCoshError = _wrapper("LogCoshError", log_cosh, "As ``tf.keras.metrics.LogCoshError``.")


class RootMeanSquaredError(Mean):
    """``sqrt`` of the mean squared error over the samples, as ``tf.keras.metrics.RootMeanSquaredError``."""

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Operation:  # type: ignore[override]
        return super().update_state(_root_mean_squared_error_update(y_true, y_pred), sample_weight)

    def result(self) -> Any:
        return _math.sqrt(_nn_impl.div_no_nan(self.total, self.count))


def _thresholds(thresholds: Any, default: float | None) -> list[float]:
    if thresholds is None:
        return [default if default is not None else 0.5]
    return [float(t) for t in (thresholds if isinstance(thresholds, list | tuple) else [thresholds])]


def _confusion_counts(y_true: Any, y_pred: Any, thresholds: list[float], sample_weight: Any,
                      class_id: int | None, keys: Sequence[str]) -> dict[str, Any]:
    """Per threshold, the batch's (weighted) confusion counts with ``y_pred > threshold``
    (of class ``class_id``'s column when given), as Keras' ``update_confusion_matrix_variables``."""
    y_pred = _math.cast(convert_to_tensor(y_pred), _dtypes.float32)
    y_true = convert_to_tensor(y_true)
    if class_id is not None:
        y_true, y_pred = y_true[..., class_id], y_pred[..., class_id]
    weights = None
    if sample_weight is not None:
        weights = _math.multiply(_math.cast(sample_weight, _dtypes.float32), _array_ops.ones_like(y_pred))
    return confusion_counts_at_thresholds(_math.cast(y_true, _dtypes.bool), y_pred, thresholds, weights, keys)


class _Confusion(Metric):
    """Metrics from confusion counts at thresholds."""

    _keys: tuple[tuple[str, str], ...] = ()  # (count key, variable name)

    def __init__(self, thresholds: Any = None, name: str | None = None, dtype: Any = None,
                 class_id: int | None = None, default: float | None = 0.5) -> None:
        super().__init__(name, dtype)
        self.thresholds = _thresholds(thresholds, default)
        self._single = thresholds is None or not isinstance(thresholds, list | tuple)
        self.class_id = class_id
        self._acc = {key: self.add_weight(var, [len(self.thresholds)]) for key, var in self._keys}

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Operation:  # type: ignore[override]
        counts = _confusion_counts(y_true, y_pred, self.thresholds, sample_weight, self.class_id, list(self._acc))
        return _core.group(*[assign_add(self._acc[k], counts[k]) for k in self._acc])

    def _value(self, v: Any) -> Any:
        return v[0] if self._single else v

    def get_config(self) -> dict[str, Any]:
        config = {**super().get_config(), "thresholds": self.thresholds[0] if self._single else self.thresholds}
        return {**config, "class_id": self.class_id} if self.class_id is not None else config


def _counter(class_name: str, key: str, doc: str) -> type[_Confusion]:
    def result(self: _Confusion) -> Any:
        return self._value(_core.identity(self._acc[key]))

    return type(class_name, (_Confusion,), {"_keys": ((key, "accumulator"),), "result": result, "__doc__": doc})


TruePositives = _counter("TruePositives", "tp", "The (weighted) count of true positives per threshold, as "
                         "``tf.keras.metrics.TruePositives`` (accumulator ``accumulator``).")
FalsePositives = _counter("FalsePositives", "fp", "As ``tf.keras.metrics.FalsePositives``.")
TrueNegatives = _counter("TrueNegatives", "tn", "As ``tf.keras.metrics.TrueNegatives``.")
FalseNegatives = _counter("FalseNegatives", "fn", "As ``tf.keras.metrics.FalseNegatives``.")


class _Ratio(_Confusion):
    """``tp / (tp + other)`` at thresholds, ``other`` the second of ``_keys``."""

    def __init__(self, thresholds: Any = None, top_k: int | None = None, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None) -> None:
        if top_k is not None:
            raise NotImplementedError("jaxsess's Keras Precision/Recall do not take top_k.")
        super().__init__(thresholds, name, dtype, class_id)

    def result(self) -> Any:
        tp, other = self._acc["tp"], self._acc[self._keys[1][0]]
        return self._value(_nn_impl.div_no_nan(tp, _math.add(tp, other)))


class Precision(_Ratio):
    """``tp / (tp + fp)`` at ``thresholds`` (default 0.5), for ``class_id`` when
    given, as ``tf.keras.metrics.Precision`` (accumulators ``true_positives``,
    ``false_positives``).

    Raises:
      NotImplementedError: ``top_k``.
    """

    _keys = (("tp", "true_positives"), ("fp", "false_positives"))


class Recall(_Ratio):
    """``tp / (tp + fn)`` at ``thresholds`` (default 0.5), for ``class_id`` when
    given, as ``tf.keras.metrics.Recall`` (accumulators ``true_positives``,
    ``false_negatives``).

    Raises:
      NotImplementedError: ``top_k``.
    """

    _keys = (("tp", "true_positives"), ("fn", "false_negatives"))


class AUC(_Confusion):
    """The area under the ROC or PR curve over ``num_thresholds`` thresholds
    (``-eps, 1/(n-1), ..., 1+eps``), as ``tf.keras.metrics.AUC``:
    ``summation_method`` ``'interpolation'`` (trapezoids; for PR, TF's closed
    form), ``'minoring'`` or ``'majoring'``. Accumulators ``true_positives``,
    ``true_negatives``, ``false_positives``, ``false_negatives``.

    Raises:
      ValueError: an unknown ``curve`` or ``summation_method``, ``num_thresholds`` < 2.
    """

    _keys = (("tp", "true_positives"), ("tn", "true_negatives"), ("fp", "false_positives"),
             ("fn", "false_negatives"))

    def __init__(self, num_thresholds: int = 200, curve: str = "ROC", summation_method: str = "interpolation",
                 name: str | None = None, dtype: Any = None, thresholds: Any = None,
                 multi_label: bool = False, label_weights: Any = None) -> None:
        if multi_label or label_weights is not None:
            raise NotImplementedError("jaxsess's Keras AUC takes single-label data (no multi_label/label_weights).")
        if curve not in ("ROC", "PR"):
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are ["ROC", "PR"]')
        if summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". Expected values are '
                             '["interpolation", "majoring", "minoring"]')
        if thresholds is not None:
            inner = sorted(float(t) for t in thresholds)
        else:
            if num_thresholds <= 1:
                raise ValueError(f"Argument `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}")
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self.curve, self.summation_method = curve, summation_method
        self.num_thresholds = len(inner) + 2
        eps = K.epsilon()
        super().__init__([0.0 - eps, *inner, 1.0 + eps], name, dtype)

    def get_config(self) -> dict[str, Any]:
        return {"num_thresholds": self.num_thresholds, "curve": self.curve,
                "summation_method": self.summation_method, "name": self.name, "dtype": self.dtype.name}

    def result(self) -> Any:
        n = self.num_thresholds
        tp, tn, fp, fn = (_core.identity(self._acc[k]) for k in ("tp", "tn", "fp", "fn"))
        if self.curve == "PR" and self.summation_method == "interpolation":
            return interpolate_pr_auc(tp, fp, fn, n)
        recall = _nn_impl.div_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _nn_impl.div_no_nan(fp, fp + tn), recall
        else:
            x, y = recall, _nn_impl.div_no_nan(tp, tp + fp)
        if self.summation_method == "interpolation":
            heights = (y[: n - 1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = _math.minimum(y[: n - 1], y[1:])
        else:
            heights = _math.maximum(y[: n - 1], y[1:])
        return _math.reduce_sum(_math.multiply(x[: n - 1] - x[1:], heights))
