"""``jaxsess.keras.constraints``: projections of weights after each update, as
``tf.keras.constraints`` (Keras 2).

Re-exports :mod:`jaxsess._tf1.keras.constraints`.
"""

from jaxsess._tf1.keras.constraints import *  # noqa: F403
