"""Keras merge layers, as ``tf.compat.v1.keras.layers`` (tf_keras' ``layers/merging``):
``Add``, ``Subtract``, ``Multiply``, ``Maximum``, ``Minimum``, ``Average``,
``Concatenate``, ``Dot`` and their functional forms (``add``, ``concatenate``, ...).
tf_keras' graph-mode code is the reference for formulas and defaults.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._tf1.keras import backend as K
from jaxsess._tf1.keras._layers_core import Layer
from jaxsess._tf1.ops import (
    math_ops as _math,
    nn_ops as _nn,
    shape_ops as _shape_ops,
)

__all__ = [
    "Add",
    "Subtract",
    "Multiply",
    "Concatenate",
    "concatenate",
    "add",
    "Maximum",
    "Minimum",
    "Average",
    "Dot",
    "maximum",
    "minimum",
    "average",
    "multiply",
    "subtract",
    "dot",
]


class _Merge(Layer):
    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(inputs, list | tuple) or len(inputs) < 2:
            raise ValueError(f"A merge layer ({self.name}) should be called on a list of at least 2 inputs. "
                             f"Got {inputs!r}.")
        out = inputs[0]
        for x in inputs[1:]:
            out = self._merge(out, x)
        return out

    def _merge(self, a: Any, b: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError


class Add(_Merge):
    """The element-wise sum of a list of tensors, as ``tf.keras.layers.Add``."""

    def _merge(self, a: Any, b: Any) -> Any:
        return a + b  # the ``add`` op, as Keras' ``output += x``


class Subtract(_Merge):
    """``inputs[0] - inputs[1]``, as ``tf.keras.layers.Subtract``."""

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(inputs, list | tuple) or len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Got {inputs!r}.")
        return _math.subtract(inputs[0], inputs[1])


class Multiply(_Merge):
    """The element-wise product of a list of tensors, as ``tf.keras.layers.Multiply``."""

    def _merge(self, a: Any, b: Any) -> Any:
        return _math.multiply(a, b)


class Concatenate(Layer):
    """Concatenation of a list of tensors on ``axis``, as ``tf.keras.layers.Concatenate``."""

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = int(axis)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(inputs, list | tuple) or len(inputs) < 2:
            raise ValueError(f"A `Concatenate` layer should be called on a list of at least 2 inputs. Got {inputs!r}.")
        return _shape_ops.concat(list(inputs), self.axis)


def concatenate(inputs: Sequence[Any], axis: int = -1, **kwargs: Any) -> Any:
    """``Concatenate(axis)(inputs)``."""
    return Concatenate(axis=axis, **kwargs)(list(inputs))


def add(inputs: Sequence[Any], **kwargs: Any) -> Any:
    """``Add()(inputs)``."""
    return Add(**kwargs)(list(inputs))


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
