"""Feature columns, as ``tf.compat.v1.feature_column``: ``numeric_column``, the
categorical columns (``categorical_column_with_vocabulary_list``, ``_with_identity``,
``_with_hash_bucket``, ``bucketized_column``, ``crossed_column``), the dense wrappers
``indicator_column`` and ``embedding_column``, ``input_layer`` (the dense input of a
model built from a features dict) and ``linear_model``, with the semantics of TF1's
``tensorflow/python/feature_column/feature_column.py``.

Features are dense tensors or NumPy arrays (``[batch]`` or ``[batch, n]``), not
``SparseTensor`` values. A categorical column's ids are a dense int64 ``[batch, n]``
tensor where ``-1`` marks a missing value (``''`` for strings, ``-1`` for integers,
a value out of vocabulary without ``num_oov_buckets``/``default_value``); TF1 drops
those values from its sparse ids, and every use here ignores them the same way.
String lookups and hashes run on the host (strings are host values), with TF's
ids (farmhash ``Fingerprint64``); see :mod:`jaxsess._tf1.ops.feature_column_ops`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._graph import Tensor, add_to_collection, get_collection
from jaxsess._tf1 import gfile as gfile
from jaxsess._tf1.ops import feature_column_ops as _fc_ops
from jaxsess._tf1.ops.array_ops import concat, expand_dims, ones_like, reshape, shape as shape_of, zeros_like
from jaxsess._tf1.ops.gather_ops import gather, one_hot
from jaxsess._tf1.ops.init_ops import TruncatedNormal, Zeros
from jaxsess._tf1.ops.math_ops import (
    add_n,
    cast,
    equal,
    greater,
    greater_equal,
    less,
    logical_and,
    matmul,
    maximum,
    reduce_sum,
    sqrt,
    where,
)
from jaxsess._tf1.ops.parsing_ops import FixedLenFeature, VarLenFeature
from jaxsess._tf1.ops.variable_scope import get_variable, variable_scope

__all__ = [
    "NumericColumn", "VocabularyListCategoricalColumn", "IdentityCategoricalColumn", "HashedCategoricalColumn",
    "BucketizedColumn", "CrossedColumn", "IndicatorColumn", "EmbeddingColumn",
    "numeric_column", "categorical_column_with_vocabulary_list", "categorical_column_with_identity",
    "categorical_column_with_hash_bucket", "bucketized_column", "crossed_column", "indicator_column",
    "embedding_column", "weighted_categorical_column", "input_layer", "linear_model", "WeightedCategoricalColumn",
    "VocabularyFileCategoricalColumn", "categorical_column_with_vocabulary_file", "make_parse_example_spec",
    "SharedEmbeddingColumn", "shared_embedding_columns",
]


def _raw_feature(features: Mapping[str, Any], key: str) -> Any:
    """``features[key]`` as a tensor of rank >= 2 (a batch of scalars becomes ``[batch, 1]``)."""
    if key not in features:
        raise ValueError(f"Feature {key} is not in features dictionary.")
    value = features[key]
    if not isinstance(value, Tensor):
        arr = np.asarray(value)
        arr = arr[:, None] if arr.ndim == 1 else arr
        value = convert_to_tensor(arr.astype(object) if arr.dtype.kind == "U" else arr,
                                  dtype=_dtypes.string if arr.dtype.kind in "UOS" else None)
    if value.shape.ndims == 1 and value.dtype != _dtypes.string:  # strings: the host ops expand them
        value = expand_dims(value, -1)
    return value


def _check_key(key: Any) -> None:
    if not isinstance(key, str) or not key:
        raise ValueError(f"key must be a non-empty string. Given: {key!r}")


def _check_dtype(column_name: str, column_is_string: bool, tensor: Any) -> None:
    if (tensor.dtype == _dtypes.string) != column_is_string:
        raise ValueError(f"Column dtype and SparseTensors dtype must be compatible. key: {column_name}, "
                         f"column dtype: {'string' if column_is_string else 'int64'}, tensor dtype: "
                         f"{tensor.dtype.name}")


class NumericColumn(NamedTuple):
    """A real-valued feature, as TF1's ``NumericColumn`` (made by :func:`numeric_column`).

    ``key`` names the feature, ``shape`` its per-example shape, ``dtype`` its
    type (the column's output is ``float32``), ``normalizer_fn`` a function
    applied to the feature tensor before the cast.
    """

    key: str
    shape: tuple[int, ...]
    default_value: Any
    dtype: _dtypes.DType
    normalizer_fn: Callable[[Any], Any] | None

    @property
    def name(self) -> str:
        """The column's name: its ``key``."""
        return self.key

    @property
    def variable_shape(self) -> tuple[int, ...]:
        """The per-example shape of the column's dense output."""
        return self.shape

    def _dense_tensor(self, features: Mapping[str, Any]) -> Any:
        if self.key not in features:
            raise ValueError(f"Feature {self.key} is not in features dictionary.")
        tensor = features[self.key]
        if not isinstance(tensor, Tensor):
            from_np = np.asarray(tensor)
            tensor = cast(from_np, self.dtype) if from_np.dtype.kind in "fiub" else tensor
        if tensor.shape.ndims == 1:  # a batch of scalars becomes [batch, 1], as TF1
            tensor = expand_dims(tensor, -1)
        if self.normalizer_fn is not None:
            tensor = self.normalizer_fn(tensor)
        return cast(tensor, _dtypes.float32)


def numeric_column(key: str, shape: int | Sequence[int] = (1,), default_value: Any = None,
                   dtype: Any = _dtypes.float32,
                   normalizer_fn: Callable[[Any], Any] | None = None) -> NumericColumn:
    """A real-valued column, as ``tf.compat.v1.feature_column.numeric_column``.

    Args:
      key: the feature's key in the features dict.
      shape: the per-example shape (an int or a sequence of positive ints).
      default_value: kept (jaxsess has no parsing specs to use it).
      dtype: a float or integer dtype.
      normalizer_fn: ``fn(tensor) -> tensor`` applied before the cast to ``float32``.

    Raises:
      ValueError: ``key`` not a string, a non-positive dimension, a dtype that
        does not convert to float, a ``normalizer_fn`` that is not callable.
      TypeError: a ``default_value`` incompatible with ``dtype``.
    """
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Got: type {type(key)}. Given key: {key}.")
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    for d in dims:
        if not isinstance(d, int | np.integer):
            raise TypeError(f"shape dimensions must be integer. shape: {dims}, key: {key}")
        if d < 1:
            raise ValueError(f"shape dimensions must be greater than 0. shape: {dims}, key: {key}")
    dt = _dtypes.as_dtype(dtype)
    if not (dt.is_floating or dt.is_integer):
        raise ValueError(f"dtype must be convertible to float. dtype: {dt}, key: {key}")
    if default_value is not None:
        try:
            np.broadcast_to(np.asarray(default_value, dtype=dt.as_numpy_dtype), dims)
        except (TypeError, ValueError):
            raise TypeError(f"default_value must be compatible with dtype. default_value: {default_value}, "
                            f"dtype: {dt}, key: {key}") from None
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    return NumericColumn(key, tuple(int(d) for d in dims), default_value, dt, normalizer_fn)




class VocabularyListCategoricalColumn(NamedTuple):
    """Ids of a feature's values in a vocabulary, as TF1's ``VocabularyListCategoricalColumn``."""

    key: str
    vocabulary_list: tuple[Any, ...]
    dtype: _dtypes.DType
    default_value: int
    num_oov_buckets: int

    @property
    def name(self) -> str:
        """The column's name: its ``key``."""
        return self.key

    @property
    def num_buckets(self) -> int:
        """The number of ids: the vocabulary's size plus ``num_oov_buckets``."""
        return len(self.vocabulary_list) + self.num_oov_buckets

    def _ids(self, features: Mapping[str, Any]) -> Any:
        x = _raw_feature(features, self.key)
        _check_dtype(self.key, self.dtype == _dtypes.string, x)
        return _fc_ops.categorical_ids(x, "vocabulary", vocabulary=self.vocabulary_list, default_value=self.default_value,
                                       num_oov_buckets=self.num_oov_buckets)


class VocabularyFileCategoricalColumn(NamedTuple):
    """Ids of a feature's values in a vocabulary file (one value a line), as TF1's
    ``VocabularyFileCategoricalColumn``; the file is read when the ids are built."""

    key: str
    vocabulary_file: str
    vocabulary_size: int
    num_oov_buckets: int
    dtype: _dtypes.DType
    default_value: int
    file_format: str | None = None

    @property
    def name(self) -> str:
        """The column's name: its ``key``."""
        return self.key

    @property
    def num_buckets(self) -> int:
        """The number of ids: ``vocabulary_size + num_oov_buckets``."""
        return self.vocabulary_size + self.num_oov_buckets

    def _ids(self, features: Mapping[str, Any]) -> Any:
        x = _raw_feature(features, self.key)
        _check_dtype(self.key, self.dtype == _dtypes.string, x)
        with gfile.GFile(self.vocabulary_file, "rb") as f:
            lines = [line.rstrip(b"\n") for line in f.read().splitlines(keepends=True)][:self.vocabulary_size]
        if len(lines) < self.vocabulary_size:
            raise ValueError(f"Invalid vocab_size {self.vocabulary_size} > the {len(lines)} lines of "
                             f"{self.vocabulary_file} (column {self.key}).")
        vocab = tuple(v.decode("utf-8") for v in lines) if self.dtype == _dtypes.string else \
            tuple(int(v) for v in lines)
        return _fc_ops.categorical_ids(x, "vocabulary", vocabulary=vocab, default_value=self.default_value,
                                       num_oov_buckets=self.num_oov_buckets)


class IdentityCategoricalColumn(NamedTuple):
    """Integer features used as their own ids, as TF1's ``IdentityCategoricalColumn``."""

    key: str
    number_buckets: int
    default_value: int | None

    @property
    def name(self) -> str:
        """The column's name: its ``key``."""
        return self.key

    @property
    def num_buckets(self) -> int:
        """The number of ids."""
        return self.number_buckets

    def _ids(self, features: Mapping[str, Any]) -> Any:
        x = _raw_feature(features, self.key)
        _check_dtype(self.key, False, x)
        x = cast(x, _dtypes.int64)
        valid = logical_and(greater_equal(x, np.int64(0)), less(x, np.int64(self.number_buckets)))
        fallback = np.int64(-1 if self.default_value is None else self.default_value)
        ids = where(valid, x, zeros_like(x) + fallback)
        return where(equal(x, np.int64(-1)), x, ids)


class HashedCategoricalColumn(NamedTuple):
    """Ids by hashing a feature's values, as TF1's ``HashedCategoricalColumn``."""

    key: str
    hash_bucket_size: int
    dtype: _dtypes.DType

    @property
    def name(self) -> str:
        """The column's name: its ``key``."""
        return self.key

    @property
    def num_buckets(self) -> int:
        """The number of ids: ``hash_bucket_size``."""
        return self.hash_bucket_size

    def _ids(self, features: Mapping[str, Any]) -> Any:
        x = _raw_feature(features, self.key)
        _check_dtype(self.key, self.dtype == _dtypes.string, x)
        return _fc_ops.categorical_ids(x, "hash", num_buckets=self.hash_bucket_size)


class BucketizedColumn(NamedTuple):
    """A numeric column discretized by ``boundaries``, as TF1's ``BucketizedColumn``:
    dense (one-hot, ``[batch, source size * (len(boundaries) + 1)]``) and categorical."""

    source_column: NumericColumn
    boundaries: tuple[float, ...]

    @property
    def name(self) -> str:
        """``<source name>_bucketized``."""
        return f"{self.source_column.name}_bucketized"

    @property
    def num_buckets(self) -> int:
        """``source size * (len(boundaries) + 1)``."""
        return int(np.prod(self.source_column.shape)) * (len(self.boundaries) + 1)

    @property
    def variable_shape(self) -> tuple[int, ...]:
        """The per-example shape of the dense (one-hot) output."""
        return (*self.source_column.shape, len(self.boundaries) + 1)

    def _buckets(self, features: Mapping[str, Any]) -> Any:
        source = self.source_column._dense_tensor(features)
        size = int(np.prod(self.source_column.shape))
        return cast(_fc_ops.bucketize(reshape(source, (shape_of(source)[0], size)), self.boundaries), _dtypes.int64)

    def _dense_tensor(self, features: Mapping[str, Any]) -> Any:
        return one_hot(self._buckets(features), len(self.boundaries) + 1, dtype=_dtypes.float32)

    def _ids(self, features: Mapping[str, Any]) -> Any:
        buckets = self._buckets(features)
        size = int(np.prod(self.source_column.shape))
        offsets = np.arange(size, dtype=np.int64) * (len(self.boundaries) + 1)
        return buckets + offsets


class CrossedColumn(NamedTuple):
    """Hashed crosses of features and categorical columns, as TF1's ``CrossedColumn``."""

    keys: tuple[Any, ...]
    hash_bucket_size: int
    hash_key: int | None

    @property
    def name(self) -> str:
        """The sorted leaf names joined by ``'_X_'``."""
        return "_X_".join(sorted(k if isinstance(k, str) else k.name for k in self.keys))

    @property
    def num_buckets(self) -> int:
        """The number of ids: ``hash_bucket_size``."""
        return self.hash_bucket_size

    def _leaf_keys(self) -> list[Any]:
        leaves: list[Any] = []
        for k in self.keys:
            leaves.extend(k._leaf_keys() if isinstance(k, CrossedColumn) else [k])
        return leaves

    def _ids(self, features: Mapping[str, Any]) -> Any:
        # As TF's sparse_cross_hashed: the leaf columns' ids (sparse in TF) come first,
        # then the raw features (dense in TF, crossed as they are, '' and -1 included).
        ids, raw = [], []
        for k in self._leaf_keys():
            if isinstance(k, str):
                x = _raw_feature(features, k)
                raw.append(x if x.dtype == _dtypes.string else cast(x, _dtypes.int64))
            else:
                ids.append(k._ids(features))
        return _fc_ops.cross_hashed_ids(ids + raw, self.hash_bucket_size, self.hash_key, num_ids=len(ids))


class WeightedCategoricalColumn(NamedTuple):
    """A categorical column whose ids carry the float weights of feature
    ``weight_feature_key`` (same shape as the ids), as TF1's ``WeightedCategoricalColumn``."""

    categorical_column: Any
    weight_feature_key: str
    dtype: _dtypes.DType

    @property
    def name(self) -> str:
        """``<categorical name>_weighted_by_<weight_feature_key>``."""
        return f"{self.categorical_column.name}_weighted_by_{self.weight_feature_key}"

    @property
    def num_buckets(self) -> int:
        """The categorical column's number of ids."""
        return int(self.categorical_column.num_buckets)

    def _ids(self, features: Mapping[str, Any]) -> Any:
        return self.categorical_column._ids(features)

    def _weights(self, features: Mapping[str, Any]) -> Any:
        weights = _raw_feature(features, self.weight_feature_key)
        if not weights.dtype.is_floating:
            raise ValueError(f"Weight column {self.weight_feature_key} must be float, got {weights.dtype.name}.")
        return cast(weights, _dtypes.float32)


def _ids_and_weights(column: Any, features: Mapping[str, Any]) -> tuple[Any, Any]:
    """A categorical column's ids ``[batch, n]`` and their weights (``None``: all 1)."""
    weights = column._weights(features) if isinstance(column, WeightedCategoricalColumn) else None
    return column._ids(features), weights


CategoricalColumn = (VocabularyListCategoricalColumn | VocabularyFileCategoricalColumn | IdentityCategoricalColumn
                     | HashedCategoricalColumn | BucketizedColumn | CrossedColumn | WeightedCategoricalColumn)
_CATEGORICAL = (VocabularyListCategoricalColumn, VocabularyFileCategoricalColumn, IdentityCategoricalColumn,
                HashedCategoricalColumn, BucketizedColumn, CrossedColumn, WeightedCategoricalColumn)


def _combine(params: Any, ids: Any, combiner: str, weights: Any = None) -> Any:
    """``[batch, dim]``: the rows of ``params`` at ``ids`` ``[batch, n]`` (times
    their ``weights``) combined over ``n`` (``-1`` ids ignored; rows without ids
    give 0), as TF's ``safe_embedding_lookup_sparse``: the weighted sum divided by
    1, the sum of the weights (``'mean'``) or the root of the sum of their squares (``'sqrtn'``)."""
    present = cast(greater_equal(ids, np.int64(0)), _dtypes.float32)
    w = expand_dims(present if weights is None else present * weights, -1)
    total = reduce_sum(gather(params, maximum(ids, np.int64(0))) * w, axis=1)
    if combiner == "sum":
        return total
    denom = reduce_sum(w, axis=1) if combiner == "mean" else sqrt(reduce_sum(w * w, axis=1))
    return total / where(greater(denom, 0.0), denom, ones_like(denom))


class IndicatorColumn(NamedTuple):
    """A categorical column as multi-hot counts ``[batch, num_buckets]``, as TF1's ``IndicatorColumn``."""

    categorical_column: Any

    @property
    def name(self) -> str:
        """``<categorical name>_indicator``."""
        return f"{self.categorical_column.name}_indicator"

    @property
    def variable_shape(self) -> tuple[int, ...]:
        """``(num_buckets,)``."""
        return (self.categorical_column.num_buckets,)

    def _dense_tensor(self, features: Mapping[str, Any]) -> Any:
        ids, weights = _ids_and_weights(self.categorical_column, features)
        hot = one_hot(ids, self.categorical_column.num_buckets, dtype=_dtypes.float32)
        return reduce_sum(hot if weights is None else hot * expand_dims(weights, -1), axis=1)


class EmbeddingColumn(NamedTuple):
    """A categorical column as combined learned embeddings ``[batch, dimension]``, as TF1's ``EmbeddingColumn``."""

    categorical_column: Any
    dimension: int
    combiner: str
    initializer: Any
    max_norm: float | None
    trainable: bool

    @property
    def name(self) -> str:
        """``<categorical name>_embedding``."""
        return f"{self.categorical_column.name}_embedding"

    @property
    def variable_shape(self) -> tuple[int, ...]:
        """``(dimension,)``."""
        return (self.dimension,)

    def _dense_tensor(self, features: Mapping[str, Any]) -> Any:
        ids, id_weights = _ids_and_weights(self.categorical_column, features)
        weights = get_variable("embedding_weights", shape=(self.categorical_column.num_buckets, self.dimension),
                               dtype=_dtypes.float32, initializer=self.initializer, trainable=self.trainable)
        return _combine(weights, ids, self.combiner, id_weights)


class SharedEmbeddingColumn(NamedTuple):
    """A categorical column as combined embeddings from a table shared with other columns
    (the variable in graph collection ``shared_embedding_collection_name``), as TF1's
    ``_SharedEmbeddingColumn``."""

    categorical_column: Any
    dimension: int
    combiner: str
    initializer: Any
    shared_embedding_collection_name: str
    max_norm: float | None
    trainable: bool

    @property
    def name(self) -> str:
        """``<categorical name>_shared_embedding``."""
        return f"{self.categorical_column.name}_shared_embedding"

    @property
    def _var_scope_name(self) -> str:
        """The variable scope of the shared table: the collection's name (TF1's)."""
        return self.shared_embedding_collection_name

    @property
    def variable_shape(self) -> tuple[int, ...]:
        """``(dimension,)``."""
        return (self.dimension,)

    def _dense_tensor(self, features: Mapping[str, Any]) -> Any:
        ids, id_weights = _ids_and_weights(self.categorical_column, features)
        shape = (self.categorical_column.num_buckets, self.dimension)
        shared = get_collection(self.shared_embedding_collection_name)
        if len(shared) > 1:
            raise ValueError(f"Collection {shared} can only contain one variable. Suggested fix A: Choose a unique "
                             "name for this collection. Suggested fix B: Do not add any variables to this collection. "
                             "The feature_column library already adds a variable under the hood.")
        if shared:
            weights = shared[0]
            if tuple(weights.shape.as_list()) != shape:
                raise ValueError(f"Shared embedding collection {self.shared_embedding_collection_name} contains "
                                 f"variable {weights.name} of unexpected shape {weights.shape}. Expected shape is "
                                 f"{list(shape)}.")
        else:
            weights = get_variable("embedding_weights", shape=shape, dtype=_dtypes.float32,
                                   initializer=self.initializer, trainable=self.trainable)
            add_to_collection(self.shared_embedding_collection_name, weights)
        return _combine(weights, ids, self.combiner, id_weights)


DenseColumn = NumericColumn | BucketizedColumn | IndicatorColumn | EmbeddingColumn | SharedEmbeddingColumn
_DENSE = (NumericColumn, BucketizedColumn, IndicatorColumn, EmbeddingColumn, SharedEmbeddingColumn)


def _check_positive(what: str, value: Any, key: Any) -> None:
    if value is None or int(value) < 1:
        raise ValueError(f"{what} must be at least 1. {what}: {value}, key: {key}.")


def categorical_column_with_vocabulary_list(key: str, vocabulary_list: Sequence[Any], dtype: Any = None,
                                            default_value: int = -1,
                                            num_oov_buckets: int = 0) -> VocabularyListCategoricalColumn:
    """Ids of values in ``vocabulary_list``, as
    ``tf.compat.v1.feature_column.categorical_column_with_vocabulary_list``.

    A value's id is its index in ``vocabulary_list``; other values get
    ``len(vocabulary_list) + Fingerprint64(value) % num_oov_buckets`` when
    ``num_oov_buckets > 0``, else ``default_value`` (``-1``: ignored).

    Raises:
      ValueError: an empty or duplicated vocabulary, a negative
        ``num_oov_buckets``, both ``default_value`` and ``num_oov_buckets``,
        a ``dtype`` that is neither string nor integer or disagrees with the vocabulary.
    """
    _check_key(key)
    vocab = tuple(vocabulary_list)
    if not vocab:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be non-empty, column_name: {key}")
    if len(set(vocab)) != len(vocab):
        raise ValueError(f"Duplicate keys in vocabulary_list {vocabulary_list}, column_name: {key}")
    vocab_is_string = isinstance(vocab[0], str | bytes)
    vocab_dtype = _dtypes.string if vocab_is_string else _dtypes.int64
    if num_oov_buckets < 0:
        raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets}.")
    if default_value != -1 and num_oov_buckets:
        raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
    dt = vocab_dtype if dtype is None else _dtypes.as_dtype(dtype)
    if not (dt == _dtypes.string or dt.is_integer):
        raise ValueError(f"dtype must be string or integer. dtype: {dt}, column_name: {key}")
    if (dt == _dtypes.string) != vocab_is_string:
        raise ValueError(f"dtype {dt} and vocabulary dtype {vocab_dtype} do not match, column_name: {key}")
    return VocabularyListCategoricalColumn(key, vocab, dt, int(default_value), int(num_oov_buckets))


