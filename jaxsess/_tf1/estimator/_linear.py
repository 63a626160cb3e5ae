"""``tf.estimator.LinearClassifier``/``LinearRegressor`` and the wide-and-deep
``DNNLinearCombinedClassifier``/``DNNLinearCombinedRegressor``, as
``tensorflow_estimator/python/estimator/canned/linear.py`` and
``dnn_linear_combined.py`` (v1 classes): logits from ``feature_column.linear_model``
under the variable scope ``linear`` (plus :class:`DNNClassifier`'s network under
``dnn``), with the heads of :mod:`jaxsess._tf1.estimator._dnn`."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from jaxsess._core.graph._builder import group
from jaxsess._core.graph._graph import GraphKeys, control_dependencies, get_default_graph
from jaxsess._tf1.estimator._dnn import (
    _check_unsupported,
    _classification_spec,
    _Classifier,
    _dnn_logits,
    _get_optimizer,
    _minimize,
    _regression_spec,
)
from jaxsess._tf1.estimator._estimator import Estimator
from jaxsess._tf1.estimator._model_fn import EstimatorSpec
from jaxsess._tf1.estimator._run_config import RunConfig
from jaxsess._tf1.feature_column import linear_model
from jaxsess._tf1.ops import nn_ops as nn_ops
from jaxsess._tf1.ops.state_ops import assign_add
from jaxsess._tf1.ops.variable_scope import variable_scope
from jaxsess._tf1.train._global_step import get_global_step
from jaxsess._tf1.train._proximal import FtrlOptimizer

__all__ = ["LinearClassifier", "LinearRegressor", "DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor"]

_LINEAR_LEARNING_RATE = 0.2  # canned/linear.py
_COMBINED_DNN_LEARNING_RATE = 0.001  # canned/dnn_linear_combined.py
_COMBINED_LINEAR_LEARNING_RATE = 0.005


def _linear_logits(features: Any, feature_columns: Sequence[Any], units: int, sparse_combiner: str) -> Any:
    with variable_scope("linear", values=list(features.values())):
        return linear_model(features, feature_columns, units=units, sparse_combiner=sparse_combiner)


def _as_dict(features: Any) -> dict[str, Any]:
    return features if isinstance(features, dict) else {"": features}


def _linear_train_op_fn(optimizer: Any, feature_columns: Sequence[Any]) -> Callable[[Any], Any]:
    if optimizer is None:  # canned/linear.py's _get_default_optimizer
        optimizer = FtrlOptimizer(min(_LINEAR_LEARNING_RATE, 1.0 / math.sqrt(len(feature_columns))))
    elif isinstance(optimizer, str):
        optimizer = _get_optimizer(optimizer, _LINEAR_LEARNING_RATE)
    return _minimize(optimizer)


class LinearClassifier(_Classifier):
    """A linear classifier over feature columns, as ``tf.compat.v1.estimator.LinearClassifier``.

    The logits are ``feature_column.linear_model`` of ``feature_columns``
    (variables ``linear/linear_model/<column>/weights`` and
    ``linear/linear_model/bias_weights``, zero-initialised; ``n_classes`` units,
    1 for two classes); the head, ``predict`` and ``evaluate`` are
    :class:`DNNClassifier`'s. ``optimizer`` is a name (``'Ftrl'`` by default,
    learning rate 0.2), an ``Optimizer``, a callable returning one, or ``None``
    (FTRL with learning rate ``min(0.2, 1 / sqrt(len(feature_columns)))``).

    Raises:
      ValueError: ``n_classes`` < 2; ``weight_column``, ``label_vocabulary``, a
        partitioner or a non-``SUM`` ``loss_reduction`` (not supported); an
        unknown optimizer name or ``sparse_combiner``.
    """

    def __init__(self, feature_columns: Any, model_dir: str | None = None, n_classes: int = 2,
                 weight_column: Any = None, label_vocabulary: Any = None, optimizer: Any = "Ftrl",
                 config: RunConfig | None = None, partitioner: Any = None, warm_start_from: Any = None,
                 loss_reduction: str = "weighted_sum", sparse_combiner: str = "sum") -> None:
        if n_classes < 2:
            raise ValueError(f"n_classes must be > 1 for classification: {n_classes}")
        _check_unsupported(weight_column, False, loss_reduction, "LinearClassifier",
                           label_vocabulary=label_vocabulary, partitioner=partitioner)
        columns = list(feature_columns)
        units = 1 if n_classes == 2 else n_classes

        def _model_fn(features: Any, labels: Any, mode: str, config: RunConfig) -> EstimatorSpec:
            features = _as_dict(features)
            logits = _linear_logits(features, columns, units, sparse_combiner)
            return _classification_spec(features, labels, mode, logits, n_classes,
                                        _linear_train_op_fn(optimizer, columns))

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class LinearRegressor(Estimator):
    """A linear regressor over feature columns, as ``tf.compat.v1.estimator.LinearRegressor``.

    The logits are :class:`LinearClassifier`'s with ``label_dimension`` units;
    the head, ``predict`` and ``evaluate`` are :class:`DNNRegressor`'s (squared
    error summed over the batch); ``optimizer`` as :class:`LinearClassifier`'s.

    Raises:
      ValueError: ``label_dimension`` < 1; ``weight_column``, a partitioner or a
        non-``SUM`` ``loss_reduction`` (not supported); an unknown optimizer
        name or ``sparse_combiner``.
    """

    def __init__(self, feature_columns: Any, model_dir: str | None = None, label_dimension: int = 1,
                 weight_column: Any = None, optimizer: Any = "Ftrl", config: RunConfig | None = None,
                 partitioner: Any = None, warm_start_from: Any = None, loss_reduction: str = "weighted_sum",
                 sparse_combiner: str = "sum") -> None:
        if label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension}.")
        _check_unsupported(weight_column, False, loss_reduction, "LinearRegressor", partitioner=partitioner)
        columns = list(feature_columns)

        def _model_fn(features: Any, labels: Any, mode: str, config: RunConfig) -> EstimatorSpec:
            features = _as_dict(features)
            logits = _linear_logits(features, columns, label_dimension, sparse_combiner)
            return _regression_spec(labels, mode, logits, label_dimension, _linear_train_op_fn(optimizer, columns))

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


def _combined_logits(features: Any, mode: str, units: int, linear_columns: Sequence[Any],
                     dnn_columns: Sequence[Any], hidden_units: Sequence[int] | None,
                     activation_fn: Callable[[Any], Any], dropout: float | None,
                     sparse_combiner: str) -> tuple[Any, list[str]]:
    """The summed logits and the variable scopes of the parts to train."""
    parts, scopes = [], []
    if dnn_columns:
        if not hidden_units:  # as TF, raised when the model is built
            raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is specified.")
        parts.append(_dnn_logits(features, hidden_units, dnn_columns, units, activation_fn, dropout, mode))
        scopes.append("dnn")
    if linear_columns:
        parts.append(_linear_logits(features, linear_columns, units, sparse_combiner))
        scopes.append("linear")
    logits = parts[0] + parts[1] if len(parts) == 2 else parts[0]
    return logits, scopes


def _combined_train_op_fn(linear_optimizer: Any, dnn_optimizer: Any, linear_columns: Sequence[Any],
                          scopes: Sequence[str]) -> Callable[[Any], Any]:
    def train_op_fn(loss: Any) -> Any:
        graph = get_default_graph()
        train_ops = []
        for scope in scopes:
            if scope == "dnn":
                opt = _get_optimizer(dnn_optimizer, _COMBINED_DNN_LEARNING_RATE)
            else:
                rate = min(_COMBINED_LINEAR_LEARNING_RATE, 1.0 / math.sqrt(len(linear_columns)))
                opt = _get_optimizer(linear_optimizer, rate)
            train_ops.append(opt.minimize(loss, var_list=graph.get_collection(GraphKeys.TRAINABLE_VARIABLES,
                                                                               scope=scope)))
        with control_dependencies([group(*train_ops)]):
            return assign_add(get_global_step(), 1).op

    return train_op_fn


def _check_combined(linear_columns: Sequence[Any], dnn_columns: Sequence[Any]) -> None:
    if not linear_columns and not dnn_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")


class DNNLinearCombinedClassifier(_Classifier):
    """Wide-and-deep classification, as ``tf.compat.v1.estimator.DNNLinearCombinedClassifier``.

    The logits are the sum of :class:`LinearClassifier`'s over
    ``linear_feature_columns`` (scope ``linear``) and :class:`DNNClassifier`'s
    over ``dnn_feature_columns`` (scope ``dnn``); each part is trained by its
    own optimizer on its own variables (``linear_optimizer``: ``'Ftrl'``,
    learning rate ``min(0.005, 1 / sqrt(len(linear_feature_columns)))`` for a
    name; ``dnn_optimizer``: ``'Adagrad'``, learning rate 0.001 for a name),
    then the global step is incremented. Head, ``predict`` and ``evaluate`` as
    :class:`DNNClassifier`. Building the model (``train``, ``evaluate``,
    ``predict``) raises ``ValueError`` for dnn columns without ``dnn_hidden_units``, as TF.

    Raises:
      ValueError: no columns at all; ``n_classes`` < 2; ``weight_column``, ``label_vocabulary``,
        ``batch_norm``, a partitioner or a non-``SUM`` ``loss_reduction`` (not supported).
    """

    def __init__(self, model_dir: str | None = None, linear_feature_columns: Any = None,
                 linear_optimizer: Any = "Ftrl", dnn_feature_columns: Any = None, dnn_optimizer: Any = "Adagrad",
                 dnn_hidden_units: Sequence[int] | None = None,
                 dnn_activation_fn: Callable[[Any], Any] = nn_ops.relu, dnn_dropout: float | None = None,
                 n_classes: int = 2, weight_column: Any = None, label_vocabulary: Any = None,
                 input_layer_partitioner: Any = None, config: RunConfig | None = None,
                 warm_start_from: Any = None, loss_reduction: str = "weighted_sum", batch_norm: bool = False,
                 linear_sparse_combiner: str = "sum") -> None:
        linear_columns = list(linear_feature_columns or [])
        dnn_columns = list(dnn_feature_columns or [])
        _check_combined(linear_columns, dnn_columns)
        if n_classes < 2:
            raise ValueError(f"n_classes must be > 1 for classification: {n_classes}")
        _check_unsupported(weight_column, batch_norm, loss_reduction, "DNNLinearCombinedClassifier",
                           label_vocabulary=label_vocabulary, input_layer_partitioner=input_layer_partitioner)
        units = 1 if n_classes == 2 else n_classes

        def _model_fn(features: Any, labels: Any, mode: str, config: RunConfig) -> EstimatorSpec:
            features = _as_dict(features)
            logits, scopes = _combined_logits(features, mode, units, linear_columns, dnn_columns, dnn_hidden_units,
                                              dnn_activation_fn, dnn_dropout, linear_sparse_combiner)
            return _classification_spec(features, labels, mode, logits, n_classes, _combined_train_op_fn(
                linear_optimizer, dnn_optimizer, linear_columns, scopes))

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class DNNLinearCombinedRegressor(Estimator):
    """Wide-and-deep regression, as ``tf.compat.v1.estimator.DNNLinearCombinedRegressor``:
    :class:`DNNLinearCombinedClassifier`'s logits (``label_dimension`` units),
    optimizers and training with :class:`DNNRegressor`'s head.

    Raises:
      ValueError: as :class:`DNNLinearCombinedClassifier`; ``label_dimension`` < 1.
    """

    def __init__(self, model_dir: str | None = None, linear_feature_columns: Any = None,
                 linear_optimizer: Any = "Ftrl", dnn_feature_columns: Any = None, dnn_optimizer: Any = "Adagrad",
                 dnn_hidden_units: Sequence[int] | None = None,
                 dnn_activation_fn: Callable[[Any], Any] = nn_ops.relu, dnn_dropout: float | None = None,
                 label_dimension: int = 1, weight_column: Any = None, input_layer_partitioner: Any = None,
                 config: RunConfig | None = None, warm_start_from: Any = None,
                 loss_reduction: str = "weighted_sum", batch_norm: bool = False,
                 linear_sparse_combiner: str = "sum") -> None:
        linear_columns = list(linear_feature_columns or [])
        dnn_columns = list(dnn_feature_columns or [])
        _check_combined(linear_columns, dnn_columns)
        if label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension}.")
        _check_unsupported(weight_column, batch_norm, loss_reduction, "DNNLinearCombinedRegressor",
                           input_layer_partitioner=input_layer_partitioner)

        def _model_fn(features: Any, labels: Any, mode: str, config: RunConfig) -> EstimatorSpec:
            features = _as_dict(features)
            logits, scopes = _combined_logits(features, mode, label_dimension, linear_columns, dnn_columns,
                                              dnn_hidden_units, dnn_activation_fn, dnn_dropout,
                                              linear_sparse_combiner)
            return _regression_spec(labels, mode, logits, label_dimension, _combined_train_op_fn(
                linear_optimizer, dnn_optimizer, linear_columns, scopes))

        super().__init__(_model_fn, model_dir=model_dir, config=config, warm_start_from=warm_start_from)
