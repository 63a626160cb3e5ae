"""Keras activation layers, as ``tf.compat.v1.keras.layers`` (tf_keras'
``layers/activation``): ``ReLU``, ``LeakyReLU``, ``Softmax``, ``ELU``,
``ThresholdedReLU`` and ``PReLU`` (variable ``alpha``). tf_keras' graph-mode
code is the reference for formulas, weight names and defaults.
"""

from __future__ import annotations

from typing import Any

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.keras import activations, backend as K
from jaxsess._tf1.keras._layers_core import Layer
from jaxsess._tf1.ops import (
    math_ops as _math,
    nn_ops as _nn,
)

__all__ = [
    "LeakyReLU",
    "ReLU",
    "Softmax",
    "ELU",
    "ThresholdedReLU",
    "PReLU",
]


class LeakyReLU(Layer):
    """``x`` if ``x > 0`` else ``alpha * x`` (alpha 0.3), as ``tf.keras.layers.LeakyReLU``."""

    def __init__(self, alpha: float = 0.3, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alpha = float(alpha)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return _nn.leaky_relu(inputs, alpha=self.alpha)


class ReLU(Layer):
    """:func:`jaxsess._tf1.keras.activations.relu` as a layer, as ``tf.keras.layers.ReLU``."""

    def __init__(self, max_value: float | None = None, negative_slope: float = 0.0, threshold: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_value = max_value
        self.negative_slope = float(negative_slope)
        self.threshold = float(threshold)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return activations.relu(inputs, alpha=self.negative_slope, max_value=self.max_value,
                                threshold=self.threshold)


class Softmax(Layer):
    """Softmax over ``axis`` (-1), as ``tf.keras.layers.Softmax``."""

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = int(axis)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return _nn.softmax(inputs, axis=self.axis)


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
