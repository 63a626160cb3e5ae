"""Linear algebra and extra element-wise math, as ``tf.compat.v1`` / ``tf.linalg`` / ``tf.math``.

Norms, ``tensordot``, ``eye``, diagonals, band parts, traces, inverses,
determinants, Cholesky and QR factorisations, ``cross``, ``expm``, ``pinv``,
``matrix_rank``, ``linspace``, and the unary
functions ``lgamma``, ``digamma``, ``erfc``, ``rint``, ``asin``, ``acos``,
``atan``, ``sinh``, ``cosh`` (and their inverses), each with TF1's op type,
dtypes and shapes. Integer arguments that shape the result (``linspace``'s
``num``, ``band_part``'s bands, ``eye``'s sizes) must be known when the graph
is built. Gradients are JAX's (``jax.vjp`` of the implementations).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, constant, convert_to_tensor, dtype_of, executing_eagerly
from jaxsess._core.graph._dynamic import Deferred, first_dtype, register_dynamic
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops
from jaxsess._tf1.ops._args import apply, label, op_scope, shape_arg, static_int, static_ints, tensor_dtype
from jaxsess._tf1.ops.array_ops import _dims as _dims
from jaxsess._tf1.ops.math_ops import _unary

__all__ = [
    "norm", "tensordot", "eye", "diag", "diag_part", "matrix_diag", "matrix_diag_part", "linspace",
    "lin_space", "matrix_inverse", "matrix_determinant", "matrix_transpose", "matrix_band_part", "trace",
    "cholesky", "qr", "matrix_set_diag", "lgamma", "digamma", "erfc", "rint", "asin", "acos", "atan", "sinh", "cosh",
    "asinh", "acosh", "atanh", "conj", "to_int64", "to_double", "to_bfloat16", "cross", "expm", "pinv",
    "matrix_rank",
]


# -- unary math -------------------------------------------------------------------

_UNARY = {
    "Lgamma": jax.scipy.special.gammaln,
    "Digamma": jax.scipy.special.digamma,
    "Erfc": jax.scipy.special.erfc,
    "Rint": jnp.rint,
    "Asin": jnp.arcsin,
    "Acos": jnp.arccos,
    "Atan": jnp.arctan,
    "Sinh": jnp.sinh,
    "Cosh": jnp.cosh,
    "Asinh": jnp.arcsinh,
    "Acosh": jnp.arccosh,
    "Atanh": jnp.arctanh,
    "Conj": jnp.conj,
}
for _t, _f in _UNARY.items():
    register_op(_t, default_name=_t)(_f)

_FLOATS = (_dtypes.bfloat16, _dtypes.float16, _dtypes.float32, _dtypes.float64)
_FLOATS_COMPLEX = (*_FLOATS, _dtypes.complex64, _dtypes.complex128)


def _checked(x: Any, allowed: tuple[_dtypes.DType, ...]) -> Any:
    """``x`` as a tensor of one of ``allowed``; TF's ``TypeError`` otherwise."""
    t = convert_to_tensor(x)
    d = dtype_of(t)
    if d is not None and d not in allowed:
        raise TypeError(f"Value passed to parameter 'x' has DataType {d.name} not in list of allowed values: "
                        + ", ".join(a.name for a in allowed))
    return t


def _float_unary(op_type: str, x: Any, name: str | None, complex_ok: bool = False) -> Any:
    return _unary(op_type, _checked(x, _FLOATS_COMPLEX if complex_ok else _FLOATS), name)


def lgamma(x: Any, name: str | None = None) -> Any:
    """``log(|Gamma(x)|)`` element-wise (float), as ``tf.math.lgamma``."""
    return _float_unary("Lgamma", x, name)


def digamma(x: Any, name: str | None = None) -> Any:
    """The derivative of ``lgamma`` (psi), as ``tf.math.digamma``."""
    return _float_unary("Digamma", x, name)


def erfc(x: Any, name: str | None = None) -> Any:
    """``1 - erf(x)``, computed accurately for large ``x``, as ``tf.math.erfc``."""
    return _float_unary("Erfc", x, name)


def rint(x: Any, name: str | None = None) -> Any:
    """The nearest integer (halves to even), same dtype, as ``tf.math.rint``."""
    return _float_unary("Rint", x, name)


