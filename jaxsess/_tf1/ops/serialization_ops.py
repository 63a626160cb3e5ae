"""Tensors to and from bytes, compressed strings and file globbing, as ``tf.io``'s
``serialize_tensor``/``parse_tensor``, ``decode_compressed``, ``matching_files`` and
``tf.train.match_filenames_once``.

They read or write strings, which jaxsess keeps on the host (:mod:`jaxsess._core.graph._host`):
each is a host op run by ``Session.run`` on NumPy values. Bytes and messages follow
TF's kernels (``SerializeTensor`` writes a ``TensorProto`` with ``tensor_content``, as
TF's ``AsProtoTensorContent``; ``DecodeCompressed`` inflates zlib/gzip with Python's
``zlib``), checked against ``tensorflow-cpu`` 2.21 in graph mode.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

import numpy as np

from jaxsess._core import _tfproto as _tfproto, dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1 import gfile as gfile
from jaxsess._tf1.ops._args import op_scope

__all__ = ["serialize_tensor", "parse_tensor", "decode_compressed", "matching_files", "match_filenames_once"]


def _host_only(op_type: str, infer: Any) -> None:
    def impl(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
        raise AssertionError(f"{op_type} runs on the host")
    register_op(op_type, default_name=op_type, infer=infer, lowering=device_lowering)(impl)


def _scalar_string(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([]), _dtypes.string)]


def _same_string(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(specs[0][0]), _dtypes.string)]


def _parsed(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(None), attrs["out_type"])]


def _vector_string(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([None]), _dtypes.string)]


_host_only("SerializeTensor", _scalar_string)
_host_only("ParseTensor", _parsed)
_host_only("DecodeCompressed", _same_string)
_host_only("MatchingFiles", _vector_string)


def _scalar_bytes(b: bytes) -> np.ndarray:
    out = np.empty((), dtype=object)
    out[()] = b
    return out


@register_host("SerializeTensor", always=True, infer=_scalar_string)
def _host_serialize_tensor(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (_scalar_bytes(_tfproto.ndarray_to_tensor_proto(np.asarray(inputs[0]), typed_scalars=False).SerializeToString()),)


_TF_TYPE_NAMES = {"float32": "float", "float64": "double"}


@register_host("ParseTensor", always=True, infer=_parsed)
def _host_parse_tensor(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    data = np.asarray(inputs[0], dtype=object)
    if data.shape != ():
        raise errors.InvalidArgumentError(
            op.name, op, f"Expected `serialized` to be a scalar, got shape: {list(data.shape)}")
    proto = _tfproto.TensorProto()
    try:
        proto.ParseFromString(bytes(data[()]))
        arr = _tfproto.tensor_proto_to_ndarray(proto)
    except Exception:  # noqa: BLE001 - protobuf's DecodeError, or an inconsistent proto
        raise errors.InvalidArgumentError(op.name, op, "Could not parse `serialized` as TensorProto: "
                                          f"'{bytes(data[()])[:40]!r}'") from None
    want: _dtypes.DType = op.attrs["out_type"]
    got = _dtypes.string if proto.dtype == _tfproto.types_pb2.DT_STRING else _tfproto.enum_to_dtype(proto.dtype)
    if got != want:
        raise errors.InvalidArgumentError(
            op.name, op, f"Type mismatch between parsed tensor ({_TF_TYPE_NAMES.get(got.name, got.name)}) and "
                         f"dtype ({_TF_TYPE_NAMES.get(want.name, want.name)})")
    return (arr,)


def serialize_tensor(tensor: Any, name: str | None = None) -> Any:
    """``tensor`` as the bytes of a ``TensorProto`` (a string scalar), as ``tf.io.serialize_tensor``
    (the same bytes as TF: dtype, shape, then ``tensor_content``, or ``string_val`` for strings)."""
    x = convert_to_tensor(tensor)
    return apply_op("SerializeTensor", (x,), {"T": x.dtype}, name=name)


def parse_tensor(serialized: Any, out_type: Any, name: str | None = None) -> Any:
    """The tensor in a serialized ``TensorProto`` (a string scalar), as ``tf.io.parse_tensor``.

    Returns:
      A tensor of ``out_type`` whose shape is unknown until run time.

    Raises:
      TypeError: ``serialized`` is not a string tensor.
      InvalidArgumentError (at run time): ``serialized`` is not a scalar, not a
        ``TensorProto``, or holds another dtype (TF's message).
    """
    s = convert_to_tensor(serialized, dtype=_dtypes.string)
    if s.dtype != _dtypes.string:
        raise TypeError(f"parse_tensor: serialized must be a string tensor, got {s.dtype.name} ({s.name}).")
    return apply_op("ParseTensor", (s,), {"out_type": _dtypes.as_dtype(out_type)}, name=name)


_ZLIB_ERROR = re.compile(r"Error (-?\d+) while decompressing data: (.*)")


@register_host("DecodeCompressed", always=True, infer=_same_string)
def _host_decode_compressed(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    kind = op.attrs["compression_type"]
    x = np.asarray(inputs[0], dtype=object)
    out = np.empty(x.shape, dtype=object)
    wbits = zlib.MAX_WBITS | (16 if kind == "GZIP" else 0)
    for idx, v in np.ndenumerate(x):
        if not kind:
            out[idx] = bytes(v)
            continue
        try:
            out[idx] = zlib.decompress(bytes(v), wbits)
        except zlib.error as e:
            m = _ZLIB_ERROR.match(str(e))
            msg = f"inflate() failed with error {m.group(1)}: {m.group(2)}" if m else f"inflate() failed: {e}"
            raise errors.DataLossError(op.name, op, msg) from None
    return (out,)


def decode_compressed(bytes: Any, compression_type: str = "", name: str | None = None) -> Any:  # noqa: A002
    """Each string decompressed, as ``tf.io.decode_compressed``.

    Args:
      bytes: a string tensor of any shape.
      compression_type: ``''`` (no compression), ``'ZLIB'`` or ``'GZIP'``.

    Returns:
      A string tensor of the input's shape.

    Raises:
      ValueError: another ``compression_type``.
      DataLossError (at run time): data that does not inflate (TF's message).
    """
    if compression_type not in ("", "ZLIB", "GZIP"):
        raise ValueError(f"Only ZLIB, GZIP or NONE are supported compressions, got {compression_type!r}.")
    x = convert_to_tensor(bytes, dtype=_dtypes.string)
    if x.dtype != _dtypes.string:
        raise TypeError(f"decode_compressed: the input must be a string tensor, got {x.dtype.name} ({x.name}).")
    return apply_op("DecodeCompressed", (x,), {"compression_type": compression_type}, name=name)


@register_host("MatchingFiles", always=True, infer=_vector_string)
def _host_matching_files(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    patterns = np.asarray(inputs[0], dtype=object).reshape(-1)
    found = sorted({p for pat in patterns for p in gfile.glob(bytes(pat).decode("utf-8"))})
    out = np.empty((len(found),), dtype=object)
    out[:] = [p.encode("utf-8") for p in found]
    return (out,)


def matching_files(pattern: Any, name: str | None = None) -> Any:
    """The sorted paths matching the glob ``pattern`` (a string scalar or vector: the union),
    as ``tf.io.matching_files``; a string vector, empty when nothing matches.

    Raises:
      ValueError: ``pattern`` of rank > 1.
    """
    p = convert_to_tensor(pattern, dtype=_dtypes.string)
    if p.dtype != _dtypes.string:
        raise TypeError(f"matching_files: pattern must be a string tensor, got {p.dtype.name} ({p.name}).")
    if p.shape.ndims is not None and p.shape.ndims > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {p.shape.ndims} for MatchingFiles ({p.name}).")
    return apply_op("MatchingFiles", (p,), {}, name=name)


def match_filenames_once(pattern: Any, name: str | None = None) -> Any:
    """The paths matching ``pattern``, as ``tf.compat.v1.train.match_filenames_once``.

    TF keeps them in a string local variable (``matching_filenames``) set by
    ``local_variables_initializer``; jaxsess keeps strings on the host, so this is
    the ``MatchingFiles`` op itself (named ``matching_filenames``), evaluated on
    each run: the same value unless files appear or vanish meanwhile.
    """
    with op_scope(name, "matching_filenames", [pattern]) as scope:
        return matching_files(pattern, name=scope)
