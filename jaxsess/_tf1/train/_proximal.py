"""The TF1 optimizers with l1/l2 proximal steps, the linear models' optimizers, on
the machinery of :mod:`jaxsess._tf1.train._optimizers`: ``FtrlOptimizer``,
``ProximalGradientDescentOptimizer``, ``ProximalAdagradOptimizer`` and
``AdagradDAOptimizer`` (TF's ``ftrl.py``, ``proximal_gradient_descent.py``,
``proximal_adagrad.py``, ``adagrad_da.py``). optax has none of these rules: each
transformation is written here from TF's kernel (``ApplyFtrlV2``,
``ApplyProximalGradientDescent``, ``ApplyProximalAdagrad``, ``ApplyAdagradDA``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import jax
import jax.numpy as jnp

from jaxsess._core.graph._attr_json import register_function
from jaxsess._tf1.train._optimizers import Optimizer, TransformationSpec

if TYPE_CHECKING:  # optax is imported when an update is built, as in _optimizers
    import optax

__all__ = [
    "FtrlOptimizer", "ProximalGradientDescentOptimizer", "ProximalAdagradOptimizer",
    "AdagradDAOptimizer",
]


class FtrlState(NamedTuple):
    """FTRL's per-parameter state (TF1 slots ``accum`` and ``linear``)."""

    accum: Any  # like the parameters; starts at initial_accumulator_value
    linear: Any  # like the parameters; starts at zeros


def _ftrl(learning_rate: Any, learning_rate_power: float, initial_accumulator_value: float, l1: float, l2: float,
          l2_shrinkage: float) -> optax.GradientTransformation:
    import optax

    def init(params: Any) -> FtrlState:
        return FtrlState(jax.tree.map(lambda p: jnp.full_like(p, initial_accumulator_value), params),
                         jax.tree.map(jnp.zeros_like, params))

    def one(g: Any, p: Any, accum: Any, linear: Any) -> tuple[Any, Any, Any]:
        g_shrunk = g + 2.0 * l2_shrinkage * p if l2_shrinkage else g
        new_accum = accum + g * g
        if learning_rate_power == -0.5:
            sigma = (jnp.sqrt(new_accum) - jnp.sqrt(accum)) / learning_rate
            quadratic = jnp.sqrt(new_accum) / learning_rate + 2.0 * l2
        else:
            power = -learning_rate_power
            sigma = (new_accum**power - accum**power) / learning_rate
            quadratic = new_accum**power / learning_rate + 2.0 * l2
        new_linear = linear + g_shrunk - sigma * p
        new_p = jnp.where(jnp.abs(new_linear) > l1, (jnp.sign(new_linear) * l1 - new_linear) / quadratic, 0.0)
        return new_p - p, new_accum, new_linear

    def update(grads: Any, state: FtrlState, params: Any = None) -> tuple[Any, FtrlState]:
        out = jax.tree.map(one, grads, params, state.accum, state.linear)
        is_leaf = lambda x: isinstance(x, tuple)  # noqa: E731
        updates = jax.tree.map(lambda t: t[0], out, is_leaf=is_leaf)
        accum = jax.tree.map(lambda t: t[1], out, is_leaf=is_leaf)
        linear = jax.tree.map(lambda t: t[2], out, is_leaf=is_leaf)
        return updates, FtrlState(accum, linear)

    return optax.GradientTransformation(init, update)  # type: ignore[arg-type]


def _build_ftrl(hyper: dict[str, Any], state: Any, *, learning_rate_power: float, initial_accumulator_value: float,
                l1: float, l2: float, l2_shrinkage: float, beta: float) -> optax.GradientTransformation:
    lr = hyper["learning_rate"]
    return _ftrl(lr, learning_rate_power, initial_accumulator_value, l1, l2 + beta / (2.0 * lr), l2_shrinkage)


