"""A compile that takes long says so on stderr: what is compiling, then how long it took.

A session starts a notice when JAX traces one of its plans (a compile, or a load from
the persistent compilation cache, follows in the same thread). If the compile is still
running ``after_s`` seconds later (``ConfigProto.compile_notice_after_s``, 5 s by
default), a timer thread prints ``jaxsess: compiling <what> ...`` once; when XLA finishes
(JAX's ``/jax/core/compile/backend_compile_duration`` event, or the cache's
``/jax/compilation_cache/cache_retrieval_time_sec``), ``jaxsess: compiled <what> in 12.3 s``
follows. Compiles shorter than ``after_s`` print nothing. Off with
``ConfigProto(compile_notice_after_s=None)`` or ``JAXSESS_COMPILE_NOTICE=0`` (the test
suite sets it).

The end of a compile is learnt from ``jax.monitoring``'s duration events, whose listener
API is probed once: where it is missing, no notice starts (nothing could say when the
compile ended).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any

import jax

__all__ = ["CompileNotice", "enabled_after_s", "finish", "start"]

_DONE_EVENTS = frozenset({"/jax/core/compile/backend_compile_duration",
                          "/jax/compilation_cache/cache_retrieval_time_sec"})
_local = threading.local()  # .notice: the pending notice of this thread's compile
_listen_lock = threading.Lock()
_listening: bool | None = None  # None: not probed yet


def _write(line: str) -> None:
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):  # a closed stderr: the notice is only a courtesy
        pass


class CompileNotice:
    """One compile's notice: a timer that says ``compiling <what>`` after ``after_s``
    seconds, and :meth:`finish`, which says how long it took if the timer spoke."""

    def __init__(self, what: str, after_s: float) -> None:
        self.what = what
        self._t0 = time.perf_counter()
        self._lock = threading.Lock()
        self._said = False
        self._done = False
        self._timer = threading.Timer(after_s, self._say)
        self._timer.daemon = True
        self._timer.start()

    def _say(self) -> None:
        with self._lock:
            if self._done:
                return
            self._said = True
        _write(f"jaxsess: compiling {self.what} (XLA; later runs reuse the program) ...")

    def finish(self) -> float:
        """Stops the timer; if it spoke, says how long the compile took. Returns the seconds."""
        self._timer.cancel()
        seconds = time.perf_counter() - self._t0
        with self._lock:
            if self._done:
                return seconds
            self._done = True
            said = self._said
        if said:
            _write(f"jaxsess: compiled {self.what} in {seconds:.1f} s")
        return seconds


def _on_duration(event: str, duration: float, **kwargs: Any) -> None:
    if event in _DONE_EVENTS:
        finish()


def _listen() -> bool:
    """Registers the duration listener once; ``False`` where jax has no such API."""
    global _listening
    if _listening is None:
        with _listen_lock:
            if _listening is None:
                register = getattr(getattr(jax, "monitoring", None), "register_event_duration_secs_listener", None)
                if register is not None:
                    register(_on_duration)
                _listening = register is not None
    return bool(_listening)


def enabled_after_s(config_after_s: float | None) -> float | None:
    """The seconds after which a compile is announced, or ``None`` (off): the config's
    value unless ``JAXSESS_COMPILE_NOTICE`` is ``0``/``false``/``off``."""
    if os.environ.get("JAXSESS_COMPILE_NOTICE", "").strip().lower() in ("0", "false", "off"):
        return None
    if config_after_s is None or config_after_s <= 0:
        return None
    return float(config_after_s)


def start(what: str, after_s: float) -> None:
    """Starts the notice of a compile this thread is beginning (ends one left pending)."""
    if not _listen():
        return
    finish()
    _local.notice = CompileNotice(what, after_s)


def finish() -> None:
    """Ends this thread's pending notice, if any (the compile ended, or will not happen)."""
    notice = getattr(_local, "notice", None)
    if notice is not None:
        _local.notice = None
        notice.finish()
