"""The ``Distribution`` base class, reparameterization types and the KL registry, as
``tf.compat.v1.distributions`` (TF 1.x ``tensorflow/python/ops/distributions``).

A distribution is a Python object over graph tensors: its methods build ops in
the default graph (``Normal(0., 1.).log_prob(x)`` is a tensor). Shapes follow TF:
``sample(n)`` has shape ``sample_shape + batch_shape + event_shape``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import constant_value, convert_to_tensor
from jaxsess._core.graph._graph import name_scope
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops

__all__ = ["Distribution", "ReparameterizationType", "FULLY_REPARAMETERIZED", "NOT_REPARAMETERIZED",
           "RegisterKL", "kl_divergence"]


class ReparameterizationType:
    """Whether samples are differentiable in the parameters, as ``tf.distributions.ReparameterizationType``."""

    def __init__(self, rep_type: str) -> None:
        self._rep_type = rep_type

    def __repr__(self) -> str:
        return f"<Reparameterization Type: {self._rep_type}>"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")


def sample_shape_list(sample_shape: Any) -> list[int]:
    """``sample_shape`` (an int, a list or a constant tensor) as a static list.

    Raises:
      ValueError: ``sample_shape`` not known when the graph is built.
    """
    if isinstance(sample_shape, int | np.integer):
        return [int(sample_shape)]
    val = constant_value(sample_shape) if not isinstance(sample_shape, list | tuple) else np.asarray(sample_shape)
    if val is None:
        raise ValueError(f"jaxsess needs a sample_shape known when the graph is built; got {sample_shape!r}.")
    return [int(d) for d in np.reshape(np.asarray(val), (-1,))]


class Distribution:
    """A batch of probability distributions, as ``tf.compat.v1.distributions.Distribution``.

    Subclasses implement ``_batch_shape``, ``_event_shape``, ``_sample_n(n, seed)``
    and the statistics they support (``_log_prob``, ``_cdf``, ``_entropy``,
    ``_mean``, ``_variance``, ``_mode``...); a missing one raises
    ``NotImplementedError`` naming the method and the class.
    """

    def __init__(self, dtype: Any, reparameterization_type: ReparameterizationType, validate_args: bool,
                 allow_nan_stats: bool, parameters: dict[str, Any] | None = None, graph_parents: Any = None,
                 name: str | None = None) -> None:
        self._dtype = dtype
        self._reparameterization_type = reparameterization_type
        self._validate_args = validate_args
        self._allow_nan_stats = allow_nan_stats
        self._parameters = {k: v for k, v in (parameters or {}).items() if k not in ("self", "__class__")}
        self._graph_parents = list(graph_parents or [])
        self._name = name or type(self).__name__

    def _batch_shape(self) -> Any:
        return TensorShape(None)

    def _event_shape(self) -> Any:
        return TensorShape(None)

    # -- properties ---------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> Any:
        return self._dtype

    @property
    def parameters(self) -> dict[str, Any]:
        return dict(self._parameters)

    @property
    def reparameterization_type(self) -> ReparameterizationType:
        return self._reparameterization_type

    @property
    def validate_args(self) -> bool:
        return self._validate_args

    @property
    def allow_nan_stats(self) -> bool:
        return self._allow_nan_stats

    @property
    def batch_shape(self) -> TensorShape:
        """The static batch shape (a :class:`TensorShape`)."""
        return TensorShape(self._batch_shape())

    @property
    def event_shape(self) -> TensorShape:
        """The static event shape (a :class:`TensorShape`)."""
        return TensorShape(self._event_shape())

    def batch_shape_tensor(self, name: str = "batch_shape_tensor") -> Any:
        """The batch shape as an int32 tensor."""
        with self._scope(name):
            return convert_to_tensor(np.asarray(self._static_list(self._batch_shape(), "batch"), np.int32))

    def event_shape_tensor(self, name: str = "event_shape_tensor") -> Any:
        """The event shape as an int32 tensor."""
        with self._scope(name):
            return convert_to_tensor(np.asarray(self._static_list(self._event_shape(), "event"), np.int32))

    def is_scalar_batch(self) -> bool:
        return TensorShape(self._batch_shape()).ndims == 0

    def is_scalar_event(self) -> bool:
        return TensorShape(self._event_shape()).ndims == 0

    def _static_list(self, shape: Any, what: str) -> list[int]:
        s = TensorShape(shape)
        if not s.is_fully_defined():
            raise ValueError(f"{self.name}: jaxsess needs the {what} shape known when the graph is built; got {s}.")
        return [int(d or 0) for d in s.as_list()]

    @contextlib.contextmanager
    def _scope(self, name: str) -> Iterator[Any]:
        base = self.name if self.name.endswith("/") else None  # the scope opened at construction
        with name_scope(base or self.name), name_scope(name) as scope:
            yield scope

    # -- sampling -----------------------------------------------------------------------------
    def sample(self, sample_shape: Any = (), seed: int | None = None, name: str = "sample") -> Any:
        """Draws samples of shape ``sample_shape + batch_shape + event_shape``, as TF's ``sample``.

        Raises:
          ValueError: ``sample_shape`` or the batch shape unknown when the graph is built.
        """
        shape = sample_shape_list(sample_shape)
        with self._scope(name):
            n = int(np.prod(shape)) if shape else 1
            samples = self._sample_n(n, seed)
            if samples.get_shape()[1:].is_fully_defined():
                return array_ops.reshape(samples, shape + samples.get_shape().as_list()[1:])
            return array_ops.reshape(samples, array_ops.concat([shape, array_ops.shape(samples)[1:]], 0))

    def _sample_n(self, n: int, seed: int | None) -> Any:
        raise NotImplementedError(f"sample is not implemented: {type(self).__name__}")

    # -- statistics ---------------------------------------------------------------------------
    def _call(self, method: str, name: str, *args: Any) -> Any:
        fn = getattr(self, f"_{method}", None)
        if fn is None:
            raise NotImplementedError(f"{method} is not implemented: {type(self).__name__}")
        with self._scope(name):
            return fn(*[self._convert_value(a) for a in args])

    def _convert_value(self, value: Any) -> Any:
        return convert_to_tensor(value, self.dtype)

    def log_prob(self, value: Any, name: str = "log_prob") -> Any:
        """Log probability density/mass of ``value``, shape ``broadcast(value, batch)`` less the event dims."""
        if getattr(self, "_log_prob", None) is None and getattr(self, "_prob", None) is not None:
            with self._scope(name):
                return math_ops.log(self._prob(self._convert_value(value)))  # type: ignore[attr-defined]
        return self._call("log_prob", name, value)

    def prob(self, value: Any, name: str = "prob") -> Any:
        """Probability density/mass of ``value``."""
        if getattr(self, "_prob", None) is None:
            with self._scope(name):
                return math_ops.exp(self._call_raw("log_prob", value))
        return self._call("prob", name, value)

    def _call_raw(self, method: str, value: Any) -> Any:
        fn = getattr(self, f"_{method}", None)
        if fn is None:
            raise NotImplementedError(f"{method} is not implemented: {type(self).__name__}")
        return fn(self._convert_value(value))

    def cdf(self, value: Any, name: str = "cdf") -> Any:
        """Cumulative distribution function ``P[X <= value]``."""
        if getattr(self, "_cdf", None) is None and getattr(self, "_log_cdf", None) is not None:
            with self._scope(name):
                return math_ops.exp(self._call_raw("log_cdf", value))
        return self._call("cdf", name, value)

    def log_cdf(self, value: Any, name: str = "log_cdf") -> Any:
        """``log(cdf(value))``."""
        if getattr(self, "_log_cdf", None) is None:
            with self._scope(name):
                return math_ops.log(self._call_raw("cdf", value))
        return self._call("log_cdf", name, value)

    def survival_function(self, value: Any, name: str = "survival_function") -> Any:
        """``1 - cdf(value)``."""
        with self._scope(name):
            return 1.0 - self._call_raw("cdf", value)

    def log_survival_function(self, value: Any, name: str = "log_survival_function") -> Any:
        """``log(1 - cdf(value))``."""
        with self._scope(name):
            return math_ops.log1p(-self._call_raw("cdf", value))

    def quantile(self, value: Any, name: str = "quantile") -> Any:
        """The inverse of ``cdf``."""
        return self._call("quantile", name, value)

    def entropy(self, name: str = "entropy") -> Any:
        """Shannon entropy in nats, shape ``batch_shape``."""
        return self._call("entropy", name)

    def mean(self, name: str = "mean") -> Any:
        """Mean, shape ``batch_shape + event_shape``."""
        return self._call("mean", name)

    def mode(self, name: str = "mode") -> Any:
        """Mode, shape ``batch_shape + event_shape``."""
        return self._call("mode", name)

    def variance(self, name: str = "variance") -> Any:
        """Variance, shape ``batch_shape + event_shape``."""
        if getattr(self, "_variance", None) is None:
            with self._scope(name):
                return math_ops.square(self._stddev())  # type: ignore[attr-defined]
        return self._call("variance", name)

    def stddev(self, name: str = "stddev") -> Any:
        """Standard deviation, shape ``batch_shape + event_shape``."""
        if getattr(self, "_stddev", None) is None:
            with self._scope(name):
                return math_ops.sqrt(self._variance())  # type: ignore[attr-defined]
        return self._call("stddev", name)

    def covariance(self, name: str = "covariance") -> Any:
        """Covariance (a matrix per batch member for vector events)."""
        return self._call("covariance", name)

    def cross_entropy(self, other: Distribution, name: str = "cross_entropy") -> Any:
        """``entropy() + kl_divergence(other)``, as TF's ``cross_entropy``."""
        with self._scope(name):
            return self._entropy() + kl_divergence(self, other)  # type: ignore[attr-defined]

    def kl_divergence(self, other: Distribution, name: str = "kl_divergence") -> Any:
        """``KL[self || other]`` (see :func:`kl_divergence`)."""
        with self._scope(name):
            return kl_divergence(self, other)

    def __repr__(self) -> str:
        return (f"<tf.distributions.{type(self).__name__} '{self.name}' batch_shape={self.batch_shape} "
                f"event_shape={self.event_shape} dtype={_dtypes.as_dtype(self.dtype).name}>")


