"""``jaxsess.keras.optimizers.legacy``: the same classes as :mod:`jaxsess.keras.optimizers`, as
``tf.keras.optimizers.legacy`` (Keras 2's ``OptimizerV2`` classes, which TF's Keras uses in TF1
graph mode under both names)."""

from jaxsess._tf1.keras._optimizers import (
    SGD as SGD,
    Adadelta as Adadelta,
    Adagrad as Adagrad,
    Adam as Adam,
    Adamax as Adamax,
    Ftrl as Ftrl,
    Nadam as Nadam,
    Optimizer as Optimizer,
    RMSprop as RMSprop,
)

__all__ = ["Adadelta", "Adagrad", "Adam", "Adamax", "Ftrl", "Nadam", "Optimizer", "RMSprop", "SGD"]
