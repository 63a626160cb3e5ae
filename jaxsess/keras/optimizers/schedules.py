"""``jaxsess.keras.optimizers.schedules``: learning rates as functions of the step, as
``tf.keras.optimizers.schedules`` (the code is ``jaxsess._tf1.keras._schedules``)."""

from jaxsess._tf1.keras._schedules import (
    CosineDecay as CosineDecay,
    CosineDecayRestarts as CosineDecayRestarts,
    ExponentialDecay as ExponentialDecay,
    InverseTimeDecay as InverseTimeDecay,
    LearningRateSchedule as LearningRateSchedule,
    PiecewiseConstantDecay as PiecewiseConstantDecay,
    PolynomialDecay as PolynomialDecay,
    deserialize as deserialize,
    serialize as serialize,
)

__all__ = ["LearningRateSchedule", "ExponentialDecay", "PiecewiseConstantDecay", "PolynomialDecay",
           "InverseTimeDecay", "CosineDecay", "CosineDecayRestarts", "serialize", "deserialize"]
