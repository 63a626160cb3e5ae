"""File readers for queue-based input pipelines, as ``tf.compat.v1.TFRecordReader``,
``TextLineReader``, ``FixedLengthRecordReader``, ``WholeFileReader`` and ``IdentityReader``.

``reader.read(queue)`` adds a ``ReaderReadV2`` host op: each run gives the
next record ``(key, value)`` (string scalars) of the current file, taking the
next file name from ``queue`` (usually ``train.string_input_producer``) when
the current one is done; once the queue is closed and empty it raises the
queue's ``OutOfRangeError``. Keys are TF's: ``b"file:line"`` (1-based, header
lines counted) for text lines, ``b"file:index"`` for fixed-length records,
``b"file:byte offset"`` for TFRecords, the file name for whole files. A
reader's position is a host resource of the session.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from jaxsess._core import _context as _context, dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Operation, get_default_graph
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops.data_flow_ops import QueueBase, queue_state
from jaxsess._tf1.python_io import compression_type_string, tf_record_iterator

__all__ = ["ReaderBase", "TFRecordReader", "TextLineReader", "FixedLengthRecordReader", "WholeFileReader",
           "IdentityReader"]

_STATE_LOCK = threading.Lock()


class _ReaderState:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.records: Iterator[tuple[bytes, bytes]] | None = None
        self.produced = 0
        self.completed = 0


def _state(ctx: Any, reader: ReaderBase) -> _ReaderState:
    with _STATE_LOCK:
        st = ctx.resources.get(reader)
        if st is None:
            st = ctx.resources[reader] = _ReaderState()
    return st  # type: ignore[no-any-return]


def _read_file(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None


def _no_outputs(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return []


def _read_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    s = TensorShape([]) if attrs["num_records"] is None else TensorShape([None])
    return [(s, _dtypes.string), (s, _dtypes.string)]


def _int64_scalar(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([]), _dtypes.int64)]


for _t in ("TFRecordReaderV2", "TextLineReaderV2", "FixedLengthRecordReaderV2", "WholeFileReaderV2",
           "IdentityReaderV2"):
    register_op(_t, num_outputs=0, infer=_no_outputs, lowering=device_lowering, stateful=True,
                default_name=_t)(lambda **attrs: ())
    register_host(_t, always=True, infer=_no_outputs)(lambda ctx, op, inputs: ())
register_op("ReaderReadV2", num_outputs=2, infer=_read_infer, lowering=device_lowering, stateful=True,
            default_name="ReaderReadV2")(lambda *xs, **attrs: ())
register_op("ReaderNumRecordsProducedV2", infer=_int64_scalar, lowering=device_lowering, stateful=True,
            default_name="ReaderNumRecordsProducedV2")(lambda **attrs: ())
register_op("ReaderNumWorkUnitsCompletedV2", infer=_int64_scalar, lowering=device_lowering, stateful=True,
            default_name="ReaderNumWorkUnitsCompletedV2")(lambda **attrs: ())
register_op("ReaderResetV2", num_outputs=0, infer=_no_outputs, lowering=device_lowering, stateful=True,
            default_name="ReaderResetV2")(lambda **attrs: ())


def _strings(values: list[bytes]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


@register_host("ReaderReadV2", always=True, blocking=True, infer=_read_infer)
def _host_read(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    reader: ReaderBase = op.attrs["reader"]
    n = op.attrs["num_records"]
    if n is None:
        want = 1
    else:
        want = int(np.asarray(inputs[0]))
        if want <= 0:
            raise errors.InvalidArgumentError(op.name, op, f"num_records must be positive, got {want}")
    st = _state(ctx, reader)
    keys: list[bytes] = []
    values: list[bytes] = []
    with st.lock:
        while True:
            if st.records is None:
                element = queue_state(ctx, op.attrs["queue"]).dequeue(op, 1, False)[0]
                work = element[0]
                work = work.item() if isinstance(work, np.ndarray) else work
                st.records = reader._records(work if isinstance(work, bytes) else str(work).encode())
            for k, v in st.records:
                keys.append(k)
                values.append(v)
                if len(keys) == want:
                    break
            else:
                st.records = None
                st.completed += 1
            if keys:
                st.produced += len(keys)
                break
    if n is None:
        return (np.asarray(keys[0], dtype=object), np.asarray(values[0], dtype=object))
    return (_strings(keys), _strings(values))


@register_host("ReaderNumRecordsProducedV2", always=True)
def _host_num_records(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.int64(_state(ctx, op.attrs["reader"]).produced),)


@register_host("ReaderNumWorkUnitsCompletedV2", always=True)
def _host_num_work_units(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.int64(_state(ctx, op.attrs["reader"]).completed),)


@register_host("ReaderResetV2", always=True, infer=_no_outputs)
def _host_reset(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    st = _state(ctx, op.attrs["reader"])
    with st.lock:
        st.records, st.produced, st.completed = None, 0, 0
    return ()


class ReaderBase:
    """A reader of records from files named by a queue, as ``tf.compat.v1.ReaderBase``."""

    _op_type = "IdentityReaderV2"

    def __init__(self, name: str | None = None) -> None:
        if _context.current_eager_session() is not None:
            raise RuntimeError("Readers are not supported when eager execution is enabled. Instead, please use "
                               "tf.data to get data into your model.")
        self._graph = get_default_graph()
        self._reader_op: Operation = apply_op(self._op_type, [], {"reader": self}, name=name)

    @property
    def reader_ref(self) -> Operation:
        """The reader's op (jaxsess has no resource handles)."""
        return self._reader_op

    @property
    def supports_serialize(self) -> bool:
        return False

    def _records(self, work: bytes) -> Iterator[tuple[bytes, bytes]]:
        raise NotImplementedError

    def _read(self, queue: Any, num_records: Any, name: str | None) -> Any:
        if not isinstance(queue, QueueBase):
            raise TypeError(f"{type(self).__name__}.read: expected a queue (e.g. from "
                            f"train.string_input_producer), got {type(queue).__name__}.")
        if queue.dtypes[0] != _dtypes.string:
            raise TypeError(f"{type(self).__name__}.read: the queue {queue.name} holds {queue.dtypes[0].name}; "
                            "a reader takes file names (string).")
        with self._graph.as_default():
            inputs = [] if num_records is None else [convert_to_tensor(num_records, dtype=_dtypes.int64)]
            return apply_op("ReaderReadV2", inputs, {"reader": self, "queue": queue,
                                                     "num_records": None if num_records is None else True},
                            name=name)

    def read(self, queue: Any, name: str | None = None) -> tuple[Any, Any]:
        """The next record: ``(key, value)``, string scalars, as ``ReaderBase.read``.

        Raises (when run):
          OutOfRangeError: ``queue`` is closed and empty (no more files).
          NotFoundError: a file does not exist.
          DataLossError: a corrupted TFRecord file.
        """
        k, v = self._read(queue, None, name)
        return k, v

    def read_up_to(self, queue: Any, num_records: Any, name: str | None = None) -> tuple[Any, Any]:
        """Up to ``num_records`` records of the current file: ``(keys, values)``,
        string vectors of shape ``[None]``, as ``ReaderBase.read_up_to``."""
        k, v = self._read(queue, num_records, name)
        return k, v

    def num_records_produced(self, name: str | None = None) -> Any:
        """The number of records read so far, an ``int64`` scalar."""
        with self._graph.as_default():
            return apply_op("ReaderNumRecordsProducedV2", [], {"reader": self}, name=name)

    def num_work_units_completed(self, name: str | None = None) -> Any:
        """The number of files finished so far, an ``int64`` scalar."""
        with self._graph.as_default():
            return apply_op("ReaderNumWorkUnitsCompletedV2", [], {"reader": self}, name=name)

    def reset(self, name: str | None = None) -> Operation:
        """An op that forgets the current file and the counts."""
        with self._graph.as_default():
            return apply_op("ReaderResetV2", [], {"reader": self}, name=name)  # type: ignore[no-any-return]


