"""Sparse ops whose number of stored values depends on the data, run on the host:
``sparse.fill_empty_rows``, ``sparse.split``, ``sparse.maximum``/``minimum``
and ``edit_distance``, as ``tf.compat.v1``'s.

Re-exports :mod:`jaxsess._tf1.ops.sparse_host_ops`.
"""

from jaxsess._tf1.ops.sparse_host_ops import *  # noqa: F403
