"""``jaxsess._tf1.keras.preprocessing.sequence``, as ``tf.keras.preprocessing.sequence`` (NumPy only)."""

from __future__ import annotations

import random as _random
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxsess._tf1.keras._sequence import Sequence as KerasSequence

__all__ = ["pad_sequences", "make_sampling_table", "skipgrams", "TimeseriesGenerator"]


def pad_sequences(sequences: Sequence[Any], maxlen: int | None = None, dtype: Any = "int32", padding: str = "pre",
                  truncating: str = "pre", value: Any = 0.0) -> np.ndarray:
    """Pads (or truncates) sequences to one length, as ``tf.keras.preprocessing.sequence.pad_sequences``.

    Args:
      sequences: a list of ``n`` sequences (lists or arrays of scalars, or of
        entries of one shape ``s``).
      maxlen: the output length (default: the longest sequence's).
      dtype: the output dtype (``'int32'``).
      padding, truncating: ``'pre'`` (default) or ``'post'``: where values
        are added / removed.
      value: the padding value.

    Returns:
      A NumPy array ``[n, maxlen, *s]`` of ``dtype``.

    Raises:
      ValueError: ``sequences`` is not a list of sequences; an unknown
        ``padding``/``truncating``; entries of differing shapes; a string
        ``value`` with a non-string ``dtype``.
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths: list[int] = []
    sample_shape: tuple[int, ...] = ()
    found = False
    for x in sequences:
        try:
            lengths.append(len(x))
        except TypeError as e:
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {x}") from e
        if not found and len(x):
            sample_shape = np.asarray(x).shape[1:]
            found = True
    if maxlen is None:
        maxlen = int(np.max(lengths)) if lengths else 0
    is_str = np.issubdtype(dtype, np.str_)
    if isinstance(value, str) and dtype is not object and not is_str:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\n"
                         "You should set `dtype=object` for variable length strings.")
    out = np.full((len(sequences), maxlen, *sample_shape), value, dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s):
            continue
        if truncating == "pre":
            trunc = s[-maxlen:] if maxlen else s[:0]
        elif truncating == "post":
            trunc = s[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        trunc = np.asarray(trunc, dtype=dtype)
        if trunc.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {trunc.shape[1:]} of sequence at position {i} is different from "
                             f"expected shape {sample_shape}")
        if padding == "post":
            out[i, :len(trunc)] = trunc
        elif padding == "pre":
            out[i, maxlen - len(trunc):] = trunc
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out


def make_sampling_table(size: int, sampling_factor: float = 1e-5) -> np.ndarray:
    """``float64[size]``: the probability of keeping the word of each frequency rank in
    :func:`skipgrams` (Zipf's law, word2vec's subsampling), as Keras'
    ``make_sampling_table``."""
    gamma = 0.577
    rank = np.arange(size)
    rank[0] = 1
    inv_fq = rank * (np.log(rank) + gamma) + 0.5 - 1.0 / (12.0 * rank)
    f = sampling_factor * inv_fq
    return np.minimum(1.0, f / np.sqrt(f))


def skipgrams(sequence: Sequence[int], vocabulary_size: int, window_size: int = 4, negative_samples: float = 1.0,
              shuffle: bool = True, categorical: bool = False, sampling_table: Any = None,
              seed: int | None = None) -> tuple[list[list[int]], list[Any]]:
    """word2vec's training pairs of a sequence of word indices, as Keras'
    ``skipgrams``: ``(couples, labels)``, each couple ``[word, context]``
    labelled 1 within ``window_size`` and 0 for ``negative_samples`` times as
    many random ones (``[0, 1]``/``[1, 0]`` when ``categorical``). Index 0
    is skipped. The draws are Keras' calls of Python's ``random`` module, so
    ``random.seed`` gives Keras' pairs.
    """
    couples: list[list[int]] = []
    labels: list[Any] = []
    for i, wi in enumerate(sequence):
        if not wi:
            continue
        if sampling_table is not None and sampling_table[wi] < _random.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                couples.append([wi, sequence[j]])
                labels.append([0, 1] if categorical else 1)
    if negative_samples > 0:
        n = int(len(labels) * negative_samples)
        words = [c[0] for c in couples]
        _random.shuffle(words)
        couples += [[words[i % len(words)], _random.randint(1, int(vocabulary_size - 1))] for i in range(n)]
        labels += [[1, 0]] * n if categorical else [0] * n
    if shuffle:
        if seed is None:
            seed = _random.randint(0, int(10e6))
        _random.seed(seed)
        _random.shuffle(couples)
        _random.seed(seed)
        _random.shuffle(labels)
    return couples, labels


class TimeseriesGenerator(KerasSequence):
    """Batches of windows of a time series, as Keras' ``TimeseriesGenerator``:
    batch ``i`` holds, for each target row ``r``, ``data[r - length:r:sampling_rate]``
    and ``targets[r]`` (rows ``start_index + length`` to ``end_index``, ``stride``
    apart; ``shuffle``: rows drawn with ``np.random.randint`` per batch, as Keras).

    Raises:
      ValueError: ``data`` and ``targets`` of different lengths, or no row left.
    """

    def __init__(self, data: Any, targets: Any, length: int, sampling_rate: int = 1, stride: int = 1,
                 start_index: int = 0, end_index: int | None = None, shuffle: bool = False, reverse: bool = False,
                 batch_size: int = 128) -> None:
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is {len(data)} while "
                             f"target length is {len(targets)}")
        self.data, self.targets, self.length = data, targets, length
        self.sampling_rate, self.stride = sampling_rate, stride
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle, self.reverse, self.batch_size = shuffle, reverse, batch_size
        if self.start_index > self.end_index:
            raise ValueError(f"`start_index+length={self.start_index} > end_index={self.end_index}` is disallowed, "
                             "as no part of the sequence would be left to be used as current step.")

    def __len__(self) -> int:
        return (self.end_index - self.start_index + self.batch_size * self.stride) // (self.batch_size * self.stride)

    def __getitem__(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        if self.shuffle:
            rows = np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        else:
            i = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(i, min(i + self.batch_size * self.stride, self.end_index + 1), self.stride)
        samples = np.array([self.data[row - self.length:row:self.sampling_rate] for row in rows])
        targets = np.array([self.targets[row] for row in rows])
        return (samples[:, ::-1, ...], targets) if self.reverse else (samples, targets)
