"""``jaxsess.keras.datasets``: data sets read from Keras' local cache, as ``tf.keras.datasets``
(nothing is downloaded)."""

from jaxsess.keras.datasets import (
    boston_housing as boston_housing,
    cifar10 as cifar10,
    cifar100 as cifar100,
    fashion_mnist as fashion_mnist,
    imdb as imdb,
    mnist as mnist,
)

__all__ = ["boston_housing", "cifar10", "cifar100", "fashion_mnist", "imdb", "mnist"]
