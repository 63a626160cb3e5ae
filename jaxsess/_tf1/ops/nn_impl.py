"""Composite nn and math functions, as TF's ``nn_impl.py``, ``sort_ops.py`` and friends.

Each is written with the graph's existing ops (so gradients, GraphDef export
and placement come with them), under TF's name scope so that its result has
TF's name where TF's is stable: ``tf.nn.zero_fraction`` →
``zero_fraction/fraction:0``, ``tf.nn.crelu`` → ``CRelu/Relu:0``,
``tf.nn.sufficient_statistics`` → ``sufficient_statistics/mean_ss:0``, ….
``sort``/``argsort`` and ``div_no_nan`` are single ops of their own.
"""

from __future__ import annotations

import math
from typing import Any

import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, constant, convert_to_tensor, identity
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops, nn_ops as nn_ops
from jaxsess._tf1.ops._args import op_scope, static_int

__all__ = [
    "zero_fraction",
    "swish",
    "crelu",
    "weighted_cross_entropy_with_logits",
    "log_poisson_loss",
    "sufficient_statistics",
    "normalize_moments",
    "sort",
    "argsort",
    "reduce_variance",
    "reduce_std",
    "div_no_nan",
    "batch_gather",
    "clip_by_average_norm",
    "atrous_conv2d",
    "histogram_fixed_width",
    "weighted_moments",
    "accumulate_n",
]


def zero_fraction(value: Any, name: str | None = None) -> Any:
    """The fraction of zeros in ``value`` (a float32 scalar), as ``tf.nn.zero_fraction``."""
    with op_scope(name, "zero_fraction", [value]):
        x = convert_to_tensor(value, name="value")
        size = math_ops.cast(array_ops.size(x, out_type=_dtypes.int64), _dtypes.float32)
        nonzero = math_ops.cast(math_ops.count_nonzero(x), _dtypes.float32)
        with op_scope(None, "counts_to_fraction"):
            fraction = math_ops.truediv(math_ops.subtract(size, nonzero), size)
        return identity(fraction, name="fraction")


def swish(features: Any, beta: Any = 1.0, name: str | None = None) -> Any:
    """``features * sigmoid(beta * features)``, as ``tf.nn.swish``."""
    with op_scope(name, "swish", [features]):
        x = convert_to_tensor(features, name="features")
        b = convert_to_tensor(beta, x.dtype)
        return math_ops.multiply(x, math_ops.sigmoid(math_ops.multiply(b, x)))


def crelu(features: Any, name: str | None = None, axis: int = -1) -> Any:
    """``relu(concat([x, -x], axis))`` (the axis doubles), as ``tf.nn.crelu``."""
    with op_scope(name, "CRelu", [features]):
        x = convert_to_tensor(features, name="features")
        c = array_ops.concat([x, math_ops.negative(x)], axis, name="concat")
        return nn_ops.relu(c)


def weighted_cross_entropy_with_logits(labels: Any = None, logits: Any = None, pos_weight: Any = None,
                                       name: str | None = None, targets: Any = None) -> Any:
    """Sigmoid cross entropy with the positive term weighted by ``pos_weight``,
    as ``tf.compat.v1.nn.weighted_cross_entropy_with_logits``:
    ``(1 - z) x + (1 + (q - 1) z) (log1p(exp(-|x|)) + max(-x, 0))``.

    Raises:
      ValueError: ``labels``/``targets`` both or neither given, or shapes differ.
    """
    if (labels is None) == (targets is None):
        raise ValueError("weighted_cross_entropy_with_logits: give exactly one of labels and targets.")
    z_in = labels if labels is not None else targets
    with op_scope(name, "logistic_loss", [logits, z_in]) as scope:
        x = convert_to_tensor(logits, name="logits")
        z = convert_to_tensor(z_in, x.dtype, name="targets")
        if not x.shape.is_compatible_with(z.shape):
            raise ValueError(f"logits and targets must have the same shape ({x.shape} vs {z.shape})")
        q = convert_to_tensor(pos_weight, x.dtype)
        log_weight = math_ops.add(1.0, math_ops.multiply(math_ops.subtract(q, 1.0), z))
        soft = math_ops.add(math_ops.log1p(math_ops.exp(math_ops.negative(math_ops.abs(x)))),
                            nn_ops.relu(math_ops.negative(x)))
        return math_ops.add(math_ops.multiply(math_ops.subtract(1.0, z), x), math_ops.multiply(log_weight, soft),
                            name=scope)


