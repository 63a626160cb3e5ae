"""A TF node into the graph: the import engine's half of ``import_graph_def``.

:func:`import_tf_node` imports one ``NodeDef`` of TF's op set as a generic TF
node (``graph/_tf_node``): TF's attributes decoded with the ``OpDef``'s
defaults and checked, inputs counted and typed by the ``OpDef``, ref and
resource inputs of stateful ops resolved to the session's variables,
function attributes checked against the library, static inputs folded on
the host, output shapes by ``jax.eval_shape`` refined by TF's
``_output_shapes``. :func:`export_tf_node` writes such a node back as TF's.
Structural op types (:data:`STRUCTURAL_TF_OPS`) and the variable queries are
read with jaxsess's registry (:func:`import_is_initialized`).

Imports: ``_core`` only (graph/ modules before this one).
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np

from jaxsess._core import _tfproto as _tfproto, dtypes as _dtypes
from jaxsess._core.graph._attr_json import _Decoder, _tensor_key
from jaxsess._core.graph._graph import _VALID_OP_NAME, Graph, Operation, Tensor
from jaxsess._core.graph._host import note_op
from jaxsess._core.graph._node_def import OUTPUT_SHAPES, input_name, refine_output_shapes, write_output_shapes
from jaxsess._core.graph._registry import REGISTRY, infer_output_specs, tf_type_to_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._core.graph._tf_function import calls_random
from jaxsess._core.graph._tf_node import (
    TF_NODE,
    TF_RANDOM_NODE,
    FunctionLibrary,
    NotFoldable,
    TFFunction,
    arg_counts,
    arg_dtypes,
    decode_attrs,
    fold,
    infer_specs,
    node_kind,
    random_seeds,
    static_input_error,
    static_positions,
    static_shape,
)
from jaxsess._core.graph._tf_opset import TF_LOWERINGS, tf_op_def as tf_opset_def

__all__ = ["STRUCTURAL_TF_OPS", "TF_NODE_ATTR", "VARIABLE_QUERIES", "import_tf_node", "import_is_initialized",
           "export_tf_node", "is_structural", "reads_through_table"]

TF_NODE_ATTR = "_jaxsess_tf_node"
"""The private attribute marking, in a GraphDef jaxsess wrote, a node imported through TF's op-set
table: import reads it through the table again."""

STRUCTURAL_TF_OPS = frozenset({
    "Const", "Placeholder", "PlaceholderV2", "PlaceholderWithDefault", "Identity", "NoOp", "VariableV2", "Variable",
    "VarHandleOp", "ReadVariableOp", "Assign", "AssignVariableOp", "AssignAdd", "AssignSub",
})
"""TF op types import always reads with jaxsess's registry (graph structure: constants, feeds,
variables and their reads and assigns, which the session's variable machinery owns), even when
TF's op-set table has a lowering for them."""


VARIABLE_QUERIES = frozenset({"VarIsInitializedOp", "IsVariableInitialized"})
_VARIABLE_QUERY = "IsVariableInitialized"  # the registry's host op asking the session


def import_is_initialized(graph: Graph, node: Any, prefix: str, decoder: _Decoder, mapped: dict[str, Tensor],
                           used_map: set[str]) -> Operation:
    """TF's ``VarIsInitializedOp(resource)``/``IsVariableInitialized(ref)``: the session's answer for the
    variable (the registry's host op ``IsVariableInitialized``)."""
    inputs, controls = _node_inputs(node, decoder, mapped, used_map)
    if len(inputs) != 1 or inputs[0].op.type != "VariableV2":
        raise ValueError("its one input must be a variable (VariableV2/VarHandleOp)")
    op_def = REGISTRY.get(_VARIABLE_QUERY)
    if op_def is None:
        raise ValueError(f"op type '{node.op}' is not registered in jaxsess (the TF1 surface registers it)")
    attrs = {"variables": (inputs[0].op,)}
    specs = infer_output_specs(op_def, [], attrs)
    op = graph._create_op(op_def, [], attrs, prefix + node.name + "/", specs, controls)
    note_op(graph, op)
    return op


