"""``jaxsess.keras.activations``: activation functions by name, as ``tf.keras.activations``.

Re-exports :mod:`jaxsess._tf1.keras.activations`.
"""

from jaxsess._tf1.keras.activations import *  # noqa: F403
