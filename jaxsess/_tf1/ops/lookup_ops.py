"""Lookup tables, as TF1's ``tf.lookup`` / ``tf.contrib.lookup``.

A table (``StaticHashTable``, ``StaticVocabularyTable``, ``IdTableWithHashBuckets``)
is a session resource on the host, as TF's: its initializer op (in
``GraphKeys.TABLE_INITIALIZERS``, run by ``tf.tables_initializer()``) fills it in the
running session, and its ops (``lookup``, ``size``, ``export``) are host ops (see
:mod:`jaxsess._core.graph._host`) that read it: their results (string or numeric) are fed
to the device plan. A new session starts with every table uninitialised; a lookup
before the initializer ran raises ``FailedPreconditionError`` ("Table not
initialized.", as TF). Out-of-vocabulary buckets hash with farmhash
``Fingerprint64`` (:mod:`jaxsess._tf1._fingerprint`): the same ids as TF.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, constant, constant_value, convert_to_tensor
from jaxsess._core.graph._graph import GraphKeys, Operation, Tensor, add_to_collection, get_default_graph
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1._fingerprint import to_hash_bucket_fast
from jaxsess._tf1.ops._args import op_scope
from jaxsess._tf1.ops.math_ops import cast
from jaxsess._tf1.ops.sparse_tensor import SparseTensor

__all__ = [
    "LookupInterface", "KeyValueTensorInitializer", "TextFileIndex", "TextFileInitializer", "StaticHashTable",
    "HashTable", "StaticVocabularyTable", "IdTableWithHashBuckets", "FastHashSpec", "index_table_from_tensor",
    "index_table_from_file", "index_to_string_table_from_tensor", "index_to_string_table_from_file",
]


# -- host ops ----------------------------------------------------------------------------------------


def _no_outputs(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return []


def _find_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(specs[0][0]), attrs["table"].value_dtype)]


def _size_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([]), _dtypes.int64)]


def _export_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    t = attrs["table"]
    return [(TensorShape([None]), t.key_dtype), (TensorShape([None]), t.value_dtype)]


def _register(op_type: str, infer: Any, num_outputs: int = 1) -> None:
    def impl(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
        raise AssertionError(f"{op_type} runs on the host")
    register_op(op_type, num_outputs=num_outputs, infer=infer, lowering=device_lowering, default_name=op_type,
                stateful=True)(impl)


_register("LookupTableImportV2", _no_outputs, 0)
_register("InitializeTableFromTextFileV2", _no_outputs, 0)
_register("LookupTableFindV2", _find_infer)
_register("LookupTableSizeV2", _size_infer)
_register("LookupTableExportV2", _export_infer, 2)


def _key(v: Any, d: _dtypes.DType) -> Any:
    return bytes(v) if d == _dtypes.string else v.item() if isinstance(v, np.generic) else v


def _store(ctx: Any, table: Any, keys: list[Any], values: list[Any]) -> None:
    ctx.resources[table] = dict(zip(keys, values))


@register_host("LookupTableImportV2", always=True, infer=_no_outputs)
def _host_import(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    table = op.attrs["table"]
    keys = np.asarray(inputs[0]).reshape(-1)
    values = np.asarray(inputs[1]).reshape(-1)
    if keys.shape != values.shape:
        raise errors.InvalidArgumentError(
            op.name, op, f"Expected shape {list(np.shape(inputs[0]))} for value, got {list(np.shape(inputs[1]))}")
    _store(ctx, table, [_key(k, table.key_dtype) for k in keys], [_key(v, table.value_dtype) for v in values])
    return ()


def _text_field(op: Operation, line: bytes, line_no: int, index: int, d: _dtypes.DType, offset: int,
                delimiter: bytes, filename: str) -> Any:
    if index == TextFileIndex.LINE_NUMBER:
        return line_no + offset
    if index == TextFileIndex.WHOLE_LINE:
        field = line
    else:
        cols = line.split(delimiter) if delimiter else line.split()
        if index >= len(cols):
            raise errors.InvalidArgumentError(
                op.name, op, f"Invalid number of columns in {filename} line {line_no} ({line.decode('utf-8', 'replace')})"
                f" : expected {index + 1} got {len(cols)}")
        field = cols[index]
    if d == _dtypes.string:
        return field
    try:
        return float(field) if d.is_floating else int(field)
    except ValueError:
        raise errors.InvalidArgumentError(
            op.name, op, f"Field {field.decode('utf-8', 'replace')} in line {line_no} is not a valid "
            f"{d.name}.") from None


@register_host("InitializeTableFromTextFileV2", always=True, infer=_no_outputs)
def _host_init_from_file(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    table = op.attrs["table"]
    filename = bytes(np.asarray(inputs[0], dtype=object).reshape(-1)[0]).decode("utf-8")
    vocab_size = op.attrs["vocab_size"]
    delimiter = op.attrs["delimiter"].encode("utf-8")
    try:
        with open(filename, "rb") as f:
            lines = f.read().split(b"\n")
    except OSError as e:
        raise errors.NotFoundError(op.name, op, f"{filename}; {e.strerror}") from None
    if lines and lines[-1] == b"":
        lines.pop()
    if vocab_size >= 0:
        if len(lines) < vocab_size:
            raise errors.InvalidArgumentError(
                op.name, op, f"Invalid vocab_size in {filename}: expected {vocab_size} but got {len(lines)}")
        lines = lines[:vocab_size]
    keys, values = [], []
    for n, line in enumerate(lines):
        line = line.rstrip(b"\r")
        keys.append(_text_field(op, line, n, op.attrs["key_index"], table.key_dtype, 0, delimiter, filename))
        values.append(_text_field(op, line, n, op.attrs["value_index"], table.value_dtype,
                                  op.attrs["value_index_offset"], delimiter, filename))
    _store(ctx, table, keys, values)
    return ()


def _contents(ctx: Any, op: Operation) -> dict[Any, Any]:
    contents = ctx.resources.get(op.attrs["table"])
    if contents is None:
        raise errors.FailedPreconditionError(op.name, op, "Table not initialized.")
    return contents


def _np_dtype(d: _dtypes.DType) -> Any:
    return object if d == _dtypes.string else d.np_dtype


@register_host("LookupTableFindV2", always=True, infer=_find_infer)
def _host_find(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    table = op.attrs["table"]
    contents = _contents(ctx, op)
    keys = np.asarray(inputs[0])
    default = np.asarray(inputs[1]).reshape(-1)[0]
    out = np.empty(keys.shape, dtype=_np_dtype(table.value_dtype))
    missing = []
    for idx, k in np.ndenumerate(keys):
        v = contents.get(_key(k, table.key_dtype), _MISSING)
        if v is _MISSING:
            missing.append(idx)
            v = default
        out[idx] = v
    buckets = op.attrs["num_oov_buckets"]
    if buckets and missing:
        texts = [keys[i] if table.key_dtype == _dtypes.string else str(keys[i]).encode() for i in missing]
        ids = to_hash_bucket_fast(np.asarray(texts + [b""], dtype=object)[:-1], buckets) + len(contents)
        for i, b in zip(missing, ids):
            out[i] = b
    return (out,)


_MISSING = object()


@register_host("LookupTableSizeV2", always=True, infer=_size_infer)
def _host_size(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    # TF 2's LookupTableSizeV2 does not check initialisation: an uninitialised table has size 0
    return (np.int64(len(ctx.resources.get(op.attrs["table"], ())) + op.attrs["num_oov_buckets"]),)


@register_host("LookupTableExportV2", always=True, infer=_export_infer)
def _host_export(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    table = op.attrs["table"]
    contents = _contents(ctx, op)
    keys = np.empty(len(contents), dtype=_np_dtype(table.key_dtype))
    values = np.empty(len(contents), dtype=_np_dtype(table.value_dtype))
    for n, (k, v) in enumerate(contents.items()):
        keys[n] = k
        values[n] = v
    return (keys, values)


# -- initializers ------------------------------------------------------------------------------------


class TextFileIndex:
    """Special column indices of :class:`TextFileInitializer`, as ``tf.lookup.TextFileIndex``."""

    WHOLE_LINE = -2
    LINE_NUMBER = -1


class _TableInitializer:
    def __init__(self, key_dtype: _dtypes.DType, value_dtype: _dtypes.DType) -> None:
        self._key_dtype = key_dtype
        self._value_dtype = value_dtype

    @property
    def key_dtype(self) -> _dtypes.DType:
        """The keys' dtype."""
        return self._key_dtype

    @property
    def value_dtype(self) -> _dtypes.DType:
        """The values' dtype."""
        return self._value_dtype

    def initialize(self, table: Any) -> Operation:  # pragma: no cover - abstract
        raise NotImplementedError


