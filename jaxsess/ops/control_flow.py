"""Control flow, as ``tf.compat.v1.cond`` / ``while_loop`` / ``case``.

Re-exports :mod:`jaxsess._tf1.ops.control_flow`.
"""

from jaxsess._tf1.ops.control_flow import *  # noqa: F403
