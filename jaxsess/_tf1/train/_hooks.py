"""Session-run hooks, as ``tf.compat.v1.train.SessionRunHook`` and the common
hooks: ``StopAtStepHook``, ``CheckpointSaverHook``, ``LoggingTensorHook``,
``NanTensorHook``, ``StepCounterHook``, ``SummarySaverHook``, ``FinalOpsHook``, ``FeedFnHook``."""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any, NamedTuple

import numpy as np

from jaxsess._core import _tfproto as _tfproto, errors as errors
from jaxsess._core.graph._graph import GraphKeys, Tensor, get_default_graph
from jaxsess._core.graph._graph_def import write_graph
from jaxsess._tf1 import logging as tf_logging
from jaxsess._tf1.summary._writer import FileWriterCache
from jaxsess._tf1.train._global_step import get_global_step
from jaxsess._tf1.train._saver import Saver

__all__ = [
    "SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues", "SecondOrStepTimer",
    "StopAtStepHook", "CheckpointSaverHook", "LoggingTensorHook", "NanTensorHook", "NanLossDuringTrainingError",
    "StepCounterHook", "SummarySaverHook", "CheckpointSaverListener", "FinalOpsHook", "FeedFnHook",
    "GlobalStepWaiterHook",
]


class SessionRunArgs(NamedTuple):
    """What a hook adds to a ``run``: extra ``fetches`` and ``feed_dict`` entries."""

    fetches: Any
    feed_dict: Any = None
    options: Any = None


class SessionRunValues(NamedTuple):
    """The hook's fetched values after a ``run`` (``results`` has the structure
    of its ``SessionRunArgs.fetches``)."""

    results: Any
    options: Any = None
    run_metadata: Any = None


class SessionRunContext:
    """The ``run`` in progress, as seen by hooks: ``original_args``, ``session``
    (the raw session) and :meth:`request_stop`."""

    def __init__(self, original_args: SessionRunArgs, session: Any) -> None:
        self._original_args = original_args
        self._session = session
        self._stop_requested = False

    @property
    def original_args(self) -> SessionRunArgs:
        return self._original_args

    @property
    def session(self) -> Any:
        return self._session

    @property
    def stop_requested(self) -> bool:
        return self._stop_requested

    def request_stop(self) -> None:
        """Makes the monitored session's ``should_stop()`` true after this run."""
        self._stop_requested = True


class SessionRunHook:
    """The base hook, as ``tf.compat.v1.train.SessionRunHook``: every method does nothing."""

    def begin(self) -> None:
        """Called once before the session exists; the graph may still change."""

    def after_create_session(self, session: Any, coord: Any) -> None:
        """Called once the session is created and initialized (or restored)."""

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs | None:
        """Called before each ``run``; may return extra fetches/feeds."""
        return None

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        """Called after each successful ``run`` with the hook's fetched values."""

    def end(self, session: Any) -> None:
        """Called when the monitored session closes normally."""


class SecondOrStepTimer:
    """Triggers every ``every_secs`` seconds or every ``every_steps`` steps (one of them)."""

    def __init__(self, every_secs: float | None = None, every_steps: int | None = None) -> None:
        if every_secs is None and every_steps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if every_secs is not None and every_steps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")
        self._every_secs = every_secs
        self._every_steps = every_steps
        self._last_time: float | None = None
        self._last_step: int | None = None

    def should_trigger_for_step(self, step: int) -> bool:
        if self._last_step is None:
            return True
        if self._last_step == step:
            return False
        if self._every_secs is not None:
            return time.time() >= (self._last_time or 0.0) + self._every_secs
        return step >= self._last_step + (self._every_steps or 0)

    def update_last_triggered_step(self, step: int) -> tuple[float | None, int | None]:
        now = time.time()
        elapsed = None if self._last_time is None else now - self._last_time
        steps = None if self._last_step is None else step - self._last_step
        self._last_time, self._last_step = now, step
        return elapsed, steps

    def last_triggered_step(self) -> int | None:
        return self._last_step


