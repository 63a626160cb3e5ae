"""``jaxsess.keras.datasets.fashion_mnist``, as ``tf.keras.datasets.fashion_mnist`` without the download.

Re-exports :mod:`jaxsess._tf1.keras.datasets.fashion_mnist`.
"""

from jaxsess._tf1.keras.datasets.fashion_mnist import *  # noqa: F403
