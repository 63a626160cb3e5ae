"""Stateless random ops, as ``tf.random.stateless_*`` (``tf.compat.v1.random``).

Re-exports :mod:`jaxsess._tf1.ops.stateless_random_ops`.
"""

from jaxsess._tf1.ops.stateless_random_ops import *  # noqa: F403
