"""Convolution gradients as ops of their own, and dilated convolutions built on
``space_to_batch``, as ``tf.compat.v1.nn``: ``conv3d_backprop_filter[_v2]``
(TF's ``Conv3DBackpropFilterV2``), ``depthwise_conv2d_native_backprop_input``
/ ``_filter`` (TF's ``DepthwiseConv2dNativeBackprop{Input,Filter}``),
``atrous_conv2d_transpose`` and ``with_space_to_batch``.

Each gradient op is the transpose (``jax.linear_transpose``) of the forward
convolution (``lax.conv_general_dilated``; depthwise: grouped by channel,
TF's channel order ``c·M + k``) at the given input or filter shape, so any
shape that the forward convolution maps onto ``out_backprop``'s is accepted,
as TF; another raises ``ValueError`` naming the node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import TensorShape
from jaxsess._core.graph._registry import register_op
from jaxsess._tf1.ops import _conv_cpu, space_ops
from jaxsess._tf1.ops._args import (
    data_format_arg,
    float_input,
    op_scope,
    padding_arg,
    same_dtype,
    spatial_arg,
    static_ints,
)
from jaxsess._tf1.ops.conv3d_ops import _fmt3, _padding, _spatial3
from jaxsess._tf1.ops.conv_ops import conv2d_transpose

__all__ = ["conv3d_backprop_filter", "conv3d_backprop_filter_v2", "depthwise_conv2d_native_backprop_input",
           "depthwise_conv2d_native_backprop_filter", "atrous_conv2d_transpose", "with_space_to_batch"]


def _transpose(fn: Callable[[Any], Any], shape: tuple[int, ...], dtype: Any, dy: Any, what: str) -> Any:
    """``fn``'s transpose at an argument of ``shape``, applied to ``dy``."""
    z = jnp.zeros(shape, dtype)
    expect = jax.eval_shape(fn, z).shape
    if tuple(expect) != tuple(dy.shape):
        raise ValueError(f"the convolution with {what} of shape {list(shape)} gives shape {list(expect)}, but "
                         f"out_backprop has shape {list(dy.shape)}")
    (out,) = jax.linear_transpose(fn, z)(dy)
    return out


@register_op("Conv3DBackpropFilterV2", default_name="Conv3DBackpropFilterV2")
def _conv3d_backprop_filter(x: Any, dy: Any, *, filter_sizes: tuple[int, ...], strides: tuple[int, ...],
                            padding: str, dilations: tuple[int, ...], data_format: str) -> Any:
    def forward(w: Any) -> Any:
        return jax.lax.conv_general_dilated(x, w, window_strides=strides, padding=padding, rhs_dilation=dilations,
                                            dimension_numbers=(data_format, "DHWIO", data_format))

    return _transpose(forward, filter_sizes, x.dtype, dy, "a filter")


def conv3d_backprop_filter_v2(input: Any, filter_sizes: Any, out_backprop: Any, strides: Any,  # noqa: A002
                              padding: Any, data_format: str = "NDHWC", dilations: Any = (1, 1, 1, 1, 1),
                              name: str | None = None) -> Any:
    """The gradient of ``conv3d`` with respect to its filter of shape ``filter_sizes``
    (``[fd, fh, fw, in_channels, out_channels]``, known when the graph is built), as
    ``tf.compat.v1.nn.conv3d_backprop_filter_v2`` (TF's ``Conv3DBackpropFilterV2``).

    Args:
      input: ``[N, D, H, W, C]`` (NDHWC) or NCDHW, floats.
      out_backprop: ``conv3d``'s output gradient, ``input``'s dtype.
      strides, dilations: 5 ints in ``data_format`` order (or 1 or 3).

    Returns:
      ``filter_sizes``, ``input``'s dtype.

    Raises:
      ValueError: ``conv3d`` with such a filter does not give ``out_backprop``'s shape (names the node).
    """
    fn = "conv3d_backprop_filter"
    fmt = _fmt3(data_format, fn)
    x, dy = same_dtype(fn, ("input", input), ("out_backprop", out_backprop))
    x = float_input(x, fn)
    sizes = static_ints(filter_sizes, fn, "filter_sizes")
    if len(sizes) != 5:
        raise ValueError(f"{fn}: filter_sizes must have 5 elements, got {list(sizes)}.")
    attrs = {"filter_sizes": sizes, "strides": _spatial3(strides, fn, "strides", fmt),
             "padding": _padding(padding, fn), "dilations": _spatial3(dilations, fn, "dilations", fmt, default=1),
             "data_format": fmt}
    return apply_op("Conv3DBackpropFilterV2", (x, dy), attrs, name=name)


conv3d_backprop_filter = conv3d_backprop_filter_v2


def _depthwise(strides: Any, padding: Any, dilations: Any, fmt: str) -> Callable[[Any, Any], Any]:
    return lambda x, w: _conv_cpu.depthwise_direct(x, w, strides, padding, dilations, fmt)