class KeyValueTensorInitializer(_TableInitializer):
    """A table's contents from a keys tensor and a values tensor of the same length,
    as ``tf.lookup.KeyValueTensorInitializer``.

    Args:
      keys, values: 1-D tensors (or lists, arrays) of equal length.
      key_dtype, value_dtype: their dtypes (default: inferred; integer keys become ``int64``
        as in TF when ``key_dtype`` is not given).
    """

    def __init__(self, keys: Any, values: Any, key_dtype: Any = None, value_dtype: Any = None,
                 name: str | None = None) -> None:
        with op_scope(name, "key_value_init", []) as scope:
            self._keys = convert_to_tensor(keys, dtype=key_dtype, name="keys")
            self._values = convert_to_tensor(values, dtype=value_dtype, name="values")
        self._scope = scope
        super().__init__(self._keys.dtype, self._values.dtype)

    def initialize(self, table: Any) -> Operation:
        """The op that fills ``table`` (added to ``GraphKeys.TABLE_INITIALIZERS``).

        Raises:
          TypeError: the dtypes differ from the table's.
        """
        _check_dtypes(table, self)
        with op_scope(self._scope, "key_value_init", [self._keys]):
            op = apply_op("LookupTableImportV2", (self._keys, self._values), {"table": table},
                          name="LookupTableImportV2")
        add_to_collection(GraphKeys.TABLE_INITIALIZERS, op)
        return op


