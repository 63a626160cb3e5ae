"""The distribution families of ``tf.compat.v1.distributions`` and ``tf.contrib.distributions``
(``MultivariateNormalDiag``), with their closed-form KL divergences.

Formulas are TF 1.x's (``tensorflow/python/ops/distributions/*.py``); parameters are
converted to one floating dtype (float32 for Python numbers) and named as TF
names them (``Normal/loc``, ``Normal/scale``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import constant_value, convert_to_tensor, identity
from jaxsess._core.graph._graph import Tensor, name_scope
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.distributions._distribution import (
    FULLY_REPARAMETERIZED,
    NOT_REPARAMETERIZED,
    Distribution,
    RegisterKL,
)
from jaxsess._tf1.ops import (
    array_ops as array_ops,
    linalg_ops as linalg_ops,
    math_ops as math_ops,
    math_special_ops as math_special_ops,
    nn_ops as nn_ops,
    random_ops as random_ops,
)

__all__ = ["Normal", "Bernoulli", "Categorical", "Uniform", "Laplace", "Gamma", "Exponential", "Beta", "Dirichlet",
           "Multinomial", "MultivariateNormalDiag"]


def _float_params(values: dict[str, Any], dtype: Any = None) -> dict[str, Any]:
    """``values`` as tensors of one floating dtype, each named after its key (TF's ``identity(x, name=key)``).

    Raises:
      ValueError: parameter tensors of different dtypes (as TF).
    """
    if dtype is None:
        given = [v.dtype for v in values.values() if isinstance(v, Tensor)]
        given += [_dtypes.as_dtype(v.dtype) for v in values.values() if isinstance(v, np.ndarray)]
        dtype = given[0] if given else _dtypes.float32
    out = {}
    for key, v in values.items():
        if isinstance(v, Tensor) and v.dtype != _dtypes.as_dtype(dtype):
            first = next(iter(values))
            raise ValueError(f"{key}: {v.name}, type={v.dtype.name}, must be of the same type "
                             f"({_dtypes.as_dtype(dtype).name}) as {first}.")
        out[key] = identity(convert_to_tensor(v, dtype=dtype), name=key)
    return out


def _broadcast_shape(*shapes: Any) -> TensorShape:
    """The static broadcast of ``shapes`` (unknown dimensions stay unknown)."""
    ts = [TensorShape(s) for s in shapes]
    if any(t.ndims is None for t in ts):
        return TensorShape(None)
    rank = max(int(t.ndims or 0) for t in ts)
    dims: list[int | None] = []
    for i in range(rank):
        ds = [t.as_list()[i - rank + t.ndims] for t in ts if i - rank + t.ndims >= 0]  # type: ignore[operator]
        known = [d for d in ds if d is not None and d != 1]
        dims.append(known[0] if known else (None if None in ds else 1))
    return TensorShape(dims)


class _Family(Distribution):
    """Shared plumbing: the batch shape from the parameters, dynamic sample shapes."""

    _batch_params: tuple[str, ...] = ()
    _event_rank = 0

    def _param_tensors(self) -> list[Any]:
        return [getattr(self, f"_{p}") for p in self._batch_params]

    def _batch_shape(self) -> TensorShape:
        shapes = [t.get_shape() for t in self._param_tensors()]
        if self._event_rank:
            shapes = [s[:-self._event_rank] if s.ndims is not None else s for s in shapes]
        return _broadcast_shape(*shapes)

    def _event_shape(self) -> TensorShape:
        return TensorShape([])

    def _ones(self) -> Any:
        """Ones of shape ``batch_shape + event_shape`` (the broadcast of the parameters)."""
        out = None
        for t in self._param_tensors():
            out = array_ops.ones_like(t) if out is None else out * array_ops.ones_like(t)
        return out

    def batch_shape_tensor(self, name: str = "batch_shape_tensor") -> Any:
        with self._scope(name):
            shape = array_ops.shape(self._ones())
            return shape[:-self._event_rank] if self._event_rank else shape

    def _sample_shape(self, n: int) -> Any:
        static = self.batch_shape.concatenate(self.event_shape)
        if static.is_fully_defined():
            return [n] + static.as_list()
        return array_ops.concat([[n], array_ops.shape(self._ones())], 0)


class _LocScale(_Family):
    """A family with a location ``loc`` and a scale ``scale`` (float tensors, broadcast
    together), fully reparameterized: the shared constructor and properties."""

    _batch_params = ("loc", "scale")

    def _init_loc_scale(self, parameters: dict[str, Any], loc: Any, scale: Any, validate_args: bool,
                        allow_nan_stats: bool, name: str) -> None:
        with name_scope(name, values=[loc, scale]) as scope:
            p = _float_params({"loc": loc, "scale": scale})
        self._loc, self._scale = p["loc"], p["scale"]
        _Family.__init__(self, self._loc.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._loc, self._scale], scope)

    @property
    def loc(self) -> Any:
        return self._loc

    @property
    def scale(self) -> Any:
        return self._scale


class Normal(_LocScale):
    """The normal distribution N(loc, scale²), as ``tf.compat.v1.distributions.Normal``.

    Args:
      loc: the mean, a float tensor.
      scale: the standard deviation (> 0), broadcastable with ``loc``.
    """

    def __init__(self, loc: Any, scale: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Normal") -> None:
        self._init_loc_scale(dict(locals()), loc, scale, validate_args, allow_nan_stats, name)

    def _sample_n(self, n: int, seed: int | None) -> Any:
        sampled = random_ops.random_normal(self._sample_shape(n), mean=0.0, stddev=1.0, dtype=self.dtype, seed=seed)
        return sampled * self._scale + self._loc

    def _z(self, x: Any) -> Any:
        with name_scope("standardize"):
            return (x - self._loc) / self._scale

    def _log_prob(self, x: Any) -> Any:
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _log_unnormalized_prob(self, x: Any) -> Any:
        return -0.5 * math_ops.square(self._z(x))

    def _log_normalization(self) -> Any:
        return 0.5 * math.log(2.0 * math.pi) + math_ops.log(self._scale)

    def _cdf(self, x: Any) -> Any:
        return 0.5 * linalg_ops.erfc(-self._z(x) / math.sqrt(2.0))

    def _quantile(self, p: Any) -> Any:
        return math_special_ops.ndtri(p) * self._scale + self._loc

    def _entropy(self) -> Any:
        scale = self._scale * array_ops.ones_like(self._loc)
        return 0.5 * math.log(2.0 * math.pi * math.e) + math_ops.log(scale)

    def _mean(self) -> Any:
        return self._loc * array_ops.ones_like(self._scale)

    def _stddev(self) -> Any:
        return self._scale * array_ops.ones_like(self._loc)

    def _variance(self) -> Any:
        return math_ops.square(self._stddev())

    def _mode(self) -> Any:
        return self._mean()


class Laplace(_LocScale):
    """The Laplace distribution with density ``exp(-|x - loc| / scale) / (2 scale)``, as
    ``tf.compat.v1.distributions.Laplace``."""

    def __init__(self, loc: Any, scale: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Laplace") -> None:
        self._init_loc_scale(dict(locals()), loc, scale, validate_args, allow_nan_stats, name)

    def _sample_n(self, n: int, seed: int | None) -> Any:
        lo = float(np.nextafter(np.array(-1.0, self.dtype.np_dtype), np.array(0.0, self.dtype.np_dtype)))
        u = random_ops.random_uniform(self._sample_shape(n), minval=lo, maxval=1.0, dtype=self.dtype, seed=seed)
        return self._loc - self._scale * math_ops.sign(u) * math_ops.log1p(-math_ops.abs(u))

    def _log_prob(self, x: Any) -> Any:
        return -math_ops.abs(x - self._loc) / self._scale - (math.log(2.0) + math_ops.log(self._scale))

    def _cdf(self, x: Any) -> Any:
        z = x - self._loc
        return 0.5 - 0.5 * math_ops.sign(z) * math_ops.expm1(-math_ops.abs(z) / self._scale)

    def _entropy(self) -> Any:
        scale = self._scale + array_ops.zeros_like(self._loc)
        return math.log(2.0) + 1.0 + math_ops.log(scale)

    def _mean(self) -> Any:
        return self._loc + array_ops.zeros_like(self._scale)

    def _stddev(self) -> Any:
        return math.sqrt(2.0) * self._scale + array_ops.zeros_like(self._loc)

    def _variance(self) -> Any:
        return math_ops.square(self._stddev())

    def _mode(self) -> Any:
        return self._mean()


class Uniform(_Family):
    """The uniform distribution on ``[low, high)``, as ``tf.compat.v1.distributions.Uniform``."""

    _batch_params = ("low", "high")

    def __init__(self, low: Any = 0.0, high: Any = 1.0, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Uniform") -> None:
        parameters = dict(locals())
        with name_scope(name, values=[low, high]) as scope:
            p = _float_params({"low": low, "high": high})
        self._low, self._high = p["low"], p["high"]
        super().__init__(self._low.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._low, self._high], scope)

    @property
    def low(self) -> Any:
        return self._low

    @property
    def high(self) -> Any:
        return self._high

    def range(self, name: str = "range") -> Any:
        """``high - low``."""
        with self._scope(name):
            return self._high - self._low

    def _sample_n(self, n: int, seed: int | None) -> Any:
        u = random_ops.random_uniform(self._sample_shape(n), dtype=self.dtype, seed=seed)
        return self._low + (self._high - self._low) * u

    def _prob(self, x: Any) -> Any:
        ones = array_ops.ones_like(x) * self._ones()
        outside = math_ops.logical_or(x < self._low, x >= self._high)
        return math_ops.where_v2(outside, array_ops.zeros_like(ones), ones / (self._high - self._low))

    _log_prob = None

    def _cdf(self, x: Any) -> Any:
        ones = array_ops.ones_like(x) * self._ones()
        zeros = array_ops.zeros_like(ones)
        result = math_ops.where_v2(x >= self._high, ones, (x - self._low) / (self._high - self._low))
        return math_ops.where_v2(x < self._low, zeros, result)

    def _entropy(self) -> Any:
        return math_ops.log(self._high - self._low)

    def _mean(self) -> Any:
        return (self._low + self._high) / 2.0

    def _variance(self) -> Any:
        return math_ops.square(self._high - self._low) / 12.0

    def _stddev(self) -> Any:
        return (self._high - self._low) / math.sqrt(12.0)

    _mode = None


class Bernoulli(_Family):
    """A Bernoulli distribution over {0, 1} from ``logits`` or ``probs`` (exactly one), as
    ``tf.compat.v1.distributions.Bernoulli``; samples have ``dtype`` (int32).

    Raises:
      ValueError: both or neither of ``logits``/``probs``.
    """

    _batch_params = ("logits",)

    def __init__(self, logits: Any = None, probs: Any = None, dtype: Any = _dtypes.int32, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Bernoulli") -> None:
        parameters = dict(locals())
        if (logits is None) == (probs is None):
            raise ValueError("Must pass probs or logits, but not both.")
        with name_scope(name) as scope:
            if probs is None:
                self._logits = _float_params({"logits": logits})["logits"]
                self._probs = math_ops.sigmoid(self._logits, name="probs")
            else:
                self._probs = _float_params({"probs": probs})["probs"]
                self._logits = math_ops.subtract(math_ops.log(self._probs), math_ops.log1p(-self._probs),
                                                 name="logits")
        super().__init__(_dtypes.as_dtype(dtype), NOT_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._logits, self._probs], scope)

    @property
    def logits(self) -> Any:
        return self._logits

    @property
    def probs(self) -> Any:
        return self._probs

    def _convert_value(self, value: Any) -> Any:
        return convert_to_tensor(value)

    def _sample_n(self, n: int, seed: int | None) -> Any:
        u = random_ops.random_uniform(self._sample_shape(n), dtype=self._probs.dtype, seed=seed)
        return math_ops.cast(u < self._probs, self.dtype)

    def _log_prob(self, event: Any) -> Any:
        event = math_ops.cast(event, self._logits.dtype)
        logits = self._logits
        if event.get_shape() != logits.get_shape():  # TF broadcasts both before the cross entropy
            logits = array_ops.ones_like(event) * logits
            event = array_ops.ones_like(logits) * event
        return -nn_ops.sigmoid_cross_entropy_with_logits(labels=event, logits=logits)

    def _entropy(self) -> Any:
        return -self._logits * (math_ops.sigmoid(self._logits) - 1) + nn_ops.softplus(-self._logits)

    def _mean(self) -> Any:
        return identity(self._probs)

    def _variance(self) -> Any:
        return self._mean() * (1.0 - self._probs)

    def _mode(self) -> Any:
        return math_ops.cast(self._probs > 0.5, self.dtype)


class Categorical(_Family):
    """A categorical distribution over ``[0, K)`` from ``logits`` or ``probs`` ``[..., K]`` (exactly
    one), as ``tf.compat.v1.distributions.Categorical``; samples have ``dtype`` (int32).

    Raises:
      ValueError: both or neither of ``logits``/``probs``.
    """

    _batch_params = ("logits",)
    _event_rank = 1  # of the parameters; the events themselves are scalars

    def __init__(self, logits: Any = None, probs: Any = None, dtype: Any = _dtypes.int32, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Categorical") -> None:
        parameters = dict(locals())
        if (logits is None) == (probs is None):
            raise ValueError("Must pass probs or logits, but not both.")
        with name_scope(name) as scope:
            if probs is None:
                self._logits = _float_params({"logits": logits})["logits"]
                self._probs = nn_ops.softmax(self._logits, name="probs")
            else:
                self._probs = _float_params({"probs": probs})["probs"]
                self._logits = math_ops.log(self._probs, name="logits")
            self._event_size = array_ops.shape(self._logits, name="event_size")[-1]
        super().__init__(_dtypes.as_dtype(dtype), NOT_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._logits, self._probs], scope)

    @property
    def logits(self) -> Any:
        return self._logits

    @property
    def probs(self) -> Any:
        return self._probs

    @property
    def event_size(self) -> Any:
        """The number of classes K, a scalar int32 tensor (as TF)."""
        return self._event_size

    def _k(self) -> Any:
        k = self._logits.get_shape().as_list()[-1]
        return k if k is not None else self._event_size

    def _convert_value(self, value: Any) -> Any:
        return convert_to_tensor(value)

    def batch_shape_tensor(self, name: str = "batch_shape_tensor") -> Any:
        with self._scope(name):
            return array_ops.shape(self._logits)[:-1]

    def _sample_n(self, n: int, seed: int | None) -> Any:
        logits_2d = array_ops.reshape(self._logits, [-1, self._k()])
        draws = random_ops.multinomial(logits_2d, n, seed=seed, output_dtype=self.dtype)  # [batch, n]
        draws = array_ops.transpose(draws)
        batch = self.batch_shape
        shape = [n] + batch.as_list() if batch.is_fully_defined() else array_ops.concat(
            [[n], array_ops.shape(self._logits)[:-1]], 0)
        return array_ops.reshape(draws, shape)

    def _log_prob(self, k: Any) -> Any:
        k = math_ops.cast(k, _dtypes.int32)
        logits = self._logits
        if k.get_shape() != logits.get_shape()[:-1]:  # TF broadcasts both before the cross entropy
            logits = logits * array_ops.ones_like(array_ops.expand_dims(k, -1), dtype=logits.dtype)
            k = k * array_ops.ones_like(logits[..., 0], dtype=_dtypes.int32)
        return -nn_ops.sparse_softmax_cross_entropy_with_logits(labels=k, logits=logits)

    def _entropy(self) -> Any:
        return -math_ops.reduce_sum(nn_ops.log_softmax(self._logits) * self._probs, axis=-1)

    def _mode(self) -> Any:
        return math_ops.cast(math_ops.argmax(self._logits, axis=-1), self.dtype)


class Gamma(_Family):
    """The gamma distribution with ``concentration`` (shape) and ``rate`` (inverse scale), as
    ``tf.compat.v1.distributions.Gamma``; samples are reparameterised (implicit gradients)."""

    _batch_params = ("concentration", "rate")

    def __init__(self, concentration: Any, rate: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Gamma") -> None:
        parameters = dict(locals())
        with name_scope(name, values=[concentration, rate]) as scope:
            p = _float_params({"concentration": concentration, "rate": rate})
        self._concentration, self._rate = p["concentration"], p["rate"]
        super().__init__(self._rate.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._concentration, self._rate], scope)

    @property
    def concentration(self) -> Any:
        return self._concentration

    @property
    def rate(self) -> Any:
        return self._rate

    def _sample_n(self, n: int, seed: int | None) -> Any:
        return random_ops.random_gamma([n], self._concentration, self._rate, dtype=self.dtype, seed=seed)

    def _log_prob(self, x: Any) -> Any:
        c, r = self._concentration, self._rate
        return (c - 1.0) * math_ops.log(x) - r * x - linalg_ops.lgamma(c) + c * math_ops.log(r)

    def _cdf(self, x: Any) -> Any:
        return math_special_ops.igamma(self._concentration, self._rate * x)

    def _entropy(self) -> Any:
        c, r = self._concentration, self._rate
        return c - math_ops.log(r) + linalg_ops.lgamma(c) + (1.0 - c) * linalg_ops.digamma(c)

    def _mean(self) -> Any:
        return self._concentration / self._rate

    def _variance(self) -> Any:
        return self._concentration / math_ops.square(self._rate)

    def _stddev(self) -> Any:
        return math_ops.sqrt(self._concentration) / self._rate

    def _mode(self) -> Any:
        mode = (self._concentration - 1.0) / self._rate
        if not self.allow_nan_stats:
            return mode
        nan = array_ops.fill(array_ops.shape(mode), np.array(np.nan, self.dtype.np_dtype))
        return math_ops.where_v2(self._concentration > 1.0, mode, nan)


class Exponential(Gamma):
    """The exponential distribution with ``rate``: ``Gamma(1, rate)``, as
    ``tf.compat.v1.distributions.Exponential``."""

    def __init__(self, rate: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Exponential") -> None:
        parameters = dict(locals())
        with name_scope(name, values=[rate]) as scope:
            self._rate = _float_params({"rate": rate})["rate"]
            self._concentration = array_ops.ones_like(self._rate, name="concentration")
        Distribution.__init__(self, self._rate.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats,
                              parameters, [self._rate], scope)

    def _sample_n(self, n: int, seed: int | None) -> Any:
        tiny = float(np.finfo(self.dtype.np_dtype).tiny)
        u = random_ops.random_uniform(self._sample_shape(n), minval=tiny, maxval=1.0, dtype=self.dtype, seed=seed)
        return -math_ops.log(u) / self._rate

    def _log_prob(self, x: Any) -> Any:
        return math_ops.log(self._rate) - self._rate * x

    def _cdf(self, x: Any) -> Any:
        return -math_ops.expm1(-self._rate * x)


class Beta(_Family):
    """The beta distribution on (0, 1), density ∝ ``x^(c1-1) (1-x)^(c0-1)``, as
    ``tf.compat.v1.distributions.Beta``."""

    _batch_params = ("concentration1", "concentration0")

    def __init__(self, concentration1: Any = None, concentration0: Any = None, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Beta") -> None:
        parameters = dict(locals())
        with name_scope(name, values=[concentration1, concentration0]) as scope:
            p = _float_params({"concentration1": concentration1, "concentration0": concentration0})
        self._concentration1, self._concentration0 = p["concentration1"], p["concentration0"]
        self._total_concentration = self._concentration1 + self._concentration0
        super().__init__(self._concentration1.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats,
                         parameters, [self._concentration1, self._concentration0], scope)

    @property
    def concentration1(self) -> Any:
        return self._concentration1

    @property
    def concentration0(self) -> Any:
        return self._concentration0

    @property
    def total_concentration(self) -> Any:
        return self._total_concentration

    def _sample_n(self, n: int, seed: int | None) -> Any:
        ones = self._ones()
        g1 = random_ops.random_gamma([n], self._concentration1 * ones, dtype=self.dtype, seed=seed)
        g0 = random_ops.random_gamma([n], self._concentration0 * ones, dtype=self.dtype,
                                     seed=None if seed is None else seed + 1)
        return g1 / (g1 + g0)

    def _lbeta(self) -> Any:
        c1, c0 = self._concentration1, self._concentration0
        return linalg_ops.lgamma(c1) + linalg_ops.lgamma(c0) - linalg_ops.lgamma(c1 + c0)

    def _log_prob(self, x: Any) -> Any:
        c1, c0 = self._concentration1, self._concentration0
        return (c1 - 1.0) * math_ops.log(x) + (c0 - 1.0) * math_ops.log1p(-x) - self._lbeta()

    def _cdf(self, x: Any) -> Any:
        return math_special_ops.betainc(self._concentration1, self._concentration0, x)

    def _entropy(self) -> Any:
        c1, c0, t = self._concentration1, self._concentration0, self._total_concentration
        dg = linalg_ops.digamma
        return self._lbeta() - (c1 - 1.0) * dg(c1) - (c0 - 1.0) * dg(c0) + (t - 2.0) * dg(t)

    def _mean(self) -> Any:
        return self._concentration1 / self._total_concentration

    def _variance(self) -> Any:
        m = self._mean()
        return m * (1.0 - m) / (1.0 + self._total_concentration)

    def _mode(self) -> Any:
        mode = (self._concentration1 - 1.0) / (self._total_concentration - 2.0)
        if not self.allow_nan_stats:
            return mode
        nan = array_ops.fill(array_ops.shape(mode), np.array(np.nan, self.dtype.np_dtype))
        ok = math_ops.logical_and(self._concentration1 > 1.0, self._concentration0 > 1.0)
        return math_ops.where_v2(ok, mode, nan)


class Dirichlet(_Family):
    """The Dirichlet distribution over the simplex, ``concentration [..., K]``, as
    ``tf.compat.v1.distributions.Dirichlet`` (event shape ``[K]``)."""

    _batch_params = ("concentration",)
    _event_rank = 1

    def __init__(self, concentration: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "Dirichlet") -> None:
        parameters = dict(locals())
        with name_scope(name, values=[concentration]) as scope:
            self._concentration = _float_params({"concentration": concentration})["concentration"]
            self._total_concentration = math_ops.reduce_sum(self._concentration, -1)
        super().__init__(self._concentration.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats,
                         parameters, [self._concentration], scope)

    @property
    def concentration(self) -> Any:
        return self._concentration

    @property
    def total_concentration(self) -> Any:
        return self._total_concentration

    def _event_shape(self) -> TensorShape:
        return self._concentration.get_shape()[-1:]

    def _sample_n(self, n: int, seed: int | None) -> Any:
        g = random_ops.random_gamma([n], self._concentration, dtype=self.dtype, seed=seed)
        return g / math_ops.reduce_sum(g, -1, keepdims=True)

    def _lbeta(self) -> Any:
        c = self._concentration
        return math_ops.reduce_sum(linalg_ops.lgamma(c), -1) - linalg_ops.lgamma(math_ops.reduce_sum(c, -1))

    def _log_prob(self, x: Any) -> Any:
        return math_ops.reduce_sum((self._concentration - 1.0) * math_ops.log(x), -1) - self._lbeta()

    def _entropy(self) -> Any:
        c, t = self._concentration, self._total_concentration
        k = math_ops.cast(array_ops.shape(c)[-1], self.dtype)
        dg = linalg_ops.digamma
        return self._lbeta() + (t - k) * dg(t) - math_ops.reduce_sum((c - 1.0) * dg(c), -1)

    def _mean(self) -> Any:
        return self._concentration / array_ops.expand_dims(self._total_concentration, -1)

    def _covariance(self) -> Any:
        t = array_ops.expand_dims(self._total_concentration, -1)
        m = self._mean()
        outer = -array_ops.expand_dims(m, -1) * array_ops.expand_dims(m, -2)
        diag = m * (1.0 - m)
        return linalg_ops.matrix_set_diag(outer, diag) / array_ops.expand_dims(1.0 + t, -1)

    def _variance(self) -> Any:
        t = array_ops.expand_dims(self._total_concentration, -1)
        m = self._mean()
        return m * (1.0 - m) / (1.0 + t)

    _stddev = None

    def _mode(self) -> Any:
        k = math_ops.cast(array_ops.shape(self._concentration)[-1], self.dtype)
        mode = (self._concentration - 1.0) / array_ops.expand_dims(self._total_concentration - k, -1)
        if not self.allow_nan_stats:
            return mode
        nan = array_ops.fill(array_ops.shape(mode), np.array(np.nan, self.dtype.np_dtype))
        return math_ops.where_v2(self._concentration > 1.0, mode, nan)


class Multinomial(_Family):
    """The multinomial distribution: counts of ``total_count`` draws over ``K`` classes, from
    ``logits`` or ``probs`` ``[..., K]``, as ``tf.compat.v1.distributions.Multinomial`` (event ``[K]``).

    Raises:
      ValueError: both or neither of ``logits``/``probs``.
    """

    _batch_params = ("logits",)
    _event_rank = 1

    def __init__(self, total_count: Any, logits: Any = None, probs: Any = None, validate_args: bool = False,
                 allow_nan_stats: bool = True, name: str = "Multinomial") -> None:
        parameters = dict(locals())
        if (logits is None) == (probs is None):
            raise ValueError("Must pass probs or logits, but not both.")
        with name_scope(name) as scope:
            if probs is None:
                self._logits = _float_params({"logits": logits})["logits"]
                self._probs = nn_ops.softmax(self._logits, name="probs")
            else:
                self._probs = _float_params({"probs": probs})["probs"]
                self._logits = math_ops.log(self._probs, name="logits")
            self._total_count = _float_params({"total_count": total_count}, self._probs.dtype)["total_count"]
        super().__init__(self._probs.dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._logits, self._probs, self._total_count], scope)

    @property
    def total_count(self) -> Any:
        return self._total_count

    @property
    def logits(self) -> Any:
        return self._logits

    @property
    def probs(self) -> Any:
        return self._probs

    def _event_shape(self) -> TensorShape:
        return self._logits.get_shape()[-1:]

    def _sample_n(self, n: int, seed: int | None) -> Any:
        total = constant_value(self._total_count)
        if total is None or np.ndim(total) != 0:
            raise ValueError(f"{self.name}: jaxsess samples a Multinomial only with a scalar total_count known "
                             f"when the graph is built; got {self._total_count.name}.")
        k = self._logits.get_shape().as_list()[-1]
        logits_2d = array_ops.reshape(self._logits, [-1, k])
        draws = random_ops.multinomial(logits_2d, n * int(total), seed=seed, output_dtype=_dtypes.int32)
        counts = math_ops.reduce_sum(array_ops.one_hot(array_ops.reshape(draws, [-1, n, int(total)]), k,
                                                       dtype=self.dtype), 2)  # [batch, n, K]
        counts = array_ops.transpose(counts, [1, 0, 2])
        return array_ops.reshape(counts, [n] + self.batch_shape.as_list() + [k])

    def _log_prob(self, counts: Any) -> Any:
        n = self._total_count
        log_unnorm = math_ops.reduce_sum(counts * nn_ops.log_softmax(self._logits), -1)
        log_norm = -(linalg_ops.lgamma(n + 1.0) - math_ops.reduce_sum(linalg_ops.lgamma(counts + 1.0), -1))
        return log_unnorm - log_norm

    def _mean(self) -> Any:
        return array_ops.expand_dims(self._total_count, -1) * self._probs

    def _variance(self) -> Any:
        return self._mean() * (1.0 - self._probs)


class MultivariateNormalDiag(_Family):
    """A multivariate normal with diagonal covariance ``diag(scale_diag²)``, ``loc``/``scale_diag``
    ``[..., K]``, as ``tf.contrib.distributions.MultivariateNormalDiag`` (event shape ``[K]``;
    ``scale_diag`` None means the identity).

    Raises:
      ValueError: neither ``loc`` nor ``scale_diag``.
    """

    _batch_params = ("loc", "scale_diag")
    _event_rank = 1

    def __init__(self, loc: Any = None, scale_diag: Any = None, scale_identity_multiplier: Any = None,
                 validate_args: bool = False, allow_nan_stats: bool = True,
                 name: str = "MultivariateNormalDiag") -> None:
        parameters = dict(locals())
        if loc is None and scale_diag is None:
            raise ValueError("MultivariateNormalDiag needs loc or scale_diag to know the event size.")
        with name_scope(name) as scope:
            vals = {k: v for k, v in {"loc": loc, "scale_diag": scale_diag}.items() if v is not None}
            p = _float_params(vals)
            loc_t: Any = p.get("loc")
            scale = p.get("scale_diag")
            if scale is None:
                scale = array_ops.ones_like(loc_t, name="scale_diag")
            if loc_t is None:
                loc_t = array_ops.zeros_like(scale, name="loc")
            self._loc = loc_t
            if scale_identity_multiplier is not None:
                scale = scale * convert_to_tensor(scale_identity_multiplier, scale.dtype)
            self._scale_diag = scale
        super().__init__(self._loc.dtype, FULLY_REPARAMETERIZED, validate_args, allow_nan_stats, parameters,
                         [self._loc, self._scale_diag], scope)

    @property
    def loc(self) -> Any:
        return self._loc

    @property
    def scale_diag(self) -> Any:
        return self._scale_diag

    def _event_shape(self) -> TensorShape:
        return _broadcast_shape(self._loc.get_shape()[-1:], self._scale_diag.get_shape()[-1:])

    def _sample_n(self, n: int, seed: int | None) -> Any:
        z = random_ops.random_normal(self._sample_shape(n), dtype=self.dtype, seed=seed)
        return self._loc + self._scale_diag * z

    def _log_prob(self, x: Any) -> Any:
        z = (x - self._loc) / self._scale_diag
        k = math_ops.cast(array_ops.shape(z)[-1], self.dtype)
        return (-0.5 * math_ops.reduce_sum(math_ops.square(z), -1) - 0.5 * k * math.log(2.0 * math.pi)
                - math_ops.reduce_sum(math_ops.log(math_ops.abs(self._scale_diag * array_ops.ones_like(z))), -1))

    def _entropy(self) -> Any:
        scale = self._scale_diag * array_ops.ones_like(self._loc)
        k = math_ops.cast(array_ops.shape(scale)[-1], self.dtype)
        return 0.5 * k * (1.0 + math.log(2.0 * math.pi)) + math_ops.reduce_sum(math_ops.log(math_ops.abs(scale)), -1)

    def _mean(self) -> Any:
        return self._loc * array_ops.ones_like(self._scale_diag)

    def _mode(self) -> Any:
        return self._mean()

    def _stddev(self) -> Any:
        return math_ops.abs(self._scale_diag) * array_ops.ones_like(self._loc)

    def _variance(self) -> Any:
        return math_ops.square(self._stddev())

    def _covariance(self) -> Any:
        return linalg_ops.matrix_diag(self._variance())


@RegisterKL(Normal, Normal)
def _kl_normal_normal(a: Normal, b: Normal, name: str | None = None) -> Any:
    s_a_sq, s_b_sq = math_ops.square(a.scale), math_ops.square(b.scale)
    ratio = s_a_sq / s_b_sq
    return math_ops.square(a.loc - b.loc) / (2.0 * s_b_sq) + 0.5 * (ratio - 1.0 - math_ops.log(ratio))


@RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a: Categorical, b: Categorical, name: str | None = None) -> Any:
    delta = nn_ops.log_softmax(a.logits) - nn_ops.log_softmax(b.logits)
    return math_ops.reduce_sum(nn_ops.softmax(a.logits) * delta, axis=-1)


@RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a: Bernoulli, b: Bernoulli, name: str | None = None) -> Any:
    delta_probs0 = nn_ops.softplus(-b.logits) - nn_ops.softplus(-a.logits)
    delta_probs1 = nn_ops.softplus(b.logits) - nn_ops.softplus(a.logits)
    return math_ops.sigmoid(a.logits) * delta_probs0 + math_ops.sigmoid(-a.logits) * delta_probs1


@RegisterKL(MultivariateNormalDiag, MultivariateNormalDiag)
def _kl_mvndiag_mvndiag(a: MultivariateNormalDiag, b: MultivariateNormalDiag, name: str | None = None) -> Any:
    s_a_sq = math_ops.square(a.scale_diag * array_ops.ones_like(a.loc))
    s_b_sq = math_ops.square(b.scale_diag * array_ops.ones_like(b.loc))
    ratio = s_a_sq / s_b_sq
    per_dim = math_ops.square(a.loc - b.loc) / (2.0 * s_b_sq) + 0.5 * (ratio - 1.0 - math_ops.log(ratio))
    return math_ops.reduce_sum(per_dim, -1)


@RegisterKL(Gamma, Gamma)
def _kl_gamma_gamma(a: Gamma, b: Gamma, name: str | None = None) -> Any:
    ca, ra, cb, rb = a.concentration, a.rate, b.concentration, b.rate
    return ((ca - cb) * linalg_ops.digamma(ca) + linalg_ops.lgamma(cb) - linalg_ops.lgamma(ca)
            + cb * (math_ops.log(ra) - math_ops.log(rb)) + ca * (rb / ra - 1.0))


@RegisterKL(Beta, Beta)
def _kl_beta_beta(a: Beta, b: Beta, name: str | None = None) -> Any:
    dg = linalg_ops.digamma
    return (b._lbeta() - a._lbeta() + (a.concentration1 - b.concentration1) * dg(a.concentration1)
            + (a.concentration0 - b.concentration0) * dg(a.concentration0)
            + (b.total_concentration - a.total_concentration) * dg(a.total_concentration))