def log_poisson_loss(targets: Any, log_input: Any, compute_full_loss: bool = False, name: str | None = None) -> Any:
    """``exp(log_input) - log_input * targets`` (plus Stirling's term for
    ``targets > 1`` with ``compute_full_loss``), as ``tf.nn.log_poisson_loss``.

    Raises:
      ValueError: the shapes of ``targets`` and ``log_input`` differ.
    """
    with op_scope(name, "log_poisson_loss", [log_input, targets]):
        x = convert_to_tensor(log_input, name="log_input")
        t = convert_to_tensor(targets, x.dtype, name="targets")
        if not x.shape.is_compatible_with(t.shape):
            raise ValueError(f"log_input and targets must have the same shape ({x.shape} vs {t.shape})")
        result = math_ops.subtract(math_ops.exp(x), math_ops.multiply(x, t))
        if not compute_full_loss:
            return result
        stirling = math_ops.add(
            math_ops.subtract(math_ops.multiply(t, math_ops.log(t)), t),
            math_ops.multiply(0.5, math_ops.log(math_ops.multiply(2.0 * math.pi, t))),
        )
        zeros = array_ops.zeros_like(t)
        small = math_ops.logical_and(math_ops.greater_equal(t, zeros), math_ops.less_equal(t, 1.0))
        return math_ops.add(result, math_ops.where(small, zeros, stirling))


def sufficient_statistics(x: Any, axes: Any, shift: Any = None, keep_dims: Any = None, name: str | None = None,
                          keepdims: Any = None) -> tuple[Any, Any, Any, Any]:
    """``(count, sum(x - shift), sum((x - shift)^2), shift)`` over ``axes``, as
    ``tf.nn.sufficient_statistics``. ``count`` is a constant of ``x``'s dtype.

    Raises:
      ValueError: a reduced dimension of ``x`` is unknown when the graph is built.
    """
    keep = bool(keepdims if keepdims is not None else keep_dims)
    with op_scope(name, "sufficient_statistics", [x, shift]):
        t = convert_to_tensor(x, name="x")
        dims = t.shape.as_list()
        ax = [a % len(dims) for a in (axes if isinstance(axes, list | tuple) else [axes])]
        if any(dims[a] is None for a in ax):
            raise ValueError(f"sufficient_statistics: the reduced dimensions {ax} of {t.shape} must be known.")
        counts = constant(float(np.prod([dims[a] for a in ax])), dtype=t.dtype)
        if shift is not None:
            s = convert_to_tensor(shift, t.dtype, name="shift")
            m_ss, v_ss = math_ops.subtract(t, s), math_ops.squared_difference(t, s)
        else:
            m_ss, v_ss = t, math_ops.square(t)
        m_ss = math_ops.reduce_sum(m_ss, ax, keepdims=keep, name="mean_ss")
        v_ss = math_ops.reduce_sum(v_ss, ax, keepdims=keep, name="var_ss")
    return counts, m_ss, v_ss, shift


def normalize_moments(counts: Any, mean_ss: Any, variance_ss: Any, shift: Any, name: str | None = None) -> tuple[Any, Any]:
    """``(mean, variance)`` from sufficient statistics, as ``tf.nn.normalize_moments``."""
    with op_scope(name, "normalize", [counts, mean_ss, variance_ss, shift]):
        m = convert_to_tensor(mean_ss)
        divisor = math_ops.reciprocal(convert_to_tensor(counts, m.dtype), name="divisor")
        if shift is not None:
            shifted_mean = math_ops.multiply(m, divisor, name="shifted_mean")
            mean = math_ops.add(shifted_mean, convert_to_tensor(shift, m.dtype), name="mean")
        else:
            shifted_mean = math_ops.multiply(m, divisor, name="mean")
            mean = shifted_mean
        variance = math_ops.subtract(math_ops.multiply(convert_to_tensor(variance_ss, m.dtype), divisor),
                                     math_ops.square(shifted_mean), name="variance")
    return mean, variance


def _sort_impl(x: Any, *, axis: int, descending: bool, indices: bool) -> Any:
    key = -x if descending else x  # a stable sort: ties keep their order, as TF's top_k-based sort
    if indices:
        return jnp.argsort(key, axis=axis, stable=True).astype(jnp.int32)
    return -jnp.sort(key, axis=axis, stable=True) if descending else jnp.sort(key, axis=axis, stable=True)


register_op("Sort", default_name="sort")(_sort_impl)


def _sort(values: Any, axis: Any, direction: str, name: str | None, indices: bool) -> Any:
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f'"{direction}" is not a valid direction for sorting: expected "ASCENDING" or "DESCENDING".')
    default = "argsort" if indices else "sort"
    with op_scope(name, default, [values]) as scope:
        x = convert_to_tensor(values, name="values")
        rank = x.shape.ndims
        a = static_int(axis, default, "axis")
        if rank is not None and not -rank <= a < rank:
            raise ValueError(f"{default}: axis {a} is out of range for a tensor of rank {rank}.")
        return apply_op("Sort", (x,), {"axis": a, "descending": direction == "DESCENDING", "indices": indices},
                        name=scope)


