"""Parsing ops, as TF1's: ``parse_example`` / ``parse_single_example`` (dense
features of serialized ``tf.train.Example`` protos), ``decode_raw``,
``decode_csv`` and ``string_to_number``.

They read strings, which jaxsess keeps on the host (:mod:`jaxsess._core.graph._host`):
each is a host op that runs before the device plan, on NumPy values, and its
numeric outputs are fed to the plan. Semantics and error messages follow TF's
kernels (``ParseExampleV2``, ``DecodeRaw``, ``DecodeCSV``, ``StringToNumber``),
checked against ``tensorflow-cpu`` 2.21 in graph mode. A ``VarLenFeature``
gives a ``SparseTensor`` (its dense shape carried into the device plan as
:mod:`jaxsess._tf1.ops.sparse_host_ops` does); ``SparseFeature``/``RaggedFeature``
are not covered. Like every host op, these ops run only through ``Session.run``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from jaxsess._core import _tfproto as _tfproto, dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, constant, convert_to_tensor
from jaxsess._core.graph._graph import Operation, name_scope
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops.shape_ops import _reshape_infer
from jaxsess._tf1.ops.sparse_host_ops import sparse_outputs, sparse_result

__all__ = [
    "FixedLenFeature",
    "FixedLenSequenceFeature",
    "VarLenFeature",
    "parse_example",
    "parse_single_example",
    "decode_raw",
    "decode_csv",
    "string_to_number",
]


class FixedLenFeature(NamedTuple):
    """A dense feature of fixed shape, as ``tf.io.FixedLenFeature``.

    Attributes:
      shape: the feature's shape (a list; ``[]`` for a scalar).
      dtype: ``tf.float32``, ``tf.int64`` or ``tf.string``.
      default_value: used when an example lacks the feature (``None``: the
        feature is required).
    """

    shape: Any
    dtype: Any
    default_value: Any = None


class FixedLenSequenceFeature(NamedTuple):
    """A dense feature of any number of ``shape`` elements (padded to the longest in a
    batch with ``default_value``, else zeros), as ``tf.io.FixedLenSequenceFeature``.

    Attributes:
      shape: the shape of one element.
      dtype: ``tf.float32``, ``tf.int64`` or ``tf.string``.
      allow_missing: must be ``True`` (as TF requires for ``parse_example``).
      default_value: the padding value.
    """

    shape: Any
    dtype: Any
    allow_missing: bool = False
    default_value: Any = None


class VarLenFeature(NamedTuple):
    """A feature of any number of values, parsed into a ``SparseTensor``, as
    ``tf.io.VarLenFeature``.

    Attributes:
      dtype: ``tf.float32``, ``tf.int64`` or ``tf.string``.
    """

    dtype: Any


_KINDS = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}
_TF_TYPE = {"float32": "float", "int64": "int64", "string": "string"}


def _np_dtype(d: _dtypes.DType) -> Any:
    return object if d == _dtypes.string else d.np_dtype


def _values_array(values: Any, d: _dtypes.DType) -> np.ndarray:
    if d == _dtypes.string:
        out = np.empty(len(values), dtype=object)
        out[:] = [bytes(v) for v in values]
        return out
    return np.asarray(values, dtype=d.np_dtype)


# -- ParseExampleV2 ------------------------------------------------------------------------
#
# As TF's node: inputs ``serialized, names, sparse_keys, dense_keys, ragged_keys,
# *dense_defaults`` (the four key vectors are constants, folded into the attrs here),
# attrs ``Tdense`` and ``dense_shapes`` (a leading -1: a FixedLenSequenceFeature),
# ``sparse_keys``/``sparse_types`` (VarLenFeatures), no ragged features. A default is an
# empty tensor for a required feature. Outputs as TF's (sparse indices, values, dense
# shapes, then dense values), then one dense-shape carrier per sparse feature (jaxsess's).


def _dims(shape: Any) -> tuple[int, ...]:
    dims = TensorShape(shape).as_list()
    if dims is None:
        raise ValueError("ParseExampleV2: a dense shape of unknown rank")
    return tuple(-1 if d is None else int(d) for d in dims)


def _parse_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    batch = TensorShape(specs[0][0]).as_list() or []
    sparse = [sparse_outputs(len(batch) + 1, d) for d in attrs.get("sparse_types", ())]
    dense = [(TensorShape(batch + [None if d < 0 else d for d in shape]), d_type)
             for d_type, shape in zip(attrs["Tdense"], attrs["dense_shapes"])]
    return [o[0] for o in sparse] + [o[1] for o in sparse] + [o[2] for o in sparse] + dense + [o[3] for o in sparse]


def _n_dense(attrs: dict[str, Any]) -> int:
    return len(attrs["Tdense"]) + 4 * len(attrs.get("sparse_types", ()))


def _parse_to_tf(attrs: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[Any]]:
    def strings(values: Sequence[str]) -> np.ndarray:
        out = np.empty(len(values), dtype=object)
        out[:] = [v.encode("utf-8") for v in values]
        return out

    if attrs.get("sparse_keys"):
        raise ValueError("ParseExampleV2: a GraphDef of VarLenFeature parsing is not covered by jaxsess.")
    tf_attrs = {"Tdense": attrs["Tdense"], "num_sparse": 0, "sparse_types": (), "ragged_value_types": (),
                "ragged_split_types": (), "dense_shapes": tuple(TensorShape([None if d < 0 else d for d in s])
                                                               for s in attrs["dense_shapes"])}
    return tf_attrs, [strings([]), strings([]), strings(attrs["dense_keys"]), strings([])]


def _parse_from_tf(tf_attrs: dict[str, Any], consts: list[np.ndarray]) -> dict[str, Any]:
    _names, sparse_keys, dense_keys, ragged_keys = consts
    if np.asarray(sparse_keys).size or np.asarray(ragged_keys).size or tf_attrs.get("num_sparse", 0):
        raise ValueError("sparse and ragged features (VarLenFeature...) are not covered by jaxsess")
    keys = tuple(k.decode("utf-8") if isinstance(k, bytes) else str(k) for k in np.asarray(dense_keys).reshape(-1))
    return {"dense_keys": keys, "Tdense": tuple(_dtypes.as_dtype(d) for d in tf_attrs["Tdense"]),
            "dense_shapes": tuple(_dims(s) for s in tf_attrs["dense_shapes"])}


@register_op("ParseExampleV2", num_outputs=_n_dense, infer=_parse_infer, lowering=device_lowering,
             default_name="ParseExampleV2",
             tf=TFOp(types={}, to_tf=_parse_to_tf, from_tf=_parse_from_tf, n_const=4, const_pos=1))
def _parse_example_device(serialized: Any, *defaults: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("ParseExampleV2 runs on the host")


def _feature_values(op: Operation, key: str, feature: Any, d: _dtypes.DType) -> np.ndarray:
    """The values of one ``Feature`` proto as an array of ``d``; TF's error on another kind."""
    kind = feature.WhichOneof("kind")
    if kind is None:  # an empty Feature: no values
        return _values_array([], d)
    if kind != _KINDS[d.name]:
        got = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}[kind]
        raise errors.InvalidArgumentError(
            op.name, op, f"Key: {key}.  Data types don't match. Data type: {got} but expected type: "
                         f"{_TF_TYPE[d.name]}")
    return _values_array(getattr(feature, kind).value, d)


