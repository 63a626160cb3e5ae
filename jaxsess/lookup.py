"""``jaxsess.lookup``: lookup tables, as ``tf.compat.v1.lookup`` (see
:mod:`jaxsess._tf1.ops.lookup_ops`)."""

from jaxsess._tf1.ops.lookup_ops import (
    KeyValueTensorInitializer as KeyValueTensorInitializer,
    StaticHashTable as StaticHashTable,
    StaticVocabularyTable as StaticVocabularyTable,
    TextFileIndex as TextFileIndex,
    TextFileInitializer as TextFileInitializer,
)

__all__ = [
    "KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable", "TextFileIndex", "TextFileInitializer",
]