def _global_step_tensor(hook: str) -> Any:
    gs = get_global_step()
    if gs is None:
        raise RuntimeError(f"Global step should be created to use {hook}.")
    return gs


class StopAtStepHook(SessionRunHook):
    """Requests a stop when the global step reaches ``last_step`` (or
    ``num_steps`` past its value at session creation), as ``tf.train.StopAtStepHook``.

    Raises:
      ValueError: both or neither of ``num_steps`` and ``last_step`` (TF's messages).
    """

    def __init__(self, num_steps: int | None = None, last_step: int | None = None) -> None:
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        if num_steps is not None and num_steps < 0:
            raise ValueError("num_steps must be non-negative.")
        self._num_steps = num_steps
        self._last_step = last_step
        self._gs: Any = None

    def begin(self) -> None:
        self._gs = _global_step_tensor("StopAtStepHook")

    def after_create_session(self, session: Any, coord: Any) -> None:
        if self._last_step is None:
            self._last_step = int(np.asarray(session.run(self._gs))) + int(self._num_steps or 0)

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        return SessionRunArgs(self._gs)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        step = int(np.asarray(run_values.results)) + 1
        if self._last_step is not None and step >= self._last_step:
            step = int(np.asarray(run_context.session.run(self._gs)))
            if step >= self._last_step:
                run_context.request_stop()


class CheckpointSaverListener:
    """Callbacks around the checkpoint saves of a :class:`CheckpointSaverHook`, as
    ``tf.compat.v1.train.CheckpointSaverListener``; ``after_save`` returning ``True``
    stops training."""

    def begin(self) -> None:
        pass

    def before_save(self, session: Any, global_step_value: int) -> None:
        pass

    def after_save(self, session: Any, global_step_value: int) -> bool | None:
        pass

    def end(self, session: Any, global_step_value: int) -> None:
        pass


class CheckpointSaverHook(SessionRunHook):
    """Saves checkpoints every ``save_secs`` seconds or ``save_steps`` steps, after
    session creation and at the end, with a :class:`~jaxsess.train.Saver`, as
    ``tf.train.CheckpointSaverHook`` (files ``checkpoint_dir/model.ckpt-<step>``;
    the graph and a ``SessionLog`` per checkpoint go to ``checkpoint_dir``'s event file).

    Raises:
      ValueError: both or neither of ``save_secs`` and ``save_steps``.
    """

    def __init__(self, checkpoint_dir: str, save_secs: float | None = None, save_steps: int | None = None,
                 saver: Any = None, checkpoint_basename: str = "model.ckpt", scaffold: Any = None,
                 listeners: Any = None, save_graph_def: bool = True) -> None:
        self._dir = checkpoint_dir
        self._path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._saver = saver
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = list(listeners or [])
        self._save_graph_def = save_graph_def
        self._summary_writer: Any = None
        self._gs: Any = None

    def begin(self) -> None:
        self._summary_writer = FileWriterCache.get(self._dir)  # as TF1: the graph and checkpoint events
        self._gs = _global_step_tensor("CheckpointSaverHook")
        if self._saver is None and self._scaffold is not None:
            self._saver = self._scaffold.saver
        for listener in self._listeners:
            listener.begin()

    def _get_saver(self) -> Any:
        if self._saver is None:
            savers = get_default_graph().get_collection(GraphKeys.SAVERS)
            self._saver = savers[0] if savers else Saver()
        return self._saver

    def after_create_session(self, session: Any, coord: Any) -> None:
        step = int(np.asarray(session.run(self._gs)))
        os.makedirs(self._dir, exist_ok=True)
        if self._save_graph_def:
            try:
                write_graph(get_default_graph(), self._dir, "graph.pbtxt")
            except ValueError as e:  # host-only nodes (tf.data iterators, Print) have no GraphDef form
                tf_logging.warning("CheckpointSaverHook: no graph.pbtxt written: %s", e)
            with contextlib.suppress(ValueError):
                self._summary_writer.add_graph(get_default_graph())
        self._save(session, step)
        self._timer.update_last_triggered_step(step)

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        return SessionRunArgs(self._gs)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        stale = int(np.asarray(run_values.results))
        if self._timer.should_trigger_for_step(stale + 1):
            step = int(np.asarray(run_context.session.run(self._gs)))
            if self._timer.should_trigger_for_step(step):
                self._timer.update_last_triggered_step(step)
                if self._save(run_context.session, step):
                    run_context.request_stop()

    def end(self, session: Any) -> None:
        step = int(np.asarray(session.run(self._gs)))
        if step != self._timer.last_triggered_step():
            self._save(session, step)
        for listener in self._listeners:
            listener.end(session, step)

    def _save(self, session: Any, step: int) -> bool:
        tf_logging.info("Saving checkpoints for %d into %s.", step, self._path)
        stop = False
        for listener in self._listeners:
            listener.before_save(session, step)
        self._get_saver().save(session, self._path, global_step=step)
        self._summary_writer.add_session_log(
            _tfproto.SessionLog(status=_tfproto.SessionLog.CHECKPOINT, checkpoint_path=self._path), step)
        for listener in self._listeners:
            if listener.after_save(session, step):
                stop = True
        return stop


