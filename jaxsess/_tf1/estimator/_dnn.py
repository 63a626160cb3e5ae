"""``tf.estimator.DNNClassifier`` and ``DNNRegressor``: premade feed-forward networks
over feature columns, as ``tensorflow_estimator/python/estimator/canned/dnn.py`` with TF1's
classification heads (``canned/head.py``: softmax cross-entropy for ``n_classes > 2``,
sigmoid for 2; squared error for regression; training loss summed over the batch,
``Reduction.SUM``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._graph import GraphKeys, control_dependencies, get_default_graph, name_scope
from jaxsess._tf1 import layers as _layers
from jaxsess._tf1.estimator._estimator import Estimator
from jaxsess._tf1.estimator._export import ClassificationOutput, PredictOutput, RegressionOutput
from jaxsess._tf1.estimator._model_fn import EstimatorSpec, ModeKeys
from jaxsess._tf1.estimator._run_config import RunConfig
from jaxsess._tf1.feature_column import input_layer
from jaxsess._tf1.ops import (
    array_ops as array_ops,
    math_ops as math_ops,
    metrics_ops as metrics_ops,
    nn_ops as nn_ops,
)
from jaxsess._tf1.ops.init_ops import glorot_uniform_initializer
from jaxsess._tf1.ops.variable_scope import variable_scope
from jaxsess._tf1.train._global_step import get_global_step
from jaxsess._tf1.train._optimizers import (
    AdagradOptimizer,
    AdamOptimizer,
    GradientDescentOptimizer,
    Optimizer,
    RMSPropOptimizer,
)
from jaxsess._tf1.train._proximal import FtrlOptimizer

__all__ = ["DNNClassifier", "DNNRegressor"]

_LEARNING_RATE = 0.05
_OPTIMIZERS: dict[str, Callable[[float], Optimizer]] = {
    "Adagrad": AdagradOptimizer, "Adam": AdamOptimizer, "Ftrl": FtrlOptimizer, "RMSProp": RMSPropOptimizer,
    "SGD": GradientDescentOptimizer,
}


def _get_optimizer(optimizer: Any, learning_rate: float = _LEARNING_RATE) -> Optimizer:
    """An optimizer from a name (with ``learning_rate``), an ``Optimizer`` or a
    callable returning one, as the estimators' ``optimizers.get_optimizer_instance``."""
    if isinstance(optimizer, str):
        if optimizer not in _OPTIMIZERS:
            raise ValueError(f"Unsupported optimizer name: {optimizer}. Supported names are: "
                             f"{tuple(sorted(_OPTIMIZERS))}")
        return _OPTIMIZERS[optimizer](learning_rate)
    if callable(optimizer) and not isinstance(optimizer, Optimizer):
        optimizer = optimizer()
    if not isinstance(optimizer, Optimizer):
        raise ValueError(f"The given object is not an Optimizer instance. Given: {optimizer}")
    return optimizer


def _dnn_logits(features: Any, hidden_units: Sequence[int], feature_columns: Any, units: int,
                activation_fn: Callable[[Any], Any], dropout: float | None, mode: str) -> Any:
    with variable_scope("dnn"):
        with variable_scope("input_from_feature_columns"):
            net = input_layer(features, feature_columns)
        for layer_id, n_units in enumerate(hidden_units):
            net = _layers.dense(net, n_units, activation=activation_fn,
                                kernel_initializer=glorot_uniform_initializer(), name=f"hiddenlayer_{layer_id}")
            if dropout is not None and mode == ModeKeys.TRAIN:
                net = _layers.dropout(net, rate=dropout, training=True)
        return _layers.dense(net, units, kernel_initializer=glorot_uniform_initializer(), name="logits")


def _minimize(optimizer: Any) -> Callable[[Any], Any]:
    """The ``train_op_fn`` of a head: minimizes the loss with ``optimizer`` (as
    :func:`_get_optimizer` takes it), incrementing the global step."""

    def train_op_fn(loss: Any) -> Any:
        return _get_optimizer(optimizer).minimize(loss, global_step=get_global_step())

    return train_op_fn