def categorical_column_with_vocabulary_file(key: str, vocabulary_file: str, vocabulary_size: int | None = None,
                                            num_oov_buckets: int = 0, default_value: int | None = None,
                                            dtype: Any = _dtypes.string) -> VocabularyFileCategoricalColumn:
    """Ids of values in the vocabulary file ``vocabulary_file`` (one value a line, the
    first ``vocabulary_size`` lines; default: all, counted now), as
    ``tf.compat.v1.feature_column.categorical_column_with_vocabulary_file``.

    A value's id is its line number; other values get ``vocabulary_size +
    Fingerprint64(value) % num_oov_buckets`` when ``num_oov_buckets > 0``, else
    ``default_value`` (``None``/``-1``: ignored).

    Raises:
      ValueError: no file, a missing file, ``vocabulary_size < 1``, a negative
        ``num_oov_buckets``, both ``default_value`` and ``num_oov_buckets``, a
        ``dtype`` that is neither string nor integer (TF's messages).
    """
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    if vocabulary_size is None:
        if not gfile.exists(vocabulary_file):
            raise ValueError(f"vocabulary_file in {key} does not exist.")
        with gfile.GFile(vocabulary_file, "rb") as f:
            vocabulary_size = len(f.read().splitlines())
    if vocabulary_size < 1:
        raise ValueError(f"Invalid vocabulary_size in {key}.")
    if num_oov_buckets:
        if default_value is not None:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
        if num_oov_buckets < 0:
            raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    dt = _dtypes.as_dtype(dtype)
    if not (dt == _dtypes.string or dt.is_integer):
        raise ValueError(f"dtype must be string or integer. dtype: {dt}, column_name: {key}")
    _check_key(key)
    return VocabularyFileCategoricalColumn(key, str(vocabulary_file), int(vocabulary_size), int(num_oov_buckets or 0),
                                           dt, -1 if default_value is None else int(default_value))


