"""``jaxsess._tf1.keras.datasets.mnist``, as ``tf.keras.datasets.mnist`` without the download."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

__all__ = ["load_data"]


def _cache_dir() -> Path:
    """Keras' cache: ``$KERAS_HOME/datasets``, else ``~/.keras/datasets``."""
    home = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
    return Path(home) / "datasets"


def _missing(file: Path, name: str) -> FileNotFoundError:
    return FileNotFoundError(
        f"{file} not found: jaxsess.keras.datasets.{name} reads the file Keras keeps in its cache "
        "($KERAS_HOME/datasets, default ~/.keras/datasets) and does not download it. Copy it there from a machine "
        "where tf.keras.datasets loaded it, or use jaxsess._tf1.datasets.load_digits() (8x8 digits shipped with the package)."
    )


def load_data(path: str = "mnist.npz") -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``(x_train, y_train), (x_test, y_test)`` from Keras' cached ``mnist.npz``, as
    ``tf.keras.datasets.mnist.load_data``: uint8 images ``(60000, 28, 28)``/``(10000, 28, 28)``,
    uint8 labels. ``path`` is relative to the cache directory (``$KERAS_HOME/datasets``,
    default ``~/.keras/datasets``), where Keras itself keeps the file it downloads.

    Raises:
      FileNotFoundError: the file is not there (jaxsess does not download it;
        copy Keras' ``mnist.npz`` there, or use ``jaxsess._tf1.datasets.load_digits``,
        which ships with the package).
    """
    file = _cache_dir() / path
    if not file.exists():
        raise FileNotFoundError(
            f"{file} not found: jaxsess._tf1.keras.datasets.mnist reads Keras' cached mnist.npz and does not download it. "
            "Copy the file there (from a machine where tf.keras.datasets.mnist.load_data() ran), or use "
            "jaxsess._tf1.datasets.load_digits() (8x8 digits shipped with the package)."
        )
    with np.load(file, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
