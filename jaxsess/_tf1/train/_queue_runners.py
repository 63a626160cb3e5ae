"""Threads that fill queues, as ``tf.compat.v1.train.QueueRunner`` and
``start_queue_runners`` (TF's ``tensorflow/python/training/queue_runner_impl.py``)."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from typing import Any

from jaxsess._core import _context as _context, errors as errors
from jaxsess._core.graph._graph import GraphKeys, Operation, get_default_graph
from jaxsess._tf1 import logging as tf_logging
from jaxsess._tf1.ops.data_flow_ops import QueueBase

__all__ = ["QueueRunner", "add_queue_runner", "start_queue_runners"]


def _closed(sess: Any) -> bool:
    return bool(getattr(sess, "closed", False))


class QueueRunner:
    """Runs ``enqueue_ops`` in threads until the input ends, as ``tf.compat.v1.train.QueueRunner``.

    Each thread loops ``sess.run(enqueue_op)``. An exception of
    ``queue_closed_exception_types`` (default ``OutOfRangeError``,
    ``CancelledError``: the input ran out of epochs, or the queue closed)
    ends that thread; when the last thread of a session ends, the queue is
    closed (``close_op``), so consumers drain it and then get
    ``OutOfRangeError``. Any other exception is reported to the coordinator
    (``coord.request_stop(e)``), or logged and re-raised in the thread.

    Args:
      queue: the :class:`~jaxsess._tf1.ops.data_flow_ops.QueueBase` filled.
      enqueue_ops: one thread per op.
      close_op, cancel_op: default ``queue.close()`` and
        ``queue.close(cancel_pending_enqueues=True)`` (run when the coordinator stops).
    """

    def __init__(self, queue: QueueBase | None = None, enqueue_ops: Sequence[Operation] | None = None,
                 close_op: Operation | None = None, cancel_op: Operation | None = None,
                 queue_closed_exception_types: tuple[type[BaseException], ...] | None = None,
                 queue_runner_def: Any = None, import_scope: str | None = None) -> None:
        if queue_runner_def is not None:
            raise NotImplementedError("QueueRunner(queue_runner_def=...): jaxsess builds queue runners from "
                                      "queues, not from QueueRunnerDef protos.")
        if queue is None or not enqueue_ops:
            raise ValueError("Either queue_runner_def or both queue and enqueue_ops must be specified.")
        self._queue = queue
        self._enqueue_ops = list(enqueue_ops)
        self._close_op = close_op if close_op is not None else queue.close()
        self._cancel_op = cancel_op if cancel_op is not None else queue.close(cancel_pending_enqueues=True)
        self._queue_closed_exception_types = tuple(queue_closed_exception_types or
                                                   (errors.OutOfRangeError, errors.CancelledError))
        self._lock = threading.Lock()
        self._runs_per_session: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
        self._exceptions_raised: list[BaseException] = []

    @property
    def queue(self) -> QueueBase:
        return self._queue

    @property
    def enqueue_ops(self) -> list[Operation]:
        return list(self._enqueue_ops)

    @property
    def close_op(self) -> Operation:
        return self._close_op

    @property
    def cancel_op(self) -> Operation:
        return self._cancel_op

    @property
    def queue_closed_exception_types(self) -> tuple[type[BaseException], ...]:
        return self._queue_closed_exception_types

    @property
    def exceptions_raised(self) -> list[BaseException]:
        """Exceptions raised in threads started without a coordinator."""
        return list(self._exceptions_raised)

    @property
    def name(self) -> str:
        """The queue's name."""
        return self._queue.name

    def _run(self, sess: Any, enqueue_op: Operation, coord: Any) -> None:
        decremented = False
        try:
            while True:
                if coord is not None and coord.should_stop():
                    break
                try:
                    sess.run(enqueue_op)
                except self._queue_closed_exception_types:
                    with self._lock:
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        if self._runs_per_session[sess] == 0 and not _closed(sess):
                            try:
                                sess.run(self._close_op)
                            except Exception as e:  # noqa: BLE001 - as TF: ignored
                                tf_logging.debug("Ignored exception: %s", e)
                    return
        except Exception as e:
            if _closed(sess):  # TF cancels the enqueue of a closed session: the thread ends quietly
                return
            if coord is not None:
                coord.request_stop(e)
            else:
                tf_logging.error("Exception in QueueRunner: %s", e)
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _close_on_stop(self, sess: Any, coord: Any) -> None:
        coord.wait_for_stop()
        try:
            sess.run(self._cancel_op)
        except Exception as e:  # noqa: BLE001 - as TF: ignored
            tf_logging.debug("Ignored exception: %s", e)

    def create_threads(self, sess: Any, coord: Any = None, daemon: bool = False,
                       start: bool = False) -> list[threading.Thread]:
        """Threads running the enqueue ops in ``sess`` (and, with ``coord``, one
        that cancels the queue when a stop is requested), as ``QueueRunner.create_threads``.

        Returns ``[]`` when this runner's threads still run in ``sess``.
        """
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord), daemon=daemon,
                                    name=f"QueueRunnerThread-{self.name}-{op.name}")
                   for op in self._enqueue_ops]
        if coord is not None:
            threads.append(threading.Thread(target=self._close_on_stop, args=(sess, coord), daemon=daemon,
                                            name=f"QueueRunnerThread-{self.name}-close_on_stop"))
        for t in threads:
            if coord is not None:
                coord.register_thread(t)
            if start:
                t.start()
        return threads


def add_queue_runner(qr: QueueRunner, collection: str = GraphKeys.QUEUE_RUNNERS) -> None:
    """Adds ``qr`` to the default graph's ``collection``, as ``tf.compat.v1.train.add_queue_runner``."""
    get_default_graph().add_to_collection(collection, qr)


def start_queue_runners(sess: Any = None, coord: Any = None, daemon: bool = True, start: bool = True,
                        collection: str = GraphKeys.QUEUE_RUNNERS) -> list[threading.Thread]:
    """Starts the threads of every queue runner in the graph's ``collection``,
    as ``tf.compat.v1.train.start_queue_runners``.

    Args:
      sess: the session (default: the default session).
      coord: a :class:`~jaxsess.train.Coordinator` the threads report to.

    Returns:
      The threads (started unless ``start=False``).

    Raises:
      ValueError: no session given and no default session.
      TypeError: ``sess`` is not a session.
    """
    if sess is None:
        stack = _context.session_stack()
        sess = stack[-1] if stack else None
        if sess is None:
            raise ValueError("Cannot start queue runners: No default session is registered. Use `with "
                             "sess.as_default()` or pass an explicit session to tf.start_queue_runners(sess=sess)")
    if not hasattr(sess, "run") or not hasattr(sess, "graph"):
        raise TypeError(f"sess must be a `tf.Session` object. Given class: {type(sess)}")
    with sess.graph.as_default():
        threads: list[threading.Thread] = []
        for qr in sess.graph.get_collection(collection):
            threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads
