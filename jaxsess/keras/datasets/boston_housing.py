"""``jaxsess.keras.datasets.boston_housing``, as ``tf.keras.datasets.boston_housing`` without the download.

Re-exports :mod:`jaxsess._tf1.keras.datasets.boston_housing`.
"""

from jaxsess._tf1.keras.datasets.boston_housing import *  # noqa: F403
