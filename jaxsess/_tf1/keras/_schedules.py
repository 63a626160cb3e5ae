"""``jaxsess.keras.optimizers.schedules``: learning rates as functions of the step, as
``tf.keras.optimizers.schedules`` (Keras 2).

A schedule is a callable ``step -> learning rate`` that builds graph ops: ``step``
is a scalar tensor (or number), the result a scalar tensor of the initial learning
rate's dtype (``float32`` for a Python number). Given as the ``learning_rate`` of a
:mod:`jaxsess.keras.optimizers` optimizer, it is called with the optimizer's
``iterations`` (the number of updates applied before this one: 0 for the first),
cast to ``float32``, as tf_keras' ``OptimizerV2._decayed_lr``.
"""

from __future__ import annotations

import math
from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._graph import get_default_graph
from jaxsess._tf1.keras import _custom_objects as _custom_objects
from jaxsess._tf1.ops import math_ops as _math

__all__ = ["LearningRateSchedule", "ExponentialDecay", "PiecewiseConstantDecay", "PolynomialDecay",
           "InverseTimeDecay", "CosineDecay", "CosineDecayRestarts", "serialize", "deserialize"]


class LearningRateSchedule:
    """The base of learning-rate schedules, as ``tf.keras.optimizers.schedules.LearningRateSchedule``:
    subclasses define ``__call__(step)`` (a scalar tensor) and ``get_config()``."""

    def __call__(self, step: Any) -> Any:
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override `__call__(self, step)`.")

    def get_config(self) -> dict[str, Any]:
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override `get_config()` in "
                                  "order to be serializable.")

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Any:
        """``cls(**config)``."""
        return cls(**config)


def _initial(value: Any) -> Any:
    """The initial learning rate as a tensor (``float32`` for a Python number)."""
    if type(value) in (int, float):  # not NumPy scalars: np.float64 keeps its dtype, as TF
        return convert_to_tensor(float(value), dtype=_dtypes.float32, name="initial_learning_rate")
    return convert_to_tensor(value, name="initial_learning_rate")


def _as(x: Any, dtype: Any) -> Any:
    return _math.cast(x, dtype)


