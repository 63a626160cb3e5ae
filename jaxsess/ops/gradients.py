"""Symbolic gradients, as ``tf.compat.v1.gradients``, through ``jax.vjp``.

Re-exports :mod:`jaxsess._tf1.ops.gradients`.
"""

from jaxsess._tf1.ops.gradients import *  # noqa: F403
