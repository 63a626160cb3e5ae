"""Feature columns, as ``tf.compat.v1.feature_column``: ``numeric_column``, the
categorical columns (``categorical_column_with_vocabulary_list``, ``_with_identity``,
``_with_hash_bucket``, ``bucketized_column``, ``crossed_column``), the dense wrappers
``indicator_column`` and ``embedding_column``, ``input_layer`` (the dense input of a
model built from a features dict) and ``linear_model``, with the semantics of TF1's
``tensorflow/python/feature_column/feature_column.py``.

Re-exports :mod:`jaxsess._tf1.feature_column`.
"""

from jaxsess._tf1.feature_column import *  # noqa: F403
