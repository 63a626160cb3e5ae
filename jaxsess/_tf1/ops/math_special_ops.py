"""Element-wise math and bit ops TF1 tutorials reach for, as ``tf.compat.v1`` /
``tf.math`` / ``tf.math.special`` / ``tf.bitwise`` / ``tf.dtypes``:
``truncatediv``, ``truncatemod``, ``saturate_cast``, ``to_complex64``/``128``,
``bitcast``, ``bessel_i0``/``i1``, ``erfcinv``, ``nextafter``, ``xlog1py``,
``special.dawsn``/``expint``/``fresnel_cos``/``fresnel_sin``/``spence``,
``bitwise_or``/``xor``/``invert``/``left_shift``/``right_shift``,
``unsorted_segment_sqrt_n``, ``log_sigmoid``, ``reduce_euclidean_norm``,
``xlogy``, ``xdivy``, ``multiply_no_nan``, ``cumulative_logsumexp``,
``polyval``, ``reciprocal_no_nan``, ``is_non_decreasing``/``is_strictly_increasing``,
and the special functions ``lbeta``, ``igamma``/``igammac``, ``betainc``,
``zeta``, ``polygamma``, ``bessel_i0e``/``i1e``, ``erfinv`` and ``ndtri``.

Each is TF's op (same type and default name) where TF has one, else written
with existing ops under TF's name scope. Gradients are JAX's. Shifts by a
negative amount or by at least the bit width give XLA's result (0, or -1 for
negative values shifted right), where TF says "implementation defined".
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import (
    array_ops as array_ops,
    math_ops as math_ops,
    segment_ops as segment_ops,
    spectral_ops as spectral_ops,
)
from jaxsess._tf1.ops._args import label, op_scope, static_int, tensor_dtype
from jaxsess._tf1.ops.linalg_ops import lgamma
from jaxsess._tf1.ops.math_ops import _REDUCE_TF, _reduce, _reducer

__all__ = [
    "truncatediv", "truncatemod", "saturate_cast", "to_complex64", "to_complex128", "bitcast",
    "bessel_i0", "bessel_i1", "erfcinv", "nextafter", "xlog1py", "dawsn", "expint", "fresnel_cos",
    "fresnel_sin", "spence", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift",
    "unsorted_segment_sqrt_n", "log_sigmoid", "reduce_euclidean_norm", "xlogy", "xdivy", "multiply_no_nan",
    "cumulative_logsumexp", "polyval", "reciprocal_no_nan", "is_non_decreasing", "is_strictly_increasing",
    "lbeta", "igamma", "igammac", "betainc", "zeta", "polygamma", "bessel_i0e", "bessel_i1e", "erfinv", "ndtri",
]


def _truncate_div(x: Any, y: Any) -> Any:
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jax.lax.div(x, y)  # C division: rounds toward zero
    return jnp.trunc(x / y)


register_op("TruncateDiv", default_name="TruncateDiv")(_truncate_div)
register_op("TruncateMod", default_name="TruncateMod")(jax.lax.rem)  # C fmod: the sign of x
register_op("BitwiseOr", default_name="BitwiseOr")(jnp.bitwise_or)
register_op("BitwiseXor", default_name="BitwiseXor")(jnp.bitwise_xor)
register_op("LeftShift", default_name="LeftShift")(jnp.left_shift)
register_op("RightShift", default_name="RightShift")(jnp.right_shift)
register_op("Invert", default_name="Invert")(jnp.invert)
register_op("BesselI0", default_name="BesselI0")(jax.scipy.special.i0)
register_op("BesselI1", default_name="BesselI1")(jax.scipy.special.i1)
register_op("NextAfter", default_name="NextAfter")(jnp.nextafter)
register_op("Xlog1py", default_name="Xlog1py")(
    lambda x, y: jnp.where(x == 0, jnp.zeros_like(x), jax.scipy.special.xlog1py(x, y)))
register_op("Dawsn", default_name="Dawsn")(jax.scipy.special.dawsn)
register_op("Expint", default_name="Expint")(jax.scipy.special.expi)
register_op("FresnelSin", default_name="FresnelSin")(lambda x: jax.scipy.special.fresnel(x)[0])
register_op("FresnelCos", default_name="FresnelCos")(lambda x: jax.scipy.special.fresnel(x)[1])
register_op("Spence", default_name="Spence")(jax.scipy.special.spence)


def _typed_binary(op_type: str, x: Any, y: Any, name: str | None, kinds: str) -> Any:
    a, b = math_ops._pair(op_type, x, y)
    d = tensor_dtype(a)
    ok = (("i" in kinds and d.is_integer) or ("f" in kinds and d.is_floating))
    if not ok:
        raise TypeError(f"Value passed to parameter 'x' of '{op_type}' has DataType {d.name} not in the "
                        f"list of allowed values ({'integers' if kinds == 'i' else 'floats'}): {label(a)}.")
    return apply_op(op_type, (a, b), name=name)


def truncatediv(x: Any, y: Any, name: str | None = None) -> Any:
    """``x / y`` rounded toward zero (C division), as ``tf.truncatediv`` (TF op ``TruncateDiv``).

    Raises:
      TypeError: ``x`` and ``y`` have different dtypes.
    """
    return _typed_binary("TruncateDiv", x, y, name, "if")


def truncatemod(x: Any, y: Any, name: str | None = None) -> Any:
    """The remainder of :func:`truncatediv` (sign of ``x``, as C's ``fmod``), as ``tf.truncatemod``."""
    return _typed_binary("TruncateMod", x, y, name, "if")


def _unary_of(op_type: str, fn: str, x: Any, name: str | None, floats: tuple[_dtypes.DType, ...]) -> Any:
    t = convert_to_tensor(x)
    d = tensor_dtype(t)
    if d not in floats:
        raise TypeError(f"{fn}: expected a tensor of {'/'.join(f.name for f in floats)}, got {d.name} "
                        f"({label(t)}).")
    return apply_op(op_type, (t,), name=name)


_FLOATS = (_dtypes.float16, _dtypes.bfloat16, _dtypes.float32, _dtypes.float64)
_F32_64 = (_dtypes.float32, _dtypes.float64)


def bessel_i0(x: Any, name: str | None = None) -> Any:
    """The modified Bessel function of the first kind of order 0, as ``tf.math.bessel_i0`` (floats)."""
    return _unary_of("BesselI0", "bessel_i0", x, name, _FLOATS)


def bessel_i1(x: Any, name: str | None = None) -> Any:
    """The modified Bessel function of the first kind of order 1, as ``tf.math.bessel_i1`` (floats)."""
    return _unary_of("BesselI1", "bessel_i1", x, name, _FLOATS)


def dawsn(x: Any, name: str | None = None) -> Any:
    """Dawson's integral, as ``tf.math.special.dawsn`` (float32/float64)."""
    return _unary_of("Dawsn", "dawsn", x, name, _F32_64)


def expint(x: Any, name: str | None = None) -> Any:
    """The exponential integral ``Ei(x)``, as ``tf.math.special.expint`` (float32/float64)."""
    return _unary_of("Expint", "expint", x, name, _F32_64)


def fresnel_cos(x: Any, name: str | None = None) -> Any:
    """The Fresnel cosine integral ``C(x)``, as ``tf.math.special.fresnel_cos`` (float32/float64)."""
    return _unary_of("FresnelCos", "fresnel_cos", x, name, _F32_64)


def fresnel_sin(x: Any, name: str | None = None) -> Any:
    """The Fresnel sine integral ``S(x)``, as ``tf.math.special.fresnel_sin`` (float32/float64)."""
    return _unary_of("FresnelSin", "fresnel_sin", x, name, _F32_64)


def spence(x: Any, name: str | None = None) -> Any:
    """Spence's function (the dilogarithm ``Li2(1 - x)``), as ``tf.math.special.spence`` (float32/float64)."""
    return _unary_of("Spence", "spence", x, name, _F32_64)


def erfcinv(x: Any, name: str | None = None) -> Any:
    """The inverse of ``erfc`` on ``(0, 2)``: ``-ndtri(x / 2) / sqrt(2)``, as ``tf.math.erfcinv``."""
    with op_scope(name, "erfcinv", [x]):
        t = convert_to_tensor(x, name="x")
        return -ndtri(0.5 * t) * np.sqrt(0.5).astype(tensor_dtype(t).np_dtype)


def nextafter(x1: Any, x2: Any, name: str | None = None) -> Any:
    """The next representable value after ``x1`` toward ``x2``, as ``tf.math.nextafter`` (float32/64)."""
    return _typed_binary("NextAfter", x1, x2, name, "f")


def xlog1py(x: Any, y: Any, name: str | None = None) -> Any:
    """``x * log1p(y)``, 0 where ``x == 0``, as ``tf.math.xlog1py`` (floats)."""
    with op_scope(name, "xlog1py", [x]) as scope:
        return _typed_binary("Xlog1py", x, y, scope, "f")


def bitwise_or(x: Any, y: Any, name: str | None = None) -> Any:
    """``x | y`` of integers, as ``tf.bitwise.bitwise_or``."""
    return _typed_binary("BitwiseOr", x, y, name, "i")


def bitwise_xor(x: Any, y: Any, name: str | None = None) -> Any:
    """``x ^ y`` of integers, as ``tf.bitwise.bitwise_xor``."""
    return _typed_binary("BitwiseXor", x, y, name, "i")


def left_shift(x: Any, y: Any, name: str | None = None) -> Any:
    """``x << y`` of integers, as ``tf.bitwise.left_shift``."""
    return _typed_binary("LeftShift", x, y, name, "i")


def right_shift(x: Any, y: Any, name: str | None = None) -> Any:
    """``x >> y`` of integers (arithmetic for signed types), as ``tf.bitwise.right_shift``."""
    return _typed_binary("RightShift", x, y, name, "i")


def invert(x: Any, name: str | None = None) -> Any:
    """``~x`` (every bit flipped) of an integer tensor, as ``tf.bitwise.invert``.

    Raises:
      TypeError: a non-integer tensor.
    """
    t = convert_to_tensor(x)
    if not tensor_dtype(t).is_integer:
        raise TypeError(f"Value passed to parameter 'x' of 'Invert' has DataType {tensor_dtype(t).name} not in "
                        f"the list of allowed values (integers): {label(t)}.")
    return apply_op("Invert", (t,), name=name)


def to_complex64(x: Any, name: str = "ToComplex64") -> Any:
    """``x`` cast to ``complex64``, as ``tf.compat.v1.to_complex64`` (deprecated in TF)."""
    return math_ops.cast(x, _dtypes.complex64, name=name)


def to_complex128(x: Any, name: str = "ToComplex128") -> Any:
    """``x`` cast to ``complex128``, as ``tf.compat.v1.to_complex128`` (deprecated in TF)."""
    return math_ops.cast(x, _dtypes.complex128, name=name)


def saturate_cast(value: Any, dtype: Any, name: str | None = None) -> Any:
    """``value`` clipped to ``dtype``'s range, then cast, as ``tf.dtypes.saturate_cast``.

    Complex to real takes the real part first; NaN cast to an integer gives
    XLA's result (0). Op names follow TF's ``saturate_cast`` scope.
    """
    with op_scope(name, "saturate_cast", [value]) as scope:
        t = convert_to_tensor(value, name="value")
        want = _dtypes.as_dtype(dtype)
        src = tensor_dtype(t)
        if src.is_complex and not want.is_complex:
            t = spectral_ops.real(t)
            src = tensor_dtype(t)
        if src != want and not src.is_bool and not want.is_bool:
            lo, hi = _limits(want)
            slo, shi = _limits(src)
            if lo > slo:
                t = math_ops.maximum(t, _in_range(lo, src, up=True))
            if hi < shi:
                t = math_ops.minimum(t, _in_range(hi, src, up=False))
        return math_ops.cast(t, want, name=scope)


def _limits(d: _dtypes.DType) -> tuple[float, float]:
    if d.is_integer:
        info = np.iinfo(d.np_dtype)
        return float(info.min), float(info.max)
    if d.is_complex:
        d = _dtypes.float32 if d == _dtypes.complex64 else _dtypes.float64
    info_f = np.finfo(d.np_dtype if d != _dtypes.bfloat16 else np.float32)
    return float(info_f.min), float(info_f.max)


def _in_range(bound: float, src: _dtypes.DType, up: bool) -> np.ndarray:
    """``bound`` in ``src``'s dtype, rounded so that casting it back stays inside the target range."""
    if src.is_integer:
        return np.asarray(int(bound), src.np_dtype)
    v = np.asarray(bound, src.np_dtype if src != _dtypes.bfloat16 else np.float32)
    if (float(v) < bound) if up else (float(v) > bound):
        v = np.nextafter(v, np.asarray(0, v.dtype))
    return v.astype(src.np_dtype)


@register_op("Bitcast", default_name="Bitcast")
def _bitcast(x: Any, *, type: _dtypes.DType) -> Any:  # noqa: A002
    return jax.lax.bitcast_convert_type(x, type.np_dtype)


def bitcast(input: Any, type: Any, name: str | None = None) -> Any:  # noqa: A002
    """The bits of ``input`` read as ``type``, as ``tf.bitcast``: a wider input gains a last
    dimension of ``in_bytes // out_bytes``; a narrower one must end in that many elements,
    which the result drops.

    Raises:
      ValueError: the last dimension does not match a narrower input's ratio.
    """
    t = convert_to_tensor(input)
    want = _dtypes.as_dtype(type)
    src = tensor_dtype(t)
    n_in, n_out = np.dtype(src.np_dtype).itemsize, np.dtype(want.np_dtype).itemsize
    if n_in < n_out:
        ts = TensorShape(t.shape)
        dims = ts.as_list() if ts.dims is not None else None
        if dims is not None and (not dims or dims[-1] not in (None, n_out // n_in)):
            raise ValueError(f"Cannot bitcast from {src.name} to {want.name}: the last dimension of "
                             f"{label(t)} must be {n_out // n_in}, got shape {dims}.")
    return apply_op("Bitcast", (t,), {"type": want}, name=name)


def unsorted_segment_sqrt_n(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Any:
    """The sum per segment divided by ``sqrt(count)`` (``count`` at least 1, so empty segments
    are 0), as ``tf.math.unsorted_segment_sqrt_n`` (float data). See
    :func:`jaxsess._tf1.ops.segment_ops.unsorted_segment_sum` for shapes.
    """
    with op_scope(name, "UnsortedSegmentSqrtN", [data, segment_ids, num_segments]):
        x = convert_to_tensor(data, name="data")
        if not tensor_dtype(x).is_floating:
            raise TypeError(f"unsorted_segment_sqrt_n: expected float data, got {tensor_dtype(x).name} "
                            f"({label(x)}).")
        count = segment_ops.unsorted_segment_sum(array_ops.ones_like(x), segment_ids, num_segments)
        total = segment_ops.unsorted_segment_sum(x, segment_ids, num_segments)
        return math_ops.truediv(total, math_ops.sqrt(math_ops.maximum(count, 1)))


def _sparse_segment(kind: str, data: Any, indices: Any, segment_ids: Any, name: str | None,
                    num_segments: Any) -> Any:
    op = {"sum": "SparseSegmentSum", "mean": "SparseSegmentMean", "sqrt_n": "SparseSegmentSqrtN"}[kind]
    with op_scope(name, op, [data, indices, segment_ids]):
        rows = array_ops.gather(convert_to_tensor(data, name="data"), indices)
        if num_segments is None:  # as the sorted segment ops: max(segment_ids) + 1 rows, known when built
            ids = segment_ops._ids_check(segment_ids, op)
            val = segment_ops._known(ids)
            if val is None:
                raise segment_ops.DataDependentShapeError(
                    op, ids, f"Pass num_segments to tf.sparse.segment_{kind}, known when the graph is built.")
            flat = np.ravel(val)
            if flat.size and (np.any(flat < 0) or np.any(np.diff(flat) < 0)):
                raise ValueError(f"{op}: segment ids must be sorted and non-negative, got {flat.tolist()!r:.200}.")
            num_segments = int(flat.max()) + 1 if flat.size else 0
            given = False
        else:
            given = True
        if kind == "sum":
            out = segment_ops.unsorted_segment_sum(rows, segment_ids, num_segments)
        elif kind == "mean":
            out = segment_ops.unsorted_segment_mean(rows, segment_ids, num_segments)
        else:
            out = unsorted_segment_sqrt_n(rows, segment_ids, num_segments)
        if not given and out.shape.ndims:  # TF's static shape: the segment count is known only when run
            out._shape = TensorShape([None, *out.shape.as_list()[1:]])
        return out


def sparse_segment_sum(data: Any, indices: Any, segment_ids: Any, name: str | None = None,
                       num_segments: Any = None) -> Any:
    """``segment_sum(gather(data, indices), segment_ids)``, as
    ``tf.sparse.segment_sum`` (``tf.compat.v1.sparse_segment_sum``): ``[segments, *data.shape[1:]]``,
    ``segments`` = ``num_segments`` or ``max(segment_ids) + 1`` (then ids known when built, sorted).

    Raises:
      DataDependentShapeError: no ``num_segments`` and ids fed or computed.
      ValueError: ids known when built that are unsorted or negative.
    """
    return _sparse_segment("sum", data, indices, segment_ids, name, num_segments)


def sparse_segment_mean(data: Any, indices: Any, segment_ids: Any, name: str | None = None,
                        num_segments: Any = None) -> Any:
    """The mean of the gathered rows per segment (empty segments 0), as
    ``tf.sparse.segment_mean``; shapes and errors as :func:`sparse_segment_sum`."""
    return _sparse_segment("mean", data, indices, segment_ids, name, num_segments)


def sparse_segment_sqrt_n(data: Any, indices: Any, segment_ids: Any, name: str | None = None,
                          num_segments: Any = None) -> Any:
    """The sum of the gathered rows per segment over ``sqrt(count)``, as
    ``tf.sparse.segment_sqrt_n``; shapes and errors as :func:`sparse_segment_sum`."""
    return _sparse_segment("sqrt_n", data, indices, segment_ids, name, num_segments)


@register_op("LogSigmoid", default_name="LogSigmoid")
def _log_sigmoid(x: Any) -> Any:
    return -jax.nn.softplus(-x)


def log_sigmoid(x: Any, name: str | None = None) -> Any:
    """``log(1 / (1 + exp(-x)))`` computed stably, as ``tf.math.log_sigmoid`` (float input)."""
    return apply_op("LogSigmoid", (convert_to_tensor(x),), name=name)


def _euclidean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    sq = jnp.sum(x * x, axis=axis, keepdims=keepdims)
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.sqrt(sq.astype(jnp.float64 if x.dtype.itemsize == 8 else jnp.float32)).astype(x.dtype)
    return jnp.sqrt(sq)


register_op("EuclideanNorm", default_name="EuclideanNorm", tf=_REDUCE_TF)(_reducer(_euclidean))


def reduce_euclidean_norm(input_tensor: Any, axis: Any = None, keepdims: bool = False,
                          name: str | None = None) -> Any:
    """``sqrt(sum(x ** 2))`` over ``axis`` (all axes when ``None``), as
    ``tf.math.reduce_euclidean_norm`` (integers give truncated integer norms, as TF)."""
    return _reduce("EuclideanNorm", input_tensor, axis, keepdims, name, None, None)


@register_op("Xlogy", default_name="Xlogy")
def _xlogy(x: Any, y: Any) -> Any:
    return jnp.where(x == 0, jnp.zeros((), x.dtype), x * jnp.log(y))


@register_op("Xdivy", default_name="Xdivy")
def _xdivy(x: Any, y: Any) -> Any:
    return jnp.where(x == 0, jnp.zeros((), x.dtype), x / y)


@register_op("MulNoNan", default_name="MulNoNan")
def _mul_no_nan(x: Any, y: Any) -> Any:
    return jnp.where(y == 0, jnp.zeros((), x.dtype), x * y)


def _binary(op_type: str, fn: str, x: Any, y: Any, name: str | None) -> Any:
    a = convert_to_tensor(x, name="x")
    b = convert_to_tensor(y, dtype=tensor_dtype(a), name="y")
    d = tensor_dtype(a)
    if not (d.is_floating or d.is_complex):
        raise TypeError(f"{fn}: expected float or complex tensors, got {d.name} ({label(a)}).")
    return apply_op(op_type, (a, b), name=name)


def xlogy(x: Any, y: Any, name: str | None = None) -> Any:
    """``x * log(y)``, 0 where ``x == 0``, as ``tf.math.xlogy`` (broadcasting floats)."""
    return _binary("Xlogy", "xlogy", x, y, name)


def xdivy(x: Any, y: Any, name: str | None = None) -> Any:
    """``x / y``, 0 where ``x == 0``, as ``tf.math.xdivy``."""
    with op_scope(name, "xdivy", [x, y]):
        return _binary("Xdivy", "xdivy", x, y, None)


def multiply_no_nan(x: Any, y: Any, name: str | None = None) -> Any:
    """``x * y``, 0 where ``y == 0`` (even for non-finite ``x``), as ``tf.math.multiply_no_nan``."""
    with op_scope(name, "multiply_no_nan", [x, y]) as scope:
        return _binary("MulNoNan", "multiply_no_nan", x, y, scope)


@register_op("CumulativeLogsumexp", default_name="CumulativeLogsumexp")
def _cumulative_logsumexp(x: Any, *, axis: int, exclusive: bool, reverse: bool) -> Any:
    out = jax.lax.cumlogsumexp(x, axis=axis % x.ndim, reverse=reverse)
    if not exclusive:
        return out
    ax = axis % x.ndim
    n = x.shape[ax]
    pad = jnp.full([*x.shape[:ax], 1, *x.shape[ax + 1:]], -jnp.inf, x.dtype)
    if reverse:
        return jnp.concatenate([jax.lax.slice_in_dim(out, 1, n, axis=ax), pad], axis=ax)
    return jnp.concatenate([pad, jax.lax.slice_in_dim(out, 0, n - 1, axis=ax)], axis=ax)


def cumulative_logsumexp(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False,
                         name: str | None = None) -> Any:
    """``log(cumsum(exp(x)))`` along ``axis`` computed stably, as ``tf.math.cumulative_logsumexp``
    (``exclusive``: the first entry is ``-inf``)."""
    t = convert_to_tensor(x)
    attrs = {"axis": static_int(axis, "cumulative_logsumexp", "axis"), "exclusive": bool(exclusive),
             "reverse": bool(reverse)}
    return apply_op("CumulativeLogsumexp", (t,), attrs, name=name)


def polyval(coeffs: Any, x: Any, name: str | None = None) -> Any:
    """``coeffs[0] * x**(n-1) + ... + coeffs[n-1]`` by Horner's rule, as ``tf.math.polyval``.

    Raises:
      ValueError: ``coeffs`` is not a list.
    """
    if not isinstance(coeffs, list | tuple):
        raise ValueError(f"Argument coeffs must be list type found {type(coeffs)}.")
    with op_scope(name, "polyval", [*coeffs, x]):
        x = convert_to_tensor(x, name="x")
        if not coeffs:
            return array_ops.zeros_like(x, name=name)
        cs = [convert_to_tensor(c, name="coeff") for c in coeffs]
        p = cs[0]
        for c in cs[1:]:
            p = c + p * x
        return p


def lbeta(x: Any, name: str | None = None) -> Any:
    """``log(|Beta(x)|)`` over the last axis: ``sum(lgamma(x)) - lgamma(sum(x))``, as ``tf.math.lbeta``."""
    with op_scope(name, "lbeta", [x]):
        t = convert_to_tensor(x, name="x")
        log_prod = math_ops.reduce_sum(lgamma(t), axis=[-1])
        return log_prod - lgamma(math_ops.reduce_sum(t, axis=[-1]))


register_op("Igamma", default_name="Igamma")(jax.scipy.special.gammainc)


register_op("Igammac", default_name="Igammac")(jax.scipy.special.gammaincc)


register_op("Betainc", default_name="Betainc")(jax.scipy.special.betainc)


register_op("Zeta", default_name="Zeta")(jax.scipy.special.zeta)


@register_op("Polygamma", default_name="Polygamma")
def _polygamma(n: Any, x: Any) -> Any:
    # JAX wants an integer order; TF takes it as a float of x's dtype.
    return jax.scipy.special.polygamma(n.astype(jnp.int32), x).astype(x.dtype)


register_op("BesselI0e", default_name="BesselI0e")(jax.scipy.special.i0e)


register_op("BesselI1e", default_name="BesselI1e")(jax.scipy.special.i1e)


def _special(op_type: str, fn: str, args: tuple[Any, ...], name: str | None) -> Any:
    first = convert_to_tensor(args[0])
    d = tensor_dtype(first)
    if d not in (_dtypes.float32, _dtypes.float64):
        raise TypeError(f"{fn}: expected float32 or float64 tensors, got {d.name} ({label(first)}).")
    rest = [convert_to_tensor(a, dtype=d) for a in args[1:]]
    return apply_op(op_type, (first, *rest), name=name)


def igamma(a: Any, x: Any, name: str | None = None) -> Any:
    """The regularized lower incomplete gamma function ``P(a, x)``, as ``tf.math.igamma`` (float32/64)."""
    return _special("Igamma", "igamma", (a, x), name)


def igammac(a: Any, x: Any, name: str | None = None) -> Any:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``, as ``tf.math.igammac``."""
    return _special("Igammac", "igammac", (a, x), name)


def betainc(a: Any, b: Any, x: Any, name: str | None = None) -> Any:
    """The regularized incomplete beta function ``I_x(a, b)``, as ``tf.math.betainc``."""
    return _special("Betainc", "betainc", (a, b, x), name)


def zeta(x: Any, q: Any, name: str | None = None) -> Any:
    """The Hurwitz zeta function ``sum_n (n + q) ** -x``, as ``tf.math.zeta``."""
    return _special("Zeta", "zeta", (x, q), name)


def polygamma(a: Any, x: Any, name: str | None = None) -> Any:
    """The ``a``-th derivative of the digamma function at ``x`` (``a`` a non-negative integer
    value of ``x``'s dtype), as ``tf.math.polygamma``."""
    return _special("Polygamma", "polygamma", (a, x), name)


def bessel_i0e(x: Any, name: str | None = None) -> Any:
    """``exp(-|x|) I0(x)``, as ``tf.math.bessel_i0e``."""
    with op_scope(name, "bessel_i0e", [x]):
        return _special("BesselI0e", "bessel_i0e", (x,), None)


def bessel_i1e(x: Any, name: str | None = None) -> Any:
    """``exp(-|x|) I1(x)``, as ``tf.math.bessel_i1e``."""
    with op_scope(name, "bessel_i1e", [x]):
        return _special("BesselI1e", "bessel_i1e", (x,), None)


register_op("Erfinv", default_name="Erfinv")(jax.scipy.special.erfinv)


register_op("Ndtri", default_name="Ndtri")(jax.scipy.special.ndtri)


def erfinv(x: Any, name: str | None = None) -> Any:
    """The inverse error function, as ``tf.math.erfinv``."""
    with op_scope(name, "erfinv", [x]):
        return _special("Erfinv", "erfinv", (x,), None)


def ndtri(x: Any, name: str | None = None) -> Any:
    """The inverse of the standard normal CDF, as ``tf.math.ndtri``."""
    with op_scope(name, "ndtri", [x]):
        return _special("Ndtri", "ndtri", (x,), None)


def reciprocal_no_nan(x: Any, name: str | None = None) -> Any:
    """``1 / x``, 0 where ``x == 0``, as ``tf.math.reciprocal_no_nan``."""
    with op_scope(name, "reciprocal_no_nan", [x]) as scope:
        t = convert_to_tensor(x, name="x")
        return apply_op("DivNoNan", (array_ops.ones_like(t), t), name=scope)


def _monotone(fn: str, x: Any, strict: bool, name: str | None) -> Any:
    with op_scope(name, fn, [x]):
        t = array_ops.reshape(convert_to_tensor(x, name="x"), [-1])
        diff = t[1:] - t[:-1]
        ok = math_ops.greater(diff, 0) if strict else math_ops.greater_equal(diff, 0)
        return math_ops.reduce_all(ok)


def is_non_decreasing(x: Any, name: str | None = None) -> Any:
    """Whether ``x`` (flattened) never decreases (``True`` for fewer than 2 elements), as
    ``tf.math.is_non_decreasing``."""
    return _monotone("is_non_decreasing", x, False, name)


def is_strictly_increasing(x: Any, name: str | None = None) -> Any:
    """Whether ``x`` (flattened) strictly increases, as ``tf.math.is_strictly_increasing``."""
    return _monotone("is_strictly_increasing", x, True, name)
