"""``jaxsess._tf1.keras.utils``: as ``tf.keras.utils`` (``to_categorical``, ``normalize``, ``Sequence``,
``pad_sequences``, ``Progbar``, ``custom_object_scope``/``get_custom_objects``, and the image
helpers ``load_img``, ``img_to_array``, ``array_to_img``, ``save_img``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._tf1.keras._custom_objects import (
    CustomObjectScope as CustomObjectScope,
    custom_object_scope as custom_object_scope,
    get_custom_objects as get_custom_objects,
)
from jaxsess._tf1.keras._image_utils import (
    array_to_img as array_to_img,
    img_to_array as img_to_array,
    load_img as load_img,
    save_img as save_img,
)
from jaxsess._tf1.keras._progbar import Progbar as Progbar
from jaxsess._tf1.keras._sequence import Sequence as Sequence
from jaxsess._tf1.keras.preprocessing.sequence import pad_sequences as pad_sequences

__all__ = ["Sequence", "to_categorical", "normalize", "pad_sequences", "Progbar", "CustomObjectScope",
           "custom_object_scope", "get_custom_objects", "array_to_img", "img_to_array", "load_img", "save_img"]


def to_categorical(y: Any, num_classes: int | None = None, dtype: str = "float32") -> np.ndarray:
    """One-hot rows for the integer class ids ``y`` (shape ``y.shape + (num_classes,)``,
    a trailing 1 of ``y`` dropped), as ``tf.keras.utils.to_categorical``.

    Args:
      y: integer class ids.
      num_classes: default ``max(y) + 1``.
      dtype: of the result (``'float32'``).
    """
    y = np.array(y, dtype="int")
    shape = y.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    y = y.ravel()
    if num_classes is None:
        num_classes = int(np.max(y)) + 1
    out = np.zeros((y.shape[0], num_classes), dtype=dtype)
    out[np.arange(y.shape[0]), y] = 1
    return out.reshape((*shape, num_classes))


def normalize(x: Any, axis: int = -1, order: Any = 2) -> np.ndarray:
    """``x`` divided by its ``order``-norms along ``axis`` (zero norms count as 1), as
    ``tf.keras.utils.normalize`` (NumPy; float inputs keep their dtype).

    Args:
      x: an array.
      axis: the axis of the norms (-1).
      order: the norm's order (2: L2), as ``numpy.linalg.norm``'s ``ord``.

    Raises:
      ValueError: ``numpy.linalg.norm``'s errors (an order it does not take for vectors).
    """
    x = np.asarray(x)
    norms = np.atleast_1d(np.linalg.norm(x, order, axis))
    norms[norms == 0] = 1
    return x / np.expand_dims(norms, axis)  # type: ignore[no-any-return]