def asin(x: Any, name: str | None = None) -> Any:
    """Inverse sine (radians; NaN outside ``[-1, 1]``), as ``tf.math.asin``."""
    return _float_unary("Asin", x, name, complex_ok=True)


def acos(x: Any, name: str | None = None) -> Any:
    """Inverse cosine (radians; NaN outside ``[-1, 1]``), as ``tf.math.acos``."""
    return _float_unary("Acos", x, name, complex_ok=True)


def atan(x: Any, name: str | None = None) -> Any:
    """Inverse tangent (radians), as ``tf.math.atan``."""
    return _float_unary("Atan", x, name, complex_ok=True)


def sinh(x: Any, name: str | None = None) -> Any:
    """Hyperbolic sine, as ``tf.math.sinh``."""
    return _float_unary("Sinh", x, name, complex_ok=True)


def cosh(x: Any, name: str | None = None) -> Any:
    """Hyperbolic cosine, as ``tf.math.cosh``."""
    return _float_unary("Cosh", x, name, complex_ok=True)


def asinh(x: Any, name: str | None = None) -> Any:
    """Inverse hyperbolic sine, as ``tf.math.asinh``."""
    return _float_unary("Asinh", x, name, complex_ok=True)


def acosh(x: Any, name: str | None = None) -> Any:
    """Inverse hyperbolic cosine (NaN below 1), as ``tf.math.acosh``."""
    return _float_unary("Acosh", x, name, complex_ok=True)


def atanh(x: Any, name: str | None = None) -> Any:
    """Inverse hyperbolic tangent (NaN outside ``[-1, 1]``), as ``tf.math.atanh``."""
    return _float_unary("Atanh", x, name, complex_ok=True)


def conj(x: Any, name: str | None = None) -> Any:
    """The complex conjugate; real tensors are returned as they are, as ``tf.math.conj``."""
    t = convert_to_tensor(x)
    d = dtype_of(t)
    if d is not None and not d.is_complex:
        return t
    return _unary("Conj", t, name)


def to_int64(x: Any, name: str = "ToInt64") -> Any:
    """``x`` cast to int64 (floats truncate), as TF1's ``tf.to_int64``."""
    return math_ops.cast(x, _dtypes.int64, name=name)


def to_double(x: Any, name: str = "ToDouble") -> Any:
    """``x`` cast to float64, as TF1's ``tf.to_double``."""
    return math_ops.cast(x, _dtypes.float64, name=name)


def to_bfloat16(x: Any, name: str = "ToBFloat16") -> Any:
    """``x`` cast to bfloat16, as TF1's ``tf.to_bfloat16``."""
    return math_ops.cast(x, _dtypes.bfloat16, name=name)


# -- norms --------------------------------------------------------------------------

_VECTOR_ORDS = ("euclidean", 1, 2, np.inf)
_MATRIX_ORDS = ("euclidean", "fro", 1, np.inf)


def _is_ord(ord: Any, *choices: Any) -> bool:
    return any(ord == c for c in choices)


