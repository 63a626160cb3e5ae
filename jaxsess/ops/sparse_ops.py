"""Sparse ops on :class:`~jaxsess._tf1.ops.sparse_tensor.SparseTensor`, as ``tf.compat.v1``'s ``sparse_ops``.

Re-exports :mod:`jaxsess._tf1.ops.sparse_ops`.
"""

from jaxsess._tf1.ops.sparse_ops import *  # noqa: F403
