"""TF1's convolution layers beyond :mod:`jaxsess._tf1.layers`: ``Conv3DTranspose`` and
``SeparableConv1D`` (and their functions), as ``tf.compat.v1.layers``.

``Conv3DTranspose`` has a ``kernel [kd, kh, kw, filters, in_channels]`` and a
``bias [filters]``; each output spatial size is ``n * stride`` (``'same'``) or
``n * stride + max(k - stride, 0)`` (``'valid'``), as TF's. ``SeparableConv1D``
has a ``depthwise_kernel [k, in_channels, depth_multiplier]``, a
``pointwise_kernel [1, in_channels * depth_multiplier, filters]`` and a ``bias
[filters]``; it runs as TF's: ``separable_conv2d`` over the inputs with a unit
spatial axis inserted, then squeezed.
"""

from __future__ import annotations

from typing import Any

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.layers import (
    Conv3D,
    SeparableConv2D,
    _deconv_output_length,
    _normalize_tuple,
    _shape,
)
from jaxsess._tf1.ops import (
    array_ops as _array_ops,
    conv3d_ops as _conv3d_ops,
    conv_ops as _conv_ops,
    init_ops,
    nn_ops as _nn_ops,
)

__all__ = ["Conv3DTranspose", "SeparableConv1D", "conv3d_transpose", "separable_conv1d"]


class Conv3DTranspose(Conv3D):
    """The transpose of a 3-D convolution, as ``tf.compat.v1.layers.Conv3DTranspose``
    (inputs ``[N, D, H, W, C]`` with ``D``, ``H``, ``W``, ``C`` known, or ``channels_first``)."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
                 data_format: str = "channels_last", **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format, **kwargs)

    def _kernel_shape(self, channels: int) -> list[int]:
        return [*self.kernel_size, self.filters, channels]

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        shape = _shape(x).as_list()
        first = self.data_format == "channels_first"
        spatial = shape[2:5] if first else shape[1:4]
        out = [_deconv_output_length(n, k, self.padding, s)
               for n, k, s in zip(spatial, self.kernel_size, self.strides, strict=True)]
        if any(o is None for o in out):
            raise ValueError(f"{self.name}: the spatial dimensions of the inputs must be known, got {_shape(x)}.")
        batch: Any = shape[0] if shape[0] is not None else _array_ops.shape(x)[0]
        out_shape = [batch, self.filters, *out] if first else [batch, *out, self.filters]
        fmt = "NCDHW" if first else "NDHWC"
        y = _conv3d_ops.conv3d_transpose(x, self.kernel, out_shape, strides=list(self.strides),
                                         padding=self.padding.upper(), data_format=fmt)
        if self.use_bias:
            y = _nn_ops.bias_add(y, self.bias, data_format="NCHW" if first else "NHWC")
        if self.activation is not None:
            y = self.activation(y)
        return y


def conv3d_transpose(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
                     data_format: str = "channels_last", activation: Any = None, use_bias: bool = True,
                     kernel_initializer: Any = None, bias_initializer: Any = init_ops.zeros_initializer(),
                     kernel_regularizer: Any = None, bias_regularizer: Any = None,
                     activity_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
                     trainable: bool = True, name: str | None = None, reuse: Any = None) -> Any:
    """A transposed 3-D convolution layer, as ``tf.compat.v1.layers.conv3d_transpose``.

    Returns:
      ``[N, D * sd, H * sh, W * sw, filters]`` for ``'same'`` padding (or ``channels_first``).

    Raises:
      ValueError: unknown spatial or channel dimensions, or inputs not 5-D.
    """
    layer = Conv3DTranspose(
        filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
        activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
        bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
        bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
        kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, trainable=trainable,
        name=name, _scope=name, _reuse=reuse,
    )
    return layer.apply(inputs)


class SeparableConv1D(SeparableConv2D):
    """A depthwise then pointwise 1-D convolution, as ``tf.compat.v1.layers.SeparableConv1D``
    (inputs ``[N, W, C]``, or ``[N, C, W]`` for ``channels_first``)."""

    _rank = 1

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = 1, depth_multiplier: int = 1,
                 **kwargs: Any) -> None:
        super().__init__(filters, (1, 1), padding=padding, data_format=data_format,
                         depth_multiplier=depth_multiplier, **kwargs)
        self.kernel_size = _normalize_tuple(kernel_size, 1, "kernel_size")
        self.strides = _normalize_tuple(strides, 1, "strides")
        self.dilation_rate = _normalize_tuple(dilation_rate, 1, "dilation_rate")

    def build(self, input_shape: TensorShape) -> None:
        input_shape = TensorShape(input_shape)
        if input_shape.ndims != 3:
            raise ValueError(f"Input 0 of layer {self.name} is incompatible: expected ndim=3, found shape {input_shape}")
        channels = input_shape[self._channel_axis()]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", [*self.kernel_size, channels, self.depth_multiplier],
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint,
        )
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", [1, channels * self.depth_multiplier, self.filters],
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint,
        )
        if self.use_bias:
            self.bias = self.add_weight(
                "bias", [self.filters], initializer=self.bias_initializer,
                regularizer=self.bias_regularizer, constraint=self.bias_constraint,
            )
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        first = self.data_format == "channels_first"
        fmt = "NCHW" if first else "NHWC"
        axis = 2 if first else 1
        x = _array_ops.expand_dims(inputs, axis)
        dw = _array_ops.expand_dims(self.depthwise_kernel, 0)
        pw = _array_ops.expand_dims(self.pointwise_kernel, 0)
        s = self.strides[0]
        strides = [1, 1, s, s] if first else [1, s, s, 1]
        y = _conv_ops.separable_conv2d(x, dw, pw, strides, self.padding.upper(),
                                       rate=[1, self.dilation_rate[0]], data_format=fmt)
        if self.use_bias:
            y = _nn_ops.bias_add(y, self.bias, data_format=fmt)
        y = _array_ops.squeeze(y, [axis])
        if self.activation is not None:
            y = self.activation(y)
        return y


def separable_conv1d(inputs: Any, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                     data_format: str = "channels_last", dilation_rate: Any = 1, depth_multiplier: int = 1,
                     activation: Any = None, use_bias: bool = True, depthwise_initializer: Any = None,
                     pointwise_initializer: Any = None, bias_initializer: Any = init_ops.zeros_initializer(),
                     depthwise_regularizer: Any = None, pointwise_regularizer: Any = None,
                     bias_regularizer: Any = None, activity_regularizer: Any = None,
                     depthwise_constraint: Any = None, pointwise_constraint: Any = None,
                     bias_constraint: Any = None, trainable: bool = True, name: str | None = None,
                     reuse: Any = None) -> Any:
    """A depthwise-separable 1-D convolution layer, as ``tf.compat.v1.layers.separable_conv1d``.

    Returns:
      ``[N, W', filters]`` (or ``channels_first``).
    """
    layer = SeparableConv1D(
        filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
        dilation_rate=dilation_rate, depth_multiplier=depth_multiplier, activation=activation,
        use_bias=use_bias, depthwise_initializer=depthwise_initializer,
        pointwise_initializer=pointwise_initializer, bias_initializer=bias_initializer,
        depthwise_regularizer=depthwise_regularizer, pointwise_regularizer=pointwise_regularizer,
        bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
        depthwise_constraint=depthwise_constraint, pointwise_constraint=pointwise_constraint,
        bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name, _reuse=reuse,
    )
    return layer.apply(inputs)
