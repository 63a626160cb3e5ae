"""TF's saver ops as host ops: ``RestoreV2``, ``SaveV2``, ``MergeV2Checkpoints``,
``ShardedFilename``, ``StaticRegexFullMatch``.

A graph written by TF's ``tf.compat.v1.train.Saver`` (a ``.meta``, a TF1
SavedModel) holds the saver's own sub-graph, named by its ``SaverDef``;
TF's C++ serving and some scripts run it themselves::

    sess.run(saver_def.restore_op_name, {saver_def.filename_tensor_name: prefix})
    sess.run(saver_def.save_tensor_name, {saver_def.filename_tensor_name: prefix})

These ops read and write the V2 checkpoint with jaxsess's bundle reader and
atomic writer (:mod:`jaxsess._tf1.train._checkpoint`), so the files are TF's.
They run on the host, before the device plan (their inputs are strings,
:mod:`jaxsess._core.graph._host`): ``RestoreV2``'s outputs are fed to the
device plan (the ``Assign``/``AssignVariableOp`` nodes of ``save/restore_all``
update the session's variables there); ``SaveV2``'s tensor inputs are
computed by a device run first. Semantics and messages follow TF 2.21's
kernels (``tensorflow/core/kernels/save_restore_v2_ops.cc``): a missing file
or key is a ``NotFoundError`` naming it, a stored dtype other than the one
asked for an ``InvalidArgumentError``. ``RestoreV2`` reads a slice
(``"<full shape> <start,length:...>"``) of a whole stored tensor; ``SaveV2``
writes whole tensors only (a non-empty ``shape_and_slices`` entry is an
``UnimplementedError``). ``MergeV2Checkpoints`` reads the shards' bundles and
writes one bundle at the destination (the tensors TF's merge gives; one data
file), then deletes the shards' files and, with ``delete_old_dirs``, their
directories when empty, as TF's.
"""

from __future__ import annotations

import contextlib
import os
import re
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.train import _checkpoint as _checkpoint

__all__: list[str] = []


def _strings(value: Any) -> list[str]:
    arr = np.asarray(value, dtype=object).reshape(-1)
    return [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in arr]


def _scalar_string(op: Operation, value: Any, what: str) -> str:
    arr = np.asarray(value, dtype=object)
    if arr.size != 1:
        raise errors.InvalidArgumentError(op.name, op, f"Input {what} must be a scalar string, got shape {list(arr.shape)}")
    return _strings(arr)[0]


def _check_names(op: Operation, names: list[str], slices: list[str], n: int) -> None:
    if len(names) != n or len(slices) != n:
        raise errors.InvalidArgumentError(
            op.name, op,
            f"Expected {n} tensor names and shape-and-slices, got {len(names)} tensor_names and "
            f"{len(slices)} shape_and_slices (node {op.name}, op {op.type})")


# -- RestoreV2 ----------------------------------------------------------------------------------


def _restore_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(None), dt) for dt in attrs["dtypes"]]


@register_op("RestoreV2", num_outputs=lambda attrs: len(attrs["dtypes"]), infer=_restore_infer,
             lowering=device_lowering, default_name="RestoreV2", stateful=True, tf=TFOp(types={}))
def _restore_device(prefix: Any, tensor_names: Any, shape_and_slices: Any, *, dtypes: Any) -> Any:  # pragma: no cover
    raise AssertionError("RestoreV2 runs on the host")


_SLICE_PART = re.compile(r"\A(-|(\d+),(-?\d+))\Z")


