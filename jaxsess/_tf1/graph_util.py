"""``GraphDef`` utilities, as ``tf.compat.v1.graph_util``: freezing a model
(``convert_variables_to_constants``) and pruning (``extract_sub_graph``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from jaxsess._core import _tfproto as _tfproto

__all__ = ["extract_sub_graph", "convert_variables_to_constants", "remove_training_nodes"]


def _node_name(name: str) -> str:
    return name.lstrip("^").split(":")[0]


def extract_sub_graph(graph_def: Any, dest_nodes: Sequence[str] | str) -> Any:
    """The nodes of ``graph_def`` that ``dest_nodes`` depend on (data and control inputs),
    in their original order, as ``tf.compat.v1.graph_util.extract_sub_graph``.

    Raises:
      TypeError: ``graph_def`` is not a ``GraphDef`` or ``dest_nodes`` not names.
      AssertionError: a destination is not in the graph (as TF: names it).
    """
    if not isinstance(graph_def, _tfproto.GraphDef):
        raise TypeError("graph_def must be a graph_pb2.GraphDef proto.")
    if isinstance(dest_nodes, str):
        raise TypeError("dest_nodes must be a list.")
    by_name = {n.name: n for n in graph_def.node}
    for d in dest_nodes:
        if _node_name(d) not in by_name:
            raise AssertionError(f"{d} is not in graph")
    keep: set[str] = set()
    stack = [_node_name(d) for d in dest_nodes]
    while stack:
        name = stack.pop()
        if name in keep or name not in by_name:
            continue
        keep.add(name)
        stack.extend(_node_name(i) for i in by_name[name].input)
    out = _tfproto.GraphDef()
    out.versions.CopyFrom(graph_def.versions)
    out.library.CopyFrom(graph_def.library)
    for n in graph_def.node:
        if n.name in keep:
            out.node.add().CopyFrom(n)
    return out


def convert_variables_to_constants(
    sess: Any,
    input_graph_def: Any,
    output_node_names: Sequence[str],
    variable_names_whitelist: Iterable[str] | None = None,
    variable_names_blacklist: Iterable[str] | None = None,
) -> Any:
    """A frozen copy of ``input_graph_def``: pruned to what ``output_node_names`` need,
    each variable replaced by a ``Const`` holding its value in ``sess``, as
    ``tf.compat.v1.graph_util.convert_variables_to_constants``.

    Args:
      sess: the ``Session`` holding the variables' values.
      input_graph_def: the ``GraphDef`` (``sess.graph.as_graph_def()``).
      output_node_names: the op names to keep (with their dependencies).
      variable_names_whitelist: only these variables become constants.
      variable_names_blacklist: these variables stay variables.

    Returns:
      The frozen ``GraphDef``.

    Raises:
      FailedPreconditionError: a kept variable is not initialised in ``sess``.
      AssertionError: an output name is not in the graph.
    """
    sub = extract_sub_graph(input_graph_def, list(output_node_names))
    allow = set(variable_names_whitelist) if variable_names_whitelist is not None else None
    deny = set(variable_names_blacklist or ())
    out = _tfproto.GraphDef()
    out.versions.CopyFrom(sub.versions)
    for n in sub.node:
        if n.op in ("VariableV2", "Variable") and (allow is None or n.name in allow) and n.name not in deny:
            value = np.asarray(sess.read(sess.graph.get_operation_by_name(n.name)))
            c = out.node.add(name=n.name, op="Const", device=n.device)
            c.attr["dtype"].type = _tfproto.dtype_to_enum(value.dtype)
            c.attr["value"].tensor.CopyFrom(_tfproto.ndarray_to_tensor_proto(value))
            continue
        out.node.add().CopyFrom(n)
    return out


def remove_training_nodes(input_graph: Any, protected_nodes: Iterable[str] | None = None) -> Any:
    """``input_graph`` without ``Identity``/``CheckNumerics`` pass-through nodes (inputs
    rewired past them), except ``protected_nodes``, as ``tf.compat.v1.graph_util.remove_training_nodes``."""
    protected = set(protected_nodes or ())
    drop: dict[str, str] = {}
    for n in input_graph.node:
        if n.op in ("Identity", "CheckNumerics") and n.name not in protected and len(n.input) == 1 \
                and not n.input[0].startswith("^"):
            drop[n.name] = n.input[0]

    def resolve(name: str) -> str:
        control = name.startswith("^")
        base = _node_name(name)
        seen = set()
        while base in drop and base not in seen and ":" not in name:
            seen.add(base)
            name = drop[base]
            base = _node_name(name)
        return ("^" + base) if control else name

    out = _tfproto.GraphDef()
    out.versions.CopyFrom(input_graph.versions)
    for n in input_graph.node:
        if n.name in drop:
            continue
        m = out.node.add()
        m.CopyFrom(n)
        del m.input[:]
        m.input.extend(resolve(i) for i in n.input)
    return out
