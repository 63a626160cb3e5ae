"""TF's V2 checkpoint format (the tensor bundle), read and written without TensorFlow.

A checkpoint with prefix ``P`` is two files:

* ``P.data-00000-of-0000n`` — the tensors' bytes, one after the other
  (little-endian, C order); TF writes one data file per device shard,
  jaxsess one, or (saving over a checkpoint of one shard) two, the second
  empty, so that the new data never replaces the files the old index reads;
* ``P.index`` — an SSTable (LevelDB's table format, as TF's
  ``tensorflow/core/lib/io/table``) mapping each tensor name to a
  ``BundleEntryProto`` (dtype, shape, shard, offset, size, masked CRC32C of
  the bytes); the entry under the empty key is the ``BundleHeaderProto``.

The SSTable layout, from LevelDB's ``doc/table_format.md``: data blocks, a
meta-index block, an index block, and a 48-byte footer (two block handles,
padding, the magic ``0xdb4775248b80fb57``). A block is a run of
prefix-compressed entries (``shared``, ``non_shared``, ``value_length`` as
varints, the key's new part, the value), then ``uint32`` restart offsets and
their count; each block is followed by a one-byte compression type and the
masked CRC32C of the block and that byte. The index block maps a key at or
after a data block's last key to that block's handle. This module reads and
writes uncompressed tables only (TF writes them uncompressed).

Reading never executes code from the files; any inconsistency raises
:class:`~jaxsess._core.errors.DataLossError` naming the file and the byte offset.
"""

from __future__ import annotations

import contextlib
import os
import re
import struct
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import google_crc32c
import numpy as np

from jaxsess._core import _tfproto as _tfproto, errors as errors
from jaxsess._tf1.train import _atomic_files as _atomic_files

__all__ = ["write_bundle", "BundleReader", "is_bundle", "data_path", "index_path", "mask_crc", "unmask_crc"]

_MAGIC = 0xDB4775248B80FB57
_FOOTER_LEN = 48
_BLOCK_TRAILER = 5
_BLOCK_SIZE = 4096
_RESTART_INTERVAL = 16
_MASK_DELTA = 0xA282EAD8


def data_path(prefix: str, shard: int = 0, num_shards: int = 1) -> str:
    """``<prefix>.data-0000k-of-0000n``, as TF's ``DataFilename``."""
    return f"{prefix}.data-{shard:05d}-of-{num_shards:05d}"


def index_path(prefix: str) -> str:
    """``<prefix>.index``."""
    return prefix + ".index"


def is_bundle(prefix: str) -> bool:
    """Whether ``<prefix>.index`` exists."""
    return os.path.isfile(index_path(prefix))


def mask_crc(crc: int) -> int:
    """LevelDB's/TF's masked CRC32C: rotate right by 15 bits, add a constant."""
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + _MASK_DELTA) & 0xFFFFFFFF


def unmask_crc(masked: int) -> int:
    """The inverse of :func:`mask_crc`."""
    rot = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


def _crc(data: bytes) -> int:
    return int(google_crc32c.value(data))


# -- varints (SSTable block format) -----------------------------------------------------


def _put_varint(out: bytearray, v: int) -> None:
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)


class _Corrupt(Exception):
    """A structural error at a byte offset (message: why)."""