def _parse_slice(op: Operation, name: str, spec: str) -> tuple[list[int], tuple[slice, ...]]:
    """TF's ``"d0 d1 ... start,length:start,length"`` (``-``: a whole dimension; length ``-1``: to the end)."""
    parts = spec.split(" ")
    try:
        full = [int(d) for d in parts[:-1]]
        pieces = parts[-1].split(":")
        if len(pieces) != len(full) or any(d < 0 for d in full):
            raise ValueError
        sl = []
        for p, d in zip(pieces, full):
            m = _SLICE_PART.match(p)
            if m is None:
                raise ValueError
            if m.group(1) == "-":
                sl.append(slice(None))
                continue
            start, length = int(m.group(2)), int(m.group(3))
            stop = d if length == -1 else start + length
            if length < -1 or stop > d:
                raise ValueError
            sl.append(slice(start, stop))
    except ValueError:
        raise errors.InvalidArgumentError(
            op.name, op, f"Invalid shape_and_slice {spec!r} for tensor {name} (node {op.name})") from None
    return full, tuple(sl)


@register_host("RestoreV2", always=True, infer=_restore_infer)
def _host_restore(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    prefix = _scalar_string(op, inputs[0], "prefix")
    names, slices = _strings(inputs[1]), _strings(inputs[2])
    dtypes = list(op.attrs["dtypes"])
    _check_names(op, names, slices, len(dtypes))
    try:
        reader = _checkpoint.BundleReader(prefix)
    except errors.OpError as e:
        raise type(e)(op.name, op, str(e)) from None
    out = []
    for name, spec, dt in zip(names, slices, dtypes):
        try:
            stored = reader.dtype(name)
            if stored != dt:
                raise errors.InvalidArgumentError(
                    op.name, op, f"tensor_name = {name}; expected dtype {dt.name} does not equal original dtype "
                    f"{stored.name}")
            value = reader.get_tensor(name)
        except errors.OpError as e:
            raise type(e)(op.name, op, str(e)) from None
        if spec:
            full, sl = _parse_slice(op, name, spec)
            if list(value.shape) != full:
                raise errors.InvalidArgumentError(
                    op.name, op, f"tensor_name = {name}; shape in shape_and_slice spec {full} does not match the "
                    f"shape stored in checkpoint: {list(value.shape)}")
            value = np.ascontiguousarray(value[sl])
        out.append(value)
    return tuple(out)


# -- SaveV2 -------------------------------------------------------------------------------------


def _no_outputs(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return []


@register_op("SaveV2", num_outputs=0, infer=_no_outputs, lowering=device_lowering, default_name="SaveV2",
             stateful=True, tf=TFOp(types={}))
def _save_device(prefix: Any, tensor_names: Any, shape_and_slices: Any, *tensors: Any, dtypes: Any) -> Any:  # pragma: no cover
    raise AssertionError("SaveV2 runs on the host")


@register_host("SaveV2", always=True, infer=_no_outputs)
def _host_save(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    prefix = _scalar_string(op, inputs[0], "prefix")
    names, slices = _strings(inputs[1]), _strings(inputs[2])
    values = inputs[3:]
    _check_names(op, names, slices, len(values))
    tensors: dict[str, np.ndarray] = {}
    for name, spec, value in zip(names, slices, values):
        if spec:
            raise errors.UnimplementedError(
                op.name, op, f"SaveV2 of a slice ({name!r}: {spec!r}) is not supported by jaxsess; save whole tensors")
        tensors[name] = np.asarray(value)
    directory = os.path.dirname(prefix)
    try:
        if directory:
            os.makedirs(directory, exist_ok=True)  # as TF's BundleWriter
        _checkpoint.write_bundle(prefix, tensors)
    except TypeError as e:
        raise errors.UnimplementedError(op.name, op, f"SaveV2 to {prefix}: {e}") from None
    except OSError as e:
        raise errors.NotFoundError(op.name, op, f"{prefix}; {e.strerror or e}") from None
    return ()


# -- MergeV2Checkpoints -------------------------------------------------------------------------


@register_op("MergeV2Checkpoints", num_outputs=0, infer=_no_outputs, lowering=device_lowering,
             default_name="MergeV2Checkpoints", stateful=True, tf=TFOp(types={}))
def _merge_device(checkpoint_prefixes: Any, destination_prefix: Any, *, delete_old_dirs: bool = True,
                  allow_missing_files: bool = False) -> Any:  # pragma: no cover
    raise AssertionError("MergeV2Checkpoints runs on the host")


def _remove_bundle(prefix: str) -> None:
    for path, _ in _checkpoint.data_files(prefix):
        with contextlib.suppress(OSError):
            os.remove(path)
    with contextlib.suppress(OSError):
        os.remove(_checkpoint.index_path(prefix))


@register_host("MergeV2Checkpoints", always=True, infer=_no_outputs)
def _host_merge(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    sources = _strings(inputs[0])
    dest = _scalar_string(op, inputs[1], "destination_prefix")
    allow_missing = bool(op.attrs.get("allow_missing_files", False))
    tensors: dict[str, np.ndarray] = {}
    merged = []
    for src in sources:
        if not _checkpoint.is_bundle(src):
            if allow_missing:
                continue
            raise errors.NotFoundError(op.name, op, f"{_checkpoint.index_path(src)}; No such file or directory")
        try:
            reader = _checkpoint.BundleReader(src)
            for name in reader.keys():
                if name in tensors:
                    raise errors.InvalidArgumentError(
                        op.name, op, f"Duplicate tensor keyed by {name} encountered, when merging prefix: {src}")
                tensors[name] = reader.get_tensor(name)
        except errors.OpError as e:
            raise type(e)(op.name, op, str(e)) from None
        merged.append(src)
    if not merged and not allow_missing:
        raise errors.InvalidArgumentError(op.name, op, "checkpoint_prefixes is empty")
    directory = os.path.dirname(dest)
    try:
        if directory:
            os.makedirs(directory, exist_ok=True)
        _checkpoint.write_bundle(dest, tensors)
    except (TypeError, OSError) as e:
        raise errors.UnknownError(op.name, op, f"MergeV2Checkpoints to {dest}: {e}") from None
    for src in merged:
        if os.path.abspath(src) != os.path.abspath(dest):
            _remove_bundle(src)
    if op.attrs.get("delete_old_dirs", True):
        for src in merged:
            d = os.path.dirname(src)
            if d and os.path.abspath(d) != os.path.abspath(directory or "."):
                with contextlib.suppress(OSError):
                    os.rmdir(d)  # only when empty, as TF's
    return ()


# -- the sharded saver's file names -------------------------------------------------------------


def _string_scalar_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([]), _dtypes.string)]


@register_op("ShardedFilename", infer=_string_scalar_infer, lowering=device_lowering,
             default_name="ShardedFilename", tf=TFOp(types={}))
def _sharded_filename_device(basename: Any, shard: Any, num_shards: Any) -> Any:  # pragma: no cover
    raise AssertionError("ShardedFilename runs on the host")


@register_host("ShardedFilename", always=True, infer=_string_scalar_infer)
def _host_sharded_filename(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    base = _scalar_string(op, inputs[0], "basename")
    shard, num = int(np.asarray(inputs[1])), int(np.asarray(inputs[2]))
    return (np.asarray(f"{base}-{shard:05d}-of-{num:05d}".encode(), dtype=object),)


def _bool_like_input(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(specs[0][0], _dtypes.bool)]


@register_op("StaticRegexFullMatch", infer=_bool_like_input, lowering=device_lowering,
             default_name="StaticRegexFullMatch", tf=TFOp(types={}))
def _static_regex_device(input: Any, *, pattern: str) -> Any:  # pragma: no cover
    raise AssertionError("StaticRegexFullMatch runs on the host")


@register_host("StaticRegexFullMatch", always=True, infer=_bool_like_input)
def _host_static_regex(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    pattern = op.attrs["pattern"]
    rx = re.compile(pattern.decode("utf-8") if isinstance(pattern, bytes) else pattern)
    arr = np.asarray(inputs[0], dtype=object)
    out = np.empty(arr.shape, dtype=bool)
    for idx, v in np.ndenumerate(arr):
        out[idx] = rx.fullmatch(v.decode("utf-8") if isinstance(v, bytes) else str(v)) is not None
    return (out,)