class TextFileInitializer(_TableInitializer):
    """A table's contents from a text file, one entry per line, as
    ``tf.lookup.TextFileInitializer``.

    Args:
      filename: a scalar string tensor or Python string; the file is read when the
        initializer runs.
      key_dtype, value_dtype: the dtypes (integer or string columns).
      key_index, value_index: a column (split at ``delimiter``), or
        ``TextFileIndex.WHOLE_LINE`` (the line) or ``TextFileIndex.LINE_NUMBER`` (from 0;
        plus ``value_index_offset`` for values).
      vocab_size: read only the first ``vocab_size`` lines (the file must have them).
      delimiter: the column separator (default tab).

    Raises (at run time):
      NotFoundError: no such file. InvalidArgumentError: too few lines or columns, a field
      that is not a number of an integer dtype.
    """

    def __init__(self, filename: Any, key_dtype: Any, key_index: int, value_dtype: Any, value_index: int,
                 vocab_size: int | None = None, delimiter: str = "\t", name: str | None = None,
                 value_index_offset: int = 0) -> None:
        kd, vd = _dtypes.as_dtype(key_dtype), _dtypes.as_dtype(value_dtype)
        if key_index == TextFileIndex.LINE_NUMBER and kd != _dtypes.int64:
            raise ValueError(f"Signature mismatch. Keys must be dtype int64, got {kd.name}.")
        if value_index == TextFileIndex.LINE_NUMBER and vd != _dtypes.int64:
            raise ValueError(f"Signature mismatch. Values must be dtype int64, got {vd.name}.")
        if (key_index == TextFileIndex.WHOLE_LINE and kd != _dtypes.string and not kd.is_integer) or \
                key_index < TextFileIndex.WHOLE_LINE or value_index < TextFileIndex.WHOLE_LINE:
            raise ValueError(f"Invalid key_index {key_index} or value_index {value_index} for dtypes "
                             f"{kd.name}, {vd.name}.")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"Invalid vocab_size {vocab_size}.")
        super().__init__(kd, vd)
        self._filename = filename
        self._key_index = int(key_index)
        self._value_index = int(value_index)
        self._vocab_size = vocab_size
        self._delimiter = str(delimiter)
        self._offset = int(value_index_offset)
        self._name = name

    def initialize(self, table: Any) -> Operation:
        """The op that fills ``table`` (added to ``GraphKeys.TABLE_INITIALIZERS``)."""
        _check_dtypes(table, self)
        with op_scope(self._name, "text_file_init", []):
            filename = convert_to_tensor(self._filename, dtype=_dtypes.string)
            attrs = {"table": table, "key_index": self._key_index, "value_index": self._value_index,
                     "vocab_size": -1 if self._vocab_size is None else int(self._vocab_size),
                     "delimiter": self._delimiter, "value_index_offset": self._offset}
            op = apply_op("InitializeTableFromTextFileV2", (filename,), attrs, name="InitializeTableFromTextFileV2")
        add_to_collection(GraphKeys.TABLE_INITIALIZERS, op)
        return op


