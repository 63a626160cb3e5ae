"""Deferring signal handlers across the few lines that must not be split.

A ``Session.run`` that donates its variables' buffers to XLA must install
the new buffers the call returns: a ``KeyboardInterrupt`` (Ctrl-C) raised
between the two would leave the session with deleted buffers and lose the
model. CPython runs Python-level signal handlers in the main thread between
bytecodes, so such a handler can raise at any of those points.
:func:`defer` swaps the Python handlers of the usual asynchronous signals
(``SIGINT``, ``SIGTERM``, ``SIGHUP``, ``SIGALRM``, ``SIGUSR1``, ``SIGUSR2``:
those that have one) for a recorder; :func:`deliver` puts them back and
calls each original handler for the signals that arrived meanwhile, so a
Ctrl-C raises ``KeyboardInterrupt`` right after the state is installed.

Only the main thread is affected (signal handlers only run there); handlers
that are ``SIG_DFL``/``SIG_IGN`` are left alone. Cost: about 1 µs per
deferred section in the main thread (one handler swap and back).
"""

from __future__ import annotations

import _signal  # the C module behind ``signal``: its functions skip the enum conversions (~10 µs)
import threading
from typing import Any

__all__ = ["defer", "deliver"]

_SIGNALS = tuple(
    getattr(_signal, name)
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGALRM", "SIGUSR1", "SIGUSR2")
    if hasattr(_signal, name)
)
_get_ident = threading.get_ident
_main_thread = threading.main_thread  # looked up per call: a forked child has a new main thread
_getsignal = _signal.getsignal
_setsignal = _signal.signal


class _Held:
    """The handler installed while a section is deferred: records signals."""

    __slots__ = ("saved", "pending")

    def __init__(self) -> None:
        self.saved: list[tuple[int, Any]] = []  # (signal number, original handler)
        self.pending: list[tuple[int, Any]] = []  # (signal number, frame)

    def __call__(self, signum: int, frame: Any) -> None:
        self.pending.append((signum, frame))


def defer() -> _Held | None:
    """Starts deferring the Python signal handlers of this (main) thread.

    Returns:
      A token for :func:`deliver` (``None``: nothing was deferred — not the
      main thread, no Python handler, or already inside a deferred section).
    """
    if _get_ident() != _main_thread().ident:
        return None
    held = None
    try:
        for sig in _SIGNALS:
            h = _getsignal(sig)
            if callable(h) and type(h) is not _Held:
                if held is None:
                    held = _Held()
                held.saved.append((sig, h))
                _setsignal(sig, held)
    except BaseException:  # a handler raised before its signal was deferred
        deliver(held)
        raise
    return held


def deliver(held: _Held | None) -> None:
    """Restores the handlers :func:`defer` replaced, then runs each original
    handler for the signals that arrived meanwhile (in arrival order); a
    handler that raises (``KeyboardInterrupt``) raises from here."""
    if held is None:
        return
    for sig, h in held.saved:
        _setsignal(sig, h)
    handlers = dict(held.saved)
    for signum, frame in held.pending:
        handlers[signum](signum, frame)
