"""``tf.estimator.train_and_evaluate`` with ``TrainSpec`` and ``EvalSpec``, as
``tensorflow_estimator/python/estimator/training.py`` run locally (no ``TF_CONFIG``):
train to ``max_steps``, evaluating on each new checkpoint at most every
``throttle_secs`` seconds and once more at the end of training."""

from __future__ import annotations

import collections
import os
from collections.abc import Callable, Sequence
from typing import Any

from jaxsess._tf1 import logging as tf_logging
from jaxsess._tf1.estimator._estimator import Estimator
from jaxsess._tf1.train._hooks import CheckpointSaverListener, SecondOrStepTimer, SessionRunHook

__all__ = ["TrainSpec", "EvalSpec", "train_and_evaluate"]


def _check_hooks(hooks: Any) -> tuple[SessionRunHook, ...]:
    hooks = tuple(hooks or ())
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be SessionRunHook instances, given: {hook}")
    return hooks


class TrainSpec(collections.namedtuple("TrainSpec", ["input_fn", "max_steps", "hooks", "saving_listeners"])):
    """What ``train_and_evaluate`` trains on, as ``tf.estimator.TrainSpec``.

    Raises:
      TypeError: ``input_fn`` not callable, a hook that is not a ``SessionRunHook``.
      ValueError: ``max_steps`` not positive.
    """

    def __new__(cls, input_fn: Callable[..., Any], max_steps: int | None = None,
                hooks: Sequence[SessionRunHook] | None = None,
                saving_listeners: Sequence[CheckpointSaverListener] | None = None) -> TrainSpec:
        if not callable(input_fn):
            raise TypeError(f"`input_fn` must be callable, given: {input_fn}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        listeners = tuple(saving_listeners or ())
        for listener in listeners:
            if not isinstance(listener, CheckpointSaverListener):
                raise TypeError(f"All saving_listeners must be `CheckpointSaverListener` instances, "
                                f"given: {listener}")
        return super().__new__(cls, input_fn, max_steps, _check_hooks(hooks), listeners)


class EvalSpec(collections.namedtuple("EvalSpec", ["input_fn", "steps", "name", "hooks", "exporters",
                                                   "start_delay_secs", "throttle_secs"])):
    """How ``train_and_evaluate`` evaluates (and exports, with ``exporters``), as
    ``tf.estimator.EvalSpec``.

    Raises:
      TypeError: ``input_fn`` not callable, ``name`` not a string, a bad hook.
      ValueError: ``steps`` not positive, a negative delay or throttle.
    """

    def __new__(cls, input_fn: Callable[..., Any], steps: int | None = 100, name: str | None = None,
                hooks: Sequence[SessionRunHook] | None = None, exporters: Any = None,
                start_delay_secs: float = 120, throttle_secs: float = 600) -> EvalSpec:
        if not callable(input_fn):
            raise TypeError(f"`input_fn` must be callable, given: {input_fn}")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"`name` must be string, given: {name}")
        if start_delay_secs < 0:
            raise ValueError(f"Must specify start_delay_secs >= 0, given: {start_delay_secs}")
        if throttle_secs < 0:
            raise ValueError(f"Must specify throttle_secs >= 0, given: {throttle_secs}")
        exporters = tuple(exporters) if isinstance(exporters, list | tuple) else (
            () if exporters is None else (exporters,))
        return super().__new__(cls, input_fn, steps, name, _check_hooks(hooks), exporters, start_delay_secs,
                               throttle_secs)


class _EvaluateOnNewCheckpoint(CheckpointSaverListener):
    """Evaluates after each checkpoint save (not the first, at session creation)
    when ``throttle_secs`` have passed since the last evaluation, and at the end
    of training unless the last evaluation was at the final step."""

    def __init__(self, estimator: Estimator, eval_spec: EvalSpec, max_steps: int | None = None) -> None:
        self._estimator = estimator
        self._spec = eval_spec
        self._max_steps = max_steps
        self.export_results: list[Any] = []
        self._timer = SecondOrStepTimer(every_secs=eval_spec.throttle_secs)
        self._first = True
        self._previous: str | None = None
        self.eval_result: dict[str, Any] | None = None

    def begin(self) -> None:
        self._timer = SecondOrStepTimer(every_secs=self._spec.throttle_secs)
        self._first = True

    def _evaluate(self, step: int) -> None:
        self._timer.update_last_triggered_step(step)
        path = self._estimator.latest_checkpoint()
        if path is None or path == self._previous:
            tf_logging.info("Skip the current checkpoint eval due to no new checkpoint.")
            return
        self._previous = path
        self.eval_result = self._estimator.evaluate(self._spec.input_fn, steps=self._spec.steps,
                                                   hooks=self._spec.hooks, checkpoint_path=path,
                                                   name=self._spec.name)
        # the exporters, as TF's _Evaluator._export_eval_result
        final = self._max_steps is not None and self.eval_result.get("global_step", 0) >= self._max_steps
        base = os.path.join(self._estimator.model_dir, "export")
        self.export_results = [exporter.export(self._estimator, os.path.join(base, exporter.name), path,
                                               self.eval_result, final) for exporter in self._spec.exporters]

    def after_save(self, session: Any, global_step_value: int) -> None:
        if self._first:
            self._first = False
            return
        if self._timer.should_trigger_for_step(global_step_value):
            self._evaluate(global_step_value)
        else:
            tf_logging.info(f"Skip the current checkpoint eval due to throttle secs ({self._spec.throttle_secs} secs).")

    def end(self, session: Any, global_step_value: int) -> None:
        if global_step_value != self._timer.last_triggered_step():
            self._evaluate(global_step_value)


def train_and_evaluate(estimator: Estimator, train_spec: TrainSpec,
                       eval_spec: EvalSpec) -> tuple[dict[str, Any] | None, list[Any]]:
    """Trains and evaluates locally, as ``tf.estimator.train_and_evaluate`` without a cluster.

    Returns:
      ``(metrics of the last evaluation or None, what its exporters returned)``
      (each evaluation runs the ``EvalSpec``'s exporters into
      ``model_dir/export/<exporter name>``; the one at ``max_steps`` is the
      final export).

    Raises:
      TypeError: arguments of the wrong types.
    """
    if not isinstance(estimator, Estimator):
        raise TypeError(f"`estimator` must have type `tf.estimator.Estimator`. Got: {type(estimator)}")
    if not isinstance(train_spec, TrainSpec):
        raise TypeError(f"`train_spec` must have type `tf.estimator.TrainSpec`. Got: {type(train_spec)}")
    if not isinstance(eval_spec, EvalSpec):
        raise TypeError(f"`eval_spec` must have type `tf.estimator.EvalSpec`. Got: {type(eval_spec)}")
    config = estimator.config
    tf_logging.info("Start train and evaluate loop. The evaluate will happen after every checkpoint. Checkpoint "
                    "frequency is determined based on RunConfig arguments: save_checkpoints_steps "
                    f"{config.save_checkpoints_steps} or save_checkpoints_secs {config.save_checkpoints_secs}.")
    listener = _EvaluateOnNewCheckpoint(estimator, eval_spec, train_spec.max_steps)
    estimator.train(train_spec.input_fn, hooks=list(train_spec.hooks), max_steps=train_spec.max_steps,
                    saving_listeners=[*train_spec.saving_listeners, listener])
    return listener.eval_result, listener.export_results
