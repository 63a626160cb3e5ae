"""``tf.compat.v1.train.SyncReplicasOptimizer`` for one process.

TF1 aggregates the gradients of ``replicas_to_aggregate`` workers in
``ConditionalAccumulator`` s and lets workers step through a token queue that
a chief queue runner refills after each update, applied in that thread. In
one process with ``replicas_to_aggregate=1`` and one replica that protocol is
the wrapped optimizer's update, so here ``apply_gradients`` applies it
synchronously inside the train op (TF applies it in the chief queue runner's
thread, slightly later). The protocol's public pieces exist so that
distributed scripts run: ``local_step`` (set to the global step before the
update, the token TF hands out), ``chief_init_op``, ``local_step_init_op``,
``ready_for_local_init_op``, ``get_chief_queue_runner()`` (starts no thread),
``get_init_tokens_op()`` and ``make_session_run_hook(is_chief)``.
"""

from __future__ import annotations

from typing import Any

from jaxsess._core.graph._builder import group, no_op
from jaxsess._core.graph._graph import GraphKeys, get_default_graph
from jaxsess._tf1 import logging as tf_logging
from jaxsess._tf1.ops import state_ops as state_ops
from jaxsess._tf1.ops.variable_checks import report_uninitialized_variables
from jaxsess._tf1.train._hooks import SessionRunHook

__all__ = ["SyncReplicasOptimizer"]


class _ChiefQueueRunner:
    """What ``get_chief_queue_runner()`` returns: the update needs no thread here."""

    name = "sync_token_q"

    def create_threads(self, sess: Any, coord: Any = None, daemon: bool = False, start: bool = False) -> list[Any]:
        return []


