"""Keras reshaping layers, as ``tf.compat.v1.keras.layers`` (tf_keras'
``layers/reshaping``): ``Flatten``, ``Reshape``, ``RepeatVector``, ``Permute``,
``Cropping1D``/``2D``/``3D``, ``ZeroPadding1D``/``2D``/``3D`` and
``UpSampling1D``/``2D``/``3D``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxsess._core.graph._builder import constant, convert_to_tensor
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1 import layers as _tf_layers
from jaxsess._tf1.keras import backend as K
from jaxsess._tf1.keras._layers_core import Layer, _tuple
from jaxsess._tf1.ops import (
    shape_ops as _shape_ops,
)

__all__ = [
    "RepeatVector",
    "Permute",
    "Cropping1D",
    "Cropping2D",
    "ZeroPadding1D",
    "UpSampling1D",
    "UpSampling2D",
    "Flatten",
    "ZeroPadding2D",
    "Reshape",
    "ZeroPadding3D",
    "Cropping3D",
    "UpSampling3D",
]


def _pair(value: Any, what: str) -> tuple[int, int]:
    if isinstance(value, int):
        return (value, value)
    if len(value) != 2:
        raise ValueError(f"`{what}` should have two elements. Received: {value}.")
    return (int(value[0]), int(value[1]))


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


class Flatten(Layer, _tf_layers.Flatten):
    """``[N, ...] -> [N, prod(...)]``, as ``tf.keras.layers.Flatten``."""


class ZeroPadding2D(Layer):
    """Zero rows and columns around images (``padding``: int, ``(h, w)`` or
    ``((top, bottom), (left, right))``), as ``tf.keras.layers.ZeroPadding2D``."""

    def __init__(self, padding: Any = (1, 1), data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if isinstance(padding, int):
            padding = ((padding, padding), (padding, padding))
        elif all(isinstance(p, int) for p in padding):
            padding = ((padding[0], padding[0]), (padding[1], padding[1]))
        self.padding = tuple(tuple(int(v) for v in p) for p in padding)
        self.data_format = data_format or K.image_data_format()

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        (t, b), (le, r) = self.padding
        if self.data_format == "channels_last":
            pads = [[0, 0], [t, b], [le, r], [0, 0]]
        else:
            pads = [[0, 0], [0, 0], [t, b], [le, r]]
        return _shape_ops.pad(inputs, pads)


class Reshape(Layer):
    """``[N, ...] -> [N, *target_shape]`` (one entry may be -1), as ``tf.keras.layers.Reshape``."""

    def __init__(self, target_shape: Sequence[int], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        batch = _shape_ops.shape(x)[:1]
        return _shape_ops.reshape(x, _shape_ops.concat([batch, constant(list(self.target_shape), "int32")], 0))


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
