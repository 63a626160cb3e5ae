"""3-D convolutions and pooling, N-D ``pool`` and ``max_pool_with_argmax``, as
``tf.compat.v1.nn``.

Re-exports :mod:`jaxsess._tf1.ops.conv3d_ops`.
"""

from jaxsess._tf1.ops.conv3d_ops import *  # noqa: F403
