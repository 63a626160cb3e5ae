"""File datasets, as ``tf.compat.v1.data.TFRecordDataset``, ``TextLineDataset`` and
``FixedLengthRecordDataset``:
their elements are scalar strings (``bytes``) read on the host, file after
file, when the iterator pulls them (see :mod:`jaxsess.python_io` for the
TFRecord framing and compression)."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator as PyIterator, Sequence
from typing import Any

import numpy as np

from jaxsess import dtypes as _dtypes, errors
from jaxsess.data._dataset import Dataset, Element, RunContext, _component
from jaxsess.graph._graph import Tensor
from jaxsess.graph._shape import TensorShape
from jaxsess.ops._core import constant
from jaxsess.ops.parsing_ops import decode_csv
from jaxsess.python_io import compression_type_string, tf_record_iterator

__all__ = ["TFRecordDataset", "TextLineDataset", "CsvDataset", "FixedLengthRecordDataset"]


def _filenames(value: Any, what: str) -> tuple[Any, list[Tensor]]:
    comp, d, shape = _component(value, "filenames")
    if d != _dtypes.string:
        raise TypeError(f"{what}: `filenames` must be a string or strings, got {d.name}.")
    if shape.ndims is not None and shape.ndims > 1:
        raise ValueError(f"{what}: `filenames` must be a scalar or a vector, got shape {shape}.")
    return comp, [comp] if isinstance(comp, Tensor) else []


def _names(run: RunContext, comp: Any) -> list[str]:
    arr = np.asarray(run.captured[comp] if isinstance(comp, Tensor) else comp, dtype=object).reshape(-1)
    return [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in arr]


def _scalar(b: bytes) -> np.ndarray:
    out = np.empty((), dtype=object)
    out[()] = b
    return out


class TFRecordDataset(Dataset):
    """The records of TFRecord files, in order, as ``tf.compat.v1.data.TFRecordDataset``.

    Args:
      filenames: a file name, a list of them, or a string tensor (a
        placeholder is read when an initializable iterator is initialized).
      compression_type: ``''``/``None``, ``'GZIP'`` or ``'ZLIB'``.
      buffer_size, num_parallel_reads, name: accepted for compatibility.

    Raises:
      ValueError: an unknown compression type.
      NotFoundError, DataLossError (at ``get_next``): a missing file, a
        corrupted record.
    """

    def __init__(self, filenames: Any, compression_type: str | None = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: str | None = None) -> None:
        self._files, captured = _filenames(filenames, "TFRecordDataset")
        self._compression = compression_type_string(compression_type)
        super().__init__(None, [_dtypes.string], [TensorShape([])], captured)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        for path in _names(run, self._files):
            for record in tf_record_iterator(path, self._compression):
                yield [_scalar(record)]


class TextLineDataset(Dataset):
    """The lines of text files (without their ``\\n`` or ``\\r\\n``), as
    ``tf.compat.v1.data.TextLineDataset``.

    Args:
      filenames: as :class:`TFRecordDataset`.
      compression_type: ``''``/``None``, ``'GZIP'`` or ``'ZLIB'``.

    Raises:
      NotFoundError (at ``get_next``): a missing file.
    """

    def __init__(self, filenames: Any, compression_type: str | None = None, buffer_size: Any = None,
                 num_parallel_reads: Any = None, name: str | None = None) -> None:
        self._files, captured = _filenames(filenames, "TextLineDataset")
        self._compression = compression_type_string(compression_type)
        self._skip_header = False  # CsvDataset(header=True): the first line of each file is skipped
        super().__init__(None, [_dtypes.string], [TensorShape([])], captured)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        for path in _names(run, self._files):
            for line in _read_all(path, self._compression).splitlines()[1 if self._skip_header else 0:]:
                yield [_scalar(line)]


class CsvDataset(Dataset):
    """The records of CSV files, one tuple of scalars per line, as
    ``tf.data.experimental.CsvDataset`` (lines parsed as ``tf.io.decode_csv``).

    Args:
      filenames: as :class:`TFRecordDataset`.
      record_defaults: one entry per (selected) column: a dtype (a required
        column) or a default value (``[0.0]``, a one-element tensor).
      header: skip the first line of each file.
      field_delim, use_quote_delim, na_value, select_cols: as ``decode_csv``.
      compression_type: ``''``/``None``, ``'GZIP'`` or ``'ZLIB'``.

    Raises:
      InvalidArgumentError (at ``get_next``): a line that does not parse (TF's
        messages, see ``decode_csv``).
    """

    def __init__(self, filenames: Any, record_defaults: Sequence[Any], compression_type: str | None = None,
                 buffer_size: Any = None, header: bool = False, field_delim: str = ",",
                 use_quote_delim: bool = True, na_value: str = "", select_cols: Sequence[int] | None = None,
                 exclude_cols: Sequence[int] | None = None, name: str | None = None) -> None:
        if exclude_cols is not None:
            raise NotImplementedError("CsvDataset: jaxsess takes select_cols, not exclude_cols.")
        lines = TextLineDataset(filenames, compression_type)
        lines._skip_header = bool(header)
        defaults = [constant([], d) if isinstance(d, _dtypes.DType) else d for d in
                    (_dtypes.as_dtype(r) if isinstance(r, _dtypes.DType | type) else r for r in record_defaults)]

        def parse(line: Any) -> tuple[Any, ...]:
            return tuple(decode_csv(line, defaults, field_delim, use_quote_delim, na_value=na_value,
                                    select_cols=select_cols))

        self._parsed = lines.map(parse)
        super().__init__(self._parsed._structure, self._parsed._types, self._parsed._shapes,
                         self._parsed._captured)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        return self._parsed._iter(run)


def _read_all(path: str, compression: str) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
    if compression == "GZIP":
        return gzip.decompress(data)
    if compression == "ZLIB":
        return zlib.decompress(data)
    return data


class FixedLengthRecordDataset(Dataset):
    """The fixed-size records of binary files (as CIFAR-10's), as
    ``tf.compat.v1.data.FixedLengthRecordDataset``: each file's ``header_bytes`` and
    ``footer_bytes`` are skipped, its body cut into ``record_bytes`` strings.

    Args:
      filenames: as :class:`TFRecordDataset`.
      record_bytes, header_bytes, footer_bytes: sizes in bytes (Python ints).
      compression_type: ``''``/``None``, ``'GZIP'`` or ``'ZLIB'``.

    Raises:
      ValueError: ``record_bytes < 1`` or a negative header/footer size.
      NotFoundError (at ``get_next``): a missing file.
      InvalidArgumentError (at ``get_next``): a body that is not a whole number of
        records (TF's message).
    """

    def __init__(self, filenames: Any, record_bytes: int, header_bytes: int | None = None,
                 footer_bytes: int | None = None, buffer_size: Any = None, compression_type: str | None = None,
                 num_parallel_reads: Any = None, name: str | None = None) -> None:
        self._files, captured = _filenames(filenames, "FixedLengthRecordDataset")
        self._record, self._header, self._footer = int(record_bytes), int(header_bytes or 0), int(footer_bytes or 0)
        if self._record < 1:
            raise ValueError(f"FixedLengthRecordDataset: record_bytes must be positive, got {record_bytes}.")
        if self._header < 0 or self._footer < 0:
            raise ValueError("FixedLengthRecordDataset: header_bytes and footer_bytes must be >= 0.")
        self._compression = compression_type_string(compression_type)
        super().__init__(None, [_dtypes.string], [TensorShape([])], captured)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        for path in _names(run, self._files):
            data = _read_all(path, self._compression)
            end = len(data) - self._footer
            if (end - self._header) % self._record:
                raise errors.InvalidArgumentError(
                    None, None, f"Excluding the header ({self._header} bytes) and footer ({self._footer} bytes), "
                                f"input file \"{path}\" has body length {end - self._header} bytes, which is not an "
                                f"exact multiple of the record length ({self._record} bytes).")
            for pos in range(self._header, end - self._record + 1, self._record):
                yield [_scalar(data[pos:pos + self._record])]