def _shrink(prox: Any, threshold: Any, l1: float, l2_scale: Any) -> Any:
    """TF's proximal step: soft-threshold ``prox`` by ``threshold`` (when ``l1 > 0``), divide by ``1 + l2_scale``."""
    if l1 > 0.0:
        prox = jnp.sign(prox) * jnp.maximum(jnp.abs(prox) - threshold, 0.0)
    return prox / (1.0 + l2_scale)


def _build_proximal_sgd(hyper: dict[str, Any], state: Any, *, l1: float, l2: float) -> optax.GradientTransformation:
    import optax

    lr = hyper["learning_rate"]

    def update(grads: Any, state: Any, params: Any = None) -> tuple[Any, Any]:
        new = jax.tree.map(lambda g, p: _shrink(p - lr * g, lr * l1, l1, lr * l2) - p, grads, params)
        return new, state

    return optax.GradientTransformation(lambda params: optax.EmptyState(), update)  # type: ignore[arg-type]


class ProximalAdagradState(NamedTuple):
    """Proximal Adagrad's per-parameter state (TF1 slot ``accumulator``)."""

    accumulator: Any  # like the parameters; starts at initial_accumulator_value


def _build_proximal_adagrad(hyper: dict[str, Any], state: Any, *, initial_accumulator_value: float, l1: float,
                            l2: float) -> optax.GradientTransformation:
    import optax

    lr = hyper["learning_rate"]

    def init(params: Any) -> ProximalAdagradState:
        return ProximalAdagradState(jax.tree.map(lambda p: jnp.full_like(p, initial_accumulator_value), params))

    def one(g: Any, p: Any, accum: Any) -> tuple[Any, Any]:
        new_accum = accum + g * g
        step = lr * jax.lax.rsqrt(new_accum)
        return _shrink(p - step * g, step * l1, l1, step * l2) - p, new_accum

    def update(grads: Any, state: ProximalAdagradState, params: Any = None) -> tuple[Any, ProximalAdagradState]:
        out = jax.tree.map(one, grads, params, state.accumulator)
        is_leaf = lambda x: isinstance(x, tuple)  # noqa: E731
        return (jax.tree.map(lambda t: t[0], out, is_leaf=is_leaf),
                ProximalAdagradState(jax.tree.map(lambda t: t[1], out, is_leaf=is_leaf)))

    return optax.GradientTransformation(init, update)  # type: ignore[arg-type]


class AdagradDAState(NamedTuple):
    """Adagrad dual averaging's per-parameter state (TF1 slots)."""

    gradient_accumulator: Any  # like the parameters; starts at zeros
    gradient_squared_accumulator: Any  # starts at initial_gradient_squared_accumulator_value


def _build_adagrad_da(hyper: dict[str, Any], state: Any, *, initial_gradient_squared_accumulator_value: float,
                      l1: float, l2: float) -> optax.GradientTransformation:
    import optax

    lr = hyper["learning_rate"]
    step = hyper["global_step"] + 1.0  # as TF: the step after this update

    def init(params: Any) -> AdagradDAState:
        return AdagradDAState(
            jax.tree.map(jnp.zeros_like, params),
            jax.tree.map(lambda p: jnp.full_like(p, initial_gradient_squared_accumulator_value), params),
        )

    def one(g: Any, p: Any, acc: Any, sq: Any) -> tuple[Any, Any, Any]:
        acc, sq = acc + g, sq + g * g
        num = jnp.sign(-acc) * jnp.maximum(jnp.abs(acc) - l1 * step, 0.0) if l1 > 0.0 else -acc
        return lr * num / (l2 * step * lr + jnp.sqrt(sq)) - p, acc, sq

    def update(grads: Any, state: AdagradDAState, params: Any = None) -> tuple[Any, AdagradDAState]:
        out = jax.tree.map(one, grads, params, state.gradient_accumulator, state.gradient_squared_accumulator)
        is_leaf = lambda x: isinstance(x, tuple)  # noqa: E731
        pick = lambda i: jax.tree.map(lambda t: t[i], out, is_leaf=is_leaf)  # noqa: E731
        return pick(0), AdagradDAState(pick(1), pick(2))

    return optax.GradientTransformation(init, update)  # type: ignore[arg-type]


