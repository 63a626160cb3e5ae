"""``ConfigProto`` and ``GPUOptions``, as ``tf.compat.v1.ConfigProto``.

Only the fields that mean something on JAX act; the others are accepted (so
TF1 programs run) and ignored, which :meth:`ConfigProto.ignored_fields` lists.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ConfigProto", "GPUOptions", "apply_gpu_options"]


@dataclass
class GPUOptions:
    """GPU allocator options, as ``tf.compat.v1.GPUOptions``.

    Mapped onto JAX's allocator environment variables, which JAX reads when
    its backend starts:

    * ``per_process_gpu_memory_fraction`` (float in (0, 1]) →
      ``XLA_PYTHON_CLIENT_MEM_FRACTION``;
    * ``allow_growth=True`` → ``XLA_PYTHON_CLIENT_PREALLOCATE=false``;
    * ``visible_device_list`` (e.g. ``"0,1"``) → ``CUDA_VISIBLE_DEVICES``.

    If JAX's backend is already initialised they cannot take effect, and the
    session warns (``RuntimeWarning``) instead.
    """

    per_process_gpu_memory_fraction: float = 0.0
    allow_growth: bool = False
    visible_device_list: str = ""

    def env(self) -> dict[str, str]:
        """The environment variables these options translate to."""
        out: dict[str, str] = {}
        if self.per_process_gpu_memory_fraction:
            frac = float(self.per_process_gpu_memory_fraction)
            if not 0.0 < frac <= 1.0:
                raise ValueError(
                    f"GPUOptions.per_process_gpu_memory_fraction must be in (0, 1], got {frac}."
                )
            out["XLA_PYTHON_CLIENT_MEM_FRACTION"] = repr(frac)
        if self.allow_growth:
            out["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
        if self.visible_device_list:
            out["CUDA_VISIBLE_DEVICES"] = str(self.visible_device_list)
        return out


@dataclass
class ConfigProto:
    """Session configuration, as ``tf.compat.v1.ConfigProto``.

    Args:
      allow_soft_placement: when an op's ``device`` names a device that does
        not exist, place it on the default device instead of raising
        ``InvalidArgumentError``.
      log_device_placement: log ``name: (Type): /device:CPU:0`` for every op
        of a plan once, when the plan is built (logger ``jaxsess``, level
        INFO, and printed to stderr).
      device_count: e.g. ``{"CPU": 8}``. Before JAX's backend starts, a CPU
        count sets ``jax_num_cpu_devices``; otherwise it is only checked.
      gpu_options: a :class:`GPUOptions`.
      inter_op_parallelism_threads, intra_op_parallelism_threads,
      operation_timeout_in_ms, graph_options, isolate_session_state: accepted
        and ignored (XLA schedules its own threads).
    """

    allow_soft_placement: bool = False
    log_device_placement: bool = False
    device_count: dict[str, int] | None = None
    gpu_options: GPUOptions = field(default_factory=GPUOptions)
    inter_op_parallelism_threads: int = 0
    intra_op_parallelism_threads: int = 0
    operation_timeout_in_ms: int = 0
    graph_options: Any = None
    isolate_session_state: bool = False

    _IGNORED = (
        "inter_op_parallelism_threads",
        "intra_op_parallelism_threads",
        "operation_timeout_in_ms",
        "graph_options",
        "isolate_session_state",
    )

    def ignored_fields(self) -> list[str]:
        """Names of the fields set to non-default values that have no effect."""
        defaults = ConfigProto.__dataclass_fields__
        return [
            name
            for name in self._IGNORED
            if getattr(self, name) != defaults[name].default
        ]


def _backend_started() -> bool:
    from jax._src import xla_bridge

    return bool(xla_bridge.backends_are_initialized())


def apply_gpu_options(config: ConfigProto | None) -> None:
    """Applies ``config.gpu_options`` and ``device_count`` to JAX if it has not started.

    Warns with ``RuntimeWarning`` when an option can no longer take effect.
    """
    if config is None:
        return
    env = config.gpu_options.env() if config.gpu_options is not None else {}
    cpu_count = (config.device_count or {}).get("CPU")
    if not env and not cpu_count:
        return
    if _backend_started():
        changed = {k: v for k, v in env.items() if os.environ.get(k) != v}
        if changed:
            warnings.warn(
                "GPUOptions cannot take effect: JAX's backend is already initialised "
                f"(would set {changed}). Create the session before any JAX computation, "
                "or set these environment variables before starting Python.",
                RuntimeWarning,
                stacklevel=3,
            )
        if cpu_count:
            import jax

            have = len(jax.devices("cpu"))
            if have != int(cpu_count):
                warnings.warn(
                    f"ConfigProto(device_count={{'CPU': {cpu_count}}}) cannot take effect: JAX's backend "
                    f"already started with {have} CPU device(s). Create the session before any JAX "
                    "computation, or set jax.config.update('jax_num_cpu_devices', n) at startup.",
                    RuntimeWarning,
                    stacklevel=3,
                )
        return
    os.environ.update(env)
    if cpu_count:
        import jax

        jax.config.update("jax_num_cpu_devices", int(cpu_count))
