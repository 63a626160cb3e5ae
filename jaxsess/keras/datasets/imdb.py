"""``jaxsess.keras.datasets.imdb``, as ``tf.keras.datasets.imdb`` without the download.

Re-exports :mod:`jaxsess._tf1.keras.datasets.imdb`.
"""

from jaxsess._tf1.keras.datasets.imdb import *  # noqa: F403
