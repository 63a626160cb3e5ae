"""More Keras 2 layers: merges (``Maximum``, ``Minimum``, ``Average``, ``Dot``),
advanced activations (``ELU``, ``PReLU``, ``ThresholdedReLU``),
``LayerNormalization``, ``DepthwiseConv2D``, ``Conv1DTranspose``, 3-D convolution/pooling/padding,
``SpatialDropout2D``/``3D`` and ``ActivityRegularization``, as ``tf.compat.v1.keras.layers`` (tf_keras'
graph-mode code is the reference for formulas, weight names and defaults).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxsess._core.graph._builder import convert_to_tensor, identity
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1 import layers as _tf_layers
from jaxsess._tf1.keras import backend as K, regularizers as regularizers
from jaxsess._tf1.keras._layers_core import Layer, Multiply, Subtract, _activation, _Merge
from jaxsess._tf1.ops import (
    conv_ops as _conv,
    fill_ops as _fill,
    math_ops as _math,
    nn_ops as _nn,
    normalization as _normalization,
    shape_ops as _shape_ops,
)

__all__ = [
    "Maximum", "Minimum", "Average", "Dot", "maximum", "minimum", "average", "multiply", "subtract", "dot",
    "ELU", "PReLU", "ThresholdedReLU", "LayerNormalization", "DepthwiseConv2D", "Conv3D", "Convolution3D",
    "MaxPooling3D", "MaxPool3D", "AveragePooling3D", "AvgPool3D", "GlobalMaxPooling3D", "GlobalMaxPool3D",
    "GlobalAveragePooling3D", "GlobalAvgPool3D", "UpSampling3D", "ZeroPadding3D", "Cropping3D",
    "SpatialDropout2D", "SpatialDropout3D", "Conv1DTranspose", "Convolution1DTranspose", "ActivityRegularization",
]


# -- merges --------------------------------------------------------------------------------


class Maximum(_Merge):
    """The element-wise maximum of a list of tensors, as ``tf.keras.layers.Maximum``."""

    def _merge(self, a: Any, b: Any) -> Any:
        return _math.maximum(a, b)


class Minimum(_Merge):
    """The element-wise minimum of a list of tensors, as ``tf.keras.layers.Minimum``."""

    def _merge(self, a: Any, b: Any) -> Any:
        return _math.minimum(a, b)


class Average(_Merge):
    """The element-wise mean of a list of tensors, as ``tf.keras.layers.Average``."""

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        total = super().call(inputs)
        return total / len(inputs)

    def _merge(self, a: Any, b: Any) -> Any:
        return a + b


class Dot(Layer):
    """``K.batch_dot`` of two tensors over ``axes`` (an int or one per input;
    ``normalize`` l2-normalises both along them first: cosine proximity), as
    ``tf.keras.layers.Dot``.

    Raises:
      ValueError: not called on exactly two inputs.
    """

    def __init__(self, axes: Any, normalize: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axes = axes if isinstance(axes, int) else tuple(axes)
        self.normalize = bool(normalize)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(inputs, list | tuple) or len(inputs) != 2:
            raise ValueError(f"A `Dot` layer should be called on exactly 2 inputs. Received: inputs={inputs!r}")
        x1, x2 = (convert_to_tensor(x) for x in inputs)
        n1, n2 = K.ndim(x1) or 0, K.ndim(x2) or 0
        if isinstance(self.axes, int):
            axes = [self.axes % n1, self.axes % n2] if self.axes < 0 else [self.axes] * 2
        else:
            axes = [a % n if a < 0 else a for a, n in zip(self.axes, (n1, n2), strict=True)]
        if self.normalize:
            x1 = _nn.l2_normalize(x1, axis=axes[0])
            x2 = _nn.l2_normalize(x2, axis=axes[1])
        return K.batch_dot(x1, x2, axes)


def maximum(inputs: Sequence[Any], **kwargs: Any) -> Any:
    """``Maximum()(inputs)``."""
    return Maximum(**kwargs)(list(inputs))


def minimum(inputs: Sequence[Any], **kwargs: Any) -> Any:
    """``Minimum()(inputs)``."""
    return Minimum(**kwargs)(list(inputs))


def average(inputs: Sequence[Any], **kwargs: Any) -> Any:
    """``Average()(inputs)``."""
    return Average(**kwargs)(list(inputs))


def multiply(inputs: Sequence[Any], **kwargs: Any) -> Any:
    """``Multiply()(inputs)``."""
    return Multiply(**kwargs)(list(inputs))


def subtract(inputs: Sequence[Any], **kwargs: Any) -> Any:
    """``Subtract()(inputs)``."""
    return Subtract(**kwargs)(list(inputs))


def dot(inputs: Sequence[Any], axes: Any, normalize: bool = False, **kwargs: Any) -> Any:
    """``Dot(axes, normalize)(inputs)``."""
    return Dot(axes=axes, normalize=normalize, **kwargs)(list(inputs))


# -- advanced activations -----------------------------------------------------------------


class ELU(Layer):
    """``x`` if ``x > 0`` else ``alpha * (exp(x) - 1)``, as ``tf.keras.layers.ELU`` (``alpha`` 1.0)."""

    supports_masking = True

    def __init__(self, alpha: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alpha = float(alpha)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return K.elu(inputs, self.alpha)


class ThresholdedReLU(Layer):
    """``x`` if ``x > theta`` else 0, as ``tf.keras.layers.ThresholdedReLU`` (``theta`` 1.0).

    Raises:
      ValueError: a negative ``theta``.
    """

    supports_masking = True

    def __init__(self, theta: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if theta is None or theta < 0:
            raise ValueError(f"The theta value of a Thresholded ReLU layer cannot be None or negative, "
                             f"got theta={theta}")
        self.theta = float(theta)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        return x * _math.cast(_math.greater(x, self.theta), K.floatx())


class PReLU(Layer):
    """``max(x, 0) - alpha * max(-x, 0)`` with a learned ``alpha`` (the weight
    ``alpha``, shaped like one sample, 1 along ``shared_axes``), as
    ``tf.keras.layers.PReLU``."""

    supports_masking = True

    def __init__(self, alpha_initializer: Any = "zeros", alpha_regularizer: Any = None,
                 alpha_constraint: Any = None, shared_axes: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alpha_initializer = alpha_initializer
        self.alpha_regularizer = alpha_regularizer
        self.alpha_constraint = alpha_constraint
        if shared_axes is None:
            self.shared_axes: list[int] | None = None
        else:
            self.shared_axes = [shared_axes] if isinstance(shared_axes, int) else list(shared_axes)
        self.alpha: Any = None

    def build(self, input_shape: Any) -> None:
        param_shape = list(TensorShape(input_shape).as_list()[1:])  # type: ignore[index]
        if self.shared_axes is not None:
            for i in self.shared_axes:
                param_shape[i - 1] = 1
        self.alpha = self.add_weight("alpha", param_shape, initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        pos = _nn.relu(inputs)
        neg = -self.alpha * _nn.relu(-convert_to_tensor(inputs))
        return pos + neg


# -- normalization --------------------------------------------------------------------------


class LayerNormalization(Layer):
    """Normalization of each sample over ``axis`` (mean and variance of that sample),
    then ``* gamma + beta``, as ``tf.keras.layers.LayerNormalization``
    (``epsilon`` 1e-3; weights ``gamma`` and ``beta`` shaped like the
    normalised axes).

    Raises:
      ValueError: an axis out of range, or duplicated.
    """

    supports_masking = True

    def __init__(self, axis: Any = -1, epsilon: float = 1e-3, center: bool = True, scale: bool = True,
                 beta_initializer: Any = "zeros", gamma_initializer: Any = "ones", beta_regularizer: Any = None,
                 gamma_regularizer: Any = None, beta_constraint: Any = None, gamma_constraint: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = [axis] if isinstance(axis, int) else list(axis)
        self.epsilon = float(epsilon)
        self.center, self.scale = bool(center), bool(scale)
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.gamma: Any = None
        self.beta: Any = None

    def build(self, input_shape: Any) -> None:
        dims = TensorShape(input_shape).as_list()
        assert dims is not None
        ndims = len(dims)
        axes = [a + ndims if a < 0 else a for a in self.axis]
        for a in axes:
            if a < 0 or a >= ndims:
                raise ValueError(f"Invalid axis: {a}")
        if len(axes) != len(set(axes)):
            raise ValueError(f"Duplicate axis: {tuple(self.axis)}")
        self.axis = axes
        param_shape = [dims[a] for a in axes]
        if self.scale:
            self.gamma = self.add_weight("gamma", param_shape, initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer, constraint=self.gamma_constraint)
        if self.center:
            self.beta = self.add_weight("beta", param_shape, initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer, constraint=self.beta_constraint)
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        dims = x.shape.as_list()
        ndims = len(dims)
        broadcast = [1] * ndims
        for a in self.axis:
            broadcast[a] = dims[a]

        def _broadcast(v: Any) -> Any:
            if v is not None and len(v.shape.as_list()) != ndims and self.axis != [ndims - 1]:
                return _shape_ops.reshape(v, broadcast)
            return v

        mean, variance = _nn.moments(x, self.axis, keep_dims=True)
        return _normalization.batch_normalization(x, mean, variance, offset=_broadcast(self.beta),
                                                  scale=_broadcast(self.gamma), variance_epsilon=self.epsilon)


# -- convolution ------------------------------------------------------------------------------


def _tuple(value: Any, n: int) -> tuple[int, ...]:
    return (int(value),) * n if isinstance(value, int) else tuple(int(v) for v in value)


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
                 **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format or K.image_data_format(), dilation_rate=dilation_rate,
                         activation=_activation(activation), use_bias=use_bias,
                         kernel_initializer=kernel_initializer, bias_initializer=bias_initializer, **kwargs)


Convolution3D = Conv3D


class MaxPooling3D(Layer, _tf_layers.MaxPooling3D):
    """Max pooling of ``[N, D, H, W, C]``, as ``tf.keras.layers.MaxPooling3D`` (``pool_size`` (2, 2, 2))."""

    def __init__(self, pool_size: Any = (2, 2, 2), strides: Any = None, padding: str = "valid",
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides if strides is not None else pool_size, padding=padding,
                         data_format=data_format or K.image_data_format(), **kwargs)


class AveragePooling3D(Layer, _tf_layers.AveragePooling3D):
    """Average pooling of ``[N, D, H, W, C]``, as ``tf.keras.layers.AveragePooling3D``."""

    def __init__(self, pool_size: Any = (2, 2, 2), strides: Any = None, padding: str = "valid",
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides if strides is not None else pool_size, padding=padding,
                         data_format=data_format or K.image_data_format(), **kwargs)


MaxPool3D = MaxPooling3D
AvgPool3D = AveragePooling3D


class _GlobalPooling3D(Layer):
    _reduce: Any = None

    def __init__(self, data_format: str | None = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format or K.image_data_format()
        self.keepdims = bool(keepdims)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        axes = [2, 3, 4] if self.data_format == "channels_first" else [1, 2, 3]
        return type(self)._reduce(inputs, axis=axes, keepdims=self.keepdims)


class GlobalMaxPooling3D(_GlobalPooling3D):
    """The maximum over depth, height and width, as ``tf.keras.layers.GlobalMaxPooling3D``."""

    _reduce = _math.reduce_max


class GlobalAveragePooling3D(_GlobalPooling3D):
    """The mean over depth, height and width, as ``tf.keras.layers.GlobalAveragePooling3D``."""

    _reduce = _math.reduce_mean


GlobalMaxPool3D = GlobalMaxPooling3D
GlobalAvgPool3D = GlobalAveragePooling3D


def _triple_pairs(value: Any) -> tuple[tuple[int, int], ...]:
    if isinstance(value, int):
        return ((value, value),) * 3
    if all(isinstance(v, int) for v in value):
        return tuple((int(v), int(v)) for v in value)
    return tuple((int(a), int(b)) for a, b in value)


class ZeroPadding3D(Layer):
    """Zero padding of depth, height and width (an int, three ints or three pairs),
    as ``tf.keras.layers.ZeroPadding3D``."""

    def __init__(self, padding: Any = (1, 1, 1), data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.padding = _triple_pairs(padding)
        self.data_format = data_format or K.image_data_format()

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        pads = [list(p) for p in self.padding]
        pattern = [[0, 0], [0, 0], *pads] if self.data_format == "channels_first" else [[0, 0], *pads, [0, 0]]
        return _shape_ops.pad(inputs, pattern)


class Cropping3D(Layer):
    """Cropping of depth, height and width (an int, three ints or three pairs), as
    ``tf.keras.layers.Cropping3D``."""

    def __init__(self, cropping: Any = ((1, 1), (1, 1), (1, 1)), data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cropping = _triple_pairs(cropping)
        self.data_format = data_format or K.image_data_format()

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        sl = [slice(a, -b if b else None) for a, b in self.cropping]
        if self.data_format == "channels_first":
            return x[:, :, sl[0], sl[1], sl[2]]
        return x[:, sl[0], sl[1], sl[2], :]


class UpSampling3D(Layer):
    """Each voxel repeated ``size`` times along depth, height and width, as
    ``tf.keras.layers.UpSampling3D``."""

    def __init__(self, size: Any = (2, 2, 2), data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = _tuple(size, 3)
        self.data_format = data_format or K.image_data_format()

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        first = 2 if self.data_format == "channels_first" else 1
        x = inputs
        for i, n in enumerate(self.size):
            x = K.repeat_elements(x, n, axis=first + i)
        return x


# -- dropout ------------------------------------------------------------------------------------


class _SpatialDropout(Layer):
    _takes_training = True
    _rank = 2

    def __init__(self, rate: float, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate = float(rate)
        self.data_format = data_format or K.image_data_format()

    def call(self, inputs: Any, training: Any = None, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        if not 0.0 < self.rate < 1.0:
            return identity(x)
        ones = [slice(0, 1)] * self._rank
        sample = x[(slice(None), slice(None), *ones)] if self.data_format == "channels_first" \
            else x[(slice(None), *ones, slice(None))]
        keep = _tf_layers.dropout(_fill.ones_like(sample), rate=self.rate, training=training)
        return x * keep


class SpatialDropout2D(_SpatialDropout):
    """Dropout of whole feature maps (one draw per ``[batch, 1, 1, channels]``) in the
    training phase, as ``tf.keras.layers.SpatialDropout2D``."""

    _rank = 2


class SpatialDropout3D(_SpatialDropout):
    """Dropout of whole feature volumes (one draw per ``[batch, 1, 1, 1, channels]``) in the
    training phase, as ``tf.keras.layers.SpatialDropout3D``."""

    _rank = 3


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


class ActivityRegularization(Layer):
    """The identity, adding ``(l1 * sum(|x|) + l2 * sum(x^2)) / batch`` of its output to
    :attr:`losses`, as ``tf.keras.layers.ActivityRegularization``."""

    supports_masking = True

    def __init__(self, l1: float = 0.0, l2: float = 0.0, **kwargs: Any) -> None:
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1 = float(l1)
        self.l2 = float(l2)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return identity(inputs)  # a new tensor: Keras' history maps each output to one layer call
