"""TensorFlow's protocol buffers, without TensorFlow.

The message classes are the compiled TF protos that the ``tensorboard``
package ships (``tensorboard.compat.proto``: ``GraphDef``, ``NodeDef``,
``AttrValue``, ``TensorProto``, ``MetaGraphDef``, ``SaverDef``, ``Summary``,
``Event``...): same field numbers as TF's, so their bytes are TF's bytes.
The two messages of the checkpoint bundle's index (``BundleHeaderProto``,
``BundleEntryProto``, from ``tensorflow/core/protobuf/tensor_bundle.proto``)
and ``CheckpointState`` (``tensorflow/python/training/checkpoint_state.proto``)
are not shipped there, nor are ``tf.train.Example`` and its parts
(``tensorflow/core/example/{feature,example}.proto``) and ``SavedModel``
(``tensorflow/core/protobuf/saved_model.proto``); they are declared below from
TF's ``.proto`` files with protobuf's descriptor API (package
``jaxsess.tensorflow``, so they never clash with TF's own classes in one
process; the bytes are TF's).

This module also converts between TF's encodings and ours: ``DataType`` enum
values and :class:`~jaxsess._core.dtypes.DType`, ``TensorShapeProto`` and
:class:`~jaxsess.TensorShape`-like dims, ``TensorProto`` and NumPy arrays.
Nothing here executes code from a message.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, text_format
from tensorboard.compat.proto import (
    attr_value_pb2,
    config_pb2,
    event_pb2,
    graph_pb2,
    meta_graph_pb2,
    node_def_pb2,
    saver_pb2,
    summary_pb2,
    tensor_pb2,
    tensor_shape_pb2,
    types_pb2 as types_pb2,
    variable_pb2,
    versions_pb2,
)

from jaxsess._core import dtypes as _dtypes

if TYPE_CHECKING:
    from jaxsess._core.types import DTypeLike, HostArray, NestedArrayLike, ProtoMessage

_M = TypeVar("_M", bound="ProtoMessage")

__all__ = [
    "GraphDef",
    "NodeDef",
    "AttrValue",
    "TensorProto",
    "TensorShapeProto",
    "MetaGraphDef",
    "CollectionDef",
    "SaverDef",
    "VariableDef",
    "Summary",
    "SummaryMetadata",
    "HistogramProto",
    "Event",
    "SessionLog",
    "TaggedRunMetadata",
    "SessionLog",
    "SummaryDescription",
    "RunOptions",
    "RunMetadata",
    "VersionDef",
    "BundleHeaderProto",
    "BundleEntryProto",
    "CheckpointStateProto",
    "BytesList",
    "FloatList",
    "Int64List",
    "Feature",
    "Features",
    "FeatureList",
    "FeatureLists",
    "Example",
    "SequenceExample",
    "SavedModel",
    "SignatureDef",
    "TensorInfo",
    "GraphOptions",
    "OptimizerOptions",
    "SessionLog",
    "dtype_to_enum",
    "enum_to_dtype",
    "ndarray_to_tensor_proto",
    "tensor_proto_to_ndarray",
    "is_string_array",
    "shape_to_proto",
    "proto_to_dims",
]

GraphDef = graph_pb2.GraphDef
NodeDef = node_def_pb2.NodeDef
AttrValue = attr_value_pb2.AttrValue
TensorProto = tensor_pb2.TensorProto
TensorShapeProto = tensor_shape_pb2.TensorShapeProto
MetaGraphDef = meta_graph_pb2.MetaGraphDef
CollectionDef = meta_graph_pb2.CollectionDef
SaverDef = saver_pb2.SaverDef
VariableDef = variable_pb2.VariableDef
Summary = summary_pb2.Summary
SummaryMetadata = summary_pb2.SummaryMetadata
HistogramProto = summary_pb2.HistogramProto
Event = event_pb2.Event
SessionLog = event_pb2.SessionLog
TaggedRunMetadata = event_pb2.TaggedRunMetadata
SessionLog = event_pb2.SessionLog
SummaryDescription = summary_pb2.SummaryDescription
RunOptions = config_pb2.RunOptions
RunMetadata = config_pb2.RunMetadata
VersionDef = versions_pb2.VersionDef
SignatureDef = meta_graph_pb2.SignatureDef
TensorInfo = meta_graph_pb2.TensorInfo
GraphOptions = config_pb2.GraphOptions
OptimizerOptions = config_pb2.OptimizerOptions
SessionLog = event_pb2.SessionLog


def _declare_bundle_protos() -> tuple[Any, Any, Any]:
    """``BundleHeaderProto``, ``BundleEntryProto`` and ``CheckpointState``, field for field
    as TF's ``tensor_bundle.proto`` and ``checkpoint_state.proto`` (proto3)."""
    f = descriptor_pb2.FieldDescriptorProto
    fd = descriptor_pb2.FileDescriptorProto(
        name="jaxsess/tensor_bundle.proto",
        package="jaxsess.tensorflow",
        syntax="proto3",
        dependency=[
            "tensorboard/compat/proto/tensor_shape.proto",
            "tensorboard/compat/proto/types.proto",
            "tensorboard/compat/proto/versions.proto",
        ],
    )
    header = fd.message_type.add(name="BundleHeaderProto")
    header.field.add(name="num_shards", number=1, label=f.LABEL_OPTIONAL, type=f.TYPE_INT32)
    header.field.add(
        name="endianness", number=2, label=f.LABEL_OPTIONAL, type=f.TYPE_ENUM,
        type_name=".jaxsess.tensorflow.BundleHeaderProto.Endianness",
    )
    header.field.add(
        name="version", number=3, label=f.LABEL_OPTIONAL, type=f.TYPE_MESSAGE, type_name=".tensorboard.VersionDef"
    )
    endian = header.enum_type.add(name="Endianness")
    endian.value.add(name="LITTLE", number=0)
    endian.value.add(name="BIG", number=1)
    entry = fd.message_type.add(name="BundleEntryProto")
    entry.field.add(name="dtype", number=1, label=f.LABEL_OPTIONAL, type=f.TYPE_ENUM, type_name=".tensorboard.DataType")
    entry.field.add(
        name="shape", number=2, label=f.LABEL_OPTIONAL, type=f.TYPE_MESSAGE, type_name=".tensorboard.TensorShapeProto"
    )
    entry.field.add(name="shard_id", number=3, label=f.LABEL_OPTIONAL, type=f.TYPE_INT32)
    entry.field.add(name="offset", number=4, label=f.LABEL_OPTIONAL, type=f.TYPE_INT64)
    entry.field.add(name="size", number=5, label=f.LABEL_OPTIONAL, type=f.TYPE_INT64)
    entry.field.add(name="crc32c", number=6, label=f.LABEL_OPTIONAL, type=f.TYPE_FIXED32)
    # TensorSliceProto (partitioned variables) is kept as its bytes: jaxsess does not read slices.
    entry.field.add(name="slices", number=7, label=f.LABEL_REPEATED, type=f.TYPE_BYTES)
    state = fd.message_type.add(name="CheckpointState")
    state.field.add(name="model_checkpoint_path", number=1, label=f.LABEL_OPTIONAL, type=f.TYPE_STRING)
    state.field.add(name="all_model_checkpoint_paths", number=2, label=f.LABEL_REPEATED, type=f.TYPE_STRING)
    state.field.add(name="all_model_checkpoint_timestamps", number=3, label=f.LABEL_REPEATED, type=f.TYPE_DOUBLE)
    state.field.add(name="last_preserved_timestamp", number=4, label=f.LABEL_OPTIONAL, type=f.TYPE_DOUBLE)
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(fd.name)
    except KeyError:
        pool.AddSerializedFile(fd.SerializeToString())

    def cls(name: str) -> Any:
        return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"jaxsess.tensorflow.{name}"))

    return cls("BundleHeaderProto"), cls("BundleEntryProto"), cls("CheckpointState")