class _RateDecay(LearningRateSchedule):
    """The schedules of ``initial_learning_rate``, ``decay_steps``, ``decay_rate`` and
    ``staircase`` (exponential and inverse time): ``_decay(lr, rate, p)`` with ``p = step /
    decay_steps`` (floored when ``staircase``) in the initial learning rate's dtype."""

    _default_name = ""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, decay_rate: Any, staircase: bool = False,
                 name: str | None = None) -> None:
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def _decay(self, lr: Any, rate: Any, p: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def __call__(self, step: Any) -> Any:
        with get_default_graph().name_scope(self.name or self._default_name):
            lr = _initial(self.initial_learning_rate)
            p = _math.truediv(_as(step, lr.dtype), _as(self.decay_steps, lr.dtype))
            if self.staircase:
                p = _math.floor(p)
            return self._decay(lr, _as(self.decay_rate, lr.dtype), p)

    def get_config(self) -> dict[str, Any]:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_RateDecay):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)`` (the exponent floored when
    ``staircase``), as tf_keras' ``ExponentialDecay``."""

    _default_name = "ExponentialDecay"

    def _decay(self, lr: Any, rate: Any, p: Any) -> Any:
        return _math.multiply(lr, _math.pow(rate, p))


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[0]`` for ``step <= boundaries[0]``, ``values[i]`` for ``boundaries[i-1] < step <=
    boundaries[i]``, ``values[-1]`` after the last boundary, as tf_keras' ``PiecewiseConstantDecay``
    (the result has the values' dtype).

    Raises:
      ValueError: ``len(boundaries) != len(values) - 1``.
    """

    def __init__(self, boundaries: Any, values: Any, name: str | None = None) -> None:
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                "The length of boundaries should be 1 less than the length of values. Received: "
                f"boundaries={boundaries} of length {len(boundaries)}, and values={values} of length {len(values)}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step: Any) -> Any:
        with get_default_graph().name_scope(self.name or "PiecewiseConstant"):
            x = convert_to_tensor(step)
            values = [_initial(v) for v in self.values]
            out = values[-1]
            # from the last interval down, so the first matching condition wins, as tf.case
            for b, v in zip(reversed(self.boundaries), reversed(values[:-1]), strict=True):
                out = _math.where(_math.less_equal(x, _as(b, x.dtype)), v, out)
            return out

    def get_config(self) -> dict[str, Any]:
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """``(initial - end) * (1 - step / decay_steps) ** power + end``, the step held at ``decay_steps``
    (or, with ``cycle``, ``decay_steps`` multiplied by ``ceil(step / decay_steps)``), as tf_keras'
    ``PolynomialDecay`` (``end_learning_rate`` 0.0001, ``power`` 1)."""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, end_learning_rate: Any = 0.0001,
                 power: Any = 1.0, cycle: bool = False, name: str | None = None) -> None:
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def __call__(self, step: Any) -> Any:
        with get_default_graph().name_scope(self.name or "PolynomialDecay"):
            lr = _initial(self.initial_learning_rate)
            end = _as(self.end_learning_rate, lr.dtype)
            s = _as(step, lr.dtype)
            steps = _as(self.decay_steps, lr.dtype)
            if self.cycle:
                mult = _math.where(_math.equal(s, 0.0), _as(1.0, lr.dtype), _math.ceil(_math.truediv(s, steps)))
                steps = _math.multiply(steps, mult)
            else:
                s = _math.minimum(s, steps)
            p = _math.truediv(s, steps)
            return _math.add(_math.multiply(_math.subtract(lr, end),
                                            _math.pow(_math.subtract(1.0, p), _as(self.power, lr.dtype))), end)

    def get_config(self) -> dict[str, Any]:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate, "power": self.power, "cycle": self.cycle,
                "name": self.name}


class InverseTimeDecay(_RateDecay):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)`` (the ratio floored when
    ``staircase``), as tf_keras' ``InverseTimeDecay``."""

    _default_name = "InverseTimeDecay"

    def _decay(self, lr: Any, rate: Any, p: Any) -> Any:
        return _math.truediv(lr, _math.add(1.0, _math.multiply(rate, p)))


class CosineDecay(LearningRateSchedule):
    """``lr * ((1 - alpha) * 0.5 * (1 + cos(pi * s / decay_steps)) + alpha)`` with ``s`` the step held
    at ``decay_steps``, as tf_keras' ``CosineDecay``; with ``warmup_target``, first a linear
    warmup from ``initial_learning_rate`` to ``warmup_target`` over ``warmup_steps``, then the
    decay from ``warmup_target``."""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, alpha: Any = 0.0, name: str | None = None,
                 warmup_target: Any = None, warmup_steps: Any = 0) -> None:
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_steps = warmup_steps
        self.warmup_target = warmup_target

    def _decay(self, s: Any, steps: Any, start: Any, dtype: Any) -> Any:
        cosine = _math.multiply(0.5, _math.add(1.0, _math.cos(_math.multiply(
            _as(math.pi, dtype), _math.truediv(s, steps)))))
        return _math.multiply(start, _math.add(_math.multiply(1.0 - self.alpha, cosine), self.alpha))

    def __call__(self, step: Any) -> Any:
        with get_default_graph().name_scope(self.name or "CosineDecay"):
            lr = _initial(self.initial_learning_rate)
            steps = _as(self.decay_steps, lr.dtype)
            s = _as(step, lr.dtype)
            if self.warmup_target is None:
                return self._decay(_math.minimum(s, steps), steps, lr, lr.dtype)
            target = _as(self.warmup_target, lr.dtype)
            warm = _as(self.warmup_steps, lr.dtype)
            s = _math.minimum(s, _math.add(steps, warm))
            warmup = _math.add(_math.multiply(_math.subtract(target, lr), _math.truediv(s, warm)), lr)
            return _math.where(_math.less(s, warm), warmup,
                               self._decay(_math.subtract(s, warm), steps, target, lr.dtype))

    def get_config(self) -> dict[str, Any]:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "alpha": self.alpha, "name": self.name, "warmup_target": self.warmup_target,
                "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR), as tf_keras' ``CosineDecayRestarts``: the first period
    is ``first_decay_steps`` long, each next one ``t_mul`` times longer with a peak ``m_mul`` times
    lower; within a period ``lr * ((1 - alpha) * 0.5 * m * (1 + cos(pi * fraction)) + alpha)``."""

    def __init__(self, initial_learning_rate: Any, first_decay_steps: Any, t_mul: float = 2.0, m_mul: float = 1.0,
                 alpha: Any = 0.0, name: str | None = None) -> None:
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name

    def __call__(self, step: Any) -> Any:
        with get_default_graph().name_scope(self.name or "SGDRDecay"):
            lr = _initial(self.initial_learning_rate)
            dt = lr.dtype
            alpha, t_mul, m_mul = _as(self.alpha, dt), _as(self._t_mul, dt), _as(self._m_mul, dt)
            frac = _math.truediv(_as(step, dt), _as(self.first_decay_steps, dt))
            if float(self._t_mul) == 1.0:
                i_restart = _math.floor(frac)
                frac = _math.subtract(frac, i_restart)
            else:
                i_restart = _math.floor(_math.truediv(
                    _math.log(_math.subtract(1.0, _math.multiply(frac, _math.subtract(1.0, t_mul)))),
                    _math.log(t_mul)))
                sum_r = _math.truediv(_math.subtract(1.0, _math.pow(t_mul, i_restart)), _math.subtract(1.0, t_mul))
                frac = _math.truediv(_math.subtract(frac, sum_r), _math.pow(t_mul, i_restart))
            m_fac = _math.pow(m_mul, i_restart)
            cosine = _math.multiply(_math.multiply(0.5, m_fac), _math.add(1.0, _math.cos(
                _math.multiply(_as(math.pi, dt), frac))))
            return _math.multiply(lr, _math.add(_math.multiply(_math.subtract(1.0, alpha), cosine), alpha))

    def get_config(self) -> dict[str, Any]:
        return {"initial_learning_rate": self.initial_learning_rate, "first_decay_steps": self.first_decay_steps,
                "t_mul": self._t_mul, "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


_BY_NAME: dict[str, type[LearningRateSchedule]] = {
    c.__name__: c for c in (ExponentialDecay, PiecewiseConstantDecay, PolynomialDecay, InverseTimeDecay,
                            CosineDecay, CosineDecayRestarts)
}


def serialize(learning_rate_schedule: Any) -> dict[str, Any]:
    """``{"class_name": ..., "config": {...}}`` of a schedule, as
    ``tf.keras.optimizers.schedules.serialize``.

    Raises:
      NotImplementedError: a schedule without ``get_config``.
    """
    return {"class_name": type(learning_rate_schedule).__name__, "config": learning_rate_schedule.get_config()}


def deserialize(config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Any:
    """The schedule of a Keras config (TF's ``"module"``/``"registered_name"`` keys ignored), as
    ``tf.keras.optimizers.schedules.deserialize``; ``custom_objects`` (and the open
    ``keras.utils.custom_object_scope`` s) name user classes.

    Raises:
      ValueError: an unknown class name.
    """
    name = config["class_name"]
    custom = {**_custom_objects.active_custom_objects(), **(custom_objects or {})}
    cls = custom.get(name) or _BY_NAME.get(name)
    if cls is None:
        raise ValueError(f"Unknown decay: {name!r}. Please ensure it is in `custom_objects` or a "
                         f"`keras.utils.custom_object_scope`. Known: {sorted(_BY_NAME)}.")
    return cls.from_config(dict(config.get("config") or {}))