def norm(tensor: Any, ord: Any = "euclidean", axis: Any = None, keepdims: Any = None,
         name: str | None = None, keep_dims: Any = None) -> Any:
    """The vector or matrix norm of ``tensor``, as ``tf.compat.v1.norm``.

    Args:
      tensor: a float tensor.
      ord: ``'euclidean'`` (default), ``'fro'`` (matrices), ``1``, ``2``,
        ``np.inf``, or any ``p > 0`` for vectors.
      axis: ``None`` (the whole tensor as one vector), an int (vector norm
        along it) or a pair of ints (matrix norm over those axes).
      keepdims: keep the reduced axes with size 1.

    Returns:
      A tensor of ``tensor``'s dtype, of its shape without ``axis``.

    Raises:
      ValueError: an unsupported ``ord`` for the kind of norm, or a bad
        ``axis`` (as TF). The spectral matrix norm (``ord=2`` with two
        axes) is not implemented (``NotImplementedError``).
    """
    if keepdims is None:
        keepdims = bool(keep_dims)
    is_matrix = False
    axes: list[int] | None
    if axis is None:
        axes = None
    else:
        axes = list(static_ints(axis, "norm", "axis"))
        if len(axes) == 2:
            is_matrix = True
            if axes[0] == axes[1]:
                raise ValueError(f"'axis' must contain 2 unique integers, got {axes}")
        elif len(axes) != 1:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
    if is_matrix:
        if _is_ord(ord, 2):
            raise NotImplementedError("norm: the spectral matrix norm (ord=2 over two axes) needs an SVD, "
                                      "which jaxsess does not lower; use ord='fro', 1 or np.inf.")
        if not _is_ord(ord, *_MATRIX_ORDS):
            raise ValueError(f"'ord' must be a supported matrix norm in {list(_MATRIX_ORDS)}, got {ord}")
    else:
        if not (_is_ord(ord, *_VECTOR_ORDS) or (not isinstance(ord, str) and isinstance(ord, int | float)
                                                 and ord > 0)):
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    with op_scope(name, "norm", [tensor]):
        x = _checked(tensor, _FLOATS_COMPLEX)
        if _is_ord(ord, "fro", "euclidean", 2):
            result = math_ops.sqrt(math_ops.reduce_sum(x * conj(x), axes, keepdims=True))
        else:
            result = math_ops.abs(x)
            if _is_ord(ord, 1, np.inf):
                if is_matrix:
                    assert axes is not None
                    sum_axis, max_axis = (axes[-2], axes[-1]) if _is_ord(ord, 1) else (axes[-1], axes[-2])
                    result = math_ops.reduce_sum(result, sum_axis, keepdims=True)
                    result = math_ops.reduce_max(result, max_axis, keepdims=True)
                elif _is_ord(ord, 1):
                    result = math_ops.reduce_sum(result, axes, keepdims=True)
                else:
                    result = math_ops.reduce_max(result, axes, keepdims=True)
            else:
                p = float(ord)
                result = math_ops.pow(math_ops.reduce_sum(math_ops.pow(result, p), axes, keepdims=True), 1.0 / p)
        if not keepdims:
            result = array_ops.squeeze(result, axes)
        return result


# -- tensordot ------------------------------------------------------------------------


def _tensordot_axes(axes: Any, rank_a: int, rank_b: int) -> tuple[list[int], list[int]]:
    if isinstance(axes, np.ndarray) and axes.ndim:
        axes = axes.tolist()
    if not isinstance(axes, list | tuple):
        n = static_int(axes, "tensordot", "axes")
        if n < 0:
            raise ValueError(f"'axes' must be at least 0, got {n}.")
        if n > rank_a or n > rank_b:
            raise ValueError(f"'axes' must not be larger than the rank of either tensor: {n} vs {rank_a}, {rank_b}.")
        return list(range(rank_a - n, rank_a)), list(range(n))
    if not isinstance(axes, list | tuple) or len(axes) != 2:
        raise ValueError(f"'axes' must be an int or a pair of axis lists, got {axes!r}.")
    a_axes, b_axes = axes
    a_list = list(static_ints(a_axes, "tensordot", "axes"))
    b_list = list(static_ints(b_axes, "tensordot", "axes"))
    if len(a_list) != len(b_list):
        raise ValueError(f"Different number of contraction axes 'a' and 'b', {len(a_list)} != {len(b_list)}.")
    return [a % rank_a for a in a_list], [b % rank_b for b in b_list]


def _prod(dims: Sequence[int | None]) -> int | None:
    out = 1
    for d in dims:
        if d is None:
            return None
        out *= d
    return out


