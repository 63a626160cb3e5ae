"""``jaxsess.keras.regularizers``: weight penalties, as ``tf.keras.regularizers`` (Keras 2).

Re-exports :mod:`jaxsess._tf1.keras.regularizers`.
"""

from jaxsess._tf1.keras.regularizers import *  # noqa: F403
