"""``jaxsess.keras.backend``: Keras' graph-mode backend, as ``tf.compat.v1.keras.backend``.

Re-exports :mod:`jaxsess._tf1.keras.backend`.
"""

from jaxsess._tf1.keras.backend import *  # noqa: F403
from jaxsess._tf1.keras.backend import (  # public names outside its __all__
    cache_logits as cache_logits,
    unique_object_name as unique_object_name,
)