def _parse_one(op: Operation, data: bytes, defaults: list[np.ndarray], index: int) -> list[np.ndarray]:
    example = _tfproto.Example()
    try:
        example.ParseFromString(bytes(data))
    except Exception:  # noqa: BLE001 - protobuf's DecodeError (its class differs between backends)
        raise errors.InvalidArgumentError(
            op.name, op, f"Could not parse example input, value: '{bytes(data)[:40]!r}' (record {index})") from None
    features = example.features.feature
    out = [_feature_values(op, key, features[key], d) if key in features else _values_array([], d)
           for key, d in zip(op.attrs.get("sparse_keys", ()), op.attrs.get("sparse_types", ()))]
    for key, d, dims, default in zip(op.attrs["dense_keys"], op.attrs["Tdense"], op.attrs["dense_shapes"],
                                     defaults):
        seq = bool(dims) and dims[0] < 0
        shape = tuple(dims[1:]) if seq else tuple(dims)
        size = int(np.prod(shape, dtype=np.int64))
        if key not in features:
            if seq:
                out.append(np.zeros((0, *shape), dtype=_np_dtype(d)))
                continue
            if default.size == 0:
                raise errors.InvalidArgumentError(
                    op.name, op, f"Feature: {key} (data type: {_TF_TYPE[d.name]}) is required but could not be found.")
            out.append(default.reshape(shape))
            continue
        arr = _feature_values(op, key, features[key], d)
        if seq:
            if size == 0 or arr.size % size:
                raise errors.InvalidArgumentError(
                    op.name, op, f"Key: {key}, Index: {index}.  Number of {_KINDS[d.name].replace('_list', '')} "
                                 f"values is not a multiple of stride length. Saw {arr.size} values but output "
                                 f"shape is: {list(shape)}")
            out.append(arr.reshape((arr.size // size, *shape)))
        else:
            if arr.size != size:
                raise errors.InvalidArgumentError(
                    op.name, op, f"Key: {key}.  Can't parse serialized Example: expected {size} values of "
                                 f"{_TF_TYPE[d.name]}, got {arr.size}.")
            out.append(arr.reshape(shape))
    return out


@register_host("ParseExampleV2", always=True, infer=_parse_infer)
def _host_parse_example(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    serialized = np.asarray(inputs[0], dtype=object)
    defaults = [np.asarray(v) for v in inputs[1:]]
    rows = [_parse_one(op, s, defaults, i) for i, s in enumerate(serialized.reshape(-1))]
    n_sparse = len(op.attrs.get("sparse_types", ()))
    sp_indices, sp_values, sp_shapes, carriers = [], [], [], []
    for j, d in enumerate(op.attrs.get("sparse_types", ())):
        parts = [r[j] for r in rows]
        width = max((p.size for p in parts), default=0)
        idx = [(i, k) for i, p in enumerate(parts) for k in range(p.size)]
        indices = np.asarray(idx, np.int64).reshape(-1, 2)
        dense_shape = [len(parts), width]
        if serialized.ndim == 0:  # a scalar input: no batch dimension
            indices, dense_shape = indices[:, 1:], [width]
        sp_indices.append(indices)
        sp_values.append(np.concatenate([np.zeros((0,), _np_dtype(d)), *parts]) if parts
                         else np.zeros((0,), _np_dtype(d)))
        sp_shapes.append(np.asarray(dense_shape, np.int64))
        carriers.append(np.zeros((*dense_shape, 0), np.bool_))
    out: list[Any] = [*sp_indices, *sp_values, *sp_shapes]
    for j, (d, dims, default) in enumerate(zip(op.attrs["Tdense"], op.attrs["dense_shapes"], defaults)):
        seq = bool(dims) and dims[0] < 0
        shape = tuple(dims[1:]) if seq else tuple(dims)
        parts = [r[n_sparse + j] for r in rows]
        if seq:
            longest = max((p.shape[0] for p in parts), default=0)
            if default.size:
                pad: Any = default.reshape(-1)[0]
            else:
                pad = b"" if d == _dtypes.string else 0
            padded = []
            for p in parts:
                fill = np.empty((longest - p.shape[0], *shape), dtype=_np_dtype(d))
                fill[...] = pad
                padded.append(np.concatenate([p, fill]))
            parts = padded
        if parts:
            arr = np.stack(parts)
        else:
            arr = np.zeros((0, *([0] if seq else []), *shape), dtype=_np_dtype(d))
        out.append(arr.reshape(serialized.shape + arr.shape[1:]))
    return (*out, *carriers)


def _feature_default(key: str, feature: Any, d: _dtypes.DType, shape: tuple[int, ...]) -> np.ndarray:
    """The default input of a feature, as TF's: its ``default_value`` in the feature's
    shape, an empty vector when it has none; for a sequence feature the padding
    scalar (``0``/``b''`` by default)."""
    default = feature.default_value
    np_d = _np_dtype(d)
    if default is None and isinstance(feature, FixedLenSequenceFeature):  # the padding, as TF's
        default = b"" if d == _dtypes.string else 0
    if default is None:
        return np.zeros((0,), dtype=np_d)
    if d == _dtypes.string:
        flat = np.asarray(default, dtype=object).reshape(-1)
        arr = np.empty(flat.shape, dtype=object)
        arr[:] = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in flat]
        arr = arr.reshape(np.shape(default))
    else:
        arr = np.asarray(default, dtype=np_d)
    if isinstance(feature, FixedLenSequenceFeature):
        if arr.size != 1:
            raise ValueError(f"Feature {key!r}: the default_value of a FixedLenSequenceFeature must be a scalar.")
        return arr.reshape(())
    size = int(np.prod(shape, dtype=np.int64))
    if arr.size == 1 and size != 1:
        full = np.empty(shape, dtype=np_d)
        full[...] = arr.reshape(())
        return full
    if arr.size != size:
        raise ValueError(f"Feature {key!r}: default_value of {arr.size} values does not fit shape {list(shape)}.")
    return arr.reshape(shape)


def parse_example(serialized: Any, features: dict[str, Any], name: str | None = None,
                  example_names: Any = None) -> dict[str, Any]:
    """Parses a batch of serialized ``tf.train.Example`` protos into dense tensors, as
    ``tf.compat.v1.parse_example`` / ``tf.io.parse_example``.

    Args:
      serialized: a string tensor of shape ``[batch]`` (or ``[]``).
      features: ``{key: FixedLenFeature | FixedLenSequenceFeature | VarLenFeature}``.
      name: the name scope (default ``'ParseExample'``).
      example_names: accepted for compatibility.

    Returns:
      ``{key: tensor}``: a ``FixedLenFeature`` of shape ``s`` gives ``[batch] + s``;
      a ``FixedLenSequenceFeature`` gives ``[batch, None] + s`` (padded); a
      ``VarLenFeature`` a ``SparseTensor`` of dense shape ``[batch, max values]``
      (indices ``[n, 2]``; ``[n, 1]`` and ``[max values]`` for a scalar ``serialized``).

    Raises:
      ValueError: an empty ``features``, an unsupported feature kind
        (``SparseFeature``: not covered), a ``FixedLenSequenceFeature``
        without ``allow_missing``, a default that does not fit.
      TypeError: a feature dtype other than float32, int64 or string.
      InvalidArgumentError (at run time): a required feature missing, a
        type or size mismatch, bytes that are not an ``Example``.
    """
    if not features:
        raise ValueError("Missing: features was empty.")
    keys, types, shapes, defaults = [], [], [], []
    sparse_keys, sparse_types = [], []
    for key in sorted(features):
        f = features[key]
        if isinstance(f, VarLenFeature):
            d = _dtypes.as_dtype(f.dtype)
            if d.name not in _KINDS:
                raise TypeError(f"Value passed to parameter 'sparse_types' has DataType {d.name} not in list of "
                                "allowed values: float32, int64, string")
            sparse_keys.append(str(key))
            sparse_types.append(d)
            continue
        if isinstance(f, FixedLenSequenceFeature):
            if not f.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
            seq = True
        elif isinstance(f, FixedLenFeature):
            seq = False
        else:
            raise ValueError(f"Unsupported feature type {type(f).__name__} for {key!r}: jaxsess parses "
                             "FixedLenFeature, FixedLenSequenceFeature and VarLenFeature.")
        d = _dtypes.as_dtype(f.dtype)
        if d.name not in _KINDS:
            raise TypeError(f"Value passed to parameter 'dense_defaults' has DataType {d.name} not in list of "
                            "allowed values: float32, int64, string")
        dims = TensorShape(f.shape).as_list() or []
        if any(x is None for x in dims):
            raise ValueError(f"Feature {key!r}: the shape {dims} must be fully defined.")
        shape = tuple(int(x) for x in dims if x is not None)
        keys.append(str(key))
        types.append(d)
        shapes.append(((-1,) if seq else ()) + shape)
        defaults.append(_feature_default(key, f, d, shape))
    with name_scope(name, "ParseExample"):
        s = convert_to_tensor(serialized, dtype=_dtypes.string)
        if s.dtype != _dtypes.string:
            raise TypeError(f"parse_example: serialized must be a string tensor, got {s.dtype.name} ({s.name}).")
        if s.shape.ndims is not None and s.shape.ndims > 1:
            raise ValueError(f"parse_example: serialized must be a vector or a scalar, got shape {s.shape}.")
        default_tensors = [constant(v, dtype=d) for v, d in zip(defaults, types)]
        attrs: dict[str, Any] = {"dense_keys": tuple(keys), "Tdense": tuple(types), "dense_shapes": tuple(shapes)}
        if sparse_keys:
            attrs.update(sparse_keys=tuple(sparse_keys), sparse_types=tuple(sparse_types))
        out = apply_op("ParseExampleV2", (s, *default_tensors), attrs)
        outs = list(out) if isinstance(out, list | tuple) else [out]
        ns = len(sparse_keys)
        result = {k: sparse_result(outs[j], outs[ns + j], outs[3 * ns + len(keys) + j])
                  for j, k in enumerate(sparse_keys)}
    result.update(zip(keys, outs[3 * ns:3 * ns + len(keys)]))
    return result


def parse_single_example(serialized: Any, features: dict[str, Any], name: str | None = None,
                         example_names: Any = None) -> dict[str, Any]:
    """Parses one serialized ``tf.train.Example`` (a scalar string tensor), as
    ``tf.compat.v1.parse_single_example`` / ``tf.io.parse_single_example``.

    Returns:
      ``{key: tensor}`` of the features' shapes (no batch dimension).

    Raises:
      as :func:`parse_example`; ``ValueError`` when ``serialized`` is not a scalar.
    """
    with name_scope(name, "ParseSingleExample"):
        s = convert_to_tensor(serialized, dtype=_dtypes.string)
        if s.shape.ndims not in (None, 0):
            raise ValueError(f"parse_single_example: serialized must be a scalar, got shape {s.shape} ({s.name}).")
        return parse_example(s, features)


# -- Reshape of strings (TF's parse_example graphs reshape their string defaults) -------------


def _string_reshape_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    dims = TensorShape(specs[0][0]).as_list()
    return _reshape_infer([(None if dims is None else tuple(dims), specs[0][1])], attrs)  # type: ignore[no-any-return]


def _static_dims(op: Operation, dims: Any, verb: str) -> tuple[int, ...]:
    """A string op's target shape, which must be known when the graph is built.

    Raises:
      UnimplementedError: a dimension computed at run time.
    """
    if not all(isinstance(d, int | np.integer) for d in dims):
        raise errors.UnimplementedError(
            op.name, op, f"Op '{op.name}': a string tensor is {verb} a shape computed at run time.")
    return tuple(int(d) for d in dims)


@register_host("Reshape", infer=_string_reshape_infer)
def _host_reshape(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    target = _static_dims(op, op.attrs["shape"], "reshaped to")
    x = np.asarray(inputs[0], dtype=object)
    try:
        return (x.reshape(target),)
    except ValueError:
        raise errors.InvalidArgumentError(
            op.name, op, f"Input to reshape is a tensor with {x.size} values, but the requested shape has "
                         f"{int(np.prod([d for d in target if d >= 0]))}") from None


def _host_fill_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(attrs["dims"]), specs[0][1])]


@register_host("Fill", infer=_host_fill_infer)
def _host_fill(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    """``tf.fill``/``tf.zeros`` of a string scalar (dims known when the graph is built)."""
    dims = _static_dims(op, op.attrs["dims"], "filled to")
    value = np.asarray(inputs[0], dtype=object)
    if value.ndim != 0:
        raise errors.InvalidArgumentError(op.name, op, f"value must be a scalar, got shape {list(value.shape)}.")
    out = np.empty(dims, dtype=object)
    out.fill(value[()])
    return (out,)



# -- DecodeRaw ---------------------------------------------------------------------------


def _decode_raw_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    dims = TensorShape(specs[0][0]).as_list()
    return [(TensorShape(None if dims is None else [*dims, None]), attrs["out_type"])]


@register_op("DecodeRaw", infer=_decode_raw_infer, lowering=device_lowering, default_name="DecodeRaw",
             tf=TFOp(types={}))
def _decode_raw_device(x: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("DecodeRaw runs on the host")


@register_host("DecodeRaw", always=True, infer=_decode_raw_infer)
def _host_decode_raw(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    x = np.asarray(inputs[0], dtype=object)
    d: _dtypes.DType = op.attrs["out_type"]
    width = d.np_dtype.itemsize
    np_d = d.np_dtype.newbyteorder("<" if op.attrs["little_endian"] else ">")
    flat = [bytes(v) for v in x.reshape(-1)]
    n = len(flat[0]) if flat else 0
    for i, v in enumerate(flat):
        if len(v) != n:
            raise errors.InvalidArgumentError(
                op.name, op, f"DecodeRaw requires input strings to all be the same size, but element {i} has size "
                             f"{n} != {len(v)}")
    if n % width:
        raise errors.InvalidArgumentError(
            op.name, op, f"Input to DecodeRaw has length {n} that is not a multiple of {width}, the size of {d.name}")
    out = np.frombuffer(b"".join(flat), dtype=np_d).astype(d.np_dtype).reshape(*x.shape, n // width)
    return (out,)


def decode_raw(input_bytes: Any = None, out_type: Any = None, little_endian: bool = True, name: str | None = None,
               bytes: Any = None) -> Any:  # noqa: A002 - TF1's keyword
    """The bytes of each string reinterpreted as a vector of ``out_type``, as
    ``tf.io.decode_raw`` / ``tf.compat.v1.decode_raw``.

    Args:
      input_bytes: a string tensor of shape ``s`` (``bytes``: TF1's name for it).
      out_type: a numeric dtype (``tf.uint8``, ``tf.float32``...).
      little_endian: the byte order of the data.

    Returns:
      A tensor of shape ``s + [n]``, ``n`` = the strings' length / the dtype's size.

    Raises:
      TypeError: ``out_type`` is a string or bool dtype, or the input is not a string tensor.
      InvalidArgumentError (at run time): strings of different lengths, or a
        length that is not a multiple of the dtype's size.
    """
    if input_bytes is None:
        input_bytes = bytes
    d = _dtypes.as_dtype(out_type)
    if d in (_dtypes.string, _dtypes.bool):
        raise TypeError(f"decode_raw: out_type must be a numeric dtype, got {d.name}.")
    x = convert_to_tensor(input_bytes, dtype=_dtypes.string)
    if x.dtype != _dtypes.string:
        raise TypeError(f"decode_raw: the input must be a string tensor, got {x.dtype.name} ({x.name}).")
    return apply_op("DecodeRaw", (x,), {"out_type": d, "little_endian": bool(little_endian)}, name=name)


# -- numbers from strings -----------------------------------------------------------------

_FLOAT_RE = re.compile(r"[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|infinity|nan)", re.IGNORECASE)
_INT_RE = re.compile(r"[+-]?\d+")


def _to_number(text: bytes, d: _dtypes.DType) -> Any:
    """``text`` as a number of ``d`` (surrounding spaces allowed), as TF's ``safe_strto*``; ``None`` if invalid."""
    try:
        s = text.decode("ascii").strip()
    except UnicodeDecodeError:
        return None
    if d.is_floating:
        if not _FLOAT_RE.fullmatch(s):
            return None
        v = float(s)
        if d == _dtypes.float32 and math.isfinite(v) and abs(v) > float(np.finfo(np.float32).max):
            return None
        return v
    if not _INT_RE.fullmatch(s):
        return None
    iv = int(s)
    info = np.iinfo(d.np_dtype)
    return iv if info.min <= iv <= info.max else None


def _string_to_number_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(specs[0][0]), attrs["out_type"])]


@register_op("StringToNumber", infer=_string_to_number_infer, lowering=device_lowering,
             default_name="StringToNumber", tf=TFOp(types={}))
def _string_to_number_device(x: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("StringToNumber runs on the host")


@register_host("StringToNumber", always=True, infer=_string_to_number_infer)
def _host_string_to_number(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    x = np.asarray(inputs[0], dtype=object)
    d: _dtypes.DType = op.attrs["out_type"]
    out = np.empty(x.shape, dtype=d.np_dtype)
    for idx, v in np.ndenumerate(x):
        n = _to_number(bytes(v), d)
        if n is None:
            raise errors.InvalidArgumentError(
                op.name, op, f"StringToNumberOp could not correctly convert string: {bytes(v).decode('utf-8', 'replace')}")
        out[idx] = n
    return (out,)


def string_to_number(string_tensor: Any, out_type: Any = _dtypes.float32, name: str | None = None) -> Any:
    """Each string parsed as a number, as ``tf.strings.to_number`` / ``tf.compat.v1.string_to_number``.

    Args:
      string_tensor: a string tensor.
      out_type: ``tf.float32`` (default), ``tf.float64``, ``tf.int32`` or ``tf.int64``.

    Returns:
      A tensor of ``out_type`` and the input's shape.

    Raises:
      TypeError: another ``out_type``, or a non-string input.
      InvalidArgumentError (at run time): a string that is not a number of
        ``out_type`` (``'1.5'`` for an integer type, out of range, empty).
    """
    d = _dtypes.as_dtype(out_type)
    if d.name not in ("float32", "float64", "int32", "int64"):
        raise TypeError(f"string_to_number: out_type must be float32, float64, int32 or int64, got {d.name}.")
    x = convert_to_tensor(string_tensor, dtype=_dtypes.string)
    if x.dtype != _dtypes.string:
        raise TypeError(f"string_to_number: the input must be a string tensor, got {x.dtype.name} ({x.name}).")
    return apply_op("StringToNumber", (x,), {"out_type": d}, name=name)


# -- DecodeCSV -------------------------------------------------------------------------------


def _csv_fields(op: Operation, record: bytes, delim: bytes, quoted: bool, index: int) -> list[bytes]:
    """The fields of one CSV record, as TF's ``DecodeCSVOp::ExtractFields``."""
    if not record:
        return []
    fields: list[bytes] = []
    i, n = 0, len(record)
    while True:
        if quoted and i < n and record[i:i + 1] == b'"':
            buf = bytearray()
            i += 1
            while True:
                if i >= n:
                    raise errors.InvalidArgumentError(
                        op.name, op, f"Quoted field has to end with quote followed by delim or end in record {index}")
                c = record[i:i + 1]
                if c == b'"':
                    if record[i + 1:i + 2] == b'"':
                        buf += b'"'
                        i += 2
                        continue
                    i += 1
                    break
                buf += c
                i += 1
            if i < n and record[i:i + 1] != delim:
                raise errors.InvalidArgumentError(op.name, op, "Quote inside a string has to be escaped by another quote")
            fields.append(bytes(buf))
        else:
            j = record.find(delim, i)
            end = n if j < 0 else j
            field = record[i:end]
            if quoted and b'"' in field:
                raise errors.InvalidArgumentError(
                    op.name, op, f"Unquoted fields cannot have quotes inside in record {index}")
            fields.append(field)
            i = end
        if i >= n:
            return fields
        i += 1  # the delimiter
        if i == n:
            fields.append(b"")
            return fields


def _decode_csv_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(specs[0][0]), d) for _, d in specs[1:]]


def _n_csv(attrs: dict[str, Any]) -> int:
    return len(attrs["OUT_TYPE"])


@register_op("DecodeCSV", num_outputs=_n_csv, infer=_decode_csv_infer, lowering=device_lowering,
             default_name="DecodeCSV", tf=TFOp(types={}))
def _decode_csv_device(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("DecodeCSV runs on the host")


@register_host("DecodeCSV", always=True, infer=_decode_csv_infer)
def _host_decode_csv(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    records = np.asarray(inputs[0], dtype=object)
    defaults = [np.asarray(v).reshape(-1) for v in inputs[1:]]
    types = [t.dtype for t in op.outputs]
    delim = op.attrs["field_delim"].encode("utf-8")
    quoted = op.attrs["use_quote_delim"]
    na = op.attrs["na_value"].encode("utf-8")
    select = op.attrs["select_cols"]
    outs = [np.empty(records.shape, dtype=_np_dtype(d)) for d in types]
    for r, (idx, rec) in enumerate(np.ndenumerate(records)):
        fields = _csv_fields(op, bytes(rec), delim, quoted, r)
        if select:
            if len(fields) <= select[-1]:
                raise errors.InvalidArgumentError(
                    op.name, op, f"Expect {select[-1] + 1} fields but have {len(fields)} in record {r}")
            fields = [fields[c] for c in select]
        elif len(fields) != len(types):
            raise errors.InvalidArgumentError(
                op.name, op, f"Expect {len(types)} fields but have {len(fields)} in record {r}")
        for f, (field, d, default) in enumerate(zip(fields, types, defaults)):
            if field == b"" or field == na:
                if default.size == 0:
                    raise errors.InvalidArgumentError(
                        op.name, op, f"Field {f} is required but missing in record {r}!")
                outs[f][idx] = default[0]
                continue
            if d == _dtypes.string:
                outs[f][idx] = field
                continue
            v = _to_number(field, d)
            if v is None:
                shown = {"float32": "float", "float64": "double"}.get(d.name, d.name)
                raise errors.InvalidArgumentError(
                    op.name, op, f"Field {f} in record {r} is not a valid {shown}: {field.decode('utf-8', 'replace')}")
            outs[f][idx] = v
    return tuple(outs)


def decode_csv(records: Any, record_defaults: Sequence[Any], field_delim: str = ",", use_quote_delim: bool = True,
               name: str | None = None, na_value: str = "", select_cols: Sequence[int] | None = None) -> list[Any]:
    """Splits CSV records into one tensor per column, as ``tf.io.decode_csv`` /
    ``tf.compat.v1.decode_csv``.

    Args:
      records: a string tensor (any shape), one CSV line per element.
      record_defaults: one entry per column: ``[value]`` (its dtype is the
        column's: a Python float is float32, an int int32, a str string; or a
        tensor of float32/float64/int32/int64/string), or an empty tensor of
        the column's dtype for a required column.
      field_delim: the one-character delimiter.
      use_quote_delim: fields may be double-quoted (RFC 4180, ``""`` for a quote).
      na_value: a field equal to it counts as missing.
      select_cols: the (sorted) columns to return, one ``record_defaults``
        entry each.

    Returns:
      A list of tensors of the records' shape, one per column.

    Raises:
      ValueError: ``field_delim`` is not one character, unsorted ``select_cols``,
        or their number differs from ``record_defaults``'.
      TypeError: a default of another dtype (bool...).
      InvalidArgumentError (at run time): a wrong number of fields, a
        missing required field, a field that is not a number of its column's
        dtype, a bad quote (TF's messages).
    """
    if len(field_delim) != 1:
        raise ValueError(f"field_delim must be one character, got {field_delim!r}.")
    if select_cols is not None:
        select_cols = [int(c) for c in select_cols]
        if any(b <= a for a, b in zip(select_cols, select_cols[1:])) or (select_cols and select_cols[0] < 0):
            raise ValueError("select_cols is not strictly increasing.")
        if len(select_cols) != len(record_defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    x = convert_to_tensor(records, dtype=_dtypes.string)
    if x.dtype != _dtypes.string:
        raise TypeError(f"decode_csv: records must be a string tensor, got {x.dtype.name} ({x.name}).")
    defaults = []
    for i, d in enumerate(record_defaults):
        t = convert_to_tensor(d)
        if t.dtype.name not in ("float32", "float64", "int32", "int64", "string"):
            raise TypeError(f"Value passed to parameter 'record_defaults' has DataType {t.dtype.name} not in list "
                            "of allowed values: float32, float64, int32, int64, string")
        if t.shape.ndims is not None and t.shape.ndims > 1:
            raise ValueError(f"record_defaults[{i}] must be a scalar or a vector of at most one value, got {t.shape}.")
        defaults.append(t)
    attrs = {"OUT_TYPE": tuple(t.dtype for t in defaults), "field_delim": field_delim,
             "use_quote_delim": bool(use_quote_delim), "na_value": str(na_value),
             "select_cols": tuple(select_cols or ())}
    out = apply_op("DecodeCSV", (x, *defaults), attrs, name=name)
    return list(out) if isinstance(out, list | tuple) else [out]