class IdentityReader(ReaderBase):
    """Gives each work string as both key and value, as ``tf.compat.v1.IdentityReader``."""

    _op_type = "IdentityReaderV2"

    def _records(self, work: bytes) -> Iterator[tuple[bytes, bytes]]:
        yield work, work


class WholeFileReader(ReaderBase):
    """Gives each file whole: key the file name, value its bytes, as ``tf.compat.v1.WholeFileReader``."""

    _op_type = "WholeFileReaderV2"

    def _records(self, work: bytes) -> Iterator[tuple[bytes, bytes]]:
        yield work, _read_file(work.decode())


class TextLineReader(ReaderBase):
    """Gives the lines of text files (without ``\\n`` / ``\\r\\n``), as ``tf.compat.v1.TextLineReader``.

    Args:
      skip_header_lines: lines skipped at the start of each file (still
        counted in the keys' line numbers).
    """

    _op_type = "TextLineReaderV2"

    def __init__(self, skip_header_lines: int | None = None, name: str | None = None) -> None:
        self._skip = int(skip_header_lines or 0)
        super().__init__(name)

    def _records(self, work: bytes) -> Iterator[tuple[bytes, bytes]]:
        lines = _read_file(work.decode()).split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        for i, line in enumerate(lines[self._skip:], start=self._skip + 1):
            yield b"%s:%d" % (work, i), line[:-1] if line.endswith(b"\r") else line