def tensordot(a: Any, b: Any, axes: Any, name: str | None = None) -> Any:
    """The sum of products over ``axes`` of ``a`` and ``b``, as ``tf.tensordot``.

    Args:
      a, b: tensors of one float or int dtype and known rank.
      axes: an int ``N`` (the last ``N`` axes of ``a`` with the first ``N``
        of ``b``) or a pair ``[a_axes, b_axes]`` of equal-length lists.

    Returns:
      A tensor of shape ``a``'s free dims + ``b``'s free dims, built as TF
      does: transpose, reshape to matrices, ``MatMul``, reshape.

    Raises:
      ValueError: bad ``axes`` or mismatched contracted dimensions.
    """
    with op_scope(name, "Tensordot", [a, b]) as scope:
        a, b = math_ops._pair("MatMul", a, b)
        da, db = _dims(a), _dims(b)
        a_axes, b_axes = _tensordot_axes(axes, len(da), len(db))
        for i, j in zip(a_axes, b_axes, strict=True):
            if da[i] is not None and db[j] is not None and da[i] != db[j]:
                raise ValueError(f"tensordot: dimension {i} of 'a' ({da[i]}) does not match dimension {j} "
                                 f"of 'b' ({db[j]}); shapes {da} and {db}.")
        a_free = [i for i in range(len(da)) if i not in a_axes]
        b_free = [i for i in range(len(db)) if i not in b_axes]
        a_t = a if a_free + a_axes == list(range(len(da))) else array_ops.transpose(a, a_free + a_axes)
        b_t = b if b_axes + b_free == list(range(len(db))) else array_ops.transpose(b, b_axes + b_free)
        k = _prod([da[i] for i in a_axes])
        if k is None:
            k = _prod([db[j] for j in b_axes])
        if k is None:
            raise ValueError("tensordot: the contracted dimensions must be known when the graph is built.")
        fa, fb = _prod([da[i] for i in a_free]), _prod([db[j] for j in b_free])
        a_m = array_ops.reshape(a_t, [-1 if fa is None else fa, k])
        b_m = array_ops.reshape(b_t, [k, -1 if fb is None else fb])
        product = math_ops.matmul(a_m, b_m)
        free_dims = [da[i] for i in a_free] + [db[j] for j in b_free]
        if None not in free_dims and free_dims == _dims(product):
            return product
        if None in free_dims:
            sa, sb = array_ops.shape(a), array_ops.shape(b)
            target: Any = array_ops.stack([sa[i] for i in a_free] + [sb[j] for j in b_free])
        else:
            target = free_dims
        return array_ops.reshape(product, target, name=scope)


# -- eye, diagonals, band part, trace ------------------------------------------------------


def eye(num_rows: Any, num_columns: Any = None, batch_shape: Any = None, dtype: Any = _dtypes.float32,
        name: str | None = None) -> Any:
    """A (batch of) identity matrix ``[*batch_shape, num_rows, num_columns]``, as ``tf.eye``.

    Sizes known when the graph is built give a constant; sizes computed from tensor
    shapes (``tf.shape(x)[0]``) give ``matrix_set_diag`` of zeros and ones, as TF builds it.

    Raises:
      ValueError: a size depends on fed or variable values.
    """
    d = _dtypes.as_dtype(dtype)
    try:
        rows = static_int(num_rows, "eye", "num_rows")
        cols = rows if num_columns is None else static_int(num_columns, "eye", "num_columns")
        batch = () if batch_shape is None else static_ints(batch_shape, "eye", "batch_shape")
    except ValueError:
        if executing_eagerly():
            raise
        return _eye_from_shapes(num_rows, num_columns, batch_shape, d, name)
    value = np.broadcast_to(np.eye(rows, cols, dtype=d.np_dtype), (*batch, rows, cols))
    with op_scope(name, "eye"):
        node = "diag" if num_columns is None and not batch else "set_diag"
        return constant(np.ascontiguousarray(value), dtype=d, name=node)


def _eye_from_shapes(num_rows: Any, num_columns: Any, batch_shape: Any, d: _dtypes.DType, name: str | None) -> Any:
    """``eye`` whose sizes are tensors computed from shapes: TF's own construction, a
    ``matrix_set_diag`` of zeros ``[*batch, rows, cols]`` with ones ``[*batch, min(rows, cols)]``
    (each a ``DynamicFill`` evaluated when the run is traced)."""
    with op_scope(name, "eye"):
        rows = convert_to_tensor(num_rows, dtype=_dtypes.int32)
        cols = rows if num_columns is None else convert_to_tensor(num_columns, dtype=_dtypes.int32)
        batch = [] if batch_shape is None else [convert_to_tensor(batch_shape, dtype=_dtypes.int32)]
        diag = math_ops.minimum(rows, cols)
        ones = array_ops.ones(array_ops.concat([*batch, array_ops.reshape(diag, [1])], 0), dtype=d)
        zeros = array_ops.zeros(array_ops.concat([*batch, array_ops.stack([rows, cols])], 0), dtype=d)
        return matrix_set_diag(zeros, ones)


