"""``tf.compat.v1.saved_model.main_op``: the op a SavedModel runs after loading its variables
(TF's ``main_op`` module)."""

from __future__ import annotations

from typing import Any

from jaxsess._core.graph._builder import group
from jaxsess._core.graph._graph import Operation, get_default_graph
from jaxsess._tf1.ops.state_ops import global_variables_initializer, local_variables_initializer
from jaxsess._tf1.ops.variable_checks import tables_initializer

__all__ = ["main_op", "main_op_with_restore"]


def main_op() -> Operation:
    """One op initializing the global and local variables and the tables, as
    ``tf.compat.v1.saved_model.main_op.main_op`` (``group`` of the three initializers)."""
    return group(global_variables_initializer(), local_variables_initializer(), tables_initializer())


def main_op_with_restore(restore_op_name: Any) -> Operation:
    """:func:`main_op`, then ``restore_op_name`` (an op or tensor of the graph), as
    ``tf.compat.v1.saved_model.main_op_with_restore``: ``group(restore_op_name)`` under a control
    dependency on :func:`main_op`.

    Raises:
      TypeError: ``restore_op_name`` is not a tensor or op (TF's ``group`` refuses a name string too).
    """
    if not hasattr(restore_op_name, "device"):
        raise TypeError(f"'inputs' should be zero or more (nested) Tensors. Received '{restore_op_name}' with type "
                        f"'{type(restore_op_name)}'.")
    with get_default_graph().control_dependencies([main_op()]):
        return group(restore_op_name)
