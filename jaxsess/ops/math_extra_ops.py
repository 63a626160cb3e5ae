"""More element-wise math, reductions, search and index ops, as ``tf.compat.v1`` /
``tf.math`` / ``tf.linalg`` / ``tf.nn``: ``log_sigmoid``,
``reduce_euclidean_norm``, ``xlogy``, ``xdivy``, ``multiply_no_nan``,
``cumulative_logsumexp``, ``polyval``, ``lbeta``, ``cross``, ``expm``,
``unravel_index``, ``searchsorted``, ``nn.relu_layer``, ``nn.convolution``,
``nn.max_pool1d``/``avg_pool1d``.

Re-exports :mod:`jaxsess._tf1.ops.math_extra_ops`.
"""

from jaxsess._tf1.ops.math_extra_ops import *  # noqa: F403
