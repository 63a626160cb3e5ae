"""The CIFAR batch reader shared by ``cifar10`` and ``cifar100`` (Keras' ``load_batch``)."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np

from jaxsess._tf1.keras.datasets.mnist import _missing


def load_batch(fpath: Path, label_key: str = "labels") -> tuple[np.ndarray, Any]:
    """``(data [n, 3, 32, 32] uint8, labels)`` of one pickled CIFAR batch, as Keras' ``cifar.load_batch``.

    The batches are Python pickles (the format of the CIFAR archives Keras
    extracts into its cache); only open files you trust.
    """
    if not fpath.exists():
        raise _missing(fpath, "cifar")
    with open(fpath, "rb") as f:
        d = pickle.load(f, encoding="bytes")  # noqa: S301 - the CIFAR format
    d = {k.decode("utf8") if isinstance(k, bytes) else k: v for k, v in d.items()}
    data = d["data"]
    return data.reshape(data.shape[0], 3, 32, 32), d[label_key]


def channels_last(x: np.ndarray) -> np.ndarray:
    return x.transpose(0, 2, 3, 1)