@register_op("DepthwiseConv2dNativeBackpropInput", default_name="DepthwiseConv2dNativeBackpropInput")
def _depthwise_backprop_input(w: Any, dy: Any, *, input_sizes: tuple[int, ...], strides: tuple[int, int],
                              padding: Any, dilations: tuple[int, int], data_format: str) -> Any:
    conv = _depthwise(strides, padding, dilations, data_format)
    return _transpose(lambda x: conv(x, w), input_sizes, w.dtype, dy, "an input")


@register_op("DepthwiseConv2dNativeBackpropFilter", default_name="DepthwiseConv2dNativeBackpropFilter")
def _depthwise_backprop_filter(x: Any, dy: Any, *, filter_sizes: tuple[int, ...], strides: tuple[int, int],
                               padding: Any, dilations: tuple[int, int], data_format: str) -> Any:
    conv = _depthwise(strides, padding, dilations, data_format)
    return _transpose(lambda w: conv(x, w), filter_sizes, x.dtype, dy, "a filter")


def _depthwise_attrs(fn: str, sizes: Any, strides: Any, padding: Any, data_format: Any, dilations: Any,
                     key: str) -> dict[str, Any]:
    fmt = data_format_arg(data_format, fn)
    vals = static_ints(sizes, fn, key)
    if len(vals) != 4:
        raise ValueError(f"{fn}: {key} must have 4 elements, got {list(vals)}.")
    return {key: vals, "strides": spatial_arg(strides, fn, "strides", fmt), "padding": padding_arg(padding, fn, fmt),
            "dilations": spatial_arg(dilations, fn, "dilations", fmt, default=1), "data_format": fmt}


def depthwise_conv2d_native_backprop_input(input_sizes: Any, filter: Any, out_backprop: Any,  # noqa: A002
                                           strides: Any, padding: Any, data_format: str = "NHWC",
                                           dilations: Any = (1, 1, 1, 1), name: str | None = None) -> Any:
    """The gradient of ``depthwise_conv2d_native`` with respect to its input of shape
    ``input_sizes`` (4 ints known when the graph is built), as
    ``tf.compat.v1.nn.depthwise_conv2d_native_backprop_input``.

    Args:
      filter: ``[fh, fw, C, channel_multiplier]``, floats.
      out_backprop: ``[N, H', W', C * channel_multiplier]`` (or NCHW), ``filter``'s dtype.

    Returns:
      ``input_sizes``, ``filter``'s dtype.

    Raises:
      ValueError: the forward op of such an input does not give ``out_backprop``'s shape.
    """
    fn = "depthwise_conv2d_native_backprop_input"
    w, dy = same_dtype(fn, ("filter", filter), ("out_backprop", out_backprop))
    w = float_input(w, fn)
    attrs = _depthwise_attrs(fn, input_sizes, strides, padding, data_format, dilations, "input_sizes")
    return apply_op("DepthwiseConv2dNativeBackpropInput", (w, dy), attrs, name=name)


def depthwise_conv2d_native_backprop_filter(input: Any, filter_sizes: Any, out_backprop: Any,  # noqa: A002
                                            strides: Any, padding: Any, data_format: str = "NHWC",
                                            dilations: Any = (1, 1, 1, 1), name: str | None = None) -> Any:
    """The gradient of ``depthwise_conv2d_native`` with respect to its filter of shape
    ``filter_sizes`` (``[fh, fw, C, channel_multiplier]``, known when the graph is built), as
    ``tf.compat.v1.nn.depthwise_conv2d_native_backprop_filter``.

    Returns:
      ``filter_sizes``, ``input``'s dtype.

    Raises:
      ValueError: the forward op with such a filter does not give ``out_backprop``'s shape.
    """
    fn = "depthwise_conv2d_native_backprop_filter"
    x, dy = same_dtype(fn, ("input", input), ("out_backprop", out_backprop))
    x = float_input(x, fn)
    attrs = _depthwise_attrs(fn, filter_sizes, strides, padding, data_format, dilations, "filter_sizes")
    return apply_op("DepthwiseConv2dNativeBackpropFilter", (x, dy), attrs, name=name)