def is_structural(op_type: str) -> bool:
    """Whether ``op_type`` is graph structure jaxsess's registry reads (:data:`STRUCTURAL_TF_OPS`)."""
    return op_type in STRUCTURAL_TF_OPS and tf_type_to_op(op_type) is not None


def reads_through_table(node: Any, tf_written: bool, private_attr: str) -> bool:
    """Whether import reads ``node`` through TF's op-set table: a node of a GraphDef TF wrote
    (``tf_written``) without jaxsess's private attributes (``private_attr``) that is not graph
    structure, or one jaxsess wrote from a generic TF node (:data:`TF_NODE_ATTR`); and its op
    type has a lowering."""
    if node.op not in TF_LOWERINGS:
        return False
    if _has_string_type(node) and tf_type_to_op(node.op) is not None:
        return False  # strings are host values: the registry's op has the host implementation
    return (tf_written and private_attr not in node.attr and not is_structural(node.op)) or TF_NODE_ATTR in node.attr


_DT_STRING = 7  # TF's DataType enum: DT_STRING


def _has_string_type(node: Any) -> bool:
    """Whether one of ``node``'s type attributes is ``DT_STRING`` (a string tensor in or out)."""
    for av in node.attr.values():
        kind = av.WhichOneof("value")
        if kind == "type" and av.type == _DT_STRING:
            return True
        if kind == "list" and _DT_STRING in av.list.type:
            return True
    return False


def _node_inputs(node: Any, decoder: _Decoder, mapped: dict[str, Tensor], used_map: set[str]
                 ) -> tuple[list[Tensor], list[Operation]]:
    inputs: list[Tensor] = []
    controls: list[Operation] = []
    for s in node.input:
        if s.startswith("^"):
            controls.append(decoder.op(s[1:]))
            continue
        if controls:
            raise ValueError("control inputs ('^name') must come after the data inputs")
        key = _tensor_key(s)
        if key in mapped:
            used_map.add(key)
        inputs.append(decoder.tensor(key))
    return inputs, controls