def categorical_column_with_identity(key: str, num_buckets: int,
                                     default_value: int | None = None) -> IdentityCategoricalColumn:
    """Integer features as their own ids in ``[0, num_buckets)``, as
    ``tf.compat.v1.feature_column.categorical_column_with_identity``.

    Values out of range get ``default_value``; without one they are ignored
    (where TF raises ``InvalidArgumentError`` at run time).

    Raises:
      ValueError: ``num_buckets < 1``, a ``default_value`` out of range.
    """
    _check_key(key)
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    if default_value is not None and not 0 <= default_value < num_buckets:
        raise ValueError(f"default_value {default_value} not in range [0, {num_buckets}), column_name {key}")
    return IdentityCategoricalColumn(key, int(num_buckets), default_value)


def categorical_column_with_hash_bucket(key: str, hash_bucket_size: int,
                                        dtype: Any = _dtypes.string) -> HashedCategoricalColumn:
    """Ids ``Fingerprint64(value) % hash_bucket_size`` (integers hashed as their
    decimal string), as ``tf.compat.v1.feature_column.categorical_column_with_hash_bucket``.

    Raises:
      ValueError: ``hash_bucket_size < 1``; a dtype neither string nor integer.
    """
    _check_key(key)
    if hash_bucket_size is None or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: {hash_bucket_size}, key: {key}")
    dt = _dtypes.as_dtype(dtype)
    if not (dt == _dtypes.string or dt.is_integer):
        raise ValueError(f"dtype must be string or integer. dtype: {dt}, column_name: {key}")
    return HashedCategoricalColumn(key, int(hash_bucket_size), dt)


