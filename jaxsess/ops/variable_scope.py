"""``get_variable`` and ``variable_scope``, as ``tf.compat.v1``.

Re-exports :mod:`jaxsess._tf1.ops.variable_scope`.
"""

from jaxsess._tf1.ops.variable_scope import *  # noqa: F403
