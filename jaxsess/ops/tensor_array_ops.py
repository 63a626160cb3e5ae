"""``tf.TensorArray``, as ``tf.compat.v1.TensorArray`` in graph mode.

Re-exports :mod:`jaxsess._tf1.ops.tensor_array_ops`.
"""

from jaxsess._tf1.ops.tensor_array_ops import *  # noqa: F403
