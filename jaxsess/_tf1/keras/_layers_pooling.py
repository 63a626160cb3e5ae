"""Keras pooling layers, as ``tf.compat.v1.keras.layers`` (tf_keras'
``layers/pooling``): max and average pooling in 1-D, 2-D and 3-D, and their
global forms (``GlobalMaxPooling1D`` ... ``GlobalAveragePooling3D``), with
Keras' short aliases (``MaxPool2D``, ``GlobalAvgPool1D``, ...).
"""

from __future__ import annotations

from typing import Any

from jaxsess._tf1 import layers as _tf_layers
from jaxsess._tf1.keras import backend as K
from jaxsess._tf1.keras._layers_core import Layer
from jaxsess._tf1.ops import (
    math_ops as _math,
)

__all__ = [
    "MaxPooling2D",
    "AveragePooling2D",
    "MaxPool2D",
    "AvgPool2D",
    "MaxPooling1D",
    "AveragePooling1D",
    "MaxPool1D",
    "AvgPool1D",
    "GlobalAveragePooling2D",
    "GlobalMaxPooling2D",
    "GlobalAveragePooling1D",
    "GlobalMaxPooling1D",
    "GlobalAvgPool1D",
    "GlobalMaxPool1D",
    "GlobalAvgPool2D",
    "GlobalMaxPool2D",
    "MaxPooling3D",
    "AveragePooling3D",
    "MaxPool3D",
    "AvgPool3D",
    "GlobalMaxPooling3D",
    "GlobalAveragePooling3D",
    "GlobalMaxPool3D",
    "GlobalAvgPool3D",
]


class MaxPooling2D(Layer, _tf_layers.MaxPooling2D):
    """Max pooling, as ``tf.keras.layers.MaxPooling2D`` (``pool_size`` (2, 2), ``strides`` = pool size)."""

    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: str = "valid",
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding=padding, data_format=data_format or K.image_data_format(),
                         **kwargs)


class AveragePooling2D(Layer, _tf_layers.AveragePooling2D):
    """Average pooling, as ``tf.keras.layers.AveragePooling2D``."""

    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: str = "valid",
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding=padding, data_format=data_format or K.image_data_format(),
                         **kwargs)


MaxPool2D = MaxPooling2D


AvgPool2D = AveragePooling2D


class MaxPooling1D(Layer, _tf_layers.MaxPooling1D):
    """Max pooling over steps (``[N, L, C]``), as ``tf.keras.layers.MaxPooling1D`` (``pool_size`` 2)."""

    def __init__(self, pool_size: Any = 2, strides: Any = None, padding: str = "valid",
                 data_format: str = "channels_last", **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding=padding, data_format=data_format, **kwargs)


class AveragePooling1D(Layer, _tf_layers.AveragePooling1D):
    """Average pooling over steps, as ``tf.keras.layers.AveragePooling1D`` (``pool_size`` 2)."""

    def __init__(self, pool_size: Any = 2, strides: Any = None, padding: str = "valid",
                 data_format: str = "channels_last", **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding=padding, data_format=data_format, **kwargs)


MaxPool1D = MaxPooling1D


AvgPool1D = AveragePooling1D


class _GlobalPooling2D(Layer):
    def __init__(self, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format or K.image_data_format()

    def _axes(self) -> list[int]:
        return [1, 2] if self.data_format == "channels_last" else [2, 3]


class GlobalAveragePooling2D(_GlobalPooling2D):
    """The mean over the spatial axes (``[N, H, W, C] -> [N, C]``), as ``tf.keras.layers.GlobalAveragePooling2D``."""

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return _math.reduce_mean(inputs, self._axes())


class GlobalMaxPooling2D(_GlobalPooling2D):
    """The max over the spatial axes, as ``tf.keras.layers.GlobalMaxPooling2D``."""

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return _math.reduce_max(inputs, self._axes())


class _GlobalPooling1D(Layer):
    def __init__(self, data_format: str = "channels_last", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format

    def _axis(self) -> int:
        return 1 if self.data_format == "channels_last" else 2


class GlobalAveragePooling1D(_GlobalPooling1D):
    """The mean over steps (``[N, L, C] -> [N, C]``), as ``tf.keras.layers.GlobalAveragePooling1D``."""

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return _math.reduce_mean(inputs, self._axis())


class GlobalMaxPooling1D(_GlobalPooling1D):
    """The max over steps, as ``tf.keras.layers.GlobalMaxPooling1D``."""

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return _math.reduce_max(inputs, self._axis())


GlobalAvgPool1D = GlobalAveragePooling1D


GlobalMaxPool1D = GlobalMaxPooling1D


GlobalAvgPool2D = GlobalAveragePooling2D


GlobalMaxPool2D = GlobalMaxPooling2D


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