def bucketized_column(source_column: NumericColumn, boundaries: Sequence[float]) -> BucketizedColumn:
    """``source_column`` discretized at the sorted ``boundaries``, as
    ``tf.compat.v1.feature_column.bucketized_column``.

    Raises:
      ValueError: ``source_column`` not a one-dimensional numeric column;
        ``boundaries`` empty or not sorted increasingly.
    """
    if not isinstance(source_column, NumericColumn):
        raise ValueError(f"source_column must be a column generated with numeric_column(). Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError(f"source_column must be one-dimensional column. Given: {source_column}")
    bounds = tuple(float(b) for b in boundaries)
    if not bounds or any(a >= b for a, b in zip(bounds, bounds[1:])):
        raise ValueError("boundaries must be a sorted list.")
    return BucketizedColumn(source_column, bounds)


def crossed_column(keys: Sequence[Any], hash_bucket_size: int, hash_key: int | None = None) -> CrossedColumn:
    """Hashed crosses of feature keys and categorical columns, as
    ``tf.compat.v1.feature_column.crossed_column``: each combination of the rows'
    values (strings hashed with ``Fingerprint64``, ids as they are) chained with
    ``FingerprintCat64`` from ``hash_key``, modulo ``hash_bucket_size``.

    Raises:
      ValueError: fewer than two keys, ``hash_bucket_size < 1``, a key that is
        a hashed column or not a string/categorical column.
    """
    keys = tuple(keys)
    if len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {list(keys)}")
    if hash_bucket_size is None or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    for k in keys:
        if isinstance(k, HashedCategoricalColumn):
            raise ValueError(f"categorical_column_with_hash_bucket is not supported for crossing. Hashing before "
                             f"crossing will increase probability of collision. Instead, use the feature name "
                             f"as a string. Given: {k}")
        if not isinstance(k, str | VocabularyListCategoricalColumn | VocabularyFileCategoricalColumn
                          | IdentityCategoricalColumn | BucketizedColumn | CrossedColumn):
            raise ValueError(f"Unsupported key type. All keys must be either string, or categorical column "
                             f"except HashedCategoricalColumn. Given: {k}")
    return CrossedColumn(keys, int(hash_bucket_size), hash_key)


def weighted_categorical_column(categorical_column: Any, weight_feature_key: str,
                                dtype: Any = _dtypes.float32) -> WeightedCategoricalColumn:
    """``categorical_column`` with per-value weights from the float feature
    ``weight_feature_key`` (the same ``[batch, n]`` shape as its feature), as
    ``tf.compat.v1.feature_column.weighted_categorical_column``; the weights scale
    the column's rows in ``linear_model``, ``embedding_column`` and ``indicator_column``.
    A missing id's weight is ignored (TF needs it to be 0: it drops zero weights
    and fails when they do not line up with the ids).

    Raises:
      ValueError: ``dtype`` not floating; ``categorical_column`` not a categorical column.
    """
    dt = _dtypes.as_dtype(dtype)
    if not dt.is_floating:
        raise ValueError(f"dtype {dt} is not convertible to float.")
    if not isinstance(categorical_column, _CATEGORICAL):
        raise ValueError(f"categorical_column must be a categorical column. Given: {categorical_column}")
    _check_key(weight_feature_key)
    return WeightedCategoricalColumn(categorical_column, weight_feature_key, dt)


def indicator_column(categorical_column: Any) -> IndicatorColumn:
    """Multi-hot counts of a categorical column's ids, as ``tf.compat.v1.feature_column.indicator_column``.

    Raises:
      ValueError: ``categorical_column`` is not a categorical column.
    """
    if not isinstance(categorical_column, _CATEGORICAL):
        raise ValueError(f"categorical_column must be a categorical column. Given: {categorical_column}")
    return IndicatorColumn(categorical_column)


def embedding_column(categorical_column: Any, dimension: int, combiner: str = "mean", initializer: Any = None,
                     ckpt_to_load_from: str | None = None, tensor_name_in_ckpt: str | None = None,
                     max_norm: float | None = None, trainable: bool = True) -> EmbeddingColumn:
    """Learned embeddings ``embedding_weights`` ``[num_buckets, dimension]`` of a
    categorical column's ids combined per example (``'mean'``, ``'sqrtn'`` or
    ``'sum'``), as ``tf.compat.v1.feature_column.embedding_column``; the default
    initializer is ``truncated_normal_initializer(0, 1 / sqrt(dimension))``.

    Raises:
      ValueError: ``dimension < 1``, an unknown combiner, a non-callable
        initializer; ``ckpt_to_load_from``, ``tensor_name_in_ckpt`` or
        ``max_norm`` (not supported by jaxsess).
    """
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner!r}")
    if initializer is not None and not callable(initializer):
        raise ValueError(f"initializer must be callable if specified. Embedding of column_name: "
                         f"{categorical_column.name}")
    for what, value in (("ckpt_to_load_from", ckpt_to_load_from), ("tensor_name_in_ckpt", tensor_name_in_ckpt),
                        ("max_norm", max_norm)):
        if value is not None:
            raise ValueError(f"embedding_column: {what} is not supported by jaxsess.")
    if not isinstance(categorical_column, _CATEGORICAL):
        raise ValueError(f"categorical_column must be a categorical column. Given: {categorical_column}")
    init = initializer if initializer is not None else TruncatedNormal(mean=0.0, stddev=1 / math.sqrt(dimension))
    return EmbeddingColumn(categorical_column, int(dimension), combiner, init, max_norm, bool(trainable))


