"""``AdadeltaOptimizer``, as ``tf.compat.v1.train.AdadeltaOptimizer`` (TF's
``adadelta.py``), on the machinery of :mod:`jaxsess._tf1.train._optimizers`:
optax's adadelta is TF1's rule."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from jaxsess._core.graph._attr_json import register_function
from jaxsess._tf1.train._optimizers import Optimizer, TransformationSpec

if TYPE_CHECKING:  # optax is imported when an update is built, as in _optimizers
    import optax

__all__ = ["AdadeltaOptimizer"]


def _build_adadelta(hyper: dict[str, Any], state: Any) -> optax.GradientTransformation:
    import optax

    return optax.adadelta(hyper["learning_rate"], rho=hyper["rho"], eps=hyper["epsilon"])


register_function("train._build_adadelta", _build_adadelta)  # graph defs may hold it (by name)


class AdadeltaOptimizer(Optimizer):
    """Adadelta, as ``tf.compat.v1.train.AdadeltaOptimizer``.

    TF1: ``accum = rho accum + (1 - rho) g^2``; ``update = sqrt(accum_update +
    epsilon) / sqrt(accum + epsilon) * g``; ``accum_update = rho accum_update
    + (1 - rho) update^2``; ``var -= lr * update``. Built on
    ``optax.adadelta(lr, rho, eps)``, the same rule. Slots ``'accum'`` and
    ``'accum_update'`` (zeros).

    Args:
      learning_rate, rho, epsilon: floats or scalar tensors (TF1's defaults
        0.001, 0.95, 1e-8).
      name: default ``'Adadelta'``.
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"e_g": "accum", "e_x": "accum_update"}

    def __init__(self, learning_rate: Any = 0.001, rho: Any = 0.95, epsilon: Any = 1e-8, use_locking: bool = False,
                 name: str = "Adadelta") -> None:
        super().__init__(use_locking, name)
        self._hyper_values = {"learning_rate": learning_rate, "rho": rho, "epsilon": epsilon}

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_adadelta, ("learning_rate", "rho", "epsilon"))

    def _hyper(self) -> dict[str, Any]:
        return dict(self._hyper_values)
