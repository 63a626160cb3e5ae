"""Several processes: JAX's multi-controller runtime (``jax.distributed``).

Re-exports :mod:`jaxsess._core.distributed`.
"""

from jaxsess._core.distributed import *  # noqa: F403
