"""``jaxsess.distributions``: ``tf.compat.v1.distributions`` (TF 1.x's distributions library):
batches of distributions whose methods build graph ops.

Re-exports :mod:`jaxsess._tf1.distributions`.
"""

from jaxsess._tf1.distributions import *  # noqa: F403
