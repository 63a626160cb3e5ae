"""Keras configs of layer arguments, as ``tf.keras.utils.serialize_keras_object`` /
``deserialize_keras_object``: activations become their names, initializers and
regularizers and constraints ``{"class_name": ..., "config": {...}}``, tuples lists, Python
functions (``Lambda``) Keras' ``func_dump`` triple (marshalled bytecode, base64),
so that a config is JSON (``model.to_json()``, the ``model_config`` of an HDF5
file) and ``from_config`` rebuilds the object. Configs written by TF's Keras
(``"module"``/``"registered_name"`` keys, ``"L2"``, ``"GlorotUniform"``) read back.
"""

from __future__ import annotations

import base64
import marshal
import threading
import types
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._tf1.keras import (
    _custom_objects as _custom_objects,
    activations as activations,
    constraints as constraints,
    initializers as initializers,
    regularizers as regularizers,
)

__all__ = ["serialize_value", "deserialize_value", "func_dump", "func_load", "in_safe_mode", "scoped_safe_mode", "SafeModeScope",
           "enable_unsafe_deserialization", "UNSAFE_LAMBDA_MESSAGE"]


def func_dump(fn: types.FunctionType) -> tuple[str, Any, Any]:
    """``(code, defaults, closure)`` of a Python function, as Keras' ``generic_utils.func_dump``
    (the code marshalled and base64-encoded, so it only loads in the same Python version)."""
    code = base64.b64encode(marshal.dumps(fn.__code__)).decode("ascii")
    closure = tuple(c.cell_contents for c in fn.__closure__) if fn.__closure__ else None
    return code, fn.__defaults__, closure


# -- safe mode: no code from files unless opted in ------------------------------------------------

#: Keras' message (``tf_keras`` 2.21 ``Lambda.from_config``, recorded by
#: ``tests/tf_oracle/record_safety_goldens.py``), raised as ``ValueError``.
UNSAFE_LAMBDA_MESSAGE = (
    "Requested the deserialization of a Lambda layer with a Python `lambda` inside it. This carries a potential "
    "risk of arbitrary code execution and thus it is disallowed by default. If you trust the source of the saved "
    "model, you can pass `safe_mode=False` to the loading function in order to allow Lambda layer loading."
)

_SAFE_MODE = threading.local()
_unsafe_everywhere = False


def scoped_safe_mode() -> bool | None:
    """The safe mode set around this call: the innermost :class:`SafeModeScope` of this thread,
    else ``False`` after :func:`enable_unsafe_deserialization`, else ``None`` (a loading
    function's own ``safe_mode`` argument decides, as Keras' ``deserialize_keras_object``)."""
    scoped = getattr(_SAFE_MODE, "safe_mode", None)
    if scoped is None and _unsafe_everywhere:
        return False
    return scoped if scoped is None else bool(scoped)


def in_safe_mode() -> bool:
    """Whether deserialising Python bytecode (a ``Lambda`` layer's ``lambda``) is refused here:
    :func:`scoped_safe_mode`, and ``True`` when nothing set it (jaxsess refuses by default
    everywhere; ``tf_keras`` 2.21 only inside its loading functions)."""
    scoped = scoped_safe_mode()
    return True if scoped is None else scoped


class SafeModeScope:
    """``with SafeModeScope(safe_mode):`` sets :func:`in_safe_mode` for this thread, as Keras'
    ``keras.saving.SafeModeScope`` (``load_model(safe_mode=...)`` uses it)."""

    def __init__(self, safe_mode: bool = True) -> None:
        self.safe_mode = bool(safe_mode)
        self._outer: bool | None = None

    def __enter__(self) -> SafeModeScope:
        self._outer = getattr(_SAFE_MODE, "safe_mode", None)
        _SAFE_MODE.safe_mode = self.safe_mode
        return self

    def __exit__(self, *exc: object) -> None:
        _SAFE_MODE.safe_mode = self._outer


