"""Small data sets shipped with jaxsess, for examples, notebooks and tests.

Nothing here touches the network: every data set lives in ``jaxsess/data``
and is read with :mod:`importlib.resources`.
"""

from __future__ import annotations

from importlib import resources
from typing import NamedTuple

import numpy as np

__all__ = ["Digits", "load_digits"]

_DIGITS_FILE = "digits.npz"


class Digits(NamedTuple):
    """The handwritten-digits data set, split into train and test parts.

    Attributes:
      x_train: float32 array of shape ``(n_train, 64)``; each row is one 8x8
        image flattened row-major, pixel values scaled from 0..16 to [0, 1].
      y_train: int32 array of shape ``(n_train,)``; labels 0..9.
      x_test: float32 array of shape ``(n_test, 64)``, as ``x_train``.
      y_test: int32 array of shape ``(n_test,)``, as ``y_train``.
    """

    x_train: np.ndarray  # shape=(n_train, 64), dtype=float32, values in [0, 1]
    y_train: np.ndarray  # shape=(n_train,), dtype=int32, values in 0..9
    x_test: np.ndarray  # shape=(n_test, 64), dtype=float32, values in [0, 1]
    y_test: np.ndarray  # shape=(n_test,), dtype=int32, values in 0..9


def _read_digits() -> tuple[np.ndarray, np.ndarray]:
    """The raw arrays: images uint8 ``(1797, 8, 8)`` in 0..16, targets uint8 ``(1797,)``."""
    ref = resources.files("jaxsess").joinpath("data", _DIGITS_FILE)
    with ref.open("rb") as f, np.load(f, allow_pickle=False) as data:
        images = np.asarray(data["images"])
        targets = np.asarray(data["targets"])
    return images, targets


def load_digits(*, test_fraction: float = 0.2, seed: int = 0) -> Digits:
    """Loads the UCI handwritten digits (1,797 images of 8x8 pixels, 10 classes).

    The data are the "Optical Recognition of Handwritten Digits" set of the
    UCI Machine Learning Repository (E. Alpaydin & C. Kaynak, 1998; CC BY 4.0),
    as redistributed by scikit-learn's ``load_digits``; see
    ``jaxsess/data/DIGITS_LICENSE.txt``. They ship with the package, so this
    works offline.

    The split is a fixed function of ``seed``: the examples are shuffled by
    ``np.random.default_rng(seed).permutation(1797)``; the first
    ``round(1797 * test_fraction)`` shuffled examples form the test set and
    the rest the training set.

    Args:
      test_fraction: the fraction of the 1,797 examples held out for testing,
        in ``[0, 1)``. ``0.0`` gives an empty test set.
      seed: the seed of the shuffle (any value ``np.random.default_rng`` takes).

    Returns:
      A :class:`Digits` of numpy arrays: ``x_train`` float32
      ``(n_train, 64)`` and ``x_test`` float32 ``(n_test, 64)`` with pixels
      scaled to [0, 1] (raw value / 16), ``y_train`` int32 ``(n_train,)`` and
      ``y_test`` int32 ``(n_test,)`` with labels 0..9;
      ``n_train + n_test == 1797``. With the defaults, ``n_train == 1438``
      and ``n_test == 359``.

    Raises:
      ValueError: ``test_fraction`` is not in ``[0, 1)``.

    Examples:
      >>> from jaxsess._tf1.datasets import load_digits
      >>> data = load_digits()
      >>> data.x_train.shape, data.x_train.dtype, data.y_test.shape
      ((1438, 64), dtype('float32'), (359,))
    """
    test_fraction = float(test_fraction)
    if not 0.0 <= test_fraction < 1.0:
        raise ValueError(f"test_fraction must be in [0, 1), got {test_fraction!r}.")
    images, targets = _read_digits()
    n = images.shape[0]
    x = images.reshape(n, -1).astype(np.float32) / np.float32(16.0)
    y = targets.astype(np.int32)
    order = np.random.default_rng(seed).permutation(n)
    n_test = int(round(n * test_fraction))
    test, train = order[:n_test], order[n_test:]
    return Digits(x_train=x[train], y_train=y[train], x_test=x[test], y_test=y[test])
