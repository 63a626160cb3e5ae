"""``jaxsess.keras.optimizers``: Keras 2's optimizers in graph mode, as ``tf.keras.optimizers``
(the legacy ``OptimizerV2`` classes TF's Keras uses in TF1 graph mode).

Each is the :mod:`jaxsess.train` optimizer that computes the same update,
under Keras' argument names and defaults: ``Adam`` is TF1's Adam kernel with
``epsilon=1e-7``; ``SGD`` with momentum ``m`` (``v = m v - lr g; w += v``)
is TF1's momentum update (``a = m a + g; w -= lr a``), the same for a
constant learning rate. ``RMSprop`` is Keras' own formula (``rms`` starting
at zeros, ``epsilon`` outside the square root), not TF1's. ``compile`` also takes a ``jaxsess.train`` optimizer
or a name (``'adam'``, ``'sgd'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import jax
import jax.numpy as jnp

from jaxsess.graph._attr_json import register_function
from jaxsess.train._optimizers import (
    AdamOptimizer,
    MomentumOptimizer,
    Optimizer,
    TransformationSpec,
    _build_sgd,
)
from jaxsess.train._optimizers_extra import AdadeltaOptimizer

if TYPE_CHECKING:
    import optax

__all__ = ["Adam", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adamax", "get"]


def _lr(learning_rate: Any, kwargs: dict[str, Any]) -> Any:
    lr = kwargs.pop("lr", None)
    if kwargs.get("decay", 0.0) == 0.0:
        kwargs.pop("decay", None)  # Keras' default: no decay
    if kwargs:
        raise TypeError(f"Unexpected keyword argument passed to optimizer: {sorted(kwargs)[0]!r}")
    return learning_rate if lr is None else lr


class Adam(AdamOptimizer):
    """Adam, as ``tf.keras.optimizers.Adam`` (learning_rate 0.001, beta_1 0.9,
    beta_2 0.999, epsilon 1e-7; ``lr`` is accepted for ``learning_rate``).

    Raises:
      NotImplementedError: ``amsgrad=True``.
    """

    def __init__(self, learning_rate: Any = 0.001, beta_1: Any = 0.9, beta_2: Any = 0.999, epsilon: Any = 1e-7,
                 amsgrad: bool = False, name: str = "Adam", **kwargs: Any) -> None:
        if amsgrad:
            raise NotImplementedError("keras.optimizers.Adam(amsgrad=True) is not supported.")
        super().__init__(_lr(learning_rate, kwargs), beta_1, beta_2, epsilon, name=name)


class SGD(MomentumOptimizer):
    """Gradient descent with optional (Nesterov) momentum, as ``tf.keras.optimizers.SGD``
    (learning_rate 0.01; ``lr`` is accepted for ``learning_rate``)."""

    def __init__(self, learning_rate: Any = 0.01, momentum: float = 0.0, nesterov: bool = False,
                 name: str = "SGD", **kwargs: Any) -> None:
        super().__init__(_lr(learning_rate, kwargs), momentum, name=name, use_nesterov=nesterov)

    def _spec(self) -> TransformationSpec:
        if self._momentum == 0.0 and not self._use_nesterov:
            return TransformationSpec(_build_sgd, ("learning_rate",))
        return super()._spec()

    def _hyper(self) -> dict[str, Any]:
        if self._momentum == 0.0 and not self._use_nesterov:
            return {"learning_rate": self._learning_rate}
        return super()._hyper()


def _build_keras_rmsprop(hyper: dict[str, Any], state: Any) -> optax.GradientTransformation:
    """Keras 2's RMSprop without momentum: ``rms = rho rms + (1 - rho) g^2`` (from zeros),
    ``var -= lr g / (sqrt(rms) + epsilon)``."""
    import optax  # as jaxsess.train's builders: optax loads with the first optimizer update

    return optax.rmsprop(hyper["learning_rate"], decay=hyper["rho"], eps=hyper["epsilon"], initial_scale=0.0,
                         eps_in_sqrt=False)


register_function("keras.optimizers._build_keras_rmsprop", _build_keras_rmsprop)


class RMSprop(Optimizer):
    """RMSprop, as ``tf.keras.optimizers.RMSprop`` (learning_rate 0.001, rho 0.9,
    epsilon 1e-7; slot ``rms``, zeros): ``rms = rho rms + (1 - rho) g^2``,
    ``var -= lr g / (sqrt(rms) + epsilon)``.

    Raises:
      NotImplementedError: ``momentum`` or ``centered``.
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"nu": "rms"}

    def __init__(self, learning_rate: Any = 0.001, rho: Any = 0.9, momentum: float = 0.0, epsilon: Any = 1e-7,
                 centered: bool = False, name: str = "RMSprop", **kwargs: Any) -> None:
        if momentum or centered:
            raise NotImplementedError("keras.optimizers.RMSprop: momentum and centered are not supported.")
        super().__init__(False, name)
        self._hyper_values = {"learning_rate": _lr(learning_rate, kwargs), "rho": rho, "epsilon": epsilon}

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_keras_rmsprop, ("learning_rate", "rho", "epsilon"))

    def _hyper(self) -> dict[str, Any]:
        return dict(self._hyper_values)


