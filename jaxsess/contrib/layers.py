"""The common names of ``tf.contrib.layers`` (TF 1.x), as aliases of jaxsess's layers
and initializers.

Re-exports :mod:`jaxsess._tf1.contrib.layers`.
"""

from jaxsess._tf1.contrib.layers import *  # noqa: F403
