"""Variable initializers, as ``tf.compat.v1`` (``tf.compat.v1.initializers``).

An initializer is a callable ``init(shape, dtype=None, partition_info=None)``
returning a tensor of that shape and dtype (a graph ``Tensor``, or inside an
``EagerSession`` a ``jax.Array``). ``get_variable`` calls it inside the new
variable's ``Initializer`` name scope. Random initializers build the random
ops of :mod:`jaxsess._tf1.ops.random_ops`, so TF1 seeding applies: with a graph
seed (``set_random_seed``) or an op ``seed`` the values repeat in a new
session; each run of the variable's initializer draws new values.

Fans follow TF: for a shape ``[..., fan_in, fan_out]`` the leading
dimensions are the receptive field (a conv kernel ``HWIO`` has
``fan_in = H·W·I`` and ``fan_out = H·W·O``); a vector has
``fan_in = fan_out = n``; a scalar has 1 and 1.
"""

from __future__ import annotations

import math
from typing import Any

import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, constant, fit_to_shape
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import random_ops as random_ops

__all__ = [
    "Initializer",
    "Zeros",
    "Ones",
    "Constant",
    "RandomNormal",
    "RandomUniform",
    "TruncatedNormal",
    "VarianceScaling",
    "GlorotUniform",
    "GlorotNormal",
    "Orthogonal",
    "Identity",
    "identity_initializer",
    "zeros_initializer",
    "ones_initializer",
    "constant_initializer",
    "random_normal_initializer",
    "random_uniform_initializer",
    "truncated_normal_initializer",
    "variance_scaling_initializer",
    "glorot_uniform_initializer",
    "glorot_normal_initializer",
    "orthogonal_initializer",
    "he_normal",
    "he_uniform",
    "lecun_normal",
    "lecun_uniform",
    "compute_fans",
]

# The standard deviation of a unit normal truncated to [-2, 2], as TF's
# VarianceScaling uses to keep the requested variance after truncation.
_TRUNCATED_STDDEV_FACTOR = 0.87962566103423978


def _shape_list(shape: Any) -> list[int]:
    s = TensorShape(shape)
    if not s.is_fully_defined():
        raise ValueError(f"An initializer needs a fully defined shape, got {s}.")
    return [int(d) for d in s.as_list() if d is not None]


