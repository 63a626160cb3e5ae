"""One interrupt fired into the main thread by ``SIGALRM``, for the tests that
interrupt runs and saves at random moments (test_interrupts, test_atomic_saves)."""

from __future__ import annotations

import signal
from typing import Any


class Alarm:
    """Fires one interrupt of kind ``kind`` ``delay`` seconds after ``arm``: ``'sigint'`` (Ctrl-C
    through the default handler, which raises ``KeyboardInterrupt``), ``'keyboard'`` (raised
    directly) or anything else (``SystemExit(3)``). A context manager: installs its ``SIGALRM``
    handler on entry, restores the previous one on exit."""

    def __init__(self) -> None:
        self.armed = False
        self.kind = "sigint"
        self.prev: Any = None

    def __enter__(self) -> Alarm:
        self.prev = signal.signal(signal.SIGALRM, self._handler)
        return self

    def __exit__(self, *exc: Any) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.prev)

    def arm(self, delay: float, kind: str) -> None:
        self.kind = kind
        self.armed = True
        signal.setitimer(signal.ITIMER_REAL, delay)

    def disarm(self) -> None:
        self.armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)

    def _handler(self, signum: int, frame: Any) -> None:
        if not self.armed:  # fired after its trial ended
            return
        self.armed = False
        if self.kind == "sigint":
            signal.raise_signal(signal.SIGINT)
        elif self.kind == "keyboard":
            raise KeyboardInterrupt
        else:
            raise SystemExit(3)
