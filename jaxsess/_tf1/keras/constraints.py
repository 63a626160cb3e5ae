"""``jaxsess._tf1.keras.constraints``: projections of weights after each update, as
``tf.keras.constraints`` (Keras 2).

A constraint is a callable ``w -> projected w`` (a tensor of ``w``'s shape and
dtype). A layer's ``kernel_constraint=``/``bias_constraint=``/... becomes its
variable's ``constraint``, and the optimizers (Keras' and ``jaxsess.train``'s)
assign ``constraint(new value)`` instead of the new value in each update, as
TF's optimizers do for resource variables (``var.assign(var.constraint(var))``
after the update). Names (``'max_norm'``, ``'MaxNorm'``) and Keras configs
(``{"class_name": "MaxNorm", "config": {...}}``) give the same objects.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.keras import _custom_objects as _custom_objects, backend as K
from jaxsess._tf1.ops import gather_ops as _gather, math_ops as _math, shape_ops as _shape_ops

__all__ = ["Constraint", "MaxNorm", "NonNeg", "UnitNorm", "MinMaxNorm", "RadialConstraint", "max_norm",
           "non_neg", "unit_norm", "min_max_norm", "radial_constraint", "maxnorm", "nonneg", "unitnorm",
           "get", "serialize", "deserialize"]


class Constraint:
    """The base of weight constraints, as ``tf.keras.constraints.Constraint``: ``__call__(w)``
    returns ``w`` unchanged; subclasses return the projection of ``w`` (same shape and dtype)."""

    def __call__(self, w: Any) -> Any:
        return w

    def get_config(self) -> dict[str, Any]:
        """The constructor's arguments (JSON-compatible)."""
        return {}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Any:
        """``cls(**config)``."""
        return cls(**config)


def _norms(w: Any, axis: Any) -> Any:
    """``sqrt(sum(w^2, axis, keepdims=True))``."""
    return _math.sqrt(_math.reduce_sum(_math.square(w), axis=axis, keepdims=True))


def _axis_config(axis: Any) -> Any:
    return list(axis) if isinstance(axis, tuple | list) else axis


class MaxNorm(Constraint):
    """Rescales the weights of each unit to a norm of at most ``max_value``, as tf_keras' ``MaxNorm``:
    ``w * clip(n, 0, max_value) / (epsilon + n)`` with ``n`` the L2 norms over ``axis``
    (0: the incoming weights of a ``Dense`` unit; ``[0, 1, 2]`` for a ``Conv2D`` filter).

    Args:
      max_value: the largest norm (2).
      axis: an int or a list of ints (0).
    """

    def __init__(self, max_value: float = 2, axis: Any = 0) -> None:
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        w = convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = _math.clip_by_value(norms, 0.0, self.max_value)
        return _math.multiply(w, _math.truediv(desired, _math.add(K.epsilon(), norms)))

    def get_config(self) -> dict[str, Any]:
        return {"max_value": self.max_value, "axis": _axis_config(self.axis)}


class NonNeg(Constraint):
    """Zeros the negative weights (``w * (w >= 0)``), as tf_keras' ``NonNeg``."""

    def __call__(self, w: Any) -> Any:
        w = convert_to_tensor(w)
        return _math.multiply(w, _math.cast(_math.greater_equal(w, 0.0), w.dtype))


class UnitNorm(Constraint):
    """Scales the weights of each unit to norm 1 (``w / (epsilon + n)``, ``n`` the L2 norms over
    ``axis``), as tf_keras' ``UnitNorm``.

    Args:
      axis: an int or a list of ints (0).
    """

    def __init__(self, axis: Any = 0) -> None:
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        w = convert_to_tensor(w)
        return _math.truediv(w, _math.add(K.epsilon(), _norms(w, self.axis)))

    def get_config(self) -> dict[str, Any]:
        return {"axis": _axis_config(self.axis)}


class MinMaxNorm(Constraint):
    """Moves the norm of each unit's weights into ``[min_value, max_value]``, as tf_keras'
    ``MinMaxNorm``: ``w * d / (epsilon + n)`` with ``d = rate * clip(n, min_value, max_value)
    + (1 - rate) * n`` (``rate`` 1: strict).

    Args:
      min_value: the smallest norm (0.0).
      max_value: the largest norm (1.0).
      rate: how far to move in one step (1.0).
      axis: an int or a list of ints (0).
    """

    def __init__(self, min_value: float = 0.0, max_value: float = 1.0, rate: float = 1.0, axis: Any = 0) -> None:
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        w = convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = _math.add(_math.multiply(self.rate, _math.clip_by_value(norms, self.min_value, self.max_value)),
                            _math.multiply(1.0 - self.rate, norms))
        return _math.multiply(w, _math.truediv(desired, _math.add(K.epsilon(), norms)))

    def get_config(self) -> dict[str, Any]:
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": _axis_config(self.axis)}


