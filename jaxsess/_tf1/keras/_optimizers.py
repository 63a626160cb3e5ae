"""Keras 2's optimizers in graph mode, as ``tf.keras.optimizers`` (the legacy ``OptimizerV2``
classes TF's Keras uses in TF1 graph mode); the public face is ``jaxsess.keras.optimizers``.

Each is the :mod:`jaxsess.train` optimizer that computes the same update,
under Keras' argument names and defaults: ``Adam`` is TF1's Adam kernel with
``epsilon=1e-7``; ``SGD`` with momentum ``m`` is Keras' ``v = m v - lr g; w += v``
(TF1's ``a = m a + g; w -= lr a`` differs once the rate changes). ``RMSprop``
is Keras' own formula (``rms`` starting at zeros, ``epsilon`` outside the
square root), not TF1's. The learning rate is a variable (``optimizer.lr``)
that callbacks set, or a :mod:`~jaxsess.keras.optimizers.schedules` schedule called
with ``iterations`` (the updates applied so far); ``decay`` is Keras' ``lr / (1 + decay *
iterations)``. ``compile`` also takes a ``jaxsess.train`` optimizer or a name (``'adam'``, ``'sgd'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._attr_json import register_function
from jaxsess._core.graph._graph import Operation, Tensor, get_default_graph
from jaxsess._tf1.keras import _custom_objects as _custom_objects, _schedules as schedules, backend as K
from jaxsess._tf1.keras._schedules import LearningRateSchedule
from jaxsess._tf1.ops import math_ops as _math
from jaxsess._tf1.ops.state_ops import Variable
from jaxsess._tf1.train._adadelta import AdadeltaOptimizer
from jaxsess._tf1.train._optimizers import (
    AdamOptimizer,
    MomentumOptimizer,
    Optimizer as _TrainOptimizer,
    TransformationSpec,
    _build_sgd,
)
from jaxsess._tf1.train._proximal import FtrlOptimizer

if TYPE_CHECKING:
    import optax

__all__ = ["Adam", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam", "Ftrl", "Optimizer", "get", "serialize",
           "deserialize"]


def _lr(learning_rate: Any, kwargs: dict[str, Any]) -> Any:
    lr = kwargs.pop("lr", None)
    kwargs.pop("decay", None)  # read by _KerasOptimizer.__init__
    if kwargs:
        raise TypeError(f"Unexpected keyword argument passed to optimizer: {sorted(kwargs)[0]!r}")
    return learning_rate if lr is None else lr


class _KerasOptimizer(_TrainOptimizer):
    """Keras' hyperparameter variables: ``lr``/``learning_rate`` is a ``float32`` variable
    (``training/<name>/learning_rate``, made on first use in the default graph, read and set
    with ``keras.backend.get_value``/``set_value`` by callbacks such as ``LearningRateScheduler``),
    ``iterations`` counts the updates (``int64``), and Keras' legacy ``decay`` gives the learning
    rate ``lr / (1 + decay * iterations)``, as Keras 2's ``OptimizerV2`` in graph mode."""

    def _keras_init(self, learning_rate: Any, kwargs: dict[str, Any]) -> Any:
        self._decay = float(kwargs.get("decay", 0.0))
        if self._decay < 0:
            raise ValueError(f"decay cannot be less than 0. Received: decay={self._decay}.")
        self._lr_value = _lr(learning_rate, kwargs)
        self._lr_variable: Variable | None = None
        self._iterations: Variable | None = None
        return self._lr_value

    def _hyper_variable(self, name: str, value: Any, dtype: Any) -> Variable:
        graph = get_default_graph()
        with graph.name_scope(None), graph.name_scope("training"), graph.name_scope(self._name):
            v = Variable(np.asarray(value, dtype.as_numpy_dtype), trainable=False, name=name, dtype=dtype, use_resource=True)
        K.track_variable(v)
        return v

    @property
    def learning_rate(self) -> Any:
        """The learning rate: a ``float32`` variable (a tensor, callable or
        :class:`~jaxsess.keras.optimizers.schedules.LearningRateSchedule` given as the
        learning rate is returned as it is; a schedule is called with :attr:`iterations`
        in each update)."""
        if isinstance(self._lr_value, Tensor | Variable) or callable(self._lr_value):
            return self._lr_value
        if self._lr_variable is None or self._lr_variable.graph is not get_default_graph():
            self._lr_variable = self._hyper_variable("learning_rate", self._lr_value, _dtypes.float32)
        return self._lr_variable

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        if isinstance(value, LearningRateSchedule):
            self._lr_value, self._lr_variable = value, None
        elif self._lr_variable is not None and not isinstance(value, Tensor | Variable):
            K.set_value(self._lr_variable, value)
        else:
            self._lr_value = value

    lr = learning_rate

    @property
    def iterations(self) -> Variable:
        """The number of updates applied (``int64`` variable ``training/<name>/iter``)."""
        if self._iterations is None or self._iterations.graph is not get_default_graph():
            self._iterations = self._hyper_variable("iter", 0, _dtypes.int64)
        return self._iterations

    def _keras_lr(self) -> Any:
        lr = self.learning_rate
        if isinstance(lr, LearningRateSchedule):  # as tf_keras: called with the updates so far
            lr = _math.cast(lr(_math.cast(self.iterations, _dtypes.float32)), _dtypes.float32)
        if not self._decay:
            return lr
        step = _math.cast(self.iterations, _dtypes.float32)
        return _math.truediv(lr, _math.add(1.0, _math.multiply(self._decay, step)))

    def minimize(self, loss: Any, global_step: Any = None, var_list: Any = None, gate_gradients: int = 1,
                 aggregation_method: Any = None, colocate_gradients_with_ops: bool = False, name: str | None = None,
                 grad_loss: Any = None) -> Operation:
        """As the ``jaxsess.train`` optimizer's, counting the updates in :attr:`iterations`."""
        return super().minimize(loss, self.iterations if global_step is None else global_step, var_list,
                                gate_gradients, aggregation_method, colocate_gradients_with_ops, name, grad_loss)

    def _hyper(self) -> dict[str, Any]:
        hyper = super()._hyper()
        hyper["learning_rate"] = self._keras_lr()
        return hyper

    def get_config(self) -> dict[str, Any]:
        """The constructor's arguments, as tf_keras' legacy ``get_config``: ``name``,
        ``learning_rate`` (its value, read in the Keras session, or a schedule's
        :func:`~jaxsess.keras.optimizers.schedules.serialize`), ``decay`` and the class's own
        hyperparameters (``beta_1``, ``rho``, ``momentum``, ...)."""
        lr = self.learning_rate
        names = {"beta1": "beta_1", "beta2": "beta_2"}
        config: dict[str, Any] = {
            "name": self._name,
            "learning_rate": schedules.serialize(lr) if isinstance(lr, LearningRateSchedule)
            else float(K.get_value(lr)),
            "decay": self._decay,
        }
        for k, v in getattr(self, "_hyper_values", {}).items():
            if k != "learning_rate" and isinstance(v, int | float):
                config[names.get(k, k)] = float(v)
        return config

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Any:
        """``cls(**config)``, a schedule given as a config deserialized, as tf_keras' legacy
        ``from_config`` (the ``clipnorm``/``clipvalue``/... keys of TF's configs are dropped).

        Raises:
          TypeError: an argument the class does not take.
        """
        config = {k: v for k, v in config.items() if k not in _DROPPED_CONFIG_KEYS}
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = schedules.deserialize(config["learning_rate"], custom_objects)
        return cls(**config)


