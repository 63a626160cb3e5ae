"""``tf.estimator.Estimator``: train, evaluate and predict with a ``model_fn``, each
call in a fresh graph restored from / saved to ``model_dir``, as
``tensorflow_estimator/python/estimator/estimator.py`` (single process, chief only).

Built on :mod:`jaxsess.train` (``MonitoredSession``, the hooks, ``Saver``) and
:mod:`jaxsess.summary` (event files). What it writes in ``model_dir`` is what
TF1 writes: ``checkpoint``, ``graph.pbtxt``, ``model.ckpt-<step>.{index,data-*,meta}``,
``events.out.tfevents.*`` (the ``loss`` summary) and ``eval[_<name>]/events...``.
"""

from __future__ import annotations

import collections
import copy
import inspect
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from jaxsess._core import _tfproto as _tfproto
from jaxsess._core.graph._graph import Graph, GraphKeys, get_default_graph
from jaxsess._tf1 import logging as tf_logging
from jaxsess._tf1.data._dataset import Dataset
from jaxsess._tf1.estimator._export import build_all_signature_defs, export_outputs_for_predict
from jaxsess._tf1.estimator._model_fn import EstimatorSpec, ModeKeys
from jaxsess._tf1.estimator._run_config import RunConfig
from jaxsess._tf1.ops import state_ops as state_ops
from jaxsess._tf1.ops.random_ops import set_random_seed
from jaxsess._tf1.saved_model import tag_constants
from jaxsess._tf1.saved_model.builder import SavedModelBuilder
from jaxsess._tf1.summary._ops import scalar as scalar_summary
from jaxsess._tf1.summary._writer import FileWriterCache
from jaxsess._tf1.train._checkpoint_utils import list_variables, load_checkpoint
from jaxsess._tf1.train._global_step import create_global_step, get_global_step
from jaxsess._tf1.train._hooks import (
    CheckpointSaverHook,
    CheckpointSaverListener,
    LoggingTensorHook,
    NanTensorHook,
    SessionRunArgs,
    SessionRunContext,
    SessionRunHook,
    SessionRunValues,
    StepCounterHook,
    StopAtStepHook,
    SummarySaverHook,
)
from jaxsess._tf1.train._monitored import ChiefSessionCreator, MonitoredSession, Scaffold
from jaxsess._tf1.train._saver import Saver, latest_checkpoint
from jaxsess._tf1.train._warm_start import warm_start

__all__ = ["Estimator", "WarmStartSettings"]

_VALID_MODEL_FN_ARGS = {"features", "labels", "mode", "params", "self", "config"}


def _fn_args(fn: Callable[..., Any]) -> tuple[str, ...]:
    return tuple(inspect.signature(fn).parameters)


def _verify_model_fn_args(model_fn: Callable[..., Any], params: Any) -> None:
    args = set(_fn_args(model_fn))
    if "features" not in args:
        raise ValueError(f"model_fn ({model_fn}) must include features argument.")
    if params is not None and "params" not in args:
        raise ValueError(f"model_fn ({model_fn}) does not include params argument, "
                         f"but params ({params}) is passed to Estimator.")
    if params is None and "params" in args:
        tf_logging.warning("Estimator's model_fn (%s) includes params argument, but params are not passed "
                           "to Estimator.", model_fn)
    extra = list(args - _VALID_MODEL_FN_ARGS)
    if extra:
        raise ValueError(f"model_fn ({model_fn}) has following not expected args: {extra}")


def _check_hooks_type(hooks: Sequence[Any] | None) -> list[SessionRunHook]:
    hooks = list(hooks or [])
    for h in hooks:
        if not isinstance(h, SessionRunHook):
            raise TypeError(f"Hooks must be a SessionRunHook, given: {h}")
    return hooks


def _load_global_step_from_checkpoint_dir(checkpoint_dir: str) -> int:
    path = latest_checkpoint(checkpoint_dir)
    if path is None:
        return 0
    try:
        return int(load_checkpoint(path).get_tensor(GraphKeys.GLOBAL_STEP))
    except Exception:  # noqa: BLE001 - TF returns 0 for any unreadable checkpoint
        return 0


class _DatasetInitializerHook(SessionRunHook):
    """Runs a dataset iterator's initializer once the session exists."""

    def __init__(self, iterator: Any) -> None:
        self._iterator = iterator

    def after_create_session(self, session: Any, coord: Any) -> None:
        session.run(self._iterator.initializer)


