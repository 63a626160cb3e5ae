"""More of ``tf.sparse``: ``eye``, ``expand_dims`` and ``to_indicator``, over the existing ops.

Re-exports :mod:`jaxsess._tf1.ops.sparse_surface_ops`.
"""

from jaxsess._tf1.ops.sparse_surface_ops import *  # noqa: F403
