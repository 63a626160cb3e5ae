"""Keras shape, masking and noise layers used by sequence and CNN tutorials, as
``tf.compat.v1.keras.layers`` (``Masking``, ``RepeatVector``, ``Permute``,
``Cropping1D/2D``, ``ZeroPadding1D``, ``UpSampling1D/2D``, ``SpatialDropout1D``,
``GaussianNoise``, ``GaussianDropout``, ``AlphaDropout``).

The noise layers act in the training phase only (``training`` or
:func:`~jaxsess._tf1.keras.backend.learning_phase`) and are the identity otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from jaxsess._core.graph._builder import constant_value, convert_to_tensor, identity
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1 import layers as _tf_layers
from jaxsess._tf1.keras import backend as K
from jaxsess._tf1.keras._layers_core import Layer
from jaxsess._tf1.ops import (
    control_flow as _control_flow,
    fill_ops as _fill,
    math_ops as _math,
    shape_ops as _shape_ops,
)
from jaxsess._tf1.ops.random_ops import random_normal, random_uniform

__all__ = [
    "Masking", "RepeatVector", "Permute", "Cropping1D", "Cropping2D", "ZeroPadding1D", "UpSampling1D",
    "UpSampling2D", "SpatialDropout1D", "GaussianNoise", "GaussianDropout", "AlphaDropout",
]


def _in_train_phase(training: Any, train: Callable[[], Any], test: Callable[[], Any]) -> Any:
    """``train()`` in the training phase (a Python bool or a bool tensor chosen at run time), else ``test()``."""
    static = training if isinstance(training, bool) or training is None else constant_value(training)
    if static is not None:
        return train() if bool(static) else test()
    return _control_flow.cond(training, train, test)


def _pair(value: Any, what: str) -> tuple[int, int]:
    if isinstance(value, int):
        return (value, value)
    if len(value) != 2:
        raise ValueError(f"`{what}` should have two elements. Received: {value}.")
    return (int(value[0]), int(value[1]))


class Masking(Layer):
    """Masks the steps whose features all equal ``mask_value``, as ``tf.keras.layers.Masking``:
    outputs ``inputs * keep`` (masked steps become zeros) and the Keras mask
    ``keep = any(inputs != mask_value, axis=-1)`` (bool ``[batch, time]``)."""

    supports_masking = True

    def __init__(self, mask_value: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def _keep(self, x: Any) -> Any:
        return _math.reduce_any(_math.not_equal(x, self.mask_value), axis=-1, keepdims=True)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        return x * _math.cast(self._keep(x), x.dtype)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        return _math.reduce_any(_math.not_equal(inputs, self.mask_value), axis=-1)


class RepeatVector(Layer):
    """``[batch, features] -> [batch, n, features]``, as ``tf.keras.layers.RepeatVector``."""

    def __init__(self, n: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.n = int(n)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        shape = TensorShape(x.shape)
        if shape.ndims is not None and shape.ndims != 2:
            raise ValueError(f"Input 0 of layer \"{self.name}\" is incompatible with the layer: expected ndim=2, "
                             f"found ndim={shape.ndims}. Full shape received: {tuple(shape.as_list())}")
        return _shape_ops.tile(_shape_ops.expand_dims(x, 1), [1, self.n, 1])


class Permute(Layer):
    """Permutes the non-batch axes by ``dims`` (1-based, e.g. ``(2, 1)``), as ``tf.keras.layers.Permute``.

    Raises:
      ValueError: ``dims`` is not a permutation of ``1..len(dims)``.
    """

    def __init__(self, dims: Sequence[int], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dims = tuple(int(d) for d in dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                             f"must be consecutive and start from 1. Received dims={dims}")

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return _shape_ops.transpose(inputs, [0, *self.dims])


class Cropping1D(Layer):
    """Drops ``cropping = (start, end)`` steps (``[batch, time, features]``), as ``tf.keras.layers.Cropping1D``."""

    def __init__(self, cropping: Any = (1, 1), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cropping = _pair(cropping, "cropping")

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        a, b = self.cropping
        x = convert_to_tensor(inputs)
        return x[:, a:-b, :] if b else x[:, a:, :]


class Cropping2D(Layer):
    """Drops rows and columns at the edges (``cropping``: int, ``(h, w)`` or
    ``((top, bottom), (left, right))``), as ``tf.keras.layers.Cropping2D``."""

    def __init__(self, cropping: Any = ((0, 0), (0, 0)), data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if isinstance(cropping, int):
            cropping = ((cropping, cropping), (cropping, cropping))
        self.cropping = (_pair(cropping[0], "cropping"), _pair(cropping[1], "cropping"))
        self.data_format = data_format or K.image_data_format()

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        (t, b), (le, r) = self.cropping
        rows = slice(t, -b if b else None)
        cols = slice(le, -r if r else None)
        x = convert_to_tensor(inputs)
        if self.data_format == "channels_last":
            return x[:, rows, cols, :]
        return x[:, :, rows, cols]


class ZeroPadding1D(Layer):
    """Zero steps at the start and end (``padding``: int or ``(start, end)``), as ``tf.keras.layers.ZeroPadding1D``."""

    def __init__(self, padding: Any = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.padding = _pair(padding, "padding")

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return _shape_ops.pad(inputs, [[0, 0], list(self.padding), [0, 0]])


def _repeat(x: Any, n: int, axis: int) -> Any:
    """Each entry of ``axis`` repeated ``n`` times (Keras' ``repeat_elements``), by tile and reshape."""
    if n == 1:
        return x
    dims = TensorShape(x.shape).as_list()
    if any(d is None for d in dims[1:]):
        raise ValueError(f"UpSampling: the non-batch dimensions of '{x.name}' must be known; got {x.shape}.")
    tiled = _shape_ops.tile(_shape_ops.expand_dims(x, axis + 1), [1] * (axis + 1) + [n] + [1] * (len(dims) - axis - 1))
    out = [-1, *[d for d in dims[1:] if d is not None]]
    out[axis] *= n
    return _shape_ops.reshape(tiled, out)


class UpSampling1D(Layer):
    """Each step repeated ``size`` times, as ``tf.keras.layers.UpSampling1D``."""

    def __init__(self, size: int = 2, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = int(size)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return _repeat(convert_to_tensor(inputs), self.size, 1)


class UpSampling2D(Layer):
    """Rows and columns repeated ``size = (h, w)`` times (``interpolation='nearest'``),
    as ``tf.keras.layers.UpSampling2D``.

    Raises:
      NotImplementedError: ``interpolation`` other than ``'nearest'``.
    """

    def __init__(self, size: Any = (2, 2), data_format: str | None = None, interpolation: str = "nearest",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if interpolation != "nearest":
            raise NotImplementedError(f"keras.layers.UpSampling2D(interpolation={interpolation!r}): jaxsess has "
                                      "only 'nearest'.")
        self.size = _pair(size, "size")
        self.data_format = data_format or K.image_data_format()
        self.interpolation = interpolation

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        axes = (1, 2) if self.data_format == "channels_last" else (2, 3)
        return _repeat(_repeat(x, self.size[0], axes[0]), self.size[1], axes[1])


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