def _check_dtypes(table: Any, init: _TableInitializer) -> None:
    if init.key_dtype != table.key_dtype or init.value_dtype != table.value_dtype:
        raise TypeError(f"Signature mismatch. Keys must be dtype {table.key_dtype.name}, got {init.key_dtype.name}; "
                        f"values must be dtype {table.value_dtype.name}, got {init.value_dtype.name}.")


# -- tables ------------------------------------------------------------------------------------------


class LookupInterface:
    """A lookup table, as ``tf.lookup`` tables: ``lookup``, ``size``.

    Attributes:
      key_dtype, value_dtype: the dtypes of keys and values.
      name: the table's name.
    """

    _num_oov_buckets = 0

    def __init__(self, key_dtype: _dtypes.DType, value_dtype: _dtypes.DType, name: str) -> None:
        self._key_dtype = key_dtype
        self._value_dtype = value_dtype
        self._name = name

    @property
    def key_dtype(self) -> _dtypes.DType:
        return self._key_dtype

    @property
    def value_dtype(self) -> _dtypes.DType:
        return self._value_dtype

    @property
    def name(self) -> str:
        return self._name

    def _keys_arg(self, keys: Any) -> Any:
        k = convert_to_tensor(keys, dtype_hint=self._lookup_key_dtype())
        if k.dtype != self._lookup_key_dtype():
            if k.dtype.is_integer and self._lookup_key_dtype().is_integer:
                return cast(k, self._lookup_key_dtype())
            raise TypeError(f"{self._name}: dtype of argument `keys` must be {self._lookup_key_dtype()!r}, "
                            f"received: {k.dtype!r} ({k.name}).")
        return k

    def _lookup_key_dtype(self) -> _dtypes.DType:
        return self._key_dtype

    def _resource(self) -> LookupInterface:
        return self  # the table whose contents the host ops read

    def _find(self, keys: Any, default: Any, name: str | None) -> Any:
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, self._find(keys.values, default, name), keys.dense_shape)
        with op_scope(name, f"{self._name}_Lookup", []):
            k = self._keys_arg(keys)
            if isinstance(default, Tensor) and default.graph is not get_default_graph():
                # a lookup in a tf.data function (its own graph): the table's constant default is copied in
                c = constant_value(default)
                if c is not None:
                    default = constant(c, dtype=default.dtype)
            return apply_op("LookupTableFindV2", (k, default),
                            {"table": self._resource(), "num_oov_buckets": self._num_oov_buckets},
                            name="LookupTableFindV2")

    def size(self, name: str | None = None) -> Any:
        """The number of entries (plus the out-of-vocabulary buckets), an ``int64`` scalar
        (0 entries before the initializer ran, as TF 2's kernel)."""
        with op_scope(name, f"{self._name}_Size", []):
            return apply_op("LookupTableSizeV2", (), {"table": self._resource(), "num_oov_buckets": self._num_oov_buckets},
                            name="LookupTableSizeV2")


