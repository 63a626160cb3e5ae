"""Whether variables are initialised, as TF1's ``tf.is_variable_initialized``,
``tf.report_uninitialized_variables``, ``tf.assert_variables_initialized``,
and ``tf.tables_initializer``.

The first two are host ops (:mod:`jaxsess._core.graph._host`): they ask the running
session which variables hold a value, without reading (or needing) the
values. ``report_uninitialized_variables`` gives a 1-D string tensor of
variable names (as TF: ``b'v'``, without ``:0``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, constant, executing_eagerly, group, no_op
from jaxsess._core.graph._graph import GraphKeys, Operation, TensorShape, get_default_graph
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._tf1.ops.array_ops import stack
from jaxsess._tf1.ops.state_ops import Variable, global_variables, local_variables

__all__ = [
    "is_variable_initialized",
    "report_uninitialized_variables",
    "assert_variables_initialized",
    "tables_initializer",
    "initialize_all_tables",
]


def _bool_scalar(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(TensorShape([]), _dtypes.bool)]


def _names_vector(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(TensorShape([None]), _dtypes.string)]


@register_op("IsVariableInitialized", infer=_bool_scalar, lowering=device_lowering, default_name="IsVariableInitialized")
def _is_initialized(*, variables: tuple[Operation, ...]) -> Any:
    raise AssertionError("IsVariableInitialized runs on the host")  # pragma: no cover


@register_host("IsVariableInitialized", always=True, infer=_bool_scalar)
def _host_is_initialized(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.bool_(all(ctx.session.is_initialized(v) for v in op.attrs["variables"])),)


@register_op("ReportUninitializedVariables", infer=_names_vector, lowering=device_lowering,
             default_name="report_uninitialized_variables")
def _report(*, variables: tuple[Operation, ...]) -> Any:
    raise AssertionError("ReportUninitializedVariables runs on the host")  # pragma: no cover


@register_host("ReportUninitializedVariables", always=True, infer=_names_vector)
def _host_report(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    names = [v.name.encode() for v in op.attrs["variables"] if not ctx.session.is_initialized(v)]
    out = np.empty(len(names), dtype=object)
    out[:] = names
    return (out,)


def _var_ops(var_list: Any) -> tuple[Operation, ...]:
    return tuple(v.op if isinstance(v, Variable) else v for v in var_list)


def is_variable_initialized(variable: Variable) -> Any:
    """A ``bool`` scalar: whether ``variable`` holds a value in the running session,
    as ``tf.compat.v1.is_variable_initialized`` (eagerly: ``True``, variables
    are initialised when created)."""
    if executing_eagerly():
        return np.bool_(True)
    return apply_op("IsVariableInitialized", (), {"variables": _var_ops([variable])})


def report_uninitialized_variables(var_list: Any = None, name: str = "report_uninitialized_variables") -> Any:
    """A 1-D string tensor: the names of the variables of ``var_list`` (default:
    global and local variables) not initialised in the running session, as
    ``tf.compat.v1.report_uninitialized_variables``.

    Raises:
      RuntimeError: inside an ``EagerSession`` (its variables are initialised
        when created; string tensors are graph-only).
    """
    if executing_eagerly():
        raise RuntimeError("report_uninitialized_variables is graph-only: eager variables are initialised "
                           "when created.")
    if var_list is None:
        var_list = list(global_variables()) + list(local_variables())
    with get_default_graph().control_dependencies(None):
        return apply_op("ReportUninitializedVariables", (), {"variables": _var_ops(var_list)}, name=name)


def assert_variables_initialized(var_list: Any = None) -> Any:
    """As ``tf.compat.v1.assert_variables_initialized`` (TF 2.x, resource
    variables): the ranks of the variables of ``var_list`` (default: global and
    local ones), an ``int32`` scalar for one variable, else a vector; ``None``
    without variables. (TF1's reference variables failed to run when one was
    not initialised; resource variables, the default here, do not.)"""
    if var_list is None:
        var_list = list(global_variables()) + list(local_variables())
    if not var_list:
        return None
    # the ranks are static: computed without reading the variables
    ranks = [constant(np.int32(v.shape.ndims), name="Rank") for v in var_list]
    return ranks[0] if len(ranks) == 1 else stack(ranks)


def tables_initializer(name: str = "init_all_tables") -> Any:
    """A ``group`` of the ops in ``GraphKeys.TABLE_INITIALIZERS`` (a ``NoOp`` when
    there are none: jaxsess has no lookup tables), as ``tf.compat.v1.tables_initializer``."""
    if executing_eagerly():
        return None
    inits = get_default_graph().get_collection(GraphKeys.TABLE_INITIALIZERS)
    if inits:
        return group(*inits, name=name)
    return no_op(name=name)


def initialize_all_tables(name: str = "init_all_tables") -> Any:
    """:func:`tables_initializer`, as TF 1's deprecated ``tf.compat.v1.initialize_all_tables``."""
    return tables_initializer(name)
