"""Set operations over the last dimension, as ``tf.compat.v1.sets``:
``set_intersection``, ``set_union``, ``set_difference`` and ``set_size``.

Re-exports :mod:`jaxsess._tf1.ops.set_ops`.
"""

from jaxsess._tf1.ops.set_ops import *  # noqa: F403
