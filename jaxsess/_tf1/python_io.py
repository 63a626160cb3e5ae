"""TFRecord files, as ``tf.compat.v1.python_io`` (``tf.io``): ``TFRecordWriter``,
``tf_record_iterator``, ``TFRecordOptions``, ``TFRecordCompressionType``.

A TFRecord file is a sequence of records, each framed as TF's
``RecordWriter`` frames it (little-endian)::

    uint64 length | uint32 masked_crc32c(length) | bytes data[length] | uint32 masked_crc32c(data)

optionally compressed as a whole (``GZIP``, or ``ZLIB``: one zlib stream).
The checksums are CRC32C (``google_crc32c``, the library the checkpoint
writer uses) masked as LevelDB and TF mask them
(:func:`jaxsess._tf1.train._checkpoint.mask_crc`). TensorBoard's record writer and
reader are not used here: their CRC is pure Python (slow for data files) and
their reader does not read compressed files.
"""

from __future__ import annotations

import gzip
import os
import struct
import zlib
from collections.abc import Iterator
from types import TracebackType
from typing import IO, Any

import google_crc32c

from jaxsess._core import errors as errors
from jaxsess._tf1.train._checkpoint import mask_crc

__all__ = [
    "TFRecordCompressionType",
    "TFRecordOptions",
    "TFRecordWriter",
    "tf_record_iterator",
    "compression_type_string",
]


class TFRecordCompressionType:
    """The compression of a TFRecord file, as ``tf.compat.v1.python_io.TFRecordCompressionType``."""

    NONE = 0
    ZLIB = 1
    GZIP = 2


_NAMES = {TFRecordCompressionType.NONE: "", TFRecordCompressionType.ZLIB: "ZLIB",
          TFRecordCompressionType.GZIP: "GZIP"}


class TFRecordOptions:
    """Options of a TFRecord file, as ``tf.io.TFRecordOptions``.

    Args:
      compression_type: ``'GZIP'``, ``'ZLIB'``, ``''``/``None`` (none), or a
        :class:`TFRecordCompressionType` value.
      compression_level: 0-9 (default: the library's default, 6 for zlib/gzip).
      flush_mode, input_buffer_size, output_buffer_size, window_bits,
      compression_strategy, mem_level: accepted for compatibility.

    Raises:
      ValueError: an unknown compression type.
    """

    compression_type_map = {
        TFRecordCompressionType.ZLIB: "ZLIB",
        TFRecordCompressionType.GZIP: "GZIP",
        TFRecordCompressionType.NONE: "",
    }

    def __init__(self, compression_type: str | int | None = None, flush_mode: Any = None,
                 input_buffer_size: Any = None, output_buffer_size: Any = None, window_bits: Any = None,
                 compression_level: int | None = None, compression_strategy: Any = None,
                 mem_level: Any = None) -> None:
        self.compression_type = compression_type_string(compression_type)
        self.compression_level = compression_level

    @classmethod
    def get_compression_type_string(cls, options: TFRecordOptions | str | int | None) -> str:
        """``'GZIP'``, ``'ZLIB'`` or ``''`` for ``options`` (an instance, a name or a value)."""
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        return compression_type_string(options)


def compression_type_string(compression: TFRecordOptions | str | int | None) -> str:
    """``'GZIP'``, ``'ZLIB'`` or ``''`` for a compression given as TF accepts it.

    Raises:
      ValueError: an unknown compression type (names it).
    """
    if isinstance(compression, TFRecordOptions):
        return compression.compression_type
    if compression is None:
        return ""
    if isinstance(compression, int) and not isinstance(compression, bool):
        if compression in _NAMES:
            return _NAMES[compression]
    elif isinstance(compression, str) and compression.upper() in ("", "GZIP", "ZLIB", "NONE"):
        return "" if compression.upper() == "NONE" else compression.upper()
    raise ValueError(f"Unknown TFRecord compression type {compression!r}: expected 'GZIP', 'ZLIB' or ''.")


def _masked_crc(data: bytes) -> int:
    return mask_crc(int(google_crc32c.value(data)))


class _ZlibWriter:
    def __init__(self, f: IO[bytes], level: int) -> None:
        self._f = f
        self._z = zlib.compressobj(level)

    def write(self, data: bytes) -> None:
        self._f.write(self._z.compress(data))

    def flush(self) -> None:
        self._f.write(self._z.flush(zlib.Z_SYNC_FLUSH))
        self._f.flush()

    def close(self) -> None:
        self._f.write(self._z.flush())
        self._f.close()


