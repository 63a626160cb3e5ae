"""Argument helpers shared by the op modules: name scopes, build-time
(static) values of shape-like arguments, shape-like arguments computed from
tensor shapes when the run is traced, the dtype checks of tensor arguments,
and convolution arguments (strides, padding, data format).

XLA compiles static shapes, so shape-like arguments (a reshape ``shape``,
``tile`` multiples, ``pad`` paddings, axes, permutations, split sizes) become
static attributes. They may be Python values, NumPy arrays, or tensors whose
value is known when the graph is built (constants and shapes of fully defined
tensors, folded by :func:`~jaxsess._core.graph._builder.constant_value`).
:func:`shape_arg` also accepts a tensor computed from tensor *shapes* only
(``[tf.shape(x)[0], -1]``), which :func:`apply` turns into a ``Dynamic<Op>``
node (see :mod:`jaxsess._core.graph._dynamic`).

Imports: ``dtypes``, ``graph/`` and ``ops/_core``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._attr_json import register_function
from jaxsess._core.graph._builder import (
    apply_op,
    as_graph_tensor,
    constant_value,
    convert_to_tensor,
    dtype_of,
    executing_eagerly,
    op_scope as op_scope,
    pack,
)
from jaxsess._core.graph._dynamic import Deferred, dynamic_inputs, trace_computable
from jaxsess._core.graph._graph import Tensor, TensorShape

__all__ = [
    "op_scope", "static", "ints", "single_int", "static_ints", "static_int", "not_static",
    "as_vector", "as_pairs", "as_scalar", "shape_arg", "apply", "float_input", "same_dtype",
    "spatial_arg", "padding_arg", "data_format_arg", "label", "tensor_dtype",
]


def not_static(fn: str, arg: str, value: Any) -> ValueError:
    """The error for argument ``arg`` of ``fn`` whose value depends on fed or variable data."""
    shown = getattr(value, "name", None) or f"{value!r:.80}"
    return ValueError(
        f"{fn}: argument '{arg}' must be known when the graph is built, got {shown}, whose value "
        "depends on fed or variable data. XLA compiles static shapes: pass a Python value, a "
        "constant tensor, or a value computed from tensor shapes (tf.shape)."
    )


def static(value: Any, fn: str, arg: str) -> np.ndarray:
    """The build-time value of ``value`` (Python, NumPy, jax.Array or foldable tensor).

    Raises:
      ValueError: not foldable (names ``fn`` and ``arg``).
    """
    value = as_graph_tensor(value)
    if isinstance(value, TensorShape):
        if not value.is_fully_defined():
            raise ValueError(f"{fn}: argument '{arg}' is a partially known shape {value}.")
        return np.asarray(value.as_list(), dtype=np.int64)
    if isinstance(value, list | tuple) and any(isinstance(as_graph_tensor(v), Tensor) for v in value):
        parts = [static(v, fn, arg) for v in value]
        return np.asarray(parts)
    if isinstance(value, list | tuple) and any(v is None for v in value):
        raise ValueError(f"{fn}: argument '{arg}' contains an unknown (None) dimension: {value!r}.")
    val = constant_value(value)
    if val is None or val.dtype == object:
        raise not_static(fn, arg, value)
    return val


def ints(val: np.ndarray, fn: str, arg: str) -> tuple[int, ...]:
    """``val``'s elements as ints (any shape, flattened).

    Raises:
      TypeError: ``val`` does not hold integers (names ``fn`` and ``arg``).
    """
    if val.size == 0:
        return ()
    if val.dtype.kind not in "iu":
        raise TypeError(f"{fn}: argument '{arg}' must hold integers, got {val.dtype} {val.tolist()!r}.")
    return tuple(int(v) for v in np.reshape(val, (-1,)))


def single_int(val: np.ndarray, fn: str, arg: str) -> int:
    """``val``'s one integer.

    Raises:
      ValueError: ``val`` holds more or fewer than one element.
      TypeError: not an integer.
    """
    got = ints(val, fn, arg)
    if len(got) != 1:
        raise ValueError(f"{fn}: argument '{arg}' must be a single integer, got {val.tolist()!r}.")
    return got[0]


def static_ints(value: Any, fn: str, arg: str) -> tuple[int, ...]:
    """The build-time ints of ``value`` (see :func:`static`, :func:`ints`)."""
    return ints(static(value, fn, arg), fn, arg)


def static_int(value: Any, fn: str, arg: str) -> int:
    """The build-time int of ``value`` (see :func:`static`, :func:`single_int`)."""
    return single_int(static(value, fn, arg), fn, arg)


def as_vector(val: np.ndarray) -> tuple[int, ...]:
    """``val`` flattened to a tuple of ints (no checks; also a TF constant input, ``from_tf``)."""
    return tuple(int(v) for v in np.reshape(val, (-1,)))


def as_pairs(val: np.ndarray) -> tuple[tuple[int, int], ...]:
    """``val`` as ``(before, after)`` int pairs (shape ``[n, 2]``; also TF's ``paddings``)."""
    arr = np.reshape(np.asarray(val), (-1, 2))
    return tuple((int(a), int(b)) for a, b in arr)


def as_scalar(val: np.ndarray) -> Any:
    """``val``'s one element as a Python number."""
    return np.asarray(val).reshape(()).item()


# Graph defs hold these as a Dynamic op's ``convert`` (by name; the names predate this module).
register_function("array_ops._as_vector", as_vector)
register_function("array_ops._as_scalar", as_scalar)
register_function("array_ops._as_pairs", as_pairs)


# -- dtypes of tensor arguments --------------------------------------------------


def tensor_dtype(x: Any) -> _dtypes.DType:
    """The dtype of a converted tensor or ``jax.Array`` ``x`` (graph or eager)."""
    return _dtypes.as_dtype(x.dtype)


def label(x: Any) -> str:
    """How an error message names the tensor ``x``: its name (graph), else ``'an eager array'``."""
    return getattr(x, "name", None) or "an eager array"


def float_input(x: Any, fn: str) -> Any:
    """``x`` as a tensor of a floating (or complex) dtype.

    Raises:
      TypeError: another dtype (names ``fn``).
    """
    x = convert_to_tensor(x)
    d = dtype_of(x)
    if d is not None and not (d.is_floating or d.is_complex):
        raise TypeError(f"{fn}: expected a floating-point tensor, got {d.name}.")
    return x


def same_dtype(fn: str, *named: tuple[str, Any]) -> list[Any]:
    """Converts each ``(arg_name, value)``; values take the first tensor's dtype.

    Raises:
      TypeError: two tensors of different dtypes (names the arguments).
    """
    ref_name, ref = next(((n, v) for n, v in named if dtype_of(v) is not None), named[0])
    ref_t = convert_to_tensor(ref)
    want = dtype_of(ref_t)
    out = []
    for n, v in named:
        d = dtype_of(v)
        if d is not None and d != want:
            raise TypeError(f"{fn}: '{n}' has dtype {d.name} but '{ref_name}' has dtype {want.name}.")  # type: ignore[union-attr]
        out.append(ref_t if v is ref else convert_to_tensor(v, dtype=want))
    return out


# -- convolution arguments ------------------------------------------------------


def spatial_arg(value: Any, fn: str, arg: str, fmt: str, default: int | None = None) -> tuple[int, int]:
    """A stride/dilation/window argument as (h, w): an int, [h, w] or a 4-list in ``fmt`` order."""
    if value is None:
        if default is None:
            raise ValueError(f"{fn}: argument '{arg}' is required.")
        return (default, default)
    vals = static_ints(value, fn, arg)
    if len(vals) == 1:
        return (vals[0], vals[0])
    if len(vals) == 2:
        return (vals[0], vals[1])
    if len(vals) == 4:
        h, w = (1, 2) if fmt == "NHWC" else (2, 3)
        n, c = (0, 3) if fmt == "NHWC" else (0, 1)
        if vals[n] != 1 or vals[c] != 1:
            raise ValueError(
                f"{fn}: {arg} in the batch and depth dimensions must be 1, got {list(vals)} ({fmt})."
            )
        return (vals[h], vals[w])
    raise ValueError(f"{fn}: {arg} must be an int or a list of 1, 2 or 4 ints, got {list(vals)}.")


def padding_arg(padding: Any, fn: str, fmt: str) -> Any:
    """A convolution's ``padding``: ``'SAME'``, ``'VALID'``, or explicit ``((t, b), (l, r))``
    (from 2 pairs, or 4 in ``fmt`` order).

    Raises:
      ValueError: missing or malformed (names ``fn``).
    """
    if padding is None:
        raise ValueError(f"{fn}: argument 'padding' is required ('SAME' or 'VALID').")
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"{fn}: padding must be 'SAME', 'VALID' or explicit pairs, got {padding!r}.")
        return p
    pairs = np.asarray(padding)
    if pairs.shape == (4, 2):
        pairs = pairs[1:3] if fmt == "NHWC" else pairs[2:4]
    if pairs.shape != (2, 2):
        raise ValueError(f"{fn}: explicit padding must be [[0,0],[t,b],[l,r],[0,0]] (or 2 pairs), got {padding!r}.")
    return tuple((int(a), int(b)) for a, b in pairs)


