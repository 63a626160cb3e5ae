"""Several processes: JAX's multi-controller runtime (``jax.distributed``).

One process per host (or per accelerator), all running the same program:
``initialize()`` connects them, then a ``Session(mesh=...)`` whose mesh spans
every process's devices runs each plan as one SPMD program over all of them
(see :class:`jaxsess.Session`). ``python -m jaxsess launch --processes N
script.py`` starts N such processes on this machine for development.

:func:`initialize` forwards to ``jax.distributed.initialize``, which detects
SLURM, Open MPI and Kubernetes-style clusters by itself. Inside the local
launcher it takes the coordinator, the process count and id, and the short
failure timeouts from the environment variables below, so a script calls
``initialize()`` with no arguments wherever it runs.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, cast

import jax
import numpy as np
from jax.experimental import multihost_utils

from jaxsess._core.types import ArrayLike, HostArray

__all__ = [
    "initialize",
    "shutdown",
    "is_initialized",
    "process_index",
    "process_count",
    "ENV_COORDINATOR_ADDRESS",
    "ENV_NUM_PROCESSES",
    "ENV_PROCESS_ID",
    "ENV_HEARTBEAT_TIMEOUT",
]

# Set by ``python -m jaxsess launch`` for each process it starts.
ENV_COORDINATOR_ADDRESS = "JAXSESS_COORDINATOR_ADDRESS"
ENV_NUM_PROCESSES = "JAXSESS_NUM_PROCESSES"
ENV_PROCESS_ID = "JAXSESS_PROCESS_ID"
ENV_HEARTBEAT_TIMEOUT = "JAXSESS_HEARTBEAT_TIMEOUT_SECONDS"

_initialized = False


def _env_int(name: str) -> int | None:
    v = os.environ.get(name)
    if v is None or v == "":
        return None
    try:
        return int(v)
    except ValueError:
        raise ValueError(f"Environment variable {name} must be an integer; got {v!r}.") from None


def initialize(
    coordinator_address: str | None = None,
    num_processes: int | None = None,
    process_id: int | None = None,
    local_device_ids: int | Sequence[int] | None = None,
    *,
    cluster_detection_method: str | None = None,
    initialization_timeout: int = 300,
    heartbeat_timeout_seconds: int | None = None,
    shutdown_timeout_seconds: int | None = None,
) -> None:
    """Connects this process to the others, as ``jax.distributed.initialize``.

    Call it once per process, before anything touches a JAX backend. Every
    argument left ``None`` comes from the ``JAXSESS_*`` environment variables
    the local launcher sets, else from JAX's cluster detection (SLURM, Open
    MPI, Kubernetes...).

    Args:
      coordinator_address: ``'host:port'`` of process 0's coordination service.
      num_processes: the number of processes.
      process_id: this process's index in ``[0, num_processes)``.
      local_device_ids: the local devices this process uses (default all).
      cluster_detection_method: as ``jax.distributed.initialize``.
      initialization_timeout: seconds to wait for every process to connect.
      heartbeat_timeout_seconds: seconds after which a silent peer counts as
        dead and every other process is terminated with an error naming the
        coordination service (JAX's default 100; the launcher uses 10).
      shutdown_timeout_seconds: seconds :func:`shutdown` waits for the others
        (default: JAX's, or the heartbeat timeout under the launcher).

    Raises:
      RuntimeError: already initialised, or the processes could not connect
        within ``initialization_timeout`` (JAX's error).
      ValueError: a ``JAXSESS_*`` environment variable is not an integer.
    """
    global _initialized
    if coordinator_address is None:
        coordinator_address = os.environ.get(ENV_COORDINATOR_ADDRESS) or None
    if num_processes is None:
        num_processes = _env_int(ENV_NUM_PROCESSES)
    if process_id is None:
        process_id = _env_int(ENV_PROCESS_ID)
    if heartbeat_timeout_seconds is None:
        heartbeat_timeout_seconds = _env_int(ENV_HEARTBEAT_TIMEOUT)
    kwargs: dict[str, Any] = {"initialization_timeout": initialization_timeout}
    if heartbeat_timeout_seconds is not None:
        kwargs["heartbeat_timeout_seconds"] = heartbeat_timeout_seconds
        if shutdown_timeout_seconds is None:
            shutdown_timeout_seconds = max(heartbeat_timeout_seconds, 5)
    if shutdown_timeout_seconds is not None:
        kwargs["shutdown_timeout_seconds"] = shutdown_timeout_seconds
    if cluster_detection_method is not None:
        kwargs["cluster_detection_method"] = cluster_detection_method
    jax.distributed.initialize(
        coordinator_address, num_processes, process_id, local_device_ids, **kwargs
    )
    _initialized = True


def is_initialized() -> bool:
    """Whether :func:`initialize` connected this process (and :func:`shutdown` has not run)."""
    return _initialized


def shutdown() -> None:
    """Disconnects from the others, as ``jax.distributed.shutdown`` (waits for
    them at a barrier, bounded by ``shutdown_timeout_seconds``). A no-op when
    not initialised."""
    global _initialized
    jax.distributed.shutdown()
    _initialized = False


def process_index() -> int:
    """This process's index, as ``jax.process_index()`` (0 in a single process)."""
    return int(jax.process_index())


def process_count() -> int:
    """The number of processes, as ``jax.process_count()`` (1 in a single process)."""
    return int(jax.process_count())


# -- host values of global arrays (used by sessions and the saver) -----------------------------


def host_value(value: ArrayLike, *, local: bool = False) -> HostArray:
    """The host NumPy value of ``value``.

    A ``jax.Array`` sharded over several processes' devices is gathered:
    every process gets the global value (``local=False``; a collective, so
    every process must call it in the same order, as SPMD programs do) or
    just the part its own devices hold (``local=True``, the inverse of
    ``jax.make_array_from_process_local_data``). Any other value is returned
    as ``np.asarray`` gives it.
    """
    if not isinstance(value, jax.Array) or value.is_fully_addressable or value.is_fully_replicated:
        return value if isinstance(value, np.ndarray) else np.asarray(value)  # no collective needed
    if local:
        sharding = value.sharding
        spec = getattr(sharding, "spec", None)
        mesh = getattr(sharding, "mesh", None)
        if mesh is None or spec is None:
            raise ValueError(f"Cannot take the process-local part of an array with sharding {sharding}.")
        return np.asarray(multihost_utils.global_array_to_host_local_array(value, mesh, spec))
    return np.asarray(multihost_utils.process_allgather(value, tiled=True))


def local_to_global(value: ArrayLike, sharding: jax.sharding.Sharding) -> jax.Array:
    """A global ``jax.Array`` laid out as ``sharding`` from this process's part
    of it, as ``jax.make_array_from_process_local_data``: the sharded
    dimensions of ``value`` are this process's rows, the others whole.
    A global ``jax.Array`` (on several processes' devices, e.g. a
    ``device_fetches`` result) is already whole: it only moves to ``sharding``."""
    if isinstance(value, jax.Array) and not value.is_fully_addressable:
        return value if value.sharding == sharding else cast(jax.Array, jax.device_put(value, sharding))
    return cast(jax.Array, jax.make_array_from_process_local_data(sharding, np.asarray(value)))


def barrier(name: str) -> None:
    """Waits until every process reaches the barrier ``name`` (no-op in one process)."""
    if jax.process_count() == 1:
        return
    multihost_utils.sync_global_devices(name)