class _AccumulatorState(NamedTuple):
    sum_of_squares: Any  # slot "accumulator"


def _build_keras_adagrad(hyper: dict[str, Any], state: Any, *, initial_accumulator_value: float
                         ) -> optax.GradientTransformation:
    """Keras 2's Adagrad (TF's ``ApplyAdagradV2``): ``accum += g^2``,
    ``var -= lr g / (sqrt(accum) + epsilon)`` (optax's adagrad puts ``eps``
    inside the square root)."""
    import optax

    lr, eps = hyper["learning_rate"], hyper["epsilon"]

    def init(params: Any) -> _AccumulatorState:
        return _AccumulatorState(jax.tree_util.tree_map(
            lambda p: jnp.full_like(p, initial_accumulator_value), params))

    def update(grads: Any, st: _AccumulatorState, params: Any = None) -> tuple[Any, _AccumulatorState]:
        acc = jax.tree_util.tree_map(lambda a, g: a + g * g, st.sum_of_squares, grads)
        updates = jax.tree_util.tree_map(lambda g, a: -lr * g / (jnp.sqrt(a) + eps), grads, acc)
        return updates, _AccumulatorState(acc)

    return optax.GradientTransformation(init, update)  # type: ignore[arg-type]


class _AdamaxState(NamedTuple):
    beta1_power: Any  # beta_1^t (Keras derives it from ``iterations``)
    mu: Any  # slot "m"
    nu: Any  # slot "v"


def _build_keras_adamax(hyper: dict[str, Any], state: Any) -> optax.GradientTransformation:
    """Keras 2's Adamax (TF's ``ApplyAdaMax``): ``m = b1 m + (1 - b1) g``,
    ``v = max(b2 v, |g|)``, ``var -= lr / (1 - b1^t) * m / (v + epsilon)``
    (optax's adamax adds ``eps`` inside the max)."""
    import optax

    lr, b1, b2, eps = hyper["learning_rate"], hyper["beta_1"], hyper["beta_2"], hyper["epsilon"]

    def init(params: Any) -> _AdamaxState:
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return _AdamaxState(jnp.asarray(1.0, jnp.float32), zeros, zeros)

    def update(grads: Any, st: _AdamaxState, params: Any = None) -> tuple[Any, _AdamaxState]:
        b1p = st.beta1_power * b1
        mu = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, st.mu, grads)
        nu = jax.tree_util.tree_map(lambda v, g: jnp.maximum(b2 * v, jnp.abs(g)), st.nu, grads)
        updates = jax.tree_util.tree_map(lambda m, v: -lr / (1 - b1p) * m / (v + eps), mu, nu)
        return updates, _AdamaxState(b1p, mu, nu)

    return optax.GradientTransformation(init, update)  # type: ignore[arg-type]


