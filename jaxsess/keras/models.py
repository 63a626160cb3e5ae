"""``jaxsess.keras.models``: ``Model`` (functional), ``Sequential`` and their
training loop in TF1 graph mode, as ``tf.compat.v1.keras.models`` (Keras 2's
``training_v1``).

Re-exports :mod:`jaxsess._tf1.keras.models`.
"""

from jaxsess._tf1.keras.models import *  # noqa: F403
from jaxsess._tf1.keras.models import (  # public names outside its __all__
    INFINITE_CARDINALITY as INFINITE_CARDINALITY,
    deserialize_layer as deserialize_layer,
)
