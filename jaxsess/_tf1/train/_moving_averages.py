"""Moving averages of variables, as ``tf.compat.v1.train.ExponentialMovingAverage``
and ``moving_averages.assign_moving_average`` (TF's ``moving_averages.py``).

``ema.apply(var_list)`` creates one non-trainable *average* variable per
variable (``<var>/ExponentialMovingAverage``, global, initialised to the
variable's initial value, so ``global_variables_initializer`` starts both
together; TF uses the variable's current value when it is already
initialised) or per tensor (zeros; with ``zero_debias`` also
``<avg>/biased`` and ``<avg>/local_step``), adds the variables to
``moving_average_variables``, and returns the op that updates every average:
``avg -= (1 - decay) * (avg - var)``, with ``decay = min(decay, (1 +
num_updates) / (10 + num_updates))`` when ``num_updates`` is given.
"""

from __future__ import annotations

from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor, executing_eagerly, group
from jaxsess._core.graph._graph import GraphKeys, Operation, add_to_collection, get_default_graph, name_scope
from jaxsess._tf1.ops import math_ops as math_ops
from jaxsess._tf1.ops.array_ops import zeros
from jaxsess._tf1.ops.init_ops import zeros_initializer
from jaxsess._tf1.ops.state_ops import (
    Variable,
    assign,
    assign_add,
    assign_sub,
    global_variables,
    moving_average_variables as _moving_average_variables,
    trainable_variables,
)
from jaxsess._tf1.ops.variable_scope import get_variable, get_variable_scope, variable_scope

__all__ = ["ExponentialMovingAverage", "assign_moving_average"]

_FLOATS = (_dtypes.bfloat16, _dtypes.float16, _dtypes.float32, _dtypes.float64)


def _zero_debias(unbiased: Variable, value: Any, decay: Any) -> Any:
    with variable_scope(unbiased.op.name):
        biased = get_variable("biased", shape=unbiased.shape, dtype=unbiased.dtype, initializer=zeros_initializer(),
                              trainable=False)
        local_step = get_variable("local_step", shape=[], dtype=unbiased.dtype, initializer=zeros_initializer(),
                                  trainable=False)
    update_biased = assign_sub(biased, (biased - value) * decay)
    update_step = assign_add(local_step, 1)
    bias_factor = 1 - math_ops.pow(1.0 - decay, update_step)
    return assign(unbiased, update_biased / bias_factor, name=get_default_graph().get_name_scope() + "/")


def assign_moving_average(variable: Variable, value: Any, decay: Any, zero_debias: bool = True,
                          name: str | None = None) -> Any:
    """``variable -= (1 - decay) * (variable - value)``, as
    ``tf.compat.v1.train.assign_moving_average`` (``moving_averages.assign_moving_average``).

    With ``zero_debias``, the average is kept in ``<variable>/biased`` and
    divided by ``1 - decay**t`` after ``t`` updates (``<variable>/local_step``).

    Returns:
      The updated value of ``variable``.
    """
    with name_scope(name, "AssignMovingAvg") as scope:
        decay_t = convert_to_tensor(1.0 - decay, name="decay")
        if decay_t.dtype != variable.dtype:
            decay_t = math_ops.cast(decay_t, variable.dtype)
        if zero_debias:
            return _zero_debias(variable, value, decay_t)
        return assign_sub(variable, (variable - value) * decay_t, name=scope)


