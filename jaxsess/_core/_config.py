"""``ConfigProto`` and ``GPUOptions``, as ``tf.compat.v1.ConfigProto``.

Only the fields that mean something on JAX act; the others are accepted (so
TF1 programs run) and ignored, which :meth:`ConfigProto.ignored_fields` lists.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from typing import Any

from jaxsess._core import _tfproto as _tfproto

__all__ = ["ConfigProto", "GPUOptions", "apply_gpu_options", "enable_compilation_cache", "compilation_cache_dir"]


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
    session warns (``RuntimeWarning``) instead, unless JAX runs on CPU only
    (then they are moot, and ignored silently as TF does).
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
      log_compilations: log every compilation of a plan (its fetches, feeds
        and their shapes and dtypes) to logger ``jaxsess`` at INFO and to
        stderr, as ``log_device_placement`` does (also on with the
        environment variable ``JAXSESS_LOG_COMPILES=1``).
      compile_notice_after_s: a plan compile still running after this many
        seconds says so on stderr (``jaxsess: compiling the plan of [...]``), then
        how long it took; ``None`` (or ``JAXSESS_COMPILE_NOTICE=0``) turns it off.
        Default 5.0.
      plan_cache_size: the most compiled plans a session keeps (least
        recently used evicted first, their executables freed); also the most
        feed-shape variants one plan keeps compiled before its executables
        are dropped. Default 256.
      compilation_cache: ``False`` turns JAX's persistent compilation cache
        off for sessions (also ``JAXSESS_COMPILATION_CACHE=0``); ``None``
        (default) or ``True`` turns it on, see
        :func:`enable_compilation_cache`.
      compilation_cache_dir: where it lives (default
        ``$JAXSESS_COMPILATION_CACHE_DIR``, else
        ``$XDG_CACHE_HOME/jaxsess/xla`` or ``~/.cache/jaxsess/xla``).
      device_filters: accepted, as TF's (``['/job:ps', '/job:worker/task:0']``);
        no effect, since every job of an in-process cluster is this process.
      inter_op_parallelism_threads, intra_op_parallelism_threads,
      operation_timeout_in_ms, graph_options, isolate_session_state: accepted
        and ignored (XLA schedules its own threads; every plan is XLA-compiled,
        so ``graph_options.optimizer_options.global_jit_level`` is moot).
        ``graph_options`` is TF's ``GraphOptions`` message, so
        ``config.graph_options.optimizer_options.global_jit_level = ON_1`` works.
    """

    allow_soft_placement: bool = False
    log_device_placement: bool = False
    device_count: dict[str, int] | None = None
    gpu_options: GPUOptions = field(default_factory=GPUOptions)
    inter_op_parallelism_threads: int = 0
    intra_op_parallelism_threads: int = 0
    operation_timeout_in_ms: int = 0
    graph_options: Any = field(default_factory=_tfproto.GraphOptions)
    isolate_session_state: bool = False
    log_compilations: bool = False
    compile_notice_after_s: float | None = 5.0
    plan_cache_size: int = 256
    compilation_cache: bool | None = None
    compilation_cache_dir: str = ""
    device_filters: list[str] = field(default_factory=list)

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
            if getattr(self, name) != (_tfproto.GraphOptions() if name == "graph_options" else defaults[name].default)
        ]


def _backend_started() -> bool:
    """Whether JAX's backend has started (device options can no longer take effect).

    JAX has no public API for it: ``jax._src.xla_bridge.backends_are_initialized``
    is probed, and where a jax lacks it the answer is ``True`` (the options are then
    only checked against the devices, never applied late), with a warning naming
    what is missing.
    """
    try:
        from jax._src import xla_bridge

        probe = xla_bridge.backends_are_initialized
    except (ImportError, AttributeError):
        import jax

        warnings.warn(
            f"jax {jax.__version__} has no jax._src.xla_bridge.backends_are_initialized: ConfigProto's "
            "device_count and gpu_options are checked against the started backend, not applied. Set "
            "them with environment variables before starting Python.",
            RuntimeWarning,
            stacklevel=3,
        )
        return True
    return bool(probe())


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
        import jax

        if changed and jax.default_backend() != "cpu":  # no GPU: the options are moot, as TF ignores them
            warnings.warn(
                "GPUOptions cannot take effect: JAX's backend is already initialised "
                f"(would set {changed}). Create the session before any JAX computation, "
                "or set these environment variables before starting Python.",
                RuntimeWarning,
                stacklevel=3,
            )
        if cpu_count:
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


def compilation_cache_dir(config: ConfigProto | None = None) -> str | None:
    """The persistent compilation cache directory sessions use, or ``None`` when off.

    Off when ``config.compilation_cache`` is ``False`` or the environment
    variable ``JAXSESS_COMPILATION_CACHE`` is ``0``/``false``/``off``. Else
    ``config.compilation_cache_dir``, ``$JAXSESS_COMPILATION_CACHE_DIR``,
    ``$XDG_CACHE_HOME/jaxsess/xla``, or ``~/.cache/jaxsess/xla``, in that order.
    """
    if config is not None and config.compilation_cache is False:
        return None
    if os.environ.get("JAXSESS_COMPILATION_CACHE", "1").strip().lower() in ("0", "false", "off", "no"):
        return None
    if config is not None and config.compilation_cache_dir:
        return config.compilation_cache_dir
    env = os.environ.get("JAXSESS_COMPILATION_CACHE_DIR")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "jaxsess", "xla")


def enable_compilation_cache(config: ConfigProto | None = None) -> str | None:
    """Turns on JAX's persistent compilation cache for this process, unless
    it is off (see :func:`compilation_cache_dir`) or already configured.

    A second start of the same program then loads its compiled plans from
    disk instead of compiling them. This changes process-wide JAX settings,
    once, and only if the user has not set ``jax_compilation_cache_dir``
    (or ``JAX_COMPILATION_CACHE_DIR``) themselves: ``jax_compilation_cache_dir``
    becomes the directory and ``jax_persistent_cache_min_compile_time_secs``
    becomes 0 (JAX's default, 1 s, would skip the small programs a session
    compiles), so plain ``jax.jit`` functions of the process are cached there
    too. A directory set by the user is used as it is.

    Returns:
      The directory in use, or ``None`` when the cache is off for sessions.
    """
    import jax

    path = compilation_cache_dir(config)
    if path is None:
        return None
    current = getattr(jax.config, "jax_compilation_cache_dir", None)
    if current:
        return str(current)
    from jax.experimental.compilation_cache import compilation_cache as cc

    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    cc.set_cache_dir(path)
    cc.reset_cache()  # JAX decides once whether to use the cache; decide again now
    return path
