"""More of ``tf.nn`` (TF 2 names reachable from ``tf.compat.v1.nn``):
``max_pool_v2``/``avg_pool_v2``, ``conv1d_transpose``, ``conv_transpose``,
``batch_norm_with_global_normalization``, ``compute_average_loss`` and
``scale_regularization_loss``.

Re-exports :mod:`jaxsess._tf1.ops.nn_surface_ops`.
"""

from jaxsess._tf1.ops.nn_surface_ops import *  # noqa: F403
