"""Tests of the shipped data sets (jaxsess.datasets)."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest

from jaxsess._tf1.datasets import _read_digits
from jaxsess.datasets import Digits, load_digits

N = 1797
# Per-class counts of scikit-learn's load_digits() (the UCI test set).
CLASS_COUNTS = [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]


def test_shapes_dtypes_and_ranges() -> None:
    d = load_digits()
    assert isinstance(d, Digits)
    assert d.x_train.shape == (1438, 64) and d.x_test.shape == (359, 64)
    assert d.y_train.shape == (1438,) and d.y_test.shape == (359,)
    assert d.x_train.dtype == np.float32 and d.x_test.dtype == np.float32
    assert d.y_train.dtype == np.int32 and d.y_test.dtype == np.int32
    for x in (d.x_train, d.x_test):
        assert x.min() == 0.0 and x.max() == 1.0
        # Pixels are k/16 for integer k.
        np.testing.assert_array_equal(x * 16, np.round(x * 16))
    assert set(np.unique(d.y_train)) == set(range(10))
    assert set(np.unique(d.y_test)) <= set(range(10))


def test_the_data_are_uci_digits() -> None:
    d = load_digits(test_fraction=0.0)
    assert d.x_test.shape == (0, 64) and d.y_test.shape == (0,)
    assert d.x_train.shape == (N, 64)
    np.testing.assert_array_equal(np.bincount(d.y_train, minlength=10), CLASS_COUNTS)
    # The sum of all raw pixel values of the 1,797 images.
    assert int(np.round(d.x_train.astype(np.float64).sum() * 16)) == 561718


def test_raw_file_contents() -> None:
    ref = resources.files("jaxsess").joinpath("data", "digits.npz")
    with ref.open("rb") as f, np.load(f, allow_pickle=False) as data:
        assert sorted(data.files) == ["images", "targets"]
        images, targets = data["images"], data["targets"]
    assert images.shape == (N, 8, 8) and images.dtype == np.uint8
    assert targets.shape == (N,) and targets.dtype == np.uint8
    assert images.max() == 16
    # The first image is a zero, as in scikit-learn's copy.
    assert targets[0] == 0
    assert images[0, 0].tolist() == [0, 0, 5, 13, 9, 1, 0, 0]
    np.testing.assert_array_equal(targets[:10], np.arange(10))


def test_license_file_is_shipped() -> None:
    text = resources.files("jaxsess").joinpath("data", "DIGITS_LICENSE.txt").read_text()
    assert "Alpaydin" in text and "Kaynak" in text and "CC BY 4.0" in text


def test_split_is_reproducible_and_depends_on_seed() -> None:
    a, b = load_digits(seed=0), load_digits(seed=0)
    for u, v in zip(a, b, strict=True):
        np.testing.assert_array_equal(u, v)
    c = load_digits(seed=1)
    assert not np.array_equal(a.y_test, c.y_test)


def test_split_is_a_partition() -> None:
    d = load_digits(test_fraction=0.25, seed=3)
    assert len(d.y_test) == round(N * 0.25)
    assert len(d.y_train) + len(d.y_test) == N
    full = load_digits(test_fraction=0.0, seed=3).x_train
    rows = {r.tobytes() for r in np.concatenate([d.x_train, d.x_test])}
    assert rows == {r.tobytes() for r in full}
    # Matches the documented rule: the first round(N*f) shuffled examples are the test set.
    order = np.random.default_rng(3).permutation(N)
    raw = _read_digits()[0].reshape(N, 64).astype(np.float32) / 16
    np.testing.assert_array_equal(d.x_test, raw[order[: len(d.y_test)]])


@pytest.mark.parametrize("bad", [-0.1, 1.0, 2.0])
def test_bad_test_fraction(bad: float) -> None:
    with pytest.raises(ValueError, match="test_fraction"):
        load_digits(test_fraction=bad)


def test_arguments_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        load_digits(0.2)  # type: ignore[misc]