#: Keys of tf_keras' optimizer configs that jaxsess' optimizers do not take.
_DROPPED_CONFIG_KEYS = ("clipnorm", "clipvalue", "global_clipnorm", "jit_compile", "is_legacy_optimizer")


class Adam(_KerasOptimizer, AdamOptimizer):
    """Adam, as ``tf.keras.optimizers.Adam`` (learning_rate 0.001, beta_1 0.9,
    beta_2 0.999, epsilon 1e-7; ``lr`` is accepted for ``learning_rate``).

    Raises:
      NotImplementedError: ``amsgrad=True``.
    """

    def __init__(self, learning_rate: Any = 0.001, beta_1: Any = 0.9, beta_2: Any = 0.999, epsilon: Any = 1e-7,
                 amsgrad: bool = False, name: str = "Adam", **kwargs: Any) -> None:
        if amsgrad:
            raise NotImplementedError("keras.optimizers.Adam(amsgrad=True) is not supported.")
        super().__init__(self._keras_init(learning_rate, kwargs), beta_1, beta_2, epsilon, name=name)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "amsgrad": False}


def _build_keras_momentum(hyper: dict[str, Any], state: Any, *, use_nesterov: bool) -> optax.GradientTransformation:
    """Keras 2's momentum: ``v = m v - lr g``, ``var += v`` (Nesterov: ``var += m v - lr g``), the
    learning rate applied before the trace (TF1 applies it after: the same only for a constant rate)."""
    import optax  # as jaxsess.train's builders: optax loads with the first optimizer update

    return optax.chain(optax.scale_by_learning_rate(hyper["learning_rate"]),
                       optax.trace(decay=hyper["momentum"], nesterov=use_nesterov))


