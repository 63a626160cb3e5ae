"""``jaxsess._tf1.data``: input pipelines, as ``tf.compat.v1.data`` (see
:mod:`jaxsess._tf1.data._dataset`). The folder also holds the files of
:mod:`jaxsess._tf1.datasets` (``digits.npz``)."""

from typing import Any

from jaxsess._tf1.data import experimental as experimental
from jaxsess._tf1.data._dataset import (
    AUTOTUNE as AUTOTUNE,
    INFINITE_CARDINALITY as INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY as UNKNOWN_CARDINALITY,
    Dataset as Dataset,
)
from jaxsess._tf1.data._iterator import Iterator as Iterator
from jaxsess._tf1.data._options import Options as Options, ThreadingOptions as ThreadingOptions
from jaxsess._tf1.data._readers import (
    FixedLengthRecordDataset as FixedLengthRecordDataset,
    TextLineDataset as TextLineDataset,
    TFRecordDataset as TFRecordDataset,
)


def make_one_shot_iterator(dataset: Dataset) -> Iterator:
    """``dataset.make_one_shot_iterator()``, as ``tf.compat.v1.data.make_one_shot_iterator``."""
    return dataset.make_one_shot_iterator()  # type: ignore[no-any-return]


def make_initializable_iterator(dataset: Dataset, shared_name: str | None = None) -> Iterator:
    """``dataset.make_initializable_iterator()``, as ``tf.compat.v1.data.make_initializable_iterator``."""
    return dataset.make_initializable_iterator(shared_name)  # type: ignore[no-any-return]


def get_output_types(dataset_or_iterator: Dataset | Iterator) -> Any:
    """The element structure's dtypes, as ``tf.compat.v1.data.get_output_types``."""
    return dataset_or_iterator.output_types


def get_output_shapes(dataset_or_iterator: Dataset | Iterator) -> Any:
    """The element structure's static shapes, as ``tf.compat.v1.data.get_output_shapes``."""
    return dataset_or_iterator.output_shapes


def get_output_classes(dataset_or_iterator: Dataset | Iterator) -> Any:
    """The element structure's classes (``Tensor``), as ``tf.compat.v1.data.get_output_classes``."""
    return dataset_or_iterator.output_classes


__all__ = ["Dataset", "Iterator", "Options", "ThreadingOptions", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset", "AUTOTUNE",
           "make_one_shot_iterator", "make_initializable_iterator", "experimental", "get_output_types",
           "get_output_shapes", "get_output_classes"]