BundleHeaderProto, BundleEntryProto, CheckpointStateProto = _declare_bundle_protos()


def _declare_example_protos() -> dict[str, Any]:
    """``tf.train.Example`` and its parts, field for field as TF's ``feature.proto`` and
    ``example.proto`` (proto3: repeated numbers packed), and ``SavedModel`` as TF's
    ``saved_model.proto``."""
    f = descriptor_pb2.FieldDescriptorProto
    opt, rep = f.LABEL_OPTIONAL, f.LABEL_REPEATED
    pkg = ".jaxsess.tensorflow."
    fd = descriptor_pb2.FileDescriptorProto(
        name="jaxsess/example.proto",
        package="jaxsess.tensorflow",
        syntax="proto3",
        dependency=["tensorboard/compat/proto/meta_graph.proto"],
    )
    fd.message_type.add(name="BytesList").field.add(name="value", number=1, label=rep, type=f.TYPE_BYTES)
    fd.message_type.add(name="FloatList").field.add(name="value", number=1, label=rep, type=f.TYPE_FLOAT)
    fd.message_type.add(name="Int64List").field.add(name="value", number=1, label=rep, type=f.TYPE_INT64)
    feature = fd.message_type.add(name="Feature")
    feature.oneof_decl.add(name="kind")
    for number, kind in enumerate(("bytes_list", "float_list", "int64_list"), start=1):
        type_name = pkg + {"bytes_list": "BytesList", "float_list": "FloatList", "int64_list": "Int64List"}[kind]
        feature.field.add(name=kind, number=number, label=opt, type=f.TYPE_MESSAGE,
                          type_name=type_name, oneof_index=0)

    def map_of(message: descriptor_pb2.DescriptorProto, field: str, entry: str, value_type: str) -> None:
        e = message.nested_type.add(name=entry)
        e.options.map_entry = True
        e.field.add(name="key", number=1, label=opt, type=f.TYPE_STRING)
        e.field.add(name="value", number=2, label=opt, type=f.TYPE_MESSAGE, type_name=pkg + value_type)
        message.field.add(name=field, number=1, label=rep, type=f.TYPE_MESSAGE,
                          type_name=f"{pkg}{message.name}.{entry}")

    map_of(fd.message_type.add(name="Features"), "feature", "FeatureEntry", "Feature")
    fd.message_type.add(name="FeatureList").field.add(
        name="feature", number=1, label=rep, type=f.TYPE_MESSAGE, type_name=pkg + "Feature")
    map_of(fd.message_type.add(name="FeatureLists"), "feature_list", "FeatureListEntry", "FeatureList")
    fd.message_type.add(name="Example").field.add(
        name="features", number=1, label=opt, type=f.TYPE_MESSAGE, type_name=pkg + "Features")
    seq = fd.message_type.add(name="SequenceExample")
    seq.field.add(name="context", number=1, label=opt, type=f.TYPE_MESSAGE, type_name=pkg + "Features")
    seq.field.add(name="feature_lists", number=2, label=opt, type=f.TYPE_MESSAGE, type_name=pkg + "FeatureLists")
    saved = fd.message_type.add(name="SavedModel")
    saved.field.add(name="saved_model_schema_version", number=1, label=opt, type=f.TYPE_INT64)
    saved.field.add(name="meta_graphs", number=2, label=rep, type=f.TYPE_MESSAGE, type_name=".tensorboard.MetaGraphDef")
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(fd.name)
    except KeyError:
        pool.AddSerializedFile(fd.SerializeToString())
    names = ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList", "FeatureLists",
             "Example", "SequenceExample", "SavedModel")
    return {n: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"jaxsess.tensorflow.{n}"))
            for n in names}


