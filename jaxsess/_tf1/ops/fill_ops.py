"""Filled tensors, as ``tf.compat.v1``: fill, zeros, ones, zeros_like,
ones_like, range.

Their shapes (``dims``, ``shape``) and ``range``'s bounds are static
attributes or, computed from tensor shapes, a ``Dynamic<Op>`` node (see
:mod:`jaxsess._tf1.ops._args`, :mod:`jaxsess._core.graph._dynamic`).
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._attr_json import register_function
from jaxsess._core.graph._builder import apply_op, as_graph_tensor, constant, convert_to_tensor, dtype_of
from jaxsess._core.graph._dynamic import Deferred, first_dtype, register_dynamic
from jaxsess._core.graph._graph import Tensor, TensorShape
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._tf1.ops._args import apply, as_scalar, as_vector, op_scope, shape_arg

__all__ = ["fill", "zeros", "ones", "zeros_like", "ones_like", "range"]


# -- fill, zeros, ones, range -------------------------------------------------------------


@register_op("Fill", default_name="Fill", tf=TFOp(
    types={"T": 1, "index_type": 0}, to_tf=lambda a, s: ({}, [np.asarray(a["dims"], np.int32).reshape(-1)]),
    from_tf=lambda a, c: {"dims": as_vector(c[0])}, n_const=1, const_pos=0))
def _fill(value: Any, *, dims: tuple[int, ...]) -> Any:
    if value.ndim != 0:
        raise ValueError(f"value must be a scalar, got shape {list(value.shape)}.")
    return jnp.broadcast_to(value, dims)


register_dynamic("Fill", lambda shapes, a: TensorShape(a["dims"]), first_dtype)


def _check_dims(dims: Any, fn: str) -> None:
    if not isinstance(dims, Deferred) and any(d < 0 for d in dims):
        raise ValueError(f"{fn}: dimensions must be non-negative, got {list(dims)}.")


def fill(dims: Any, value: Any, name: str | None = None) -> Any:
    """A tensor of shape ``dims`` filled with the scalar ``value``, as ``tf.fill``.

    Args:
      dims: 1-D ints: a list, constant, or a tensor computed from shapes.
      value: a scalar; its dtype is the result's.
    """
    v = convert_to_tensor(value)
    d = shape_arg(dims, "fill", "dims")
    _check_dims(d, "fill")
    return apply("Fill", (v,), {"dims": d}, name)


def _filled(shape: Any, dtype: Any, value: int | bool | bytes, default: str, name: str | None) -> Any:
    dt = _dtypes.canonical(dtype)
    d = shape_arg(shape, default, "shape")
    _check_dims(d, default)
    if dt.is_bool:  # as TF: False/True for bool, "" for strings
        value = bool(value)
    elif dt == _dtypes.string and value == 0:
        value = b""
    with op_scope(name, default) as scope:
        v = constant(value, dtype=dt)
        return apply("Fill", (v,), {"dims": d}, scope)


def zeros(shape: Any, dtype: Any = _dtypes.float32, name: str | None = None) -> Any:
    """A tensor of ``shape`` filled with zeros, as ``tf.zeros``.

    Args:
      shape: 1-D ints (a list, a constant, or a tensor computed from shapes).
      dtype: the element type (default float32).
    """
    return _filled(shape, dtype, 0, "zeros", name)


def ones(shape: Any, dtype: Any = _dtypes.float32, name: str | None = None) -> Any:
    """A tensor of ``shape`` filled with ones, as ``tf.ones``."""
    return _filled(shape, dtype, 1, "ones", name)


def _like_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    if a["dtype"] != specs[0][1]:
        raise ValueError("a dtype other than the input's")
    return {"T": a["dtype"]}, []


# TF: ZerosLike/OnesLike of the input's dtype (T)
_LIKE_TF = TFOp(types={}, to_tf=_like_to_tf, from_tf=lambda a, c: {"dtype": a["T"]})


@register_op("ZerosLike", default_name="zeros_like", tf=_LIKE_TF)
def _zeros_like(x: Any, *, dtype: _dtypes.DType) -> Any:
    return jnp.zeros(x.shape, dtype.np_dtype)


@register_op("OnesLike", default_name="ones_like", tf=_LIKE_TF)
def _ones_like(x: Any, *, dtype: _dtypes.DType) -> Any:
    return jnp.ones(x.shape, dtype.np_dtype)


def _like(op_type: str, tensor: Any, dtype: Any, name: str | None) -> Any:
    x = convert_to_tensor(tensor)
    dt = _dtypes.canonical(dtype if dtype is not None else x.dtype)
    return apply_op(op_type, (x,), {"dtype": dt}, name=name)


def zeros_like(tensor: Any, dtype: Any = None, name: str | None = None, optimize: bool = True) -> Any:
    """Zeros of ``tensor``'s shape and (unless ``dtype`` is given) dtype, as ``tf.zeros_like``."""
    return _like("ZerosLike", tensor, dtype, name)


