"""Variables, as ``tf.compat.v1.Variable`` in TF 2.x graph mode (resource
variables), and assign ops.

Re-exports :mod:`jaxsess._tf1.ops.state_ops`.
"""

from jaxsess._tf1.ops.state_ops import *  # noqa: F403