for _fn in (_build_ftrl, _build_proximal_sgd, _build_proximal_adagrad, _build_adagrad_da):
    register_function(f"train.{_fn.__name__}", _fn)  # graph defs may hold these (by name)


class FtrlOptimizer(Optimizer):
    """FTRL-Proximal, as ``tf.compat.v1.train.FtrlOptimizer`` (TF's ``ApplyFtrlV2``).

    Per element, with ``p = -learning_rate_power``: ``g' = g + 2
    l2_shrinkage var``; ``new_accum = accum + g^2``; ``linear += g' -
    (new_accum^p - accum^p) / lr * var``; ``var = (sign(linear) l1 - linear)
    / (new_accum^p / lr + 2 l2)`` where ``|linear| > l1``, else 0. ``beta``
    adds ``beta / (2 lr)`` to ``l2``. Slots ``'accum'``
    (``initial_accumulator_value``) and ``'linear'`` (zeros).

    Args:
      learning_rate: float or scalar tensor.
      learning_rate_power: <= 0 (default -0.5).
      initial_accumulator_value: >= 0 (default 0.1).
      l1_regularization_strength, l2_regularization_strength,
      l2_shrinkage_regularization_strength: >= 0.
      name: default ``'Ftrl'``.

    Raises:
      ValueError: a hyperparameter out of range (as TF).
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"accum": "accum", "linear": "linear"}

    def __init__(self, learning_rate: Any, learning_rate_power: float = -0.5, initial_accumulator_value: float = 0.1,
                 l1_regularization_strength: float = 0.0, l2_regularization_strength: float = 0.0,
                 use_locking: bool = False, name: str = "Ftrl", accum_name: str | None = None,
                 linear_name: str | None = None, l2_shrinkage_regularization_strength: float = 0.0,
                 beta: float | None = None) -> None:
        if initial_accumulator_value < 0.0:
            raise ValueError(f"initial_accumulator_value {initial_accumulator_value} needs to be positive or zero")
        if learning_rate_power > 0.0:
            raise ValueError(f"learning_rate_power {learning_rate_power} needs to be negative or zero")
        if l1_regularization_strength < 0.0:
            raise ValueError(f"l1_regularization_strength {l1_regularization_strength} needs to be positive or zero")
        if l2_regularization_strength < 0.0:
            raise ValueError(f"l2_regularization_strength {l2_regularization_strength} needs to be positive or zero")
        if l2_shrinkage_regularization_strength < 0.0:
            raise ValueError(f"l2_shrinkage_regularization_strength {l2_shrinkage_regularization_strength} needs to "
                             "be positive or zero")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._static = (
            ("learning_rate_power", float(learning_rate_power)),
            ("initial_accumulator_value", float(initial_accumulator_value)),
            ("l1", float(l1_regularization_strength)),
            ("l2", float(l2_regularization_strength)),
            ("l2_shrinkage", float(l2_shrinkage_regularization_strength)),
            ("beta", 0.0 if beta is None else float(beta)),
        )

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_ftrl, ("learning_rate",), self._static)

    def _hyper(self) -> dict[str, Any]:
        return {"learning_rate": self._learning_rate}


class ProximalGradientDescentOptimizer(Optimizer):
    """Proximal gradient descent, as ``tf.compat.v1.train.ProximalGradientDescentOptimizer``
    (TF's ``ApplyProximalGradientDescent``).

    ``prox = var - lr g``; ``var = sign(prox) max(|prox| - lr l1, 0) / (1 + lr l2)``
    (without the soft threshold when ``l1 == 0``). No slots.

    Args:
      learning_rate: float or scalar tensor.
      l1_regularization_strength, l2_regularization_strength: floats >= 0.
      name: default ``'ProximalGradientDescent'``.
    """

    def __init__(self, learning_rate: Any, l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0, use_locking: bool = False,
                 name: str = "ProximalGradientDescent") -> None:
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._static = (("l1", float(l1_regularization_strength)), ("l2", float(l2_regularization_strength)))

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_proximal_sgd, ("learning_rate",), self._static)

    def _hyper(self) -> dict[str, Any]:
        return {"learning_rate": self._learning_rate}


class ProximalAdagradOptimizer(Optimizer):
    """Proximal Adagrad, as ``tf.compat.v1.train.ProximalAdagradOptimizer`` (TF's ``ApplyProximalAdagrad``).

    ``accum += g^2``; ``a = lr / sqrt(accum)``; ``prox = var - a g``; ``var =
    sign(prox) max(|prox| - a l1, 0) / (1 + a l2)``. Slot ``'accumulator'``
    (``initial_accumulator_value``).

    Args:
      learning_rate: float or scalar tensor.
      initial_accumulator_value: a positive float.
      l1_regularization_strength, l2_regularization_strength: floats >= 0.
      name: default ``'ProximalAdagrad'``.

    Raises:
      ValueError: ``initial_accumulator_value`` is not positive.
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"accumulator": "accumulator"}

    def __init__(self, learning_rate: Any, initial_accumulator_value: float = 0.1,
                 l1_regularization_strength: float = 0.0, l2_regularization_strength: float = 0.0,
                 use_locking: bool = False, name: str = "ProximalAdagrad") -> None:
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._static = (("initial_accumulator_value", float(initial_accumulator_value)),
                        ("l1", float(l1_regularization_strength)), ("l2", float(l2_regularization_strength)))

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_proximal_adagrad, ("learning_rate",), self._static)

    def _hyper(self) -> dict[str, Any]:
        return {"learning_rate": self._learning_rate}


