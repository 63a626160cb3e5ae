"""A text progress bar, as ``tf.keras.utils.Progbar`` (Keras 2): ``update(current, values)``
redraws ``12/100 [==>.......] - ETA: 3s - loss: 0.4321`` on stdout."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["Progbar"]


def _format_time(seconds: float, unit: str) -> str:
    """`` 12ms/step`` (seconds, milliseconds or microseconds), as Keras."""
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f" {seconds * 1e3:.0f}ms/{unit}"
    return f" {seconds * 1e6:.0f}us/{unit}"


def _format_value(avg: float) -> str:
    return f" {avg:.4f}" if abs(avg) > 1e-3 else f" {avg:.4e}"


class Progbar:
    """Displays a progress bar, as ``tf.keras.utils.Progbar``.

    Args:
      target: the total number of steps, or None (unknown: ``12/Unknown``).
      width: the bar's width in characters (30).
      verbose: 0 silent, 1 a bar redrawn on each update (at most every ``interval`` seconds),
        2 one line when the target is reached.
      interval: the least time between redraws, in seconds (0.05).
      stateful_metrics: names whose values are shown as given; the others are averaged over the
        steps seen (weighted by the steps of each update).
      unit_name: the name of a step in the time per step (``'step'``).
    """

    def __init__(self, target: int | None, width: int = 30, verbose: int = 1, interval: float = 0.05,
                 stateful_metrics: Iterable[str] | None = None, unit_name: str = "step") -> None:
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateful_metrics = set(stateful_metrics or ())
        self._dynamic_display = ((hasattr(sys.stdout, "isatty") and sys.stdout.isatty()) or "ipykernel" in sys.modules
                                 or "posix" in sys.modules or "PYCHARM_HOSTED" in os.environ)
        self._total_width = 0
        self._seen_so_far = 0
        self._values: dict[str, list[Any]] = {}
        self._values_order: list[str] = []
        self._start = time.time()
        self._last_update = 0.0
        self._time_at_epoch_start = self._start
        self._time_at_epoch_end: float | None = None
        self._time_after_first_step: float | None = None

    def update(self, current: int, values: Iterable[tuple[str, Any]] | None = None,
               finalize: bool | None = None) -> None:
        """Records step ``current`` (an index counted from 1) and ``(name, value)`` pairs, and redraws.

        Args:
          current: the number of steps done.
          values: ``(name, value of the last step)`` pairs.
          finalize: whether this is the last update (default: ``current >= target``).
        """
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for k, v in values or []:
            if k not in self._values_order:
                self._values_order.append(k)
            if k in self.stateful_metrics:
                self._values[k] = [v, 1]
            else:
                base = max(current - self._seen_so_far, 1)
                if k not in self._values:
                    self._values[k] = [v * base, base]
                else:
                    self._values[k][0] += v * base
                    self._values[k][1] += base
        self._seen_so_far = current
        now = time.time()
        info = f" - {now - self._start:.0f}s"
        if current == self.target:
            self._time_at_epoch_end = now
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            previous = self._total_width
            message = "\b" * previous + "\r" if self._dynamic_display else "\n"
            if self.target is not None:
                digits = int(np.log10(self.target)) + 1
                bar = f"{current:{digits}d}/{self.target} ["
                done = int(self.width * current / self.target)
                if done > 0:
                    bar += "=" * (done - 1) + (">" if current < self.target else "=")
                bar += "." * (self.width - done) + "]"
            else:
                bar = f"{current:7d}/Unknown"
            self._total_width = len(bar)
            message += bar
            per_step = self._step_duration(current, now)
            if self.target is None or finalize:
                info += _format_time(per_step, self.unit_name)
            else:
                eta = per_step * (self.target - current)
                if eta > 3600:
                    info = f" - ETA: {int(eta // 3600)}:{int(eta % 3600 // 60):02d}:{int(eta % 60):02d}"
                elif eta > 60:
                    info = f" - ETA: {int(eta // 60)}:{int(eta % 60):02d}"
                else:
                    info = f" - ETA: {int(eta)}s"
            for k in self._values_order:
                info += f" - {k}:" + _format_value(float(np.mean(self._values[k][0] / max(1, self._values[k][1]))))
            self._total_width += len(info)
            if previous > self._total_width:
                info += " " * (previous - self._total_width)
            if finalize:
                info += "\n"
            sys.stdout.write(message + info)
            sys.stdout.flush()
        elif self.verbose == 2 and finalize:
            target = self.target if self.target is not None else current
            digits = int(np.log10(max(target, 1))) + 1
            info = f"{current:{digits}d}/{target}" + info
            for k in self._values_order:
                info += f" - {k}:" + _format_value(float(np.mean(self._values[k][0] / max(1, self._values[k][1]))))
            if self._time_at_epoch_end:
                per_epoch = self._time_at_epoch_end - self._time_at_epoch_start
                self._time_at_epoch_start = now
                self._time_at_epoch_end = None
                info += " -" + _format_time(per_epoch, "epoch") + " -" + _format_time(per_epoch / target,
                                                                                      self.unit_name)
            sys.stdout.write(info + "\n")
            sys.stdout.flush()
        self._last_update = now

    def add(self, n: int, values: Iterable[tuple[str, Any]] | None = None) -> None:
        """``update(seen + n, values)``."""
        self.update(self._seen_so_far + n, values)

    def _step_duration(self, current: int, now: float) -> float:
        """Seconds per step, leaving out the (compiling) first step once there are more, as Keras."""
        if not current:
            return 0.0
        if self._time_after_first_step is not None and current > 1:
            per_step = (now - self._time_after_first_step) / (current - 1)
        else:
            per_step = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per_step
