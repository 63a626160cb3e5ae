"""``jaxsess.keras.optimizers``: Keras 2's optimizers in graph mode, as ``tf.keras.optimizers``
(the legacy ``OptimizerV2`` classes TF's Keras uses in TF1 graph mode; the same classes under
``optimizers.legacy``), and the learning-rate ``schedules``. The code is in
``jaxsess._tf1.keras._optimizers`` and ``jaxsess._tf1.keras._schedules``.
"""

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
    deserialize as deserialize,
    get as get,
    serialize as serialize,
)
from jaxsess.keras.optimizers import legacy as legacy, schedules as schedules

__all__ = ["Adam", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam", "Ftrl", "Optimizer", "get", "serialize",
           "deserialize", "legacy", "schedules"]
