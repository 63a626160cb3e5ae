"""``jaxsess.losses``: weighted, reduced losses, as ``tf.compat.v1.losses``.

Re-exports :mod:`jaxsess._tf1.losses`.
"""

from jaxsess._tf1.losses import *  # noqa: F403
