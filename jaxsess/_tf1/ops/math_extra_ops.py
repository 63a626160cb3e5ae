"""More element-wise math, reductions, search and index ops, as ``tf.compat.v1`` /
``tf.math`` / ``tf.linalg`` / ``tf.nn``: ``log_sigmoid``,
``reduce_euclidean_norm``, ``xlogy``, ``xdivy``, ``multiply_no_nan``,
``cumulative_logsumexp``, ``polyval``, ``lbeta``, ``cross``, ``expm``,
``unravel_index``, ``searchsorted``, ``nn.relu_layer``, ``nn.convolution``,
``nn.max_pool1d``/``avg_pool1d``.

Each is TF's op where TF has one (same type and default name), else written
with existing ops under TF's name scope. Gradients are JAX's.
``unravel_index`` of an index outside ``prod(dims)`` wraps (TF raises
``InvalidArgumentError``).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._registry import register_op
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops, nn_ops as nn_ops
from jaxsess._tf1.ops._args import label, op_scope, static_int, static_ints, tensor_dtype
from jaxsess._tf1.ops.conv3d_ops import conv3d, pool
from jaxsess._tf1.ops.conv_ops import conv1d
from jaxsess._tf1.ops.linalg_ops import _at_least, _dims, _square_float, lgamma
from jaxsess._tf1.ops.math_ops import _REDUCE_TF, _reduce, _reducer

__all__ = [
    "log_sigmoid", "reduce_euclidean_norm", "xlogy", "xdivy", "multiply_no_nan", "cumulative_logsumexp",
    "polyval", "lbeta", "cross", "expm", "unravel_index", "searchsorted", "relu_layer", "convolution",
    "max_pool1d", "avg_pool1d", "invert_permutation", "erfinv", "ndtri", "reciprocal_no_nan", "is_non_decreasing",
    "is_strictly_increasing", "pinv", "matrix_rank", "igamma", "igammac", "betainc", "zeta", "polygamma", "bessel_i0e", "bessel_i1e",
]


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


@register_op("UnravelIndex", default_name="UnravelIndex")
def _unravel_index(indices: Any, *, dims: tuple[int, ...]) -> Any:
    return jnp.stack(jnp.unravel_index(indices, dims), axis=0).astype(indices.dtype)


def unravel_index(indices: Any, dims: Any, name: str | None = None) -> Any:
    """The coordinates in an array of shape ``dims`` of flat ``indices``: ``[len(dims),
    *indices.shape]``, as ``tf.unravel_index`` (int32/int64; ``dims`` known when the graph is built)."""
    i = convert_to_tensor(indices)
    if len(_dims(i)) > 1:
        raise ValueError(f"unravel_index: indices must be a scalar or vector, got shape {_dims(i)} ({label(i)}).")
    d = static_ints(dims, "unravel_index", "dims")
    return apply_op("UnravelIndex", (i,), {"dims": d}, name=name)


@register_op("SearchSorted", default_name="SearchSorted")
def _searchsorted(seq: Any, values: Any, *, side: str, out_type: _dtypes.DType) -> Any:
    lead = seq.shape[:-1]
    flat_s = seq.reshape(-1, seq.shape[-1])
    flat_v = values.reshape(-1, values.shape[-1])
    out = jax.vmap(lambda s, v: jnp.searchsorted(s, v, side=side))(flat_s, flat_v)
    return out.reshape(*lead, values.shape[-1]).astype(out_type.np_dtype)


def searchsorted(sorted_sequence: Any, values: Any, side: str = "left", out_type: Any = _dtypes.int32,
                 name: str | None = None) -> Any:
    """For each of ``values`` ``[..., V]``, its insertion index into the matching row of
    ``sorted_sequence`` ``[..., S]`` (sorted along the last axis), as ``tf.searchsorted``.

    Raises:
      ValueError: ``side`` not ``'left'``/``'right'``, or leading dimensions that differ.
    """
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}.")
    s = convert_to_tensor(sorted_sequence)
    v = convert_to_tensor(values, dtype=tensor_dtype(s))
    ds, dv = _dims(s), _dims(v)
    if not ds or len(ds) != len(dv) or ds[:-1] != dv[:-1]:
        raise ValueError(f"searchsorted: sorted_sequence {ds} and values {dv} must have the same leading "
                         "dimensions.")
    attrs = {"side": side, "out_type": _dtypes.as_dtype(out_type)}
    return apply_op("SearchSorted", (s, v), attrs, name=name)


def relu_layer(x: Any, weights: Any, biases: Any, name: str | None = None) -> Any:
    """``relu(x @ weights + biases)``, as ``tf.nn.relu_layer``."""
    with op_scope(name, "relu_layer", [x, weights, biases]) as scope:
        xw = nn_ops.bias_add(math_ops.matmul(x, weights), biases)
        return nn_ops.relu(xw, name=scope)


def convolution(input: Any, filter: Any = None, padding: Any = None, strides: Any = None,  # noqa: A002
                dilation_rate: Any = None, name: str | None = None, data_format: str | None = None,
                filters: Any = None, dilations: Any = None) -> Any:
    """N-D convolution (N = 1, 2, 3 by ``input``'s rank), as ``tf.compat.v1.nn.convolution``.

    Args:
      input: ``[N, *spatial, C]`` (channels last; ``data_format`` may say channels first).
      filter: ``[*window, C, out_channels]``.
      padding: ``'SAME'`` or ``'VALID'``.
      strides, dilation_rate: N ints each, or one int for every spatial dimension (default 1).

    Raises:
      ValueError: an input rank other than 3, 4 or 5 (names the tensor).
    """
    w = filter if filter is not None else filters
    rate = dilation_rate if dilation_rate is not None else dilations
    x = convert_to_tensor(input)
    n = len(_dims(x)) - 2
    step = [1] * n if strides is None else [strides] * n if isinstance(strides, int) else list(strides)
    rates = [1] * n if rate is None else [rate] * n if isinstance(rate, int) else list(rate)
    fmts = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}
    if n not in fmts:
        raise ValueError(f"convolution: input must have rank 3, 4 or 5, got shape {_dims(x)} ({label(x)}).")
    fmt = data_format or fmts[n][0]
    if n == 1:
        return conv1d(x, w, stride=step[0], padding=padding, data_format=fmt, dilations=rates[0], name=name)
    if n == 2:
        return nn_ops.conv2d(x, w, strides=step, padding=padding, data_format=fmt, dilations=rates, name=name)
    return conv3d(x, w, strides=step, padding=padding, data_format=fmt, dilations=rates, name=name)


def max_pool1d(input: Any, ksize: Any, strides: Any, padding: str, data_format: str = "NWC",  # noqa: A002
               name: str | None = None) -> Any:
    """Max over windows of ``[N, W, C]``, as ``tf.nn.max_pool1d`` (``ksize``/``strides``: an int or 1 int)."""
    if data_format != "NWC":
        raise NotImplementedError("max_pool1d: only data_format='NWC' is implemented.")
    return pool(input, [_one(ksize, "ksize")], "MAX", padding, strides=[_one(strides, "strides")], name=name)


def avg_pool1d(input: Any, ksize: Any, strides: Any, padding: str, data_format: str = "NWC",  # noqa: A002
               name: str | None = None) -> Any:
    """Mean over windows of ``[N, W, C]``, as ``tf.nn.avg_pool1d``."""
    if data_format != "NWC":
        raise NotImplementedError("avg_pool1d: only data_format='NWC' is implemented.")
    return pool(input, [_one(ksize, "ksize")], "AVG", padding, strides=[_one(strides, "strides")], name=name)


def _one(value: Any, arg: str) -> int:
    vals = np.ravel(np.asarray(value))
    if vals.size == 3:  # [1, k, 1]
        return int(vals[1])
    if vals.size != 1:
        raise ValueError(f"pool1d: {arg} must be an int or [1, k, 1], got {value!r}.")
    return int(vals[0])


# -- special functions ------------------------------------------------------------------

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


# -- permutations, inverse error functions, monotonicity, pseudo-inverse, rank -------------------

register_op("InvertPermutation", default_name="InvertPermutation")(
    lambda p: jnp.zeros_like(p).at[p].set(jnp.arange(p.shape[0], dtype=p.dtype)))
register_op("Erfinv", default_name="Erfinv")(jax.scipy.special.erfinv)
register_op("Ndtri", default_name="Ndtri")(jax.scipy.special.ndtri)
register_op("Pinv", default_name="Pinv")(lambda a, *, rcond: jnp.linalg.pinv(a, rtol=rcond))


def invert_permutation(x: Any, name: str | None = None) -> Any:
    """The inverse permutation ``y[x[i]] = i`` of the int32/int64 vector ``x``, as
    ``tf.math.invert_permutation`` (``x`` must be a permutation; TF checks at run time)."""
    t = convert_to_tensor(x)
    if len(_dims(t)) != 1 or tensor_dtype(t) not in (_dtypes.int32, _dtypes.int64):
        raise ValueError(f"invert_permutation: x must be an int32/int64 vector, got {_dims(t)} "
                         f"{tensor_dtype(t).name} ({label(t)}).")
    return apply_op("InvertPermutation", (t,), name=name)


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
