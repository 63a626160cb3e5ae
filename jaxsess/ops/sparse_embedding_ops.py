"""Embeddings of sparse ids, as ``tf.compat.v1.nn.embedding_lookup_sparse`` and
``safe_embedding_lookup_sparse``.

Re-exports :mod:`jaxsess._tf1.ops.sparse_embedding_ops`.
"""

from jaxsess._tf1.ops.sparse_embedding_ops import *  # noqa: F403