class StaticHashTable(LookupInterface):
    """An immutable table, filled once by its initializer, as ``tf.lookup.StaticHashTable``
    (``tf.contrib.lookup.HashTable``).

    Args:
      initializer: a :class:`KeyValueTensorInitializer` or :class:`TextFileInitializer`.
      default_value: the value of keys not in the table (a scalar of the value dtype).

    Attributes:
      initializer: the op that fills the table (in ``GraphKeys.TABLE_INITIALIZERS``).
      default_value: the default, a scalar tensor.
    """

    def __init__(self, initializer: _TableInitializer, default_value: Any, name: str | None = None,
                 experimental_is_anonymous: bool = False) -> None:
        super().__init__(initializer.key_dtype, initializer.value_dtype, name or "hash_table")
        self._default_value = convert_to_tensor(default_value, dtype=initializer.value_dtype)
        if self._default_value.shape.ndims not in (None, 0):
            raise ValueError(f"default_value must be a scalar, got shape {self._default_value.shape}.")
        self._init_op = initializer.initialize(self)

    @property
    def initializer(self) -> Operation:
        return self._init_op

    @property
    def default_value(self) -> Any:
        return self._default_value

    def lookup(self, keys: Any, name: str | None = None) -> Any:
        """The values of ``keys`` (``default_value`` for missing keys), as TF's ``lookup``.

        Args:
          keys: a tensor (any shape) or ``SparseTensor`` of the key dtype (integer keys
            are cast to the table's integer dtype).

        Returns:
          A tensor of ``keys``' shape and the value dtype (a ``SparseTensor`` for one).

        Raises:
          TypeError: keys of another dtype.
          FailedPreconditionError (at run time): the table is not initialised.
        """
        return self._find(keys, self._default_value, name)

    def export(self, name: str | None = None) -> tuple[Any, Any]:
        """The table's keys and values, two 1-D tensors (in insertion order; TF: hash order)."""
        with op_scope(name, f"{self._name}_lookup_table_export_values", []):
            keys, values = apply_op("LookupTableExportV2", (), {"table": self, "num_oov_buckets": 0},
                                    name="LookupTableExportV2")
        return keys, values


HashTable = StaticHashTable


class FastHashSpec:
    """The hash of out-of-vocabulary buckets: farmhash ``Fingerprint64``, as
    ``tf.contrib.lookup.FastHashSpec`` (the only one jaxsess has)."""

    hasher = "fasthash"
    key = None


class StaticVocabularyTable(LookupInterface):
    """A vocabulary table with ``num_oov_buckets`` out-of-vocabulary ids, as
    ``tf.lookup.StaticVocabularyTable`` (and ``tf.contrib.lookup.IdTableWithHashBuckets``).

    A key in the vocabulary maps to its ``int64`` id; another key to
    ``vocab_size + Fingerprint64(key) % num_oov_buckets`` (integer keys are hashed as their
    decimal strings), TF's ids.

    Args:
      initializer: keys to ``int64`` ids (``None`` for :class:`IdTableWithHashBuckets`: every
        key hashes).
      num_oov_buckets: the number of buckets (``>= 1`` here; ``IdTableWithHashBuckets``
        allows 0, missing keys then get ``-1``).
      lookup_key_dtype: the dtype of looked-up keys (an integer dtype for integer keys).

    Raises:
      ValueError: ``num_oov_buckets < 1``, or ids that are not ``int64``.
    """

    def __init__(self, initializer: _TableInitializer | None, num_oov_buckets: int, lookup_key_dtype: Any = None,
                 name: str | None = None, experimental_is_anonymous: bool = False) -> None:
        self._check_buckets(num_oov_buckets)
        key_dtype = initializer.key_dtype if initializer is not None else _dtypes.as_dtype(lookup_key_dtype or "string")
        if initializer is not None and initializer.value_dtype != _dtypes.int64:
            raise TypeError(f"Invalid value dtype, expected int64 but got {initializer.value_dtype.name}.")
        super().__init__(key_dtype, _dtypes.int64, name or "hash_table")
        self._num_oov_buckets = int(num_oov_buckets)
        self._lookup_dtype = _dtypes.as_dtype(lookup_key_dtype) if lookup_key_dtype is not None else key_dtype
        self._default = convert_to_tensor(np.int64(-1))
        self._init_op = initializer.initialize(self) if initializer is not None else None
        if initializer is None:
            self._empty_init()

    def _check_buckets(self, num_oov_buckets: int) -> None:
        if num_oov_buckets < 1:
            raise ValueError(f"num_oov_buckets must be > 0; use StaticHashTable, got {num_oov_buckets}.")

    def _empty_init(self) -> None:
        empty = KeyValueTensorInitializer(np.zeros([0], _np_dtype(self._key_dtype)), np.zeros([0], np.int64),
                                          key_dtype=self._key_dtype, value_dtype=_dtypes.int64)
        self._init_op = empty.initialize(self)

    def _lookup_key_dtype(self) -> _dtypes.DType:
        return self._lookup_dtype

    @property
    def initializer(self) -> Operation | None:
        return self._init_op

    def lookup(self, keys: Any, name: str | None = None) -> Any:
        """The ``int64`` ids of ``keys`` (a tensor of any shape or a ``SparseTensor``).

        Raises:
          TypeError: keys of another dtype.
          FailedPreconditionError (at run time): the table is not initialised.
        """
        return self._find(keys, self._default, name)


