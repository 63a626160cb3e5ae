"""``jaxsess.keras.preprocessing.sequence``, as ``tf.keras.preprocessing.sequence`` (NumPy only).

Re-exports :mod:`jaxsess._tf1.keras.preprocessing.sequence`.
"""

from jaxsess._tf1.keras.preprocessing.sequence import *  # noqa: F403
