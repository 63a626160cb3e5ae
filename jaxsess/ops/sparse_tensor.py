"""``SparseTensor``: a sparse value as three graph tensors, as ``tf.compat.v1.SparseTensor``.

Re-exports :mod:`jaxsess._tf1.ops.sparse_tensor`.
"""

from jaxsess._tf1.ops.sparse_tensor import *  # noqa: F403
