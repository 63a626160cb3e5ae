"""``jaxsess.keras.datasets.cifar10``, as ``tf.keras.datasets.cifar10`` without the download.

Re-exports :mod:`jaxsess._tf1.keras.datasets.cifar10`.
"""

from jaxsess._tf1.keras.datasets.cifar10 import *  # noqa: F403