@register_op("Diag", default_name="Diag")
def _diag(x: Any) -> Any:
    flat = jnp.reshape(x, (-1,))
    return jnp.reshape(jnp.diag(flat), (*x.shape, *x.shape))


@register_op("DiagPart", default_name="DiagPart")
def _diag_part(x: Any) -> Any:
    k = x.ndim // 2
    n = int(np.prod(x.shape[:k], dtype=np.int64))
    return jnp.reshape(jnp.diagonal(jnp.reshape(x, (n, n))), x.shape[:k])


def diag(diagonal: Any, name: str | None = None) -> Any:
    """The tensor of rank ``2k`` with ``diagonal`` (rank ``k >= 1``) on its diagonal, as ``tf.diag``.

    Raises:
      ValueError: ``diagonal`` is a scalar.
    """
    x = convert_to_tensor(diagonal)
    if not _dims(x):
        raise ValueError(f"Diag: input must be at least rank 1, got shape {_dims(x)}.")
    return apply_op("Diag", (x,), name=name)


def diag_part(input: Any, name: str | None = None) -> Any:
    """The diagonal of a rank-``2k`` tensor of shape ``[*D, *D]``, as ``tf.diag_part``.

    Raises:
      ValueError: an odd rank, or the two halves of the shape differ.
    """
    x = convert_to_tensor(input)
    dims = _dims(x)
    k = len(dims) // 2
    if len(dims) % 2 or not dims or dims[:k] != dims[k:]:
        raise ValueError(f"DiagPart: input must have an even rank and shape [D1..Dk, D1..Dk], got {dims}.")
    return apply_op("DiagPart", (x,), name=name)


@register_op("MatrixDiag", default_name="MatrixDiag")
def _matrix_diag(x: Any) -> Any:
    n = x.shape[-1]
    return x[..., :, None] * jnp.eye(n, dtype=x.dtype)


@register_op("MatrixDiagPart", default_name="MatrixDiagPart")
def _matrix_diag_part(x: Any) -> Any:
    return jnp.diagonal(x, axis1=-2, axis2=-1)


def _at_least(x: Any, rank: int, op: str) -> None:
    dims = _dims(x)
    if len(dims) < rank:
        raise ValueError(f"{op}: input must be at least rank {rank}, got shape {dims} "
                         f"({getattr(x, 'name', '')}).")


def matrix_diag(diagonal: Any, name: str = "diag", k: Any = 0) -> Any:
    """A batch of square matrices ``[..., N, N]`` with ``diagonal`` ``[..., N]`` on their main
    diagonal, as ``tf.linalg.diag`` (only ``k=0``)."""
    if static_int(k, "matrix_diag", "k") != 0:
        raise NotImplementedError("matrix_diag: only the main diagonal (k=0) is implemented.")
    x = convert_to_tensor(diagonal)
    _at_least(x, 1, "MatrixDiag")
    return apply_op("MatrixDiag", (x,), name=name)


def matrix_diag_part(input: Any, name: str = "diag_part", k: Any = 0) -> Any:
    """The main diagonals ``[..., min(M, N)]`` of a batch of matrices ``[..., M, N]``, as
    ``tf.linalg.diag_part`` (only ``k=0``)."""
    if static_int(k, "matrix_diag_part", "k") != 0:
        raise NotImplementedError("matrix_diag_part: only the main diagonal (k=0) is implemented.")
    x = convert_to_tensor(input)
    _at_least(x, 2, "MatrixDiagPart")
    return apply_op("MatrixDiagPart", (x,), name=name)


@register_op("MatrixSetDiag", default_name="set_diag")
def _matrix_set_diag(x: Any, d: Any) -> Any:
    n = min(x.shape[-2], x.shape[-1])
    i = np.arange(n)
    return x.at[..., i, i].set(d)


