"""``jaxsess._tf1.keras.initializers``: initializers by name, as ``tf.keras.initializers``
(Keras 2 defaults: ``RandomNormal``/``RandomUniform``/``TruncatedNormal`` have
scale 0.05). The math is :mod:`jaxsess._tf1.ops.init_ops`'."""

from __future__ import annotations

from typing import Any

from jaxsess._tf1.ops import init_ops as _init
from jaxsess._tf1.ops.init_ops import (
    Constant as Constant,
    GlorotNormal as GlorotNormal,
    GlorotUniform as GlorotUniform,
    Identity as Identity,
    Initializer as Initializer,
    Ones as Ones,
    Orthogonal as Orthogonal,
    VarianceScaling as VarianceScaling,
    Zeros as Zeros,
)

__all__ = ["get", "Initializer", "Zeros", "Ones", "Constant", "RandomNormal", "RandomUniform", "TruncatedNormal",
           "VarianceScaling", "GlorotUniform", "GlorotNormal", "HeNormal", "HeUniform", "LecunNormal",
           "LecunUniform", "Orthogonal", "Identity", "identity", "normal", "uniform", "random_normal",
           "random_uniform", "truncated_normal", "zeros", "ones", "constant", "glorot_uniform", "glorot_normal",
           "he_normal", "he_uniform", "lecun_normal", "lecun_uniform", "orthogonal"]


class RandomNormal(_init.RandomNormal):
    """``N(mean, stddev)``, default stddev 0.05 (Keras)."""

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None, dtype: Any = "float32") -> None:
        super().__init__(mean, stddev, seed, dtype)


class RandomUniform(_init.RandomUniform):
    """``U(minval, maxval)``, default ``[-0.05, 0.05)`` (Keras)."""

    def __init__(self, minval: float = -0.05, maxval: float = 0.05, seed: int | None = None,
                 dtype: Any = "float32") -> None:
        super().__init__(minval, maxval, seed, dtype)


class TruncatedNormal(_init.TruncatedNormal):
    """``N(mean, stddev)`` cut at two stddevs, default stddev 0.05 (Keras)."""

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None, dtype: Any = "float32") -> None:
        super().__init__(mean, stddev, seed, dtype)


def HeNormal(seed: int | None = None) -> VarianceScaling:  # noqa: N802 - Keras' class name
    return _init.he_normal(seed)


def HeUniform(seed: int | None = None) -> VarianceScaling:  # noqa: N802
    return _init.he_uniform(seed)


def LecunNormal(seed: int | None = None) -> VarianceScaling:  # noqa: N802
    return _init.lecun_normal(seed)


def LecunUniform(seed: int | None = None) -> VarianceScaling:  # noqa: N802
    return _init.lecun_uniform(seed)


zeros = Zeros
ones = Ones
constant = Constant
glorot_uniform = GlorotUniform
glorot_normal = GlorotNormal
he_normal = HeNormal
he_uniform = HeUniform
lecun_normal = LecunNormal
lecun_uniform = LecunUniform
orthogonal = Orthogonal
identity = Identity
normal = random_normal = RandomNormal
uniform = random_uniform = RandomUniform
truncated_normal = TruncatedNormal

_BY_NAME: dict[str, Any] = {
    "zeros": Zeros, "ones": Ones, "constant": Constant, "uniform": RandomUniform, "random_uniform": RandomUniform,
    "normal": RandomNormal, "random_normal": RandomNormal, "truncated_normal": TruncatedNormal,
    "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal, "he_normal": HeNormal,
    "he_uniform": HeUniform, "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform,
    "orthogonal": Orthogonal, "variance_scaling": VarianceScaling, "identity": Identity,
}


def get(identifier: Any) -> Any:
    """An initializer from a name (``'he_normal'``), a class, an instance or a callable; ``None`` stays None.

    Raises:
      ValueError: an unknown name.
    """
    if identifier is None:
        return None
    if isinstance(identifier, str):
        key = identifier if identifier in _BY_NAME else identifier.lower()
        if key not in _BY_NAME:
            raise ValueError(f"Unknown initializer: {identifier}. Known: {sorted(_BY_NAME)}.")
        return _BY_NAME[key]()
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier!r}")
