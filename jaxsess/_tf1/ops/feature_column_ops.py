"""The ops behind categorical feature columns: vocabulary lookup, string hashing and
feature crossing (host ops: strings live on the host) and ``Bucketize`` (device).

Ids are computed on the host with TF's hashes: ``Fingerprint64`` of a string is
Google's farmhash ``Fingerprint64`` (the ``pyfarmhash`` package), as TF's
``StringToHashBucketFast``; crossing chains ``FingerprintCat64`` from the hash
key ``0xDECAFCAFFE`` as TF's ``SparseCrossHashed`` (``sparse_cross_op.cc``).
A missing value (``''`` for strings, ``-1`` for integers) gives the id ``-1``,
which the feature columns ignore, as TF1 drops those values from its sparse ids.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1._fingerprint import fingerprint64

__all__ = ["categorical_ids", "cross_hashed_ids", "bucketize"]

_MASK = (1 << 64) - 1
_KMUL = 0xC6A4A7935BD1E995
DEFAULT_HASH_KEY = 0xDECAFCAFFE
_INT64_MAX = (1 << 63) - 1


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def fingerprint_cat64(fp1: int, fp2: int) -> int:
    """TF's ``FingerprintCat64`` of two unsigned 64-bit fingerprints."""
    result = fp1 ^ _KMUL
    result ^= (_shift_mix((fp2 * _KMUL) & _MASK) * _KMUL) & _MASK
    result = (result * _KMUL) & _MASK
    result = (_shift_mix(result) * _KMUL) & _MASK
    return _shift_mix(result)


def _is_missing(v: Any) -> bool:
    return v == b"" if isinstance(v, bytes) else int(v) == -1


def _as_bytes(v: Any) -> bytes:
    if isinstance(v, bytes):
        return v
    return v.encode("utf-8") if isinstance(v, str) else str(int(v)).encode()


def _rank2(shape: Any) -> TensorShape:
    s = TensorShape(shape)
    return TensorShape([*s.as_list(), 1]) if s.ndims == 1 else s


def _ids_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(_rank2(specs[0][0]), _dtypes.int64)]


def _host_rank2(v: Any) -> np.ndarray:
    x = np.asarray(v)
    return x[:, None] if x.ndim == 1 else x


