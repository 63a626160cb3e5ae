"""``jaxsess._tf1.keras.datasets.cifar10``, as ``tf.keras.datasets.cifar10`` without the download."""

from __future__ import annotations

import numpy as np

from jaxsess._tf1.keras import backend as K
from jaxsess._tf1.keras.datasets._cifar import channels_last, load_batch
from jaxsess._tf1.keras.datasets.mnist import _cache_dir

__all__ = ["load_data"]


def load_data() -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``(x_train, y_train), (x_test, y_test)`` from Keras' cached, extracted
    ``cifar-10-batches-py`` (``data_batch_1``..``5``, ``test_batch``), as
    ``tf.keras.datasets.cifar10.load_data``: uint8 images ``(50000, 32, 32, 3)``
    and ``(10000, 32, 32, 3)`` (channels first when ``K.image_data_format()`` says
    so), uint8 labels ``(n, 1)``.

    Raises:
      FileNotFoundError: a batch file is missing (nothing is downloaded).
    """
    path = _cache_dir() / "cifar-10-batches-py"
    parts = [load_batch(path / f"data_batch_{i}") for i in range(1, 6)]
    x_train = np.concatenate([p[0] for p in parts]).astype(np.uint8)
    y_train = np.concatenate([np.asarray(p[1]) for p in parts]).astype(np.uint8)
    x_test, y_test_l = load_batch(path / "test_batch")
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(np.asarray(y_test_l), (len(y_test_l), 1)).astype(y_train.dtype)
    if K.image_data_format() == "channels_last":
        x_train, x_test = channels_last(x_train), channels_last(x_test)
    return (x_train, y_train), (x_test.astype(x_train.dtype), y_test)
