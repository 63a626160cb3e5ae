"""Learning-rate schedules as graph ops, as ``tf.compat.v1.train.*_decay``.

Each function returns a scalar tensor computed from ``global_step`` in the
run (it reads the step's value at the start of the run, so a train op that
increments the step uses the rate of the step before the increment, as TF1).
The result has the dtype of ``learning_rate`` (``float32`` for Python floats).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._graph import name_scope
from jaxsess._tf1.ops import math_ops as math_ops, random_ops as random_ops

__all__ = [
    "exponential_decay",
    "natural_exp_decay",
    "inverse_time_decay",
    "polynomial_decay",
    "piecewise_constant",
    "cosine_decay",
    "cosine_decay_restarts",
    "linear_cosine_decay",
    "noisy_linear_cosine_decay",
]


def _require_step(global_step: Any, what: str) -> None:
    if global_step is None:
        raise ValueError(f"global_step is required for {what}.")


def _float(x: Any, dtype: Any) -> Any:
    x = convert_to_tensor(x) if not isinstance(x, int | float | np.number) else x
    if isinstance(x, int | float | np.number):
        return convert_to_tensor(np.asarray(x), dtype=dtype)
    return math_ops.cast(x, dtype)


def exponential_decay(
    learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any, staircase: bool = False,
    name: str | None = None,
) -> Any:
    """``learning_rate * decay_rate ** (global_step / decay_steps)``, as
    ``tf.compat.v1.train.exponential_decay``.

    Args:
      learning_rate: initial rate (float or scalar float tensor).
      global_step: the step (integer variable or tensor); must not be None.
      decay_steps: steps per decay period (positive).
      decay_rate: factor per period.
      staircase: use ``floor(global_step / decay_steps)`` (decay in steps).
      name: name scope (default ``'ExponentialDecay'``).

    Returns:
      A scalar tensor of ``learning_rate``'s dtype.

    Raises:
      ValueError: ``global_step`` is None.
    """
    _require_step(global_step, "exponential_decay")
    with name_scope(name, "ExponentialDecay") as scope:
        lr = convert_to_tensor(learning_rate, name="learning_rate")
        dtype = lr.dtype
        p = math_ops.truediv(_float(global_step, dtype), _float(decay_steps, dtype))
        if staircase:
            p = math_ops.floor(p)
        return math_ops.multiply(lr, math_ops.pow(_float(decay_rate, dtype), p), name=scope or None)


def natural_exp_decay(
    learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any, staircase: bool = False,
    name: str | None = None,
) -> Any:
    """``learning_rate * exp(-decay_rate * global_step / decay_steps)``, as
    ``tf.compat.v1.train.natural_exp_decay``: :func:`exponential_decay` with
    the rate ``exp(-decay_rate)`` (so its name scope is ``ExponentialDecay``;
    ``staircase`` floors the ratio)."""
    _require_step(global_step, "natural_exp_decay")
    rate = math_ops.exp(math_ops.negative(decay_rate))
    return exponential_decay(learning_rate, global_step, decay_steps, rate, staircase=staircase, name=name)


def inverse_time_decay(
    learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any, staircase: bool = False,
    name: str | None = None,
) -> Any:
    """``learning_rate / (1 + decay_rate * global_step / decay_steps)``, as
    ``tf.compat.v1.train.inverse_time_decay`` (``staircase`` floors the ratio)."""
    _require_step(global_step, "inverse_time_decay")
    with name_scope(name, "InverseTimeDecay") as scope:
        lr = convert_to_tensor(learning_rate, name="learning_rate")
        dtype = lr.dtype
        p = math_ops.truediv(_float(global_step, dtype), _float(decay_steps, dtype))
        if staircase:
            p = math_ops.floor(p)
        denom = math_ops.add(_float(1.0, dtype), math_ops.multiply(_float(decay_rate, dtype), p))
        return math_ops.truediv(lr, denom, name=scope or None)


def polynomial_decay(
    learning_rate: Any, global_step: Any, decay_steps: Any, end_learning_rate: Any = 0.0001, power: Any = 1.0,
    cycle: bool = False, name: str | None = None,
) -> Any:
    """Polynomial decay to ``end_learning_rate`` over ``decay_steps``, as
    ``tf.compat.v1.train.polynomial_decay``::

        step = min(global_step, decay_steps)      # cycle: decay_steps *= ceil(global_step / decay_steps)
        (learning_rate - end_learning_rate) * (1 - step / decay_steps) ** power + end_learning_rate
    """
    _require_step(global_step, "polynomial_decay")
    with name_scope(name, "PolynomialDecay") as scope:
        lr = convert_to_tensor(learning_rate, name="learning_rate")
        dtype = lr.dtype
        step = _float(global_step, dtype)
        steps = _float(decay_steps, dtype)
        end = _float(end_learning_rate, dtype)
        if cycle:
            mult = math_ops.where(
                math_ops.equal(step, _float(0.0, dtype)), _float(1.0, dtype), math_ops.ceil(math_ops.truediv(step, steps))
            )
            steps = math_ops.multiply(steps, mult)
        else:
            step = math_ops.minimum(step, steps)
        frac = math_ops.subtract(_float(1.0, dtype), math_ops.truediv(step, steps))
        return math_ops.add(
            math_ops.multiply(math_ops.subtract(lr, end), math_ops.pow(frac, _float(power, dtype))), end,
            name=scope or None,
        )


def cosine_decay(
    learning_rate: Any, global_step: Any, decay_steps: Any, alpha: Any = 0.0, name: str | None = None,
) -> Any:
    """``learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * min(step, decay_steps) / decay_steps)) + alpha)``,
    as ``tf.compat.v1.train.cosine_decay``."""
    _require_step(global_step, "cosine_decay")
    with name_scope(name, "CosineDecay"):
        lr = convert_to_tensor(learning_rate, name="learning_rate")
        dtype = lr.dtype
        steps = _float(decay_steps, dtype)
        step = math_ops.minimum(_float(global_step, dtype), steps)
        cos = math_ops.cos(math_ops.multiply(_float(np.pi, dtype), math_ops.truediv(step, steps)))
        c = math_ops.multiply(_float(0.5, dtype), math_ops.add(_float(1.0, dtype), cos))
        a = _float(alpha, dtype)
        decayed = math_ops.add(math_ops.multiply(math_ops.subtract(_float(1.0, dtype), a), c), a)
        return math_ops.multiply(lr, decayed)  # unnamed, as TF (``CosineDecay/Mul_3``)


def cosine_decay_restarts(
    learning_rate: Any, global_step: Any, first_decay_steps: Any, t_mul: Any = 2.0, m_mul: Any = 1.0,
    alpha: Any = 0.0, name: str | None = None,
) -> Any:
    """Cosine decay with warm restarts (SGDR), as ``tf.compat.v1.train.cosine_decay_restarts``.

    Period ``i`` lasts ``first_decay_steps * t_mul ** i`` steps and starts at
    ``learning_rate * m_mul ** i``; within it the rate follows
    :func:`cosine_decay` down to ``alpha`` times that start.

    Returns:
      A scalar tensor of ``learning_rate``'s dtype, named ``SGDRDecay``.

    Raises:
      ValueError: ``global_step`` is None.
    """
    _require_step(global_step, "cosine_decay_restarts")
    with name_scope(name, "SGDRDecay") as scope:
        lr = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = lr.dtype
        one = _float(1.0, dtype)
        t = _float(t_mul, dtype)
        fraction = math_ops.truediv(_float(global_step, dtype), _float(first_decay_steps, dtype))
        i_lin = math_ops.floor(fraction)
        frac_lin = math_ops.subtract(fraction, i_lin)
        if isinstance(t_mul, int | float | np.number) and float(t_mul) == 1.0:
            i_restart, completed = i_lin, frac_lin
        else:
            i_geo = math_ops.floor(math_ops.truediv(
                math_ops.log(math_ops.subtract(one, math_ops.multiply(fraction, math_ops.subtract(one, t)))),
                math_ops.log(t)))
            sum_r = math_ops.truediv(math_ops.subtract(one, math_ops.pow(t, i_geo)), math_ops.subtract(one, t))
            frac_geo = math_ops.truediv(math_ops.subtract(fraction, sum_r), math_ops.pow(t, i_geo))
            if isinstance(t_mul, int | float | np.number):
                i_restart, completed = i_geo, frac_geo
            else:
                linear = math_ops.equal(t, one)
                i_restart = math_ops.where(linear, i_lin, i_geo)
                completed = math_ops.where(linear, frac_lin, frac_geo)
        m_fac = math_ops.pow(_float(m_mul, dtype), i_restart)
        cos = math_ops.cos(math_ops.multiply(_float(np.pi, dtype), completed))
        cosine_decayed = math_ops.multiply(math_ops.multiply(_float(0.5, dtype), m_fac), math_ops.add(one, cos))
        a = _float(alpha, dtype)
        decayed = math_ops.add(math_ops.multiply(math_ops.subtract(one, a), cosine_decayed), a)
        return math_ops.multiply(lr, decayed, name=scope or None)


def _linear_cosine(learning_rate: Any, global_step: Any, decay_steps: Any, num_periods: Any, alpha: Any,
                   beta: Any, noise: tuple[Any, Any] | None, scope: str) -> Any:
    lr = convert_to_tensor(learning_rate, name="initial_learning_rate")
    dtype = lr.dtype
    steps = _float(decay_steps, dtype)
    step = math_ops.minimum(_float(global_step, dtype), steps)
    linear = math_ops.truediv(math_ops.subtract(steps, step), steps)
    if noise is not None:
        variance = math_ops.truediv(_float(noise[0], dtype),
                                    math_ops.pow(math_ops.add(_float(1.0, dtype), step), _float(noise[1], dtype)))
        linear = math_ops.add(linear, random_ops.random_normal([], stddev=math_ops.sqrt(variance), dtype=dtype))
    fraction = math_ops.multiply(math_ops.multiply(_float(2.0, dtype), _float(num_periods, dtype)),
                                 math_ops.truediv(step, steps))
    cos = math_ops.multiply(_float(0.5, dtype), math_ops.add(
        _float(1.0, dtype), math_ops.cos(math_ops.multiply(_float(np.pi, dtype), fraction))))
    decayed = math_ops.add(math_ops.multiply(math_ops.add(_float(alpha, dtype), linear), cos), _float(beta, dtype))
    return math_ops.multiply(lr, decayed, name=scope or None)


def linear_cosine_decay(
    learning_rate: Any, global_step: Any, decay_steps: Any, num_periods: Any = 0.5, alpha: Any = 0.0,
    beta: Any = 0.001, name: str | None = None,
) -> Any:
    """``learning_rate * ((alpha + linear) * cosine + beta)`` with
    ``linear = (decay_steps - step) / decay_steps`` and
    ``cosine = 0.5 * (1 + cos(2 pi num_periods step / decay_steps))``
    (``step = min(global_step, decay_steps)``), as ``tf.compat.v1.train.linear_cosine_decay``.

    Raises:
      ValueError: ``global_step`` is None.
    """
    _require_step(global_step, "linear_cosine_decay")
    with name_scope(name, "LinearCosineDecay") as scope:
        return _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta, None, scope)


def noisy_linear_cosine_decay(
    learning_rate: Any, global_step: Any, decay_steps: Any, initial_variance: Any = 1.0, variance_decay: Any = 0.55,
    num_periods: Any = 0.5, alpha: Any = 0.0, beta: Any = 0.001, name: str | None = None,
) -> Any:
    """:func:`linear_cosine_decay` with Gaussian noise of variance
    ``initial_variance / (1 + step) ** variance_decay`` added to the linear
    term (a new draw each run), as ``tf.compat.v1.train.noisy_linear_cosine_decay``.

    Raises:
      ValueError: ``global_step`` is None.
    """
    _require_step(global_step, "noisy_linear_cosine_decay")
    with name_scope(name, "NoisyLinearCosineDecay") as scope:
        return _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta,
                              (initial_variance, variance_decay), scope)


def piecewise_constant(x: Any, boundaries: Sequence[Any], values: Sequence[Any], name: str | None = None) -> Any:
    """A step function of ``x``, as ``tf.compat.v1.train.piecewise_constant``.

    ``values[0]`` when ``x <= boundaries[0]``, ``values[i]`` when
    ``boundaries[i-1] < x <= boundaries[i]``, ``values[-1]`` when
    ``x > boundaries[-1]``.

    Raises:
      ValueError: ``len(values) != len(boundaries) + 1``, or values of
        different dtypes.
    """
    if len(values) != len(boundaries) + 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    with name_scope(name, "PiecewiseConstant") as scope:
        x = convert_to_tensor(x)
        vals = [convert_to_tensor(v) for v in values]
        dtype = vals[0].dtype
        for v in vals[1:]:
            if v.dtype != dtype:
                raise ValueError(f"Values must have elements all with the same dtype ({dtype.name} vs {v.dtype.name}).")
        out = vals[-1]
        for i in reversed(range(len(boundaries))):
            b = convert_to_tensor(np.asarray(boundaries[i]), dtype=x.dtype)
            out = math_ops.where(math_ops.less_equal(x, b), vals[i], out, name=(scope or None) if i == 0 else None)
        return out