@register_op("FeatureColumnIds", default_name="ids", infer=_ids_infer, lowering=device_lowering)
def _ids_device(x: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("FeatureColumnIds runs on the host")


@register_host("FeatureColumnIds", always=True, infer=_ids_infer)
def _host_ids(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    x = _host_rank2(inputs[0])
    kind = op.attrs["kind"]
    table = {_as_bytes(k): i for i, k in enumerate(op.attrs["vocabulary"])}
    out = np.empty(x.shape, dtype=np.int64)
    for idx, v in np.ndenumerate(x):
        if _is_missing(v):
            out[idx] = -1
        elif kind == "hash":
            out[idx] = fingerprint64(_as_bytes(v)) % op.attrs["num_buckets"]
        else:
            key = _as_bytes(v)
            if key in table:
                out[idx] = table[key]
            elif op.attrs["num_oov_buckets"]:
                out[idx] = len(table) + fingerprint64(key) % op.attrs["num_oov_buckets"]
            else:
                out[idx] = op.attrs["default_value"]
    return (out,)


def categorical_ids(x: Any, kind: str, *, vocabulary: Sequence[Any] = (), default_value: int = -1,
                    num_oov_buckets: int = 0, num_buckets: int = 0, name: str | None = None) -> Any:
    """int64 ids of the string or integer values ``x`` (same shape; ``[batch]`` gives ``[batch, 1]``), on the host.

    ``kind='vocabulary'``: the value's index in ``vocabulary``; values not in it
    get ``len(vocabulary) + Fingerprint64(value) % num_oov_buckets`` or
    ``default_value`` (as TF's ``index_table_from_tensor``). ``kind='hash'``:
    ``Fingerprint64(value) % num_buckets`` (integers hashed as their decimal
    string), as ``tf.strings.to_hash_bucket_fast``. Missing values (``''``, ``-1``) give ``-1``.
    """
    t = convert_to_tensor(x)
    # str or int attributes (bytes have no GraphDef attribute encoding)
    vocab = tuple(v.decode("utf-8") if isinstance(v, bytes) else v for v in vocabulary)
    attrs = {"kind": kind, "vocabulary": vocab, "default_value": int(default_value),
             "num_oov_buckets": int(num_oov_buckets), "num_buckets": int(num_buckets)}
    return apply_op("FeatureColumnIds", (t,), attrs, name=name)


def _cross_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    dims = [_rank2(s).as_list() for s, _ in specs]
    batch = dims[0][0] if dims[0] is not None else None
    width: int | None = 1
    for ds in dims:
        d = ds[1] if ds is not None and len(ds) == 2 else None
        width = None if width is None or d is None else width * d
    return [(TensorShape([batch, width]), _dtypes.int64)]


@register_op("FeatureColumnCross", default_name="cross", infer=_cross_infer, lowering=device_lowering)
def _cross_device(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("FeatureColumnCross runs on the host")


@register_host("FeatureColumnCross", always=True, infer=_cross_infer)
def _host_cross(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    cols = [_host_rank2(v) for v in inputs]
    num_buckets, hash_key = op.attrs["num_buckets"], op.attrs["hash_key"]
    width = int(np.prod([c.shape[1] for c in cols]))
    out = np.empty((cols[0].shape[0], width), dtype=np.int64)
    num_ids = op.attrs["num_ids"]
    for row in range(out.shape[0]):
        for j, combo in enumerate(itertools.product(*[c[row] for c in cols])):
            if any(int(v) < 0 for v in combo[:num_ids]):
                out[row, j] = -1
                continue
            h = hash_key
            for v in combo:
                h = fingerprint_cat64(h, fingerprint64(v) if isinstance(v, bytes) else int(v) & _MASK)
            out[row, j] = h % num_buckets if num_buckets > 0 else h % _INT64_MAX
    return (out,)


def cross_hashed_ids(inputs: Sequence[Any], num_buckets: int, hash_key: int | None = None, num_ids: int = 0,
                     name: str | None = None) -> Any:
    """int64 ``[batch, prod(widths)]`` hashed crosses of the rows of ``inputs``
    (each ``[batch, width]``: strings or int64), as ``tf.sparse.cross_hashed``
    (``num_buckets`` 0: modulo ``2**63 - 1``). The first ``num_ids`` inputs are
    ids where ``-1`` is missing: a combination with a missing id gives ``-1``;
    the other values are crossed as they are."""
    ts = [convert_to_tensor(x) for x in inputs]
    attrs = {"num_buckets": int(num_buckets), "num_ids": int(num_ids),
             "hash_key": DEFAULT_HASH_KEY if hash_key is None else int(hash_key)}
    return apply_op("FeatureColumnCross", ts, attrs, name=name)


@register_op("Bucketize", default_name="Bucketize")
def _bucketize(x: Any, *, boundaries: tuple[float, ...]) -> Any:
    dt = x.dtype if jnp.issubdtype(x.dtype, jnp.floating) else jnp.float32
    b = jnp.asarray(np.asarray(boundaries, dtype=np.float32), dtype=dt)
    return jnp.searchsorted(b, x.astype(dt), side="right").astype(jnp.int32)


def bucketize(input: Any, boundaries: Sequence[float], name: str | None = None) -> Any:  # noqa: A002
    """int32 index of the bucket of each value (``boundaries[i-1] <= x < boundaries[i]``),
    as TF's ``Bucketize`` op."""
    return apply_op("Bucketize", (convert_to_tensor(input),), {"boundaries": tuple(float(b) for b in boundaries)},
                    name=name)
