"""``tf.make_tensor_proto`` and ``tf.make_ndarray``: NumPy values and TF's ``TensorProto``.

Re-exports :mod:`jaxsess._tf1.ops.tensor_util`.
"""

from jaxsess._tf1.ops.tensor_util import *  # noqa: F403