def _classification_spec(features: Any, labels: Any, mode: str, logits: Any, n_classes: int,
                         train_op_fn: Callable[[Any], Any]) -> EstimatorSpec:
    with name_scope("head"):
        if n_classes == 2:
            logistic = math_ops.sigmoid(logits, name="logistic")
            two_class_logits = array_ops.concat([array_ops.zeros_like(logits), logits], axis=-1,
                                                name="two_class_logits")
            probabilities = nn_ops.softmax(two_class_logits, name="probabilities")
            class_ids = array_ops.expand_dims(math_ops.argmax(two_class_logits, axis=-1), -1, name="class_ids")
        else:
            probabilities = nn_ops.softmax(logits, name="probabilities")
            class_ids = array_ops.expand_dims(math_ops.argmax(logits, axis=-1), -1, name="class_ids")
        batch = array_ops.shape(logits)[:1]
        all_class_ids = array_ops.tile(array_ops.expand_dims(array_ops.range(n_classes), 0),
                                       array_ops.concat([batch, [1]], 0))
        predictions: dict[str, Any] = {"logits": logits}
        if n_classes == 2:
            predictions["logistic"] = logistic
        # ``classes``/``all_classes`` (their ids as strings) are made on the host by
        # ``DNNClassifier.predict``: a host string op cannot follow the device part of a
        # plan fed by a host ``tf.data`` iterator.
        predictions.update({"probabilities": probabilities, "class_ids": class_ids,
                            "all_class_ids": all_class_ids})
        if mode == ModeKeys.PREDICT:
            # TF's head's signatures (its ``classes`` strings are missing: made on the host in ``predict``)
            classification = ClassificationOutput(scores=probabilities)
            outputs = {"serving_default": classification, "classification": classification,
                       "predict": PredictOutput(predictions)}
            if n_classes == 2:
                outputs["regression"] = RegressionOutput(logistic)
            return EstimatorSpec(mode, predictions=predictions, export_outputs=outputs)
        labels = math_ops.cast(labels, _dtypes.int64)
        if labels.shape.ndims == 1:
            labels = array_ops.expand_dims(labels, -1)
        if labels.shape.ndims != 2 or (labels.shape[1] not in (None, 1)):
            raise ValueError(f"labels shape must be [D0, D1, ... DN, 1]. Suggested Fix: check your n_classes "
                             f"argument to the estimator and/or the shape of your label. Given: {labels.shape}")
        if n_classes == 2:
            unweighted_loss = nn_ops.sigmoid_cross_entropy_with_logits(
                labels=math_ops.cast(labels, _dtypes.float32), logits=logits)
        else:
            unweighted_loss = array_ops.expand_dims(nn_ops.sparse_softmax_cross_entropy_with_logits(
                labels=array_ops.squeeze(labels, axis=[-1]), logits=logits), -1)
        training_loss = math_ops.reduce_sum(unweighted_loss, name="weighted_loss")
        if mode == ModeKeys.EVAL:
            with name_scope(None):
                metrics = {
                    "accuracy": metrics_ops.accuracy(labels, class_ids, name="accuracy"),
                    "average_loss": metrics_ops.mean(unweighted_loss, name="average_loss"),
                }
                if n_classes == 2:
                    label_mean = metrics_ops.mean(math_ops.cast(labels, _dtypes.float32), name="label/mean")
                    metrics["label/mean"] = label_mean
                    metrics["prediction/mean"] = metrics_ops.mean(logistic, name="prediction/mean")
                    metrics["precision"] = metrics_ops.precision(labels, class_ids, name="precision")
                    metrics["recall"] = metrics_ops.recall(labels, class_ids, name="recall")
                    metrics["accuracy_baseline"] = (
                        math_ops.maximum(label_mean[0], math_ops.subtract(1.0, label_mean[0])),
                        math_ops.maximum(label_mean[1], math_ops.subtract(1.0, label_mean[1])))
            return EstimatorSpec(mode, predictions=predictions, loss=training_loss, eval_metric_ops=metrics)
    return _train_spec(mode, predictions, training_loss, train_op_fn)


