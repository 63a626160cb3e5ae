"""``tf.estimator.RunConfig``: where and how often an ``Estimator`` saves, logs and
summarizes, as ``tensorflow_estimator/python/estimator/run_config.py`` (single
process: the chief worker, no distribution strategies, no ``TF_CONFIG``)."""

from __future__ import annotations

import copy
import os
from typing import Any

__all__ = ["RunConfig"]

_USE_DEFAULT = object()
_SAVE_CKPT_ERR = "`save_checkpoints_steps` and `save_checkpoints_secs` cannot be both set."
_REPLACEABLE = ("model_dir", "tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
                "save_checkpoints_secs", "session_config", "keep_checkpoint_max",
                "keep_checkpoint_every_n_hours", "log_step_count_steps", "train_distribute", "device_fn",
                "protocol", "eval_distribute", "experimental_distribute",
                "experimental_max_worker_delay_secs", "session_creation_timeout_secs",
                "checkpoint_save_graph_def")


class RunConfig:
    """The run configuration of an ``Estimator``, as ``tf.estimator.RunConfig``.

    Args:
      model_dir: the directory of checkpoints and event files (``str`` or
        ``os.PathLike``; non-empty).
      tf_random_seed: the graph-level seed set in every graph the estimator builds.
      save_summary_steps: write summaries every this many steps (0: never).
      save_checkpoints_steps / save_checkpoints_secs: save a checkpoint every this
        many steps / seconds; at most one may be set (default: every 600 seconds).
      session_config: a ``ConfigProto`` for the sessions.
      keep_checkpoint_max: how many recent checkpoints to keep (0 or ``None``: all).
      keep_checkpoint_every_n_hours: also keep one checkpoint per this many hours.
      log_step_count_steps: log the loss and ``global_step/sec`` every this many steps.

    The other arguments (distribution, device functions) are accepted and stored
    but unused. Properties give every value; ``is_chief`` is ``True``,
    ``task_type`` ``'worker'``, ``num_ps_replicas`` 0, ``num_worker_replicas`` 1.

    Raises:
      ValueError: both checkpoint intervals set, an empty ``model_dir``, a
        negative interval or count.
    """

    def __init__(self, model_dir: str | os.PathLike[str] | None = None, tf_random_seed: int | None = None,
                 save_summary_steps: int | None = 100, save_checkpoints_steps: Any = _USE_DEFAULT,
                 save_checkpoints_secs: Any = _USE_DEFAULT, session_config: Any = None,
                 keep_checkpoint_max: int | None = 5, keep_checkpoint_every_n_hours: float = 10000,
                 log_step_count_steps: int | None = 100, train_distribute: Any = None, device_fn: Any = None,
                 protocol: Any = None, eval_distribute: Any = None, experimental_distribute: Any = None,
                 experimental_max_worker_delay_secs: Any = None, session_creation_timeout_secs: int = 7200,
                 checkpoint_save_graph_def: bool = True) -> None:
        if save_checkpoints_steps is _USE_DEFAULT and save_checkpoints_secs is _USE_DEFAULT:
            save_checkpoints_steps, save_checkpoints_secs = None, 600
        elif save_checkpoints_secs is _USE_DEFAULT:
            save_checkpoints_secs = None
        elif save_checkpoints_steps is _USE_DEFAULT:
            save_checkpoints_steps = None
        elif save_checkpoints_steps is not None and save_checkpoints_secs is not None:
            raise ValueError(_SAVE_CKPT_ERR)
        if model_dir == "":
            raise ValueError("model_dir should be non-empty.")
        self._values: dict[str, Any] = {
            "model_dir": os.fspath(model_dir) if model_dir is not None else None,
            "tf_random_seed": tf_random_seed, "save_summary_steps": save_summary_steps,
            "save_checkpoints_steps": save_checkpoints_steps, "save_checkpoints_secs": save_checkpoints_secs,
            "session_config": session_config, "keep_checkpoint_max": keep_checkpoint_max,
            "keep_checkpoint_every_n_hours": keep_checkpoint_every_n_hours,
            "log_step_count_steps": log_step_count_steps, "train_distribute": train_distribute,
            "device_fn": device_fn, "protocol": protocol, "eval_distribute": eval_distribute,
            "experimental_distribute": experimental_distribute,
            "experimental_max_worker_delay_secs": experimental_max_worker_delay_secs,
            "session_creation_timeout_secs": session_creation_timeout_secs,
            "checkpoint_save_graph_def": checkpoint_save_graph_def,
        }
        self._validate()

    def _validate(self) -> None:
        v = self._values
        checks = [("save_summary_steps", lambda x: x >= 0, "save_summary_steps should be >= 0"),
                  ("save_checkpoints_steps", lambda x: x >= 0, "save_checkpoints_steps should be >= 0"),
                  ("save_checkpoints_secs", lambda x: x >= 0, "save_checkpoints_secs should be >= 0"),
                  ("keep_checkpoint_max", lambda x: x >= 0, "keep_checkpoint_max should be >= 0"),
                  ("keep_checkpoint_every_n_hours", lambda x: x > 0, "keep_checkpoint_every_n_hours should be > 0"),
                  ("log_step_count_steps", lambda x: x >= 0, "log_step_count_steps should be >= 0"),
                  ("tf_random_seed", lambda x: isinstance(x, int), "tf_random_seed must be integer.")]
        for key, ok, message in checks:
            if v[key] is not None and not ok(v[key]):
                raise ValueError(message)

    def replace(self, **kwargs: Any) -> RunConfig:
        """A copy with some properties replaced, as ``RunConfig.replace``.

        Raises:
          ValueError: an unknown property, or both checkpoint intervals set.
        """
        new = copy.copy(self)
        new._values = dict(self._values)
        for key, value in kwargs.items():
            if key not in _REPLACEABLE:
                raise ValueError(f"Replacing {key} is not supported. Allowed properties are {list(_REPLACEABLE)}.")
            new._values[key] = value
        steps, secs = new._values["save_checkpoints_steps"], new._values["save_checkpoints_secs"]
        if "save_checkpoints_steps" in kwargs and "save_checkpoints_secs" in kwargs:
            if steps is not None and secs is not None:
                raise ValueError(_SAVE_CKPT_ERR)
        elif "save_checkpoints_steps" in kwargs and steps is not None:
            new._values["save_checkpoints_secs"] = None
        elif "save_checkpoints_secs" in kwargs and secs is not None:
            new._values["save_checkpoints_steps"] = None
        new._validate()
        return new

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("_values")
        if values is not None and name in values:
            return values[name]
        raise AttributeError(f"'RunConfig' object has no attribute '{name}'")

    is_chief = True
    master = ""
    evaluation_master = ""
    task_type = "worker"
    task_id = 0
    num_ps_replicas = 0
    num_worker_replicas = 1
    global_id_in_cluster = 0
    cluster_spec = None
    service = None

    def __repr__(self) -> str:
        return f"RunConfig({', '.join(f'{k}={v!r}' for k, v in self._values.items())})"