class IdTableWithHashBuckets(StaticVocabularyTable):
    """``table``'s ids, and hash buckets for other keys, as
    ``tf.contrib.lookup.IdTableWithHashBuckets`` (``table`` ``None``: every key hashes).

    Args:
      table: a :class:`StaticHashTable` of keys to ``int64`` ids, or ``None``.
      num_oov_buckets: the buckets (0: missing keys get the table's default).
      hasher_spec: :class:`FastHashSpec` only.
      key_dtype: the looked-up keys' dtype (default: the table's).
    """

    def __init__(self, table: StaticHashTable | None, num_oov_buckets: int, hasher_spec: Any = FastHashSpec,
                 key_dtype: Any = None, name: str | None = None) -> None:
        if hasher_spec is not FastHashSpec and not isinstance(hasher_spec, FastHashSpec):
            raise NotImplementedError("IdTableWithHashBuckets supports hasher_spec=FastHashSpec only.")
        if num_oov_buckets < 0:
            raise ValueError(f"oov_buckets must be >= 0, got {num_oov_buckets}.")
        kd = _dtypes.as_dtype(key_dtype) if key_dtype is not None else \
            (table.key_dtype if table is not None else _dtypes.string)
        LookupInterface.__init__(self, table.key_dtype if table is not None else kd, _dtypes.int64,
                                 name or (table.name if table is not None else "hash_bucket"))
        self._num_oov_buckets = int(num_oov_buckets)
        self._lookup_dtype = kd
        self._table = table
        if table is not None:
            self._default = table.default_value
            self._init_op = table.initializer
        else:
            self._default = convert_to_tensor(np.int64(-1))
            self._empty_init()

    def _resource(self) -> LookupInterface:
        return self._table if self._table is not None else self

    def lookup(self, keys: Any, name: str | None = None) -> Any:
        """The ``int64`` ids of ``keys``: the table's, or a hash bucket after them."""
        return self._find(keys, self._default, name)


# -- vocabulary tables -------------------------------------------------------------------------------


def _vocab_tensor(vocabulary_list: Any, dtype: Any, fn: str) -> Any:
    d = _dtypes.as_dtype(dtype) if dtype is not None else None
    vocab = convert_to_tensor(vocabulary_list, dtype=d if d is not None and not d.is_integer else None)
    if vocab.shape.ndims != 1 or vocab.shape.as_list()[0] is None:
        raise ValueError(f"{fn}: vocabulary_list must be a 1-D tensor of length known when the graph is built, "
                         f"got shape {vocab.shape} ({vocab.name}).")
    return vocab


def _ids(n: int) -> np.ndarray:
    return np.arange(n, dtype=np.int64)


def _with_buckets(table: StaticHashTable, num_oov_buckets: int, hasher_spec: Any, key_dtype: Any) -> LookupInterface:
    if num_oov_buckets:
        return IdTableWithHashBuckets(table, num_oov_buckets, hasher_spec, key_dtype=key_dtype)
    return table


def index_table_from_tensor(vocabulary_list: Any, num_oov_buckets: int = 0, default_value: int = -1,
                            hasher_spec: Any = FastHashSpec, dtype: Any = _dtypes.string,
                            name: str | None = None) -> LookupInterface:
    """A table mapping each word of ``vocabulary_list`` to its position (``int64``), as
    ``tf.contrib.lookup.index_table_from_tensor`` (TF's ``lookup_ops``).

    Args:
      vocabulary_list: a 1-D string (or integer, with an integer ``dtype``) tensor or list
        of known length.
      num_oov_buckets: other keys get ``vocab_size + Fingerprint64(key) % num_oov_buckets``;
        with 0, ``default_value``.
      dtype: the keys' dtype (integer keys are stored as ``int64``).

    Returns:
      A table (its initializer in ``GraphKeys.TABLE_INITIALIZERS``).

    Raises:
      ValueError: ``vocabulary_list`` of unknown length or not 1-D; ``num_oov_buckets < 0``.
    """
    if num_oov_buckets < 0:
        raise ValueError(f"num_oov_buckets must be greater or equal than 0, got {num_oov_buckets}.")
    with op_scope(name, "string_to_index", []):
        vocab = _vocab_tensor(vocabulary_list, dtype, "index_table_from_tensor")
        kd = _dtypes.as_dtype(dtype)
        if kd.is_integer:
            vocab = cast(vocab, _dtypes.int64)
        elif vocab.dtype != kd:
            raise ValueError(f"Invalid dtype: expected {kd.name}, got {vocab.dtype.name} ({vocab.name}).")
        init = KeyValueTensorInitializer(vocab, _ids(vocab.shape.as_list()[0]), value_dtype=_dtypes.int64,
                                         name="table_init")
        table = StaticHashTable(init, np.int64(default_value))
        return _with_buckets(table, num_oov_buckets, hasher_spec, kd if kd.is_integer else None)