class FixedLengthRecordReader(ReaderBase):
    """Gives fixed-size records of binary files, as ``tf.compat.v1.FixedLengthRecordReader``
    (the CIFAR-10 binary format: ``record_bytes = 1 + 32*32*3``).

    Args:
      record_bytes: bytes per record.
      header_bytes, footer_bytes: bytes skipped at the start and end of each file.
      hop_bytes: bytes between record starts (default ``record_bytes``).

    Raises:
      NotImplementedError: ``encoding`` (compressed files).
    """

    _op_type = "FixedLengthRecordReaderV2"

    def __init__(self, record_bytes: int, header_bytes: int | None = None, footer_bytes: int | None = None,
                 hop_bytes: int | None = None, name: str | None = None, encoding: str | None = None) -> None:
        if encoding:
            raise NotImplementedError("FixedLengthRecordReader(encoding=...): jaxsess reads uncompressed files only.")
        self._record = int(record_bytes)
        self._header = int(header_bytes or 0)
        self._footer = int(footer_bytes or 0)
        self._hop = int(hop_bytes or 0) or self._record
        super().__init__(name)

    def _records(self, work: bytes) -> Iterator[tuple[bytes, bytes]]:
        data = _read_file(work.decode())
        body = data[self._header:len(data) - self._footer]
        i, pos = 0, 0
        while pos + self._record <= len(body):
            yield b"%s:%d" % (work, i), body[pos:pos + self._record]
            i += 1
            pos += self._hop


class TFRecordReader(ReaderBase):
    """Gives the records of TFRecord files, as ``tf.compat.v1.TFRecordReader``.

    Args:
      options: a ``python_io.TFRecordOptions`` or compression type (``'GZIP'``, ``'ZLIB'``).
    """

    _op_type = "TFRecordReaderV2"

    def __init__(self, name: str | None = None, options: Any = None) -> None:
        self._compression = compression_type_string(options)
        super().__init__(name)

    def _records(self, work: bytes) -> Iterator[tuple[bytes, bytes]]:
        offset = 0
        for record in tf_record_iterator(work.decode(), self._compression):
            yield b"%s:%d" % (work, offset), record
            offset += 16 + len(record)
