"""More of ``tf.nn`` (TF 2 names reachable from ``tf.compat.v1.nn``):
``max_pool_v2``/``avg_pool_v2``, ``conv1d_transpose``, ``conv_transpose``,
``batch_norm_with_global_normalization``, ``compute_average_loss``,
``scale_regularization_loss``, ``relu_layer``, ``convolution`` and
``max_pool1d``/``avg_pool1d``.

Each dispatches to the existing op of its rank, as TF's Python does, so op
types and names are those of the 1-D/2-D/3-D ops (``conv1d_transpose`` is a
``conv2d_transpose`` over a height-1 image under TF's ``conv1d_transpose``
scope). jaxsess runs one replica, so the loss helpers divide by the batch
size (``compute_average_loss``) or by 1 (``scale_regularization_loss``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops, nn_ops as nn_ops
from jaxsess._tf1.ops._args import label, op_scope, static_ints, tensor_dtype
from jaxsess._tf1.ops.array_ops import _dims
from jaxsess._tf1.ops.conv3d_ops import avg_pool3d, conv3d, conv3d_transpose, max_pool3d, pool
from jaxsess._tf1.ops.conv_ops import conv1d, conv2d_transpose
from jaxsess._tf1.ops.nn_impl import div_no_nan
from jaxsess._tf1.ops.normalization import batch_normalization

__all__ = [
    "max_pool_v2", "avg_pool_v2", "conv1d_transpose", "conv_transpose", "batch_norm_with_global_normalization",
    "compute_average_loss", "scale_regularization_loss", "relu_layer", "convolution", "max_pool1d", "avg_pool1d",
]


def _rank(x: Any, fn: str) -> int:
    n = TensorShape(x.shape).ndims
    if n is None:
        raise ValueError(f"{fn}: the rank of {label(x)} must be known when the graph is built.")
    if n not in (3, 4, 5):
        raise ValueError(f"{fn}: input must have rank 3, 4 or 5 (N=1, 2, 3 spatial dimensions), got rank {n} "
                         f"({label(x)}).")
    return n


def _pool(kind: str, input: Any, ksize: Any, strides: Any, padding: str, data_format: str | None,  # noqa: A002
          name: str | None) -> Any:
    fn = f"{kind}_pool_v2"
    x = convert_to_tensor(input)
    n = _rank(x, fn)
    fmt = data_format or {3: "NWC", 4: "NHWC", 5: "NDHWC"}[n]
    if n == 3:
        return (max_pool1d if kind == "max" else avg_pool1d)(x, ksize, strides, padding, fmt, name)
    if n == 4:
        return (nn_ops.max_pool if kind == "max" else nn_ops.avg_pool)(x, ksize, strides, padding, fmt, name)
    return (max_pool3d if kind == "max" else avg_pool3d)(x, ksize, strides, padding, fmt, name)


def max_pool_v2(input: Any, ksize: Any, strides: Any, padding: str, data_format: str | None = None,  # noqa: A002
                name: str | None = None) -> Any:
    """Max pooling over 1, 2 or 3 spatial dimensions by ``input``'s rank (3, 4 or 5), as
    ``tf.nn.max_pool`` (TF 2's, ``tf.compat.v1.nn.max_pool_v2``); ``ksize``/``strides`` are an
    int, N ints or N + 2 ints.

    Raises:
      ValueError: a rank other than 3, 4 or 5.
    """
    return _pool("max", input, ksize, strides, padding, data_format, name)


def avg_pool_v2(input: Any, ksize: Any, strides: Any, padding: str, data_format: str | None = None,  # noqa: A002
                name: str | None = None) -> Any:
    """Average pooling by rank, as ``tf.compat.v1.nn.avg_pool_v2`` (see :func:`max_pool_v2`)."""
    return _pool("avg", input, ksize, strides, padding, data_format, name)


def _one_spatial(value: Any, fn: str, arg: str) -> int:
    vals = static_ints(value, fn, arg)
    if len(vals) == 1:
        return vals[0]
    if len(vals) == 3 and vals[0] == vals[2] == 1:
        return vals[1]
    raise ValueError(f"{fn}: {arg} must be an int, 1 int or 3 ints [1, w, 1], got {list(vals)}.")


def conv1d_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: str = "SAME",  # noqa: A002
                     data_format: str = "NWC", dilations: Any = None, name: str | None = None) -> Any:
    """The transpose (gradient) of ``conv1d``, as ``tf.nn.conv1d_transpose``.

    Args:
      input: ``[N, W, in_channels]`` floats (``'NWC'`` only).
      filters: ``[fw, output_channels, in_channels]``.
      output_shape: the 3 ints of the result's shape.
      strides, dilations: an int, 1 int or ``[1, s, 1]``.

    Raises:
      ValueError: ``data_format`` other than ``'NWC'``, or shapes that do not fit.
    """
    if data_format not in ("NWC", None):
        raise ValueError(f"conv1d_transpose: jaxsess supports data_format 'NWC', got {data_format!r}.")
    with op_scope(name, "conv1d_transpose", [input, filters, output_shape]):
        x = array_ops.expand_dims(convert_to_tensor(input), 1)
        w = array_ops.expand_dims(convert_to_tensor(filters), 0)
        shape = list(static_ints(output_shape, "conv1d_transpose", "output_shape"))
        if len(shape) != 3:
            raise ValueError(f"conv1d_transpose: output_shape must have 3 elements, got {shape}.")
        s = _one_spatial(strides, "conv1d_transpose", "strides")
        d = 1 if dilations is None else _one_spatial(dilations, "conv1d_transpose", "dilations")
        y = conv2d_transpose(x, w, [shape[0], 1, shape[1], shape[2]], [1, 1, s, 1], padding,
                             dilations=[1, 1, d, 1])
        return array_ops.squeeze(y, [1])


def conv_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: str = "SAME",  # noqa: A002
                   data_format: str | None = None, dilations: Any = None, name: str | None = None) -> Any:
    """The transpose of an N-D convolution, by ``output_shape``'s length (3, 4 or 5), as
    ``tf.nn.conv_transpose``."""
    n = len(static_ints(output_shape, "conv_transpose", "output_shape"))
    if n == 3:
        return conv1d_transpose(input, filters, output_shape, strides, padding, data_format or "NWC", dilations,
                                name)
    if n == 4:
        return conv2d_transpose(input, filters, output_shape, strides, padding, data_format or "NHWC", name,
                                dilations=dilations)
    if n == 5:
        return conv3d_transpose(input, filters, output_shape, strides, padding, data_format or "NDHWC", name,
                                dilations=dilations)
    raise ValueError(f"conv_transpose: output_shape must have 3, 4 or 5 elements, got {n}.")


def batch_norm_with_global_normalization(t: Any = None, m: Any = None, v: Any = None, beta: Any = None,
                                         gamma: Any = None, variance_epsilon: float | None = None,
                                         scale_after_normalization: bool | None = None, name: str | None = None,
                                         input: Any = None, mean: Any = None,  # noqa: A002
                                         variance: Any = None) -> Any:
    """``(t - m) / sqrt(v + eps) * gamma + beta`` (``gamma`` only with
    ``scale_after_normalization``), as ``tf.compat.v1.nn.batch_norm_with_global_normalization``
    (``input``/``mean``/``variance`` are the v2 names of ``t``/``m``/``v``)."""
    t = input if t is None else t
    m = mean if m is None else m
    v = variance if v is None else v
    if variance_epsilon is None or scale_after_normalization is None:
        raise TypeError("batch_norm_with_global_normalization: variance_epsilon and scale_after_normalization "
                        "are required.")
    return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None, variance_epsilon,
                               name or "batchnorm")


def compute_average_loss(per_example_loss: Any, sample_weight: Any = None, global_batch_size: Any = None) -> Any:
    """``sum(per_example_loss * sample_weight) / global_batch_size`` (0 when that is 0; default:
    the first dimension of ``per_example_loss``, one replica), as ``tf.nn.compute_average_loss``
    (ops unscoped, as TF: the result is ``div_no_nan``).

    Raises:
      ValueError: a scalar ``per_example_loss`` (TF's rule).
    """
    loss = convert_to_tensor(per_example_loss)
    d = tensor_dtype(loss)
    if TensorShape(loss.shape).ndims == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1.")
    if sample_weight is not None:
        loss = math_ops.multiply(loss, convert_to_tensor(sample_weight, dtype=d))
    if global_batch_size is None:
        global_batch_size = array_ops.shape(loss)[0]
    total = math_ops.reduce_sum(loss)
    return div_no_nan(total, math_ops.cast(global_batch_size, d))


def scale_regularization_loss(regularization_loss: Any) -> Any:
    """``sum(regularization_loss)`` divided by the number of replicas (1 in jaxsess), as
    ``tf.nn.scale_regularization_loss``."""
    return math_ops.reduce_sum(convert_to_tensor(regularization_loss)) / 1


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