def enable_unsafe_deserialization() -> None:
    """Allows ``Lambda`` bytecode from configs and files in every thread (outside a
    ``SafeModeScope(True)``), as Keras' ``keras.config.enable_unsafe_deserialization``:
    only for files you trust — loading one then runs code it holds."""
    global _unsafe_everywhere
    _unsafe_everywhere = True


def func_load(code: Any, defaults: Any = None, closure: Any = None, globs: dict[str, Any] | None = None) -> Any:
    """The function written by :func:`func_dump`, as Keras' ``generic_utils.func_load``.

    Raises:
      ValueError: in safe mode (the default: :func:`in_safe_mode`), with Keras' message; the
        bytecode is not even decoded.
    """
    if in_safe_mode():
        raise ValueError(UNSAFE_LAMBDA_MESSAGE)
    if isinstance(code, list | tuple):
        code, defaults, closure = code
        if isinstance(defaults, list):
            defaults = tuple(defaults)
    raw = marshal.loads(base64.b64decode(code.encode("ascii")))  # noqa: S302 - Keras' format for Lambda code
    cells = tuple(types.CellType(v) for v in closure) if closure is not None else None
    return types.FunctionType(raw, globs if globs is not None else {}, name=raw.co_name, argdefs=defaults,
                              closure=cells)


def _object_config(obj: Any) -> dict[str, Any]:
    config = {k: serialize_value(v) for k, v in obj.get_config().items() if k != "dtype"}
    return {"class_name": type(obj).__name__, "config": config}


def serialize_value(value: Any, key: str = "") -> Any:
    """``value`` (a constructor argument named ``key``) as JSON-compatible Keras config."""
    if key == "activation" or key.endswith("_activation"):
        return activations.serialize(activations.get(value)) if not isinstance(value, str) else value
    if key.endswith("initializer") and value is not None:
        return _object_config(initializers.get(value))
    if key.endswith("regularizer") and value is not None:
        return _object_config(regularizers.get(value))
    if key.endswith("constraint") and value is not None:
        return _object_config(constraints.get(value))
    if isinstance(value, _dtypes.DType):
        return value.name
    if isinstance(value, tuple | list):
        return [serialize_value(v) for v in value]
    if isinstance(value, dict):
        return {k: serialize_value(v, k) for k, v in value.items()}
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if hasattr(value, "get_config") and not isinstance(value, type):
        return _object_config(value)
    return value


def _regularizer(class_name: str, config: dict[str, Any]) -> Any:
    if class_name in ("L1L2", "L1", "L2"):
        return regularizers.L1L2(l1=config.get("l1", 0.0), l2=config.get("l2", 0.0))
    raise ValueError(f"Unknown regularizer: {class_name}.")


def deserialize_value(value: Any, key: str = "", custom_objects: dict[str, Any] | None = None) -> Any:
    """The object of a Keras config ``value`` (an argument named ``key``); unknown names are
    looked up in ``custom_objects`` and the open ``custom_object_scope`` s.

    Raises:
      ValueError: an initializer, regularizer or constraint class that is not known.
    """
    custom = {**_custom_objects.active_custom_objects(), **(custom_objects or {})}
    if isinstance(value, dict) and "class_name" in value and "config" in value:
        name, config = value["class_name"], dict(value["config"] or {})
        if name in custom:
            return custom[name].from_config(config) if hasattr(custom[name], "from_config") else custom[name](**config)
        if key.endswith("regularizer"):
            return _regularizer(name, config)
        if key.endswith("constraint"):
            return constraints.deserialize({"class_name": name, "config": config})
        cls = getattr(initializers, name, None)
        if cls is None or not callable(cls):
            raise ValueError(f"Unknown initializer: {name}. Please ensure it is in `custom_objects`.")
        config.pop("dtype", None)
        return cls(**config)
    if isinstance(value, str) and (key == "activation" or key.endswith("_activation")) and value in custom:
        return custom[value]
    return value
