"""``jaxsess._tf1.keras.datasets.cifar100``, as ``tf.keras.datasets.cifar100`` without the download."""

from __future__ import annotations

import numpy as np

from jaxsess._tf1.keras import backend as K
from jaxsess._tf1.keras.datasets._cifar import channels_last, load_batch
from jaxsess._tf1.keras.datasets.mnist import _cache_dir

__all__ = ["load_data"]


def load_data(label_mode: str = "fine") -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``(x_train, y_train), (x_test, y_test)`` from Keras' cached, extracted
    ``cifar-100-python`` (``train``, ``test``), as
    ``tf.keras.datasets.cifar100.load_data``: uint8 images ``(n, 32, 32, 3)``,
    labels ``(n, 1)`` (``label_mode`` ``'fine'``: 100 classes, ``'coarse'``: 20).

    Raises:
      ValueError: a bad ``label_mode``.
      FileNotFoundError: a file is missing (nothing is downloaded).
    """
    if label_mode not in ["fine", "coarse"]:
        raise ValueError(f'`label_mode` must be one of `"fine"`, `"coarse"`. Received: label_mode={label_mode}.')
    path = _cache_dir() / "cifar-100-python"
    x_train, y_train_l = load_batch(path / "train", label_key=label_mode + "_labels")
    x_test, y_test_l = load_batch(path / "test", label_key=label_mode + "_labels")
    y_train = np.reshape(np.asarray(y_train_l), (len(y_train_l), 1))
    y_test = np.reshape(np.asarray(y_test_l), (len(y_test_l), 1))
    if K.image_data_format() == "channels_last":
        x_train, x_test = channels_last(x_train), channels_last(x_test)
    return (x_train, y_train), (x_test, y_test)
