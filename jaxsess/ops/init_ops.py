"""Variable initializers, as ``tf.compat.v1`` (``tf.compat.v1.initializers``).

Re-exports :mod:`jaxsess._tf1.ops.init_ops`.
"""

from jaxsess._tf1.ops.init_ops import *  # noqa: F403
