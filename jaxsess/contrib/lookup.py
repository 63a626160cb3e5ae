"""``jaxsess.contrib.lookup``: TF 1's ``tf.contrib.lookup`` tables and vocabulary
helpers (see :mod:`jaxsess._tf1.ops.lookup_ops`)."""

from jaxsess._tf1.ops.lookup_ops import (
    FastHashSpec as FastHashSpec,
    HashTable as HashTable,
    IdTableWithHashBuckets as IdTableWithHashBuckets,
    KeyValueTensorInitializer as KeyValueTensorInitializer,
    LookupInterface as LookupInterface,
    TextFileIndex as TextFileIndex,
    TextFileInitializer as TextFileInitializer,
    index_table_from_file as index_table_from_file,
    index_table_from_tensor as index_table_from_tensor,
    index_to_string_table_from_file as index_to_string_table_from_file,
    index_to_string_table_from_tensor as index_to_string_table_from_tensor,
)

__all__ = [
    "FastHashSpec", "HashTable", "IdTableWithHashBuckets", "KeyValueTensorInitializer", "LookupInterface",
    "TextFileIndex", "TextFileInitializer", "index_table_from_file", "index_table_from_tensor",
    "index_to_string_table_from_file", "index_to_string_table_from_tensor",
]
