"""Keras convolution layers, as ``tf.compat.v1.keras.layers`` (tf_keras'
``layers/convolutional``): ``Conv1D``, ``Conv2D``, ``Conv3D``, ``Conv1DTranspose``,
``Conv2DTranspose``, ``SeparableConv2D`` and ``DepthwiseConv2D``, with Keras'
aliases (``Convolution2D``, ...). The 1-D/2-D/3-D classes are the
:mod:`jaxsess._tf1.layers` classes under Keras' bookkeeping; tf_keras'
graph-mode code is the reference for formulas, weight names and defaults.
"""

from __future__ import annotations

from typing import Any

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1 import layers as _tf_layers
from jaxsess._tf1.keras import backend as K
from jaxsess._tf1.keras._layers_core import Layer, _activation, _tuple
from jaxsess._tf1.ops import (
    conv_ops as _conv,
    nn_ops as _nn,
    shape_ops as _shape_ops,
)

__all__ = [
    "DepthwiseConv2D",
    "Conv3D",
    "Convolution3D",
    "Conv1DTranspose",
    "Convolution1DTranspose",
    "Conv2D",
    "Convolution2D",
    "Conv1D",
    "Conv2DTranspose",
    "Convolution2DTranspose",
    "SeparableConv2D",
    "Convolution1D",
]


# -- merges --------------------------------------------------------------------------------


# -- advanced activations -----------------------------------------------------------------


# -- normalization --------------------------------------------------------------------------


# -- convolution ------------------------------------------------------------------------------


