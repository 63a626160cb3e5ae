"""TF1-style dtypes: ``jaxsess.float32``, ``int32``, ... as ``tf.dtypes.DType``.

A :class:`DType` compares equal to another ``DType`` of the same name, to the
NumPy dtype it stands for, to the NumPy scalar type and to its name string, so
``tensor.dtype == jaxsess.float32``, ``tensor.dtype == np.float32`` and
``tensor.dtype == "float32"`` all hold.

64-bit types are TF's in graphs: a graph tensor declared ``int64`` or
``float64`` is 64-bit, and a session traces and calls every plan that holds
a 64-bit type under JAX's scoped, thread-local ``jax.enable_x64(True)``
(:func:`x64_scope`), without turning ``jax_enable_x64`` on for the process.
Inside an ``EagerSession`` values follow JAX: unless ``jax_enable_x64`` is on,
64-bit types are computed in 32 bits and arrays report the dtype they are
really computed in (:func:`canonical`).
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, cast

import jax
import ml_dtypes
import numpy as np
import numpy.typing as npt

from jaxsess._core import _context as _context

if TYPE_CHECKING:
    from jaxsess._core.types import DTypeLike

__all__ = [
    "DType",
    "as_dtype",
    "canonical",
    "is_64bit",
    "x64_scope",
    "float16",
    "half",
    "bfloat16",
    "float32",
    "float64",
    "double",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "bool",
    "complex64",
    "complex128",
    "string",
]

_builtin_bool = builtins.bool


class DType:
    """A tensor element type, as ``tf.dtypes.DType``.

    Attributes:
      name: TF's name (``'float32'``, ``'int32'``, ``'bool'``).
      as_numpy_dtype: the NumPy scalar type (``np.float32``).
      is_floating, is_integer, is_bool, is_complex, is_unsigned: kind tests.
      size: bytes per element.
      min, max: representable range (numeric types).
    """

    __slots__ = ("_np", "_name")

    def __init__(self, np_dtype: npt.DTypeLike, name: str) -> None:
        self._np: np.dtype[Any] = np.dtype(np_dtype)
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @property
    def as_numpy_dtype(self) -> type:
        return cast(type, self._np.type)

    @property
    def np_dtype(self) -> np.dtype[Any]:
        return self._np

    @property
    def base_dtype(self) -> DType:
        return self

    @property
    def real_dtype(self) -> DType:
        if self.is_complex:
            return float32 if self is complex64 else float64
        return self

    @property
    def is_floating(self) -> _builtin_bool:
        return _builtin_bool(np.issubdtype(self._np, np.floating)) or self._np == ml_dtypes.bfloat16

    @property
    def is_integer(self) -> _builtin_bool:
        return _builtin_bool(np.issubdtype(self._np, np.integer))

    @property
    def is_unsigned(self) -> _builtin_bool:
        return _builtin_bool(np.issubdtype(self._np, np.unsignedinteger))

    @property
    def is_bool(self) -> _builtin_bool:
        return _builtin_bool(self._np == np.bool_)

    @property
    def is_complex(self) -> _builtin_bool:
        return _builtin_bool(np.issubdtype(self._np, np.complexfloating))

    @property
    def is_numpy_compatible(self) -> _builtin_bool:
        return True

    @property
    def size(self) -> int:
        return int(self._np.itemsize)

    @property
    def min(self) -> Any:
        if self.is_floating:
            return ml_dtypes.finfo(self._np).min
        if self.is_integer:
            return np.iinfo(self._np).min
        raise TypeError(f"Cannot find minimum value of {self._name}.")

    @property
    def max(self) -> Any:
        if self.is_floating:
            return ml_dtypes.finfo(self._np).max
        if self.is_integer:
            return np.iinfo(self._np).max
        raise TypeError(f"Cannot find maximum value of {self._name}.")

    def is_compatible_with(self, other: object) -> _builtin_bool:
        return self == other

    def __eq__(self, other: object) -> _builtin_bool:
        if isinstance(other, DType):
            return self._name == other._name
        if other is None:
            return False
        try:
            return self._name == as_dtype(cast("DTypeLike", other))._name
        except TypeError:
            return False

    def __ne__(self, other: object) -> _builtin_bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._name)

    def __repr__(self) -> str:
        return f"tf.{self._name}"

    def __str__(self) -> str:
        return f"<dtype: {self._name!r}>"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (as_dtype, (self._name,))


float16 = half = DType(np.float16, "float16")
bfloat16 = DType(ml_dtypes.bfloat16, "bfloat16")
float32 = DType(np.float32, "float32")
float64 = double = DType(np.float64, "float64")
int8 = DType(np.int8, "int8")
int16 = DType(np.int16, "int16")
int32 = DType(np.int32, "int32")
int64 = DType(np.int64, "int64")
uint8 = DType(np.uint8, "uint8")
uint16 = DType(np.uint16, "uint16")
uint32 = DType(np.uint32, "uint32")
uint64 = DType(np.uint64, "uint64")
bool = DType(np.bool_, "bool")  # noqa: A001 - TF's public name
complex64 = DType(np.complex64, "complex64")
complex128 = DType(np.complex128, "complex128")

# TF's variable-length byte strings: host values only (NumPy object arrays of
# ``bytes``); no device computes in them (see ``jaxsess._core.runtime._host_run``).
string = DType(np.object_, "string")

_ALL = [
    float16, bfloat16, float32, float64, int8, int16, int32, int64,
    uint8, uint16, uint32, uint64, bool, complex64, complex128,
]
_BY_NAME: dict[str, DType] = {d.name: d for d in _ALL}
_BY_NAME.update({"half": float16, "double": float64, "float": float32, "bool_": bool})
_BY_NP: dict[np.dtype[Any], DType] = {d.np_dtype: d for d in _ALL}
_BY_NAME["string"] = string
_BY_NP[np.dtype(object)] = string


def as_dtype(value: DTypeLike) -> DType:
    """Converts a ``DType``, NumPy dtype or type, JAX dtype or name to a :class:`DType`.

    As ``tf.as_dtype``. Python ``float`` maps to ``float32`` and ``int`` to
    ``int32``, as TensorFlow.

    Raises:
      TypeError: ``value`` names no supported dtype.
    """
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        d = _BY_NAME.get(value)
        if d is None:
            raise TypeError(f"Cannot convert {value!r} to a jaxsess DType.")
        return d
    if value is float:
        return float32
    if value is int:
        return int32
    if value is _builtin_bool:
        return bool
    if value is complex:
        return complex64
    if value is bytes or value is str:
        return string
    try:
        npd = np.dtype(value)
    except TypeError:
        raise TypeError(f"Cannot convert {value!r} to a jaxsess DType.") from None
    d = _BY_NP.get(npd)
    if d is None and npd.kind in "SU":
        return string
    if d is None:
        raise TypeError(f"Cannot convert {value!r} to a jaxsess DType.")
    return d


def canonical(dtype: DTypeLike) -> DType:
    """The dtype a tensor declared ``dtype`` has where it is made.

    In a graph: ``dtype`` itself (64-bit types stay 64-bit, as TF). Inside an
    ``EagerSession``: the dtype JAX really computes in (64-bit types narrow to
    32 bits unless ``jax_enable_x64`` is on).
    """
    d = as_dtype(dtype)
    if d._name not in _WIDE or _context.current_eager_session() is None:
        return d
    return _BY_NP[np.dtype(jax.dtypes.canonicalize_dtype(d.np_dtype))]


_WIDE = frozenset({"float64", "int64", "uint64", "complex128"})


def is_64bit(dtype: DTypeLike) -> _builtin_bool:
    """Whether ``dtype`` (a ``DType``, NumPy dtype or name) needs JAX's x64 mode:
    ``float64``, ``int64``, ``uint64``, ``complex128``."""
    if isinstance(dtype, DType):
        return dtype._name in _WIDE
    try:
        return as_dtype(dtype)._name in _WIDE
    except TypeError:
        return False


class _X64On:
    """``with jax.enable_x64(True)`` without rebuilding a context manager per
    use: JAX's thread-local config swap itself (about 1 µs instead of 4)."""

    __slots__ = ("_prev",)

    def __enter__(self) -> None:
        self._prev = _X64_STATE.swap_local(True)

    def __exit__(self, *exc: object) -> None:
        _X64_STATE.set_local(self._prev)


# The scoped switch: jax.enable_x64 (a thread-local config State); before
# jax 0.7, jax.experimental.enable_x64 (a context manager).
_X64_STATE: Any = getattr(jax, "enable_x64", None)
if _X64_STATE is None:
    _X64_STATE = importlib.import_module("jax.experimental").enable_x64
_FAST_X64 = (
    hasattr(_X64_STATE, "swap_local")
    and hasattr(_X64_STATE, "set_local")
    and getattr(_X64_STATE, "_update_thread_local_hook", None) is None
)


def x64_scope(dtype: DTypeLike | None = None) -> AbstractContextManager[None]:
    """JAX's scoped x64 switch, on, as ``jax.enable_x64(True)``: a context
    manager, thread-local (the rest of the process keeps its
    ``jax_enable_x64`` setting). Given ``dtype``, it is on only when
    :func:`is_64bit` holds (else a no-op context)."""
    if dtype is not None and not is_64bit(dtype):
        return contextlib.nullcontext()
    if _FAST_X64:
        return _X64On()
    return cast(AbstractContextManager[None], _X64_STATE(True))