register_function("keras.optimizers._build_keras_momentum", _build_keras_momentum)


class SGD(_KerasOptimizer, MomentumOptimizer):
    """Gradient descent with optional (Nesterov) momentum, as ``tf.keras.optimizers.SGD``
    (learning_rate 0.01; ``lr`` is accepted for ``learning_rate``)."""

    def __init__(self, learning_rate: Any = 0.01, momentum: float = 0.0, nesterov: bool = False,
                 name: str = "SGD", **kwargs: Any) -> None:
        super().__init__(self._keras_init(learning_rate, kwargs), momentum, name=name, use_nesterov=nesterov)

    def _spec(self) -> TransformationSpec:
        if self._momentum == 0.0 and not self._use_nesterov:
            return TransformationSpec(_build_sgd, ("learning_rate",))
        return TransformationSpec(_build_keras_momentum, ("learning_rate", "momentum"),
                                  (("use_nesterov", self._use_nesterov),))

    def _hyper(self) -> dict[str, Any]:
        if self._momentum == 0.0 and not self._use_nesterov:
            return {"learning_rate": self._keras_lr()}
        return super()._hyper()

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "momentum": float(self._momentum), "nesterov": bool(self._use_nesterov)}


def _build_keras_rmsprop(hyper: dict[str, Any], state: Any) -> optax.GradientTransformation:
    """Keras 2's RMSprop without momentum: ``rms = rho rms + (1 - rho) g^2`` (from zeros),
    ``var -= lr g / (sqrt(rms) + epsilon)``."""
    import optax  # as jaxsess.train's builders: optax loads with the first optimizer update

    return optax.rmsprop(hyper["learning_rate"], decay=hyper["rho"], eps=hyper["epsilon"], initial_scale=0.0,
                         eps_in_sqrt=False)


register_function("keras.optimizers._build_keras_rmsprop", _build_keras_rmsprop)


class _RMSpropState(NamedTuple):
    nu: Any  # slot "rms"
    mom: Any  # slot "momentum"
    mg: Any  # slot "mg" (centered; zeros otherwise)


def _build_keras_rmsprop_momentum(hyper: dict[str, Any], state: Any, *, momentum: float, centered: bool
                                  ) -> optax.GradientTransformation:
    """Keras 2's RMSprop with momentum (TF's ``ApplyRMSProp``/``ApplyCenteredRMSProp``):
    ``rms = rho rms + (1 - rho) g^2``, centered ``mg = rho mg + (1 - rho) g``,
    ``mom = momentum mom + lr g / sqrt(rms [- mg^2] + epsilon)``, ``var -= mom``;
    centered without momentum: ``var -= lr g / (sqrt(rms - mg^2) + epsilon)``."""
    import optax

    lr, rho, eps = hyper["learning_rate"], hyper["rho"], hyper["epsilon"]

    def init(params: Any) -> _RMSpropState:
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return _RMSpropState(zeros, zeros, zeros)

    def update(grads: Any, st: _RMSpropState, params: Any = None) -> tuple[Any, _RMSpropState]:
        tm = jax.tree_util.tree_map
        nu = tm(lambda r, g: rho * r + (1 - rho) * g * g, st.nu, grads)
        mg = tm(lambda a, g: rho * a + (1 - rho) * g, st.mg, grads) if centered else st.mg
        denom = tm(lambda r, a: r - a * a, nu, mg) if centered else nu
        if momentum:
            mom = tm(lambda m, g, d: momentum * m + lr * g / jnp.sqrt(d + eps), st.mom, grads, denom)
            return tm(lambda m: -m, mom), _RMSpropState(nu, mom, mg)
        updates = tm(lambda g, d: -lr * g / (jnp.sqrt(d) + eps), grads, denom)
        return updates, _RMSpropState(nu, st.mom, mg)

    return optax.GradientTransformation(init, update)  # type: ignore[arg-type]


register_function("keras.optimizers._build_keras_rmsprop_momentum", _build_keras_rmsprop_momentum)