def compute_fans(shape: Any) -> tuple[int, int]:
    """``(fan_in, fan_out)`` of a weight shape, as TF's ``_compute_fans``.

    Args:
      shape: a list of ints; for rank > 2 the leading dims are the receptive
        field (conv kernels ``[H, W, in, out]``).
    """
    shape = _shape_list(shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = 1
    for d in shape[:-2]:
        receptive *= d
    return shape[-2] * receptive, shape[-1] * receptive


class Initializer:
    """Base class of the initializers, as ``tf.compat.v1.keras.initializers.Initializer``."""

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        raise NotImplementedError

    def get_config(self) -> dict[str, Any]:
        """The constructor arguments, as TF."""
        return {}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Initializer:
        config = dict(config)
        config.pop("dtype", None)
        return cls(**config)

    def _dtype(self, dtype: Any) -> _dtypes.DType:
        return _dtypes.as_dtype(self.dtype if dtype is None else dtype)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"


class FreshSeeds(Initializer):
    """``initializer`` drawn under :func:`~jaxsess._tf1.ops.random_ops.fresh_seeds`:
    as a Keras default initializer, it does not take the graph's next op seed."""

    def __init__(self, initializer: Initializer) -> None:
        self.initializer = initializer

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        with random_ops.fresh_seeds():
            return self.initializer(shape, dtype=dtype, partition_info=partition_info)

    def get_config(self) -> dict[str, Any]:
        return self.initializer.get_config()


def _float_dtype(dtype: _dtypes.DType, what: str) -> _dtypes.DType:
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type for {what}, got {dtype.name}.")
    return dtype


class Zeros(Initializer):
    """All zeros, as ``tf.compat.v1.zeros_initializer``."""

    def __init__(self, dtype: Any = _dtypes.float32) -> None:
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        d = self._dtype(dtype)
        return constant(np.zeros(_shape_list(shape), dtype=d.np_dtype), dtype=d, name="zeros")

    def get_config(self) -> dict[str, Any]:
        return {"dtype": self.dtype.name}


class Ones(Initializer):
    """All ones, as ``tf.compat.v1.ones_initializer``."""

    def __init__(self, dtype: Any = _dtypes.float32) -> None:
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        d = self._dtype(dtype)
        return constant(np.ones(_shape_list(shape), dtype=d.np_dtype), dtype=d, name="ones")

    def get_config(self) -> dict[str, Any]:
        return {"dtype": self.dtype.name}


class Constant(Initializer):
    """A constant value, as ``tf.compat.v1.constant_initializer``.

    Args:
      value: a scalar or a list/array, filled into the shape as ``tf.constant``
        does (row-major; fewer elements are completed with the last one).
      verify_shape: require ``value`` to have exactly the requested shape.

    Raises (when called):
      ValueError: ``value`` has more elements than the shape.
      TypeError: the wrong shape with ``verify_shape``.
    """

    def __init__(self, value: Any = 0, dtype: Any = _dtypes.float32, verify_shape: bool = False) -> None:
        if not np.isscalar(value) and not isinstance(value, list | tuple | np.ndarray):
            raise TypeError(
                f"Invalid type for initial value: {type(value).__name__} (expected Python scalar, "
                "list or tuple of values, or numpy.ndarray)."
            )
        self.value = value
        self.dtype = _dtypes.as_dtype(dtype)
        self._verify_shape = verify_shape

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None, verify_shape: Any = None) -> Any:
        d = self._dtype(dtype)
        shape_l = _shape_list(shape)
        verify = self._verify_shape if verify_shape is None else verify_shape
        arr = fit_to_shape(np.asarray(self.value), tuple(shape_l), bool(verify))
        return constant(arr, dtype=d, name="Const")

    def get_config(self) -> dict[str, Any]:
        return {"value": self.value, "dtype": self.dtype.name, "verify_shape": self._verify_shape}


class RandomNormal(Initializer):
    """Samples from N(mean, stddev²), as ``tf.compat.v1.random_normal_initializer``."""

    def __init__(self, mean: Any = 0.0, stddev: Any = 1.0, seed: int | None = None, dtype: Any = _dtypes.float32) -> None:
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        d = _float_dtype(self._dtype(dtype), "random_normal_initializer")
        return random_ops.random_normal(_shape_list(shape), self.mean, self.stddev, d, seed=self.seed)

    def get_config(self) -> dict[str, Any]:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed, "dtype": self.dtype.name}


class RandomUniform(Initializer):
    """Samples uniformly from ``[minval, maxval)``, as ``tf.compat.v1.random_uniform_initializer``.

    ``maxval=None`` means 1 for floating dtypes (an integer dtype needs it).
    """

    def __init__(self, minval: Any = 0, maxval: Any = None, seed: int | None = None, dtype: Any = _dtypes.float32) -> None:
        self.minval, self.maxval, self.seed = minval, maxval, seed
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        d = self._dtype(dtype)
        return random_ops.random_uniform(_shape_list(shape), self.minval, self.maxval, d, seed=self.seed)

    def get_config(self) -> dict[str, Any]:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed, "dtype": self.dtype.name}


class TruncatedNormal(Initializer):
    """N(mean, stddev²) redrawn beyond two stddevs, as ``tf.compat.v1.truncated_normal_initializer``."""

    def __init__(self, mean: Any = 0.0, stddev: Any = 1.0, seed: int | None = None, dtype: Any = _dtypes.float32) -> None:
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        d = _float_dtype(self._dtype(dtype), "truncated_normal_initializer")
        return random_ops.truncated_normal(_shape_list(shape), self.mean, self.stddev, d, seed=self.seed)

    def get_config(self) -> dict[str, Any]:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed, "dtype": self.dtype.name}


