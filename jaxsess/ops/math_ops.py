"""Math ops, as ``tf.math`` / ``tf.compat.v1`` (element-wise, reductions, matmul).

Re-exports :mod:`jaxsess._tf1.ops.math_ops`.
"""

from jaxsess._tf1.ops.math_ops import *  # noqa: F403
