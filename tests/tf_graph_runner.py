"""A small evaluator of TF ``GraphDef``\\ s over jaxsess's TF op-set table, for tests.

It runs every node eagerly (concrete JAX arrays), so inputs TF's kernels
read on the host (``static_inputs``) are plain NumPy values: it checks the
lowerings, not the import engine (constant folding, plans, control flow
live there). Variables (``VariableV2``, ``VarHandleOp``) are handles into a
dict; ``Placeholder`` takes the feed; ``Const`` its value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jax
import numpy as np

import jaxsess._tf1.tf_opset  # noqa: F401 - fills the table
from jaxsess._core import _tfproto, dtypes as _dtypes
from jaxsess._core.graph._node_def import attr_value as _from_attr_value
from jaxsess._core.graph._tf_opset import TF_LOWERINGS, tf_op_def

_VARIABLES = ("VariableV2", "Variable", "VarHandleOp")


class Ctx:
    """The per-node context a lowering sees (``jaxsess._tf1.tf_opset._common.TFOpContext``)."""

    def __init__(self, runner: GraphRunner, name: str, op_type: str) -> None:
        self.runner, self.name, self.op_type = runner, name, op_type

    def rng_key(self, *seeds: Any) -> Any:
        return jax.random.key(len(self.runner.values))

    def rng_stream(self, seed: int, seed2: int, n: int) -> Any:
        return np.uint32(0)  # the first run of a fresh session

    def read_variable(self, handle: Any) -> Any:
        return self.runner.variables[handle]

    def assign_variable(self, handle: Any, value: Any) -> Any:
        self.runner.variables[handle] = value
        return value


def node_attrs(node: Any) -> dict[str, Any]:
    """TF's attributes of ``node`` with the ``OpDef``'s defaults filled in (private ``_`` attrs dropped)."""
    op_def = tf_op_def(node.op)
    out: dict[str, Any] = {}
    if op_def is not None:
        for a in op_def.attr:
            if a.HasField("default_value"):
                out[a.name] = _from_attr_value(a.default_value)
    for k, av in node.attr.items():
        if not k.startswith("_"):
            out[k] = _from_attr_value(av)
    return out


class GraphRunner:
    def __init__(self, graph_def: Any, variables: Mapping[str, np.ndarray] = ()) -> None:
        self.nodes = {n.name: n for n in graph_def.node}
        self.variables: dict[str, Any] = dict(variables)
        self.values: dict[str, tuple[Any, ...]] = {}

    def run(self, fetches: list[str], feeds: Mapping[str, np.ndarray]) -> list[Any]:
        self.values = {}
        self.feeds = {k.split(":")[0]: v for k, v in feeds.items()}
        with _dtypes.x64_scope():
            return [self.tensor(f) for f in fetches]

    def tensor(self, name: str) -> Any:
        op, _, idx = name.partition(":")
        return self.op(op)[int(idx or 0)]

    def op(self, name: str) -> tuple[Any, ...]:
        if name in self.values:
            return self.values[name]
        node = self.nodes[name]
        if node.op == "Placeholder":
            out: tuple[Any, ...] = (self.feeds[name],)
        elif node.op == "Const":
            out = (_tfproto.tensor_proto_to_ndarray(node.attr["value"].tensor),)
        elif node.op in _VARIABLES:
            out = (name,)
        elif node.op == "NoOp":
            out = ()
        else:
            lowering = TF_LOWERINGS.get(node.op)
            if lowering is None:
                raise KeyError(f"no lowering for TF op type {node.op!r} (node {name!r})")
            ins: list[Any] = []
            for s in node.input:
                if s.startswith("^"):
                    self.op(s[1:])
                    continue
                ins.append(self.tensor(s))
            for i in lowering.static_inputs:
                ins[i] = np.asarray(ins[i])
            out = tuple(lowering.fn(Ctx(self, name, node.op), ins, node_attrs(node)))
        self.values[name] = out
        return out