def shared_embedding_columns(categorical_columns: Sequence[Any], dimension: int, combiner: str = "mean",
                             initializer: Any = None, shared_embedding_collection_name: str | None = None,
                             ckpt_to_load_from: str | None = None, tensor_name_in_ckpt: str | None = None,
                             max_norm: float | None = None, trainable: bool = True,
                             use_safe_embedding_lookup: bool = True) -> list[SharedEmbeddingColumn]:
    """Embedding columns of categorical columns that share one ``[num_buckets, dimension]``
    table, as ``tf.compat.v1.feature_column.shared_embedding_columns`` (the table is
    ``input_layer/<collection name>/embedding_weights``; the collection name defaults to
    the sorted columns' names joined by ``_`` plus ``_shared_embedding``).

    Raises:
      ValueError: ``dimension < 1``, a non-callable ``initializer``, columns of
        different types or numbers of buckets (TF's messages).
      NotImplementedError: ``ckpt_to_load_from``.
    """
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or none of them.")
    if ckpt_to_load_from is not None:
        raise NotImplementedError("shared_embedding_columns(ckpt_to_load_from=...) is not supported by jaxsess.")
    if initializer is not None and not callable(initializer):
        raise ValueError("initializer must be callable if specified.")
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner!r}.")
    init = initializer if initializer is not None else TruncatedNormal(mean=0.0, stddev=1 / math.sqrt(dimension))
    sorted_columns = sorted(categorical_columns, key=lambda c: c.name)

    def base(c: Any) -> Any:
        while isinstance(c, WeightedCategoricalColumn):
            c = c.categorical_column
        return c

    c0 = base(sorted_columns[0])
    if not isinstance(sorted_columns[0], _CATEGORICAL):
        raise ValueError(f"All categorical_columns must be subclasses of _CategoricalColumn. Given: {c0}, of type: "
                         f"{type(c0)}")
    num_buckets = sorted_columns[0].num_buckets
    for c in sorted_columns[1:]:
        if not isinstance(base(c), type(c0)):
            raise ValueError(f"To use shared_embedding_column, all categorical_columns must have the same type, or be "
                             f"weighted_categorical_column or sequence column of the same type. Given column: {c0} of "
                             f"type: {type(c0)} does not match given column: {base(c)} of type: {type(base(c))}")
        if c.num_buckets != num_buckets:
            raise ValueError(f"To use shared_embedding_column, all categorical_columns must have the same number of "
                             f"buckets. ven column: {c0} with buckets: {num_buckets} does  not match column: {c} "
                             f"with buckets: {c.num_buckets}")
    name = shared_embedding_collection_name or "_".join(c.name for c in sorted_columns) + "_shared_embedding"
    return [SharedEmbeddingColumn(c, int(dimension), combiner, init, name, max_norm, bool(trainable))
            for c in categorical_columns]


