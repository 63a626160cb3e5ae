"""Linear algebra and extra element-wise math, as ``tf.compat.v1`` / ``tf.linalg`` / ``tf.math``.

Re-exports :mod:`jaxsess._tf1.ops.linalg_ops`.
"""

from jaxsess._tf1.ops.linalg_ops import *  # noqa: F403