def _train_spec(mode: str, predictions: dict[str, Any], training_loss: Any,
                train_op_fn: Callable[[Any], Any]) -> EstimatorSpec:
    with control_dependencies(get_default_graph().get_collection(GraphKeys.UPDATE_OPS)):
        train_op = train_op_fn(training_loss)
    return EstimatorSpec(mode, predictions=predictions, loss=training_loss, train_op=train_op)


def _regression_spec(labels: Any, mode: str, logits: Any, label_dimension: int,
                     train_op_fn: Callable[[Any], Any]) -> EstimatorSpec:
    with name_scope("head"):
        predictions = {"predictions": logits}
        if mode == ModeKeys.PREDICT:
            regression = RegressionOutput(logits)  # TF's head's signatures
            return EstimatorSpec(mode, predictions=predictions, export_outputs={
                "serving_default": regression, "regression": regression, "predict": PredictOutput(predictions)})
        labels = math_ops.cast(labels, _dtypes.float32)
        if labels.shape.ndims == 1 and label_dimension == 1:
            labels = array_ops.expand_dims(labels, -1)
        if labels.shape.ndims != 2 or labels.shape[1] not in (None, label_dimension):
            raise ValueError(f"Mismatched label shape. Expected labels dimension={label_dimension}.  "
                             f"Received {labels.shape}.")
        unweighted_loss = math_ops.square(labels - logits)
        training_loss = math_ops.reduce_sum(unweighted_loss, name="weighted_loss")
        if mode == ModeKeys.EVAL:
            with name_scope(None):
                metrics = {"average_loss": metrics_ops.mean(unweighted_loss, name="average_loss"),
                           "label/mean": metrics_ops.mean(labels, name="label/mean"),
                           "prediction/mean": metrics_ops.mean(logits, name="prediction/mean")}
            return EstimatorSpec(mode, predictions=predictions, loss=training_loss, eval_metric_ops=metrics)
    return _train_spec(mode, predictions, training_loss, train_op_fn)


def _check_unsupported(weight_column: Any, batch_norm: bool, loss_reduction: str, name: str, **more: Any) -> None:
    for what, value in (("weight_column", weight_column), ("batch_norm", batch_norm or None), *more.items()):
        if value is not None:
            raise ValueError(f"{name}: {what} is not supported by jaxsess.")
    if loss_reduction != "weighted_sum":
        raise ValueError(f"{name}: only loss_reduction=Reduction.SUM is supported, got {loss_reduction}.")


class _Classifier(Estimator):
    """A premade classifier: ``predict`` adds ``classes``/``all_classes``."""

    def predict(self, input_fn: Callable[..., Any], predict_keys: Sequence[str] | None = None,
                hooks: Sequence[Any] | None = None, checkpoint_path: str | None = None,
                yield_single_examples: bool = True) -> Iterator[Any]:
        """As :meth:`Estimator.predict`; ``classes`` and ``all_classes`` are the class
        ids as bytes (object arrays), made on the host from ``class_ids``/``all_class_ids``."""
        keys = list(predict_keys) if predict_keys else None
        inner = None
        if keys:
            host_made = {"classes": "class_ids", "all_classes": "all_class_ids"}
            inner = list(dict.fromkeys(host_made.get(k, k) for k in keys))
        for pred in super().predict(input_fn, inner, hooks, checkpoint_path, yield_single_examples):
            out: dict[str, Any] = {}
            for key, value in pred.items():
                out[key] = value
                if key in ("class_ids", "all_class_ids"):
                    name = "classes" if key == "class_ids" else "all_classes"
                    out[name] = np.vectorize(lambda i: str(i).encode(), otypes=[object])(value)
            yield out if keys is None else {k: out[k] for k in out if k in keys}