class _StopAfterNEvalsHook(SessionRunHook):
    """Stops evaluation after ``num_evals`` runs."""

    def __init__(self, num_evals: int) -> None:
        self._num_evals = num_evals
        self._done = 0

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        self._done += 1
        if self._done >= self._num_evals:
            run_context.request_stop()


class _EvalHook(SessionRunHook):
    """Runs the metrics' update ops with every evaluation step, averages the
    loss as ``tf.metrics.mean(loss)`` does (float32 running sum over the
    batches, divided by their count), and runs the metrics' value ops at the end."""

    def __init__(self, update_ops: list[Any], loss: Any, value_ops: dict[str, Any]) -> None:
        self._update_ops = update_ops
        self._loss = loss
        self._value_ops = value_ops
        self._total = np.float32(0)
        self._count = np.float32(0)
        self.final_values: dict[str, Any] | None = None

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        return SessionRunArgs({"update": self._update_ops, "loss": self._loss})

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        self._total = np.float32(self._total + np.asarray(run_values.results["loss"], np.float32))
        self._count = np.float32(self._count + np.float32(1))

    def end(self, session: Any) -> None:
        values = session.run(self._value_ops)
        step = values.pop(GraphKeys.GLOBAL_STEP)
        values["loss"] = np.float32(self._total / self._count) if self._count else np.float32(0)
        values[GraphKeys.GLOBAL_STEP] = step
        self.final_values = values


def _dict_to_str(dictionary: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} = {v!s}" for k, v in sorted(dictionary.items()) if not isinstance(v, bytes))


def _write_dict_to_summary(output_dir: str, dictionary: Mapping[str, Any], current_global_step: int) -> None:
    tf_logging.info("Saving dict for global step %d: %s", current_global_step, _dict_to_str(dictionary))
    summary = _tfproto.Summary()
    for key, value in dictionary.items():
        if key == "global_step" or value is None:
            continue
        if isinstance(value, np.floating | float | np.integer | int) or (
                isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "fiu"):
            summary.value.add(tag=key, simple_value=float(value))
        else:
            tf_logging.warning("Skipping summary for %s, must be a float, np.float32, np.int64, np.int32 or int "
                               "or a serialized string of Summary.", key)
    writer = FileWriterCache.get(output_dir)
    writer.add_summary(summary, current_global_step)
    writer.flush()


class WarmStartSettings(collections.namedtuple("WarmStartSettings", [
        "ckpt_to_initialize_from", "vars_to_warm_start", "var_name_to_vocab_info", "var_name_to_prev_var_name"])):
    """Where and which variables a new model starts from, as ``tf.estimator.WarmStartSettings``.

    ``ckpt_to_initialize_from`` is a checkpoint file or directory;
    ``vars_to_warm_start`` a regular expression matched against the trainable
    variables' names (default ``'.*'``: all), a list of regular expressions over
    all global variables' names or a list of variables, or ``None`` (only those
    in ``var_name_to_vocab_info``); ``var_name_to_vocab_info`` maps a variable's
    name to a ``tf.estimator.VocabInfo`` (``tf.train.VocabInfo``);
    ``var_name_to_prev_var_name`` maps a variable's name to its name in the
    checkpoint. Applied by ``tf.train.warm_start``, as TF's ``Estimator``.
    """

    def __new__(cls, ckpt_to_initialize_from: str | os.PathLike[str], vars_to_warm_start: Any = ".*",
                var_name_to_vocab_info: Any = None,
                var_name_to_prev_var_name: dict[str, str] | None = None) -> WarmStartSettings:
        if not ckpt_to_initialize_from:
            raise ValueError("Need to specify where to warm-start from (ckpt_to_initialize_from).")
        return super().__new__(cls, os.fspath(ckpt_to_initialize_from), vars_to_warm_start, var_name_to_vocab_info,
                               var_name_to_prev_var_name)


