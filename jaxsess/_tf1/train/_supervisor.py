"""``tf.compat.v1.train.SessionManager`` and ``tf.compat.v1.train.Supervisor``:
the pre-``MonitoredSession`` way of creating, restoring and serving a training
session.

``SessionManager.prepare_session`` restores the latest checkpoint (or the
given file), else runs the init op and init function, then the local init op,
and checks the ready op. A ``Supervisor`` builds those ops (and a ``Saver``,
the summary op, the global step) from the graph's collections, finalizes the
graph, and ``managed_session()`` gives a session with its services running in
threads: a checkpoint every ``save_model_secs`` seconds, the summary op and
``global_step/sec`` every ``save_summaries_secs`` seconds, to ``logdir`` (each
service also runs once at the start, as TF1). Only the chief is supported:
a jaxsess session owns its variables, so no other process can initialize them.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from jaxsess._core import _tfproto as _tfproto, errors as errors
from jaxsess._core.graph._builder import group
from jaxsess._core.graph._graph import Graph, GraphKeys, get_default_graph
from jaxsess._core.graph._graph_def import write_graph
from jaxsess._core.runtime._graph_session import Session
from jaxsess._tf1 import logging as tf_logging
from jaxsess._tf1.ops import state_ops as state_ops
from jaxsess._tf1.ops.variable_checks import report_uninitialized_variables, tables_initializer
from jaxsess._tf1.summary._ops import merge_all
from jaxsess._tf1.summary._writer import FileWriter
from jaxsess._tf1.train._coordinator import Coordinator, LooperThread
from jaxsess._tf1.train._global_step import global_step as _global_step_value
from jaxsess._tf1.train._queue_runners import start_queue_runners
from jaxsess._tf1.train._saver import Saver, get_checkpoint_state

__all__ = ["SessionManager", "Supervisor", "basic_train_loop"]


class SessionManager:
    """Creates sessions restored from a checkpoint or initialized, as
    ``tf.compat.v1.train.SessionManager``.

    Args:
      local_init_op: run after restoring or initializing.
      ready_op: a string tensor of the names of uninitialized variables
        (``report_uninitialized_variables()``); empty means ready. ``None``: no check.
      ready_for_local_init_op: accepted; not checked.
      graph: the graph (default: the default graph).
      recovery_wait_secs: seconds between looks for a checkpoint when waiting for one.
    """

    def __init__(self, local_init_op: Any = None, ready_op: Any = None, ready_for_local_init_op: Any = None,
                 graph: Graph | None = None, recovery_wait_secs: float = 30, local_init_run_options: Any = None,
                 local_init_feed_dict: Any = None) -> None:
        self._local_init_op = local_init_op
        self._ready_op = ready_op
        self._graph = graph if graph is not None else get_default_graph()
        self._recovery_wait_secs = recovery_wait_secs
        self._local_init_feed_dict = local_init_feed_dict

    def _restore_checkpoint(self, master: str, saver: Any, checkpoint_dir: str | None,
                            checkpoint_filename_with_path: str | None, wait_for_checkpoint: bool,
                            max_wait_secs: float, config: Any) -> tuple[Session, bool]:
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and checkpoint_filename_with_path.")
        sess = Session(master, graph=self._graph, config=config)
        try:
            return sess, self._restore(sess, saver, checkpoint_dir, checkpoint_filename_with_path,
                                       wait_for_checkpoint, max_wait_secs)
        except BaseException:
            sess.close()
            raise

    def _restore(self, sess: Session, saver: Any, checkpoint_dir: str | None,
                 checkpoint_filename_with_path: str | None, wait_for_checkpoint: bool, max_wait_secs: float) -> bool:
        if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
            return False
        if checkpoint_filename_with_path:
            saver.restore(sess, checkpoint_filename_with_path)
            return True
        assert checkpoint_dir is not None
        waited = 0.0
        state = get_checkpoint_state(checkpoint_dir)
        while state is None or not state.model_checkpoint_path:
            if wait_for_checkpoint and waited < max_wait_secs:
                tf_logging.info("Waiting for checkpoint to be available.")
                time.sleep(self._recovery_wait_secs)
                waited += self._recovery_wait_secs
                state = get_checkpoint_state(checkpoint_dir)
            else:
                return False
        saver.restore(sess, state.model_checkpoint_path)
        saver.recover_last_checkpoints(list(state.all_model_checkpoint_paths))
        return True

    def prepare_session(self, master: str = "", init_op: Any = None, saver: Any = None,
                        checkpoint_dir: str | None = None, wait_for_checkpoint: bool = False,
                        max_wait_secs: float = 7200, config: Any = None, init_feed_dict: Any = None,
                        init_fn: Any = None, checkpoint_filename_with_path: str | None = None) -> Session:
        """A session restored from ``checkpoint_filename_with_path`` or the
        latest checkpoint of ``checkpoint_dir`` (with ``saver``), else one where
        ``init_op`` (fed ``init_feed_dict``) and ``init_fn(sess)`` ran; then the
        local init op runs and the ready op is checked.

        Raises:
          ValueError: both ``checkpoint_dir`` and ``checkpoint_filename_with_path``.
          RuntimeError: nothing to initialize a model not restored, or the
            model is not ready afterwards.
        """
        sess, restored = self._restore_checkpoint(master, saver, checkpoint_dir, checkpoint_filename_with_path,
                                                  wait_for_checkpoint, max_wait_secs, config)
        try:
            self._initialize(sess, restored, init_op, init_feed_dict, init_fn)
        except BaseException:
            sess.close()  # unlike TF1, a failed preparation does not leak its session
            raise
        return sess

    def _initialize(self, sess: Session, restored: bool, init_op: Any, init_feed_dict: Any, init_fn: Any) -> None:
        if not restored:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or local_init_op was given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(sess)
        if self._local_init_op is not None:
            sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict)
        not_ready = self._not_ready(sess)
        if not_ready:
            raise RuntimeError(
                f"Init operations did not make model ready.  Init op: {getattr(init_op, 'name', None)}, "
                f"init fn: {init_fn}, local_init_op: {getattr(self._local_init_op, 'name', None)}, "
                f"error: Variables not initialized: {', '.join(not_ready)}")

    def _not_ready(self, sess: Session) -> list[str]:
        if self._ready_op is None:
            return []
        names = np.asarray(sess.run(self._ready_op)).ravel()
        return [n.decode() if isinstance(n, bytes) else str(n) for n in names]


class _SummaryThread(LooperThread):
    def __init__(self, sv: Supervisor, sess: Session) -> None:
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv = sv
        self._sess = sess

    def run_loop(self) -> None:
        if self._sv.global_step is not None:
            summary, step = self._sess.run([self._sv.summary_op, self._sv.global_step])
        else:
            summary, step = self._sess.run(self._sv.summary_op), None
        if self._sv.summary_writer:
            tf_logging.info("Recording summary at step %s.", step)
            self._sv.summary_writer.add_summary(summary, step)


class _StepCounterThread(LooperThread):
    def __init__(self, sv: Supervisor, sess: Session) -> None:
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv = sv
        self._sess = sess
        self._last_time = 0.0
        self._last_step = 0
        self._tag = f"{sv.global_step.op.name}/sec"

    def start_loop(self) -> None:
        self._last_time = time.time()
        self._last_step = _global_step_value(self._sess, self._sv.global_step)

    def run_loop(self) -> None:
        step = _global_step_value(self._sess, self._sv.global_step)
        added, self._last_step = step - self._last_step, step
        now = time.time()
        elapsed, self._last_time = now - self._last_time, now
        rate = added / elapsed if elapsed > 0 else float("inf")
        if self._sv.summary_writer:
            value = _tfproto.Summary.Value(tag=self._tag, simple_value=rate)
            self._sv.summary_writer.add_summary(_tfproto.Summary(value=[value]), step)


class _CheckpointThread(LooperThread):
    def __init__(self, sv: Supervisor, sess: Session) -> None:
        super().__init__(sv.coord, sv.save_model_secs)
        self._sv = sv
        self._sess = sess

    def run_loop(self) -> None:
        tf_logging.info("Saving checkpoint to path %s", self._sv.save_path)
        self._sv.saver.save(self._sess, self._sv.save_path, global_step=self._sv.global_step)


class Supervisor:
    """A training session with checkpoint and summary services, as
    ``tf.compat.v1.train.Supervisor`` (chief only).

    ``USE_DEFAULT`` arguments come from the graph's collections or are made:
    ``init_op`` (``global_variables_initializer``), ``local_init_op``
    (local variables and tables), ``ready_op`` (``report_uninitialized_variables``),
    ``saver`` (a ``Saver`` when there are variables), ``summary_op``
    (``summary.merge_all()``), ``global_step`` (the tensor ``global_step:0``).
    ``None`` turns one off. The graph is finalized at the end of the constructor.

    Args:
      logdir: where checkpoints (``logdir/model.ckpt-<step>``), ``graph.pbtxt``
        and events go; ``None``: no services.
      save_summaries_secs, save_model_secs: service periods in seconds (0 or
        ``None`` turns one off).
      init_fn: ``fn(sess)`` run after ``init_op`` when not restoring.

    Raises:
      NotImplementedError: ``is_chief=False``.
    """

    USE_DEFAULT: Any = 0

    def __init__(self, graph: Graph | None = None, ready_op: Any = USE_DEFAULT, ready_for_local_init_op: Any = USE_DEFAULT,
                 is_chief: bool = True, init_op: Any = USE_DEFAULT, init_feed_dict: Any = None,
                 local_init_op: Any = USE_DEFAULT, logdir: str | None = None, summary_op: Any = USE_DEFAULT,
                 saver: Any = USE_DEFAULT, global_step: Any = USE_DEFAULT, save_summaries_secs: float = 120,
                 save_model_secs: float = 600, recovery_wait_secs: float = 30, stop_grace_secs: float = 120,
                 checkpoint_basename: str = "model.ckpt", session_manager: SessionManager | None = None,
                 summary_writer: Any = USE_DEFAULT, init_fn: Any = None, local_init_run_options: Any = None) -> None:
        if not is_chief:
            raise NotImplementedError("Supervisor: only the chief (is_chief=True) is supported; a jaxsess "
                                      "session owns its variables, so no other process can initialize them.")
        if graph is None:
            graph = get_default_graph()
        default = Supervisor.USE_DEFAULT
        with graph.as_default():
            if ready_op is default:
                ready_op = self._first(graph, GraphKeys.READY_OP)
                if ready_op is None:
                    ready_op = report_uninitialized_variables()
                    graph.add_to_collection(GraphKeys.READY_OP, ready_op)
            if init_op is default:
                init_op = self._first(graph, GraphKeys.INIT_OP)
                if init_op is None:
                    init_op = state_ops.global_variables_initializer()
                    graph.add_to_collection(GraphKeys.INIT_OP, init_op)
            if local_init_op is default:
                local_init_op = self._first(graph, GraphKeys.LOCAL_INIT_OP)
                if local_init_op is None:
                    local_init_op = group(state_ops.local_variables_initializer(), tables_initializer())
                    graph.add_to_collection(GraphKeys.LOCAL_INIT_OP, local_init_op)
            if saver is default:
                saver = self._first(graph, GraphKeys.SAVERS)
                if saver is None and state_ops.global_variables():
                    saver = Saver()
                    graph.add_to_collection(GraphKeys.SAVERS, saver)
            if summary_op is default:
                summary_op = self._first(graph, GraphKeys.SUMMARY_OP)
                if summary_op is None:
                    summary_op = merge_all()
                    if summary_op is not None:
                        graph.add_to_collection(GraphKeys.SUMMARY_OP, summary_op)
            if global_step is default:
                global_step = self._first(graph, GraphKeys.GLOBAL_STEP)
                if global_step is None:
                    global_step = self._default_global_step(graph)
                    if global_step is not None:
                        graph.add_to_collection(GraphKeys.GLOBAL_STEP, global_step)
        self._graph = graph
        self._ready_op = ready_op
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict
        self._local_init_op = local_init_op
        self._saver = saver
        self._summary_op = summary_op
        self._global_step = global_step
        self._is_chief = True
        self._coord = Coordinator()
        self._stop_grace_secs = stop_grace_secs
        self._init_fn = init_fn
        self._logdir = logdir
        self._save_summaries_secs = save_summaries_secs
        self._save_model_secs = save_model_secs
        self._save_path = os.path.join(logdir, checkpoint_basename) if logdir else None
        if summary_writer is default:
            self._summary_writer = FileWriter(logdir) if logdir else None
        else:
            self._summary_writer = summary_writer
        self._graph_added_to_summary = False
        self._session_manager = session_manager or SessionManager(
            local_init_op=local_init_op, ready_op=ready_op, graph=graph, recovery_wait_secs=recovery_wait_secs)
        graph.finalize()

    @staticmethod
    def _first(graph: Graph, key: str) -> Any:
        items = graph.get_collection(key)
        if len(items) > 1:
            tf_logging.info("Found %d %s operations. Returning the first one.", len(items), key)
        return items[0] if items else None

    @staticmethod
    def _default_global_step(graph: Graph) -> Any:
        try:
            gs = graph.get_tensor_by_name("global_step:0")
        except (KeyError, ValueError):
            return None
        if gs.dtype.name in ("int32", "int64"):
            return gs
        tf_logging.warning("Found 'global_step' is not an int type: %s", gs.dtype)
        return None

    # -- properties, as TF1 --------------------------------------------------

    @property
    def is_chief(self) -> bool:
        return self._is_chief

    @property
    def session_manager(self) -> SessionManager:
        return self._session_manager

    @property
    def coord(self) -> Coordinator:
        return self._coord

    @property
    def init_op(self) -> Any:
        return self._init_op

    @property
    def init_feed_dict(self) -> Any:
        return self._init_feed_dict

    @property
    def ready_op(self) -> Any:
        return self._ready_op

    @property
    def summary_writer(self) -> Any:
        return self._summary_writer

    @property
    def summary_op(self) -> Any:
        return self._summary_op

    @property
    def save_summaries_secs(self) -> float:
        return self._save_summaries_secs

    @property
    def global_step(self) -> Any:
        return self._global_step

    @property
    def saver(self) -> Any:
        return self._saver

    @property
    def save_model_secs(self) -> float:
        return self._save_model_secs

    @property
    def save_path(self) -> str | None:
        return self._save_path

    # -- sessions and services -----------------------------------------------

    def _write_graph(self) -> None:
        if self._logdir:
            try:
                write_graph(self._graph, self._logdir, "graph.pbtxt")
            except ValueError as e:  # host-only nodes have no GraphDef form
                tf_logging.warning("Supervisor: no graph.pbtxt written: %s", e)
        if self._summary_writer is not None and not self._graph_added_to_summary:
            with contextlib.suppress(ValueError):
                self._summary_writer.add_graph(self._graph)
            self._graph_added_to_summary = True

    def start_standard_services(self, sess: Session) -> list[Any]:
        """Starts the checkpoint, summary and step-counter threads (each runs
        once at once, then every period); returns them."""
        if not self._logdir:
            tf_logging.warning("Standard services need a 'logdir' passed to the SessionManager")
            return []
        threads: list[Any] = []
        if self._save_summaries_secs and self._summary_writer is not None:
            if self._summary_op is not None:
                threads.append(_SummaryThread(self, sess))
            if self._global_step is not None:
                threads.append(_StepCounterThread(self, sess))
        if self._saver and self._save_model_secs:
            threads.append(_CheckpointThread(self, sess))
        for t in threads:
            t.start()
        return threads

    def prepare_or_wait_for_session(self, master: str = "", config: Any = None, wait_for_checkpoint: bool = False,
                                    max_wait_secs: float = 7200, start_standard_services: bool = True) -> Session:
        """A session restored from ``logdir``'s latest checkpoint or initialized
        (see :meth:`SessionManager.prepare_session`), with the services and the
        queue runners started."""
        self._coord.clear_stop()
        if self._summary_writer is not None:
            self._summary_writer.reopen()
        sess = self._session_manager.prepare_session(
            master, init_op=self._init_op, saver=self._saver, checkpoint_dir=self._logdir,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config,
            init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
        self._write_graph()
        if start_standard_services:
            self.start_standard_services(sess)
            self.start_queue_runners(sess)
        return sess

    def start_queue_runners(self, sess: Session, queue_runners: Any = None) -> list[Any]:
        """Starts the graph's queue runners (or ``queue_runners``) under this supervisor's coordinator."""
        if queue_runners is None:
            return start_queue_runners(sess, self._coord)
        threads: list[Any] = []
        for qr in queue_runners:
            threads.extend(qr.create_threads(sess, coord=self._coord, daemon=True, start=True))
        return threads

    def loop(self, timer_interval_secs: float | None, target: Any, args: Any = None, kwargs: Any = None) -> LooperThread:
        """Starts a :class:`LooperThread` calling ``target`` every ``timer_interval_secs`` seconds."""
        return LooperThread.loop(self._coord, timer_interval_secs, target, args, kwargs)

    def stop(self, threads: Any = None, close_summary_writer: bool = True, ignore_live_threads: bool = False) -> None:
        """Stops the services and joins the threads (re-raising an exception one reported)."""
        self._coord.request_stop()
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            if close_summary_writer and self._summary_writer is not None:
                self._summary_writer.close()
                self._graph_added_to_summary = False

    def request_stop(self, ex: Any = None) -> None:
        self._coord.request_stop(ex=ex)

    def should_stop(self) -> bool:
        return self._coord.should_stop()

    def stop_on_exception(self) -> Any:
        return self._coord.stop_on_exception()

    def wait_for_stop(self) -> None:
        self._coord.wait_for_stop()

    def summary_computed(self, sess: Session, summary: Any, global_step: Any = None) -> None:
        """Writes ``summary`` (a serialized ``Summary``) at ``global_step`` (default: the current step).

        Raises:
          RuntimeError: no summary writer.
        """
        if self._summary_writer is None:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self._global_step is not None:
            global_step = _global_step_value(sess, self._global_step)
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master: str = "", config: Any = None, start_standard_services: bool = True,
                        close_summary_writer: bool = True) -> Iterator[Session]:
        """A session for a ``with`` block, as ``Supervisor.managed_session``: an
        exception in the block stops the supervisor and is re-raised (unless an
        ``OutOfRangeError``, which means the input ended); the services stop
        and the session closes on exit."""
        sess: Session | None = None
        try:
            sess = self.prepare_or_wait_for_session(master=master, config=config,
                                                    start_standard_services=start_standard_services)
            yield sess
        except Exception as e:  # noqa: BLE001 - reported to the coordinator, re-raised by stop(), as TF1
            self.request_stop(e)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                if sess is not None:
                    with contextlib.suppress(Exception):
                        sess.close()

    PrepareSession = prepare_or_wait_for_session
    StartQueueRunners = start_queue_runners
    StartStandardServices = start_standard_services
    Stop = stop
    RequestStop = request_stop
    Loop = loop


def basic_train_loop(supervisor: Supervisor, train_step_fn: Any, args: Any = None, kwargs: Any = None,
                     master: str = "") -> None:
    """Calls ``train_step_fn(sess, *args, **kwargs)`` in ``supervisor.managed_session(master)``
    until the supervisor stops, starting over after an ``AbortedError``, as
    ``tf.compat.v1.train.basic_train_loop``."""
    args = list(args or [])
    kwargs = dict(kwargs or {})
    retry = True
    while retry:
        try:
            retry = False
            with supervisor.managed_session(master) as sess:
                while not supervisor.should_stop():
                    train_step_fn(sess, *args, **kwargs)
        except errors.AbortedError:
            retry = True
