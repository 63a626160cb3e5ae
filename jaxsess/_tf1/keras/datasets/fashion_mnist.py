"""``jaxsess._tf1.keras.datasets.fashion_mnist``, as ``tf.keras.datasets.fashion_mnist`` without the download."""

from __future__ import annotations

import gzip

import numpy as np

from jaxsess._tf1.keras.datasets.mnist import _cache_dir, _missing

__all__ = ["load_data"]

_FILES = ("train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz",
          "t10k-images-idx3-ubyte.gz")


def load_data() -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``(x_train, y_train), (x_test, y_test)`` from Keras' cached ``fashion-mnist``
    files (the four IDX ``.gz`` files in ``$KERAS_HOME/datasets/fashion-mnist``), as
    ``tf.keras.datasets.fashion_mnist.load_data``: uint8 images ``(n, 28, 28)``, uint8 labels.

    Raises:
      FileNotFoundError: a file is missing (nothing is downloaded).
    """
    folder = _cache_dir() / "fashion-mnist"
    paths = [folder / name for name in _FILES]
    for p in paths:
        if not p.exists():
            raise _missing(p, "fashion_mnist")
    with gzip.open(paths[0], "rb") as f:
        y_train = np.frombuffer(f.read(), np.uint8, offset=8)
    with gzip.open(paths[1], "rb") as f:
        x_train = np.frombuffer(f.read(), np.uint8, offset=16).reshape(len(y_train), 28, 28)
    with gzip.open(paths[2], "rb") as f:
        y_test = np.frombuffer(f.read(), np.uint8, offset=8)
    with gzip.open(paths[3], "rb") as f:
        x_test = np.frombuffer(f.read(), np.uint8, offset=16).reshape(len(y_test), 28, 28)
    return (x_train, y_train), (x_test, y_test)