_KL: dict[tuple[type, type], Callable[..., Any]] = {}


class RegisterKL:
    """Decorator registering ``fn(a, b, name=None)`` as ``KL(dist_a || dist_b)``, as
    ``tf.distributions.RegisterKL``.

    Raises:
      ValueError: a function for the pair is already registered.
    """

    def __init__(self, dist_cls_a: type, dist_cls_b: type) -> None:
        self._key = (dist_cls_a, dist_cls_b)

    def __call__(self, kl_fn: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(kl_fn):
            raise TypeError(f"kl_fn must be callable, received: {kl_fn}")
        if self._key in _KL:
            raise ValueError(f"KL({self._key[0].__name__} || {self._key[1].__name__}) has already been registered "
                             f"to: {_KL[self._key]}")
        _KL[self._key] = kl_fn
        return kl_fn


def kl_divergence(distribution_a: Distribution, distribution_b: Distribution, allow_nan_stats: bool = True,
                  name: str | None = None) -> Any:
    """``KL[a || b]`` through the function registered for the closest pair of classes (by MRO), as
    ``tf.distributions.kl_divergence``; shape: the broadcast batch shape.

    Raises:
      NotImplementedError: no function registered for the pair.
    """
    for ca in type(distribution_a).__mro__:
        for cb in type(distribution_b).__mro__:
            fn = _KL.get((ca, cb))
            if fn is not None:
                with name_scope(name or "KullbackLeibler"):
                    return fn(distribution_a, distribution_b, name=None)
    raise NotImplementedError(f"No KL(distribution_a || distribution_b) registered for distribution_a type "
                              f"{type(distribution_a).__name__} and distribution_b type {type(distribution_b).__name__}")
