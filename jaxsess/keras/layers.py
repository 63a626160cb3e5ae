"""``jaxsess.keras.layers``: Keras 2 layers, as ``tf.compat.v1.keras.layers``.

Re-exports :mod:`jaxsess._tf1.keras.layers`.
"""

from jaxsess._tf1.keras.layers import *  # noqa: F403