def matrix_set_diag(input: Any, diagonal: Any, name: str = "set_diag", k: Any = 0,  # noqa: A002
                    align: str = "RIGHT_LEFT") -> Any:
    """``input`` ``[..., M, N]`` with its main diagonal replaced by ``diagonal`` ``[..., min(M, N)]``,
    as ``tf.linalg.set_diag`` (only ``k=0``).

    Raises:
      ValueError: rank below 2, or ``diagonal``'s shape does not fit.
    """
    if static_int(k, "matrix_set_diag", "k") != 0:
        raise NotImplementedError("matrix_set_diag: only the main diagonal (k=0) is implemented.")
    x = convert_to_tensor(input)
    _at_least(x, 2, "MatrixSetDiag")
    d = convert_to_tensor(diagonal, dtype=dtype_of(x))
    dx, dd = _dims(x), _dims(d)
    want = [*dx[:-2], None if dx[-1] is None or dx[-2] is None else min(dx[-2], dx[-1])]
    if len(dd) != len(want) or any(a is not None and b is not None and a != b for a, b in zip(want, dd)):
        raise ValueError(f"MatrixSetDiag: diagonal must have shape {want}, got {dd}.")
    return apply_op("MatrixSetDiag", (x, d), name=name)


def _band_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    return {}, [np.asarray(a["num_lower"], np.int64), np.asarray(a["num_upper"], np.int64)]


def _band_from_tf(a: dict[str, Any], consts: list[np.ndarray]) -> dict[str, Any]:
    return {"num_lower": int(consts[0]), "num_upper": int(consts[1])}


@register_op("MatrixBandPart", default_name="MatrixBandPart", tf=TFOp(
    types={"T": 0, "Tindex": 1}, to_tf=_band_to_tf, from_tf=_band_from_tf, n_const=2))
def _band_part(x: Any, *, num_lower: int, num_upper: int) -> Any:
    m, n = x.shape[-2], x.shape[-1]
    i = np.arange(m)[:, None]
    j = np.arange(n)[None, :]
    keep = np.ones((m, n), bool)
    if num_lower >= 0:
        keep &= i - j <= num_lower
    if num_upper >= 0:
        keep &= j - i <= num_upper
    return jnp.where(keep, x, jnp.zeros((), x.dtype))


def matrix_band_part(input: Any, num_lower: Any, num_upper: Any, name: str | None = None) -> Any:
    """``input`` ``[..., M, N]`` with entries outside the band zeroed, as ``tf.linalg.band_part``.

    Args:
      num_lower, num_upper: subdiagonals / superdiagonals kept; negative
        keeps the whole triangle. Must be known when the graph is built.
    """
    x = convert_to_tensor(input)
    _at_least(x, 2, "MatrixBandPart")
    lo = static_int(num_lower, "matrix_band_part", "num_lower")
    hi = static_int(num_upper, "matrix_band_part", "num_upper")
    return apply_op("MatrixBandPart", (x,), {"num_lower": lo, "num_upper": hi}, name=name)