class DepthwiseConv2D(Layer):
    """Per-channel 2-D convolution (``depth_multiplier`` outputs per input channel),
    as ``tf.keras.layers.DepthwiseConv2D`` (weights ``depthwise_kernel [kh, kw,
    in, depth_multiplier]`` and ``bias [in * depth_multiplier]``)."""

    def __init__(self, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid", depth_multiplier: int = 1,
                 data_format: str | None = None, dilation_rate: Any = (1, 1), activation: Any = None,
                 use_bias: bool = True, depthwise_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", depthwise_regularizer: Any = None, bias_regularizer: Any = None,
                 depthwise_constraint: Any = None, bias_constraint: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kernel_size = _tuple(kernel_size, 2)
        self.strides = _tuple(strides, 2)
        self.padding = padding.lower()
        self.depth_multiplier = int(depth_multiplier)
        self.data_format = data_format or K.image_data_format()
        self.dilation_rate = _tuple(dilation_rate, 2)
        self.activation = _activation(activation)
        self.use_bias = bool(use_bias)
        self.depthwise_initializer, self.bias_initializer = depthwise_initializer, bias_initializer
        self.depthwise_regularizer, self.bias_regularizer = depthwise_regularizer, bias_regularizer
        self.depthwise_constraint, self.bias_constraint = depthwise_constraint, bias_constraint
        self.depthwise_kernel: Any = None
        self.bias: Any = None

    def build(self, input_shape: Any) -> None:
        dims = TensorShape(input_shape).as_list()
        assert dims is not None
        channels = dims[1] if self.data_format == "channels_first" else dims[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs to `DepthwiseConv2D` should be defined. "
                             "The input_shape received is " + str(tuple(dims)))
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", [*self.kernel_size, channels, self.depth_multiplier],
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)
        if self.use_bias:
            self.bias = self.add_weight("bias", [channels * self.depth_multiplier], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        nchw = self.data_format == "channels_first"
        strides = (1, 1, *self.strides) if nchw else (1, *self.strides, 1)
        out = _conv.depthwise_conv2d(inputs, self.depthwise_kernel, strides, self.padding.upper(),
                                     dilations=self.dilation_rate, data_format="NCHW" if nchw else "NHWC")
        if self.use_bias:
            out = _nn.bias_add(out, self.bias, data_format="NCHW" if nchw else "NHWC")
        return self.activation(out) if self.activation is not None else out


class Conv3D(Layer, _tf_layers.Conv3D):
    """3-D convolution, as ``tf.keras.layers.Conv3D`` (weights ``kernel [kd, kh, kw, in, filters]``, ``bias``)."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
                 data_format: str | None = None, dilation_rate: Any = (1, 1, 1), activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 groups: int = 1, **kwargs: Any) -> None:
        if groups != 1:  # TF Keras writes ``groups`` into every Conv2D's config (.h5, SavedModel)
            raise NotImplementedError(f"Conv2D: grouped convolution (groups={groups}) is not supported by jaxsess")
        self.groups = groups
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format or K.image_data_format(), dilation_rate=dilation_rate,
                         activation=_activation(activation), use_bias=use_bias,
                         kernel_initializer=kernel_initializer, bias_initializer=bias_initializer, **kwargs)


Convolution3D = Conv3D


# -- dropout ------------------------------------------------------------------------------------


# -- Conv1DTranspose, ActivityRegularization -----------------------------------------------------------


class Conv1DTranspose(Layer, _tf_layers.Conv1D):
    """The transpose of a 1-D convolution over ``[N, L, C]``, as ``tf.keras.layers.Conv1DTranspose``
    (variables ``kernel [k, filters, C]`` and ``bias [filters]``): outputs ``[N, L', filters]`` with
    ``L' = L * strides`` (``'same'``) or ``L * strides + max(k - strides, 0)`` (``'valid'``).

    Raises:
      NotImplementedError: ``output_padding``, ``channels_first`` or a dilation rate other than 1.
      ValueError (when called): an input whose length or channels are unknown.
    """

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 output_padding: Any = None, data_format: str | None = None, dilation_rate: Any = 1,
                 activation: Any = None, use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", **kwargs: Any) -> None:
        if output_padding is not None:
            raise NotImplementedError("keras.layers.Conv1DTranspose(output_padding=...) is not supported.")
        if (data_format or K.image_data_format()) != "channels_last":
            raise NotImplementedError("keras.layers.Conv1DTranspose supports data_format='channels_last' only.")
        if dilation_rate not in (1, (1,), [1]):
            raise NotImplementedError("keras.layers.Conv1DTranspose supports dilation_rate=1 only.")
        super().__init__(filters, kernel_size, strides=strides, padding=padding, activation=_activation(activation),
                         use_bias=use_bias, kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                         **kwargs)

    def _kernel_shape(self, channels: int) -> list[int]:
        return [self.kernel_size[0], self.filters, channels]

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        n, length, _ = TensorShape(x.shape).as_list()  # type: ignore[misc]
        k, s = self.kernel_size[0], self.strides[0]
        if length is None:
            raise ValueError(f"{self.name}: the length of the inputs must be known, got {x.shape}.")
        out_len = length * s if self.padding == "same" else length * s + max(k - s, 0)
        batch: Any = n if n is not None else _shape_ops.shape(x)[0]
        # tf.nn.conv1d_transpose's way: a 2-D transpose over [N, 1, L, C]
        out = _conv.conv2d_transpose(_shape_ops.expand_dims(x, 1), _shape_ops.expand_dims(self.kernel, 0),
                                     [batch, 1, out_len, self.filters], strides=[1, 1, s, 1],
                                     padding=self.padding.upper())
        out = _shape_ops.squeeze(out, [1])
        if self.use_bias:
            out = _nn.bias_add(out, self.bias)
        if self.activation is not None:
            out = self.activation(out)
        return out


Convolution1DTranspose = Conv1DTranspose


class Conv2D(Layer, _tf_layers.Conv2D):
    """2-D convolution, as ``tf.keras.layers.Conv2D`` (variables ``kernel [kh, kw, in, filters]``, ``bias``)."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: str | None = None, dilation_rate: Any = (1, 1), activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 groups: int = 1, **kwargs: Any) -> None:
        if groups != 1:  # TF Keras writes ``groups`` into every Conv2D's config (.h5, SavedModel)
            raise NotImplementedError(f"Conv2D: grouped convolution (groups={groups}) is not supported by jaxsess")
        self.groups = groups
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format or K.image_data_format(), dilation_rate=dilation_rate,
                         activation=_activation(activation), use_bias=use_bias,
                         kernel_initializer=kernel_initializer, bias_initializer=bias_initializer, **kwargs)


Convolution2D = Conv2D


class Conv1D(Layer, _tf_layers.Conv1D):
    """1-D convolution over ``[N, L, C]``, as ``tf.keras.layers.Conv1D``."""


class Conv2DTranspose(Layer, _tf_layers.Conv2DTranspose):
    """Transposed 2-D convolution, as ``tf.keras.layers.Conv2DTranspose``."""


Convolution2DTranspose = Conv2DTranspose


class SeparableConv2D(Layer, _tf_layers.SeparableConv2D):
    """Depthwise then pointwise 2-D convolution, as ``tf.keras.layers.SeparableConv2D``
    (variables ``depthwise_kernel``, ``pointwise_kernel``, ``bias``)."""


Convolution1D = Conv1D
