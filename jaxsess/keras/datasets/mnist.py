"""``jaxsess.keras.datasets.mnist``, as ``tf.keras.datasets.mnist`` without the download.

Re-exports :mod:`jaxsess._tf1.keras.datasets.mnist`.
"""

from jaxsess._tf1.keras.datasets.mnist import *  # noqa: F403