def trace(x: Any, name: str | None = None) -> Any:
    """The sum of the main diagonal of each matrix ``[..., M, N]`` -> ``[...]``, as ``tf.linalg.trace``."""
    with op_scope(name, "Trace", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return math_ops.reduce_sum(matrix_diag_part(x, name="MatrixDiagPart"), [-1], name=scope)


def matrix_transpose(a: Any, name: str = "matrix_transpose", conjugate: bool = False) -> Any:
    """``a`` ``[..., M, N]`` with its last two axes swapped, as ``tf.linalg.matrix_transpose``.

    Raises:
      ValueError: ``a`` has rank below 2.
    """
    with op_scope(name, "matrix_transpose", [a]):
        x = convert_to_tensor(a, name="a")
        _at_least(x, 2, "matrix_transpose")
        rank = len(_dims(x))
        perm = [*range(rank - 2), rank - 1, rank - 2]
        return array_ops.transpose(x, perm, conjugate=conjugate)


# -- inverse, determinant, factorisations ----------------------------------------------------


def _square_float(x: Any, op: str) -> Any:
    x = convert_to_tensor(x)
    d = dtype_of(x)
    if d is not None and not (d.is_floating or d.is_complex):
        raise TypeError(f"{op}: expected a float or complex tensor, got {d.name} ({getattr(x, 'name', '')}).")
    dims = _dims(x)
    if len(dims) < 2:
        raise ValueError(f"{op}: input must have rank >= 2, got shape {dims} ({getattr(x, 'name', '')}).")
    if dims[-1] is not None and dims[-2] is not None and dims[-1] != dims[-2]:
        raise ValueError(f"{op}: input must be a (batch of) square matrices, got shape {dims} "
                         f"({getattr(x, 'name', '')}).")
    return x


@register_op("MatrixInverse", default_name="MatrixInverse")
def _matrix_inverse(x: Any, *, adjoint: bool = False) -> Any:
    if adjoint:
        x = jnp.conj(jnp.swapaxes(x, -1, -2))
    return jnp.linalg.inv(x)


@register_op("MatrixDeterminant", default_name="MatrixDeterminant")
def _matrix_determinant(x: Any) -> Any:
    return jnp.linalg.det(x)


@register_op("Cholesky", default_name="Cholesky")
def _cholesky(x: Any) -> Any:
    return jnp.linalg.cholesky(x)


@register_op("Qr", default_name="Qr", num_outputs=2)
def _qr(x: Any, *, full_matrices: bool = False) -> Any:
    q, r = jnp.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return q, r


def matrix_inverse(input: Any, adjoint: bool = False, name: str | None = None) -> Any:
    """The inverse of each square matrix ``[..., M, M]``, as ``tf.linalg.inv``.

    A singular matrix gives non-finite values (XLA has no error path),
    where TF raises ``InvalidArgumentError``.
    """
    x = _square_float(input, "MatrixInverse")
    return apply_op("MatrixInverse", (x,), {"adjoint": bool(adjoint)}, name=name)


def matrix_determinant(input: Any, name: str | None = None) -> Any:
    """The determinant of each square matrix ``[..., M, M]`` -> ``[...]``, as ``tf.linalg.det``."""
    x = _square_float(input, "MatrixDeterminant")
    return apply_op("MatrixDeterminant", (x,), name=name)


def cholesky(input: Any, name: str | None = None) -> Any:
    """The lower-triangular Cholesky factor of each Hermitian positive-definite matrix
    ``[..., M, M]``, as ``tf.linalg.cholesky`` (NaN where not positive definite)."""
    x = _square_float(input, "Cholesky")
    return apply_op("Cholesky", (x,), name=name)


def qr(input: Any, full_matrices: bool = False, name: str | None = None) -> tuple[Any, Any]:
    """The QR factorisation ``(q, r)`` of each matrix ``[..., M, N]``, as ``tf.linalg.qr``.

    Returns:
      ``q``: ``[..., M, P]``, ``r``: ``[..., P, N]``, ``P = M if full_matrices
      else min(M, N)``. Signs may differ from TF's (both are valid factorisations).
    """
    x = convert_to_tensor(input)
    _at_least(x, 2, "Qr")
    q, r = apply_op("Qr", (x,), {"full_matrices": bool(full_matrices)}, name=name)
    return q, r


# -- linspace -------------------------------------------------------------------------------


def _linspace_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    return {}, [np.asarray(a["num"], np.int32)]


@register_op("LinSpace", default_name="LinSpace", tf=TFOp(
    types={"T": 0, "Tidx": 2}, to_tf=_linspace_to_tf, from_tf=lambda a, c: {"num": int(c[0])}, n_const=1))
def _linspace(start: Any, stop: Any, *, num: int) -> Any:
    return jnp.linspace(start, stop, num, dtype=start.dtype)


def linspace(start: Any, stop: Any, num: Any, name: str | None = None, axis: int = 0) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive, as ``tf.linspace``.

    Args:
      start, stop: scalars of one dtype (integers give float64 values, as TF 2.x).
      num: a positive int known when the graph is built.

    Returns:
      A ``[num]`` tensor of ``start``'s dtype (``[start]`` when ``num == 1``).
    """
    if axis != 0:
        raise NotImplementedError("linspace: only axis=0 (scalar start and stop) is implemented.")
    n = shape_arg(num, "linspace", "num", kind="scalar")  # or computed from shapes (``DynamicLinSpace``)
    if not isinstance(n, Deferred) and n < 1:
        raise ValueError(f"linspace: 'num' must be positive, got {n}.")
    with op_scope(name, "linspace", [start, stop]) as scope:
        try:
            s, e = math_ops._pair("LinSpace", start, stop)
        except TypeError as err:  # TF: a conversion error, ValueError
            raise ValueError(f"linspace: {err}") from None
        d = dtype_of(s)
        if d is not None and d.is_integer:  # as TF 2.x: integer bounds give float64 values
            s, e = math_ops.cast(s, _dtypes.float64), math_ops.cast(e, _dtypes.float64)
        elif d is not None and not d.is_floating:
            raise TypeError(f"linspace: 'start' and 'stop' must be numbers, got {d.name}.")
        for arg, t in (("start", s), ("stop", e)):
            if _dims(t):
                raise ValueError(f"linspace: '{arg}' must be a scalar, got shape {_dims(t)}.")
        return apply("LinSpace", (s, e), {"num": n}, scope)


register_dynamic("LinSpace", lambda shapes, a: TensorShape([a["num"] if isinstance(a["num"], int) else None]),
                 first_dtype)


lin_space = linspace


register_op("Cross", default_name="Cross")(lambda a, b: jnp.cross(a, b))


def cross(a: Any, b: Any, name: str | None = None) -> Any:
    """The cross product of 3-vectors ``[..., 3]``, as ``tf.linalg.cross``.

    Raises:
      ValueError: the last dimension is not 3.
    """
    x = convert_to_tensor(a)
    y = convert_to_tensor(b, dtype=tensor_dtype(x))
    for t in (x, y):
        dims = _dims(t)
        if not dims or dims[-1] not in (3, None):
            raise ValueError(f"cross: the last dimension must be 3, got shape {dims} ({label(t)}).")
    return apply_op("Cross", (x, y), name=name)


register_op("MatrixExponential", default_name="MatrixExponential")(jax.scipy.linalg.expm)


def expm(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """The matrix exponential of each square matrix ``[..., M, M]``, as ``tf.linalg.expm``."""
    with op_scope(name, "matrix_exponential", [input]) as scope:
        x = _square_float(input, "MatrixExponential")
        return apply_op("MatrixExponential", (x,), name=scope)


register_op("Pinv", default_name="Pinv")(lambda a, *, rcond: jnp.linalg.pinv(a, rtol=rcond))


def pinv(a: Any, rcond: Any = None, validate_args: bool = False, name: str | None = None) -> Any:
    """The Moore-Penrose pseudo-inverse ``[..., N, M]`` of ``a`` ``[..., M, N]``, as
    ``tf.linalg.pinv`` (singular values below ``rcond * max(s)`` are dropped; default
    ``10 * max(M, N) * eps``, as TF)."""
    with op_scope(name, "pinv", [a]):
        x = convert_to_tensor(a, name="a")
        d = tensor_dtype(x)
        if not d.is_floating:
            raise TypeError(f"pinv: expected a float tensor, got {d.name} ({label(x)}).")
        dims = _dims(x)
        if len(dims) < 2 or dims[-1] is None or dims[-2] is None:
            raise ValueError(f"pinv: a must be a matrix of known size, got shape {dims} ({label(x)}).")
        r = 10.0 * max(dims[-2], dims[-1]) * float(np.finfo(d.np_dtype).eps) if rcond is None else float(rcond)
        return apply_op("Pinv", (x,), {"rcond": r}, name="MatMul")  # TF's name of its last op


@register_op("MatrixRank", default_name="MatrixRank")
def _matrix_rank(a: Any, *, tol: float | None) -> Any:
    s = jnp.linalg.svd(a, compute_uv=False)
    eps = jnp.finfo(a.dtype).eps
    cut = s.max(axis=-1, keepdims=True) * max(a.shape[-2], a.shape[-1]) * eps if tol is None else tol
    return jnp.sum(s > cut, axis=-1).astype(jnp.int32)


def matrix_rank(a: Any, tol: Any = None, validate_args: bool = False, name: str | None = None) -> Any:
    """The number of singular values of ``a`` ``[..., M, N]`` above ``tol`` (default
    ``max(s) * max(M, N) * eps``) -> int32 ``[...]``, as ``tf.linalg.matrix_rank``."""
    with op_scope(name, "matrix_rank", [a]):
        x = convert_to_tensor(a, name="a")
        _at_least(x, 2, "matrix_rank")
        t = None if tol is None else float(np.asarray(tol))
        return apply_op("MatrixRank", (x,), {"tol": t}, name="Sum")  # TF's name of its last op