def _columns(feature_columns: Any) -> list[Any]:
    if isinstance(feature_columns, tuple) and hasattr(feature_columns, "_fields"):
        return [feature_columns]
    columns = list(feature_columns)
    if not columns:
        raise ValueError("feature_columns must not be empty.")
    by_name: dict[str, Any] = {}
    for column in columns:
        other = by_name.setdefault(getattr(column, "name", repr(column)), column)
        if other is not column:
            raise ValueError(f"Duplicate feature column name found for columns: {column} and {other}. This usually "
                             f"means that these columns refer to same base feature. Either one must be discarded "
                             f"or a duplicated but renamed item must be inserted in features dict.")
    return columns


def input_layer(features: Mapping[str, Any], feature_columns: Sequence[DenseColumn] | DenseColumn,
                weight_collections: Any = None, trainable: bool = True, cols_to_vars: Any = None,
                cols_to_output_tensors: dict[Any, Any] | None = None) -> Any:
    """The dense ``float32`` input ``[batch, sum of the columns' sizes]`` of ``features``,
    as ``tf.compat.v1.feature_column.input_layer``.

    Columns are taken in the order of their names (not the given order); each is
    reshaped to ``[batch, num_elements]`` under the variable scope
    ``input_layer/<column name>/`` (an embedding column's variable is
    ``input_layer/<name>_embedding/embedding_weights``); the output is
    ``input_layer/concat:0``.

    Raises:
      ValueError: no columns, a column that is not a feature column, a feature
        missing from ``features``, a feature whose size does not match its column.
    """
    columns = _columns(feature_columns)
    for column in columns:
        if not isinstance(column, _DENSE):
            raise ValueError(f"Items of feature_columns must be a _DenseColumn. You can wrap a categorical "
                             f"column with an embedding_column or indicator_column. Given: {column}")
    with variable_scope(None, default_name="input_layer", values=list(features.values())):
        outputs = []
        for column in sorted(columns, key=lambda c: c.name):
            with variable_scope(None, default_name=getattr(column, "_var_scope_name", column.name)):
                tensor = column._dense_tensor(features)
                size = int(np.prod(column.variable_shape))
                out = reshape(tensor, (shape_of(tensor)[0], size))
                outputs.append(out)
                if cols_to_vars is not None:
                    cols_to_vars[column] = ([get_variable("embedding_weights")]
                                            if isinstance(column, EmbeddingColumn | SharedEmbeddingColumn) else [])
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = out
        return concat(outputs, 1)


