"""Training loops with hooks, as ``tf.compat.v1.train.MonitoredTrainingSession``.

A monitored session creates (or restores from ``checkpoint_dir``) and
initializes a :class:`~jaxsess.Session`, calls the hooks around every
``run`` (:mod:`jaxsess._tf1.train._hooks`), and stops when a hook asks or the
input ends: an ``OutOfRangeError`` raised by ``run`` makes ``should_stop()``
true and is swallowed by the ``with`` block, as TF1. Unlike TF1, the graph
is not finalized.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxsess._core import errors as errors
from jaxsess._core.graph._builder import group
from jaxsess._core.graph._graph import GraphKeys, get_default_graph
from jaxsess._core.runtime._graph_session import Session
from jaxsess._tf1.ops import state_ops as state_ops
from jaxsess._tf1.summary._ops import merge_all
from jaxsess._tf1.train._coordinator import Coordinator
from jaxsess._tf1.train._hooks import (
    CheckpointSaverHook,
    SessionRunArgs,
    SessionRunContext,
    SessionRunHook,
    SessionRunValues,
    StepCounterHook,
    SummarySaverHook,
)
from jaxsess._tf1.train._queue_runners import start_queue_runners
from jaxsess._tf1.train._saver import Saver
from jaxsess._tf1.train._supervisor import SessionManager

__all__ = ["Scaffold", "SessionCreator", "ChiefSessionCreator", "MonitoredSession", "MonitoredTrainingSession",
           "SingularMonitoredSession"]

USE_DEFAULT = object()


class Scaffold:
    """The init op, local init op, summary op and saver of a monitored session, as
    ``tf.compat.v1.train.Scaffold`` (defaults made by :meth:`finalize`;
    ``ready_op`` and ``ready_for_local_init_op`` are kept but not run: one
    process initializes its own session)."""

    def __init__(self, init_op: Any = None, init_feed_dict: Any = None, init_fn: Any = None,
                 ready_op: Any = None, ready_for_local_init_op: Any = None, local_init_op: Any = None,
                 summary_op: Any = None, saver: Any = None, copy_from_scaffold: Any = None) -> None:
        self.init_op = init_op
        self.init_feed_dict = init_feed_dict
        self.init_fn = init_fn
        self.local_init_op = local_init_op
        self.summary_op = summary_op
        self.ready_op = ready_op
        self.ready_for_local_init_op = ready_for_local_init_op
        self.saver = saver

    def finalize(self) -> None:
        """Creates the missing pieces: ``global_variables_initializer``,
        ``local_variables_initializer`` and a ``Saver`` (the first in the
        ``savers`` collection, else a new one)."""
        graph = get_default_graph()
        if self.init_op is None:
            self.init_op = state_ops.global_variables_initializer()
        if self.local_init_op is None:
            self.local_init_op = group(state_ops.local_variables_initializer())
        if self.summary_op is None:  # as TF1: the SUMMARY_OP collection's, else merge_all()
            collected = graph.get_collection(GraphKeys.SUMMARY_OP)
            self.summary_op = collected[0] if collected else merge_all()
            if self.summary_op is not None and not collected:
                graph.add_to_collection(GraphKeys.SUMMARY_OP, self.summary_op)
        if self.saver is None:
            savers = graph.get_collection(GraphKeys.SAVERS)
            if savers:
                self.saver = savers[0]
            elif state_ops.global_variables():
                self.saver = Saver()
                graph.add_to_collection(GraphKeys.SAVERS, self.saver)


class SessionCreator:
    """The interface of session creators, as ``tf.compat.v1.train.SessionCreator``."""

    def create_session(self) -> Session:
        raise NotImplementedError("create_session")


class ChiefSessionCreator(SessionCreator):
    """Creates a session and initializes it: restores the latest checkpoint of
    ``checkpoint_dir`` if there is one, else runs the init op (then the local
    init op), as ``tf.compat.v1.train.ChiefSessionCreator``."""

    def __init__(self, scaffold: Scaffold | None = None, master: str = "", config: Any = None,
                 checkpoint_dir: str | None = None, checkpoint_filename_with_path: str | None = None) -> None:
        self._scaffold = scaffold or Scaffold()
        self._master = master
        self._config = config
        self._dir = checkpoint_dir
        self._path = checkpoint_filename_with_path

    @property
    def scaffold(self) -> Scaffold:
        return self._scaffold

    def create_session(self) -> Session:
        """Finalizes the scaffold and prepares a session with a
        :class:`SessionManager` (restore, else ``init_op`` and ``init_fn``; then
        the local init op)."""
        scaffold = self._scaffold
        scaffold.finalize()
        init_fn = scaffold.init_fn
        manager = SessionManager(local_init_op=scaffold.local_init_op, graph=get_default_graph())
        return manager.prepare_session(
            self._master, init_op=scaffold.init_op, saver=scaffold.saver, checkpoint_dir=self._dir,
            checkpoint_filename_with_path=self._path, config=self._config, init_feed_dict=scaffold.init_feed_dict,
            init_fn=None if init_fn is None else (lambda sess: init_fn(scaffold, sess)))


class MonitoredSession:
    """A session that runs hooks around every ``run``, as
    ``tf.compat.v1.train.MonitoredSession``.

    Use it as a context manager; ``run`` as ``Session.run``; loop
    ``while not sess.should_stop()``. An ``OutOfRangeError`` (or
    ``StopIteration``) leaving the ``with`` block is swallowed and ends
    training normally (the hooks' ``end`` runs).
    """

    def __init__(self, session_creator: Any = None, hooks: Sequence[SessionRunHook] | None = None,
                 stop_grace_period_secs: float = 120) -> None:
        self._hooks = list(hooks or [])
        for h in self._hooks:
            h.begin()
        self._creator = session_creator or ChiefSessionCreator()
        self._coord = Coordinator()
        self._sess: Session | None = self._creator.create_session()
        self._grace = stop_grace_period_secs
        # As TF's _CoordinatedSessionCreator: the graph's queue runners start with the session.
        self._threads = start_queue_runners(self._sess, self._coord) \
            if self._sess.graph.get_collection(GraphKeys.QUEUE_RUNNERS) else []
        for h in self._hooks:
            h.after_create_session(self._sess, self._coord)
        self._stop = False

    @property
    def graph(self) -> Any:
        return self._sess.graph if self._sess is not None else get_default_graph()

    def should_stop(self) -> bool:
        """Whether a hook asked to stop, the input ended, or the session is closed."""
        return self._stop or self._sess is None or self._coord.should_stop()

    def _check(self) -> Session:
        if self._sess is None or self._stop:
            raise RuntimeError("Run called even after should_stop requested.")
        return self._sess

    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None, run_metadata: Any = None) -> Any:
        """Runs ``fetches`` with the hooks' extra fetches and feeds, as ``Session.run``.

        Raises:
          RuntimeError: the session was closed, or a hook asked to stop.
          ValueError: a hook feeds a tensor that is also in ``feed_dict``.
          OutOfRangeError: the input ended (``should_stop()`` becomes true).
        """
        sess = self._check()
        args = SessionRunArgs(fetches, feed_dict, options)
        ctx = SessionRunContext(args, sess)
        extra: dict[int, Any] = {}
        feeds = dict(feed_dict or {})
        for i, h in enumerate(self._hooks):
            a = h.before_run(ctx)
            if a is None:
                continue
            if a.fetches is not None:
                extra[i] = a.fetches
            for k, v in (a.feed_dict or {}).items():
                if k in feeds:
                    raise ValueError(f"Same tensor is fed by a SessionRunHook and user. Conflict(s): {[k]}")
                feeds[k] = v
        try:
            out = sess.run({"caller": fetches, "hooks": extra}, feeds or None, options, run_metadata)
        except errors.OutOfRangeError:
            self._coord.request_stop()
            raise
        for i, h in enumerate(self._hooks):
            h.after_run(ctx, SessionRunValues(out["hooks"].get(i)))
        if ctx.stop_requested:
            self._stop = True
        return out["caller"]

    def run_step_fn(self, step_fn: Any) -> Any:
        """Calls ``step_fn(step_context)``, as ``tf.compat.v1.train.MonitoredSession.run_step_fn``:
        ``step_context.session`` is the raw session (no hooks),
        ``step_context.run_with_hooks(...)`` is this session's :meth:`run`, and
        ``step_context.request_stop()`` raises ``StopIteration``, which ends the
        ``with`` block normally.

        Raises:
          StopIteration: ``step_fn`` called ``request_stop()``.
        """
        return step_fn(_StepContext(self._check(), self.run))

    def close(self) -> None:
        self._close(None)

    def _close(self, exc_type: Any) -> None:
        if self._sess is None:
            return
        try:
            if exc_type is None:
                for h in self._hooks:
                    h.end(self._sess)
        finally:
            self._coord.request_stop()
            try:
                if self._threads:
                    self._coord.join(self._threads, stop_grace_period_secs=self._grace, ignore_live_threads=True)
            finally:
                self._sess.close()
                self._sess = None

    def __enter__(self) -> MonitoredSession:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        if exc_type is not None and issubclass(exc_type, errors.OutOfRangeError | StopIteration):
            exc_type = None
        self._close(exc_type)
        return exc_type is None


class _StepContext:
    """What ``run_step_fn`` gives ``step_fn``, as ``MonitoredSession.StepContext``."""

    def __init__(self, session: Session, run_with_hooks: Any) -> None:
        self._session = session
        self._run_with_hooks = run_with_hooks

    @property
    def session(self) -> Session:
        return self._session

    def run_with_hooks(self, *args: Any, **kwargs: Any) -> Any:
        return self._run_with_hooks(*args, **kwargs)

    def request_stop(self) -> None:
        """Ends the loop: raises ``StopIteration``, as TF1."""
        raise StopIteration("step_fn has requested the iterations to stop.")


class SingularMonitoredSession(MonitoredSession):
    """A :class:`MonitoredSession` with a chief session creator, as
    ``tf.compat.v1.train.SingularMonitoredSession``; ``raw_session()`` gives the session."""

    def __init__(self, hooks: Sequence[SessionRunHook] | None = None, scaffold: Scaffold | None = None,
                 master: str = "", config: Any = None, checkpoint_dir: str | None = None,
                 stop_grace_period_secs: float = 120, checkpoint_filename_with_path: str | None = None) -> None:
        creator = ChiefSessionCreator(scaffold, master, config, checkpoint_dir, checkpoint_filename_with_path)
        super().__init__(creator, hooks, stop_grace_period_secs)

    def raw_session(self) -> Session:
        """The underlying :class:`Session`.

        Raises:
          RuntimeError: the monitored session is closed.
        """
        if self._sess is None:
            raise RuntimeError("Session is already closed.")
        return self._sess


def MonitoredTrainingSession(  # noqa: N802 - TF1 name
    master: str = "", is_chief: bool = True, checkpoint_dir: str | None = None, scaffold: Scaffold | None = None,
    hooks: Sequence[SessionRunHook] | None = None, chief_only_hooks: Sequence[SessionRunHook] | None = None,
    save_checkpoint_secs: Any = USE_DEFAULT, save_summaries_steps: Any = USE_DEFAULT,
    save_summaries_secs: Any = USE_DEFAULT, config: Any = None, stop_grace_period_secs: float = 120,
    log_step_count_steps: int = 100, max_wait_secs: float = 7200, save_checkpoint_steps: Any = USE_DEFAULT,
    summary_dir: str | None = None, save_graph_def: bool = True,
) -> MonitoredSession:
    """A :class:`MonitoredSession` for training, as ``tf.compat.v1.train.MonitoredTrainingSession``.

    The session restores the latest checkpoint of ``checkpoint_dir`` (else
    initializes the variables). With a ``summary_dir`` (default
    ``checkpoint_dir``), a :class:`StepCounterHook` writes ``global_step/sec``
    every ``log_step_count_steps`` steps and a :class:`SummarySaverHook` writes
    the scaffold's summary op (default ``summary.merge_all()``) every
    ``save_summaries_steps`` steps (default 100) or ``save_summaries_secs``
    seconds; with a ``checkpoint_dir``, a :class:`CheckpointSaverHook` saves
    every ``save_checkpoint_steps`` steps or ``save_checkpoint_secs`` seconds
    (default 600). Hooks run in TF's order: ``chief_only_hooks``, those, then
    ``hooks``. ``master`` may be ``''`` or an in-process ``Server.target``.
    ``is_chief=False`` (a worker waiting for a chief in another process) is
    not supported: a jaxsess session owns its variables.

    Raises:
      NotImplementedError: ``is_chief=False``.
    """
    if save_summaries_steps is USE_DEFAULT and save_summaries_secs is USE_DEFAULT:
        save_summaries_steps, save_summaries_secs = 100, None
    elif save_summaries_secs is USE_DEFAULT:
        save_summaries_secs = None
    elif save_summaries_steps is USE_DEFAULT:
        save_summaries_steps = None
    if save_checkpoint_steps is USE_DEFAULT and save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_steps, save_checkpoint_secs = None, 600
    elif save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_secs = None
    elif save_checkpoint_steps is USE_DEFAULT:
        save_checkpoint_steps = None
    scaffold = scaffold or Scaffold()
    if not is_chief:
        raise NotImplementedError("MonitoredTrainingSession: only the chief (is_chief=True) is supported.")
    all_hooks: list[SessionRunHook] = list(chief_only_hooks or [])
    creator = ChiefSessionCreator(scaffold, master, config, checkpoint_dir)
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(StepCounterHook(output_dir=summary_dir, every_n_steps=log_step_count_steps))
        if (save_summaries_steps and save_summaries_steps > 0) or (save_summaries_secs and save_summaries_secs > 0):
            all_hooks.append(SummarySaverHook(scaffold=scaffold, save_steps=save_summaries_steps,
                                              save_secs=save_summaries_secs, output_dir=summary_dir))
    if checkpoint_dir:
        if (save_checkpoint_secs and save_checkpoint_secs > 0) or (save_checkpoint_steps and save_checkpoint_steps > 0):
            all_hooks.append(CheckpointSaverHook(checkpoint_dir, save_secs=save_checkpoint_secs,
                                                 save_steps=save_checkpoint_steps, scaffold=scaffold,
                                                 save_graph_def=save_graph_def))
    all_hooks.extend(hooks or [])
    return MonitoredSession(creator, all_hooks, stop_grace_period_secs)
