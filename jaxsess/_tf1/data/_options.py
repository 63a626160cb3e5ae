"""``tf.data.Options``: a pipeline's tuning options, as ``tf.compat.v1.data.Options``.

jaxsess's host pipelines run in order on the calling thread, so every option
is accepted, kept and read back, and changes nothing (``experimental_deterministic=False``
still gives the deterministic order, one of those TF allows)."""

from __future__ import annotations

import enum
from typing import Any

__all__ = ["Options", "OptimizationOptions", "ThreadingOptions", "DistributeOptions", "AutoShardPolicy"]


class AutoShardPolicy(enum.IntEnum):
    """As ``tf.data.experimental.AutoShardPolicy``."""

    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class _OptionsBase:
    """Options with a fixed set of names (their defaults); setting another name
    raises ``AttributeError``, as TF's options classes."""

    _defaults: dict[str, Any] = {}

    def __init__(self) -> None:
        for k, v in self._defaults.items():
            object.__setattr__(self, k, v() if isinstance(v, type) else v)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._defaults:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and vars(self) == vars(other)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"

    __hash__ = None  # type: ignore[assignment]


class OptimizationOptions(_OptionsBase):
    """As ``tf.data.experimental.OptimizationOptions`` (graph rewrites: accepted)."""

    _defaults = dict.fromkeys(
        ("apply_default_optimizations", "filter_fusion", "filter_parallelization", "inject_prefetch",
         "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion", "map_parallelization", "noop_elimination",
         "parallel_batch", "shuffle_and_repeat_fusion", "seq_interleave_prefetch", "warm_start",
         "autotune", "autotune_buffers", "autotune_cpu_budget", "autotune_ram_budget", "hoist_random_uniform",
         "map_vectorization"))


class ThreadingOptions(_OptionsBase):
    """As ``tf.data.ThreadingOptions``."""

    _defaults = dict.fromkeys(("max_intra_op_parallelism", "private_threadpool_size"))


class DistributeOptions(_OptionsBase):
    """As ``tf.data.experimental.DistributeOptions``."""

    _defaults = {"auto_shard_policy": AutoShardPolicy.AUTO, "num_devices": None}


class Options(_OptionsBase):
    """A dataset's options, for ``Dataset.with_options``, as ``tf.data.Options``."""

    _defaults = {
        "deterministic": None, "experimental_deterministic": None, "experimental_distribute": DistributeOptions,
        "experimental_external_state_policy": None, "experimental_optimization": OptimizationOptions,
        "experimental_slack": False, "experimental_symbolic_checkpoint": None, "experimental_warm_start": False,
        "threading": ThreadingOptions, "experimental_threading": ThreadingOptions, "autotune": None,
        "framework_type": None,
    }

    def merge(self, options: Options) -> Options:
        """These options with those ``options`` sets (not ``None``), as ``Options.merge``."""
        out = Options()
        for src in (self, options):
            for k, v in vars(src).items():
                if v is not None:
                    object.__setattr__(out, k, v)
        return out
