"""``tf.compat.v1.random`` names: ``normal``, ``uniform``, ``truncated_normal``, ``shuffle``, seeds."""

from jaxsess._tf1.ops import random_ops as _r

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

from jaxsess._tf1.ops.candidate_samplers import all_candidate_sampler as all_candidate_sampler  # noqa: E402
from jaxsess._tf1.ops.sampled_losses import (  # noqa: E402
    fixed_unigram_candidate_sampler as fixed_unigram_candidate_sampler,
    log_uniform_candidate_sampler as log_uniform_candidate_sampler,
    uniform_candidate_sampler as uniform_candidate_sampler,
)
from jaxsess._tf1.ops.stateless_random_ops import (  # noqa: E402
    stateless_categorical as stateless_categorical,
    stateless_multinomial as stateless_multinomial,
    stateless_normal as stateless_normal,
    stateless_truncated_normal as stateless_truncated_normal,
    stateless_uniform as stateless_uniform,
)
