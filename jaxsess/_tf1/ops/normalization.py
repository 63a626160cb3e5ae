"""Normalization ops, as ``tf.compat.v1.nn``: ``batch_normalization``,
``fused_batch_norm`` and ``local_response_normalization`` (``lrn``).

``nn.moments`` (the statistics these take) lives in :mod:`jaxsess._tf1.ops.nn_ops`.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops, nn_ops as nn_ops
from jaxsess._tf1.ops._args import float_input, op_scope, static_int

__all__ = ["batch_normalization", "fused_batch_norm", "local_response_normalization", "lrn"]


def batch_normalization(x: Any, mean: Any, variance: Any, offset: Any, scale: Any, variance_epsilon: float,
                        name: str | None = None) -> Any:
    """``(x - mean) * scale / sqrt(variance + variance_epsilon) + offset``, as
    ``tf.compat.v1.nn.batch_normalization``.

    Computed as TF does: ``inv = rsqrt(variance + eps) * scale``, then
    ``x * inv + (offset - mean * inv)``.

    Args:
      x: a floating tensor of any shape.
      mean, variance: tensors broadcastable to ``x`` (from ``nn.moments``).
      offset, scale: ``beta`` and ``gamma`` (each may be ``None``).
      variance_epsilon: a small float avoiding division by zero.

    Returns:
      ``x``'s shape and dtype.
    """
    with op_scope(name, "batchnorm", [x, mean, variance, scale, offset]) as scope:
        x = float_input(x, "batch_normalization")
        inv = math_ops.rsqrt(math_ops.add(variance, variance_epsilon))
        if scale is not None:
            inv = math_ops.multiply(inv, scale)
        shift = math_ops.negative(math_ops.multiply(mean, inv)) if offset is None else math_ops.subtract(
            offset, math_ops.multiply(mean, inv))
        return math_ops.add(math_ops.multiply(x, inv), shift, name=scope)


def fused_batch_norm(x: Any, scale: Any, offset: Any, mean: Any = None, variance: Any = None,
                     epsilon: float = 0.001, data_format: str = "NHWC", is_training: bool = True,
                     name: str | None = None, exponential_avg_factor: float = 1.0) -> tuple[Any, Any, Any]:
    """Batch normalization of a 4-D tensor over its channel axis, as
    ``tf.compat.v1.nn.fused_batch_norm``.

    Returns:
      ``(y, batch_mean, batch_variance)``: in training, the batch variance is
      the unbiased (``n / (n - 1)``) one, as TF; in inference, ``mean`` and
      ``variance`` pass through.
    """
    with op_scope(name, "FusedBatchNorm", [x, scale, offset]):
        x = float_input(x, "fused_batch_norm")
        axes = [0, 1, 2] if data_format.upper() == "NHWC" else [0, 2, 3]
        if is_training:
            m, v = nn_ops.moments(x, axes)
            n = 1
            for a in axes:
                d = x.shape[a]
                if d is None:
                    raise ValueError("fused_batch_norm: the batch and spatial dimensions must be known.")
                n *= int(d)
            y = batch_normalization(x, _channels(m, data_format), _channels(v, data_format),
                                    _channels(offset, data_format), _channels(scale, data_format), epsilon)
            return y, m, math_ops.multiply(v, n / max(n - 1, 1))
        y = batch_normalization(x, _channels(mean, data_format), _channels(variance, data_format),
                                _channels(offset, data_format), _channels(scale, data_format), epsilon)
        return y, convert_to_tensor(mean), convert_to_tensor(variance)


def _channels(v: Any, data_format: str) -> Any:
    if data_format.upper() == "NHWC":
        return v
    return array_ops.reshape(convert_to_tensor(v), [-1, 1, 1])


@register_op("LRN", default_name="LRN")
def _lrn(x: Any, *, depth_radius: int, bias: float, alpha: float, beta: float) -> Any:
    sq = jnp.square(x)
    r = depth_radius
    window = (1, 1, 1, 2 * r + 1)
    sums = jax.lax.reduce_window(sq, jnp.zeros((), x.dtype), jax.lax.add, window, (1, 1, 1, 1),
                                 ((0, 0), (0, 0), (0, 0), (r, r)))
    return x / jnp.power(bias + alpha * sums, beta)


def local_response_normalization(input: Any, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0,  # noqa: A002
                                 beta: float = 0.5, name: str | None = None) -> Any:
    """Local response normalization over the last axis, as ``tf.nn.local_response_normalization``.

    ``output = input / (bias + alpha * sqr_sum) ** beta`` where ``sqr_sum``
    sums ``input ** 2`` over channels ``[d - depth_radius, d + depth_radius]``.

    Args:
      input: ``[N, H, W, C]`` floats.

    Raises:
      ValueError: ``input`` is not 4-D (names the node).
    """
    x = float_input(input, "local_response_normalization")
    if TensorShape(x.shape).ndims not in (None, 4):
        raise ValueError(f"local_response_normalization: input must be 4-D, got shape {x.shape}.")
    attrs = {"depth_radius": static_int(depth_radius, "lrn", "depth_radius"), "bias": float(bias),
             "alpha": float(alpha), "beta": float(beta)}
    return apply_op("LRN", (x,), attrs, name=name)


lrn = local_response_normalization