def _as_graph_element(obj: Any) -> Any:
    """A tensor of the default graph from a tensor or a name (``'op'`` means
    ``'op:0'``), as TF1's ``basic_session_run_hooks._as_graph_element``.

    Raises:
      ValueError: a tensor of another graph, or an op name with several outputs.
    """
    graph = get_default_graph()
    if not isinstance(obj, str):
        if getattr(obj, "graph", None) is not graph:
            raise ValueError(f"Passed {obj} should have graph attribute that is equal to current graph {graph}.")
        return obj
    if ":" in obj:
        return graph.as_graph_element(obj)
    element = graph.as_graph_element(obj + ":0")
    try:
        graph.as_graph_element(obj + ":1")
    except (KeyError, ValueError):
        return element
    raise ValueError(f"Name {obj} is ambiguous, as this `Operation` has multiple outputs (at least 2).")


class LoggingTensorHook(SessionRunHook):
    """Logs tensors' values (``tf.logging.info``) every ``every_n_iter`` runs or
    ``every_n_secs`` seconds, as ``tf.train.LoggingTensorHook``.

    Args:
      tensors: a dict ``{tag: tensor or name}`` or a list of tensors/names.
      formatter: ``fn(dict tag -> value) -> str`` (default ``tag = value, ...``).
    """

    def __init__(self, tensors: Any, every_n_iter: int | None = None, every_n_secs: float | None = None,
                 at_end: bool = False, formatter: Any = None) -> None:
        if not at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.")
        if not isinstance(tensors, dict):
            tensors = {(t.name if isinstance(t, Tensor) else str(t)): t for t in tensors}
        self._tags = list(tensors)
        self._tensors = tensors
        self._timer = SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter) \
            if (every_n_iter or every_n_secs) else None
        self._at_end = at_end
        self._formatter = formatter
        self._iter = 0
        self._current: dict[str, Any] = {}
        self._should_trigger = False

    def begin(self) -> None:
        self._iter = 0
        self._current = {tag: _as_graph_element(t) for tag, t in self._tensors.items()}

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs | None:
        self._should_trigger = self._timer is not None and self._timer.should_trigger_for_step(self._iter)
        return SessionRunArgs(self._current) if self._should_trigger else None

    def _log(self, values: dict[str, Any]) -> None:
        if self._formatter is not None:
            tf_logging.info(self._formatter(values))
        else:
            tf_logging.info(", ".join(f"{tag} = {values[tag]!s}" for tag in self._tags))

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        if self._should_trigger and self._timer is not None:
            self._timer.update_last_triggered_step(self._iter)
            self._log(run_values.results)
        self._iter += 1

    def end(self, session: Any) -> None:
        if self._at_end:
            self._log(session.run(self._current))