def _radial_sources(n: int) -> np.ndarray:
    """For an ``n x n`` kernel, the flat index ``i * n + i`` whose value tf_keras' ``RadialConstraint``
    puts at each position: the centre block (1x1 for odd ``n``, 2x2 for even) takes
    ``kernel[s-1, s-1]`` (``s = n // 2``), and each ring padded around it ``kernel[s+i, s+i]``."""
    s = n // 2
    block = np.full((1, 1) if n % 2 else (2, 2), (s - 1) * n + (s - 1), np.int32)
    for i in range(1 if n % 2 == 0 else 0, s):
        block = np.pad(block, 1, constant_values=(s + i) * n + (s + i))
    return block


class RadialConstraint(Constraint):
    """Makes a square ``Conv2D`` kernel ``[k, k, in, out]`` constant on each ring around its centre,
    as tf_keras' ``RadialConstraint`` (its code, whose ring values come from the diagonal:
    see :func:`_radial_sources`).

    Raises:
      ValueError: a weight that is not of rank 4 or whose first two dimensions differ or are unknown.
    """

    def __call__(self, w: Any) -> Any:
        w = convert_to_tensor(w)
        shape = TensorShape(w.shape)
        if shape.ndims != 4:
            raise ValueError(f"The weight tensor must have rank 4. Received weight tensor with shape: {shape}")
        h, wd, c, k = shape.as_list()  # type: ignore[misc]
        if h is None or h != wd or c is None or k is None:
            raise ValueError(f"RadialConstraint needs a square kernel of known shape; got {shape}.")
        if h < 2:
            raise ValueError(f"RadialConstraint needs a kernel of at least 2x2; got {shape}.")
        flat = _shape_ops.reshape(w, [h * wd, c * k])
        picked = _gather.gather(flat, _radial_sources(h).reshape(-1))
        return _shape_ops.reshape(picked, [h, wd, c, k])


max_norm = MaxNorm
non_neg = NonNeg
unit_norm = UnitNorm
min_max_norm = MinMaxNorm
radial_constraint = RadialConstraint
maxnorm = max_norm
nonneg = non_neg
unitnorm = unit_norm

_BY_NAME: dict[str, type[Constraint]] = {
    "Constraint": Constraint, "MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm, "MinMaxNorm": MinMaxNorm,
    "RadialConstraint": RadialConstraint, "max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm,
    "min_max_norm": MinMaxNorm, "radial_constraint": RadialConstraint, "maxnorm": MaxNorm, "nonneg": NonNeg,
    "unitnorm": UnitNorm,
}


def serialize(constraint: Any) -> Any:
    """``{"class_name": ..., "config": {...}}`` of a constraint (``None`` stays None), as
    ``tf.keras.constraints.serialize``.

    Raises:
      ValueError: an object without ``get_config`` (a plain function).
    """
    if constraint is None:
        return None
    if not hasattr(constraint, "get_config"):
        raise ValueError(f"Cannot serialize {constraint!r}: it has no get_config(); use a Constraint subclass.")
    return {"class_name": type(constraint).__name__, "config": constraint.get_config()}


def deserialize(config: Any, custom_objects: dict[str, Any] | None = None) -> Any:
    """The constraint of a Keras config (``{"class_name", "config"}``, TF's ``"module"`` keys
    ignored) or a name, as ``tf.keras.constraints.deserialize``; ``custom_objects`` (and
    :func:`jaxsess._tf1.keras.utils.custom_object_scope`) name user classes.

    Raises:
      ValueError: an unknown class name.
    """
    if isinstance(config, str):
        config = {"class_name": config, "config": {}}
    name, args = config["class_name"], dict(config.get("config") or {})
    custom = {**_custom_objects.active_custom_objects(), **(custom_objects or {})}
    cls = custom.get(name) or _BY_NAME.get(name)
    if cls is None:
        raise ValueError(f"Unknown constraint: {name!r}. Please ensure it is in `custom_objects` or a "
                         f"`keras.utils.custom_object_scope`. Known: {sorted(_BY_NAME)}.")
    return cls.from_config(args) if hasattr(cls, "from_config") else cls(**args)


def get(identifier: Any) -> Any:
    """A constraint from ``None`` (None), a name (``'max_norm'``: default arguments), a config dict,
    or a callable (returned as it is), as ``tf.keras.constraints.get``.

    Raises:
      ValueError: an unknown name or an object that is none of these.
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict | str):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret constraint function identifier: {identifier!r}")

