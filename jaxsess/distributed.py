"""Several processes: JAX's multi-controller runtime (``jax.distributed``).

Re-exports :mod:`jaxsess._core.distributed`.
"""

from jaxsess._core.distributed import *  # noqa: F403
from jaxsess._core.distributed import (  # public names outside its __all__
    barrier as barrier,
    host_value as host_value,
    local_to_global as local_to_global,
)