class NanLossDuringTrainingError(RuntimeError):
    def __str__(self) -> str:
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Stops (or raises ``NanLossDuringTrainingError``) when ``loss_tensor`` is NaN,
    as ``tf.train.NanTensorHook``."""

    def __init__(self, loss_tensor: Any, fail_on_nan_loss: bool = True) -> None:
        self._loss = loss_tensor
        self._fail = fail_on_nan_loss

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        return SessionRunArgs(self._loss)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        if np.isnan(np.asarray(run_values.results)).any():
            if self._fail:
                raise NanLossDuringTrainingError
            tf_logging.warning("Model diverged with loss = NaN.")
            run_context.request_stop()


class StepCounterHook(SessionRunHook):
    """Logs ``<global step name>/sec`` (``global_step/sec``) every
    ``every_n_steps`` steps or ``every_n_secs`` seconds, and writes it as a
    summary to ``output_dir`` (or ``summary_writer``) at the global step, as
    ``tf.compat.v1.train.StepCounterHook``.

    Raises:
      ValueError: both or neither of ``every_n_steps`` and ``every_n_secs``.
      RuntimeError: from ``begin``, the graph has no global step.
    """

    def __init__(self, every_n_steps: int | None = 100, every_n_secs: float | None = None, output_dir: Any = None,
                 summary_writer: Any = None) -> None:
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._output_dir = output_dir
        self._summary_writer = summary_writer
        self._gs: Any = None
        self._summary_tag = "global_step/sec"

    def begin(self) -> None:
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = FileWriterCache.get(self._output_dir)
        self._gs = _global_step_tensor("StepCounterHook")
        self._summary_tag = self._gs.op.name + "/sec"

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        return SessionRunArgs(self._gs)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        stale = int(np.asarray(run_values.results))
        if self._timer.should_trigger_for_step(stale + 1):
            step = int(np.asarray(run_context.session.run(self._gs)))  # the value after the train op
            if self._timer.should_trigger_for_step(step):
                elapsed, steps = self._timer.update_last_triggered_step(step)
                if elapsed is not None and steps:
                    rate = steps / elapsed if elapsed > 0 else float("inf")
                    if self._summary_writer is not None:
                        value = _tfproto.Summary.Value(tag=self._summary_tag, simple_value=rate)
                        self._summary_writer.add_summary(_tfproto.Summary(value=[value]), step)
                    tf_logging.info("%s: %g", self._summary_tag, rate)


class SummarySaverHook(SessionRunHook):
    """Runs the summary op every ``save_steps`` steps or ``save_secs`` seconds and
    writes its result to ``output_dir``'s event file at the global step, as
    ``tf.compat.v1.train.SummarySaverHook`` (the op, or list of ops, is
    ``summary_op``, else the ``scaffold``'s, made when the session is created;
    the writer is ``FileWriterCache.get(output_dir)``).

    Raises:
      ValueError: both or neither of ``save_secs`` and ``save_steps``, of
        ``scaffold`` and ``summary_op``; neither ``output_dir`` nor ``summary_writer``.
    """

    def __init__(self, save_steps: int | None = None, save_secs: float | None = None,
                 output_dir: str | None = None, summary_writer: Any = None, scaffold: Any = None,
                 summary_op: Any = None) -> None:
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        if output_dir is None and summary_writer is None:
            raise ValueError("SummarySaverHook needs output_dir or summary_writer.")
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._dir = output_dir
        self._writer = summary_writer
        self._op = summary_op
        self._scaffold = scaffold
        self._gs: Any = None
        self._next_step: int | None = None
        self._request = False

    def begin(self) -> None:
        if self._writer is None and self._dir is not None:
            self._writer = FileWriterCache.get(self._dir)
        self._gs = _global_step_tensor("SummarySaverHook")
        self._next_step = None

    def _summary_op(self) -> Any:
        """``summary_op``, else the scaffold's (set when the session is created)."""
        if self._op is not None:
            return self._op
        return getattr(self._scaffold, "summary_op", None)

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        op = self._summary_op()
        self._request = self._next_step is None or self._timer.should_trigger_for_step(self._next_step)
        fetches: dict[str, Any] = {"global_step": self._gs}
        if self._request and op is not None:
            fetches["summary"] = op if isinstance(op, list) else [op]
        return SessionRunArgs(fetches)

    def after_run(self, run_context: SessionRunContext, run_values: SessionRunValues) -> None:
        step = int(np.asarray(run_values.results["global_step"])) + 1
        if self._next_step is None or self._request:
            step = int(np.asarray(run_context.session.run(self._gs)))
        if self._request:
            self._timer.update_last_triggered_step(step)
            for summary in run_values.results.get("summary", []):
                self._writer.add_summary(summary, step)
        self._next_step = step + 1

    def end(self, session: Any) -> None:
        if self._writer is not None:
            self._writer.flush()