class DNNClassifier(_Classifier):
    """A feed-forward classifier over feature columns, as ``tf.compat.v1.estimator.DNNClassifier``.

    The network is ``input_layer`` (under ``dnn/input_from_feature_columns``),
    ``dense`` layers ``dnn/hiddenlayer_<i>`` (``activation_fn``, Glorot-uniform
    kernels, ``dropout`` while training) and ``dnn/logits`` (``n_classes`` units,
    1 for two classes). Training minimizes the per-example cross-entropy summed
    over the batch (TF1's ``Reduction.SUM``) with ``optimizer`` (a name among
    ``'Adagrad'``, ``'Adam'``, ``'RMSProp'``, ``'SGD'`` with learning rate 0.05,
    an ``Optimizer``, or a callable returning one).

    ``predict`` yields ``logits``, ``probabilities`` (float32 ``[n_classes]``),
    ``class_ids`` (int64 ``[1]``), ``classes`` (bytes ``[1]``), ``all_class_ids``,
    ``all_classes`` (and ``logistic`` for two classes); ``evaluate`` returns
    ``accuracy``, ``average_loss``, ``loss`` (the mean of the batch sums),
    ``global_step`` (and ``label/mean``, ``prediction/mean``,
    ``accuracy_baseline``, ``precision``, ``recall`` for two classes; not ``auc``
    nor ``auc_precision_recall``).

    Labels are integer class ids of shape ``[batch]`` or ``[batch, 1]``.

    Raises:
      ValueError: ``n_classes`` < 2; ``weight_column``, ``label_vocabulary``,
        ``batch_norm`` or a non-``SUM`` ``loss_reduction`` (not supported); an
        unknown optimizer name.
    """

    def __init__(self, hidden_units: Sequence[int], feature_columns: Any, model_dir: str | None = None,
                 n_classes: int = 2, weight_column: Any = None, label_vocabulary: Any = None,
                 optimizer: Any = "Adagrad", activation_fn: Callable[[Any], Any] = nn_ops.relu,
                 dropout: float | None = None, input_layer_partitioner: Any = None,
                 config: RunConfig | None = None, warm_start_from: Any = None, loss_reduction: str = "weighted_sum",
                 batch_norm: bool = False) -> None:
        if n_classes < 2:
            raise ValueError(f"n_classes must be > 1 for classification: {n_classes}")
        _check_unsupported(weight_column, batch_norm, loss_reduction, "DNNClassifier",
                           label_vocabulary=label_vocabulary)
        columns = list(feature_columns)
        units = 1 if n_classes == 2 else n_classes

        def _model_fn(features: Any, labels: Any, mode: str, config: RunConfig) -> EstimatorSpec:
            if not isinstance(features, dict):
                features = {"": features}
            logits = _dnn_logits(features, hidden_units, columns, units, activation_fn, dropout, mode)
            return _classification_spec(features, labels, mode, logits, n_classes, _minimize(optimizer))

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)

class DNNRegressor(Estimator):
    """A feed-forward regressor over feature columns, as ``tf.compat.v1.estimator.DNNRegressor``.

    The network is :class:`DNNClassifier`'s with ``label_dimension`` logits;
    training minimizes the squared error summed over the batch (``Reduction.SUM``).
    ``predict`` yields ``{'predictions': float32 [label_dimension]}``; ``evaluate``
    returns ``average_loss`` (mean squared error per element), ``label/mean``,
    ``prediction/mean``, ``loss`` (the mean of the batch sums), ``global_step``.

    Raises:
      ValueError: ``label_dimension`` < 1; ``weight_column``, ``batch_norm`` or a
        non-``SUM`` ``loss_reduction`` (not supported); an unknown optimizer name;
        labels whose last dimension is not ``label_dimension``.
    """

    def __init__(self, hidden_units: Sequence[int], feature_columns: Any, model_dir: str | None = None,
                 label_dimension: int = 1, weight_column: Any = None, optimizer: Any = "Adagrad",
                 activation_fn: Callable[[Any], Any] = nn_ops.relu, dropout: float | None = None,
                 input_layer_partitioner: Any = None, config: RunConfig | None = None, warm_start_from: Any = None,
                 loss_reduction: str = "weighted_sum", batch_norm: bool = False) -> None:
        if label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension}.")
        _check_unsupported(weight_column, batch_norm, loss_reduction, "DNNRegressor")
        columns = list(feature_columns)

        def _model_fn(features: Any, labels: Any, mode: str, config: RunConfig) -> EstimatorSpec:
            if not isinstance(features, dict):
                features = {"": features}
            logits = _dnn_logits(features, hidden_units, columns, label_dimension, activation_fn, dropout, mode)
            return _regression_spec(labels, mode, logits, label_dimension, _minimize(optimizer))

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)
