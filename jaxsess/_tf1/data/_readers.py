"""File datasets, as ``tf.compat.v1.data.TFRecordDataset``, ``TextLineDataset`` and
``FixedLengthRecordDataset``:
their elements are scalar strings (``bytes``) read on the host, file after
file, when the iterator pulls them (see :mod:`jaxsess._tf1.python_io` for the
TFRecord framing and compression)."""

from __future__ import annotations

import collections
import csv
import glob
import gzip
import io
import zlib
from collections.abc import Iterator as PyIterator, Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, constant
from jaxsess._core.graph._graph import Operation, Tensor
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.data._dataset import Dataset, Element, RunContext, _component
from jaxsess._tf1.ops.parsing_ops import decode_csv
from jaxsess._tf1.python_io import (
    TFRecordOptions,
    TFRecordWriter as PyTFRecordWriter,
    compression_type_string,
    tf_record_iterator,
)

__all__ = ["TFRecordDataset", "TextLineDataset", "CsvDataset", "FixedLengthRecordDataset", "TFRecordWriter",
           "make_csv_dataset"]


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
        specs = [_dtypes.as_dtype(r) if isinstance(r, _dtypes.DType | type) else r for r in record_defaults]

        def parse(line: Any) -> tuple[Any, ...]:
            # a dtype's empty default is a constant of the function's own graph (a string one is not
            # copied in from outside: a one-shot iterator could not read it)
            defaults = [constant([], d) if isinstance(d, _dtypes.DType) else d for d in specs]
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


_CSV_TYPES = (_dtypes.int32, _dtypes.int64, _dtypes.float32, _dtypes.float64, _dtypes.string)


def _csv_type(text: str, na_value: str, prev: _dtypes.DType | None) -> _dtypes.DType | None:
    """The least permissive of int32, int64, float32, float64, string that
    ``text`` and the column's values so far fit (``_infer_type`` of TF's readers)."""
    if text in ("", na_value):
        return prev

    def fits(i: int) -> bool:
        try:
            if i == 0:
                return bool(np.int32(text) == np.int64(text))
            if i == 1:
                np.int64(text)
                return True
            if i in (2, 3):
                with np.errstate(over="ignore"):
                    return bool((np.float32 if i == 2 else np.float64)(text) < np.inf)
        except (ValueError, OverflowError):
            return False
        return True

    for i, d in enumerate(_CSV_TYPES):
        if fits(i) and (prev is None or prev in _CSV_TYPES[:i + 1]):
            return d
    return prev


def _csv_rows(path: str, delim: str, quote: bool, compression: str) -> PyIterator[list[str]]:
    text = _read_all(path, compression).decode("utf-8")
    yield from csv.reader(io.StringIO(text), delimiter=delim, quoting=csv.QUOTE_MINIMAL if quote else csv.QUOTE_NONE)