class VarianceScaling(Initializer):
    """Scales its samples to the weight shape, as ``tf.compat.v1.variance_scaling_initializer``.

    With ``n`` = fan_in, fan_out or their average (``mode``), samples have
    variance ``scale / n``: ``'truncated_normal'`` (and its old alias
    ``'normal'``) draws a truncated normal with stddev
    ``sqrt(scale / n) / 0.8796…``; ``'untruncated_normal'`` a normal with
    stddev ``sqrt(scale / n)``; ``'uniform'`` draws from ``±sqrt(3·scale / n)``.

    Raises:
      ValueError: ``scale <= 0``, or an unknown ``mode`` or ``distribution``.
    """

    _MODES = ("fan_in", "fan_out", "fan_avg")
    _DISTRIBUTIONS = ("normal", "uniform", "truncated_normal", "untruncated_normal")

    def __init__(self, scale: float = 1.0, mode: str = "fan_in", distribution: str = "truncated_normal",
                 seed: int | None = None, dtype: Any = _dtypes.float32) -> None:
        if scale <= 0.0:
            raise ValueError(f"`scale` must be positive float, got {scale}.")
        if mode not in self._MODES:
            raise ValueError(f"Invalid `mode` argument: {mode!r}; expected one of {self._MODES}.")
        distribution = distribution.lower()
        if distribution not in self._DISTRIBUTIONS:
            raise ValueError(
                f"Invalid `distribution` argument: {distribution!r}; expected one of {self._DISTRIBUTIONS}."
            )
        self.scale, self.mode, self.distribution, self.seed = float(scale), mode, distribution, seed
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        d = _float_dtype(self._dtype(dtype), "variance_scaling_initializer")
        shape_l = _shape_list(shape)
        # a part of a partitioned variable scales by the whole variable's fans, as TF
        fan_in, fan_out = compute_fans(shape_l if partition_info is None else list(partition_info.full_shape))
        n: float
        if self.mode == "fan_in":
            n = fan_in
        elif self.mode == "fan_out":
            n = fan_out
        else:
            n = (fan_in + fan_out) / 2.0
        scale = self.scale / max(1.0, n)
        if self.distribution in ("normal", "truncated_normal"):
            stddev = math.sqrt(scale) / _TRUNCATED_STDDEV_FACTOR
            return random_ops.truncated_normal(shape_l, 0.0, stddev, d, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.random_normal(shape_l, 0.0, math.sqrt(scale), d, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_ops.random_uniform(shape_l, -limit, limit, d, seed=self.seed)

    def get_config(self) -> dict[str, Any]:
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed, "dtype": self.dtype.name}


class GlorotUniform(VarianceScaling):
    """Uniform in ``±sqrt(6 / (fan_in + fan_out))``, as ``tf.compat.v1.glorot_uniform_initializer``."""

    def __init__(self, seed: int | None = None, dtype: Any = _dtypes.float32) -> None:
        super().__init__(1.0, "fan_avg", "uniform", seed, dtype)

    def get_config(self) -> dict[str, Any]:
        return {"seed": self.seed, "dtype": self.dtype.name}


class GlorotNormal(VarianceScaling):
    """Truncated normal with stddev ``sqrt(2 / (fan_in + fan_out)) / 0.8796…``,
    as ``tf.compat.v1.glorot_normal_initializer``."""

    def __init__(self, seed: int | None = None, dtype: Any = _dtypes.float32) -> None:
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, dtype)

    def get_config(self) -> dict[str, Any]:
        return {"seed": self.seed, "dtype": self.dtype.name}