class AdagradDAOptimizer(Optimizer):
    """Adagrad dual averaging, as ``tf.compat.v1.train.AdagradDAOptimizer`` (TF's ``ApplyAdagradDA``).

    With ``t = global_step + 1``: ``acc += g``; ``sq += g^2``; ``var = lr
    sign(-acc) max(|acc| - l1 t, 0) / (l2 t lr + sqrt(sq))`` (``-acc`` in
    place of the threshold when ``l1 == 0``). Slots
    ``'gradient_accumulator'`` (zeros) and ``'gradient_squared_accumulator'``
    (``initial_gradient_squared_accumulator_value``).

    Args:
      learning_rate: float or scalar tensor.
      global_step: the global step variable (read when the update runs).
      initial_gradient_squared_accumulator_value: a positive float.
      l1_regularization_strength, l2_regularization_strength: floats >= 0.
      name: default ``'AdagradDA'``.

    Raises:
      ValueError: ``initial_gradient_squared_accumulator_value`` is not positive.
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {
        "gradient_accumulator": "gradient_accumulator",
        "gradient_squared_accumulator": "gradient_squared_accumulator",
    }

    def __init__(self, learning_rate: Any, global_step: Any, initial_gradient_squared_accumulator_value: float = 0.1,
                 l1_regularization_strength: float = 0.0, l2_regularization_strength: float = 0.0,
                 use_locking: bool = False, name: str = "AdagradDA") -> None:
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError("initial_gradient_squared_accumulator_value must be positive: "
                             f"{initial_gradient_squared_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._global_step = global_step
        self._static = (
            ("initial_gradient_squared_accumulator_value", float(initial_gradient_squared_accumulator_value)),
            ("l1", float(l1_regularization_strength)), ("l2", float(l2_regularization_strength)),
        )

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_adagrad_da, ("learning_rate", "global_step"), self._static)

    def _hyper(self) -> dict[str, Any]:
        return {"learning_rate": self._learning_rate, "global_step": self._global_step}
