"""``jaxsess.layers``: TF1's functional and object layers, as ``tf.compat.v1.layers``.

Re-exports :mod:`jaxsess._tf1.layers`.
"""

from jaxsess._tf1.layers import *  # noqa: F403