def make_csv_dataset(file_pattern: str | Sequence[str], batch_size: int, column_names: Sequence[str] | None = None,
                     column_defaults: Sequence[Any] | None = None, label_name: str | None = None,
                     select_columns: Sequence[str | int] | None = None, field_delim: str = ",",
                     use_quote_delim: bool = True, na_value: str = "", header: bool = True,
                     num_epochs: int | None = None, shuffle: bool = True, shuffle_buffer_size: int = 10000,
                     shuffle_seed: int | None = None, prefetch_buffer_size: Any = None,
                     num_parallel_reads: Any = None, sloppy: bool = False, num_rows_for_inference: int = 100,
                     compression_type: str | None = None, ignore_errors: bool = False,
                     encoding: str = "utf-8") -> Dataset:
    """Batches of CSV records as ``(features, label)`` or ``features``: an
    ordered dict of ``[batch]`` columns by name, as
    ``tf.data.experimental.make_csv_dataset``.

    Column names come from the header (or ``column_names``); dtypes from
    ``column_defaults`` or inferred from the first ``num_rows_for_inference``
    rows (the least of int32, int64, float32, float64, string that fits). The
    pipeline is TF's: the sorted file names (shuffled, when ``shuffle``, with
    ``shuffle_seed``), their records one file after another, ``shuffle``,
    ``repeat(num_epochs)`` (``None``: forever, and then every batch full with
    a static batch dimension), ``batch``, and the dict.

    Raises:
      ValueError: no file matches, no names (``header=False`` and no
        ``column_names``), duplicate names, a row of the wrong width while
        inferring types, an unknown ``select_columns`` entry or
        ``label_name``, or ``column_defaults`` of another length than the
        selected columns.
    """
    patterns = [file_pattern] if isinstance(file_pattern, str) else list(file_pattern)
    if not patterns:
        raise ValueError("Argument `file_pattern` should not be empty.")
    files = [n for p in patterns for n in glob.glob(p)]
    if not files:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    files = sorted(files)
    compression = compression_type_string(compression_type)
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is provided.")
        heads = [next(_csv_rows(f, field_delim, use_quote_delim, compression), None) for f in files]
        if heads[0] is None:
            raise ValueError(f"Failed when reading the header line of {files[0]}. Is it an empty file?")
        for f, h in zip(files[1:], heads[1:]):
            if h != heads[0]:
                raise ValueError("All input CSV files should have the same column names in the header row. "
                                 f"File {f} has different column names.")
        column_names = heads[0]
    names = list(column_names)
    if len(names) != len(set(names)):
        dup = {n for n in names if names.count(n) > 1}
        raise ValueError(f"Either `column_names` argument or CSV header row contains duplicate column names: {dup}.")
    cols: list[int] | None = None
    if select_columns is not None:
        index = {n: i for i, n in enumerate(names)}
        cols = []
        for v in select_columns:
            if isinstance(v, int):
                if not 0 <= v < len(names):
                    raise ValueError(f"Column index {v} specified in `select_columns` should be > 0  and <= "
                                     f"{len(names)}, which is the number of columns.")
                cols.append(v)
            elif v in index:
                cols.append(index[v])
            else:
                raise ValueError(f"Column {v} specified in `select_columns` must be of one of the columns: {names}.")
        cols = sorted(cols)
    if column_defaults is None:
        picked = cols if cols is not None else list(range(len(names)))
        kinds: list[_dtypes.DType | None] = [None] * len(picked)
        row_no = 0
        for f in files:
            rows = _csv_rows(f, field_delim, use_quote_delim, compression)
            if header:
                next(rows, None)
            for line, row in enumerate(rows, 2 if header else 1):
                if row_no >= num_rows_for_inference:
                    break
                if len(row) != len(names):
                    raise ValueError(f"Problem inferring types: CSV row {line} has {len(row)} number of fields. "
                                     f"Expected: {len(names)}.")
                kinds = [_csv_type(row[c], na_value, k) for c, k in zip(picked, kinds)]
                row_no += 1
        # made inside the interleave function (constants of its own graph), as TF's
        defaults: list[Any] = [np.array([0 if k != _dtypes.string else b""], (k or _dtypes.string).np_dtype
                                        if k not in (None, _dtypes.string) else object) for k in kinds]
    else:
        defaults = [_dtypes.as_dtype(d) if isinstance(d, _dtypes.DType | type) else d for d in column_defaults]
    if cols is not None and len(defaults) != len(cols):
        raise ValueError("If specified, `column_defaults` and `select_columns` must have the same length: "
                         f"`column_defaults` has length {len(defaults)}, `select_columns` has length {len(cols)}.")
    if cols is not None and len(names) > len(cols):
        names = [names[i] for i in cols]
    if label_name is not None and label_name not in names:
        raise ValueError(f"`label_name` provided must be one of the columns: {names}. Received: {label_name}.")

    ds: Dataset = Dataset.from_tensor_slices(files)
    if shuffle:
        ds = ds.shuffle(len(files), shuffle_seed)

    def records(name: Any) -> Dataset:
        out: Dataset = CsvDataset(name, defaults, compression_type=compression_type, header=header,
                                  field_delim=field_delim, use_quote_delim=use_quote_delim, na_value=na_value,
                                  select_cols=cols)
        return out.ignore_errors() if ignore_errors else out

    ds = ds.interleave(records, cycle_length=1)
    if shuffle:
        ds = ds.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        ds = ds.repeat(num_epochs)
    ds = ds.batch(batch_size, drop_remainder=num_epochs is None)

    def to_dict(*columns: Any) -> Any:
        features = collections.OrderedDict(zip(names, columns))
        if label_name is None:
            return features
        label = features.pop(label_name)
        return features, label

    return ds.map(to_dict)


def _write_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return []


@register_op("DatasetToTFRecord", num_outputs=0, infer=_write_infer, lowering=device_lowering,
             default_name="DatasetToTFRecord")
def _write_device(*inputs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("DatasetToTFRecord runs on the host")


@register_host("DatasetToTFRecord", always=True, infer=_write_infer)
def _host_write(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    ds, path = op.attrs["dataset"], op.attrs["filename"]
    options = TFRecordOptions(op.attrs["compression"] or None)
    with PyTFRecordWriter(path, options) as writer:
        for (record,) in ds._iter(ds._run_context(dict(zip(ds._captured, inputs)), ctx)):
            writer.write(record.item() if isinstance(record, np.ndarray) else record)
    return ()


class TFRecordWriter:
    """Writes a dataset of string scalars to a TFRecord file, as
    ``tf.data.experimental.TFRecordWriter``.

    Args:
      filename: the file to write (a Python string).
      compression_type: ``''``/``None``, ``'GZIP'`` or ``'ZLIB'``.
    """

    def __init__(self, filename: str, compression_type: str | None = None) -> None:
        self._filename = filename
        self._compression = compression_type_string(compression_type)

    def write(self, dataset: Dataset) -> Operation:
        """An op writing every element of ``dataset`` (each run writes the file anew).

        Raises:
          TypeError: ``dataset`` is not of string scalars.
        """
        if dataset._types != [_dtypes.string] or dataset._shapes[0].ndims not in (0, None):
            raise TypeError("Invalid `dataset.` Expected a dataset whose elements are scalar string tensors, got "
                            f"types {dataset.output_types} and shapes {dataset.output_shapes}.")
        return apply_op("DatasetToTFRecord", list(dataset._captured), {  # type: ignore[no-any-return]
            "dataset": dataset, "filename": self._filename, "compression": self._compression})