def data_format_arg(data_format: Any, fn: str) -> str:
    """``'NHWC'`` (the default) or ``'NCHW'``, upper-cased.

    Raises:
      ValueError: another format (names ``fn``).
    """
    fmt = (data_format or "NHWC").upper()
    if fmt not in ("NHWC", "NCHW"):
        raise ValueError(f"{fn}: data_format must be 'NHWC' or 'NCHW', got {data_format!r}.")
    return fmt


# -- shape-like arguments computed from shapes at trace time ---------------------


# A partial value's entry: an int, None (unknown), or ("in", i): unknown, but
# equal to dimension i of the op's data input (``tf.shape(x)[i]`` given to an op on ``x``).
_Partial = Any


def _partial_scalar(t: Tensor, ref: Tensor | None = None) -> _Partial:
    v = constant_value(t)
    if v is not None and v.size == 1 and v.dtype.kind in "iu":
        return int(v.reshape(()))
    op = t.op
    if op.type == "StridedSlice" and len(op.inputs) == 1 and len(op.attrs["spec"]) == 1:
        kind, *rest = op.attrs["spec"][0]
        if kind == "index":
            vec = _partial_vector(op.inputs[0], ref)
            if vec is not None and -len(vec) <= rest[0] < len(vec):
                return vec[rest[0]]
    if op.type in ("Identity", "Cast"):
        return _partial_scalar(op.inputs[0], ref)
    arith = _PARTIAL_ARITH.get(op.type)
    if arith is not None and len(op.inputs) == 2:  # tf.shape(x)[1] - 1 with x's dimension 1 known
        a, b = (_partial_scalar(i, ref) for i in op.inputs)
        if type(a) is int and type(b) is int and not (op.type == "FloorDiv" and b == 0):
            return int(arith(a, b))
    return None