_EXAMPLE = _declare_example_protos()
BytesList = _EXAMPLE["BytesList"]
FloatList = _EXAMPLE["FloatList"]
Int64List = _EXAMPLE["Int64List"]
Feature = _EXAMPLE["Feature"]
Features = _EXAMPLE["Features"]
FeatureList = _EXAMPLE["FeatureList"]
FeatureLists = _EXAMPLE["FeatureLists"]
Example = _EXAMPLE["Example"]
SequenceExample = _EXAMPLE["SequenceExample"]
SavedModel = _EXAMPLE["SavedModel"]


# -- dtypes --------------------------------------------------------------------------

_ENUM_OF: dict[str, int] = {
    "float16": types_pb2.DT_HALF,
    "bfloat16": types_pb2.DT_BFLOAT16,
    "float32": types_pb2.DT_FLOAT,
    "float64": types_pb2.DT_DOUBLE,
    "int8": types_pb2.DT_INT8,
    "int16": types_pb2.DT_INT16,
    "int32": types_pb2.DT_INT32,
    "int64": types_pb2.DT_INT64,
    "uint8": types_pb2.DT_UINT8,
    "uint16": types_pb2.DT_UINT16,
    "uint32": types_pb2.DT_UINT32,
    "uint64": types_pb2.DT_UINT64,
    "bool": types_pb2.DT_BOOL,
    "complex64": types_pb2.DT_COMPLEX64,
    "complex128": types_pb2.DT_COMPLEX128,
    "string": types_pb2.DT_STRING,
}
_DTYPE_OF: dict[int, str] = {v: k for k, v in _ENUM_OF.items()}
_REF_OFFSET = 100  # DT_FLOAT_REF == DT_FLOAT + 100


def dtype_to_enum(dtype: DTypeLike) -> int:
    """TF's ``DataType`` enum value of ``dtype`` (``DT_FLOAT`` for float32)."""
    return _ENUM_OF[_dtypes.as_dtype(dtype).name]