class RMSprop(_KerasOptimizer):
    """RMSprop, as ``tf.keras.optimizers.RMSprop`` (learning_rate 0.001, rho 0.9,
    epsilon 1e-7; slot ``rms``, zeros): ``rms = rho rms + (1 - rho) g^2``,
    ``var -= lr g / (sqrt(rms) + epsilon)``; with ``momentum`` or ``centered``,
    Keras' formulas of :func:`_build_keras_rmsprop_momentum` (slots ``momentum``, ``mg``).
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"nu": "rms", "mom": "momentum", "mg": "mg"}

    def __init__(self, learning_rate: Any = 0.001, rho: Any = 0.9, momentum: float = 0.0, epsilon: Any = 1e-7,
                 centered: bool = False, name: str = "RMSprop", **kwargs: Any) -> None:
        super().__init__(False, name)
        self._momentum, self._centered = float(momentum), bool(centered)
        self._hyper_values = {"learning_rate": self._keras_init(learning_rate, kwargs), "rho": rho,
                              "epsilon": epsilon}

    def _spec(self) -> TransformationSpec:
        if self._momentum or self._centered:
            return TransformationSpec(_build_keras_rmsprop_momentum, ("learning_rate", "rho", "epsilon"),
                                      (("momentum", self._momentum), ("centered", self._centered)))
        return TransformationSpec(_build_keras_rmsprop, ("learning_rate", "rho", "epsilon"))

    def _hyper(self) -> dict[str, Any]:
        return {**self._hyper_values, "learning_rate": self._keras_lr()}

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        return {**config, "momentum": self._momentum, "epsilon": config.pop("epsilon"), "centered": self._centered}


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


class _NadamState(NamedTuple):
    m_cache: Any  # the product of the momentum schedule so far (Keras' "momentum_cache", from 1)
    step: Any  # updates applied so far
    mu: Any  # slot "m"
    nu: Any  # slot "v"


def _build_keras_nadam(hyper: dict[str, Any], state: Any, *, schedule_decay: float) -> optax.GradientTransformation:
    """Keras 2's Nadam (``optimizers/legacy/nadam.py``): the momentum schedule
    ``mu_t = b1 (1 - 0.5 * 0.96^(decay t))`` and its running product, bias-corrected
    ``m`` and ``v``, ``var -= lr * m_bar / (sqrt(v_hat) + epsilon)``."""
    import optax

    lr, b1, b2, eps = hyper["learning_rate"], hyper["beta_1"], hyper["beta_2"], hyper["epsilon"]

    def init(params: Any) -> _NadamState:
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return _NadamState(jnp.asarray(1.0, jnp.float32), jnp.asarray(0.0, jnp.float32), zeros, zeros)

    def update(grads: Any, st: _NadamState, params: Any = None) -> tuple[Any, _NadamState]:
        t = st.step + 1.0
        m_t = b1 * (1.0 - 0.5 * jnp.power(0.96, schedule_decay * t))
        m_t_1 = b1 * (1.0 - 0.5 * jnp.power(0.96, schedule_decay * (t + 1.0)))
        sched_new = st.m_cache * m_t
        sched_next = sched_new * m_t_1
        mu = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, st.mu, grads)
        nu = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, st.nu, grads)

        def step(g: Any, m: Any, v: Any) -> Any:
            m_bar = (1.0 - m_t) * (g / (1.0 - sched_new)) + m_t_1 * (m / (1.0 - sched_next))
            v_hat = v / (1.0 - jnp.power(b2, t))
            return -lr * m_bar / (jnp.sqrt(v_hat) + eps)

        updates = jax.tree_util.tree_map(step, grads, mu, nu)
        return updates, _NadamState(sched_new, t, mu, nu)

    return optax.GradientTransformation(init, update)  # type: ignore[arg-type]


register_function("keras.optimizers._build_keras_nadam", _build_keras_nadam)
register_function("keras.optimizers._build_keras_adagrad", _build_keras_adagrad)
register_function("keras.optimizers._build_keras_adamax", _build_keras_adamax)


class Adagrad(_KerasOptimizer):
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
        self._hyper_values = {"learning_rate": self._keras_init(learning_rate, kwargs), "epsilon": epsilon}
        self._initial_accumulator_value = float(initial_accumulator_value)

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_keras_adagrad, ("learning_rate", "epsilon"),
                                  (("initial_accumulator_value", self._initial_accumulator_value),))

    def _hyper(self) -> dict[str, Any]:
        return {**self._hyper_values, "learning_rate": self._keras_lr()}

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        return {**config, "initial_accumulator_value": self._initial_accumulator_value,
                "epsilon": config.pop("epsilon")}


class Adadelta(_KerasOptimizer, AdadeltaOptimizer):
    """Adadelta, as ``tf.keras.optimizers.Adadelta`` (learning_rate 0.001, rho
    0.95, epsilon 1e-7; slots ``accum_grad`` and ``accum_var``): TF's
    ``ApplyAdadelta``, the rule of :class:`jaxsess.train.AdadeltaOptimizer`."""

    SLOT_NAMES: ClassVar[dict[str, str]] = {"e_g": "accum_grad", "e_x": "accum_var"}

    def __init__(self, learning_rate: Any = 0.001, rho: Any = 0.95, epsilon: Any = 1e-7, name: str = "Adadelta",
                 **kwargs: Any) -> None:
        super().__init__(self._keras_init(learning_rate, kwargs), rho, epsilon, name=name)


class Adamax(_KerasOptimizer):
    """Adamax, as ``tf.keras.optimizers.Adamax`` (learning_rate 0.001, beta_1
    0.9, beta_2 0.999, epsilon 1e-7; slots ``m`` and ``v``): TF's
    ``ApplyAdaMax``, ``v = max(beta_2 v, |g|)``, ``var -= lr / (1 - beta_1^t)
    * m / (v + epsilon)``."""

    SLOT_NAMES: ClassVar[dict[str, str]] = {"mu": "m", "nu": "v"}

    def __init__(self, learning_rate: Any = 0.001, beta_1: Any = 0.9, beta_2: Any = 0.999, epsilon: Any = 1e-7,
                 name: str = "Adamax", **kwargs: Any) -> None:
        super().__init__(False, name)
        self._hyper_values = {"learning_rate": self._keras_init(learning_rate, kwargs), "beta_1": beta_1,
                              "beta_2": beta_2, "epsilon": epsilon}

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_keras_adamax, ("learning_rate", "beta_1", "beta_2", "epsilon"))

    def _hyper(self) -> dict[str, Any]:
        return {**self._hyper_values, "learning_rate": self._keras_lr()}


class Nadam(_KerasOptimizer):
    """Nadam (Adam with Nesterov momentum), as ``tf.keras.optimizers.Nadam``
    (learning_rate 0.001, beta_1 0.9, beta_2 0.999, epsilon 1e-7, Keras'
    ``schedule_decay`` 0.004 of the momentum schedule; slots ``m``, ``v``): Keras 2's
    legacy formula (see :func:`_build_keras_nadam`).

    Raises:
      ValueError: a :class:`~jaxsess.keras.optimizers.schedules.LearningRateSchedule` as the
        learning rate, as tf_keras' legacy Nadam.
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"mu": "m", "nu": "v"}

    def __init__(self, learning_rate: Any = 0.001, beta_1: Any = 0.9, beta_2: Any = 0.999, epsilon: Any = 1e-7,
                 name: str = "Nadam", **kwargs: Any) -> None:
        if isinstance(learning_rate, LearningRateSchedule):
            raise ValueError("The Nadam optimizer does not support tf.keras.optimizers.LearningRateSchedules as the "
                             "learning rate.")
        super().__init__(False, name)
        # Keras: the schedule's decay is the optimizer's `decay`, 0.004 unless given
        self._schedule_decay = float(kwargs.pop("schedule_decay", kwargs.pop("decay", 0.004)))
        self._hyper_values = {"learning_rate": self._keras_init(learning_rate, kwargs), "beta_1": beta_1,
                              "beta_2": beta_2, "epsilon": epsilon}

    def _spec(self) -> TransformationSpec:
        return TransformationSpec(_build_keras_nadam, ("learning_rate", "beta_1", "beta_2", "epsilon"),
                                  (("schedule_decay", self._schedule_decay),))

    def _hyper(self) -> dict[str, Any]:
        return {**self._hyper_values, "learning_rate": self._keras_lr()}

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "decay": self._schedule_decay}  # Keras' Nadam: its schedule's decay


