"""Element-wise math and bit ops TF1 tutorials reach for, as ``tf.compat.v1`` /
``tf.math`` / ``tf.math.special`` / ``tf.bitwise`` / ``tf.dtypes``:
``truncatediv``, ``truncatemod``, ``saturate_cast``, ``to_complex64``/``128``,
``bitcast``, ``bessel_i0``/``i1``, ``erfcinv``, ``nextafter``, ``xlog1py``,
``special.dawsn``/``expint``/``fresnel_cos``/``fresnel_sin``/``spence``,
``bitwise_or``/``xor``/``invert``/``left_shift``/``right_shift`` and
``unsorted_segment_sqrt_n``.

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
from jaxsess._tf1.ops._args import label, op_scope, tensor_dtype
from jaxsess._tf1.ops.math_extra_ops import ndtri

__all__ = [
    "truncatediv", "truncatemod", "saturate_cast", "to_complex64", "to_complex128", "bitcast",
    "bessel_i0", "bessel_i1", "erfcinv", "nextafter", "xlog1py", "dawsn", "expint", "fresnel_cos",
    "fresnel_sin", "spence", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift",
    "unsorted_segment_sqrt_n",
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