def enum_to_dtype(value: int) -> _dtypes.DType:
    """The :class:`~jaxsess._core.dtypes.DType` of TF's ``DataType`` value (``*_REF`` types as their base).

    Raises:
      TypeError: a ``DataType`` jaxsess has no dtype for (``DT_RESOURCE``,
        ``DT_VARIANT``, quantized types...), named.
    """
    name = _DTYPE_OF.get(value)
    if name is None and value > _REF_OFFSET:
        name = _DTYPE_OF.get(value - _REF_OFFSET)
    if name is None:
        try:
            shown = types_pb2.DataType.Name(value)
        except ValueError:
            shown = str(value)
        raise TypeError(f"TensorFlow dtype {shown} is not supported by jaxsess.")
    return _dtypes.as_dtype(name)


# -- shapes --------------------------------------------------------------------------


def shape_to_proto(dims: Sequence[int | None] | None) -> tensor_shape_pb2.TensorShapeProto:
    """A ``TensorShapeProto``: ``None`` dims become ``-1``, ``None`` (unknown rank) sets ``unknown_rank``."""
    proto = TensorShapeProto()
    if dims is None:
        proto.unknown_rank = True
        return proto
    for d in dims:
        proto.dim.add(size=-1 if d is None else int(d))
    return proto


def proto_to_dims(proto: tensor_shape_pb2.TensorShapeProto) -> list[int | None] | None:
    """The dims of a ``TensorShapeProto`` (``-1`` as ``None``), or ``None`` for unknown rank.

    Raises:
      ValueError: a dimension below -1.
    """
    if proto.unknown_rank:
        return None
    out: list[int | None] = []
    for d in proto.dim:
        if d.size < -1:
            raise ValueError(f"invalid dimension {d.size} in a TensorShapeProto")
        out.append(None if d.size == -1 else int(d.size))
    return out


# -- tensors -------------------------------------------------------------------------

_MAX_ELEMENTS = 1 << 31


def is_string_array(a: np.ndarray) -> bool:
    """Whether ``a`` holds strings (``bytes``/``str`` or an object array of them): TF's ``DT_STRING``."""
    return a.dtype.kind in "SUO"


def ndarray_to_tensor_proto(arr: NestedArrayLike, *, typed_scalars: bool = True) -> tensor_pb2.TensorProto:
    """A ``TensorProto`` holding ``arr`` (its bytes in ``tensor_content``, little-endian; a scalar in its
    typed field, ``float_val``..., unless ``typed_scalars`` is False: TF's kernels, e.g.
    ``SerializeTensor``, write every tensor's bytes to ``tensor_content``), as ``tf.make_tensor_proto``.

    String arrays (``bytes``/``str``) become ``DT_STRING`` tensors (``string_val``).

    Raises:
      TypeError: the array's dtype has no TF ``DataType`` in jaxsess.
    """
    a = np.asarray(arr)
    if is_string_array(a):
        proto = TensorProto(dtype=types_pb2.DT_STRING, tensor_shape=shape_to_proto(list(a.shape)))
        for v in a.ravel():
            proto.string_val.append(v.encode("utf-8") if isinstance(v, str) else bytes(v))
        return proto
    dt = _dtypes.as_dtype(a.dtype)
    proto = TensorProto(dtype=_ENUM_OF[dt.name], tensor_shape=shape_to_proto(list(a.shape)))
    field = _VALUE_FIELDS.get(dt.name)
    if typed_scalars and a.size <= 1 and field is not None:  # as TF: a scalar (or empty) tensor in its typed field
        values = a.ravel()
        if dt.name in ("float16", "bfloat16"):
            values = values.view(np.uint16)
        elif dt.name.startswith("complex"):
            values = np.stack([values.real, values.imag], -1).ravel()
        getattr(proto, field).extend(values.tolist())
        return proto
    little = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<") if a.dtype.byteorder == ">" else a.dtype)
    proto.tensor_content = little.tobytes()
    return proto


# TensorProto's typed value field per dtype (TF's make_tensor_proto writes scalars there).
_VALUE_FIELDS = {
    "float16": "half_val", "bfloat16": "half_val", "float32": "float_val", "float64": "double_val",
    "int8": "int_val", "int16": "int_val", "int32": "int_val", "uint8": "int_val", "uint16": "int_val",
    "int64": "int64_val", "uint32": "uint32_val", "uint64": "uint64_val", "bool": "bool_val",
    "complex64": "scomplex_val", "complex128": "dcomplex_val",
}


