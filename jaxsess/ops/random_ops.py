"""Random ops with TF1 seeding, as ``tf.compat.v1.random_*`` and ``nn.dropout``.

Re-exports :mod:`jaxsess._tf1.ops.random_ops`.
"""

from jaxsess._tf1.ops.random_ops import *  # noqa: F403