def ones_like(tensor: Any, dtype: Any = None, name: str | None = None, optimize: bool = True) -> Any:
    """Ones of ``tensor``'s shape and (unless ``dtype`` is given) dtype, as ``tf.ones_like``."""
    return _like("OnesLike", tensor, dtype, name)


@register_op("Range", default_name="range")
def _range(*, start: Any, limit: Any, delta: Any, dtype: _dtypes.DType) -> Any:
    if delta == 0:
        raise ValueError("Requires delta != 0")
    return jnp.arange(start, limit, delta, dtype=dtype.np_dtype)


register_dynamic("Range", lambda shapes, a: TensorShape([None]), lambda dtypes, a: a["dtype"])

_RANGE_ORDER = ["int32", "int64", "float32", "float64"]


def range(start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None, name: str = "range") -> Any:  # noqa: A001
    """``[start, start + delta, ...)`` up to but excluding ``limit``, as ``tf.range``.

    ``tf.range(5)`` is ``[0, 1, 2, 3, 4]``. The arguments are numbers,
    constant tensors, or scalars computed from shapes (``tf.shape(x)[0]``).

    Args:
      dtype: default: the widest of the arguments' types (Python ints are
        int32, floats float32).

    Raises:
      ValueError: ``delta`` is 0, or an argument depends on fed data.
    """
    if limit is None:
        start, limit = 0, start
    args = {"start": start, "limit": limit, "delta": delta}
    if dtype is None:
        kinds = []
        for v in args.values():
            d = dtype_of(v)
            if d is None:
                arr = np.asarray(v) if not isinstance(as_graph_tensor(v), Tensor) else None
                d = _dtypes.float32 if arr is not None and arr.dtype.kind == "f" else _dtypes.int32
            kinds.append(d.name)
        dtype = max(kinds, key=lambda k: _RANGE_ORDER.index(k) if k in _RANGE_ORDER else 0)
    dt = _dtypes.canonical(dtype)
    attrs: dict[str, Any] = {k: shape_arg(v, "range", k, kind="scalar") for k, v in args.items()}
    cast = float if dt.is_floating else int
    for k, v in attrs.items():
        if not isinstance(v, Deferred):
            attrs[k] = cast(v)
        else:
            attrs[k] = v._replace(convert=_range_convert_float if dt.is_floating else _range_convert_int)
    if not isinstance(attrs["delta"], Deferred) and attrs["delta"] == 0:
        raise ValueError("range: Requires delta != 0")
    attrs["dtype"] = dt
    return apply("Range", (), attrs, name)


def _range_convert_float(val: np.ndarray) -> float:
    return float(as_scalar(val))


def _range_convert_int(val: np.ndarray) -> int:
    return int(as_scalar(val))


# Graph defs hold these as a DynamicRange's ``convert`` (by name).
register_function("array_ops._range_convert_float", _range_convert_float)
register_function("array_ops._range_convert_int", _range_convert_int)
