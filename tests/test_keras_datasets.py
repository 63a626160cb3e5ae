"""keras.datasets loaders read the files Keras keeps in its cache ($KERAS_HOME/datasets), in
Keras' formats (tf_keras/src/datasets/*.py: IDX gzip files, pickled CIFAR batches, npz)."""

from __future__ import annotations

import gzip
import pickle
from pathlib import Path

import numpy as np
import pytest

import jaxsess as tf


@pytest.fixture
def keras_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    (tmp_path / "datasets").mkdir()
    return tmp_path / "datasets"


def _idx(path: Path, header: int, data: np.ndarray) -> None:
    with gzip.open(path, "wb") as f:
        f.write(b"\0" * header + data.astype(np.uint8).tobytes())


def test_fashion_mnist_reads_the_idx_files(keras_home: Path) -> None:
    folder = keras_home / "fashion-mnist"
    folder.mkdir()
    rng = np.random.default_rng(0)
    xtr, ytr = rng.integers(0, 256, (5, 28, 28)), rng.integers(0, 10, 5)
    xte, yte = rng.integers(0, 256, (3, 28, 28)), rng.integers(0, 10, 3)
    _idx(folder / "train-labels-idx1-ubyte.gz", 8, ytr)
    _idx(folder / "train-images-idx3-ubyte.gz", 16, xtr)
    _idx(folder / "t10k-labels-idx1-ubyte.gz", 8, yte)
    _idx(folder / "t10k-images-idx3-ubyte.gz", 16, xte)
    (a, b), (c, d) = tf.keras.datasets.fashion_mnist.load_data()
    assert a.dtype == np.uint8 and a.shape == (5, 28, 28) and c.shape == (3, 28, 28)
    np.testing.assert_array_equal(a, xtr)
    np.testing.assert_array_equal(b, ytr)
    np.testing.assert_array_equal(c, xte)
    np.testing.assert_array_equal(d, yte)


def _cifar_batch(path: Path, n: int, label_key: str, rng: np.random.Generator) -> tuple[np.ndarray, list[int]]:
    data = rng.integers(0, 256, (n, 3 * 32 * 32)).astype(np.uint8)
    labels = [int(v) for v in rng.integers(0, 10, n)]
    with open(path, "wb") as f:
        pickle.dump({b"data": data, label_key.encode(): labels}, f)
    return data, labels


def test_cifar10_concatenates_batches_channels_last(keras_home: Path) -> None:
    folder = keras_home / "cifar-10-batches-py"
    folder.mkdir()
    rng = np.random.default_rng(1)
    parts = [_cifar_batch(folder / f"data_batch_{i}", 2, "labels", rng) for i in range(1, 6)]
    test_data, test_labels = _cifar_batch(folder / "test_batch", 3, "labels", rng)
    (xtr, ytr), (xte, yte) = tf.keras.datasets.cifar10.load_data()
    assert xtr.shape == (10, 32, 32, 3) and xtr.dtype == np.uint8
    assert ytr.shape == (10, 1) and ytr.dtype == np.uint8 and yte.shape == (3, 1) and yte.dtype == np.uint8
    expected = np.concatenate([p[0] for p in parts]).reshape(10, 3, 32, 32).transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(xtr, expected)
    np.testing.assert_array_equal(ytr[:, 0], sum((p[1] for p in parts), []))
    np.testing.assert_array_equal(xte, test_data.reshape(3, 3, 32, 32).transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(yte[:, 0], test_labels)


def test_cifar100_label_modes(keras_home: Path) -> None:
    folder = keras_home / "cifar-100-python"
    folder.mkdir()
    rng = np.random.default_rng(2)
    for name in ("train", "test"):
        data = rng.integers(0, 256, (2, 3072)).astype(np.uint8)
        with open(folder / name, "wb") as f:
            pickle.dump({b"data": data, b"fine_labels": [5, 7], b"coarse_labels": [1, 2]}, f)
    (_, fine), _ = tf.keras.datasets.cifar100.load_data()
    (x, coarse), _ = tf.keras.datasets.cifar100.load_data(label_mode="coarse")
    assert x.shape == (2, 32, 32, 3)
    np.testing.assert_array_equal(fine[:, 0], [5, 7])
    np.testing.assert_array_equal(coarse[:, 0], [1, 2])
    with pytest.raises(ValueError, match="label_mode"):
        tf.keras.datasets.cifar100.load_data(label_mode="medium")


def test_boston_housing_shuffles_with_keras_seed(keras_home: Path) -> None:
    x = np.arange(20 * 13, dtype=np.float64).reshape(20, 13)
    y = np.arange(20, dtype=np.float64)
    np.savez(keras_home / "boston_housing.npz", x=x, y=y)
    (xtr, ytr), (xte, yte) = tf.keras.datasets.boston_housing.load_data()
    order = np.arange(20)
    np.random.RandomState(113).shuffle(order)
    np.testing.assert_array_equal(ytr, y[order[:16]])
    np.testing.assert_array_equal(yte, y[order[16:]])
    np.testing.assert_array_equal(xtr, x[order[:16]])
    assert xte.shape == (4, 13)


def test_missing_files_say_where_and_that_nothing_is_downloaded(keras_home: Path) -> None:
    for loader in (tf.keras.datasets.fashion_mnist.load_data, tf.keras.datasets.cifar10.load_data,
                   tf.keras.datasets.boston_housing.load_data):
        with pytest.raises(FileNotFoundError, match="does not download"):
            loader()
