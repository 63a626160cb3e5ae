"""``tf.compat.v1.random`` names: ``normal``, ``uniform``, ``truncated_normal``, ``shuffle``, seeds."""

from jaxsess.ops import random_ops as _r

normal = _r.random_normal
uniform = _r.random_uniform
truncated_normal = _r.truncated_normal
shuffle = _r.random_shuffle
categorical = _r.categorical
multinomial = _r.multinomial
set_random_seed = _r.set_random_seed
set_seed = _r.set_random_seed
get_seed = _r.get_seed
gamma = _r.random_gamma
poisson = _r.random_poisson

__all__ = [
    "normal", "uniform", "truncated_normal", "shuffle", "categorical", "multinomial",
    "set_random_seed", "set_seed", "get_seed", "gamma", "poisson",
]
