"""Affine, channel and brightness transforms of one NumPy image, as tf_keras'
``preprocessing/image.py`` (``apply_affine_transform`` through ``scipy.ndimage``; the
``random_*`` functions draw from NumPy's global random state in tf_keras' order)."""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import ImageEnhance

from jaxsess._tf1.keras._image_utils import array_to_img, img_to_array

__all__ = ["apply_affine_transform", "apply_brightness_shift", "apply_channel_shift", "flip_axis",
           "random_brightness", "random_channel_shift", "random_rotation", "random_shear", "random_shift",
           "random_zoom", "transform_matrix_offset_center"]


def flip_axis(x: np.ndarray, axis: int) -> np.ndarray:
    """``x`` reversed along ``axis``."""
    return np.flip(np.asarray(x), axis)


def transform_matrix_offset_center(matrix: np.ndarray, x: int, y: int) -> np.ndarray:
    """The 3x3 affine ``matrix`` about the centre of an ``x`` by ``y`` image instead of its corner."""
    o_x, o_y = float(x) / 2 - 0.5, float(y) / 2 - 0.5
    offset = np.array([[1, 0, o_x], [0, 1, o_y], [0, 0, 1]])
    reset = np.array([[1, 0, -o_x], [0, 1, -o_y], [0, 0, 1]])
    return np.dot(np.dot(offset, matrix), reset)


def _affine_matrix(theta: float, tx: float, ty: float, shear: float, zx: float, zy: float) -> np.ndarray | None:
    """Rotation @ shift @ shear @ zoom (the factors that are not the identity), or ``None``."""
    parts = []
    if theta != 0:
        t = np.deg2rad(theta)
        parts.append(np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]]))
    if tx != 0 or ty != 0:
        parts.append(np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]]))
    if shear != 0:
        s = np.deg2rad(shear)
        parts.append(np.array([[1, -np.sin(s), 0], [0, np.cos(s), 0], [0, 0, 1]]))
    if zx != 1 or zy != 1:
        parts.append(np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]]))
    if not parts:
        return None
    matrix = parts[0]
    for p in parts[1:]:
        matrix = np.dot(matrix, p)
    return matrix


def apply_affine_transform(x: np.ndarray, theta: float = 0, tx: float = 0, ty: float = 0, shear: float = 0,
                           zx: float = 1, zy: float = 1, row_axis: int = 1, col_axis: int = 2,
                           channel_axis: int = 0, fill_mode: str = "nearest", cval: float = 0.0,
                           order: int = 1) -> np.ndarray:
    """An affine transform of the image ``x``, as ``tf.keras.preprocessing.image.apply_affine_transform``.

    The output pixel at ``p`` (row, column; about the image centre) takes the
    input at ``R(theta) T(tx, ty) S(shear) Z(zx, zy) p``, interpolated by
    ``scipy.ndimage.affine_transform`` channel by channel.

    Args:
      x: a rank-3 array, one image with its channel axis first or last.
      theta: rotation, degrees.
      tx, ty: shifts, pixels: as tf_keras, ``tx`` moves the image along its
        columns and ``ty`` along its rows when ``col_axis > row_axis`` (the
        other way round otherwise).
      shear: shear angle, degrees.
      zx, zy: zoom factors of the row and column axes (above 1 shrinks).
      row_axis, col_axis, channel_axis: a permutation of 0, 1, 2 (channels 0 or 2).
      fill_mode: outside points: ``'constant'``, ``'nearest'``, ``'reflect'``,
        ``'wrap'`` (``scipy.ndimage`` modes).
      cval: the fill of ``'constant'``.
      order: the spline order of the interpolation (0..5).

    Returns:
      The transformed image (``x`` itself when every parameter is the identity);
      the same shape, ``x``'s dtype.

    Raises:
      ValueError: repeated or invalid axes, ``x`` not of rank 3, channels on the
        middle axis.
    """
    axes = {row_axis, col_axis, channel_axis}
    if len(axes) != 3:
        raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
    if axes != {0, 1, 2}:
        raise ValueError(f"Invalid axis' indices: {axes - {0, 1, 2}}")
    if x.ndim != 3:
        raise ValueError(f"Input arrays must be multi-channel 2D images. Got shape {x.shape}.")
    if channel_axis not in (0, 2):
        raise ValueError("Channels are allowed and the first and last dimensions.")
    matrix = _affine_matrix(theta, tx, ty, shear, zx, zy)
    if matrix is None:
        return x
    matrix = transform_matrix_offset_center(matrix, x.shape[row_axis], x.shape[col_axis])
    if col_axis > row_axis:  # the matrix is in (x, y) = (row, column) order; NumPy's (i, j) swaps them
        matrix[:, [0, 1]] = matrix[:, [1, 0]]
        matrix[[0, 1]] = matrix[[1, 0]]
    # scipy.ndimage is imported here, on first use: at module level it adds about half a second
    # to every program that touches tf.keras
    from scipy import ndimage

    channels = np.moveaxis(x, channel_axis, 0)
    out = np.stack([ndimage.affine_transform(c, matrix[:2, :2], matrix[:2, 2], order=order, mode=fill_mode,
                                             cval=cval) for c in channels], axis=0)
    return np.moveaxis(out, 0, channel_axis)


