"""Images between PIL and NumPy, as tf_keras' ``utils/image_utils.py``: ``load_img``,
``img_to_array``, ``array_to_img``, ``save_img`` (exported as ``tf.keras.utils.*`` and
``tf.keras.preprocessing.image.*``). Host-only: no graph ops."""

from __future__ import annotations

import io
import pathlib
import warnings
from typing import Any

import numpy as np
from PIL import Image as pil_image

from jaxsess._tf1.keras import backend as K

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img"]

PIL_INTERPOLATION_METHODS = {
    "nearest": pil_image.Resampling.NEAREST,
    "bilinear": pil_image.Resampling.BILINEAR,
    "bicubic": pil_image.Resampling.BICUBIC,
    "hamming": pil_image.Resampling.HAMMING,
    "box": pil_image.Resampling.BOX,
    "lanczos": pil_image.Resampling.LANCZOS,
}


def array_to_img(x: Any, data_format: str | None = None, scale: bool = True,
                 dtype: Any = None) -> pil_image.Image:
    """A PIL image of the rank-3 array ``x``, as ``tf.keras.utils.array_to_img``.

    Args:
      x: an image ``[height, width, channels]`` (``channels_first``:
        ``[channels, height, width]``) with 1, 3 or 4 channels.
      data_format: ``'channels_last'``/``'channels_first'`` (default
        ``keras.backend.image_data_format()``).
      scale: map ``x``'s minimum..maximum to 0..255 first.
      dtype: the dtype ``x`` is converted to first (default ``floatx()``).

    Returns:
      A ``PIL.Image`` in mode ``'RGB'`` (3 channels), ``'RGBA'`` (4), ``'L'``
      (1; ``'I'``, 32-bit integers, when a value is above 255).

    Raises:
      ValueError: ``x`` is not of rank 3, an unknown ``data_format``, or a
        channel count other than 1, 3, 4.
    """
    data_format = K.image_data_format() if data_format is None else data_format
    x = np.asarray(x, dtype=K.floatx() if dtype is None else dtype)
    if x.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with shape: {x.shape}")
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Invalid data_format: {data_format}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        x_max = np.max(x)
        if x_max != 0:
            x /= x_max
        x *= 255
    channels = x.shape[2]
    if channels == 4:
        return pil_image.fromarray(x.astype("uint8"), "RGBA")
    if channels == 3:
        return pil_image.fromarray(x.astype("uint8"), "RGB")
    if channels == 1:
        if np.max(x) > 255:
            return pil_image.fromarray(x[:, :, 0].astype("int32"), "I")
        return pil_image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


def img_to_array(img: Any, data_format: str | None = None, dtype: Any = None) -> np.ndarray:
    """The pixels of the PIL image ``img`` as a rank-3 array, as ``tf.keras.utils.img_to_array``.

    Args:
      img: a ``PIL.Image`` (or anything ``np.asarray`` reads as a 2-D or 3-D
        array).
      data_format: ``'channels_last'`` (``[height, width, channels]``) or
        ``'channels_first'`` (default ``keras.backend.image_data_format()``).
      dtype: of the result (default ``floatx()``, ``'float32'``).

    Returns:
      A NumPy array of rank 3 (a grayscale image gets a channel axis of 1).

    Raises:
      ValueError: an unknown ``data_format``; an image that is not 2-D or 3-D.
    """
    data_format = K.image_data_format() if data_format is None else data_format
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Unknown data_format: {data_format}")
    x = np.asarray(img, dtype=K.floatx() if dtype is None else dtype)
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if data_format == "channels_first" else x
    if x.ndim == 2:
        return x.reshape((1, *x.shape) if data_format == "channels_first" else (*x.shape, 1))
    raise ValueError(f"Unsupported image shape: {x.shape}")


