"""``tf.data.experimental``: transformations for ``Dataset.apply``, as
``tf.compat.v1.data.experimental`` (each one the ``Dataset`` method TF 2
moved it to)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._graph import Tensor
from jaxsess._tf1.data._dataset import (
    AUTOTUNE,
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    Dataset,
    bucket_by_sequence_length as _bucket,
    group_by_window as _group_by_window,
)
from jaxsess._tf1.data._options import (
    AutoShardPolicy as AutoShardPolicy,
    DistributeOptions as DistributeOptions,
    OptimizationOptions as OptimizationOptions,
    ThreadingOptions as ThreadingOptions,
)
from jaxsess._tf1.data._readers import (
    CsvDataset as CsvDataset,
    TFRecordWriter as TFRecordWriter,
    make_csv_dataset as make_csv_dataset,
)

__all__ = ["AUTOTUNE", "CsvDataset", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "Counter", "bucket_by_sequence_length",
           "TFRecordWriter", "make_csv_dataset", "cardinality", "get_single_element", "AutoShardPolicy",
           "DistributeOptions", "OptimizationOptions", "ThreadingOptions",
           "choose_from_datasets", "enumerate_dataset", "group_by_window", "ignore_errors", "map_and_batch", "parallel_interleave",
           "sample_from_datasets", "scan", "shuffle_and_repeat", "take_while", "unbatch", "unique"]

Transformation = Callable[[Dataset], Dataset]


def cardinality(dataset: Dataset) -> Tensor:
    """``dataset.cardinality()``, as ``tf.data.experimental.cardinality``: an
    int64 scalar, ``INFINITE_CARDINALITY`` (-1) or ``UNKNOWN_CARDINALITY`` (-2)."""
    return dataset.cardinality()


def get_single_element(dataset: Dataset) -> Any:
    """``dataset.get_single_element()``, as ``tf.data.experimental.get_single_element``."""
    return dataset.get_single_element()


def map_and_batch(map_func: Callable[..., Any], batch_size: int, num_parallel_batches: Any = None,
                  drop_remainder: bool = False, num_parallel_calls: Any = None) -> Transformation:
    """``map(map_func).batch(batch_size, drop_remainder)``, as
    ``tf.data.experimental.map_and_batch``."""
    return lambda ds: ds.map(map_func).batch(batch_size, drop_remainder=drop_remainder)


def parallel_interleave(map_func: Callable[..., Any], cycle_length: int, block_length: int = 1, sloppy: bool = False,
                        buffer_output_elements: Any = None, prefetch_input_elements: Any = None) -> Transformation:
    """``Dataset.interleave(map_func, cycle_length, block_length)``, as
    ``tf.data.experimental.parallel_interleave`` (deterministic: ``sloppy`` is
    accepted and the order is the one ``sloppy=False`` gives)."""
    return lambda ds: ds.interleave(map_func, cycle_length, block_length)


def shuffle_and_repeat(buffer_size: int, count: int | None = None, seed: int | None = None) -> Transformation:
    """``shuffle(buffer_size, seed).repeat(count)``, as ``tf.data.experimental.shuffle_and_repeat``."""
    return lambda ds: ds.shuffle(buffer_size, seed).repeat(count)


def unbatch() -> Transformation:
    """``Dataset.unbatch``, as ``tf.data.experimental.unbatch``."""
    return lambda ds: ds.unbatch()


def enumerate_dataset(start: int = 0) -> Transformation:
    """``Dataset.enumerate``, as ``tf.data.experimental.enumerate_dataset``."""
    return lambda ds: ds.enumerate(start)


def take_while(predicate: Callable[..., Any]) -> Transformation:
    """``Dataset.take_while``, as ``tf.data.experimental.take_while``."""
    return lambda ds: ds.take_while(predicate)


def scan(initial_state: Any, scan_func: Callable[..., Any]) -> Transformation:
    """``Dataset.scan``, as ``tf.data.experimental.scan``."""
    return lambda ds: ds.scan(initial_state, scan_func)


def unique() -> Transformation:
    """``Dataset.unique``, as ``tf.data.experimental.unique``."""
    return lambda ds: ds.unique()


def ignore_errors(log_warning: bool = False) -> Transformation:
    """Drops the rest of the input at its first error, as
    ``tf.data.experimental.ignore_errors`` (TF skips only the failing
    element: jaxsess's host iterators cannot go on after an error)."""
    return lambda ds: ds.ignore_errors()


def group_by_window(key_func: Callable[..., Any], reduce_func: Callable[..., Any], window_size: int | None = None,
                    window_size_func: Callable[..., Any] | None = None) -> Transformation:
    """``Dataset.group_by_window``, as ``tf.data.experimental.group_by_window``."""
    return lambda ds: _group_by_window(ds, key_func, reduce_func, window_size, window_size_func)


def bucket_by_sequence_length(element_length_func: Callable[..., Any], bucket_boundaries: Sequence[int],
                              bucket_batch_sizes: Sequence[int], padded_shapes: Any = None,
                              padding_values: Any = None, pad_to_bucket_boundary: bool = False,
                              no_padding: bool = False, drop_remainder: bool = False) -> Transformation:
    """``Dataset.bucket_by_sequence_length``, as ``tf.data.experimental.bucket_by_sequence_length``."""
    return lambda ds: _bucket(ds, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
                              padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)


def choose_from_datasets(datasets: Sequence[Dataset], choice_dataset: Dataset,
                         stop_on_empty_dataset: bool = False) -> Dataset:
    """``Dataset.choose_from_datasets`` (not stopping at an empty dataset by
    default), as ``tf.data.experimental.choose_from_datasets``."""
    return Dataset.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


def sample_from_datasets(datasets: Sequence[Dataset], weights: Sequence[float] | None = None,
                         seed: int | None = None, stop_on_empty_dataset: bool = False) -> Dataset:
    """``Dataset.sample_from_datasets``, as ``tf.data.experimental.sample_from_datasets``."""
    return Dataset.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)


def Counter(start: int = 0, step: int = 1, dtype: Any = _dtypes.int64) -> Dataset:  # noqa: N802 - TF's name
    """``Dataset.counter``, as ``tf.data.experimental.Counter``."""
    return Dataset.counter(start, step, dtype)
