"""More array and shape ops of ``tf.compat.v1``: ``repeat``, ``shape_n``,
``parallel_stack``, ``ensure_shape``, ``broadcast_static_shape``,
``broadcast_dynamic_shape`` and ``histogram_fixed_width_bins``.

Re-exports :mod:`jaxsess._tf1.ops.array_extra_ops`.
"""

from jaxsess._tf1.ops.array_extra_ops import *  # noqa: F403