def save_img(path: Any, x: Any, data_format: str | None = None, file_format: str | None = None,
             scale: bool = True, **kwargs: Any) -> None:
    """Writes the rank-3 array ``x`` as an image file, as ``tf.keras.utils.save_img``.

    Args:
      path: a file name or a binary file object.
      x: the image, as for :func:`array_to_img`.
      data_format: ``'channels_last'``/``'channels_first'``.
      file_format: the PIL format (``'png'``, ``'jpeg'``, ...); default: from
        ``path``'s extension (needed for a file object). An RGBA image saved as
        JPEG is converted to RGB, with a warning.
      scale: map ``x``'s minimum..maximum to 0..255 first.
      **kwargs: passed to ``PIL.Image.save``.

    Raises:
      ValueError: as :func:`array_to_img`, and PIL's for an unknown format.
    """
    img = array_to_img(x, data_format=K.image_data_format() if data_format is None else data_format, scale=scale)
    if img.mode == "RGBA" and file_format in ("jpg", "jpeg"):
        warnings.warn("The JPG format does not support RGBA images, converting to RGB.", stacklevel=2)
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def _crop_box(size: tuple[int, int], target: tuple[int, int]) -> tuple[int, int, int, int]:
    """The centred box of ``size`` (width, height) with ``target``'s aspect ratio."""
    width, height = size
    target_width, target_height = target
    crop_height = min(height, (width * target_height) // target_width)
    crop_width = min(width, (height * target_width) // target_height)
    top, left = (height - crop_height) // 2, (width - crop_width) // 2
    return left, top, left + crop_width, top + crop_height


def load_img(path: Any, grayscale: bool = False, color_mode: str = "rgb",
             target_size: tuple[int, int] | None = None, interpolation: str = "nearest",
             keep_aspect_ratio: bool = False) -> pil_image.Image:
    """Reads an image file into a PIL image, as ``tf.keras.utils.load_img``.

    Args:
      path: a file name (``str``, ``bytes``, ``pathlib.Path``) or an
        ``io.BytesIO``.
      grayscale: deprecated: ``color_mode='grayscale'`` (with a warning).
      color_mode: ``'rgb'`` (default), ``'rgba'`` or ``'grayscale'`` (8-bit
        ``'L'``; 16/32-bit grayscale images are kept).
      target_size: ``(height, width)`` to resize to (default: as stored).
      interpolation: the PIL resampling of a resize: ``'nearest'`` (default),
        ``'bilinear'``, ``'bicubic'``, ``'hamming'``, ``'box'``, ``'lanczos'``.
      keep_aspect_ratio: crop the centre to ``target_size``'s aspect ratio
        before resizing.

    Returns:
      A ``PIL.Image``.

    Raises:
      TypeError: ``path`` is neither path-like nor an ``io.BytesIO``.
      ValueError: an unknown ``color_mode`` or ``interpolation``.
    """
    if grayscale:
        warnings.warn('grayscale is deprecated. Please use color_mode = "grayscale"', stacklevel=2)
        color_mode = "grayscale"
    img: pil_image.Image
    if isinstance(path, io.BytesIO):
        img = pil_image.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str)):
        if isinstance(path, pathlib.Path):
            path = str(path.resolve())
        with open(path, "rb") as f:
            img = pil_image.open(io.BytesIO(f.read()))
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    if color_mode == "grayscale":
        if img.mode not in ("L", "I;16", "I"):
            img = img.convert("L")
    elif color_mode == "rgba":
        if img.mode != "RGBA":
            img = img.convert("RGBA")
    elif color_mode == "rgb":
        if img.mode != "RGB":
            img = img.convert("RGB")
    else:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    if target_size is not None:
        width_height = (int(target_size[1]), int(target_size[0]))
        if img.size != width_height:
            if interpolation not in PIL_INTERPOLATION_METHODS:
                raise ValueError(f"Invalid interpolation method {interpolation} specified. Supported methods are "
                                 f"{', '.join(PIL_INTERPOLATION_METHODS)}")
            resample = PIL_INTERPOLATION_METHODS[interpolation]
            box = _crop_box(img.size, width_height) if keep_aspect_ratio else None
            img = img.resize(width_height, resample, box=box)
    return img
