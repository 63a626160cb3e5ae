"""``jaxsess.keras.experimental``: the learning-rate schedules TF also exports here, as
``tf.keras.experimental`` (the same classes as :mod:`jaxsess.keras.optimizers.schedules`)."""

from jaxsess._tf1.keras._schedules import (
    CosineDecay as CosineDecay,
    CosineDecayRestarts as CosineDecayRestarts,
)

__all__ = ["CosineDecay", "CosineDecayRestarts"]