def linear_model(features: Mapping[str, Any], feature_columns: Sequence[Any], units: int = 1,
                 sparse_combiner: str = "sum", weight_collections: Any = None, trainable: bool = True,
                 cols_to_vars: dict[Any, Any] | None = None) -> Any:
    """A linear prediction ``float32 [batch, units]`` of ``features``, as
    ``tf.compat.v1.feature_column.linear_model``.

    Each column (in the order of their names) gets zero-initialised weights
    ``linear_model/<column name>/weights``: ``[num_buckets, units]`` for a
    categorical column (its ids' rows combined with ``sparse_combiner``:
    ``'sum'``, ``'mean'`` or ``'sqrtn'``; a bucketized column counts as
    categorical), ``[size, units]`` for a dense one (a matmul); the prediction
    is their sum plus ``linear_model/bias_weights`` ``[units]``.
    ``cols_to_vars`` (when given) receives each column's ``[weights]`` and
    ``'bias'``: ``[bias_weights]``.

    Raises:
      ValueError: no columns, an item that is not a feature column, a feature
        missing from ``features``, an unknown ``sparse_combiner``.
    """
    if sparse_combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"sparse_combiner must be one of 'mean', 'sqrtn' or 'sum', got {sparse_combiner!r}")
    columns = _columns(feature_columns)
    for column in columns:
        if not isinstance(column, _CATEGORICAL + _DENSE):
            raise ValueError(f"Items of feature_columns must be either a _DenseColumn or _CategoricalColumn. "
                             f"Given: {column}")
    with variable_scope(None, default_name="linear_model", values=list(features.values())):
        weighted_sums = []
        for column in sorted(columns, key=lambda c: c.name):
            with variable_scope(None, default_name=getattr(column, "_var_scope_name", column.name)):
                if isinstance(column, _CATEGORICAL):
                    weights = get_variable("weights", shape=(column.num_buckets, units), dtype=_dtypes.float32,
                                           initializer=Zeros(), trainable=trainable)
                    ids, id_weights = _ids_and_weights(column, features)
                    weighted_sums.append(_combine(weights, ids, sparse_combiner, id_weights))
                else:
                    size = int(np.prod(column.variable_shape))
                    tensor = column._dense_tensor(features)
                    weights = get_variable("weights", shape=(size, units), dtype=_dtypes.float32,
                                           initializer=Zeros(), trainable=trainable)
                    weighted_sums.append(matmul(reshape(tensor, (shape_of(tensor)[0], size)), weights))
                if cols_to_vars is not None:
                    cols_to_vars[column] = [weights]
        bias = get_variable("bias_weights", shape=(units,), dtype=_dtypes.float32, initializer=Zeros(),
                            trainable=trainable)
        if cols_to_vars is not None:
            cols_to_vars["bias"] = [bias]
        total = add_n(weighted_sums) if len(weighted_sums) > 1 else weighted_sums[0]
        return total + bias