class Estimator:
    """Trains, evaluates and predicts with a ``model_fn``, as ``tf.estimator.Estimator``.

    Args:
      model_fn: ``model_fn(features, labels, mode, params, config)`` (``labels``,
        ``mode``, ``params``, ``config`` optional) returning an :class:`EstimatorSpec`.
      model_dir: the directory of checkpoints and event files; a new temporary
        directory when neither it nor ``config.model_dir`` is given.
      config: a :class:`RunConfig`.
      params: a dict passed to ``model_fn`` (a deep copy).
      warm_start_from: a checkpoint path (file or directory) or a
        :class:`WarmStartSettings`: the values that initialize the (trainable)
        variables when ``model_dir`` has no checkpoint yet.

    Raises:
      ValueError: no ``model_fn``, a ``model_fn`` without ``features`` or with
        unexpected arguments, ``params`` given to a ``model_fn`` without
        ``params``, ``config`` not a :class:`RunConfig`, ``model_dir`` different
        from ``config.model_dir``.
    """

    def __init__(self, model_fn: Callable[..., EstimatorSpec], model_dir: str | os.PathLike[str] | None = None,
                 config: RunConfig | None = None, params: dict[str, Any] | None = None,
                 warm_start_from: Any = None) -> None:
        if model_fn is None:
            raise ValueError("model_fn must be provided to Estimator.")
        if config is None:
            config = RunConfig()
            tf_logging.info("Using default config.")
        if not isinstance(config, RunConfig):
            raise ValueError(f"config must be an instance of `RunConfig`, but provided {config}.")
        model_dir = os.fspath(model_dir) if model_dir is not None else None
        if model_dir is not None and config.model_dir is not None and config.model_dir != model_dir:
            raise ValueError("`model_dir` are set both in constructor and `RunConfig`, but with different values. "
                             f"In constructor: '{model_dir}', in `RunConfig`: '{config.model_dir}' ")
        if model_dir:
            config = config.replace(model_dir=model_dir)
        elif config.model_dir is None:
            model_dir = tempfile.mkdtemp()
            tf_logging.warning("Using temporary folder as model directory: %s", model_dir)
            config = config.replace(model_dir=model_dir)
        tf_logging.info("Using config: %s", config)
        _verify_model_fn_args(model_fn, params)
        self._config = config
        self._model_dir: str = config.model_dir
        self._model_fn = model_fn
        self._params = copy.deepcopy(params or {})
        if isinstance(warm_start_from, str | os.PathLike):
            warm_start_from = WarmStartSettings(os.fspath(warm_start_from))
        if warm_start_from is not None and not isinstance(warm_start_from, WarmStartSettings):
            raise ValueError(f"warm_start_from must be a string or a WarmStartSettings, "
                             f"instead got {type(warm_start_from)}")
        self._warm_start: WarmStartSettings | None = warm_start_from

    @property
    def model_dir(self) -> str:
        """The directory of checkpoints and event files."""
        return self._model_dir

    @property
    def config(self) -> RunConfig:
        """A copy of the :class:`RunConfig`."""
        return copy.deepcopy(self._config)

    @property
    def params(self) -> dict[str, Any]:
        """A copy of ``params``."""
        return copy.deepcopy(self._params)

    @property
    def model_fn(self) -> Callable[..., EstimatorSpec]:
        """``model_fn(features, labels, mode, config)`` with this estimator's params."""
        def public_model_fn(features: Any, labels: Any, mode: str, config: RunConfig) -> EstimatorSpec:
            return self._call_model_fn(features, labels, mode, config)
        return public_model_fn

    # -- checkpoints -----------------------------------------------------------------------------------

    def latest_checkpoint(self) -> str | None:
        """The path of the newest checkpoint in ``model_dir`` (``None`` if none)."""
        return latest_checkpoint(self._model_dir)

    def _checkpoint(self) -> str:
        path = latest_checkpoint(self._model_dir)
        if path is None:
            raise ValueError(f"Could not find trained model in model_dir: {self._model_dir}.")
        return path

    def get_variable_names(self) -> list[str]:
        """The names of the variables in the newest checkpoint, sorted.

        Raises:
          ValueError: ``model_dir`` has no checkpoint.
        """
        return [name for name, _ in list_variables(self._checkpoint())]

    def get_variable_value(self, name: str) -> np.ndarray:
        """The value of variable ``name`` in the newest checkpoint (a NumPy array).

        Raises:
          ValueError: ``model_dir`` has no checkpoint.
          NotFoundError: no variable ``name`` in it.
        """
        return load_checkpoint(self._checkpoint()).get_tensor(name)

    def eval_dir(self, name: str | None = None) -> str:
        """The directory of the evaluation event files: ``model_dir/eval[_name]``."""
        return os.path.join(self._model_dir, "eval" if not name else "eval_" + name)

    # -- graph building --------------------------------------------------------------------------------

    def _call_input_fn(self, input_fn: Callable[..., Any], mode: str) -> Any:
        args = _fn_args(input_fn)
        kwargs: dict[str, Any] = {}
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self.params
        if "config" in args:
            kwargs["config"] = self.config
        return input_fn(**kwargs)

    def _features_and_labels(self, input_fn: Callable[..., Any], mode: str) -> tuple[Any, Any, list[SessionRunHook]]:
        result = self._call_input_fn(input_fn, mode)
        hooks: list[SessionRunHook] = []
        if isinstance(result, Dataset):
            iterator = result.make_initializable_iterator()
            hooks.append(_DatasetInitializerHook(iterator))
            result = iterator.get_next()
        if isinstance(result, list | tuple):
            if len(result) != 2:
                raise ValueError("input_fn should return (features, labels) as a len 2 tuple.")
            return result[0], result[1], hooks
        return result, None, hooks

    def _call_model_fn(self, features: Any, labels: Any, mode: str, config: RunConfig) -> EstimatorSpec:
        args = _fn_args(self._model_fn)
        kwargs: dict[str, Any] = {}
        if "labels" in args:
            kwargs["labels"] = labels
        elif labels is not None:
            raise ValueError("model_fn does not take labels, but input_fn returns labels.")
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self.params
        if "config" in args:
            kwargs["config"] = config
        tf_logging.info("Calling model_fn.")
        spec = self._model_fn(features=features, **kwargs)
        tf_logging.info("Done calling model_fn.")
        if not isinstance(spec, EstimatorSpec):
            raise ValueError("model_fn should return an EstimatorSpec.")
        return spec

    def _new_graph(self) -> Graph:
        return Graph()

    def _begin_graph(self) -> None:
        set_random_seed(self._config.tf_random_seed)
        create_global_step(get_default_graph())

    def _maybe_warm_start(self, checkpoint_path: str | None) -> None:
        ws = self._warm_start
        if checkpoint_path or ws is None:
            return
        tf_logging.info("Warm-starting with WarmStartSettings: %s", ws)
        warm_start(*ws)  # as TF's Estimator: warm_starting_util.warm_start(*settings)

    def _scaffold_with_saver(self, scaffold: Scaffold) -> Scaffold:
        if scaffold.saver is None and not get_default_graph().get_collection(GraphKeys.SAVERS):
            cfg = self._config
            saver = Saver(sharded=True, max_to_keep=cfg.keep_checkpoint_max,
                          keep_checkpoint_every_n_hours=cfg.keep_checkpoint_every_n_hours,
                          save_relative_paths=True)
            get_default_graph().add_to_collection(GraphKeys.SAVERS, saver)
            scaffold.saver = saver
        return scaffold

    # -- train -----------------------------------------------------------------------------------------

    def train(self, input_fn: Callable[..., Any], hooks: Sequence[SessionRunHook] | None = None,
              steps: int | None = None, max_steps: int | None = None,
              saving_listeners: Sequence[Any] | None = None) -> Estimator:
        """Trains until the input ends, ``steps`` more steps, or global step ``max_steps``,
        as ``tf.estimator.Estimator.train``.

        Restores the newest checkpoint of ``model_dir`` (else initializes), saves
        checkpoints per the :class:`RunConfig` and at the end, writes the ``loss``
        summary every ``save_summary_steps`` steps, logs ``loss = ..., step = ...``
        every ``log_step_count_steps`` steps and ``Loss for final step: ...``.

        Args:
          input_fn: ``input_fn([mode, params, config])`` returning ``(features,
            labels)``, ``features``, or a ``Dataset`` of either.
          hooks: extra ``SessionRunHook`` s.
          steps / max_steps: at most one; both positive.
          saving_listeners: ``CheckpointSaverListener`` s called around each checkpoint save.

        Returns:
          ``self``.

        Raises:
          ValueError: both ``steps`` and ``max_steps``, or one not positive; an
            invalid ``model_fn`` result.
          TypeError: a hook that is not a ``SessionRunHook``, a listener that is not
            a ``CheckpointSaverListener``.
          NanLossDuringTrainingError: the loss became NaN.
        """
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        if max_steps is not None and max_steps <= _load_global_step_from_checkpoint_dir(self._model_dir):
            tf_logging.info("Skipping training since max_steps has already saved.")
            return self
        all_hooks = _check_hooks_type(hooks)
        if steps is not None or max_steps is not None:
            all_hooks.append(StopAtStepHook(num_steps=steps, last_step=max_steps))
        listeners = list(saving_listeners or [])
        for listener in listeners:
            if not isinstance(listener, CheckpointSaverListener):
                raise TypeError(f"saving_listeners must be a list of CheckpointSaverListener, given: {listener}")
        loss = self._train_model(input_fn, all_hooks, listeners)
        tf_logging.info("Loss for final step: %s.", loss)
        return self

    def _train_model(self, input_fn: Callable[..., Any], hooks: list[SessionRunHook],
                     saving_listeners: list[Any]) -> Any:
        cfg = self._config
        with self._new_graph().as_default():
            self._begin_graph()
            features, labels, input_hooks = self._features_and_labels(input_fn, ModeKeys.TRAIN)
            spec = self._call_model_fn(features, labels, ModeKeys.TRAIN, cfg)
            global_step = get_global_step()
            self._maybe_warm_start(self.latest_checkpoint())
            scalar_summary("loss", spec.loss)
            worker_hooks: list[SessionRunHook] = [*input_hooks, *hooks, NanTensorHook(spec.loss)]
            if cfg.log_step_count_steps:
                worker_hooks.append(LoggingTensorHook({"loss": spec.loss, "step": global_step},
                                                      every_n_iter=cfg.log_step_count_steps))
            worker_hooks.extend(spec.training_hooks)
            scaffold = self._scaffold_with_saver(spec.scaffold)
            chief_hooks: list[SessionRunHook] = list(spec.training_chief_hooks)
            if cfg.log_step_count_steps:
                chief_hooks.append(StepCounterHook(every_n_steps=cfg.log_step_count_steps,
                                                   output_dir=self._model_dir))
            if cfg.save_summary_steps:
                chief_hooks.append(SummarySaverHook(save_steps=cfg.save_summary_steps,
                                                    output_dir=self._model_dir, scaffold=scaffold))
            if cfg.save_checkpoints_steps or cfg.save_checkpoints_secs:
                tf_logging.info("Create CheckpointSaverHook.")
                chief_hooks.append(CheckpointSaverHook(
                    self._model_dir, save_secs=cfg.save_checkpoints_secs, save_steps=cfg.save_checkpoints_steps,
                    scaffold=scaffold, listeners=saving_listeners,
                    save_graph_def=cfg.checkpoint_save_graph_def))
            creator = ChiefSessionCreator(scaffold, config=cfg.session_config, checkpoint_dir=self._model_dir)
            loss = None
            with MonitoredSession(creator, worker_hooks + chief_hooks) as sess:
                while not sess.should_stop():
                    _, loss = sess.run([spec.train_op, spec.loss])
            if loss is None:
                tf_logging.warning("Training with estimator made no steps. Perhaps input is empty or misspecified.")
            return loss

    # -- evaluate --------------------------------------------------------------------------------------

    def evaluate(self, input_fn: Callable[..., Any], steps: int | None = None,
                 hooks: Sequence[SessionRunHook] | None = None, checkpoint_path: str | None = None,
                 name: str | None = None) -> dict[str, Any]:
        """Evaluates the model until the input ends or for ``steps`` batches, as
        ``tf.estimator.Estimator.evaluate``.

        Restores ``checkpoint_path`` (default: the newest in ``model_dir``; with
        none, initializes the variables), runs the ``eval_metric_ops`` update ops
        on every batch, and writes the results to ``eval_dir(name)``'s event file.

        Returns:
          ``{metric name: value, 'loss': mean of the batch losses (float32),
          'global_step': the checkpoint's global step (int64)}``.

        Raises:
          ValueError: ``steps`` not positive; a metric named ``loss`` or ``global_step``.
          TypeError: a hook that is not a ``SessionRunHook``.
        """
        all_hooks = _check_hooks_type(hooks)
        if steps is not None:
            if steps <= 0:
                raise ValueError(f"Must specify steps > 0, given: {steps}")
            all_hooks.append(_StopAfterNEvalsHook(steps))
        if not checkpoint_path:
            checkpoint_path = self.latest_checkpoint()
            if not checkpoint_path:
                tf_logging.info(f"Could not find trained model in model_dir: {self._model_dir}, running "
                                "initialization to evaluate.")
        with self._new_graph().as_default():
            self._begin_graph()
            features, labels, input_hooks = self._features_and_labels(input_fn, ModeKeys.EVAL)
            spec = self._call_model_fn(features, labels, ModeKeys.EVAL, self._config)
            global_step = get_global_step()
            self._maybe_warm_start(checkpoint_path)
            metrics = dict(spec.eval_metric_ops)
            if "loss" in metrics:
                raise ValueError('Metric with name "loss" is not allowed, because Estimator already defines a '
                                 "default metric with the same name.")
            if GraphKeys.GLOBAL_STEP in metrics:
                raise ValueError("Metric with name `global_step` is not allowed, because Estimator already defines "
                                 "a default metric with the same name.")
            value_ops = {key: value for key, (value, _) in metrics.items()}
            value_ops[GraphKeys.GLOBAL_STEP] = global_step
            eval_hook = _EvalHook([update for _, update in metrics.values()], spec.loss, value_ops)
            scaffold = self._scaffold_with_saver(spec.scaffold)
            creator = ChiefSessionCreator(scaffold, config=self._config.session_config,
                                          checkpoint_filename_with_path=checkpoint_path)
            start = time.time()
            tf_logging.info("Starting evaluation at " + time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime()))
            with MonitoredSession(creator, [*input_hooks, *all_hooks, *spec.evaluation_hooks, eval_hook]) as sess:
                while not sess.should_stop():
                    sess.run([])
            tf_logging.info("Inference Time : %.5fs", time.time() - start)
            tf_logging.info("Finished evaluation at " + time.strftime("%Y-%m-%d-%H:%M:%S", time.localtime()))
        results = eval_hook.final_values or {}
        step = int(results.get(GraphKeys.GLOBAL_STEP, 0))
        _write_dict_to_summary(self.eval_dir(name), results, step)
        if checkpoint_path:
            tf_logging.info("Saving 'checkpoint_path' summary for global step %d: %s", step, checkpoint_path)
        return results

    # -- predict ---------------------------------------------------------------------------------------

    def predict(self, input_fn: Callable[..., Any], predict_keys: Sequence[str] | None = None,
                hooks: Sequence[SessionRunHook] | None = None, checkpoint_path: str | None = None,
                yield_single_examples: bool = True) -> Iterator[Any]:
        """Yields predictions, one example at a time, as ``tf.estimator.Estimator.predict``.

        Restores ``checkpoint_path`` (default: the newest in ``model_dir``; with
        none, initializes the variables) and runs ``predictions`` batch by batch
        until the input ends (labels the input gives are dropped).

        Yields:
          For dict predictions, ``{key: value[i]}`` per example (only
          ``predict_keys`` when given); for a single tensor, its rows; with
          ``yield_single_examples=False``, whole batches.

        Raises:
          ValueError: ``predict_keys`` with non-dict predictions or naming none of
            them; predictions whose batch lengths differ.
        """
        all_hooks = _check_hooks_type(hooks)
        if not checkpoint_path:
            checkpoint_path = self.latest_checkpoint()
        if not checkpoint_path:
            tf_logging.info(f"Could not find trained model in model_dir: {self._model_dir}, running "
                            "initialization to predict.")
        with self._new_graph().as_default():
            self._begin_graph()
            features, _, input_hooks = self._features_and_labels(input_fn, ModeKeys.PREDICT)
            spec = self._call_model_fn(features, None, ModeKeys.PREDICT, self._config)
            self._maybe_warm_start(checkpoint_path)
            predictions = self._extract_keys(spec.predictions, predict_keys)
            scaffold = self._scaffold_with_saver(spec.scaffold)
            creator = ChiefSessionCreator(scaffold, config=self._config.session_config,
                                          checkpoint_filename_with_path=checkpoint_path)
            with MonitoredSession(creator, [*input_hooks, *all_hooks, *spec.prediction_hooks]) as sess:
                while not sess.should_stop():
                    values = sess.run(predictions)
                    if not yield_single_examples:
                        yield values
                    elif not isinstance(predictions, dict):
                        yield from values
                    else:
                        for i in range(self._batch_length(values)):
                            yield {key: value[i] for key, value in values.items()}

    # -- export ----------------------------------------------------------------------------------------

    def export_saved_model(self, export_dir_base: str | os.PathLike[str],
                           serving_input_receiver_fn: Callable[[], Any], assets_extra: Any = None,
                           as_text: bool = False, checkpoint_path: str | None = None,
                           experimental_mode: str = ModeKeys.PREDICT) -> bytes:
        """Writes the PREDICT graph and the newest checkpoint's variables as a
        SavedModel in ``export_dir_base/<timestamp>``, as
        ``tf.estimator.Estimator.export_saved_model``.

        The ``model_fn`` gets the receiver's ``features`` (no labels); its
        ``export_outputs`` (default: a ``PredictOutput`` of ``predictions``)
        become the signatures, ``serving_default`` among them, with the
        receiver tensors as inputs; the tag is ``serve``; the local variables'
        initializer is the main op.

        Returns:
          The export directory's path, as ``bytes``.

        Raises:
          ValueError: no checkpoint to export, a mode other than PREDICT, or a
            ``serving_input_receiver_fn`` of None.
        """
        if serving_input_receiver_fn is None:
            raise ValueError("An input_receiver_fn must be defined.")
        if experimental_mode != ModeKeys.PREDICT:
            raise ValueError("jaxsess exports the PREDICT graph only (experimental_mode=ModeKeys.PREDICT).")
        if not checkpoint_path:
            checkpoint_path = self.latest_checkpoint()
        if not checkpoint_path:
            raise ValueError(f"Couldn't find trained model at {self._model_dir}.")
        export_dir = os.path.join(os.fspath(export_dir_base), str(int(time.time())))
        while os.path.exists(export_dir):  # TF waits for the next second
            time.sleep(0.05)
            export_dir = os.path.join(os.fspath(export_dir_base), str(int(time.time())))
        with self._new_graph().as_default():
            self._begin_graph()
            receiver = serving_input_receiver_fn()
            spec = self._call_model_fn(receiver.features, None, ModeKeys.PREDICT, self._config)
            outputs = export_outputs_for_predict(spec.export_outputs, spec.predictions)
            signatures = build_all_signature_defs(receiver.receiver_tensors, outputs)
            scaffold = self._scaffold_with_saver(spec.scaffold)
            creator = ChiefSessionCreator(scaffold, config=self._config.session_config,
                                          checkpoint_filename_with_path=checkpoint_path)
            with creator.create_session() as sess:
                builder = SavedModelBuilder(export_dir)
                builder.add_meta_graph_and_variables(sess, [tag_constants.SERVING], signatures,
                                                     main_op=scaffold.local_init_op, saver=scaffold.saver)
                builder.save(as_text)
        tf_logging.info("SavedModel written to: %s", export_dir)
        return os.fsencode(export_dir)

    def export_savedmodel(self, export_dir_base: str | os.PathLike[str], serving_input_receiver_fn: Callable[[], Any],
                          assets_extra: Any = None, as_text: bool = False, checkpoint_path: str | None = None,
                          strip_default_attrs: bool = False) -> bytes:
        """:meth:`export_saved_model` under its TF1 name, as
        ``tf.compat.v1.estimator.Estimator.export_savedmodel``."""
        return self.export_saved_model(export_dir_base, serving_input_receiver_fn, assets_extra, as_text,
                                       checkpoint_path)

    @staticmethod
    def _batch_length(values: Mapping[str, Any]) -> int:
        length = None
        for key, value in values.items():
            length = length or value.shape[0]
            if value.shape[0] != length:
                raise ValueError(f"Batch length of predictions should be same. {key} has different batch length "
                                 "than others.")
        return length or 0

    @staticmethod
    def _extract_keys(predictions: Any, predict_keys: Sequence[str] | None) -> Any:
        if not predict_keys:
            return predictions
        if not isinstance(predictions, dict):
            raise ValueError("predict_keys argument is not valid in case of non-dict predictions.")
        chosen = {key: value for key, value in predictions.items() if key in predict_keys}
        if not chosen:
            raise ValueError(f"Expected to run at least one output from {predictions.keys()}, "
                             f"provided {predict_keys}.")
        return chosen
