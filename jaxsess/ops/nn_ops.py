"""Neural-network ops, as ``tf.compat.v1.nn``: activations, softmax and
cross-entropies, ``bias_add``, ``conv2d``, pooling, ``moments``, ...

Re-exports :mod:`jaxsess._tf1.ops.nn_ops`.
"""

from jaxsess._tf1.ops.nn_ops import *  # noqa: F403