def _parse_spec(column: Any) -> dict[str, Any]:
    """The ``parse_example`` features of one column, as TF1's ``_parse_example_spec``."""
    if isinstance(column, NumericColumn):
        default = column.default_value
        if default is not None and not isinstance(default, tuple):
            default = tuple(np.asarray(default).reshape(-1).tolist())
        return {column.key: FixedLenFeature(column.shape, column.dtype, default)}
    if isinstance(column, VocabularyListCategoricalColumn | VocabularyFileCategoricalColumn
                  | HashedCategoricalColumn):
        return {column.key: VarLenFeature(column.dtype)}
    if isinstance(column, IdentityCategoricalColumn):
        return {column.key: VarLenFeature(_dtypes.int64)}
    if isinstance(column, BucketizedColumn):
        return _parse_spec(column.source_column)
    if isinstance(column, IndicatorColumn | EmbeddingColumn | SharedEmbeddingColumn):
        return _parse_spec(column.categorical_column)
    if isinstance(column, WeightedCategoricalColumn):
        return {**_parse_spec(column.categorical_column),
                column.weight_feature_key: VarLenFeature(column.dtype)}
    if isinstance(column, CrossedColumn):
        spec: dict[str, Any] = {}
        for k in column.keys:
            spec.update({k: VarLenFeature(_dtypes.string)} if isinstance(k, str) else _parse_spec(k))
        return spec
    raise ValueError(f"All feature_columns must be _FeatureColumn instances. Given: {column}")


def make_parse_example_spec(feature_columns: Sequence[Any]) -> dict[str, Any]:
    """The ``features`` argument of ``parse_example`` for ``feature_columns``, as
    ``tf.compat.v1.feature_column.make_parse_example_spec``: a numeric column gives a
    ``FixedLenFeature`` (its shape, dtype and default), a categorical column a
    ``VarLenFeature`` (a weighted one also its float32 weights), a bucketized,
    indicator or embedding column its source's, a crossed column its keys'.

    Raises:
      ValueError: an item that is not a feature column, or one key given two
        different specs (TF's messages).
    """
    result: dict[str, Any] = {}
    for column in feature_columns:
        for key, spec in _parse_spec(column).items():
            if key in result and result[key] != spec:
                raise ValueError(f"feature_columns contain different parse_spec for key {key}. "
                                 f"Given {spec} and {result[key]}")
            result[key] = spec
    return result
