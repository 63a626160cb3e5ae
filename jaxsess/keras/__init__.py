"""``jaxsess.keras``: ``tf.keras`` (Keras 2) in TF1 graph mode, as ``tf.compat.v1.keras``.

Layers are callables on graph tensors that create their variables with
Keras' names (``dense/kernel:0``); ``Sequential`` and the functional
``Model`` train with ``compile``/``fit`` in the Keras session
(:func:`jaxsess.keras.backend.get_session`). See the README's coverage table.
"""

from jaxsess.keras import (
    __internal__ as __internal__,
    activations as activations,
    backend as backend,
    callbacks as callbacks,
    constraints as constraints,
    datasets as datasets,
    experimental as experimental,
    initializers as initializers,
    layers as layers,
    losses as losses,
    metrics as metrics,
    models as models,
    optimizers as optimizers,
    preprocessing as preprocessing,
    regularizers as regularizers,
    utils as utils,
)
from jaxsess.keras.layers import Input as Input
from jaxsess.keras.models import Model as Model, Sequential as Sequential

__all__ = ["activations", "backend", "callbacks", "constraints", "datasets", "experimental", "initializers", "layers", "losses", "metrics", "models", "optimizers",
           "preprocessing", "regularizers", "utils", "Input", "Model", "Sequential"]
