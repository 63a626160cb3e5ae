"""``TensorInfo`` protos of tensors and back, as ``tf.compat.v1.saved_model.utils``.

Re-exports :mod:`jaxsess._tf1.saved_model.utils`.
"""

from jaxsess._tf1.saved_model.utils import *  # noqa: F403
