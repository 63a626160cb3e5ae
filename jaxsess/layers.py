"""``jaxsess.layers``: TF1's functional and object layers, as ``tf.compat.v1.layers``.

Re-exports :mod:`jaxsess._tf1.layers`.
"""

from jaxsess._tf1.conv_layers import *  # noqa: E402, F403
from jaxsess._tf1.layers import *  # noqa: F403
