"""Math ops, as ``tf.math`` / ``tf.compat.v1`` (element-wise, reductions, matmul).

Binary ops follow TF1 typing: a Python or NumPy value combined with a tensor
takes the tensor's dtype; two tensors of different dtypes raise
``TypeError`` naming both (no implicit promotion). Broadcasting follows NumPy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import (
    apply_op,
    as_graph_tensor,
    constant,
    constant_value,
    convert_to_tensor,
    dtype_of,
    executing_eagerly,
)
from jaxsess._core.graph._graph import Operation, Tensor, TensorShape, get_default_graph
from jaxsess._core.graph._host import device_lowering, register_host, require_no_assign_before
from jaxsess._core.graph._registry import TFOp, get_op_def, register_op

__all__ = [
    "add", "subtract", "multiply", "scalar_mul", "divide", "truediv", "realdiv", "div", "floordiv", "floor_div",
    "mod", "floormod", "pow", "negative", "abs", "sign", "square", "sqrt", "rsqrt", "exp", "log",
    "log1p", "expm1", "sin", "cos", "tan", "tanh", "sigmoid", "floor", "ceil", "round", "reciprocal",
    "maximum", "minimum", "squared_difference", "clip_by_value", "add_n", "matmul",
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_any",
    "reduce_all", "reduce_logsumexp", "argmax", "argmin", "arg_max", "arg_min", "equal", "not_equal", "less", "less_equal",
    "greater", "greater_equal", "logical_and", "logical_or", "logical_not", "logical_xor", "where",
    "cast", "to_float", "to_int32", "cumsum", "cumprod", "is_nan", "is_finite", "is_inf",
    "count_nonzero", "erf", "atan2", "bitwise_and",
]


def _pair(op_type: str, x: Any, y: Any, _in_graph: bool = False, nx: Any = None, ny: Any = None) -> tuple[Any, Any]:
    """``x`` and ``y`` as tensors of one dtype; values become constants
    named ``nx``/``ny`` (TF1 names them ``x``/``y`` under the op's scope)."""
    if not _in_graph:
        for t in (x, y):  # constants join the graph of the first tensor operand
            g = getattr(as_graph_tensor(t), "graph", None)
            if g is not None:
                if g is not get_default_graph():
                    with g.as_default():
                        return _pair(op_type, x, y, True, nx, ny)
                break
    dx, dy = dtype_of(x), dtype_of(y)
    if dx is not None and dy is not None:
        if dx != dy:
            raise TypeError(
                f"Input 'y' of '{op_type}' Op has type {dy.name} that does not match type "
                f"{dx.name} of argument 'x'."
            )
        return convert_to_tensor(x, name=nx), convert_to_tensor(y, name=ny)
    if dx is not None:
        return convert_to_tensor(x, name=nx), convert_to_tensor(y, dtype=dx, name=ny)
    if dy is not None:
        return convert_to_tensor(x, dtype=dy, name=nx), convert_to_tensor(y, name=ny)
    x = convert_to_tensor(x, name=nx)
    return x, convert_to_tensor(y, dtype=dtype_of(x), name=ny)


def _graph_of(x: Any, y: Any) -> Any:
    tx, ty = as_graph_tensor(x), as_graph_tensor(y)
    return tx.graph if isinstance(tx, Tensor) else ty.graph if isinstance(ty, Tensor) else get_default_graph()


def _binary(op_type: str, x: Any, y: Any, name: str | None) -> Any:
    tx, ty = as_graph_tensor(x), as_graph_tensor(y)
    if isinstance(tx, Tensor) and isinstance(ty, Tensor) or executing_eagerly():
        x, y = _pair(op_type, x, y)
        return apply_op(op_type, (x, y), name=name)
    # As TF1: a value operand becomes a constant '<op>/x' or '<op>/y' inside the op's scope.
    g = tx.graph if isinstance(tx, Tensor) else ty.graph if isinstance(ty, Tensor) else get_default_graph()
    with g.as_default(), g.name_scope(name or get_op_def(op_type).default_name) as scope:
        x, y = _pair(op_type, x, y, True, "x", "y")
        return apply_op(op_type, (x, y), name=scope)


def _def_binary(op_type: str, fn: Any, default_name: str, tf: TFOp | None = None) -> None:
    register_op(op_type, default_name=default_name, tf=tf)(fn)


def _truediv_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    if not specs[0][1].is_floating:
        raise ValueError("TF's truediv of integers is Cast + RealDiv")
    return dict(a), []


# TF has no TrueDiv op: float x / y is RealDiv
_TRUEDIV_TF = TFOp(op="RealDiv", to_tf=_truediv_to_tf)
_ADD_TF = TFOp(also=("Add",))  # graphs of TF before 2.x write Add


def _tf_floordiv(x: Any, y: Any) -> Any:
    return jnp.floor_divide(x, y)


def _tf_floormod(x: Any, y: Any) -> Any:
    return jnp.mod(x, y)


def _exact_divide(x: Any, y: Any) -> Any:
    """``x / y`` rounded once, as TF divides. XLA rewrites a division by a
    constant into a multiplication by its rounded reciprocal (``20 * (1/20)``
    is ``1 + 2**-24`` in float32: ``(1 - step / 20) ** 0.5`` becomes NaN at
    ``step = 20``). A scalar divisor (the common constant one: traced
    constants cannot be told apart) goes through an optimization barrier,
    which XLA does not fold; a scalar costs nothing to keep out of a fusion."""
    if jnp.ndim(y) == 0 and jnp.issubdtype(jnp.result_type(y), jnp.inexact):
        y = jax.lax.optimization_barrier(y)
    return jnp.true_divide(x, y)


def _tf_realdiv(x: Any, y: Any) -> Any:
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.floor_divide(x, y)  # TF's RealDiv on ints is invalid; Div truncates
    return _exact_divide(x, y)


def _tf_truediv(x: Any, y: Any) -> Any:
    if jnp.issubdtype(x.dtype, jnp.integer) or x.dtype == jnp.bool_:
        x = x.astype(jnp.float32)
        y = y.astype(jnp.float32)
    return _exact_divide(x, y)


def _tf_squared_difference(x: Any, y: Any) -> Any:
    d = x - y
    return d * d


# TF's gradients where JAX's differ: at ties and kinks TF gives the whole
# gradient to one side (`Maximum`: x where x >= y; `Minimum`: x where x <= y;
# `Abs`: sign(x), so 0 at 0; `ClipByValue`: x inside [lo, hi] inclusive),
# where JAX splits it (0.5 each) or picks the other side.
@jax.custom_jvp
def _tf_max_float(x: Any, y: Any) -> Any:
    return jnp.maximum(x, y)


@_tf_max_float.defjvp
def _tf_max_jvp(primals: Any, tangents: Any) -> Any:
    (x, y), (tx, ty) = primals, tangents
    return jnp.maximum(x, y), jnp.where(x >= y, tx, ty)


@jax.custom_jvp
def _tf_min_float(x: Any, y: Any) -> Any:
    return jnp.minimum(x, y)


@_tf_min_float.defjvp
def _tf_min_jvp(primals: Any, tangents: Any) -> Any:
    (x, y), (tx, ty) = primals, tangents
    return jnp.minimum(x, y), jnp.where(x <= y, tx, ty)


@jax.custom_jvp
def _tf_abs_float(x: Any) -> Any:
    return jnp.abs(x)


@_tf_abs_float.defjvp
def _tf_abs_jvp(primals: Any, tangents: Any) -> Any:
    (x,), (tx,) = primals, tangents
    return jnp.abs(x), jnp.sign(x) * tx


@jax.custom_jvp
def _tf_clip_float(x: Any, lo: Any, hi: Any) -> Any:
    return jnp.minimum(jnp.maximum(x, lo), hi)


@_tf_clip_float.defjvp
def _tf_clip_jvp(primals: Any, tangents: Any) -> Any:
    (x, lo, hi), (tx, tlo, thi) = primals, tangents
    below, above = x < lo, x > hi
    return _tf_clip_float(x, lo, hi), jnp.where(below, tlo, jnp.where(above, thi, tx))


def _is_real_float(*xs: Any) -> bool:
    return all(jnp.issubdtype(jnp.result_type(x), jnp.floating) for x in xs)


def _tf_maximum(x: Any, y: Any) -> Any:
    return _tf_max_float(x, y) if _is_real_float(x, y) else jnp.maximum(x, y)


def _tf_minimum(x: Any, y: Any) -> Any:
    return _tf_min_float(x, y) if _is_real_float(x, y) else jnp.minimum(x, y)


def _tf_abs(x: Any) -> Any:
    return _tf_abs_float(x) if _is_real_float(x) else jnp.abs(x)


for _t, _f, _n in [
    ("AddV2", jnp.add, "add"),
    ("Sub", jnp.subtract, "sub"),
    ("Mul", jnp.multiply, "mul"),
    ("RealDiv", _tf_realdiv, "truediv"),
    ("TrueDiv", _tf_truediv, "truediv"),
    ("FloorDiv", _tf_floordiv, "floordiv"),
    ("FloorMod", _tf_floormod, "mod"),
    ("Pow", jnp.power, "pow"),
    ("Maximum", _tf_maximum, "Maximum"),
    ("Minimum", _tf_minimum, "Minimum"),
    ("SquaredDifference", _tf_squared_difference, "SquaredDifference"),
    ("Equal", jnp.equal, "Equal"),
    ("NotEqual", jnp.not_equal, "NotEqual"),
    ("Less", jnp.less, "Less"),
    ("LessEqual", jnp.less_equal, "LessEqual"),
    ("Greater", jnp.greater, "Greater"),
    ("GreaterEqual", jnp.greater_equal, "GreaterEqual"),
    ("LogicalAnd", jnp.logical_and, "LogicalAnd"),
    ("LogicalOr", jnp.logical_or, "LogicalOr"),
    ("LogicalXor", jnp.logical_xor, "LogicalXor"),
    ("Atan2", jnp.arctan2, "Atan2"),
    ("BitwiseAnd", jnp.bitwise_and, "BitwiseAnd"),
]:
    _def_binary(_t, _f, _n, _TRUEDIV_TF if _t == "TrueDiv" else (_ADD_TF if _t == "AddV2" else None))


def add(x: Any, y: Any, name: str | None = None) -> Any:
    """``x + y`` element-wise with broadcasting, as ``tf.math.add`` (op named ``Add``)."""
    return _binary("AddV2", x, y, name or "Add")


def subtract(x: Any, y: Any, name: str | None = None) -> Any:
    """``x - y``, as ``tf.math.subtract`` (op named ``Sub``)."""
    return _binary("Sub", x, y, name or "Sub")


def multiply(x: Any, y: Any, name: str | None = None) -> Any:
    """``x * y``, as ``tf.math.multiply`` (op named ``Mul``)."""
    return _binary("Mul", x, y, name or "Mul")


def scalar_mul(scalar: Any, x: Any, name: str | None = None) -> Any:
    """``scalar * x`` (op ``Mul``), the scalar converted to ``x``'s dtype, as ``tf.math.scalar_mul``.

    Raises:
      ValueError: ``scalar`` is not 0-D.
    """
    d = dtype_of(x)
    s = convert_to_tensor(scalar, dtype=d, name="scalar") if d is not None else convert_to_tensor(scalar)
    shape = s.shape if isinstance(s, Tensor) else jnp.shape(s)
    if len(tuple(shape)) != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape {tuple(shape)}.")
    return multiply(s, x, name=name)


def truediv(x: Any, y: Any, name: str | None = None) -> Any:
    """``x / y``; integer inputs are cast to a float first, as ``tf.math.truediv``:
    8- and 16-bit integers to ``float32``, 32- and 64-bit ones to ``float64``
    (TF's ``_TRUEDIV_TABLE``; the result of ``int32 / int32`` is ``float64``).

    Raises:
      TypeError: ``x`` and ``y`` have different dtypes.
    """
    d = dtype_of(x) or dtype_of(y)
    if d is None and isinstance(x, int) and not isinstance(x, bool):
        d = _dtypes.int32  # a Python int, as TF converts it
    if d is None or not d.is_integer or d.size < 4 or executing_eagerly():
        return _binary("TrueDiv", x, y, name)
    g = _graph_of(x, y)
    with g.as_default(), g.name_scope(name or "truediv") as scope:  # as TF: Cast, Cast_1, then the division
        xt, yt = _pair("TrueDiv", x, y, True, "x", "y")
        return apply_op("TrueDiv", (cast(xt, _dtypes.float64), cast(yt, _dtypes.float64)), name=scope)


def divide(x: Any, y: Any, name: str | None = None) -> Any:
    """``x / y`` (Python 3 division), as ``tf.math.divide``."""
    return truediv(x, y, name=name)


def realdiv(x: Any, y: Any, name: str | None = None) -> Any:
    """``x / y`` for real inputs, as ``tf.realdiv`` (op named ``RealDiv``)."""
    return _binary("RealDiv", x, y, name or "RealDiv")


def floordiv(x: Any, y: Any, name: str | None = None) -> Any:
    """``floor(x / y)``, as ``tf.math.floordiv``."""
    return _binary("FloorDiv", x, y, name)


floor_div = floordiv


def div(x: Any, y: Any, name: str | None = None) -> Any:
    """TF1's ``tf.div``: floor division for integers, true division for floats."""
    d = dtype_of(x) or dtype_of(y)
    if d is not None and d.is_integer:
        return floordiv(x, y, name=name or "div")
    return realdiv(x, y, name=name or "div")


def mod(x: Any, y: Any, name: str | None = None) -> Any:
    """``x mod y`` with the sign of ``y`` (floor modulo), as ``tf.math.floormod`` (op named ``FloorMod``)."""
    return _binary("FloorMod", x, y, name or "FloorMod")


floormod = mod


def pow(x: Any, y: Any, name: str | None = None) -> Any:  # noqa: A001 - TF's name
    """``x ** y``, as ``tf.math.pow`` (op named ``Pow``)."""
    return _binary("Pow", x, y, name or "Pow")


def maximum(x: Any, y: Any, name: str | None = None) -> Any:
    """Element-wise maximum, as ``tf.math.maximum``."""
    return _binary("Maximum", x, y, name)


def minimum(x: Any, y: Any, name: str | None = None) -> Any:
    """Element-wise minimum, as ``tf.math.minimum``."""
    return _binary("Minimum", x, y, name)


def squared_difference(x: Any, y: Any, name: str | None = None) -> Any:
    """``(x - y) ** 2``, as ``tf.math.squared_difference``."""
    return _binary("SquaredDifference", x, y, name)


def equal(x: Any, y: Any, name: str | None = None) -> Any:
    """``x == y`` element-wise (bool), as ``tf.math.equal``."""
    return _binary("Equal", x, y, name)


def not_equal(x: Any, y: Any, name: str | None = None) -> Any:
    """``x != y`` element-wise (bool), as ``tf.math.not_equal``."""
    return _binary("NotEqual", x, y, name)


def less(x: Any, y: Any, name: str | None = None) -> Any:
    """``x < y`` (bool), as ``tf.math.less``."""
    return _binary("Less", x, y, name)


def less_equal(x: Any, y: Any, name: str | None = None) -> Any:
    """``x <= y`` (bool), as ``tf.math.less_equal``."""
    return _binary("LessEqual", x, y, name)


def greater(x: Any, y: Any, name: str | None = None) -> Any:
    """``x > y`` (bool), as ``tf.math.greater``."""
    return _binary("Greater", x, y, name)


def greater_equal(x: Any, y: Any, name: str | None = None) -> Any:
    """``x >= y`` (bool), as ``tf.math.greater_equal``."""
    return _binary("GreaterEqual", x, y, name)


def _bool_pair(op_type: str, x: Any, y: Any, name: str | None) -> Any:
    x = convert_to_tensor(x, dtype=_dtypes.bool)
    y = convert_to_tensor(y, dtype=_dtypes.bool)
    return apply_op(op_type, (x, y), name=name)


def logical_and(x: Any, y: Any, name: str | None = None) -> Any:
    """Element-wise ``x AND y`` on bool tensors, as ``tf.math.logical_and``."""
    return _bool_pair("LogicalAnd", x, y, name)


def logical_or(x: Any, y: Any, name: str | None = None) -> Any:
    """Element-wise ``x OR y`` on bool tensors, as ``tf.math.logical_or``."""
    return _bool_pair("LogicalOr", x, y, name)


def logical_xor(x: Any, y: Any, name: str | None = None) -> Any:
    """Element-wise ``x XOR y`` on bool tensors, as ``tf.math.logical_xor``."""
    return _bool_pair("LogicalXor", x, y, name)


def atan2(y: Any, x: Any, name: str | None = None) -> Any:
    """``atan(y / x)`` with quadrant, as ``tf.math.atan2``."""
    return _binary("Atan2", y, x, name)


def bitwise_and(x: Any, y: Any, name: str | None = None) -> Any:
    return _binary("BitwiseAnd", x, y, name)


# -- unary --------------------------------------------------------------------


def _tf_rsqrt(x: Any) -> Any:
    return jax.lax.rsqrt(x)


def _tf_reciprocal(x: Any) -> Any:
    return 1 / x


_UNARY = {
    "Neg": (jnp.negative, "Neg"),
    "Abs": (_tf_abs, "Abs"),
    "Sign": (jnp.sign, "Sign"),
    "Square": (jnp.square, "Square"),
    "Sqrt": (jnp.sqrt, "Sqrt"),
    "Rsqrt": (_tf_rsqrt, "Rsqrt"),
    "Exp": (jnp.exp, "Exp"),
    "Expm1": (jnp.expm1, "Expm1"),
    "Log": (jnp.log, "Log"),
    "Log1p": (jnp.log1p, "Log1p"),
    "Sin": (jnp.sin, "Sin"),
    "Cos": (jnp.cos, "Cos"),
    "Tan": (jnp.tan, "Tan"),
    "Tanh": (jnp.tanh, "Tanh"),
    "Sigmoid": (jax.nn.sigmoid, "Sigmoid"),
    "Floor": (jnp.floor, "Floor"),
    "Ceil": (jnp.ceil, "Ceil"),
    "Round": (jnp.round, "Round"),
    "Reciprocal": (_tf_reciprocal, "Reciprocal"),
    "LogicalNot": (jnp.logical_not, "LogicalNot"),
    "IsNan": (jnp.isnan, "IsNan"),
    "IsFinite": (jnp.isfinite, "IsFinite"),
    "IsInf": (jnp.isinf, "IsInf"),
    "Erf": (jax.scipy.special.erf, "Erf"),
}
for _t, (_f, _n) in _UNARY.items():
    register_op(_t, default_name=_n)(_f)


def _unary(op_type: str, x: Any, name: str | None) -> Any:
    return apply_op(op_type, (convert_to_tensor(x),), name=name)


def negative(x: Any, name: str | None = None) -> Any:
    """``-x``, as ``tf.math.negative``."""
    return _unary("Neg", x, name)


def abs(x: Any, name: str | None = None) -> Any:  # noqa: A001
    """``|x|``, as ``tf.math.abs``."""
    return _unary("Abs", x, name)


def sign(x: Any, name: str | None = None) -> Any:
    """-1, 0 or 1 by the sign of ``x``, as ``tf.math.sign``."""
    return _unary("Sign", x, name)


def square(x: Any, name: str | None = None) -> Any:
    """``x * x``, as ``tf.math.square``."""
    return _unary("Square", x, name)


def sqrt(x: Any, name: str | None = None) -> Any:
    """Square root, as ``tf.math.sqrt``."""
    return _unary("Sqrt", x, name)


def rsqrt(x: Any, name: str | None = None) -> Any:
    """``1 / sqrt(x)``, as ``tf.math.rsqrt``."""
    return _unary("Rsqrt", x, name)


def exp(x: Any, name: str | None = None) -> Any:
    """``e ** x``, as ``tf.math.exp``."""
    return _unary("Exp", x, name)


def expm1(x: Any, name: str | None = None) -> Any:
    """``e ** x - 1``, as ``tf.math.expm1``."""
    return _unary("Expm1", x, name)


def log(x: Any, name: str | None = None) -> Any:
    """Natural logarithm, as ``tf.math.log``."""
    return _unary("Log", x, name)


def log1p(x: Any, name: str | None = None) -> Any:
    """``log(1 + x)``, as ``tf.math.log1p``."""
    return _unary("Log1p", x, name)


def sin(x: Any, name: str | None = None) -> Any:
    """Sine (radians), as ``tf.math.sin``."""
    return _unary("Sin", x, name)


def cos(x: Any, name: str | None = None) -> Any:
    """Cosine (radians), as ``tf.math.cos``."""
    return _unary("Cos", x, name)


def tan(x: Any, name: str | None = None) -> Any:
    """Tangent (radians), as ``tf.math.tan``."""
    return _unary("Tan", x, name)


def tanh(x: Any, name: str | None = None) -> Any:
    """Hyperbolic tangent, as ``tf.math.tanh``."""
    return _unary("Tanh", x, name)


def sigmoid(x: Any, name: str | None = None) -> Any:
    """``1 / (1 + exp(-x))``, as ``tf.math.sigmoid``."""
    return _unary("Sigmoid", x, name)


def floor(x: Any, name: str | None = None) -> Any:
    """Largest integer not greater than ``x``, as ``tf.math.floor``."""
    return _unary("Floor", x, name)


def ceil(x: Any, name: str | None = None) -> Any:
    """Smallest integer not less than ``x``, as ``tf.math.ceil``."""
    return _unary("Ceil", x, name)


def round(x: Any, name: str | None = None) -> Any:  # noqa: A001
    """Round half to even, as ``tf.math.round``."""
    return _unary("Round", x, name)


def reciprocal(x: Any, name: str | None = None) -> Any:
    """``1 / x``, as ``tf.math.reciprocal``."""
    return _unary("Reciprocal", x, name)


def logical_not(x: Any, name: str | None = None) -> Any:
    """Element-wise NOT of a bool tensor, as ``tf.math.logical_not``."""
    return apply_op("LogicalNot", (convert_to_tensor(x, dtype=_dtypes.bool),), name=name)


def is_nan(x: Any, name: str | None = None) -> Any:
    return _unary("IsNan", x, name)


def is_finite(x: Any, name: str | None = None) -> Any:
    return _unary("IsFinite", x, name)


def is_inf(x: Any, name: str | None = None) -> Any:
    return _unary("IsInf", x, name)


def erf(x: Any, name: str | None = None) -> Any:
    return _unary("Erf", x, name)


# -- clipping, n-ary ----------------------------------------------------------


@register_op("ClipByValue", default_name="clip_by_value")
def _clip(x: Any, lo: Any, hi: Any) -> Any:
    return _tf_clip_float(x, lo, hi) if _is_real_float(x, lo, hi) else jnp.minimum(jnp.maximum(x, lo), hi)


def clip_by_value(t: Any, clip_value_min: Any, clip_value_max: Any, name: str | None = None) -> Any:
    """``min(max(t, lo), hi)``, as ``tf.clip_by_value``."""
    t = convert_to_tensor(t)
    d = dtype_of(t)
    lo = convert_to_tensor(clip_value_min, dtype=d)
    hi = convert_to_tensor(clip_value_max, dtype=d)
    return apply_op("ClipByValue", (t, lo, hi), name=name)


@register_op("AddN", default_name="AddN", tf=TFOp(to_tf=lambda a, s: ({"N": len(s)}, []), from_tf=lambda a, c: {}))
def _add_n(*xs: Any) -> Any:
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return out


def add_n(inputs: Sequence[Any], name: str | None = None) -> Any:
    """The element-wise sum of same-shape, same-dtype tensors, as ``tf.math.add_n``.

    Raises:
      ValueError: ``inputs`` is empty.
      TypeError: the dtypes differ.
    """
    if not inputs:
        raise ValueError("inputs must be a non-empty list of tensors.")
    xs = [convert_to_tensor(x) for x in inputs]
    d0 = dtype_of(xs[0])
    for x in xs[1:]:
        if dtype_of(x) != d0:
            raise TypeError(f"add_n: all inputs must have dtype {d0.name}, got {dtype_of(x).name}.")  # type: ignore[union-attr]
    if len(xs) == 1:
        return apply_op("Identity", (xs[0],), name=name)
    return apply_op("AddN", xs, name=name)


# -- matmul -------------------------------------------------------------------


@register_op("MatMul", default_name="MatMul")
def _matmul(a: Any, b: Any, *, transpose_a: bool = False, transpose_b: bool = False) -> Any:
    if transpose_a:
        a = jnp.swapaxes(a, -1, -2)
    if transpose_b:
        b = jnp.swapaxes(b, -1, -2)
    return jnp.matmul(a, b)


def matmul(
    a: Any,
    b: Any,
    transpose_a: bool = False,
    transpose_b: bool = False,
    adjoint_a: bool = False,
    adjoint_b: bool = False,
    a_is_sparse: bool = False,
    b_is_sparse: bool = False,
    name: str | None = None,
) -> Any:
    """Matrix product ``a @ b`` (batched over leading dims), as ``tf.linalg.matmul``.

    Args:
      a: ``[..., M, K]`` (or ``[..., K, M]`` with ``transpose_a``).
      b: ``[..., K, N]`` (or ``[..., N, K]`` with ``transpose_b``).

    Raises:
      ValueError: inner dimensions differ (names the node and the shapes).
      TypeError: the dtypes differ.
    """
    a, b = _pair("MatMul", a, b)
    return apply_op(
        "MatMul",
        (a, b),
        {"transpose_a": bool(transpose_a or adjoint_a), "transpose_b": bool(transpose_b or adjoint_b)},
        name=name,
    )


# -- reductions ---------------------------------------------------------------


def _axis_attr(axis: Any, reduction_indices: Any = None) -> tuple[int, ...] | None:
    if axis is None:
        axis = reduction_indices
    if axis is None:
        return None
    val = constant_value(axis) if not isinstance(axis, int | list | tuple) else np.asarray(axis)
    if val is None:
        raise ValueError(
            "jaxsess needs reduction axes known when the graph is built (a Python int/list or a "
            f"constant tensor); got {axis!r}."
        )
    return tuple(int(a) for a in np.atleast_1d(val))


def _reducer(fn: Any, int_mean: bool = False) -> Any:
    def impl(x: Any, *, axis: tuple[int, ...] | None = None, keepdims: bool = False) -> Any:
        if int_mean and jnp.issubdtype(x.dtype, jnp.integer):
            n = np.prod([x.shape[a] for a in axis]) if axis is not None else x.size
            return jnp.trunc(jnp.sum(x, axis=axis, keepdims=keepdims) / max(int(n), 1)).astype(x.dtype)
        if x.size == 0 and fn in _EMPTY_IDENTITY:  # TF: the identity (jnp raises for max/min)
            return fn(x, axis=axis, keepdims=keepdims, initial=_EMPTY_IDENTITY[fn](x.dtype))
        return fn(x, axis=axis, keepdims=keepdims)

    return impl


def _lowest(dtype: Any) -> Any:
    return -np.inf if jnp.issubdtype(dtype, jnp.inexact) else jnp.iinfo(dtype).min


def _highest(dtype: Any) -> Any:
    return np.inf if jnp.issubdtype(dtype, jnp.inexact) else jnp.iinfo(dtype).max


# Reductions over no elements: TF's Max gives the lowest value of the dtype (-inf for floats),
# Min the highest, as its kernels start from those.
_EMPTY_IDENTITY = {jnp.max: _lowest, jnp.min: _highest}


def _reduce_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    axis = a.get("axis")
    if axis is None:
        rank = specs[0][0].ndims
        if rank is None:
            raise ValueError("all axes of a tensor of unknown rank")
        axis = tuple(range(rank))
    return {"keep_dims": bool(a.get("keepdims", False))}, [np.asarray(axis, np.int32)]


def _reduce_from_tf(a: dict[str, Any], consts: list[np.ndarray]) -> dict[str, Any]:
    return {"axis": tuple(int(i) for i in np.ravel(consts[0])), "keepdims": bool(a.get("keep_dims", False))}


# TF: Sum(input, reduction_indices) with keep_dims
_REDUCE_TF = TFOp(types={"T": 0, "Tidx": 1}, to_tf=_reduce_to_tf, from_tf=_reduce_from_tf, n_const=1)

for _t, _f, _mean in [
    ("Sum", jnp.sum, False),
    ("Mean", jnp.mean, True),
    ("Max", jnp.max, False),
    ("Min", jnp.min, False),
    ("Prod", jnp.prod, False),
    ("Any", jnp.any, False),
    ("All", jnp.all, False),
    ("ReduceLogSumExp", jax.scipy.special.logsumexp, False),
]:
    register_op(_t, default_name=_t, tf=_REDUCE_TF)(_reducer(_f, _mean))


def _tf_reduction_dims_names(x: Any) -> None:
    """The nodes TF's ``_ReductionDims`` adds, outside any scope, for a reduction over all axes of
    tensor ``x``: a ``Const`` of the axes (known rank > 0), else ``Rank`` and ``range`` (their
    names are taken, so later ``tf.constant`` are named ``Const_1``... as in TF)."""
    rank = x.shape.ndims
    if rank:
        apply_op("Const", (), {"value": np.arange(rank, dtype=np.int32)}, name="Const")
    else:
        graph = x.graph
        graph.unique_name("Rank")
        graph.unique_name("range")


def _reduce(op_type: str, x: Any, axis: Any, keepdims: Any, name: Any, reduction_indices: Any, keep_dims: Any, dtype: Any = None) -> Any:
    if axis is None and reduction_indices is None and isinstance(x, Tensor):
        _tf_reduction_dims_names(x)
    x = convert_to_tensor(x, dtype=dtype)
    if keepdims is None:
        keepdims = bool(keep_dims)
    return apply_op(op_type, (x,), {"axis": _axis_attr(axis, reduction_indices), "keepdims": bool(keepdims)}, name=name)


def reduce_sum(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: str | None = None,
               reduction_indices: Any = None, keep_dims: Any = None) -> Any:
    """Sum over ``axis`` (all axes when ``None``), as ``tf.compat.v1.reduce_sum``.

    Args:
      axis: int, list of ints, or a constant tensor; negative counts from the end.
      keepdims: keep reduced dimensions with length 1.
    """
    return _reduce("Sum", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_mean(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: str | None = None,
                reduction_indices: Any = None, keep_dims: Any = None) -> Any:
    """Mean over ``axis``; integer inputs give truncated integer means, as TF1."""
    return _reduce("Mean", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_max(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: str | None = None,
               reduction_indices: Any = None, keep_dims: Any = None) -> Any:
    """Maximum over ``axis``, as ``tf.compat.v1.reduce_max``."""
    return _reduce("Max", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_min(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: str | None = None,
               reduction_indices: Any = None, keep_dims: Any = None) -> Any:
    """Minimum over ``axis``, as ``tf.compat.v1.reduce_min``."""
    return _reduce("Min", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_prod(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: str | None = None,
                reduction_indices: Any = None, keep_dims: Any = None) -> Any:
    """Product over ``axis``, as ``tf.compat.v1.reduce_prod``."""
    return _reduce("Prod", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_any(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: str | None = None,
               reduction_indices: Any = None, keep_dims: Any = None) -> Any:
    """Logical OR over ``axis`` of a bool tensor, as ``tf.compat.v1.reduce_any``."""
    return _reduce("Any", input_tensor, axis, keepdims, name, reduction_indices, keep_dims, _dtypes.bool)


def reduce_all(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: str | None = None,
               reduction_indices: Any = None, keep_dims: Any = None) -> Any:
    """Logical AND over ``axis`` of a bool tensor, as ``tf.compat.v1.reduce_all``."""
    return _reduce("All", input_tensor, axis, keepdims, name, reduction_indices, keep_dims, _dtypes.bool)


def reduce_logsumexp(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: str | None = None,
                     reduction_indices: Any = None, keep_dims: Any = None) -> Any:
    """``log(sum(exp(x)))`` over ``axis``, computed stably."""
    return _reduce("ReduceLogSumExp", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


@register_op("CountNonzero", default_name="count_nonzero")
def _count_nonzero(x: Any, *, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Any:
    return jnp.sum(x != 0, axis=axis, keepdims=keepdims).astype(dtype.np_dtype)


def count_nonzero(input_tensor: Any, axis: Any = None, keepdims: Any = None, dtype: Any = _dtypes.int64,
                  name: str | None = None, reduction_indices: Any = None, keep_dims: Any = None) -> Any:
    x = convert_to_tensor(input_tensor)
    keepdims = bool(keep_dims) if keepdims is None else bool(keepdims)
    return apply_op("CountNonzero", (x,), {"axis": _axis_attr(axis, reduction_indices), "keepdims": keepdims,
                                             "dtype": _dtypes.canonical(dtype)}, name=name)


def _arg_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    return {"output_type": a["output_type"]}, [np.asarray(a["axis"], np.int32)]


def _arg_from_tf(a: dict[str, Any], consts: list[np.ndarray]) -> dict[str, Any]:
    return {"axis": int(consts[0]), "output_type": a.get("output_type", _dtypes.int64)}


_ARG_TF = TFOp(types={"T": 0, "Tidx": 1}, to_tf=_arg_to_tf, from_tf=_arg_from_tf, n_const=1)


def _tf_arg_reduce(x: Any, axis: int, largest: bool) -> Any:
    """The index TF's CPU ``ArgMax``/``ArgMin`` kernels give (Eigen's tuple reducer): start
    from ``(0, lowest())`` (``highest()`` for the minimum) and take an element only when it is
    strictly greater (smaller), the first on ties. So NaN is never taken, and a slice with no
    element beyond ``lowest()`` (all NaN, all ``-inf``) gives 0 (recorded from TF 2.21:
    ``tests/tf1_corpus/programs/v33_argmax_nan.py``); XLA's argmax would take the NaN."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return jnp.argmax(x, axis=axis) if largest else jnp.argmin(x, axis=axis)
    info = jnp.finfo(x.dtype)
    if largest:
        valid = x > info.min  # False for NaN
        idx = jnp.argmax(jnp.where(valid, x, -jnp.inf), axis=axis)
    else:
        valid = x < info.max
        idx = jnp.argmin(jnp.where(valid, x, jnp.inf), axis=axis)
    return jnp.where(jnp.any(valid, axis=axis), idx, 0)


@register_op("ArgMax", default_name="ArgMax", tf=_ARG_TF)
def _argmax(x: Any, *, axis: int, output_type: _dtypes.DType) -> Any:
    return _tf_arg_reduce(x, axis, True).astype(output_type.np_dtype)


@register_op("ArgMin", default_name="ArgMin", tf=_ARG_TF)
def _argmin(x: Any, *, axis: int, output_type: _dtypes.DType) -> Any:
    return _tf_arg_reduce(x, axis, False).astype(output_type.np_dtype)


def _arg(op_type: str, input: Any, axis: Any, name: Any, dimension: Any, output_type: Any) -> Any:
    if axis is None:
        axis = dimension
    ax = 0 if axis is None else _axis_attr(axis)
    if isinstance(ax, tuple):
        if len(ax) != 1:
            raise ValueError(f"{op_type} takes a single axis, got {ax}.")
        ax = ax[0]
    x = convert_to_tensor(input)
    rank = x.ndim if isinstance(x, jax.Array) else x.shape.ndims
    if rank is not None and not -max(rank, 1) <= int(ax or 0) < max(rank, 1):
        raise ValueError(f"{op_type}: axis {ax} is out of range for an input of rank {rank}.")
    return apply_op(op_type, (x,), {"axis": int(ax or 0), "output_type": _dtypes.canonical(output_type)}, name=name)


def argmax(input: Any, axis: Any = None, name: str | None = None, dimension: Any = None,
           output_type: Any = _dtypes.int64) -> Any:
    """Index of the largest value along ``axis`` (default 0), as ``tf.compat.v1.argmax``.

    ``output_type`` defaults to int64 as TF (int32 unless ``jax_enable_x64``).
    """
    return _arg("ArgMax", input, axis, name, dimension, output_type)


def argmin(input: Any, axis: Any = None, name: str | None = None, dimension: Any = None,
           output_type: Any = _dtypes.int64) -> Any:
    """Index of the smallest value along ``axis`` (default 0), as ``tf.compat.v1.argmin``."""
    return _arg("ArgMin", input, axis, name, dimension, output_type)


def arg_max(input: Any, dimension: Any, output_type: Any = _dtypes.int64, name: str | None = None) -> Any:
    """Index of the largest value along ``dimension``, as TF1's ``tf.arg_max``
    (``argmax`` with a required ``dimension``)."""
    return _arg("ArgMax", input, dimension, name, None, output_type)


def arg_min(input: Any, dimension: Any, output_type: Any = _dtypes.int64, name: str | None = None) -> Any:
    """Index of the smallest value along ``dimension``, as TF1's ``tf.arg_min``."""
    return _arg("ArgMin", input, dimension, name, None, output_type)


# -- where, cast, cumsum ----------------------------------------------------------


@register_op("SelectV2", default_name="Select", tf=TFOp(types={"T": 1}))
def _select(c: Any, x: Any, y: Any) -> Any:
    return jnp.where(c, x, y)


def where(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Any:
    """Elements of ``x`` where ``condition`` else of ``y`` (broadcasting), as ``tf.where``.

    With ``condition`` only: the int64 ``[num_true, rank]`` coordinates of its
    true (non-zero) elements in row-major order (op ``Where``), of static
    shape ``[?, rank]`` as TF. Their number shapes the result, so unless the
    condition is known when the graph is built, ``Where`` is a host op (as
    ``tf.py_func``: the condition is computed by a device run of its own,
    then the rest of the plan compiles once per number of indices).

    Raises:
      NotImplementedError: the one-argument form with a condition that
        depends on a variable assignment.
      ValueError: only one of ``x`` and ``y`` given.
    """
    if x is None and y is None:
        return _where_indices(condition, name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    c = convert_to_tensor(condition, dtype=_dtypes.bool)
    x, y = _pair("SelectV2", x, y)
    xr = x.shape.ndims if isinstance(x, Tensor) else jnp.ndim(x)
    cr = c.shape.ndims if isinstance(c, Tensor) else jnp.ndim(c)
    if cr == 1 and xr is not None and xr > 1:
        # TF1's where (Select): a vector condition picks whole rows of x and y
        return apply_op("Select", (c, x, y), name=name)
    return apply_op("SelectV2", (c, x, y), name=name)


def _where_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(TensorShape([None, TensorShape(specs[0][0]).ndims]), _dtypes.int64)]


@register_op("Where", infer=_where_infer, lowering=device_lowering, default_name="Where",
             tf=TFOp(types={"T": 0}))
def _where_device(condition: Any) -> Any:
    raise AssertionError("Where runs on the host")  # pragma: no cover


@register_host("Where", always=True, infer=_where_infer)
def _host_where(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.argwhere(np.asarray(inputs[0])).astype(np.int64),)


def _where_indices(condition: Any, name: str | None) -> Any:
    """``tf.where(condition)``: a constant when the condition is known, else the host op."""
    if executing_eagerly():
        return jnp.asarray(np.argwhere(np.asarray(convert_to_tensor(condition))).astype(np.int64))
    c = convert_to_tensor(condition, name="condition")
    known = constant_value(c)
    if known is not None:
        return constant(np.argwhere(known).astype(np.int64), name=name or "Where")
    if c.shape.ndims is None:
        raise ValueError(f"where: the rank of the condition '{c.name}' must be known.")
    require_no_assign_before([c], "tf.where(condition)")
    return apply_op("Where", (c,), name=name)


@register_op("Select", default_name="Select", tf=TFOp(types={"T": 1}))
def _select_rows(c: Any, x: Any, y: Any) -> Any:
    """TF1's ``Select`` with a vector condition: ``c[i]`` picks row ``i`` of ``x`` or ``y``."""
    if c.shape[0] != x.shape[0]:
        raise ValueError(f"The condition has {c.shape[0]} elements but x has {x.shape[0]} rows.")
    return jnp.where(c.reshape(c.shape + (1,) * (x.ndim - 1)), x, y)


def where_v2(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Any:
    """Elements of ``x`` where ``condition`` else of ``y``, all three broadcast
    together, as ``tf.where_v2`` (TF 2's ``tf.where``).

    Raises:
      NotImplementedError: the one-argument form (see :func:`where`) after an assignment.
      ValueError: only one of ``x`` and ``y`` given.
    """
    if x is None and y is None:
        return where(condition, x, y, name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    c = convert_to_tensor(condition, dtype=_dtypes.bool)
    x, y = _pair("SelectV2", x, y)
    return apply_op("SelectV2", (c, x, y), name=name)


@register_op("Cast", default_name="Cast", tf=TFOp(types={"SrcT": 0}))
def _cast(x: Any, *, DstT: _dtypes.DType) -> Any:
    dst = np.dtype(DstT.np_dtype)
    if dst.kind in "iu" and dst.itemsize < 4 and jnp.issubdtype(x.dtype, jnp.floating):
        # TF's CPU kernel truncates to a 32-bit integer, then wraps to the narrow type
        # (uint8(-1.0) == 255, uint8(256.0) == 0); XLA's convert would saturate.
        return x.astype(np.int32).astype(dst)
    return x.astype(dst)


def cast(x: Any, dtype: Any, name: str | None = None) -> Any:
    """``x`` converted to ``dtype`` (floats truncate toward zero), as ``tf.cast``;
    a ``SparseTensor`` gives one with its values cast."""
    if isinstance(getattr(x, "indices", None), Tensor) and hasattr(x, "dense_shape"):
        # a SparseTensor (sparse_tensor.py sits above this module): same indices, values cast, as TF
        return type(x)(x.indices, cast(x.values, dtype, name=name), x.dense_shape)
    x = convert_to_tensor(x)
    return apply_op("Cast", (x,), {"DstT": _dtypes.canonical(dtype)}, name=name)


def to_float(x: Any, name: str = "ToFloat") -> Any:
    return cast(x, _dtypes.float32, name=name)


def to_int32(x: Any, name: str = "ToInt32") -> Any:
    return cast(x, _dtypes.int32, name=name)


def _cum(fn: Any, identity: Any) -> Any:
    def impl(x: Any, *, axis: int, exclusive: bool, reverse: bool) -> Any:
        if reverse:
            x = jnp.flip(x, axis)
        if exclusive:
            n = x.shape[axis]
            first = jnp.full_like(jax.lax.slice_in_dim(x, 0, 1, axis=axis), identity)
            x = jnp.concatenate([first, jax.lax.slice_in_dim(x, 0, max(n - 1, 0), axis=axis)], axis)
        out = fn(x, axis=axis)
        if reverse:
            out = jnp.flip(out, axis)
        return out

    return impl


register_op("Cumsum", default_name="Cumsum")(_cum(jnp.cumsum, 0))
register_op("Cumprod", default_name="Cumprod")(_cum(jnp.cumprod, 1))


def cumsum(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: str | None = None) -> Any:
    """Cumulative sum along ``axis``, as ``tf.math.cumsum`` (``exclusive``, ``reverse``)."""
    ax = _axis_attr(axis)
    return apply_op("Cumsum", (convert_to_tensor(x),),
                    {"axis": ax[0] if ax else 0, "exclusive": bool(exclusive), "reverse": bool(reverse)}, name=name)


def cumprod(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: str | None = None) -> Any:
    """Cumulative product along ``axis``, as ``tf.math.cumprod``."""
    ax = _axis_attr(axis)
    return apply_op("Cumprod", (convert_to_tensor(x),),
                    {"axis": ax[0] if ax else 0, "exclusive": bool(exclusive), "reverse": bool(reverse)}, name=name)


def sparse_matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, a_is_sparse: bool = False,
                  b_is_sparse: bool = False, name: str | None = None) -> Any:
    """``matmul(a, b)`` of 2-D float32/bfloat16 matrices, as ``tf.compat.v1.sparse_matmul`` (the
    sparsity hints change nothing under XLA). Raises as :func:`matmul`."""
    return matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b, name=name)
