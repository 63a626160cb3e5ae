"""``tf.estimator.ModeKeys`` and ``tf.estimator.EstimatorSpec``: what a ``model_fn``
returns, validated as ``tensorflow_estimator/python/estimator/model_fn.py``."""

from __future__ import annotations

import collections
from collections.abc import Mapping
from typing import Any

from jaxsess._core.graph._graph import Operation, Tensor, get_default_graph
from jaxsess._tf1.ops.array_ops import reshape
from jaxsess._tf1.ops.state_ops import Variable
from jaxsess._tf1.train._hooks import SessionRunHook
from jaxsess._tf1.train._monitored import Scaffold

__all__ = ["ModeKeys", "EstimatorSpec"]


class ModeKeys:
    """The three modes a ``model_fn`` is called in, as ``tf.estimator.ModeKeys``."""

    TRAIN = "train"
    EVAL = "eval"
    PREDICT = "infer"


_NOT_DEFAULT_GRAPH = (
    '{0} with "{1}" must be from the default graph. '
    "Possible causes of this error include: \n\n"
    "1) {0} was created outside the context of the default graph."
    "\n\n"
    "2) The object passed through to EstimatorSpec was not created "
    'in the most recent call to "model_fn".')


def _check_tensor(x: Any, name: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{name} must be Tensor, given: {x}")
    return x


def _check_graph(x: Any, what: str, name: str) -> None:
    if x.graph is not get_default_graph():
        raise ValueError(_NOT_DEFAULT_GRAPH.format(what, name))


def _check_hooks(hooks: Any) -> tuple[SessionRunHook, ...]:
    hooks = tuple(hooks or ())
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be SessionRunHook instances, given: {hook}")
    return hooks


class EstimatorSpec(collections.namedtuple("EstimatorSpec", [
        "mode", "predictions", "loss", "train_op", "eval_metric_ops", "export_outputs",
        "training_chief_hooks", "training_hooks", "scaffold", "evaluation_hooks", "prediction_hooks"])):
    """What ``model_fn`` returns for one mode, as ``tf.estimator.EstimatorSpec``.

    Create it with ``EstimatorSpec(mode, predictions=..., loss=..., train_op=...,
    eval_metric_ops=...)``; the constructor validates as TF1 does.

    Fields:
      mode: a :class:`ModeKeys` value.
      predictions: a ``Tensor`` or a dict of them (required in ``PREDICT``);
        ``{}`` when not given.
      loss: a scalar (or shape ``[1]``, reshaped to ``[]``) float ``Tensor``
        (required in ``TRAIN`` and ``EVAL``).
      train_op: the ``Operation`` (or ``Tensor``) of one training step
        (required in ``TRAIN``); a ``Variable`` is replaced by its op.
      eval_metric_ops: ``{name: (value_tensor, update_op)}`` (``{}`` when not given).
      export_outputs: ``{signature key: ExportOutput}`` for ``Estimator.export_saved_model``.
      training_chief_hooks, training_hooks, evaluation_hooks, prediction_hooks:
        tuples of ``SessionRunHook``.
      scaffold: a ``tf.train.Scaffold`` (a default one when not given).

    Raises:
      ValueError: ``Missing train_op.``, ``Missing loss.``, ``Missing predictions.``,
        a loss that is not scalar, a tensor from another graph.
      TypeError: a loss or prediction that is not a ``Tensor``, a train_op that is
        neither a ``Tensor`` nor an ``Operation``, a hook that is not a
        ``SessionRunHook``, ``eval_metric_ops`` not a dict of 2-tuples, a
        scaffold that is not a ``Scaffold``.
    """


    @classmethod
    def _validated(cls, mode: str, predictions: Any, loss: Any, train_op: Any, eval_metric_ops: Any,
                   export_outputs: Any, training_chief_hooks: Any, training_hooks: Any, scaffold: Any,
                   evaluation_hooks: Any, prediction_hooks: Any) -> tuple[Any, ...]:
        if train_op is None:
            if mode == ModeKeys.TRAIN:
                raise ValueError("Missing train_op.")
        else:
            if isinstance(train_op, Variable):
                train_op = train_op.op
            if not isinstance(train_op, Operation | Tensor):
                raise TypeError(f"train_op must be Operation or Tensor, given: {train_op}")
            _check_graph(train_op, "train_op", train_op.name)
        if loss is None:
            if mode in (ModeKeys.TRAIN, ModeKeys.EVAL):
                raise ValueError("Missing loss.")
        else:
            loss = _check_tensor(loss, "loss")
            n = loss.get_shape().num_elements()
            if n not in (None, 1):
                raise ValueError(f"Loss must be scalar, given: {loss}")
            if not loss.get_shape().is_compatible_with([]):
                loss = reshape(loss, [])
            _check_graph(loss, "loss", loss.name)
        if predictions is None:
            if mode == ModeKeys.PREDICT:
                raise ValueError("Missing predictions.")
            predictions = {}
        elif isinstance(predictions, Mapping):
            predictions = {k: _check_tensor(v, f"predictions[{k}]") for k, v in predictions.items()}
            for k, v in predictions.items():
                _check_graph(v, "prediction values", f"{k}: {v.name}")
        else:
            predictions = _check_tensor(predictions, "predictions")
            _check_graph(predictions, "prediction values", predictions.name)
        if eval_metric_ops is None:
            eval_metric_ops = {}
        else:
            if not isinstance(eval_metric_ops, dict):
                raise TypeError(f"eval_metric_ops must be a dict, given: {eval_metric_ops}")
            for key, value in eval_metric_ops.items():
                if not isinstance(value, tuple) or len(value) != 2:
                    raise TypeError("Values of eval_metric_ops must be (metric_value, update_op) "
                                    f"tuples, given: {value} for key: {key}")
                for part in value:
                    if not isinstance(part, Operation | Tensor):
                        raise TypeError(f"eval_metric_ops[{key}] must be Operation or Tensor, given: {part}")
                    _check_graph(part, "eval_metric_ops", f"{key}: {part.name}")
        scaffold = scaffold or Scaffold()
        if not isinstance(scaffold, Scaffold):
            raise TypeError(f"scaffold must be tf.train.Scaffold. Given: {scaffold}")
        return (mode, predictions, loss, train_op, eval_metric_ops, export_outputs,
                _check_hooks(training_chief_hooks), _check_hooks(training_hooks), scaffold,
                _check_hooks(evaluation_hooks), _check_hooks(prediction_hooks))

    def __new__(cls, mode: str, predictions: Any = None, loss: Any = None, train_op: Any = None,
                eval_metric_ops: Any = None, export_outputs: Any = None, training_chief_hooks: Any = None,
                training_hooks: Any = None, scaffold: Any = None, evaluation_hooks: Any = None,
                prediction_hooks: Any = None) -> EstimatorSpec:
        fields = cls._validated(mode, predictions, loss, train_op, eval_metric_ops, export_outputs,
                                training_chief_hooks, training_hooks, scaffold, evaluation_hooks,
                                prediction_hooks)
        return super().__new__(cls, *fields)

    def _replace(self, **kwds: Any) -> EstimatorSpec:
        """A new spec with some fields replaced (the mode cannot change)."""
        if "mode" in kwds and kwds["mode"] != self.mode:
            raise ValueError("mode of EstimatorSpec cannot be changed.")
        fields = {name: kwds.pop(name, getattr(self, name)) for name in self._fields}
        return EstimatorSpec(**fields)