def atrous_conv2d_transpose(value: Any, filters: Any, output_shape: Any, rate: Any, padding: Any,
                            name: str | None = None) -> Any:
    """The transpose of ``atrous_conv2d`` (a stride-1 convolution dilated by ``rate``), as
    ``tf.compat.v1.nn.atrous_conv2d_transpose``: ``conv2d_transpose`` with ``dilations``
    ``rate`` (TF builds it from ``space_to_batch``; the values are the same).

    Args:
      value: ``[N, H, W, in_channels]``, floats.
      filters: ``[fh, fw, out_channels, in_channels]``.
      output_shape: 4 ints (``[N, H, W, out_channels]`` for ``'SAME'``).
      rate: a positive int.
      padding: ``'SAME'`` or ``'VALID'``.

    Raises:
      ValueError: ``rate`` < 1, bad ``padding``, or shapes that do not fit.
    """
    fn = "atrous_conv2d_transpose"
    r = static_ints(rate, fn, "rate")
    if len(r) != 1 or r[0] < 1:
        raise ValueError(f"rate {list(r) if len(r) != 1 else r[0]} cannot be less than one")
    if str(padding).upper() not in ("SAME", "VALID"):
        raise ValueError(f"padding must be either VALID or SAME: {padding}")
    with op_scope(name, fn, [value, filters, output_shape]) as scope:
        return conv2d_transpose(value, filters, output_shape, [1, 1, 1, 1], str(padding).upper(),
                                name=scope, dilations=[1, r[0], r[0], 1])


def with_space_to_batch(input: Any, dilation_rate: Any, padding: Any, op: Callable[..., Any],  # noqa: A002
                        filter_shape: Any = None, spatial_dims: Any = None, data_format: Any = None) -> Any:
    """``op(input, num_spatial_dims, padding)`` dilated by ``dilation_rate`` through
    ``space_to_batch_nd`` / ``batch_to_space_nd``, as ``tf.compat.v1.nn.with_space_to_batch``.

    With every rate 1 it is ``op(input, num_spatial_dims, padding)``. Otherwise the spatial
    dimensions are padded (``'SAME'``: by the dilated ``filter_shape``, split as TF; then up to a
    multiple of the rate), moved into the batch, ``op(..., 'VALID')`` runs, and the result is moved
    back and cropped.

    Args:
      input: a tensor whose spatial dimensions (``spatial_dims``; default ``1..N``, or ``2..N+1``
        for a ``data_format`` starting with ``'NC'``) are known when the graph is built.
      dilation_rate: ``N`` positive ints.
      padding: ``'SAME'`` (needs ``filter_shape``) or ``'VALID'``.
      op: ``(tensor, num_spatial_dims, padding) -> tensor``.

    Raises:
      ValueError: a rate < 1, ``'SAME'`` without ``filter_shape``, bad ``padding`` or ``spatial_dims``.
    """
    fn = "with_space_to_batch"
    x = convert_to_tensor(input, name="input")
    rate = static_ints(dilation_rate, fn, "dilation_rate")
    if any(r < 1 for r in rate):
        raise ValueError(f"`dilation_rate` must be positive. Received: dilation_rate={list(rate)}")
    n = len(rate)
    if spatial_dims is None:
        dims = list(range(2, n + 2)) if data_format is not None and str(data_format).startswith("NC") \
            else list(range(1, n + 1))
    else:
        dims = [int(d) for d in spatial_dims]
        if len(dims) != n or dims != sorted(set(dims)) or dims[0] < 1:
            raise ValueError(f"spatial_dims must be a monotonically increasing sequence of positive integers, "
                             f"one per rate; got {dims}.")
    if all(r == 1 for r in rate):
        return op(x, n, padding)
    p = str(padding).upper()
    if p == "SAME":
        if filter_shape is None:
            raise ValueError("`filter_shape` must be specified for `padding='SAME'`. Received: filter_shape=None")
        fs = static_ints(filter_shape, fn, "filter_shape")
        extra = [f + (f - 1) * (r - 1) - 1 for f, r in zip(fs, rate, strict=True)]
        base = [(e // 2, e - e // 2) for e in extra]
    elif p == "VALID":
        base = [(0, 0)] * n
    else:
        raise ValueError(f"padding must be either VALID or SAME: {padding}")
    shape = TensorShape(x.shape)
    known = [shape[d] for d in dims] if shape.dims is not None else [None] * n
    sizes = [int(s) for s in known if s is not None]
    if len(sizes) != n:
        raise ValueError(f"{fn}: the spatial dimensions {dims} of input must be known when the graph is built, "
                         f"got shape {shape}.")
    paddings, crops = [], []
    for s, (lo, hi), r in zip(sizes, base, rate, strict=True):
        extra_end = (r - (s + lo + hi) % r) % r
        paddings.append((lo, hi + extra_end))
        crops.append((0, extra_end))
    # the dims between 1 and the last spatial dim that are not spatial: block 1, no padding
    full = {d: k for k, d in enumerate(dims)}
    block = [rate[full[d]] if d in full else 1 for d in range(1, dims[-1] + 1)]
    pads = [paddings[full[d]] if d in full else (0, 0) for d in range(1, dims[-1] + 1)]
    crop = [crops[full[d]] if d in full else (0, 0) for d in range(1, dims[-1] + 1)]
    converted = space_ops.space_to_batch_nd(x, block, pads)
    result = op(converted, n, "VALID")
    return space_ops.batch_to_space_nd(result, block, crop)
