"""Threads that stop together, as ``tf.compat.v1.train.Coordinator``."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

from jaxsess._core import errors as errors

__all__ = ["Coordinator", "LooperThread"]


class Coordinator:
    """A stop flag shared by threads, and a join that reports their errors.

    As ``tf.compat.v1.train.Coordinator``: threads loop ``while not
    coord.should_stop()``; any of them calls :meth:`request_stop` (with the
    exception that made it stop, if any); :meth:`join` waits for the threads
    and re-raises the first reported exception. Exceptions of
    ``clean_stop_exception_types`` (default ``OutOfRangeError``) stop the
    threads without being re-raised.

    Args:
      clean_stop_exception_types: exception types that mean "done".
    """

    def __init__(self, clean_stop_exception_types: Iterable[type[BaseException]] | None = None) -> None:
        self._clean = tuple(clean_stop_exception_types) if clean_stop_exception_types is not None \
            else (errors.OutOfRangeError,)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info: Any = None
        self._registered: set[threading.Thread] = set()
        self._joined = False

    def _filter(self, ex: Any) -> Any:
        exc = ex[1] if isinstance(ex, tuple) else ex
        if isinstance(exc, self._clean):
            return None
        return ex

    def request_stop(self, ex: Any = None) -> None:
        """Asks every thread to stop; records ``ex`` (an exception or
        ``sys.exc_info()`` tuple) if it is the first one reported.

        Raises:
          ValueError: ``ex`` is neither an exception nor an exc_info tuple.
        """
        with self._lock:
            ex = self._filter(ex)
            if self._joined:
                if isinstance(ex, tuple):
                    raise ex[1].with_traceback(ex[2])
                if ex is not None:
                    raise ex
                return
            if ex is not None and self._exc_info is None:
                if isinstance(ex, tuple):
                    if len(ex) != 3 or not isinstance(ex[1], BaseException):
                        raise ValueError(f"ex must be an exception or sys.exc_info(), got {ex!r}.")
                    self._exc_info = ex
                elif isinstance(ex, BaseException):
                    self._exc_info = (type(ex), ex, ex.__traceback__)
                else:
                    raise ValueError(f"ex must be an exception or sys.exc_info(), got {ex!r}.")
            self._stop_event.set()

    def clear_stop(self) -> None:
        """Clears the stop request and the recorded exception (to reuse the coordinator)."""
        with self._lock:
            self._joined = False
            self._exc_info = None
            self._stop_event.clear()

    def should_stop(self) -> bool:
        """Whether a stop was requested."""
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self) -> Iterator[None]:
        """A context in which an exception calls ``request_stop(ex)`` instead of propagating."""
        try:
            yield
        except BaseException:  # noqa: BLE001 - reported to the coordinator, as TF
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout: float | None = None) -> bool:
        """Waits up to ``timeout`` seconds (``None``: forever) for a stop; True if one came."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread: threading.Thread) -> None:
        """Adds ``thread`` to those :meth:`join` waits for."""
        with self._lock:
            self._registered.add(thread)

    def join(self, threads: Iterable[threading.Thread] | None = None, stop_grace_period_secs: float = 120,
             ignore_live_threads: bool = False) -> None:
        """Waits until the threads end, as ``Coordinator.join``.

        Waits for the registered threads and ``threads`` until all end or a
        stop is requested; then gives them ``stop_grace_period_secs``.

        Raises:
          The first exception given to :meth:`request_stop` (not a clean-stop one).
          RuntimeError: threads still alive after the grace period (unless
            ``ignore_live_threads``), naming them.
        """
        with self._lock:
            all_threads = set(self._registered) | set(threads or ())
        while any(t.is_alive() for t in all_threads) and not self.wait_for_stop(0.05):
            pass
        deadline = time.monotonic() + stop_grace_period_secs
        for t in all_threads:
            t.join(max(0.0, deadline - time.monotonic()))
        alive = [t.name for t in all_threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered.clear()
            exc = self._exc_info
        if exc is not None:
            raise exc[1].with_traceback(exc[2])
        if alive and not ignore_live_threads:
            raise RuntimeError(f"Coordinator stopped with threads still running: {' '.join(alive)}")

    @property
    def joined(self) -> bool:
        return self._joined

    def raise_requested_exception(self) -> None:
        """Re-raises the recorded exception, if any."""
        with self._lock:
            exc = self._exc_info
        if exc is not None:
            raise exc[1].with_traceback(exc[2])


class LooperThread(threading.Thread):
    """A daemon thread that calls :meth:`run_loop` (or ``target``) every
    ``timer_interval_secs`` seconds, the first time at once (back to back when
    ``None``), until ``coord`` stops, as ``tf.compat.v1.train.LooperThread``.
    An exception stops ``coord`` with it (re-raised by ``coord.join``).

    Raises:
      ValueError: ``coord`` is not a :class:`Coordinator`; ``args``/``kwargs`` without ``target``.
    """

    def __init__(self, coord: Coordinator, timer_interval_secs: float | None, target: Any = None,
                 args: Any = None, kwargs: Any = None) -> None:
        if not isinstance(coord, Coordinator):
            raise ValueError(f"'coord' argument must be a Coordinator: {coord}")
        super().__init__(daemon=True)
        self._coord = coord
        self._timer_interval_secs = timer_interval_secs
        self._loop_target = target
        if target is None and (args or kwargs):
            raise ValueError("'args' and 'kwargs' argument require that you also pass 'target'")
        self._loop_args = tuple(args or ())
        self._loop_kwargs = dict(kwargs or {})
        coord.register_thread(self)

    @staticmethod
    def loop(coord: Coordinator, timer_interval_secs: float | None, target: Any, args: Any = None,
             kwargs: Any = None) -> LooperThread:
        """Starts a looper calling ``target(*args, **kwargs)``; returns it."""
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args, kwargs=kwargs)
        looper.start()
        return looper

    def run(self) -> None:
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                next_time = time.time()
                while not self._coord.wait_for_stop(max(0.0, next_time - time.time())):
                    next_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self) -> None:
        """Called once when the thread starts."""

    def stop_loop(self) -> None:
        """Called once when the loop ends."""

    def run_loop(self) -> None:
        """One iteration: calls ``target`` (override it in a subclass)."""
        if self._loop_target is not None:
            self._loop_target(*self._loop_args, **self._loop_kwargs)
