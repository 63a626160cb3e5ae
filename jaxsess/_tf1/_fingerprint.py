"""TF's string hashing: ``Fingerprint64`` (farmhash), ``Hash64``, keyed SipHash-2-4 and
hash buckets.

``fingerprint64`` is farmhash's ``Fingerprint64`` (through ``pyfarmhash``),
which TF's ``StringToHashBucketFast`` (``tf.strings.to_hash_bucket_fast``),
``StaticVocabularyTable``'s out-of-vocabulary buckets and
``categorical_column_with_hash_bucket`` use: the same ids as TF. ``hash64`` is
TF's ``Hash64`` (MurmurHash64A, seed ``0xDECAFCAFFE``) of the legacy
``StringToHashBucket``; ``siphash24`` is SipHash-2-4 with a 128-bit key, as TF's
``StringToHashBucketStrong`` (both small exact implementations, checked against TF 2.21).
"""

from __future__ import annotations

from typing import Any

import farmhash
import numpy as np

__all__ = ["fingerprint64", "hash64", "siphash24", "to_hash_bucket_fast", "to_hash_buckets"]

_MASK = (1 << 64) - 1


def fingerprint64(data: bytes | str) -> int:
    """farmhash ``Fingerprint64`` of ``data`` (a ``str`` as its UTF-8 bytes), an
    unsigned 64-bit int (TF's ``Fingerprint64``)."""
    return int(farmhash.fingerprint64(data.encode("utf-8") if isinstance(data, str) else bytes(data)))


def to_hash_bucket_fast(values: Any, num_buckets: int) -> np.ndarray:
    """``Fingerprint64(v) % num_buckets`` of each ``bytes`` in ``values`` (any shape), as an
    ``int64`` array of the same shape, as TF's ``StringToHashBucketFast``.

    Raises:
      ValueError: ``num_buckets < 1``.
    """
    if num_buckets < 1:
        raise ValueError(f"num_buckets must be >= 1, got {num_buckets}.")
    arr = np.asarray(values, dtype=object)
    out = np.empty(arr.shape, np.int64)
    for idx, v in np.ndenumerate(arr):
        out[idx] = fingerprint64(v if isinstance(v, bytes) else str(v).encode("utf-8")) % num_buckets
    return out


def hash64(data: bytes, seed: int = 0xDECAFCAFFE) -> int:
    """TF's ``Hash64`` (``tensorflow/core/lib/hash/hash.cc``, MurmurHash64A) of ``data``:
    an unsigned 64-bit int."""
    m, r = 0xC6A4A7935BD1E995, 47
    n = len(data)
    h = (seed ^ (n * m)) & _MASK
    body = n - n % 8
    for i in range(0, body, 8):
        k = (int.from_bytes(data[i:i + 8], "little") * m) & _MASK
        k = ((k ^ (k >> r)) * m) & _MASK
        h = ((h ^ k) * m) & _MASK
    if n % 8:
        h = ((h ^ int.from_bytes(data[body:], "little")) * m) & _MASK
    h = ((h ^ (h >> r)) * m) & _MASK
    return h ^ (h >> r)


def _rotl(x: int, b: int) -> int:
    return ((x << b) | (x >> (64 - b))) & _MASK


def siphash24(key: tuple[int, int], data: bytes) -> int:
    """SipHash-2-4 of ``data`` under the 128-bit ``key`` (two unsigned 64-bit halves, as
    TF's ``StringToHashBucketStrong`` passes them): an unsigned 64-bit int."""
    k0, k1 = key[0] & _MASK, key[1] & _MASK
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D, k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]

    def rounds(n: int) -> None:
        for _ in range(n):
            v[0] = (v[0] + v[1]) & _MASK
            v[1] = _rotl(v[1], 13) ^ v[0]
            v[0] = _rotl(v[0], 32)
            v[2] = (v[2] + v[3]) & _MASK
            v[3] = _rotl(v[3], 16) ^ v[2]
            v[0] = (v[0] + v[3]) & _MASK
            v[3] = _rotl(v[3], 21) ^ v[0]
            v[2] = (v[2] + v[1]) & _MASK
            v[1] = _rotl(v[1], 17) ^ v[2]
            v[2] = _rotl(v[2], 32)

    n = len(data)
    tail = n - n % 8
    blocks = [int.from_bytes(data[i:i + 8], "little") for i in range(0, tail, 8)]
    blocks.append(int.from_bytes(data[tail:], "little") | ((n & 0xFF) << 56))
    for mi in blocks:
        v[3] ^= mi
        rounds(2)
        v[0] ^= mi
    v[2] ^= 0xFF
    rounds(4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def to_hash_buckets(values: Any, num_buckets: int, hash_fn: Any) -> np.ndarray:
    """``hash_fn(v) % num_buckets`` of each ``bytes`` in ``values`` (any shape), an ``int64``
    array of the same shape."""
    arr = np.asarray(values, dtype=object)
    out = np.empty(arr.shape, np.int64)
    for idx, v in np.ndenumerate(arr):
        out[idx] = hash_fn(v if isinstance(v, bytes) else str(v).encode("utf-8")) % num_buckets
    return out
