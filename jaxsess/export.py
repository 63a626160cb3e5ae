"""Export and embedding: a graph's lowering as a ``jax.export`` artifact or a
pure JAX function.

Re-exports :mod:`jaxsess._tf1.export`.
"""

from jaxsess._tf1.export import *  # noqa: F403