def import_tf_node(
    graph: Graph,
    node: Any,
    prefix: str,
    decoder: _Decoder,
    mapped: dict[str, Tensor],
    used_map: set[str],
    library: FunctionLibrary | None,
    folded: dict[Tensor, np.ndarray],
) -> Operation:
    """A node of TF's op set, imported as a generic TF node (``graph/_tf_node``)."""
    name, op_type = node.name, node.op
    if not _VALID_OP_NAME.match(name):
        raise ValueError(f"invalid node name {name!r:.80}")
    op_def = tf_opset_def(op_type)
    lw = TF_LOWERINGS[op_type]
    assert op_def is not None
    attrs = decode_attrs(op_type, node.attr, op_def)
    inputs, controls = _node_inputs(node, decoder, mapped, used_map)
    try:
        counts = arg_counts(op_def.input_arg, attrs)
        in_types = arg_dtypes(op_def.input_arg, attrs)
        out_types = arg_dtypes(op_def.output_arg, attrs)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"its attributes do not give TF's input/output counts: {type(e).__name__}: {e}") from None
    if len(inputs) != sum(counts):
        listed = ", ".join(f"{a.name}" + (f" ({n})" if n != 1 else "") for a, n in zip(op_def.input_arg, counts))
        raise ValueError(f"TF's OpDef gives it {sum(counts)} data input(s) ({listed}); the node has {len(inputs)}")
    var_refs: list[int] = []
    for i, (t, (dt, is_ref)) in enumerate(zip(inputs, in_types)):
        if is_ref or dt == "resource":
            if t.op.type == "VariableV2":
                if lw.stateful:
                    var_refs.append(i)
                continue
            if lw.stateful and is_ref:
                raise ValueError(f"input {i} ('{t.name}') is a ref input: it must be a variable (VariableV2), "
                                 f"got op '{t.op.type}'")
            continue  # a resource that is not a variable (a TensorArray's handle): passed as its value
        if isinstance(dt, _dtypes.DType) and t.dtype != dt:
            raise ValueError(f"input {i} ('{t.name}') has dtype {t.dtype.name}; TF's OpDef wants {dt.name}")
    statics: dict[int, np.ndarray] = {}
    for i in static_positions(lw, len(inputs)):
        try:
            statics[i] = fold(inputs[i], static_shape, folded)
        except NotFoldable as e:
            if not e.needs_shapes:
                raise ValueError(static_input_error(name, op_type, i, inputs[i], e).split(": ", 1)[1]) from None
    for k, v in attrs.items():
        for f in v if isinstance(v, tuple) and not isinstance(v, TFFunction) else (v,):
            if isinstance(f, TFFunction) and (library is None or f.name not in library.functions):
                raise ValueError(f"attribute '{k}' names function '{f.name}', which is not in the GraphDef's "
                                 "function library")
    kind = node_kind(lw, attrs)
    draws = library is not None and calls_random(attrs, library)  # a call whose body draws random numbers
    if draws:
        kind = TF_RANDOM_NODE  # its own draw counter: new values every run
    saved = _tfproto.NodeDef()
    for k, av in node.attr.items():
        saved.attr[k].CopyFrom(av)
    var_writes = tuple(dict.fromkeys(inputs[i].op for i in var_refs)) if kind != TF_NODE else ()
    op_attrs: dict[str, Any] = {
        "tf_op": op_type,
        "tf_attrs": attrs,
        "node_def": saved.SerializeToString(deterministic=True),
        "static_values": statics,
        "var_refs": tuple(var_refs),
        "var_writes": var_writes,
        "out_dtypes": tuple(dt for dt, _ in out_types),
        "library": library,
    }
    if "seed" in attrs and "seed2" in attrs and kind != TF_NODE:
        op_attrs.update(random_seeds(attrs))
    elif draws:
        op_attrs.update(random_seeds({"seed": 0, "seed2": 0}))
    try:
        specs = infer_specs(kind, prefix + name, inputs, op_attrs)
    except Exception as e:  # a shape error: the node does not fit its inputs
        if not all(t.shape.is_fully_defined() for t in inputs):
            specs = None  # unknown dims that inference could not reason about: known when the plan is traced
        else:
            msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ValueError(f"its inputs and attributes do not fit the op: {type(e).__name__}: {msg}") from None
    if specs is None:  # a static input known only when the plan is traced
        specs = [(TensorShape(None), dt if isinstance(dt, _dtypes.DType) else _dtypes.float32) for dt, _ in out_types]
    else:
        specs = [(s, dt if isinstance(dt, _dtypes.DType) else d) for (s, d), (dt, _) in zip(specs, out_types)]
    specs = refine_output_shapes(node, specs)
    ctx = graph.device(node.device) if node.device else contextlib.nullcontext()
    with ctx:
        op = graph._create_op(REGISTRY[kind], inputs, op_attrs, prefix + name + "/", specs, controls)
    note_op(graph, op)
    return op


def export_tf_node(gd: Any, op: Operation, add_shapes: bool) -> None:
    """A generic TF node written back as TF's node: its TF op type and attributes as imported."""
    node = gd.node.add(name=op.name, op=op.attrs["tf_op"], device=op.device)
    node.input.extend(input_name(t) for t in op.inputs)
    node.input.extend("^" + c.name for c in op.control_inputs)
    saved = _tfproto.NodeDef.FromString(op.attrs["node_def"])
    for k, av in saved.attr.items():
        if k != OUTPUT_SHAPES:
            node.attr[k].CopyFrom(av)
    node.attr[TF_NODE_ATTR].b = True
    if add_shapes and op.outputs:
        write_output_shapes(node, op.outputs)