class SyncReplicasOptimizer:
    """Synchronous replicated training with one replica, as
    ``tf.compat.v1.train.SyncReplicasOptimizer`` (see the module docstring).

    Args:
      opt: the optimizer that applies the aggregated gradients.
      replicas_to_aggregate: gradients per update; only 1 is supported.
      total_num_replicas: default ``replicas_to_aggregate``; only 1 is supported.
      variable_averages, variables_to_average: an ``ExponentialMovingAverage``
        applied after each update, and its variables.

    Raises:
      NotImplementedError: more than one replica or gradient per update.
    """

    def __init__(self, opt: Any, replicas_to_aggregate: int, total_num_replicas: int | None = None,
                 variable_averages: Any = None, variables_to_average: Any = None, use_locking: bool = False,
                 name: str = "sync_replicas") -> None:
        if total_num_replicas is None:
            total_num_replicas = replicas_to_aggregate
        if replicas_to_aggregate != 1 or total_num_replicas != 1:
            raise NotImplementedError(
                f"SyncReplicasOptimizer: replicas_to_aggregate={replicas_to_aggregate}, total_num_replicas="
                f"{total_num_replicas}; jaxsess runs one replica per process (use 1 and 1).")
        tf_logging.info("SyncReplicasV2: replicas_to_aggregate=%s; total_num_replicas=%s",
                        replicas_to_aggregate, total_num_replicas)
        self._opt = opt
        self._name = name
        self._replicas_to_aggregate = replicas_to_aggregate
        self._total_num_replicas = total_num_replicas
        self._variable_averages = variable_averages
        self._variables_to_average = variables_to_average
        self._gradients_applied = False
        self._global_step: Any = None
        self._local_step: Any = None
        self.local_step_init_op: Any = None
        self.chief_init_op: Any = None
        self.ready_for_local_init_op: Any = None

    def get_name(self) -> str:
        return self._name

    def compute_gradients(self, *args: Any, **kwargs: Any) -> Any:
        """The wrapped optimizer's ``compute_gradients``."""
        return self._opt.compute_gradients(*args, **kwargs)

    def minimize(self, loss: Any, global_step: Any = None, var_list: Any = None, name: str | None = None,
                 **kwargs: Any) -> Any:
        """``compute_gradients`` then :meth:`apply_gradients`."""
        grads_and_vars = self.compute_gradients(loss, var_list=var_list, **kwargs)
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: str | None = None) -> Any:
        """Applies the gradients with the wrapped optimizer and returns the
        train op: a tensor assigning ``local_step`` the global step's value at
        the start of the run, after the update.

        Raises:
          ValueError: no gradients, or no ``global_step``.
        """
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
        self._global_step = global_step
        graph = get_default_graph()
        local_anchor = no_op()
        with graph.colocate_with(local_anchor):  # on this worker, as TF1
            self._local_step = state_ops.Variable(0, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
                                                  dtype=global_step.dtype.base_dtype, name="sync_rep_local_step")
        self.local_step_init_op = state_ops.assign(self._local_step, global_step)
        self.ready_for_local_init_op = report_uninitialized_variables(state_ops.global_variables())
        with graph.device(global_step.device or None):
            token = global_step.value()  # the global step at the start of the run
            update_op = self._opt.apply_gradients(grads_and_vars, global_step)
            if self._variable_averages is not None:
                with graph.control_dependencies([update_op]):
                    update_op = self._variable_averages.apply(self._variables_to_average)
            with graph.control_dependencies([update_op]):
                train_op = state_ops.assign(self._local_step, token)
        self.chief_init_op = group(self.local_step_init_op)
        self._gradients_applied = True
        return train_op

    def get_chief_queue_runner(self) -> Any:
        """A queue runner that starts no thread (the update is in the train op).

        Raises:
          ValueError: before :meth:`apply_gradients`.
        """
        if not self._gradients_applied:
            raise ValueError("Should be called after apply_gradients().")
        return _ChiefQueueRunner()

    def get_init_tokens_op(self, num_tokens: int = -1) -> Any:
        """An op to run once on the chief (a no-op here: no token queue).

        Raises:
          ValueError: before :meth:`apply_gradients`, or too few tokens.
        """
        if not self._gradients_applied:
            raise ValueError("get_init_tokens_op() should be called after apply_gradients().")
        needed = self._replicas_to_aggregate - self._total_num_replicas
        if num_tokens != -1 and num_tokens < needed:
            raise ValueError(f"Too few tokens to finish the first step: {num_tokens} (given) vs {needed} (needed)")
        return no_op(name="no_init_tokens")

    def get_slot(self, *args: Any, **kwargs: Any) -> Any:
        return self._opt.get_slot(*args, **kwargs)

    def variables(self) -> Any:
        return self._opt.variables()

    def get_slot_names(self, *args: Any, **kwargs: Any) -> Any:
        return self._opt.get_slot_names(*args, **kwargs)

    def make_session_run_hook(self, is_chief: bool, num_tokens: int = -1) -> SessionRunHook:
        """The hook that initializes ``local_step`` (and, on the chief, the tokens) after session creation."""
        return _SyncReplicasOptimizerHook(self, is_chief, num_tokens)


class _SyncReplicasOptimizerHook(SessionRunHook):
    def __init__(self, sync_optimizer: SyncReplicasOptimizer, is_chief: bool, num_tokens: int) -> None:
        self._sync_optimizer = sync_optimizer
        self._is_chief = is_chief
        self._num_tokens = num_tokens
        self._local_init_op: Any = None
        self._init_tokens_op: Any = None

    def begin(self) -> None:
        opt = self._sync_optimizer
        if not opt._gradients_applied:
            raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before using the hook.")
        if self._is_chief:
            self._local_init_op = opt.chief_init_op
            self._init_tokens_op = opt.get_init_tokens_op(self._num_tokens)
        else:
            self._local_init_op = opt.local_step_init_op
            self._init_tokens_op = None

    def after_create_session(self, session: Any, coord: Any) -> None:
        session.run(self._local_init_op)
        if self._init_tokens_op is not None:
            session.run(self._init_tokens_op)
