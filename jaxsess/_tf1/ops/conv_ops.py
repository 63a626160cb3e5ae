"""Convolutions beyond ``conv2d``, as ``tf.compat.v1.nn``: ``conv2d_transpose``,
``conv1d``, ``depthwise_conv2d`` and ``separable_conv2d``.

``conv2d_transpose`` is the gradient of ``conv2d`` with respect to its input
(TF's ``Conv2DBackpropInput``): it lowers to the transpose (``jax.vjp``) of
``jax.lax.conv_general_dilated``, so any ``output_shape`` that ``conv2d``
maps back onto ``value``'s shape is accepted, as TF. Filters of the
transpose are ``[height, width, output_channels, in_channels]``, as TF.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from jaxsess._core.graph._builder import apply_op, constant_value
from jaxsess._core.graph._graph import Tensor
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._tf1.ops import _conv_cpu, array_ops as array_ops
from jaxsess._tf1.ops._args import (
    data_format_arg,
    float_input,
    op_scope,
    padding_arg,
    same_dtype,
    spatial_arg,
    static_int,
    static_ints,
)
from jaxsess._tf1.ops.nn_ops import _conv_from_tf, _conv_to_tf, conv2d

__all__ = ["conv2d_transpose", "conv1d", "depthwise_conv2d", "separable_conv2d", "conv2d_backprop_input",
           "conv2d_backprop_filter", "depthwise_conv2d_native"]


def _conv(x: Any, w: Any, strides: Any, padding: Any, dilations: Any, fmt: str, groups: int = 1) -> Any:
    return jax.lax.conv_general_dilated(
        x, w, window_strides=strides, padding=padding, rhs_dilation=dilations,
        dimension_numbers=(fmt, "HWIO", fmt), feature_group_count=groups,
    )


@register_op("Conv2DBackpropInput", default_name="conv2d_transpose")
def _conv2d_transpose(x: Any, w: Any, *, output_shape: tuple[int, ...], strides: tuple[int, int], padding: Any,
                      dilations: tuple[int, int], data_format: str) -> Any:
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"value and filter must be 4-D, got shapes {list(x.shape)} and {list(w.shape)}")
    if output_shape[0] < 0:  # the batch size follows value's
        output_shape = (x.shape[0], *output_shape[1:])
    c_out = output_shape[3] if data_format == "NHWC" else output_shape[1]
    if c_out != w.shape[2]:
        raise ValueError(
            f"output_shape's channel dimension {c_out} must equal the filter's output_channels {w.shape[2]}"
        )

    def forward(y: Any) -> Any:
        return _conv(y, w, strides, padding, dilations, data_format)

    y0 = jnp.zeros(output_shape, x.dtype)
    expect = jax.eval_shape(forward, y0).shape
    if tuple(expect) != tuple(x.shape):
        raise ValueError(
            f"conv2d of output_shape {list(output_shape)} gives shape {list(expect)}, but value has shape "
            f"{list(x.shape)}"
        )
    (out,) = jax.linear_transpose(forward, y0)(x)
    return out


def conv2d_transpose(value: Any = None, filter: Any = None, output_shape: Any = None, strides: Any = None,  # noqa: A002
                     padding: str = "SAME", data_format: str = "NHWC", name: str | None = None,
                     input: Any = None, filters: Any = None, dilations: Any = None) -> Any:  # noqa: A002
    """The transpose (gradient) of ``conv2d``, as ``tf.compat.v1.nn.conv2d_transpose``.

    Args:
      value: ``[N, H, W, in_channels]`` (NHWC) or NCHW, floats (``input`` is
        an alias).
      filter: ``[fh, fw, output_channels, in_channels]``, ``value``'s dtype
        (``filters`` is an alias).
      output_shape: the 4 ints of the result's shape (static: a list or a
        tensor known when the graph is built; the batch entry may be
        ``tf.shape(value)[0]``).
      strides, padding, dilations: as :func:`~jaxsess.nn.conv2d` (of the
        forward convolution).

    Returns:
      ``output_shape``, ``value``'s dtype.

    Raises:
      ValueError: ``conv2d`` of ``output_shape`` with these strides and
        padding does not give ``value``'s shape, or channel counts differ
        (names the node).
    """
    value = input if value is None else value
    filter = filters if filter is None else filter
    if value is None or filter is None or output_shape is None:
        raise ValueError("conv2d_transpose: arguments 'value', 'filter' and 'output_shape' are required.")
    fmt = data_format_arg(data_format, "conv2d_transpose")
    x, w = same_dtype("conv2d_transpose", ("value", value), ("filter", filter))
    x = float_input(x, "conv2d_transpose")
    shape = _output_shape(output_shape)
    if len(shape) != 4:
        raise ValueError(f"conv2d_transpose: output_shape must have 4 elements, got {list(shape)}.")
    attrs = {
        "output_shape": shape,
        "strides": spatial_arg(strides, "conv2d_transpose", "strides", fmt),
        "padding": padding_arg(padding, "conv2d_transpose", fmt),
        "dilations": spatial_arg(dilations, "conv2d_transpose", "dilations", fmt, default=1),
        "data_format": fmt,
    }
    return apply_op("Conv2DBackpropInput", (x, w), attrs, name=name)


def _output_shape(output_shape: Any) -> tuple[int, ...]:
    """The static output shape; an unknown batch entry (``tf.shape(x)[0]``) becomes -1."""
    if isinstance(output_shape, Tensor) and output_shape.op.type == "Pack" and constant_value(output_shape) is None:
        output_shape = list(output_shape.op.inputs)
    if isinstance(output_shape, list | tuple):
        dims = []
        for i, d in enumerate(output_shape):
            v = constant_value(d) if d is not None else None
            if v is None and i == 0:
                dims.append(-1)
            else:
                dims.append(static_int(d, "conv2d_transpose", "output_shape"))
        return tuple(dims)
    return static_ints(output_shape, "conv2d_transpose", "output_shape")


def conv1d(value: Any = None, filters: Any = None, stride: Any = None, padding: Any = None,
           use_cudnn_on_gpu: Any = None, data_format: str | None = None, name: str | None = None,
           input: Any = None, dilations: Any = None) -> Any:  # noqa: A002
    """1-D convolution, as ``tf.compat.v1.nn.conv1d``: ``conv2d`` on a height-1
    image (``ExpandDims``, ``Conv2D``, ``Squeeze``, as TF).

    Args:
      value: ``[N, W, C]`` (``'NWC'``, default) or ``[N, C, W]`` (``'NCW'``).
      filters: ``[fw, C, out_channels]``.
      stride: an int (or a list whose width entry is used).
      padding: ``'SAME'`` or ``'VALID'``.

    Returns:
      ``[N, W', out_channels]`` (or NCW).
    """
    value = input if value is None else value
    fmt = (data_format or "NWC").upper()
    if fmt not in ("NWC", "NCW"):
        raise ValueError(f"conv1d: data_format must be 'NWC' or 'NCW', got {data_format!r}.")
    s = static_ints(stride, "conv1d", "stride")
    sw = s[0] if len(s) == 1 else s[1 if fmt == "NWC" else 2]
    d = 1 if dilations is None else static_ints(dilations, "conv1d", "dilations")
    dw = d if isinstance(d, int) else (d[0] if len(d) == 1 else d[1 if fmt == "NWC" else 2])
    with op_scope(name, "conv1d", [value, filters]) as scope:
        spatial = 1 if fmt == "NWC" else 2
        x = array_ops.expand_dims(value, spatial)
        w = array_ops.expand_dims(filters, 0)
        y = conv2d(x, w, strides=[1, sw], padding=padding, dilations=[1, dw],
                   data_format="NHWC" if fmt == "NWC" else "NCHW")
        return array_ops.squeeze(y, [spatial], name=scope)


# TF: strides/dilations as 4-lists in data_format order (as Conv2D; real TF refuses 2-lists)
@register_op("DepthwiseConv2dNative", default_name="depthwise", tf=TFOp(to_tf=_conv_to_tf, from_tf=_conv_from_tf))
def _depthwise(x: Any, w: Any, *, strides: tuple[int, int], padding: Any, dilations: tuple[int, int],
               data_format: str) -> Any:
    c = w.shape[2]
    cx = x.shape[3] if data_format == "NHWC" else x.shape[1]
    if cx != c:
        raise ValueError(f"input depth {cx} must equal the filter's in_channels {c}")
    return _conv_cpu.depthwise(x, w, strides, padding, dilations, data_format)


def depthwise_conv2d(input: Any, filter: Any, strides: Any, padding: Any, rate: Any = None,  # noqa: A002
                     name: str | None = None, data_format: str | None = None, dilations: Any = None) -> Any:
    """Per-channel convolution, as ``tf.compat.v1.nn.depthwise_conv2d``.

    Args:
      input: ``[N, H, W, C]`` (or NCHW), floats.
      filter: ``[fh, fw, C, channel_multiplier]``.
      strides: 4 ints in ``data_format`` order (``[1, sh, sw, 1]``).
      rate / dilations: the dilation rate (2 ints).

    Returns:
      ``[N, H', W', C * channel_multiplier]``; output channel ``c * m + k``
      comes from input channel ``c`` and multiplier ``k``, as TF.
    """
    fmt = data_format_arg(data_format, "depthwise_conv2d")
    x, w = same_dtype("depthwise_conv2d", ("input", input), ("filter", filter))
    x = float_input(x, "depthwise_conv2d")
    rate = dilations if rate is None else rate
    attrs = {
        "strides": spatial_arg(strides, "depthwise_conv2d", "strides", fmt),
        "padding": padding_arg(padding, "depthwise_conv2d", fmt),
        "dilations": (1, 1) if rate is None else spatial_arg(rate, "depthwise_conv2d", "rate", fmt),
        "data_format": fmt,
    }
    with op_scope(name, "depthwise", [x, w]) as scope:
        return apply_op("DepthwiseConv2dNative", (x, w), attrs, name=scope)


def separable_conv2d(input: Any, depthwise_filter: Any, pointwise_filter: Any, strides: Any, padding: Any,  # noqa: A002
                     rate: Any = None, name: str | None = None, data_format: str | None = None,
                     dilations: Any = None) -> Any:
    """A depthwise convolution followed by a 1x1 convolution, as
    ``tf.compat.v1.nn.separable_conv2d``.

    Args:
      input: ``[N, H, W, C]`` (or NCHW).
      depthwise_filter: ``[fh, fw, C, channel_multiplier]``.
      pointwise_filter: ``[1, 1, C * channel_multiplier, out_channels]``.

    Returns:
      ``[N, H', W', out_channels]``.
    """
    with op_scope(name, "separable_conv2d", [input, depthwise_filter, pointwise_filter]) as scope:
        dw = depthwise_conv2d(input, depthwise_filter, strides, padding, rate=rate, name="depthwise",
                              data_format=data_format, dilations=dilations)
        return conv2d(dw, pointwise_filter, strides=[1, 1], padding="VALID", data_format=data_format or "NHWC",
                      name=scope)


# -- the gradients of conv2d as ops of their own -----------------------------------------------


def conv2d_backprop_input(input_sizes: Any, filter: Any = None, out_backprop: Any = None,  # noqa: A002
                          strides: Any = None, padding: Any = None, use_cudnn_on_gpu: bool = True,
                          data_format: str = "NHWC", dilations: Any = (1, 1, 1, 1), name: str | None = None,
                          filters: Any = None) -> Any:
    """The gradient of ``conv2d`` with respect to its input of shape ``input_sizes``, as
    ``tf.compat.v1.nn.conv2d_backprop_input`` (TF's ``Conv2DBackpropInput``; the same op as
    :func:`conv2d_transpose` of ``out_backprop``)."""
    return conv2d_transpose(out_backprop, filter if filter is not None else filters, input_sizes, strides,
                            padding, data_format, name or "Conv2DBackpropInput", dilations=dilations)


@register_op("Conv2DBackpropFilter", default_name="Conv2DBackpropFilter")
def _conv2d_backprop_filter(x: Any, dy: Any, *, filter_sizes: tuple[int, ...], strides: tuple[int, int],
                            padding: Any, dilations: tuple[int, int], data_format: str) -> Any:
    w0 = jnp.zeros(filter_sizes, x.dtype)
    expect = jax.eval_shape(lambda w: _conv(x, w, strides, padding, dilations, data_format), w0).shape
    if tuple(expect) != tuple(dy.shape):
        raise ValueError(f"conv2d of the input with a filter of shape {list(filter_sizes)} gives shape "
                         f"{list(expect)}, but out_backprop has shape {list(dy.shape)}")
    (out,) = jax.linear_transpose(lambda w: _conv(x, w, strides, padding, dilations, data_format), w0)(dy)
    return out


def conv2d_backprop_filter(input: Any, filter_sizes: Any, out_backprop: Any, strides: Any,  # noqa: A002
                           padding: Any, use_cudnn_on_gpu: bool = True, data_format: str = "NHWC",
                           dilations: Any = (1, 1, 1, 1), name: str | None = None) -> Any:
    """The gradient of ``conv2d`` with respect to its filter of shape ``filter_sizes``
    (``[fh, fw, in_channels, out_channels]``, known when the graph is built), as
    ``tf.compat.v1.nn.conv2d_backprop_filter``.

    Raises:
      ValueError: ``conv2d`` with such a filter does not give ``out_backprop``'s shape (names the node).
    """
    fmt = data_format_arg(data_format, "conv2d_backprop_filter")
    x, dy = same_dtype("conv2d_backprop_filter", ("input", input), ("out_backprop", out_backprop))
    x = float_input(x, "conv2d_backprop_filter")
    sizes = static_ints(filter_sizes, "conv2d_backprop_filter", "filter_sizes")
    if len(sizes) != 4:
        raise ValueError(f"conv2d_backprop_filter: filter_sizes must have 4 elements, got {list(sizes)}.")
    attrs = {
        "filter_sizes": sizes,
        "strides": spatial_arg(strides, "conv2d_backprop_filter", "strides", fmt),
        "padding": padding_arg(padding, "conv2d_backprop_filter", fmt),
        "dilations": spatial_arg(dilations, "conv2d_backprop_filter", "dilations", fmt, default=1),
        "data_format": fmt,
    }
    return apply_op("Conv2DBackpropFilter", (x, dy), attrs, name=name)


def depthwise_conv2d_native(input: Any, filter: Any, strides: Any, padding: Any,  # noqa: A002
                            data_format: str = "NHWC", dilations: Any = (1, 1, 1, 1),
                            name: str | None = None) -> Any:
    """TF's ``DepthwiseConv2dNative`` op (the kernel of :func:`depthwise_conv2d`), as
    ``tf.compat.v1.nn.depthwise_conv2d_native``."""
    fmt = data_format_arg(data_format, "depthwise_conv2d_native")
    x, w = same_dtype("depthwise_conv2d_native", ("input", input), ("filter", filter))
    x = float_input(x, "depthwise_conv2d_native")
    attrs = {
        "strides": spatial_arg(strides, "depthwise_conv2d_native", "strides", fmt),
        "padding": padding_arg(padding, "depthwise_conv2d_native", fmt),
        "dilations": spatial_arg(dilations, "depthwise_conv2d_native", "dilations", fmt, default=1),
        "data_format": fmt,
    }
    return apply_op("DepthwiseConv2dNative", (x, w), attrs, name=name or "DepthwiseConv2dNative")