register_function("keras.optimizers._build_keras_adagrad", _build_keras_adagrad)
register_function("keras.optimizers._build_keras_adamax", _build_keras_adamax)


class Adagrad(Optimizer):
    """Adagrad, as ``tf.keras.optimizers.Adagrad`` (learning_rate 0.001,
    initial_accumulator_value 0.1, epsilon 1e-7; slot ``accumulator``):
    ``accum += g^2``, ``var -= lr g / (sqrt(accum) + epsilon)``.

    Raises:
      ValueError: a negative ``initial_accumulator_value``.
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"sum_of_squares": "accumulator"}

    def __init__(self, learning_rate: Any = 0.001, initial_accumulator_value: float = 0.1, epsilon: Any = 1e-7,
                 name: str = "Adagrad", **kwargs: Any) -> None:
        if initial_accumulator_value < 0.0:
            raise ValueError(f"initial_accumulator_value must be non-negative: {initial_accumulator_value}")
        super().__init__(False, name)
        self._hyper_values = {"learning_rate": _lr(learning_rate, kwargs), "epsilon": epsilon}
        self._initial_accumulator_value = float(initial_accumulator_value)

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_keras_adagrad, ("learning_rate", "epsilon"),
                                  (("initial_accumulator_value", self._initial_accumulator_value),))

    def _hyper(self) -> dict[str, Any]:
        return dict(self._hyper_values)


class Adadelta(AdadeltaOptimizer):
    """Adadelta, as ``tf.keras.optimizers.Adadelta`` (learning_rate 0.001, rho
    0.95, epsilon 1e-7; slots ``accum_grad`` and ``accum_var``): TF's
    ``ApplyAdadelta``, the rule of :class:`jaxsess.train.AdadeltaOptimizer`."""

    SLOT_NAMES: ClassVar[dict[str, str]] = {"e_g": "accum_grad", "e_x": "accum_var"}

    def __init__(self, learning_rate: Any = 0.001, rho: Any = 0.95, epsilon: Any = 1e-7, name: str = "Adadelta",
                 **kwargs: Any) -> None:
        super().__init__(_lr(learning_rate, kwargs), rho, epsilon, name=name)


class Adamax(Optimizer):
    """Adamax, as ``tf.keras.optimizers.Adamax`` (learning_rate 0.001, beta_1
    0.9, beta_2 0.999, epsilon 1e-7; slots ``m`` and ``v``): TF's
    ``ApplyAdaMax``, ``v = max(beta_2 v, |g|)``, ``var -= lr / (1 - beta_1^t)
    * m / (v + epsilon)``."""

    SLOT_NAMES: ClassVar[dict[str, str]] = {"mu": "m", "nu": "v"}

    def __init__(self, learning_rate: Any = 0.001, beta_1: Any = 0.9, beta_2: Any = 0.999, epsilon: Any = 1e-7,
                 name: str = "Adamax", **kwargs: Any) -> None:
        super().__init__(False, name)
        self._hyper_values = {"learning_rate": _lr(learning_rate, kwargs), "beta_1": beta_1, "beta_2": beta_2,
                              "epsilon": epsilon}

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_keras_adamax, ("learning_rate", "beta_1", "beta_2", "epsilon"))

    def _hyper(self) -> dict[str, Any]:
        return dict(self._hyper_values)


def get(identifier: Any) -> Optimizer:
    """An optimizer from a name (``'adam'``, ``'sgd'``: Keras' defaults) or an optimizer.

    Raises:
      ValueError: an unknown name or object.
    """
    if isinstance(identifier, Optimizer):
        return identifier
    table: dict[str, Any] = {"adam": Adam, "sgd": SGD, "rmsprop": RMSprop, "adagrad": Adagrad,
                             "adadelta": Adadelta, "adamax": Adamax}
    if isinstance(identifier, str) and identifier.lower() in table:
        return table[identifier.lower()]()  # type: ignore[abstract]
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r} (names: {sorted(table)}).")