def index_table_from_file(vocabulary_file: Any = None, num_oov_buckets: int = 0, vocab_size: int | None = None,
                          default_value: int = -1, hasher_spec: Any = FastHashSpec, key_dtype: Any = _dtypes.string,
                          name: str | None = None, key_column_index: int = TextFileIndex.WHOLE_LINE,
                          value_column_index: int = TextFileIndex.LINE_NUMBER,
                          delimiter: str = "\t") -> LookupInterface:
    """A table mapping each line (or column ``key_column_index``) of ``vocabulary_file`` to
    its line number (``int64``), as ``tf.contrib.lookup.index_table_from_file``; the file is
    read when the initializer runs. Other keys as in :func:`index_table_from_tensor`.

    Raises:
      ValueError: no ``vocabulary_file``; ``num_oov_buckets < 0``; ``vocab_size <= 0``.
    """
    if vocabulary_file is None or (isinstance(vocabulary_file, str) and not vocabulary_file):
        raise ValueError("vocabulary_file must be specified and must not be empty.")
    if num_oov_buckets < 0:
        raise ValueError(f"num_oov_buckets must be greater or equal than 0, got {num_oov_buckets}.")
    kd = _dtypes.as_dtype(key_dtype)
    with op_scope(name, "string_to_index", []):
        init = TextFileInitializer(vocabulary_file, _dtypes.int64 if kd.is_integer else kd, key_column_index,
                                   _dtypes.int64, value_column_index, vocab_size=vocab_size, delimiter=delimiter)
        table = StaticHashTable(init, np.int64(default_value))
        return _with_buckets(table, num_oov_buckets, hasher_spec, kd if kd.is_integer else None)


def index_to_string_table_from_tensor(vocabulary_list: Any, default_value: str = "UNK",
                                      name: str | None = None) -> StaticHashTable:
    """A table mapping ``int64`` ids to the words of ``vocabulary_list`` (``default_value``
    for other ids), as ``tf.contrib.lookup.index_to_string_table_from_tensor``.

    Raises:
      ValueError: ``vocabulary_list`` of unknown length or not 1-D.
    """
    with op_scope(name, "index_to_string", []):
        vocab = _vocab_tensor(vocabulary_list, _dtypes.string, "index_to_string_table_from_tensor")
        init = KeyValueTensorInitializer(_ids(vocab.shape.as_list()[0]), vocab, key_dtype=_dtypes.int64,
                                         name="table_init")
        return StaticHashTable(init, default_value)


def index_to_string_table_from_file(vocabulary_file: Any, vocab_size: int | None = None,
                                    default_value: str = "UNK", name: str | None = None,
                                    key_column_index: int = TextFileIndex.LINE_NUMBER,
                                    value_column_index: int = TextFileIndex.WHOLE_LINE,
                                    delimiter: str = "\t") -> StaticHashTable:
    """A table mapping line numbers (``int64``) to the lines (or column
    ``value_column_index``) of ``vocabulary_file``, as
    ``tf.contrib.lookup.index_to_string_table_from_file``.

    Raises:
      ValueError: no ``vocabulary_file``; ``vocab_size <= 0``.
    """
    if vocabulary_file is None or (isinstance(vocabulary_file, str) and not vocabulary_file):
        raise ValueError("vocabulary_file must be specified and must not be empty.")
    with op_scope(name, "index_to_string", []):
        init = TextFileInitializer(vocabulary_file, _dtypes.int64, key_column_index, _dtypes.string,
                                   value_column_index, vocab_size=vocab_size, delimiter=delimiter)
        return StaticHashTable(init, default_value)
