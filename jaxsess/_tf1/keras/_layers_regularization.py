"""Keras regularization layers, as ``tf.compat.v1.keras.layers`` (tf_keras'
``layers/regularization``): ``Dropout``, ``SpatialDropout1D``/``2D``/``3D``,
``GaussianNoise``, ``GaussianDropout``, ``AlphaDropout`` and
``ActivityRegularization``.

The dropout and noise layers act in the training phase only (``training`` or
:func:`~jaxsess._tf1.keras.backend.learning_phase`) and are the identity otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from jaxsess._core.graph._builder import constant_value, convert_to_tensor, identity
from jaxsess._tf1 import layers as _tf_layers
from jaxsess._tf1.keras import backend as K, regularizers
from jaxsess._tf1.keras._layers_core import Layer
from jaxsess._tf1.ops import (
    control_flow as _control_flow,
    fill_ops as _fill,
    math_ops as _math,
    shape_ops as _shape_ops,
)
from jaxsess._tf1.ops.random_ops import random_normal, random_uniform

__all__ = [
    "Dropout",
    "SpatialDropout2D",
    "SpatialDropout3D",
    "ActivityRegularization",
    "SpatialDropout1D",
    "GaussianNoise",
    "GaussianDropout",
    "AlphaDropout",
]


class Dropout(Layer, _tf_layers.Dropout):
    """Dropout in the training phase (``training`` or the learning phase), as ``tf.keras.layers.Dropout``."""

    supports_masking = True

    _takes_training = True


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


def _in_train_phase(training: Any, train: Callable[[], Any], test: Callable[[], Any]) -> Any:
    """``train()`` in the training phase (a Python bool or a bool tensor chosen at run time), else ``test()``."""
    static = training if isinstance(training, bool) or training is None else constant_value(training)
    if static is not None:
        return train() if bool(static) else test()
    return _control_flow.cond(training, train, test)


class SpatialDropout1D(Layer):
    """Dropout of whole feature channels (one draw per ``[batch, 1, features]``), in the training
    phase, as ``tf.keras.layers.SpatialDropout1D``."""

    _takes_training = True
    supports_masking = True

    def __init__(self, rate: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate = float(rate)

    def call(self, inputs: Any, training: Any = None, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        if not 0.0 < self.rate < 1.0:
            return identity(x)
        keep = _tf_layers.dropout(_fill.ones_like(x[:, :1, :]), rate=self.rate, training=training)
        return x * keep


class GaussianNoise(Layer):
    """``inputs + N(0, stddev²)`` noise in the training phase, as ``tf.keras.layers.GaussianNoise``."""

    _takes_training = True
    supports_masking = True

    def __init__(self, stddev: float, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.stddev = float(stddev)
        self.seed = seed

    def call(self, inputs: Any, training: Any = None, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        return _in_train_phase(
            training,
            lambda: x + random_normal(_shape_ops.shape(x), 0.0, self.stddev, dtype=x.dtype, seed=self.seed),
            lambda: identity(x))


class GaussianDropout(Layer):
    """``inputs * N(1, rate / (1 - rate))`` noise in the training phase, as ``tf.keras.layers.GaussianDropout``."""

    _takes_training = True
    supports_masking = True

    def __init__(self, rate: float, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate = float(rate)
        self.seed = seed

    def call(self, inputs: Any, training: Any = None, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        if not 0.0 < self.rate < 1.0:
            return identity(x)
        stddev = math.sqrt(self.rate / (1.0 - self.rate))
        return _in_train_phase(
            training,
            lambda: x * random_normal(_shape_ops.shape(x), 1.0, stddev, dtype=x.dtype, seed=self.seed),
            lambda: identity(x))


class AlphaDropout(Layer):
    """Dropout that keeps SELU's mean and variance, in the training phase, as
    ``tf.keras.layers.AlphaDropout``: dropped entries become ``-alpha·scale``
    (SELU's negative saturation), then ``a·x + b`` restores the moments, with
    ``a = ((1 - rate)(1 + rate·alpha_p²))^-1/2`` and ``b = -a·alpha_p·rate``."""

    _takes_training = True
    supports_masking = True

    def __init__(self, rate: float, noise_shape: Any = None, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate = float(rate)
        self.noise_shape = noise_shape
        self.seed = seed

    def call(self, inputs: Any, training: Any = None, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        if not 0.0 < self.rate < 1.0:
            return identity(x)
        alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
        a = ((1 - self.rate) * (1 + self.rate * alpha_p**2)) ** -0.5
        b = -a * alpha_p * self.rate
        shape = self.noise_shape if self.noise_shape is not None else _shape_ops.shape(x)

        def dropped() -> Any:
            kept = _math.cast(_math.greater_equal(random_uniform(shape, seed=self.seed, dtype=x.dtype), self.rate),
                              x.dtype)
            return a * (x * kept + alpha_p * (1.0 - kept)) + b

        return _in_train_phase(training, dropped, lambda: identity(x))