class TFRecordWriter:
    """Writes records (``bytes``, usually serialized ``tf.train.Example``) to a TFRecord
    file, as ``tf.io.TFRecordWriter`` / ``tf.compat.v1.python_io.TFRecordWriter``.

    Args:
      path: the file to write (truncated).
      options: a :class:`TFRecordOptions` or a compression type
        (``'GZIP'``, ``'ZLIB'``, ``''``).

    Raises:
      ValueError: an unknown compression type.
      OSError: the file cannot be opened.
    """

    def __init__(self, path: str, options: TFRecordOptions | str | int | None = None) -> None:
        kind = compression_type_string(options)
        level = options.compression_level if isinstance(options, TFRecordOptions) else None
        level = 6 if level is None or level < 0 else int(level)
        self._path = path
        raw = open(path, "wb")  # noqa: SIM115 - closed by close()
        self._file: Any
        if kind == "GZIP":
            self._file = gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=level, mtime=0)
            self._raw: IO[bytes] | None = raw
        elif kind == "ZLIB":
            self._file, self._raw = _ZlibWriter(raw, level), None
        else:
            self._file, self._raw = raw, None
        self._closed = False

    def write(self, record: bytes | str) -> None:
        """Appends one record.

        Raises:
          TypeError: ``record`` is not ``bytes`` (or ``str``, written as UTF-8).
          ValueError: the writer is closed.
        """
        if self._closed:
            raise ValueError(f"TFRecordWriter({self._path!r}) is closed.")
        if isinstance(record, str):
            record = record.encode("utf-8")
        if not isinstance(record, bytes | bytearray | memoryview):
            raise TypeError(f"TFRecordWriter.write expects bytes, got {type(record).__name__}.")
        data = bytes(record)
        header = struct.pack("<Q", len(data))
        self._file.write(header + struct.pack("<I", _masked_crc(header)) + data
                         + struct.pack("<I", _masked_crc(data)))

    def flush(self) -> None:
        """Writes buffered records to the file."""
        if not self._closed:
            self._file.flush()

    def close(self) -> None:
        """Flushes and closes the file (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._file.close()
        if self._raw is not None:
            self._raw.close()

    def __enter__(self) -> TFRecordWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _open_read(path: str, kind: str) -> IO[bytes]:
    try:
        if kind == "GZIP":
            return gzip.GzipFile(filename=path, mode="rb")  # type: ignore[return-value]  # owns the file
        raw = open(path, "rb")  # noqa: SIM115 - closed by the caller
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
    if kind == "ZLIB":
        with raw:
            try:
                return _BytesReader(zlib.decompress(raw.read()))  # type: ignore[return-value]
            except zlib.error as e:
                raise errors.DataLossError(None, None, f"{path}: not a ZLIB stream ({e})") from None
    return raw


class _BytesReader:
    def __init__(self, data: bytes) -> None:
        self._data, self._pos = data, 0

    def read(self, n: int) -> bytes:
        out = self._data[self._pos:self._pos + n]
        self._pos += len(out)
        return out

    def close(self) -> None:
        pass


_CHUNK = 1 << 24  # 16 MiB
_FIRST_CHUNK = 1 << 16


def _read_at_most(f: Any, length: int) -> bytes:
    """``f.read(length)`` that allocates no more than the file holds: a plain file's size
    bounds the read (a header claiming 2**62 bytes reads what is left); a decompressed stream
    is read in chunks (64 KiB doubling up to 16 MiB) until it ends."""
    left = None
    if not isinstance(f, gzip.GzipFile | _BytesReader):  # a stream's size is not its file's (GzipFile.fileno)
        try:
            left = os.fstat(f.fileno()).st_size - f.tell()
        except (AttributeError, OSError, ValueError):
            left = None
    if left is not None:
        return f.read(max(0, min(length, left))) if length > 0 else b""
    if length <= _FIRST_CHUNK:
        return f.read(length) if length > 0 else b""
    parts: list[bytes] = []
    got, chunk = 0, _FIRST_CHUNK
    while got < length:  # chunks doubling up to 16 MiB: at most about twice what the stream holds
        part = f.read(min(chunk, length - got))
        if not part:
            break
        parts.append(part)
        got += len(part)
        chunk = min(2 * chunk, _CHUNK)
    return b"".join(parts)


def _records(f: Any, path: str) -> Iterator[bytes]:
    def loss(what: str) -> errors.OpError:
        return errors.DataLossError(None, None, f"{path}: corrupted record ({what})")

    try:
        while True:
            header = f.read(12)
            if not header:
                return
            if len(header) < 12:
                raise loss("truncated length")
            (length,) = struct.unpack("<Q", header[:8])
            if struct.unpack("<I", header[8:])[0] != _masked_crc(header[:8]):
                raise loss("length checksum mismatch")
            data = _read_at_most(f, length)
            footer = f.read(4)
            if len(data) < length or len(footer) < 4:
                raise loss(f"truncated data: the header claims {length} bytes")
            if struct.unpack("<I", footer)[0] != _masked_crc(data):
                raise loss("data checksum mismatch")
            yield data
    except (OSError, EOFError, zlib.error) as e:
        if isinstance(e, FileNotFoundError):
            raise
        raise errors.DataLossError(None, None, f"{path}: {e}") from None
    finally:
        f.close()


def tf_record_iterator(path: str, options: TFRecordOptions | str | int | None = None) -> Iterator[bytes]:
    """The records of the TFRecord file ``path``, in order, as
    ``tf.compat.v1.python_io.tf_record_iterator``.

    Args:
      path: the file.
      options: a :class:`TFRecordOptions` or a compression type (the file's).

    Raises:
      ValueError: an unknown compression type.
      NotFoundError: no such file (at the first ``next``, as TF's generator).
      DataLossError: a checksum mismatch, a truncated record, or a bad
        compressed stream (names the file).
    """
    kind = compression_type_string(options)
    yield from _records(_open_read(path, kind), path)