def _get_varint(buf: bytes, pos: int, limit: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= limit or shift > 63:
            raise _Corrupt(f"bad varint at byte {pos}")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


# -- writing ---------------------------------------------------------------------------


def _block(entries: list[tuple[bytes, bytes]]) -> bytes:
    out = bytearray()
    restarts: list[int] = []
    prev = b""
    for i, (key, value) in enumerate(entries):
        if i % _RESTART_INTERVAL == 0:
            restarts.append(len(out))
            shared = 0
        else:
            shared = 0
            for a, b in zip(prev, key):
                if a != b:
                    break
                shared += 1
        _put_varint(out, shared)
        _put_varint(out, len(key) - shared)
        _put_varint(out, len(value))
        out += key[shared:]
        out += value
        prev = key
    if not restarts:
        restarts.append(0)
    for r in restarts:
        out += struct.pack("<I", r)
    out += struct.pack("<I", len(restarts))
    return bytes(out)


def _handle(offset: int, size: int) -> bytes:
    out = bytearray()
    _put_varint(out, offset)
    _put_varint(out, size)
    return bytes(out)


def build_table(entries: list[tuple[bytes, bytes]]) -> bytes:
    """An uncompressed SSTable of ``entries`` (keys strictly increasing), as TF's ``TableBuilder``.

    Raises:
      ValueError: keys out of order or repeated.
    """
    out = bytearray()
    index: list[tuple[bytes, bytes]] = []

    def emit(block: bytes) -> bytes:
        handle = _handle(len(out), len(block))
        out.extend(block)
        out.append(0)  # kNoCompression
        out.extend(struct.pack("<I", mask_crc(_crc(block + b"\x00"))))
        return handle

    pending: list[tuple[bytes, bytes]] = []
    size = 0
    prev: bytes | None = None
    for key, value in entries:
        if prev is not None and key <= prev:
            raise ValueError(f"SSTable keys must be strictly increasing: {key!r} after {prev!r}")
        prev = key
        pending.append((key, value))
        size += len(key) + len(value) + 8
        if size >= _BLOCK_SIZE:
            index.append((key, emit(_block(pending))))
            pending, size = [], 0
    if pending:
        index.append((pending[-1][0], emit(_block(pending))))
    meta_handle = emit(_block([]))
    index_handle = emit(_block(index))
    footer = meta_handle + index_handle
    footer += b"\x00" * (40 - len(footer)) + struct.pack("<Q", _MAGIC)
    out.extend(footer)
    return bytes(out)


def _live_num_shards(prefix: str) -> int | None:
    """The ``num_shards`` of the checkpoint now at ``prefix`` (``None``: none, or unreadable)."""
    try:
        with open(index_path(prefix), "rb") as f:
            buf = f.read()
        for key, value in read_table(buf):
            if key == b"":
                return max(int(_tfproto.BundleHeaderProto.FromString(value).num_shards), 1)
            break
    except Exception:  # missing or corrupt: nothing of it is worth keeping readable
        return None
    return None


_SHARD_FILE = re.compile(r"\.data-(\d{5})-of-(\d{5})\Z")


def data_files(prefix: str) -> list[tuple[str, int]]:
    """The data files ``<prefix>.data-NNNNN-of-MMMMM`` that exist, with their ``MMMMM``."""
    directory, base = os.path.split(prefix)
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return []
    out = []
    for name in names:
        if name.startswith(base):
            m = _SHARD_FILE.match(name, len(base))
            if m is not None:
                out.append((os.path.join(directory, name), int(m.group(2))))
    return out


def write_bundle(prefix: str, tensors: Mapping[str, np.ndarray], extra_files: Sequence[tuple[str, bytes]] = ()) -> None:
    """Writes ``tensors`` as the V2 checkpoint ``<prefix>.index`` + ``<prefix>.data-00000-of-0000n``.

    Atomic, also over an existing checkpoint at ``prefix``: the data files
    are written under names the current index does not read (the shard
    count alternates: one data file, or the data plus an empty second
    shard ``.data-00001-of-00002``, both valid TF bundles), then the index
    is renamed into place — one rename switches from the old checkpoint to
    the new one, so a reader finds the old checkpoint or the new one, never
    a mix — and only then are the old data files deleted. A failure before
    the switch leaves the old checkpoint intact and no temporary.
    ``extra_files`` (``(path, bytes)``: the ``.meta``) are renamed into place
    just before the index.

    Raises:
      TypeError: a tensor's dtype has no TF ``DataType``.
      OSError: a file cannot be written.
    """
    data = bytearray()
    entries: list[tuple[bytes, bytes]] = []
    for name in sorted(tensors, key=lambda k: k.encode("utf-8")):
        a = np.asarray(tensors[name])
        dt = _tfproto.dtype_to_enum(a.dtype)
        raw = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<") if a.dtype.byteorder == ">" else a.dtype).tobytes()
        entry = _tfproto.BundleEntryProto(
            dtype=dt,
            shape=_tfproto.shape_to_proto(list(a.shape)),
            shard_id=0,
            offset=len(data),
            size=len(raw),
            crc32c=mask_crc(_crc(raw)),
        )
        data += raw
        entries.append((name.encode("utf-8"), entry.SerializeToString()))
    num_shards = 2 if _live_num_shards(prefix) == 1 else 1
    header = _tfproto.BundleHeaderProto(num_shards=num_shards, endianness=0, version=_tfproto.VersionDef(producer=1))
    table = build_table([(b"", header.SerializeToString()), *entries])
    files = [(data_path(prefix, 0, num_shards), bytes(data))]
    files += [(data_path(prefix, k, num_shards), b"") for k in range(1, num_shards)]
    _atomic_files.write_files([*files, *extra_files, (index_path(prefix), table)])  # the index last: its rename is the switch
    for path, of in data_files(prefix):  # the old checkpoint's data, no longer read by any index
        if of != num_shards:
            with contextlib.suppress(OSError):
                os.remove(path)


# -- reading ---------------------------------------------------------------------------


def _block_entries(block: bytes, base: int) -> Iterator[tuple[bytes, bytes]]:
    (n_restarts,) = struct.unpack_from("<I", block, len(block) - 4)
    limit = len(block) - 4 - 4 * n_restarts
    if limit < 0:
        raise _Corrupt(f"block at byte {base} has {n_restarts} restarts, more than it can hold")
    pos = 0
    key = b""
    while pos < limit:
        shared, pos = _get_varint(block, pos, limit)
        non_shared, pos = _get_varint(block, pos, limit)
        vlen, pos = _get_varint(block, pos, limit)
        if shared > len(key) or pos + non_shared + vlen > limit:
            raise _Corrupt(f"malformed entry at byte {base + pos}")
        key = key[:shared] + block[pos:pos + non_shared]
        pos += non_shared
        yield key, block[pos:pos + vlen]
        pos += vlen


def read_table(buf: bytes) -> Iterator[tuple[bytes, bytes]]:
    """The entries of an SSTable, in order.

    Raises:
      _Corrupt: the bytes are not a valid uncompressed table (why and where).
    """
    if len(buf) < _FOOTER_LEN:
        raise _Corrupt(f"the file holds {len(buf)} bytes, fewer than a table footer ({_FOOTER_LEN})")
    footer = buf[len(buf) - _FOOTER_LEN:len(buf) - 8]
    (magic,) = struct.unpack_from("<Q", buf, len(buf) - 8)
    if magic != _MAGIC:
        raise _Corrupt(f"bad magic number at byte {len(buf) - 8}")
    _, pos = _get_varint(footer, 0, len(footer))  # the meta-index block: unused
    _, pos = _get_varint(footer, pos, len(footer))
    index, base, _ = _read_block_at(buf, footer[pos:])
    prev: bytes | None = None
    for _, handle in _block_entries(index, base):
        block, bbase, _ = _read_block_at(buf, handle)
        for key, value in _block_entries(block, bbase):
            if prev is not None and key <= prev:
                raise _Corrupt(f"keys out of order in the block at byte {bbase}")
            prev = key
            yield key, value


def _read_block_at(buf: bytes, handle: bytes) -> tuple[bytes, int, int]:
    offset, pos = _get_varint(handle, 0, len(handle))
    size, _ = _get_varint(handle, pos, len(handle))
    end = offset + size
    if end + _BLOCK_TRAILER > len(buf) - _FOOTER_LEN or size < 4:
        raise _Corrupt(f"a block handle points outside the file (offset {offset}, size {size})")
    block = buf[offset:end]
    kind = buf[end]
    (stored,) = struct.unpack_from("<I", buf, end + 1)
    if mask_crc(_crc(block + bytes([kind]))) != stored:
        raise _Corrupt(f"checksum mismatch in the block at byte {offset}")
    if kind != 0:
        raise _Corrupt(f"the block at byte {offset} is compressed (type {kind}); jaxsess reads uncompressed tables")
    return block, offset, end


_DT_STRING = 7


class BundleReader:
    """Reads a V2 checkpoint, as TF's ``BundleReader`` / ``CheckpointReader``.

    Args:
      prefix: the checkpoint prefix (``<prefix>.index`` must exist).

    Raises:
      NotFoundError: ``<prefix>.index`` does not exist.
      DataLossError: the index is not a valid tensor bundle (names the file
        and the offset or the entry).
    """

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        for _ in range(3):  # a save over this prefix may switch the index between our two reads
            self._read_index()
            if all(os.path.exists(data_path(prefix, k, self.num_shards)) for k in range(self.num_shards)):
                break

    def _read_index(self) -> None:
        prefix = self.prefix
        path = index_path(prefix)
        try:
            with open(path, "rb") as f:
                buf = f.read()
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find any "
                                       f"matching files for {prefix}") from None
        except OSError as e:
            raise errors.DataLossError(None, None, f"Unable to read checkpoint index {path}: {e}") from None
        entries: dict[str, Any] = {}
        header = None
        try:
            for key, value in read_table(buf):
                if key == b"":
                    header = _tfproto.BundleHeaderProto.FromString(value)
                    continue
                name = key.decode("utf-8")
                entries[name] = _tfproto.BundleEntryProto.FromString(value)
        except _Corrupt as e:
            raise self._loss(path, str(e)) from None
        except (UnicodeDecodeError, struct.error) as e:
            raise self._loss(path, f"{type(e).__name__}: {e}") from None
        except Exception as e:  # protobuf's DecodeError (its class differs between backends)
            raise self._loss(path, f"a malformed entry: {type(e).__name__}: {e}") from None
        if header is None:
            raise self._loss(path, "no bundle header entry")
        if header.endianness != 0:
            raise self._loss(path, "a big-endian bundle")
        self.num_shards = max(int(header.num_shards), 1)
        self._entries = entries
        self._data: dict[int, bytes] = {}

    @staticmethod
    def _loss(path: str, why: str) -> errors.OpError:
        return errors.DataLossError(None, None, f"Unable to read checkpoint {path}: not a valid TF V2 checkpoint ({why}).")

    def keys(self) -> list[str]:
        """The tensor names, sorted."""
        return sorted(self._entries)

    def has_tensor(self, name: str) -> bool:
        """Whether the checkpoint holds ``name``."""
        return name in self._entries

    def dtype(self, name: str) -> Any:
        """The :class:`~jaxsess._core.dtypes.DType` of ``name``.

        Raises:
          NotFoundError: no such tensor. DataLossError: a dtype jaxsess does not read.
        """
        entry = self._entry(name)
        try:
            return _tfproto.enum_to_dtype(entry.dtype)
        except TypeError as e:
            raise self._loss(index_path(self.prefix), f"tensor {name!r}: {e}") from None

    def shape(self, name: str) -> list[int]:
        """The shape of ``name``.

        Raises:
          NotFoundError: no such tensor. DataLossError: an unknown or negative dimension.
        """
        entry = self._entry(name)
        try:
            dims = _tfproto.proto_to_dims(entry.shape)
        except ValueError as e:
            dims = None
            why = str(e)
        else:
            why = "an unknown shape"
        if dims is None or any(d is None for d in dims):
            raise self._loss(index_path(self.prefix), f"tensor {name!r}: {why}")
        return [int(d) for d in dims if d is not None]

    def _entry(self, name: str) -> Any:
        entry = self._entries.get(name)
        if entry is None:
            raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint {self.prefix}")
        return entry

    def _shard(self, shard: int) -> bytes:
        buf = self._data.get(shard)
        if buf is None:
            path = data_path(self.prefix, shard, self.num_shards)
            try:
                with open(path, "rb") as f:
                    buf = f.read()
            except OSError as e:
                raise errors.DataLossError(None, None, f"Unable to read checkpoint data file {path}: {e}") from None
            self._data[shard] = buf
        return buf

    def _get_strings(self, name: str, entry: Any) -> np.ndarray:
        """A string tensor (``object`` array of ``bytes``): TF's bundle writes the elements' lengths as
        varints, a 4-byte checksum of them, then the bytes (TF2 checkpoints hold their object graph
        so, ``_CHECKPOINTABLE_OBJECT_GRAPH``)."""
        shape = self.shape(name)
        path = data_path(self.prefix, entry.shard_id, self.num_shards)
        buf = self._shard(entry.shard_id)
        if entry.offset < 0 or entry.offset + entry.size > len(buf):
            raise self._loss(path, f"tensor {name!r}: {entry.size} bytes at byte {entry.offset} outside the file")
        raw = buf[entry.offset:entry.offset + entry.size]
        n = int(np.prod(shape, dtype=np.int64)) if shape else 1
        pos, lengths = 0, []
        try:
            for _ in range(n):
                length, pos = _get_varint(raw, pos, len(raw))
                lengths.append(length)
        except _Corrupt as e:
            raise self._loss(path, f"tensor {name!r}: {e}") from None
        checksum = raw[pos:pos + 4]
        pos += 4  # the lengths' checksum
        if pos + sum(lengths) != len(raw):
            raise self._loss(path, f"tensor {name!r}: string lengths do not fit its {len(raw)} bytes")
        # TF's checksum: over the lengths as little-endian uint32 (uint64 past 4 GiB), then the rest
        sized = b"".join(struct.pack("<I" if n_ <= 0xFFFFFFFF else "<Q", n_) for n_ in lengths)
        if mask_crc(_crc(sized + checksum + raw[pos:])) != entry.crc32c:
            raise self._loss(path, f"checksum mismatch for tensor {name!r} at byte {entry.offset}")
        out = np.empty(n, dtype=object)
        for i, length in enumerate(lengths):
            out[i] = bytes(raw[pos:pos + length])
            pos += length
        return out.reshape(shape)

    def get_tensor(self, name: str) -> np.ndarray:
        """The value of ``name`` as a new NumPy array (checksum verified).

        Raises:
          NotFoundError: no such tensor.
          DataLossError: sliced (partitioned) tensors, a checksum mismatch,
            bytes outside the data file, a size that does not fit the
            shape (names the tensor and the file).
        """
        entry = self._entry(name)
        if entry.dtype == _DT_STRING:
            return self._get_strings(name, entry)
        dt = self.dtype(name)
        shape = self.shape(name)
        if entry.slices:
            raise self._loss(index_path(self.prefix), f"tensor {name!r} is partitioned (slices); not supported")
        if not 0 <= entry.shard_id < self.num_shards:
            raise self._loss(index_path(self.prefix), f"tensor {name!r} names shard {entry.shard_id}")
        path = data_path(self.prefix, entry.shard_id, self.num_shards)
        buf = self._shard(entry.shard_id)
        n = int(np.prod(shape, dtype=np.int64)) if shape else 1
        want = n * dt.np_dtype.itemsize
        if entry.size != want or entry.offset < 0 or entry.offset + entry.size > len(buf):
            raise self._loss(
                path, f"tensor {name!r}: {entry.size} bytes at byte {entry.offset}; shape {shape} of {dt.name} "
                f"needs {want} within a file of {len(buf)} bytes"
            )
        raw = buf[entry.offset:entry.offset + entry.size]
        if mask_crc(_crc(raw)) != entry.crc32c:
            raise self._loss(path, f"checksum mismatch for tensor {name!r} at byte {entry.offset}")
        npd = dt.np_dtype
        return np.frombuffer(raw, dtype=npd.newbyteorder("<")).astype(npd).reshape(shape)
