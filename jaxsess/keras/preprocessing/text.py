"""``jaxsess.keras.preprocessing.text``: word tokenisation and the ``Tokenizer``, as
``tf.keras.preprocessing.text`` (pure Python/NumPy).

Re-exports :mod:`jaxsess._tf1.keras.preprocessing.text`.
"""

from jaxsess._tf1.keras.preprocessing.text import *  # noqa: F403
from jaxsess._tf1.keras.preprocessing.text import (  # public names outside its __all__
    DEFAULT_FILTERS as DEFAULT_FILTERS,
)
