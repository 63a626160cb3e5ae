"""Parsing of serialized ``tf.train.SequenceExample`` protos, as TF1's
``parse_single_sequence_example`` and ``tf.io.parse_sequence_example``: context features
(``FixedLenFeature``/``VarLenFeature``, as :func:`~jaxsess._tf1.ops.parsing_ops.parse_example`)
and feature lists (``FixedLenSequenceFeature``: a dense ``[time] + shape`` tensor;
``VarLenFeature``: a ``SparseTensor`` indexed by ``(time, value)``).

A host op (strings are host values), run only through ``Session.run``; values,
shapes and messages follow TF's ``ParseSequenceExampleV2`` kernel, checked against
``tensorflow-cpu`` 2.21 in graph mode. The op is jaxsess's own (no GraphDef export).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core import _tfproto as _tfproto, dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, constant, convert_to_tensor
from jaxsess._core.graph._graph import Operation, name_scope
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops.parsing_ops import (
    _KINDS,
    _TF_TYPE,
    FixedLenFeature,
    FixedLenSequenceFeature,
    VarLenFeature,
    _feature_default,
    _feature_values,
    _np_dtype,
    _values_array,
)
from jaxsess._tf1.ops.sparse_host_ops import sparse_outputs, sparse_result

__all__ = ["parse_single_sequence_example", "parse_sequence_example"]


def _infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    batch = [None] if attrs["batched"] else []
    cs = [sparse_outputs(len(batch) + 1, d) for d in attrs["ctx_sparse_types"]]
    ss = [sparse_outputs(len(batch) + 2, d) for d in attrs["seq_sparse_types"]]
    cd = [(TensorShape(batch + list(s)), d) for d, s in zip(attrs["ctx_dense_types"], attrs["ctx_dense_shapes"])]
    sd = [(TensorShape([*batch, None, *s]), d) for d, s in zip(attrs["seq_dense_types"], attrs["seq_dense_shapes"])]
    lengths = [(TensorShape([None]), _dtypes.int64)] * (len(sd) if attrs["batched"] else 0)
    return ([o[0] for o in cs] + [o[1] for o in cs] + [o[2] for o in cs] + cd
            + [o[0] for o in ss] + [o[1] for o in ss] + [o[2] for o in ss] + sd + lengths
            + [o[3] for o in cs] + [o[3] for o in ss])


def _n_outputs(attrs: dict[str, Any]) -> int:
    n_dense_seq = len(attrs["seq_dense_types"])
    return (4 * len(attrs["ctx_sparse_types"]) + len(attrs["ctx_dense_types"]) + 4 * len(attrs["seq_sparse_types"])
            + n_dense_seq * (2 if attrs["batched"] else 1))


@register_op("ParseSequenceExample", num_outputs=_n_outputs, infer=_infer, lowering=device_lowering,
             default_name="ParseSequenceExample")
def _parse_sequence_device(serialized: Any, *defaults: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("ParseSequenceExample runs on the host")


def _parse_record(op: Operation, data: bytes, defaults: list[np.ndarray]) -> dict[str, list[Any]]:
    a = op.attrs
    ex = _tfproto.SequenceExample()
    try:
        ex.ParseFromString(bytes(data))
    except Exception:  # noqa: BLE001 - protobuf's DecodeError (its class differs between backends)
        raise errors.InvalidArgumentError(
            op.name, op, f"Could not parse example input, value: '{bytes(data)[:40]!r}'") from None
    ctx = ex.context.feature
    lists = ex.feature_lists.feature_list
    out: dict[str, list[Any]] = {"cs": [], "cd": [], "ss": [], "sd": []}
    for key, d in zip(a["ctx_sparse_keys"], a["ctx_sparse_types"]):
        out["cs"].append(_feature_values(op, key, ctx[key], d) if key in ctx else _values_array([], d))
    for key, d, shape, default in zip(a["ctx_dense_keys"], a["ctx_dense_types"], a["ctx_dense_shapes"], defaults):
        if key not in ctx:
            if default.size == 0:
                raise errors.InvalidArgumentError(
                    op.name, op, f"Feature: {key} (data type: {_TF_TYPE[d.name]}) is required but could not be found.")
            out["cd"].append(default.reshape(shape))
            continue
        arr = _feature_values(op, key, ctx[key], d)
        if arr.size != int(np.prod(shape, dtype=np.int64)):
            raise errors.InvalidArgumentError(
                op.name, op, f"Key: {key}.  Can't parse serialized Example: expected "
                             f"{int(np.prod(shape, dtype=np.int64))} values of {_TF_TYPE[d.name]}, got {arr.size}.")
        out["cd"].append(arr.reshape(shape))
    for key, d in zip(a["seq_sparse_keys"], a["seq_sparse_types"]):
        steps = lists[key].feature if key in lists else []
        out["ss"].append([_feature_values(op, key, f, d) for f in steps])
    for key, d, shape, missing_ok in zip(a["seq_dense_keys"], a["seq_dense_types"], a["seq_dense_shapes"],
                                         a["seq_dense_missing"]):
        size = int(np.prod(shape, dtype=np.int64))
        if key not in lists:
            if not missing_ok:
                raise errors.InvalidArgumentError(
                    op.name, op, f"Name: <unknown>, Feature list '{key}' is required but could not be found.  "
                                 "Did you mean to include it in feature_list_dense_missing_assumed_empty or "
                                 "feature_list_dense_defaults?")
            out["sd"].append(np.zeros((0, *shape), _np_dtype(d)))
            continue
        steps = []
        for t, f in enumerate(lists[key].feature):
            arr = _feature_values(op, key, f, d)
            if arr.size != size:
                raise errors.InvalidArgumentError(
                    op.name, op, f"Name: <unknown>, Key: {key}, Index: {t}.  Number of {_KINDS[d.name][:-5]} values "
                                 f"!= expected.  values size: {arr.size} but output shape: {list(shape)}")
            steps.append(arr.reshape(shape))
        out["sd"].append(np.stack(steps) if steps else np.zeros((0, *shape), _np_dtype(d)))
    return out


def _concat(parts: list[np.ndarray], d: _dtypes.DType) -> np.ndarray:
    return np.concatenate([np.zeros((0,), _np_dtype(d)), *[p.reshape(-1) for p in parts]])


@register_host("ParseSequenceExample", always=True, infer=_infer)
def _host_parse_sequence(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    a = op.attrs
    serialized = np.asarray(inputs[0], dtype=object)
    defaults = [np.asarray(v) for v in inputs[1:]]
    rows = [_parse_record(op, s, defaults) for s in serialized.reshape(-1)]
    batched = a["batched"]
    carriers: list[np.ndarray] = []

    def sparse(groups: list[tuple[list[Any], _dtypes.DType]], seq: bool) -> list[list[np.ndarray]]:
        idx_out, val_out, shape_out = [], [], []
        for per_row, d in groups:
            idx: list[tuple[int, ...]] = []
            vals: list[np.ndarray] = []
            if seq:
                steps = max((len(r) for r in per_row), default=0)
                width = max((v.size for r in per_row for v in r), default=0)
                for b, r in enumerate(per_row):
                    for t, v in enumerate(r):
                        idx.extend((b, t, k) for k in range(v.size))
                        vals.append(v)
                dense = [len(per_row), steps, width]
            else:
                width = max((v.size for v in per_row), default=0)
                for b, v in enumerate(per_row):
                    idx.extend((b, k) for k in range(v.size))
                    vals.append(v)
                dense = [len(per_row), width]
            indices = np.asarray(idx, np.int64).reshape(-1, len(dense))
            if not batched:
                indices, dense = indices[:, 1:], dense[1:]
            idx_out.append(indices)
            val_out.append(_concat(vals, d))
            shape_out.append(np.asarray(dense, np.int64))
            carriers.append(np.zeros((*dense, 0), np.bool_))
        return [idx_out, val_out, shape_out]

    cs = sparse([([r["cs"][j] for r in rows], d) for j, d in enumerate(a["ctx_sparse_types"])], seq=False)
    cd = [np.stack([r["cd"][j] for r in rows]) if rows else np.zeros((0, *s), _np_dtype(d))
          for j, (d, s) in enumerate(zip(a["ctx_dense_types"], a["ctx_dense_shapes"]))]
    ss = sparse([([r["ss"][j] for r in rows], d) for j, d in enumerate(a["seq_sparse_types"])], seq=True)
    sd, lengths = [], []
    for j, (d, s) in enumerate(zip(a["seq_dense_types"], a["seq_dense_shapes"])):
        parts = [r["sd"][j] for r in rows]
        longest = max((p.shape[0] for p in parts), default=0)
        padded = [np.concatenate([p, np.zeros((longest - p.shape[0], *s), _np_dtype(d))]) for p in parts]
        sd.append(np.stack(padded) if padded else np.zeros((0, 0, *s), _np_dtype(d)))
        lengths.append(np.asarray([p.shape[0] for p in parts], np.int64))
    if not batched:
        cd = [x[0] for x in cd]
        sd = [x[0] for x in sd]
        lengths = []
    return (*cs[0], *cs[1], *cs[2], *cd, *ss[0], *ss[1], *ss[2], *sd, *lengths, *carriers)


def _split_features(features: dict[str, Any] | None, what: str, sequence: bool) -> tuple[list[Any], list[Any]]:
    dense: list[tuple[str, Any, _dtypes.DType]] = []
    sparse: list[tuple[str, Any, _dtypes.DType]] = []
    for key in sorted(features or {}):
        f = (features or {})[key]
        allowed = (FixedLenSequenceFeature, VarLenFeature) if sequence else (FixedLenFeature, VarLenFeature)
        if not isinstance(f, allowed):
            raise ValueError(f"Unsupported {what} type {type(f).__name__} for {key!r}: expected one of "
                             f"{[t.__name__ for t in allowed]}.")
        d = _dtypes.as_dtype(f.dtype)
        if d.name not in _KINDS:
            raise TypeError(f"{what} {key!r}: dtype must be float32, int64 or string, got {d.name}.")
        (sparse if isinstance(f, VarLenFeature) else dense).append((str(key), f, d))
    return dense, sparse


def _shape(key: str, f: Any) -> tuple[int, ...]:
    dims = TensorShape(f.shape).as_list()
    if dims is None or any(x is None for x in dims):
        raise ValueError(f"Feature {key!r}: the shape {dims} must be fully defined.")
    return tuple(int(x) for x in dims if x is not None)


def _parse(serialized: Any, context_features: dict[str, Any] | None, sequence_features: dict[str, Any] | None,
           batched: bool) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    if not context_features and not sequence_features:
        raise ValueError("Missing features.")
    cd, cs = _split_features(context_features, "context feature", False)
    sd, ss = _split_features(sequence_features, "sequence feature", True)
    s = convert_to_tensor(serialized, dtype=_dtypes.string)
    want = 1 if batched else 0
    if s.shape.ndims is not None and s.shape.ndims != want:
        raise ValueError(f"Shape must be rank {want} but is rank {s.shape.ndims} for serialized ({s.name}).")
    ctx_shapes = [_shape(k, f) for k, f, _ in cd]
    defaults = [constant(_feature_default(k, f, d, shp), dtype=d) for (k, f, d), shp in zip(cd, ctx_shapes)]
    attrs = {
        "batched": batched,
        "ctx_sparse_keys": tuple(k for k, _, _ in cs), "ctx_sparse_types": tuple(d for _, _, d in cs),
        "ctx_dense_keys": tuple(k for k, _, _ in cd), "ctx_dense_types": tuple(d for _, _, d in cd),
        "ctx_dense_shapes": tuple(ctx_shapes),
        "seq_sparse_keys": tuple(k for k, _, _ in ss), "seq_sparse_types": tuple(d for _, _, d in ss),
        "seq_dense_keys": tuple(k for k, _, _ in sd), "seq_dense_types": tuple(d for _, _, d in sd),
        "seq_dense_shapes": tuple(_shape(k, f) for k, f, _ in sd),
        "seq_dense_missing": tuple(bool(f.allow_missing) for _, f, _ in sd),
    }
    out = apply_op("ParseSequenceExample", (s, *defaults), attrs)
    outs = list(out) if isinstance(out, list | tuple) else [out]
    n_cs, n_cd, n_ss, n_sd = len(cs), len(cd), len(ss), len(sd)
    pos = 0

    def take(n: int) -> list[Any]:
        nonlocal pos
        part = outs[pos:pos + n]
        pos += n
        return part

    cs_i, cs_v, _ = take(n_cs), take(n_cs), take(n_cs)
    cd_t = take(n_cd)
    ss_i, ss_v, _ = take(n_ss), take(n_ss), take(n_ss)
    sd_t = take(n_sd)
    len_t = take(n_sd if batched else 0)
    cs_c, ss_c = take(n_cs), take(n_ss)
    context = {k: sparse_result(i, v, c) for (k, _, _), i, v, c in zip(cs, cs_i, cs_v, cs_c)}
    context.update((k, t) for (k, _, _), t in zip(cd, cd_t))
    sequence = {k: sparse_result(i, v, c) for (k, _, _), i, v, c in zip(ss, ss_i, ss_v, ss_c)}
    sequence.update((k, t) for (k, _, _), t in zip(sd, sd_t))
    lengths = {k: t for (k, _, _), t in zip(sd, len_t)}
    return context, sequence, lengths


def parse_single_sequence_example(serialized: Any, context_features: dict[str, Any] | None = None,
                                  sequence_features: dict[str, Any] | None = None, example_name: Any = None,
                                  name: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Parses one serialized ``SequenceExample`` (a string scalar), as
    ``tf.compat.v1.parse_single_sequence_example``.

    Args:
      context_features: ``{key: FixedLenFeature | VarLenFeature}``.
      sequence_features: ``{key: FixedLenSequenceFeature | VarLenFeature}``.

    Returns:
      ``(context, sequence)`` dicts: a context ``FixedLenFeature`` of shape ``s``
      gives shape ``s``, a ``VarLenFeature`` a rank-1 ``SparseTensor``; a
      ``FixedLenSequenceFeature`` gives ``[time] + shape``, a sequence
      ``VarLenFeature`` a ``SparseTensor`` of dense shape ``[time, max values]``.

    Raises:
      ValueError: no features, another feature kind, a non-scalar ``serialized``.
      InvalidArgumentError (at run time): a required feature or feature list
        missing, a size or type mismatch, bytes that are not a ``SequenceExample``.
    """
    with name_scope(name, "ParseSingleSequenceExample"):
        context, sequence, _ = _parse(serialized, context_features, sequence_features, batched=False)
    return context, sequence


def parse_sequence_example(serialized: Any, context_features: dict[str, Any] | None = None,
                           sequence_features: dict[str, Any] | None = None, example_names: Any = None,
                           name: str | None = None) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Parses a batch ``[batch]`` of serialized ``SequenceExample`` protos, as
    ``tf.io.parse_sequence_example``.

    Returns:
      ``(context, sequence, lengths)``: as :func:`parse_single_sequence_example`
      with a leading batch dimension (dense feature lists zero-padded to the
      longest), and ``lengths[key]``: the ``int64`` ``[batch]`` number of steps of
      each ``FixedLenSequenceFeature``.
    """
    with name_scope(name, "ParseSequenceExample"):
        return _parse(serialized, context_features, sequence_features, batched=True)
