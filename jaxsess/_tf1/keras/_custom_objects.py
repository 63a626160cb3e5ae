"""The global table of user classes and functions by name, as tf_keras'
``get_custom_objects``/``custom_object_scope`` (read by the ``get``/``deserialize``
functions and model loading)."""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["CustomObjectScope", "custom_object_scope", "get_custom_objects"]

_GLOBAL: dict[str, Any] = {}
_LOCAL = threading.local()


def get_custom_objects() -> dict[str, Any]:
    """The global name -> object dict (mutable: ``get_custom_objects()['MyLayer'] = MyLayer``), as
    ``tf.keras.utils.get_custom_objects``."""
    return _GLOBAL


def active_custom_objects() -> dict[str, Any]:
    """The global objects updated by the open :class:`CustomObjectScope` s (innermost last)."""
    out = dict(_GLOBAL)
    for scope in getattr(_LOCAL, "stack", []):
        out.update(scope)
    return out


class CustomObjectScope:
    """Makes ``{name: object}`` dicts visible to deserialization inside a ``with`` block, as
    ``tf.keras.utils.CustomObjectScope`` (tf_keras' scopes add to a thread-local table; the global
    one is not changed).

    Args:
      *args: dicts of name -> class or function (``None`` entries are skipped).
    """

    def __init__(self, *args: dict[str, Any] | None) -> None:
        self.custom_objects: dict[str, Any] = {}
        for a in args:
            self.custom_objects.update(a or {})

    def __enter__(self) -> CustomObjectScope:
        if not hasattr(_LOCAL, "stack"):
            _LOCAL.stack = []
        _LOCAL.stack.append(self.custom_objects)
        return self

    def __exit__(self, *exc: Any) -> None:
        _LOCAL.stack.pop()


custom_object_scope = CustomObjectScope
