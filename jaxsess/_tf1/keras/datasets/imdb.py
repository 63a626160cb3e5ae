"""``jaxsess._tf1.keras.datasets.imdb``, as ``tf.keras.datasets.imdb`` without the download."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from jaxsess._tf1.keras.datasets.mnist import _cache_dir

__all__ = ["load_data", "get_word_index"]


def _cached(path: str) -> Any:
    file = _cache_dir() / path
    if not file.exists():
        raise FileNotFoundError(
            f"{file} not found: jaxsess._tf1.keras.datasets.imdb reads Keras' cached {path} and does not download it. "
            "Copy the file there from a machine where tf.keras.datasets.imdb.load_data() ran."
        )
    return file


def _remove_long_seq(maxlen: int, seq: list[Any], label: Any) -> tuple[list[Any], list[Any]]:
    kept = [(x, y) for x, y in zip(seq, label) if len(x) < maxlen]
    return [x for x, _ in kept], [y for _, y in kept]


def load_data(path: str = "imdb.npz", num_words: int | None = None, skip_top: int = 0, maxlen: int | None = None,
              seed: int = 113, start_char: int | None = 1, oov_char: int | None = 2, index_from: int = 3,
              **kwargs: Any) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """The IMDB reviews as word-id lists, from Keras' cached ``imdb.npz``, as
    ``tf.keras.datasets.imdb.load_data`` (same shuffling with ``seed``, same id shifts).

    Args:
      path: the file name in the cache directory (``$KERAS_HOME/datasets``, default ``~/.keras/datasets``).
      num_words: keep ids below ``num_words`` (others become ``oov_char``, or are dropped when it is None).
      skip_top: ids below it become ``oov_char`` too.
      maxlen: drop reviews of ``maxlen`` ids or more.
      seed, start_char, oov_char, index_from: as Keras'.

    Returns:
      ``(x_train, y_train), (x_test, y_test)``: object arrays of id lists and int labels (0/1).

    Raises:
      FileNotFoundError: the file is not in the cache (nothing is downloaded).
      ValueError: ``maxlen`` leaves no review.
    """
    if "nb_words" in kwargs:
        num_words = kwargs.pop("nb_words")
    if kwargs:
        raise TypeError(f"Unrecognized keyword arguments: {kwargs}.")
    with np.load(_cached(path), allow_pickle=True) as f:
        x_train, labels_train = f["x_train"], f["y_train"]
        x_test, labels_test = f["x_test"], f["y_test"]
    rng = np.random.RandomState(seed)
    idx = np.arange(len(x_train))
    rng.shuffle(idx)
    x_train, labels_train = x_train[idx], labels_train[idx]
    idx = np.arange(len(x_test))
    rng.shuffle(idx)
    x_test, labels_test = x_test[idx], labels_test[idx]
    head = [] if start_char is None else [start_char]
    tr = [head + [w + index_from for w in x] for x in x_train]
    te = [head + [w + index_from for w in x] for x in x_test]
    if maxlen:
        tr, labels_train = _remove_long_seq(maxlen, tr, labels_train)
        te, labels_test = _remove_long_seq(maxlen, te, labels_test)
        if not tr or not te:
            raise ValueError(f"After filtering for sequences shorter than maxlen={maxlen}, no sequence was kept. "
                             "Increase maxlen.")
    xs = tr + te
    labels = np.concatenate([labels_train, labels_test])
    if not num_words:
        num_words = max(max(x) for x in xs)
    if oov_char is not None:
        xs = [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
    else:
        xs = [[w for w in x if skip_top <= w < num_words] for x in xs]
    n = len(tr)
    return (np.array(xs[:n], dtype="object"), labels[:n]), (np.array(xs[n:], dtype="object"), labels[n:])


def get_word_index(path: str = "imdb_word_index.json") -> dict[str, int]:
    """The word -> id dict of Keras' cached ``imdb_word_index.json`` (ids before ``index_from``).

    Raises:
      FileNotFoundError: the file is not in the cache.
    """
    with open(_cached(path), encoding="utf-8") as f:
        return dict(json.load(f))