# Integer arithmetic that TF's shape inference evaluates on partially known shape values.
_PARTIAL_ARITH: dict[str, Callable[[int, int], int]] = {
    "Sub": lambda a, b: a - b, "AddV2": lambda a, b: a + b, "Add": lambda a, b: a + b,
    "Mul": lambda a, b: a * b, "FloorDiv": lambda a, b: a // b, "Maximum": max, "Minimum": min,
}


def partial_scalar(t: Tensor) -> int | None:
    """The value of the int scalar ``t`` if the build time knows it (from constants and the
    known dimensions of shapes), else ``None``."""
    v = _partial_scalar(t)
    return v if type(v) is int else None


def partial_vector(t: Tensor) -> tuple[Any, ...] | None:
    """What the build time knows of the int vector ``t``: a tuple of ints and ``None``
    (unknown entries), or ``None`` when even its length is unknown."""
    vec = _partial_vector(t)
    return None if vec is None else tuple(v if type(v) is int else None for v in vec)


def _partial_vector(t: Tensor, ref: Tensor | None = None) -> tuple[_Partial, ...] | None:
    """What is known at build time of an int vector (see ``_Partial``), or
    ``None`` when even its length is unknown (as TF's constant_value_as_shape)."""
    v = constant_value(t)
    if v is not None and v.dtype.kind in "iu":
        return as_vector(v)
    op = t.op
    if op.type == "Shape":
        dims = op.inputs[0].shape.as_tuple()
        if dims is not None and op.inputs[0] is ref:
            return tuple(("in", i) if d is None else d for i, d in enumerate(dims))
        return dims
    if op.type == "Pack" and op.attrs["axis"] == 0 and all(i.shape.ndims == 0 for i in op.inputs):
        return tuple(_partial_scalar(i, ref) for i in op.inputs)
    if op.type == "ConcatV2":
        parts = [_partial_vector(i, ref) for i in op.inputs]
        if all(p is not None for p in parts):
            return tuple(d for p in parts for d in p)  # type: ignore[union-attr]
    if op.type in ("Identity", "Cast"):
        return _partial_vector(op.inputs[0], ref)
    if op.type == "StridedSlice" and len(op.inputs) == 1 and len(op.attrs["spec"]) == 1:
        kind, *rest = op.attrs["spec"][0]
        vec = _partial_vector(op.inputs[0], ref)
        if kind == "slice" and vec is not None:
            return vec[slice(*rest[0])]
    if t.shape.ndims == 1 and t.shape[0] is not None:
        return (None,) * t.shape[0]
    return None


