"""``jaxsess._tf1.keras.datasets.boston_housing``, as ``tf.keras.datasets.boston_housing`` without the download."""

from __future__ import annotations

import numpy as np

from jaxsess._tf1.keras.datasets.mnist import _cache_dir, _missing

__all__ = ["load_data"]


def load_data(path: str = "boston_housing.npz", test_split: float = 0.2, seed: int = 113
              ) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``(x_train, y_train), (x_test, y_test)`` from Keras' cached ``boston_housing.npz``,
    shuffled with ``np.random.RandomState(seed)`` and split at ``1 - test_split``, as
    ``tf.keras.datasets.boston_housing.load_data``: float64 features ``(n, 13)``, float64 prices.

    Raises:
      ValueError: ``test_split`` outside ``[0, 1)``.
      FileNotFoundError: the file is missing (nothing is downloaded).
    """
    if not 0 <= test_split < 1:
        raise ValueError(f"test_split must be in [0, 1), got {test_split}.")
    file = _cache_dir() / path
    if not file.exists():
        raise _missing(file, "boston_housing")
    with np.load(file, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    cut = int(len(x) * (1 - test_split))
    return (np.array(x[:cut]), np.array(y[:cut])), (np.array(x[cut:]), np.array(y[cut:]))