@register_op("Orthogonalize", default_name="orthogonalize")
def _orthogonalize(a: Any, *, gain: float, shape: tuple[int, ...]) -> Any:
    # a: normal samples of shape [max(rows, cols), min(rows, cols)].
    q, r = jnp.linalg.qr(a)
    q = q * jnp.sign(jnp.diagonal(r))  # a uniform distribution over orthogonal matrices
    if shape and int(np.prod(shape[:-1])) < shape[-1]:
        q = q.T
    return (gain * q).reshape(shape).astype(a.dtype)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix, as ``tf.compat.v1.orthogonal_initializer``.

    The shape is flattened to ``[prod(shape[:-1]), shape[-1]]``; the rows or
    columns (whichever are fewer) are orthonormal, times ``gain``.

    Raises (when called):
      ValueError: a shape of rank < 2, or a non-floating dtype.
    """

    def __init__(self, gain: float = 1.0, seed: int | None = None, dtype: Any = _dtypes.float32) -> None:
        self.gain, self.seed = float(gain), seed
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        d = _float_dtype(self._dtype(dtype), "orthogonal_initializer")
        shape_l = _shape_list(shape)
        if len(shape_l) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional")
        rows = int(np.prod(shape_l[:-1]))
        cols = shape_l[-1]
        flat = (max(rows, cols), min(rows, cols))
        a = random_ops.random_normal(list(flat), 0.0, 1.0, d, seed=self.seed)
        return apply_op("Orthogonalize", (a,), {"gain": self.gain, "shape": tuple(shape_l)})

    def get_config(self) -> dict[str, Any]:
        return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


class Identity(Initializer):
    """``gain`` times the identity matrix (2-D shapes only), as ``tf.compat.v1.initializers.identity``.

    Raises (when called):
      ValueError: a shape that is not 2-D, or a non-floating dtype.
    """

    def __init__(self, gain: float = 1.0, dtype: Any = _dtypes.float32) -> None:
        self.gain = float(gain)
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        d = _float_dtype(self._dtype(dtype), "identity_initializer")
        shape_l = _shape_list(shape)
        if len(shape_l) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices.")
        return constant(self.gain * np.eye(*shape_l, dtype=d.np_dtype), dtype=d, name="identity")

    def get_config(self) -> dict[str, Any]:
        return {"gain": self.gain, "dtype": self.dtype.name}


# TF1's public names are the classes themselves (``tf.zeros_initializer()``).
zeros_initializer = Zeros
ones_initializer = Ones
constant_initializer = Constant
random_normal_initializer = RandomNormal
random_uniform_initializer = RandomUniform
truncated_normal_initializer = TruncatedNormal
variance_scaling_initializer = VarianceScaling
glorot_uniform_initializer = GlorotUniform
glorot_normal_initializer = GlorotNormal
orthogonal_initializer = Orthogonal
identity_initializer = Identity


def he_normal(seed: int | None = None) -> VarianceScaling:
    """``VarianceScaling(2.0, 'fan_in', 'truncated_normal')``, as ``tf.compat.v1.initializers.he_normal``."""
    return VarianceScaling(2.0, "fan_in", "truncated_normal", seed)


def he_uniform(seed: int | None = None) -> VarianceScaling:
    """``VarianceScaling(2.0, 'fan_in', 'uniform')``, as ``tf.compat.v1.initializers.he_uniform``."""
    return VarianceScaling(2.0, "fan_in", "uniform", seed)


def lecun_normal(seed: int | None = None) -> VarianceScaling:
    """``VarianceScaling(1.0, 'fan_in', 'truncated_normal')``, as ``tf.compat.v1.initializers.lecun_normal``."""
    return VarianceScaling(1.0, "fan_in", "truncated_normal", seed)


def lecun_uniform(seed: int | None = None) -> VarianceScaling:
    """``VarianceScaling(1.0, 'fan_in', 'uniform')``, as ``tf.compat.v1.initializers.lecun_uniform``."""
    return VarianceScaling(1.0, "fan_in", "uniform", seed)


def _as_initializer(init: Any) -> Any:
    """An initializer instance from a class, an instance or a callable."""
    if isinstance(init, type):
        return init()
    return init



class UniformUnitScaling(Initializer):
    """Samples uniformly from ``[-m, m)``, ``m = factor * sqrt(3 / input_size)`` with
    ``input_size`` the product of all dimensions but the last (at least 1), as
    ``tf.compat.v1.uniform_unit_scaling_initializer`` (deprecated in TF)."""

    def __init__(self, factor: float = 1.0, seed: int | None = None, dtype: Any = _dtypes.float32) -> None:
        self.factor, self.seed = factor, seed
        self.dtype = _float_dtype(_dtypes.as_dtype(dtype), "uniform_unit_scaling_initializer")

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        d = self._dtype(dtype)
        dims = _shape_list(shape)
        input_size = max(float(np.prod(dims[:-1])) if len(dims) > 1 else 1.0, 1.0)
        max_val = math.sqrt(3 / input_size) * self.factor
        return random_ops.random_uniform(dims, -max_val, max_val, d, seed=self.seed)

    def get_config(self) -> dict[str, Any]:
        return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}


uniform_unit_scaling_initializer = UniformUnitScaling