class Ftrl(_KerasOptimizer, FtrlOptimizer):
    """FTRL-Proximal, as ``tf.keras.optimizers.Ftrl`` (Keras 2's legacy class; learning_rate 0.001,
    learning_rate_power -0.5, initial_accumulator_value 0.1, slots ``accumulator`` and ``linear``):
    TF's ``ApplyFtrl``/``ApplyFtrlV2``, the rule of :class:`jaxsess.train.FtrlOptimizer`, with ``beta``
    added to the L2 strength as ``beta / (2 lr)``.

    Raises:
      ValueError: a negative ``initial_accumulator_value``, L1, L2 or L2-shrinkage strength, or a
        positive ``learning_rate_power`` (tf_keras' messages).
    """

    SLOT_NAMES: ClassVar[dict[str, str]] = {"accum": "accumulator", "linear": "linear"}

    def __init__(self, learning_rate: Any = 0.001, learning_rate_power: float = -0.5,
                 initial_accumulator_value: float = 0.1, l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0, name: str = "Ftrl",
                 l2_shrinkage_regularization_strength: float = 0.0, beta: float = 0.0, **kwargs: Any) -> None:
        checks = (("initial_accumulator_value", initial_accumulator_value, "positive or zero"),
                  ("learning_rate_power", -learning_rate_power, "negative or zero"),
                  ("l1_regularization_strength", l1_regularization_strength, "positive or zero"),
                  ("l2_regularization_strength", l2_regularization_strength, "positive or zero"),
                  ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength, "positive or zero"))
        for key, value, rule in checks:
            if value < 0.0:
                given = -value if key == "learning_rate_power" else value
                raise ValueError(f"`{key}` needs to be {rule}. Received: {key}={given}.")
        super().__init__(self._keras_init(learning_rate, kwargs), learning_rate_power, initial_accumulator_value,
                         l1_regularization_strength, l2_regularization_strength, name=name,
                         l2_shrinkage_regularization_strength=l2_shrinkage_regularization_strength, beta=beta)

    def get_config(self) -> dict[str, Any]:
        static = dict(self._static)
        return {**super().get_config(), "initial_accumulator_value": static["initial_accumulator_value"],
                "learning_rate_power": static["learning_rate_power"], "l1_regularization_strength": static["l1"],
                "l2_regularization_strength": static["l2"], "beta": static["beta"],
                "l2_shrinkage_regularization_strength": static["l2_shrinkage"]}