def random_rotation(x: np.ndarray, rg: float, row_axis: int = 1, col_axis: int = 2, channel_axis: int = 0,
                    fill_mode: str = "nearest", cval: float = 0.0, interpolation_order: int = 1) -> np.ndarray:
    """``x`` rotated by ``np.random.uniform(-rg, rg)`` degrees, as
    ``tf.keras.preprocessing.image.random_rotation`` (arguments as :func:`apply_affine_transform`)."""
    theta = np.random.uniform(-rg, rg)
    return apply_affine_transform(x, theta=theta, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_shift(x: np.ndarray, wrg: float, hrg: float, row_axis: int = 1, col_axis: int = 2,
                 channel_axis: int = 0, fill_mode: str = "nearest", cval: float = 0.0,
                 interpolation_order: int = 1) -> np.ndarray:
    """``x`` shifted by up to the fractions ``hrg`` of its height and ``wrg`` of its width, as
    ``tf.keras.preprocessing.image.random_shift`` (the height shift is drawn first)."""
    h, w = x.shape[row_axis], x.shape[col_axis]
    tx = np.random.uniform(-hrg, hrg) * h
    ty = np.random.uniform(-wrg, wrg) * w
    return apply_affine_transform(x, tx=tx, ty=ty, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_shear(x: np.ndarray, intensity: float, row_axis: int = 1, col_axis: int = 2, channel_axis: int = 0,
                 fill_mode: str = "nearest", cval: float = 0.0, interpolation_order: int = 1) -> np.ndarray:
    """``x`` sheared by ``np.random.uniform(-intensity, intensity)`` degrees, as
    ``tf.keras.preprocessing.image.random_shear``."""
    shear = np.random.uniform(-intensity, intensity)
    return apply_affine_transform(x, shear=shear, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_zoom(x: np.ndarray, zoom_range: Any, row_axis: int = 1, col_axis: int = 2, channel_axis: int = 0,
                fill_mode: str = "nearest", cval: float = 0.0, interpolation_order: int = 1) -> np.ndarray:
    """``x`` zoomed by two factors drawn from ``zoom_range`` (``(low, high)``; ``(1, 1)`` draws
    nothing), as ``tf.keras.preprocessing.image.random_zoom``.

    Raises:
      ValueError: ``zoom_range`` is not of length 2.
    """
    if len(zoom_range) != 2:
        raise ValueError(f"`zoom_range` should be a tuple or list of two floats. Received: {zoom_range}")
    if zoom_range[0] == 1 and zoom_range[1] == 1:
        zx, zy = 1.0, 1.0
    else:
        zx, zy = np.random.uniform(zoom_range[0], zoom_range[1], 2)
    return apply_affine_transform(x, zx=zx, zy=zy, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def apply_channel_shift(x: np.ndarray, intensity: float, channel_axis: int = 0) -> np.ndarray:
    """``x + intensity`` clipped to ``x``'s minimum..maximum, as
    ``tf.keras.preprocessing.image.apply_channel_shift`` (same shape)."""
    x = np.asarray(x)
    return np.clip(x + intensity, np.min(x), np.max(x))


def random_channel_shift(x: np.ndarray, intensity_range: float, channel_axis: int = 0) -> np.ndarray:
    """:func:`apply_channel_shift` by ``np.random.uniform(-intensity_range, intensity_range)``, as
    ``tf.keras.preprocessing.image.random_channel_shift``."""
    intensity = np.random.uniform(-intensity_range, intensity_range)
    return apply_channel_shift(x, intensity, channel_axis=channel_axis)


def apply_brightness_shift(x: np.ndarray, brightness: float, scale: bool = True) -> np.ndarray:
    """``x``'s brightness times ``brightness`` through ``PIL.ImageEnhance.Brightness``, as
    ``tf.keras.preprocessing.image.apply_brightness_shift``.

    ``x`` (channels last, 1, 3 or 4 channels) goes through an 8-bit image: it is
    rescaled to 0..255 first when ``scale`` or when its values leave 0..255;
    with ``scale=False`` such values are mapped back to ``x``'s range after.

    Returns:
      A ``float32`` (``floatx()``) image of ``x``'s shape.
    """
    x_min, x_max = np.min(x), np.max(x)
    local_scale = bool(x_min < 0 or x_max > 255)
    img = ImageEnhance.Brightness(array_to_img(x, scale=local_scale or scale)).enhance(brightness)
    out = img_to_array(img)
    if not scale and local_scale:
        out = out / 255 * (x_max - x_min) + x_min
    return out


def random_brightness(x: np.ndarray, brightness_range: Any, scale: bool = True) -> np.ndarray:
    """:func:`apply_brightness_shift` by ``np.random.uniform(*brightness_range)``, as
    ``tf.keras.preprocessing.image.random_brightness``.

    Raises:
      ValueError: ``brightness_range`` is not of length 2.
    """
    if len(brightness_range) != 2:
        raise ValueError(f"`brightness_range should be tuple or list of two floats. Received: {brightness_range}")
    u = np.random.uniform(brightness_range[0], brightness_range[1])
    return apply_brightness_shift(x, u, scale)
