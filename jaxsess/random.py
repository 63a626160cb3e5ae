"""``tf.compat.v1.random`` names: ``normal``, ``uniform``, ``truncated_normal``, ``shuffle``, seeds."""

from jaxsess.ops.random_ops import (
    get_seed as get_seed,
    multinomial as multinomial,
    truncated_normal as truncated_normal,
)