#: The base of Keras' optimizers (``isinstance(opt, keras.optimizers.Optimizer)``).
Optimizer = _KerasOptimizer


_BY_NAME: dict[str, Any] = {"adam": Adam, "sgd": SGD, "rmsprop": RMSprop, "adagrad": Adagrad,
                            "adadelta": Adadelta, "adamax": Adamax, "nadam": Nadam, "ftrl": Ftrl}


def serialize(optimizer: _KerasOptimizer) -> dict[str, Any]:
    """``{"class_name": ..., "config": optimizer.get_config()}``, as ``tf.keras.optimizers.serialize``."""
    return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


def deserialize(config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Any:
    """The optimizer of a :func:`serialize` config (or tf_keras': its ``"module"`` key ignored), as
    ``tf.keras.optimizers.deserialize``; class names are case-insensitive, user classes come from
    ``custom_objects`` and the open ``keras.utils.custom_object_scope`` s.

    Raises:
      ValueError: an unknown class name.
    """
    name = config["class_name"]
    custom = {**_custom_objects.active_custom_objects(), **(custom_objects or {})}
    cls = custom.get(name) or _BY_NAME.get(name.lower())
    if cls is None and name.startswith("Custom>"):  # tf_keras >= 2.11 saves its optimizers as "Custom>Adam"
        cls = _BY_NAME.get(name[len("Custom>"):].lower())
    if cls is None:
        raise ValueError(f"Unknown optimizer: {name!r}. Please ensure it is in `custom_objects`. "
                         f"Known: {sorted(_BY_NAME)}.")
    args = dict(config.get("config") or {})
    # tf_keras' new optimizers' keys, when they hold their off values (weight decay, EMA of weights)
    if args.get("weight_decay") is None:
        args.pop("weight_decay", None)
    if not args.get("use_ema"):
        for key in ("use_ema", "ema_momentum", "ema_overwrite_frequency"):
            args.pop(key, None)
    if hasattr(cls, "from_config"):
        return cls.from_config(args, custom_objects) if issubclass(cls, _KerasOptimizer) else cls.from_config(args)
    return cls(**args)


def get(identifier: Any) -> _TrainOptimizer:
    """An optimizer from a name (``'adam'``, ``'sgd'``: Keras' defaults), a config dict
    (:func:`deserialize`) or an optimizer (returned as it is), as ``tf.keras.optimizers.get``.

    Raises:
      ValueError: an unknown name or object.
    """
    if isinstance(identifier, _TrainOptimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)  # type: ignore[no-any-return]
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r} (names: {sorted(_BY_NAME)}).")
