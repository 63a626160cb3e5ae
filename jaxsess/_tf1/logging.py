"""``tf.logging``: TF1's logging functions, forwarding to Python's :mod:`logging`.

Messages go to the ``'tensorflow'`` logger (as TF's ``tf.get_logger()``),
which writes ``LEVEL:tensorflow:message`` lines to stderr and starts at
``WARN`` verbosity, as TF1: call ``set_verbosity(INFO)`` to see ``info``.
"""

from __future__ import annotations

import logging as _logging
import sys
from typing import Any

__all__ = [
    "DEBUG", "INFO", "WARN", "ERROR", "FATAL", "get_logger", "set_verbosity", "get_verbosity", "debug", "info",
    "warn", "warning", "error", "fatal", "log", "vlog", "log_if", "log_every_n", "log_first_n", "flush",
]

DEBUG = _logging.DEBUG
INFO = _logging.INFO
WARN = _logging.WARN
ERROR = _logging.ERROR
FATAL = _logging.FATAL

_LOGGER_NAME = "tensorflow"


class _StderrHandler(_logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to the current ``sys.stderr`` (which tests and notebooks replace)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property  # type: ignore[override]
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def get_logger() -> _logging.Logger:
    """The ``'tensorflow'`` logger (given a stderr handler and WARN level on first use)."""
    logger = _logging.getLogger(_LOGGER_NAME)
    if not getattr(logger, "_jaxsess_configured", False):
        logger._jaxsess_configured = True  # type: ignore[attr-defined]
        if logger.level == _logging.NOTSET:
            logger.setLevel(WARN)
        if not any(isinstance(h, _StderrHandler) for h in logger.handlers):
            handler = _StderrHandler()
            handler.setFormatter(_logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
            logger.addHandler(handler)
            logger.propagate = False
    return logger


def set_verbosity(v: int) -> None:
    """Sets the threshold level (``DEBUG``, ``INFO``, ``WARN``, ``ERROR``, ``FATAL``)."""
    get_logger().setLevel(v)


def get_verbosity() -> int:
    """The threshold level."""
    return get_logger().getEffectiveLevel()


def log(level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
    """Logs ``msg % args`` at ``level``."""
    get_logger().log(level, msg, *args, **kwargs)


def debug(msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().debug(msg, *args, **kwargs)


def info(msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().info(msg, *args, **kwargs)


def warning(msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().warning(msg, *args, **kwargs)


warn = warning


def error(msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().error(msg, *args, **kwargs)


def fatal(msg: Any, *args: Any, **kwargs: Any) -> None:
    get_logger().fatal(msg, *args, **kwargs)


def vlog(level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
    """Logs at ``level`` (as TF1's ``vlog``)."""
    get_logger().log(level, msg, *args, **kwargs)


def log_if(level: int, msg: Any, condition: bool, *args: Any) -> None:
    """Logs only if ``condition``."""
    if condition:
        get_logger().log(level, msg, *args)


_counts: dict[Any, int] = {}


def _caller_key() -> Any:
    f = sys._getframe(2)
    return (f.f_code.co_filename, f.f_lineno)


def log_every_n(level: int, msg: Any, n: int, *args: Any) -> None:
    """Logs on the 1st, (n+1)th, (2n+1)th... call from the same line."""
    key = _caller_key()
    count = _counts.get(key, 0)
    _counts[key] = count + 1
    if count % max(int(n), 1) == 0:
        get_logger().log(level, msg, *args)


def log_first_n(level: int, msg: Any, n: int, *args: Any) -> None:
    """Logs only the first ``n`` calls from the same line."""
    key = _caller_key()
    count = _counts.get(key, 0)
    _counts[key] = count + 1
    if count < n:
        get_logger().log(level, msg, *args)


def flush() -> None:
    """Flushes the handlers."""
    for h in get_logger().handlers:
        h.flush()