def shape_arg(value: Any, fn: str, arg: str, kind: str = "vector", ref: Tensor | None = None) -> Any:
    """A shape-like argument: its static attribute value, or a :class:`~jaxsess._core.graph._dynamic.Deferred`.

    ``kind``: ``'vector'`` (tuple of ints), ``'scalar'`` (a Python number).
    ``ref``: the op's data input; the partial value then marks entries equal
    to its unknown dimensions.

    Raises:
      ValueError: the value depends on fed or variable data (names ``arg``).
      TypeError: the value does not hold integers (``'vector'``) or numbers.
    """
    convert = as_vector if kind == "vector" else as_scalar

    def finish(val: np.ndarray) -> Any:
        if kind == "vector":
            return ints(val, fn, arg)
        if val.dtype.kind not in "iuf":
            raise TypeError(f"{fn}: argument '{arg}' must be a number, got {val.dtype} {val.tolist()!r}.")
        return as_scalar(val)

    value = as_graph_tensor(value)
    if executing_eagerly():
        return finish(static(value, fn, arg))
    if isinstance(value, list | tuple) and any(isinstance(as_graph_tensor(v), Tensor) for v in value):
        try:
            return finish(static(value, fn, arg))
        except ValueError:
            parts = [as_graph_tensor(v) for v in value]
            for p in parts:
                if isinstance(p, Tensor) and not trace_computable(p, {}):
                    raise not_static(fn, arg, p) from None
            value = pack([convert_to_tensor(p, dtype=_dtypes.int32) for p in parts])
    if not isinstance(value, Tensor):
        return finish(static(value, fn, arg))
    val = constant_value(value)
    if val is not None:
        return finish(val)
    if not trace_computable(value, {}):
        raise not_static(fn, arg, value)
    partial = _partial_vector(value, ref) if kind == "vector" else _partial_scalar(value)
    return Deferred(value, convert, partial)


def apply(op_type: str, data: Sequence[Any], attrs: dict[str, Any], name: str | None) -> Any:
    """``apply_op`` of ``op_type``, or of ``Dynamic<op_type>`` when an attribute
    is a :class:`~jaxsess._core.graph._dynamic.Deferred` (its tensor becomes an extra input)."""
    dynamic = dynamic_inputs(op_type, len(data), attrs)
    if dynamic is None:
        return apply_op(op_type, data, attrs, name=name)
    dyn_type, dyn_attrs, tensors = dynamic
    return apply_op(dyn_type, [*data, *tensors], dyn_attrs, name=name)