def sort(values: Any, axis: Any = -1, direction: str = "ASCENDING", name: str | None = None) -> Any:
    """``values`` sorted along ``axis``, as ``tf.sort``.

    Raises:
      ValueError: an unknown ``direction`` or an axis out of range.
    """
    return _sort(values, axis, direction, name, indices=False)


def argsort(values: Any, axis: Any = -1, direction: str = "ASCENDING", stable: bool = False,
            name: str | None = None) -> Any:
    """The int32 indices that sort ``values`` along ``axis``, as ``tf.argsort``
    (ties in index order, which also satisfies ``stable=True``).

    Raises:
      ValueError: an unknown ``direction`` or an axis out of range.
    """
    return _sort(values, axis, direction, name, indices=True)


def reduce_variance(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Any:
    """The variance of ``input_tensor`` over ``axis``, as ``tf.math.reduce_variance``."""
    with op_scope(name, "reduce_variance", [input_tensor]):
        x = convert_to_tensor(input_tensor, name="input_tensor")
        means = math_ops.reduce_mean(x, axis, keepdims=True)
        squared = math_ops.square(math_ops.abs(math_ops.subtract(x, means)))
        return math_ops.reduce_mean(squared, axis, keepdims=keepdims)


def reduce_std(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Any:
    """The standard deviation of ``input_tensor`` over ``axis``, as ``tf.math.reduce_std``."""
    with op_scope(name, "reduce_std", [input_tensor]):
        return math_ops.sqrt(reduce_variance(input_tensor, axis, keepdims))


@register_op("DivNoNan", default_name="div_no_nan", tf=TFOp("DivNoNan"))
def _div_no_nan(x: Any, y: Any) -> Any:
    zero = y == 0
    return jnp.where(zero, jnp.zeros((), x.dtype), x / jnp.where(zero, jnp.ones((), y.dtype), y))


def div_no_nan(x: Any, y: Any, name: str | None = None) -> Any:
    """``x / y``, and 0 where ``y`` is 0, as ``tf.div_no_nan`` (floating types).

    Raises:
      TypeError: ``x`` and ``y`` have different dtypes.
    """
    with op_scope(name, "div_no_nan", [x, y]) as scope:
        a = convert_to_tensor(x, name="x")
        b = convert_to_tensor(y, a.dtype, name="y")
        return apply_op("DivNoNan", (a, b), {}, name=scope)


def batch_gather(params: Any, indices: Any, name: str | None = None) -> Any:
    """``gather`` with every leading dimension of ``indices`` a batch
    dimension, as the deprecated ``tf.batch_gather``."""
    idx = convert_to_tensor(indices)
    if idx.shape.ndims is None:
        raise ValueError("batch_gather: the rank of indices must be known.")
    return array_ops.gather(params, idx, batch_dims=idx.shape.ndims - 1, name=name or "BatchGather")


def clip_by_average_norm(t: Any, clip_norm: Any, name: str | None = None) -> Any:
    """``t * clip_norm / max(l2norm(t) / size(t), clip_norm)``, as ``tf.clip_by_average_norm``."""
    with op_scope(name, "clip_by_average_norm", [t, clip_norm]) as scope:
        x = convert_to_tensor(t, name="t")
        n = math_ops.cast(array_ops.size(x), _dtypes.float32)
        l2norm_inv = math_ops.rsqrt(math_ops.reduce_sum(math_ops.multiply(x, x)))
        cn = convert_to_tensor(clip_norm, x.dtype)
        factor = math_ops.minimum(math_ops.multiply(l2norm_inv, n), math_ops.truediv(1.0, cn))
        return identity(math_ops.multiply(math_ops.multiply(x, cn), factor), name=scope)


def atrous_conv2d(value: Any, filters: Any, rate: int, padding: str, name: str | None = None) -> Any:
    """A 2-D convolution with holes: ``conv2d`` with dilations ``[1, rate, rate, 1]``
    (NHWC), as ``tf.nn.atrous_conv2d``.

    Args:
      value: ``[N, H, W, C]`` floats.
      filters: ``[fh, fw, C, out_channels]``.
      rate: a positive int, the spacing of the filter taps.
      padding: ``'SAME'`` or ``'VALID'``.

    Raises:
      ValueError: ``rate`` is not a positive int.
    """
    if not isinstance(rate, int) or rate < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return nn_ops.conv2d(value, filters, strides=[1, 1, 1, 1], padding=padding, dilations=[1, rate, rate, 1],
                         name=name)


@register_op("HistogramFixedWidth", default_name="HistogramFixedWidth", tf=TFOp(
    types={"T": 0}, to_tf=lambda a, s: ({"dtype": a["dtype"]}, [np.asarray(a["nbins"], np.int32)]),
    from_tf=lambda a, c: {"dtype": a["dtype"], "nbins": int(c[0])}, n_const=1))
def _histogram(values: Any, value_range: Any, *, nbins: int, dtype: _dtypes.DType) -> Any:
    lo, hi = value_range[0], value_range[1]
    step = (hi - lo) / nbins
    index = jnp.clip(jnp.floor((values.ravel() - lo) / step), 0, nbins - 1).astype(jnp.int32)
    return jnp.zeros(nbins, dtype.np_dtype).at[index].add(1)


def histogram_fixed_width(values: Any, value_range: Any, nbins: Any = 100, dtype: Any = _dtypes.int32,
                          name: str | None = None) -> Any:
    """Counts of ``values`` in ``nbins`` equal bins over ``value_range`` (values
    outside it count in the first or last bin), as ``tf.histogram_fixed_width``.

    Args:
      values: a numeric tensor (any shape).
      value_range: ``[lo, hi]``, ``values``' dtype.
      nbins: a positive int known when the graph is built.
      dtype: ``int32`` or ``int64``.

    Raises:
      ValueError: ``nbins`` is not positive.
    """
    with op_scope(name, "histogram_fixed_width", [values, value_range]) as scope:
        x = convert_to_tensor(values, name="values")
        r = convert_to_tensor(value_range, x.dtype, name="value_range")
        n = static_int(nbins, "histogram_fixed_width", "nbins")
        if n <= 0:
            raise ValueError(f"nbins should be a positive number, got {n}.")
        return apply_op("HistogramFixedWidth", (x, r), {"nbins": n, "dtype": _dtypes.as_dtype(dtype)}, name=scope)


def weighted_moments(x: Any, axes: Any, frequency_weights: Any, name: str | None = None,
                     keep_dims: Any = None, keepdims: Any = None) -> tuple[Any, Any]:
    """The frequency-weighted mean and variance of ``x`` over ``axes``, as
    ``tf.nn.weighted_moments`` (two passes; zero total weight gives 0, as ``div_no_nan``).

    Args:
      x: a float tensor (float16 is computed in float32, as TF).
      axes: the axes to reduce, known when the graph is built.
      frequency_weights: broadcastable to ``x`` (cast to ``x``'s dtype).
      keep_dims / keepdims: keep the reduced axes with size 1.

    Returns:
      ``(mean, variance)``, ``x``'s dtype.
    """
    keep = bool(keep_dims if keep_dims is not None else keepdims)
    with op_scope(name, "weighted_moments", [x, frequency_weights]):
        x = convert_to_tensor(x, name="x")
        w = convert_to_tensor(frequency_weights, name="frequency_weights")
        half = x.dtype == _dtypes.float16
        if half:
            x = math_ops.cast(x, _dtypes.float32)
        if w.dtype != x.dtype:
            w = math_ops.cast(w, x.dtype)
        weighted_sum = math_ops.reduce_sum(w * x, axes, name="weighted_input_sum", keepdims=True)
        total = math_ops.reduce_sum(w + array_ops.zeros_like(x), axes, name="sum_of_weights", keepdims=True)
        mean = div_no_nan(weighted_sum, total)
        distsq = math_ops.reduce_sum(w * math_ops.squared_difference(x, mean), axes, name="weighted_distsq",
                                     keepdims=True)
        variance = div_no_nan(distsq, total)
        if not keep:
            mean = array_ops.squeeze(mean, axis=axes)
            variance = array_ops.squeeze(variance, axis=axes)
        if half:
            mean, variance = math_ops.cast(mean, _dtypes.float16), math_ops.cast(variance, _dtypes.float16)
        return mean, variance


def accumulate_n(inputs: Any, shape: Any = None, tensor_dtype: Any = None, name: str | None = None) -> Any:
    """The element-wise sum of a list of tensors of one shape and dtype, as ``tf.math.accumulate_n``
    (TF 2.x computes it with ``add_n``; so does jaxsess).

    Raises:
      ValueError: an empty list, or ``shape``/``tensor_dtype`` that do not match the inputs.
    """
    if not inputs:
        raise ValueError("accumulate_n: inputs must be a non-empty list of tensors.")
    ts = [convert_to_tensor(t) for t in inputs]
    if tensor_dtype is not None and any(t.dtype != _dtypes.as_dtype(tensor_dtype) for t in ts):
        raise ValueError(f"accumulate_n: tensor_dtype {_dtypes.as_dtype(tensor_dtype).name} does not match "
                         f"the inputs' dtypes {[t.dtype.name for t in ts]}.")
    if shape is not None and any(not t.shape.is_compatible_with(shape) for t in ts):
        raise ValueError(f"accumulate_n: shape {shape} does not match the inputs' shapes {[t.shape for t in ts]}.")
    return math_ops.add_n(ts, name=name)