class ExponentialMovingAverage:
    """Exponential moving averages of variables or tensors, as
    ``tf.compat.v1.train.ExponentialMovingAverage`` (see the module docstring).

    Args:
      decay: the decay (a float or ``float32`` scalar tensor), e.g. 0.999.
      num_updates: optional count of updates (e.g. the global step) that
        lowers the decay early in training.
      zero_debias: debias the averages of tensors (not of variables).
      name: the suffix of the average variables' names and the name of the ops.
    """

    def __init__(self, decay: Any, num_updates: Any = None, zero_debias: bool = False,
                 name: str = "ExponentialMovingAverage") -> None:
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages: dict[Any, Variable] = {}

    @property
    def name(self) -> str:
        return self._name

    @staticmethod
    def _key(var: Any) -> Any:
        return var.op if isinstance(var, Variable) else var

    def apply(self, var_list: Any = None) -> Operation:
        """Creates the averages (once per variable) and returns the op updating them.

        Args:
          var_list: variables or tensors (default: the trainable variables),
            of a floating-point dtype.

        Returns:
          An op (a ``group`` named as the object) that updates every average.

        Raises:
          TypeError: a variable or tensor is not half, float or double.
          NotImplementedError: inside an ``EagerSession`` (graph-only in jaxsess).
        """
        if executing_eagerly():
            raise NotImplementedError("ExponentialMovingAverage.apply is graph-only in jaxsess (build it in a Graph).")
        var_list = list(trainable_variables() if var_list is None else var_list)
        graph = get_default_graph()
        debiased: set[Any] = set()
        # TF's slot_creator opens ``variable_scope(None, '<var>/<name>')``: under the current variable scope
        scope_name = get_variable_scope().name
        prefix = f"{scope_name}/" if scope_name else ""
        for var in var_list:
            if _dtypes.as_dtype(var.dtype) not in _FLOATS:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            key = self._key(var)
            if key in self._averages:
                continue
            with graph.name_scope(None), graph.control_dependencies(None):
                if isinstance(var, Variable):
                    with graph.device(var.device or None):
                        avg = Variable(var.initial_value, trainable=False, name=f"{prefix}{var.op.name}/{self._name}",
                                       dtype=var.dtype)
                    add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, var)
                else:
                    shape = var.shape.as_list()
                    avg = Variable(lambda shape=shape, dtype=var.dtype: zeros(shape, dtype), trainable=False,
                                   name=f"{prefix}{var.op.name}/{self._name}")
                    if self._zero_debias:
                        debiased.add(avg.op)
            self._averages[key] = avg
        with name_scope(self._name) as scope:
            decay = convert_to_tensor(self._decay, dtype=_dtypes.float32, name="decay")
            if self._num_updates is not None:
                num_updates = math_ops.cast(self._num_updates, _dtypes.float32, name="num_updates")
                decay = math_ops.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = []
            for var in var_list:
                avg = self._averages[self._key(var)]
                updates.append(assign_moving_average(avg, var, decay, avg.op in debiased))
            return group(*updates, name=scope)  # type: ignore[no-any-return]

    def average(self, var: Any) -> Variable | None:
        """The average variable of ``var``, or ``None`` if ``apply`` did not see it."""
        return self._averages.get(self._key(var))

    def average_name(self, var: Any) -> str:
        """The name of ``var``'s average (``'<var>/ExponentialMovingAverage'``),
        also before ``apply``: the name a ``Saver`` uses to restore it."""
        avg = self._averages.get(self._key(var))
        if avg is not None:
            return avg.op.name
        return get_default_graph().unique_name(var.name[: -len(":0")] + "/" + self._name, mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables: Any = None) -> dict[str, Any]:
        """``{checkpoint name: variable}`` restoring the averages into the
        variables (for ``tf.train.Saver(ema.variables_to_restore())``); other
        global variables keep their own names. As TF."""
        if moving_avg_variables is None:
            moving_avg_variables = list(trainable_variables()) + list(_moving_average_variables())
        name_map: dict[str, Any] = {}
        seen: dict[Any, Any] = {}
        for v in moving_avg_variables:
            seen.setdefault(v.op, v)
        for v in seen.values():
            name_map[self.average_name(v)] = v
        names = {v.name for v in seen.values()}
        for v in global_variables():
            if v.name not in names and v.op.name not in name_map:
                name_map[v.op.name] = v
        return name_map
