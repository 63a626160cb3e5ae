"""``jaxsess.keras.losses``: Keras 2 losses, as ``tf.keras.losses``.

Re-exports :mod:`jaxsess._tf1.keras.losses`.
"""

from jaxsess._tf1.keras.losses import *  # noqa: F403
from jaxsess._tf1.keras.losses import (  # public names outside its __all__
    MAE as MAE,
    MSE as MSE,
)