class FinalOpsHook(SessionRunHook):
    """Runs ``final_ops`` when the session ends (after training), as
    ``tf.compat.v1.train.FinalOpsHook``; read them from :attr:`final_ops_values`.

    Args:
      final_ops: a tensor, a list of tensors or a dict ``{name: tensor}``.
      final_ops_feed_dict: the feed for that run.

    Raises:
      OutOfRangeError: from ``end`` when the final ops read the exhausted input
        (a warning says so, as TF1).
    """

    def __init__(self, final_ops: Any, final_ops_feed_dict: Any = None) -> None:
        self._final_ops = final_ops
        self._final_ops_feed_dict = final_ops_feed_dict
        self._final_ops_values: Any = None

    @property
    def final_ops_values(self) -> Any:
        """The values of ``final_ops`` (same structure), ``None`` before ``end``."""
        return self._final_ops_values

    def end(self, session: Any) -> None:
        if self._final_ops is None:
            return
        try:
            self._final_ops_values = session.run(self._final_ops, feed_dict=self._final_ops_feed_dict)
        except (errors.OutOfRangeError, StopIteration):
            tf_logging.warning(
                "An OutOfRangeError or StopIteration exception is raised by the code in FinalOpsHook. This "
                "typically means the Ops running by the FinalOpsHook have a dependency back to some input "
                "source, which should not happen.")
            raise


class FeedFnHook(SessionRunHook):
    """Feeds ``feed_fn()`` (a dict ``{tensor: value}``) into every run, as
    ``tf.compat.v1.train.FeedFnHook``."""

    def __init__(self, feed_fn: Any) -> None:
        self.feed_fn = feed_fn

    def before_run(self, run_context: SessionRunContext) -> SessionRunArgs:
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class GlobalStepWaiterHook(SessionRunHook):
    """Holds the first ``run`` until the global step reaches ``wait_until_step``
    (polling every 0.5 s), as ``tf.compat.v1.train.GlobalStepWaiterHook``. In
    one process only another thread can advance the step, so a step not yet
    reached waits for it.

    Raises:
      RuntimeError: from ``begin``, the graph has no global step.
    """

    def __init__(self, wait_until_step: int) -> None:
        self._wait_until_step = wait_until_step
        self._started = False
        self._gs: Any = None

    def begin(self) -> None:
        self._started = False
        self._gs = _global_step_tensor("_GlobalStepWaiterHook")

    def before_run(self, run_context: SessionRunContext) -> None:
        if self._started:
            return
        if self._wait_until_step <= 0:
            self._started = True
            return
        tf_logging.info("Waiting for global step %d before starting training.", self._wait_until_step)
        last_logged = 0
        while True:
            step = int(np.asarray(run_context.session.run(self._gs)))
            if step >= self._wait_until_step:
                self._started = True
                return
            if step - last_logged > 1000:
                tf_logging.info("Waiting for global step %d before starting training. Current step is %d.",
                                self._wait_until_step, step)
                last_logged = step
            time.sleep(0.5)