def _typed_values(proto: tensor_pb2.TensorProto, dt: _dtypes.DType) -> HostArray:
    name = dt.name
    if name in ("float16", "bfloat16"):
        return np.asarray(proto.half_val, np.uint16).view(dt.np_dtype)
    if name == "float32":
        return np.asarray(proto.float_val, np.float32)
    if name == "float64":
        return np.asarray(proto.double_val, np.float64)
    if name in ("int8", "int16", "int32", "uint8", "uint16"):
        return np.asarray(proto.int_val, np.int64).astype(dt.np_dtype)
    if name == "int64":
        return np.asarray(proto.int64_val, np.int64)
    if name == "uint32":
        return np.asarray(proto.uint32_val, np.uint32)
    if name == "uint64":
        return np.asarray(proto.uint64_val, np.uint64)
    if name == "bool":
        return np.asarray(proto.bool_val, np.bool_)
    if name == "complex64":
        v = np.asarray(proto.scomplex_val, np.float32)
        return v[0::2] + 1j * v[1::2] if len(v) % 2 == 0 else np.asarray([], np.complex64)
    v = np.asarray(proto.dcomplex_val, np.float64)
    return v[0::2] + 1j * v[1::2]


def tensor_proto_to_ndarray(proto: tensor_pb2.TensorProto) -> HostArray:
    """The NumPy array of a ``TensorProto``, as ``tf.make_ndarray``.

    ``tensor_content`` holds the little-endian bytes; else the typed ``*_val``
    field holds the values, the last one repeated to fill the shape (TF's
    rule; none at all means zeros).

    Raises:
      ValueError: unknown shape, content of the wrong size, more values than
        the shape holds (says which).
      TypeError: a dtype jaxsess has no dtype for.
    """
    dims = proto_to_dims(proto.tensor_shape)
    if dims is None or any(d is None for d in dims):
        raise ValueError(f"a constant tensor needs a fully defined shape, got {dims}")
    shape = tuple(int(d) for d in dims if d is not None)
    n = 1
    for d in shape:
        n *= d
        if n > _MAX_ELEMENTS:
            raise ValueError(f"a constant of shape {list(shape)} is too large")
    if proto.dtype == types_pb2.DT_STRING:
        strings = list(proto.string_val)
        if len(strings) > n:
            raise ValueError(f"the constant holds {len(strings)} strings for shape {list(shape)}")
        strings += [strings[-1] if strings else b""] * (n - len(strings))
        out = np.empty(n, dtype=object)
        out[:] = strings
        return out.reshape(shape)
    dt = enum_to_dtype(proto.dtype)
    npd = dt.np_dtype
    if proto.tensor_content:
        raw = proto.tensor_content
        if len(raw) != n * npd.itemsize:
            raise ValueError(
                f"tensor_content holds {len(raw)} bytes; shape {list(shape)} of {dt.name} needs {n * npd.itemsize}"
            )
        return np.frombuffer(raw, dtype=npd.newbyteorder("<")).astype(npd).reshape(shape)
    vals = _typed_values(proto, dt)
    if vals.size > n:
        raise ValueError(f"the constant holds {vals.size} values for shape {list(shape)}")
    if vals.size == 0:
        return np.zeros(shape, npd)
    if vals.size < n:
        vals = np.concatenate([vals, np.full(n - vals.size, vals[-1], dtype=vals.dtype)])
    return vals.astype(npd).reshape(shape)


def read_message(path: str, message_class: type[_M]) -> _M:
    """The ``message_class`` protobuf in the file ``path``: binary, else text format
    (``.pbtxt``, tried when the bytes do not parse as binary), as TF reads its files.

    Raises:
      OSError: the file cannot be read.
      ValueError: neither form parses (names the file and the message type).
    """
    with open(path, "rb") as f:
        data = f.read()
    message = message_class()
    try:
        message.ParseFromString(data)
        return message
    except Exception:  # noqa: BLE001 - protobuf's DecodeError: try the text format
        pass
    try:
        with warnings.catch_warnings():
            # protobuf's unescaping of a malformed bytes field warns (a DeprecationWarning from
            # the 'unicode_escape' codec) before it fails or not: the file's fault, not the caller's.
            warnings.simplefilter("ignore", DeprecationWarning)
            return cast(_M, text_format.Parse(data.decode("utf-8"), message_class()))
    except (text_format.ParseError, UnicodeDecodeError, RecursionError) as e:
        name = message_class.DESCRIPTOR.name
        raise ValueError(f"{path} is not a {name} (binary or text format): {e}") from None
