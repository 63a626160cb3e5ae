"""``jaxsess.keras.datasets.cifar100``, as ``tf.keras.datasets.cifar100`` without the download.

Re-exports :mod:`jaxsess._tf1.keras.datasets.cifar100`.
"""

from jaxsess._tf1.keras.datasets.cifar100 import *  # noqa: F403
