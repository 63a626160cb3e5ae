"""Sub-graphs: what a control-flow op (``cond``, ``case``, ``while_loop``,
``scan``, ``map_fn``, ``foldl``/``foldr``) holds of the Python functions it
calls, and how its lowering evaluates them.

A function is traced into the graph (:func:`trace_subgraph`): the ops it
creates become the op's sub-graph, the tensors they read from outside its
*externals* (:func:`subgraph_externals`), data inputs of the op. The lowering
evaluates a sub-graph in a forked evaluator (:func:`eval_subgraph`); the
variables a sub-graph assigns (:func:`last_writers`) are threaded through
(:func:`split_externals`, :func:`final_values`).

Imports: ``graph/``, ``ops/_core`` and ``ops/state_ops``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax.numpy as jnp
from jax import tree_util

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._graph import Graph, Operation, Tensor
from jaxsess._core.graph._lowering import assigned_value
from jaxsess._tf1.ops.random_ops import function_seeds
from jaxsess._tf1.ops.state_ops import body_reads

__all__ = [
    "CONTROL_FLOW", "flatten_tensors", "trace_subgraph", "last_writers", "split_externals", "final_values",
    "subgraph_externals", "eval_subgraph", "random_ops_within", "rng_advances",
]

# The op types whose attribute ``sub_ops`` holds sub-graphs they own.
CONTROL_FLOW = ("If", "Case", "While", "Scan")


def _is_leaf(x: Any) -> bool:
    return isinstance(x, Tensor) or hasattr(x, "_as_graph_element")


def flatten_tensors(structure: Any) -> tuple[list[Any], Any]:
    """The leaves of ``structure`` (tensors and variables are leaves) and its treedef."""
    return tree_util.tree_flatten(structure, is_leaf=_is_leaf)


def trace_subgraph(
    graph: Graph, fn: Callable[..., Any], args: Sequence[Any], what: str
) -> tuple[list[Operation], list[Tensor], Any]:
    """Calls ``fn(*args)``; returns the ops it created (constants for Python
    values it returned included), its flattened output tensors and structure."""
    start = len(graph._ops)
    with body_reads(), function_seeds(graph):
        out = fn(*args)
        leaves, treedef = flatten_tensors(out)
        leaves = [convert_to_tensor(x) for x in leaves]
    ops = graph._ops[start:]
    # Ops owned by control-flow ops built inside (their branches and bodies)
    # and loop variables run only inside those ops.
    nested: set[Operation] = set()
    for op in ops:
        if op.type in CONTROL_FLOW:
            for sub in op.attrs["sub_ops"]:
                nested.update(sub)
    # Variables created inside (get_variable, layers) are lifted out, as TF1's
    # init_scope: their op, initializer and initial value run outside.
    lifted: set[Operation] = set()
    inside = set(ops)
    for op in ops:
        var = op._variable if op.type == "VariableV2" else None
        if var is None:
            continue
        lifted.update((op, var.initializer, var._snapshot.op))
        stack = [t.op for t in var.initializer.inputs]
        while stack:
            a = stack.pop()
            if a in inside and a not in lifted and a.type != "VariableV2":
                lifted.add(a)
                stack.extend(t.op for t in a.inputs)
    ops = [op for op in ops if op not in nested and op not in lifted and op.type != "LoopVar"]
    return ops, leaves, treedef


def last_writers(ops: Sequence[Operation]) -> dict[Operation, Operation]:
    """For each variable the ops assign (directly, or in nested control flow):
    the last op (in creation order) that assigns it."""
    last: dict[Operation, Operation] = {}
    for op in ops:
        od = op._op_def
        if od.writes_ref:
            targets: Sequence[Operation] = (op.inputs[od.ref_inputs[0]].op,)
        else:
            targets = op.attrs.get("var_writes", ()) if od.lowering is not None else ()
        for var in targets:
            if var not in last or op._id > last[var]._id:
                last[var] = op
    return last


def split_externals(ext: Sequence[Tensor], vals: Sequence[Any]) -> tuple[dict[Tensor, Any], dict[Operation, Any]]:
    """Tensor values to bind in a body's env, and the values of the variables
    the body reads or assigns (read where the control-flow op runs)."""
    env: dict[Tensor, Any] = {}
    var_values: dict[Operation, Any] = {}
    for t, v in zip(ext, vals):
        if t.op.type == "VariableV2":
            var_values[t.op] = v
        else:
            env[t] = v
    return env, var_values


def final_values(ev: Any, child: Any, writers: dict[Operation, Operation], writes: Sequence[Operation],
            start: dict[Operation, Any]) -> tuple[Any, ...]:
    """The values a body leaves in the variables ``writes`` (unassigned: as they were)."""
    out = []
    for var in writes:
        w = writers.get(var)
        if w is None:
            out.append(start[var])
        else:
            out.append(jnp.asarray(assigned_value(child.assigned, w, var), dtype=var.attrs["dtype"].np_dtype))
    return tuple(out)


def subgraph_externals(ops: Sequence[Operation], bound: set[Tensor], outs: Sequence[Tensor]) -> list[Tensor]:
    """The tensors ``ops`` read and the outputs ``outs`` that come from outside
    ``ops`` and are not in ``bound`` (the loop variables), in first-use order."""
    inside = set(ops)
    seen: set[Tensor] = set()
    ext: list[Tensor] = []

    def visit(t: Tensor) -> None:
        if t in bound or t.op in inside or t in seen:
            return
        seen.add(t)
        ext.append(t)

    for op in ops:
        for t in op.inputs:
            visit(t)
    for t in outs:
        visit(t)
    return ext


def eval_subgraph(ev: Any, ops: Sequence[Operation], outs: Sequence[Tensor], env: dict[Tensor, Any], fold: Any = None,
                  var_values: dict[Operation, Any] | None = None,
                  rng_offset: dict[Operation, Any] | None = None) -> tuple[list[Any], Any]:
    """Runs ``ops`` in a fork of the evaluator ``ev`` with ``env`` bound; the
    values of ``outs`` and the fork (its assignments, its random ops' advances)."""
    child = ev.fork(env, drop=ops, fold=fold, var_values=var_values, rng_offset=rng_offset)
    child.run(ops)
    return [child.env[t] for t in outs], child


def random_ops_within(ops: Sequence[Operation]) -> tuple[Operation, ...]:
    """The random ops among ``ops`` and in the sub-graphs of the control-flow ops among them."""
    found: list[Operation] = []
    for op in ops:
        if op._op_def.random:
            found.append(op)
        if op.type in CONTROL_FLOW:
            for sub in op.attrs["sub_ops"]:
                found.extend(random_ops_within(sub))
    return tuple(found)


def rng_advances(child: Any, ops: Sequence[Operation], randoms: Sequence[Operation]) -> tuple[Any, ...]:
    """How far the counters of ``randoms`` advanced while the fork ``child``
    ran ``ops`` (``uint32``): the values each drew from TF's stream (one when it
    draws JAX's keys); 0 for those in sub-graphs that did not run."""
    ran = set(ops)
    return tuple(jnp.asarray(child.rng_advance.get(r, 1 if r in ran else 0), jnp.uint32) for r in randoms)
