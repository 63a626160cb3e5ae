"""Meta graphs, as ``tf.compat.v1.train.export_meta_graph`` / ``import_meta_graph``.

A ``MetaGraphDef`` (TF's protocol buffer, ``.meta`` files) holds the
``GraphDef``, the graph's collections (``CollectionDef``: variables as
serialized ``VariableDef``s, tensors and ops as ``node_list`` names) and
optionally a ``SaverDef``. Importing one rebuilds the ``tf.Variable``
objects and collections, so ``global_variables_initializer()``,
``trainable_variables()`` and a ``Saver`` work on the imported graph — the
way tutorials resume training::

    saver = tf.train.import_meta_graph("model-100.meta")
    saver.restore(sess, "model-100")

TF's own saver sub-graph (``save/SaveV2``, ``save/RestoreV2``..., named by
the ``SaverDef``) is imported too, and runs only when fetched: as TF's C++
serving does, ``sess.run(saver_def.restore_op_name,
{saver_def.filename_tensor_name: prefix})`` restores the variables and
``sess.run(saver_def.save_tensor_name, {...: prefix})`` writes a checkpoint
(the saver ops run on the host: :mod:`jaxsess._tf1.train._saver_ops`). The
returned ``Saver`` (jaxsess's own, reading and writing the files itself) stays
the usual way. A saver sub-graph holding an op type jaxsess cannot import
(TF's V1 ``SaveSlices``/``RestoreSlice`` format) is skipped.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from google.protobuf import text_format

from jaxsess._core import _tfproto as _tfproto
from jaxsess._core.graph._graph import Graph, GraphKeys, Operation, Tensor, get_default_graph
from jaxsess._core.graph._graph_def import graph_to_graph_def, import_graph_def
from jaxsess._core.graph._registry import tf_type_to_op
from jaxsess._core.graph._tf_opset import TF_LOWERINGS
from jaxsess._tf1.ops.state_ops import Variable
from jaxsess._tf1.train import _atomic_files as _atomic_files, _saver_ops as _saver_ops

# (_saver_ops: imported for its registrations, TF's saver ops that imported graphs hold)
__all__ = ["export_meta_graph", "import_meta_graph_def", "importable_op_type", "read_meta_graph_file"]

_STRING = 7  # DT_STRING: string constants (summary tags) are folded into the ops that read them
_VARIABLE_COLLECTIONS = frozenset(
    {
        GraphKeys.GLOBAL_VARIABLES,
        GraphKeys.TRAINABLE_VARIABLES,
        GraphKeys.LOCAL_VARIABLES,
        "model_variables",
        "global_step",
        "moving_average_variables",
    }
)


def _variable_def(v: Variable) -> Any:
    return _tfproto.VariableDef(
        variable_name=v._ref.name,
        initial_value_name=v.initial_value.name,
        initializer_name=v.initializer.name,
        snapshot_name=v._snapshot.name,
        trainable=bool(v.trainable),
    )


def export_meta_graph(
    filename: str | None = None,
    meta_info_def: Any = None,
    graph_def: Any = None,
    saver_def: Any = None,
    collection_list: Iterable[str] | None = None,
    as_text: bool = False,
    graph: Graph | None = None,
    export_scope: str | None = None,
    clear_devices: bool = False,
    clear_extraneous_savers: bool = False,
    strip_default_attrs: bool = False,
    save_debug_info: bool = False,
    **kwargs: Any,
) -> Any:
    """The ``MetaGraphDef`` of a graph, written to ``filename`` when given, as
    ``tf.compat.v1.train.export_meta_graph``.

    Args:
      filename: the file to write (binary, or text format with ``as_text``).
      meta_info_def: a ``MetaInfoDef`` to include.
      graph_def: the ``GraphDef`` (default: ``graph``'s).
      saver_def: a ``SaverDef`` to include.
      collection_list: the collections to include (default: all).
      graph: the graph (default: the default graph).
      clear_devices: drop the nodes' device fields.
      export_scope, clear_extraneous_savers, strip_default_attrs,
      save_debug_info: accepted for compatibility.

    Returns:
      The ``MetaGraphDef``.
    """
    graph = graph or get_default_graph()
    meta = _tfproto.MetaGraphDef()
    if meta_info_def is not None:
        meta.meta_info_def.CopyFrom(meta_info_def)
    meta.graph_def.CopyFrom(graph_def if graph_def is not None else graph_to_graph_def(graph))
    if clear_devices:
        for node in meta.graph_def.node:
            node.device = ""
    if saver_def is not None:
        meta.saver_def.CopyFrom(saver_def)
    names = {n.name for n in meta.graph_def.node}
    keys = list(collection_list) if collection_list is not None else graph.get_all_collection_keys()
    for key in keys:
        if not isinstance(key, str):
            continue
        col = _tfproto.CollectionDef()
        for item in graph.get_collection(key):
            if isinstance(item, Variable) and getattr(item, "_ref", None) is not None:
                if key in _VARIABLE_COLLECTIONS and item._ref.op.name in names:
                    col.bytes_list.value.append(_variable_def(item).SerializeToString())
            elif isinstance(item, Tensor | Operation) and item.graph is graph:
                op_name = item.op.name if isinstance(item, Tensor) else item.name
                if op_name in names and not col.bytes_list.value:
                    col.node_list.value.append(item.name)
        if col.bytes_list.value or col.node_list.value:
            meta.collection_def[key].CopyFrom(col)
    if filename:
        data = text_format.MessageToString(meta).encode("utf-8") if as_text else meta.SerializeToString()
        os.makedirs(os.path.dirname(filename) or ".", exist_ok=True)
        _atomic_files.write_files([(filename, data)])  # whole or not at all, no temporary left
    return meta


def read_meta_graph_file(filename: str) -> Any:
    """The ``MetaGraphDef`` in ``filename`` (binary, else text format), as TF's.

    Raises:
      OSError: the file cannot be read.
      ValueError: neither form parses (names the file).
    """
    return _tfproto.read_message(filename, _tfproto.MetaGraphDef)


def _saver_scope(saver_def: Any) -> str | None:
    name = saver_def.filename_tensor_name or saver_def.restore_op_name
    if "/" not in name:
        return None
    return name.split("/")[0] + "/"


def importable_op_type(op_type: str) -> bool:
    """Whether ``import_graph_def`` reads TF's op type ``op_type`` (the registry or TF's op-set table)."""
    return tf_type_to_op(op_type) is not None or op_type in TF_LOWERINGS


def import_meta_graph_def(meta: Any, clear_devices: bool = False, import_scope: str | None = None) -> bool:
    """Imports ``meta`` (a ``MetaGraphDef``) into the default graph: nodes, variables,
    collections (see :func:`jaxsess.train.import_meta_graph`).

    Returns:
      Whether the meta graph has variables.

    Raises:
      ValueError: a malformed graph or collection, an op type jaxsess does
        not know (names it and the node).
    """
    gd = _tfproto.GraphDef()
    gd.CopyFrom(meta.graph_def)
    skip = _saver_scope(meta.saver_def) if meta.HasField("saver_def") else None
    if skip and all(importable_op_type(n.op) for n in gd.node if n.name.startswith(skip)):
        skip = None  # TF's saver sub-graph is kept: its ops run when fetched (``_saver_ops``)
    used = {i.lstrip("^").split(":")[0] for n in gd.node for i in n.input}
    unused_checks = {n.name for n in gd.node if n.op == "VarIsInitializedOp" and n.name not in used}
    if skip or clear_devices or unused_checks:
        kept = [n for n in gd.node if not (skip and n.name.startswith(skip)) and n.name not in unused_checks]
        del gd.node[:]
        for n in kept:
            if clear_devices:
                n.device = ""
            gd.node.add().CopyFrom(n)
    graph = get_default_graph()
    names = [n.name for n in gd.node if not (n.op == "Const" and n.attr["value"].tensor.dtype == _STRING)]
    elements = import_graph_def(gd, name=import_scope or "", return_elements=names) or []
    ops: dict[str, Operation] = dict(zip(names, elements))
    variables = _rebuild_variables(graph, meta, ops)
    for key, col in meta.collection_def.items():
        kind = col.WhichOneof("kind")
        if kind == "bytes_list" and key in _VARIABLE_COLLECTIONS:
            for raw in col.bytes_list.value:
                vd = _tfproto.VariableDef.FromString(raw)
                v = variables.get(vd.variable_name.split(":")[0])
                if v is not None and v not in graph.get_collection(key):
                    graph.add_to_collection(key, v)
        elif kind == "node_list":
            for name in col.node_list.value:
                op_name, _, index = name.partition(":")
                op = ops.get(op_name)
                if op is None:
                    continue  # a node of the skipped saver sub-graph
                try:
                    item = op.outputs[int(index)] if index else op
                except (ValueError, IndexError):
                    raise ValueError(f"Invalid meta graph: collection {key!r} names {name!r}.") from None
                graph.add_to_collection(key, item)
    return bool(variables)


def _rebuild_variables(graph: Graph, meta: Any, ops: dict[str, Operation]) -> dict[str, Variable]:
    """The ``tf.Variable`` objects named by the meta graph's ``VariableDef``s, rebuilt over the imported ops."""
    out: dict[str, Variable] = {}
    for key in _VARIABLE_COLLECTIONS:
        col = meta.collection_def.get(key) if key in meta.collection_def else None
        if col is None or col.WhichOneof("kind") != "bytes_list":
            continue
        for raw in col.bytes_list.value:
            try:
                vd = _tfproto.VariableDef.FromString(raw)
            except Exception:  # noqa: BLE001 - protobuf's DecodeError
                raise ValueError(f"Invalid meta graph: collection {key!r} holds a malformed VariableDef.") from None
            name = vd.variable_name.split(":")[0]
            if name in out:
                continue
            try:
                var_op = ops[name]
                init = ops[vd.initializer_name]
                snapshot = ops[vd.snapshot_name.split(":")[0]].outputs[0]
                initial = ops[vd.initial_value_name.split(":")[0]].outputs[0] if vd.initial_value_name else None
            except (KeyError, IndexError):
                raise ValueError(
                    f"Invalid meta graph: variable '{name}' names nodes that are not in the graph def."
                ) from None
            if var_op.type != "VariableV2":
                raise ValueError(f"Invalid meta graph: variable '{name}' is a {var_op.type} node (VariableV2 expected).")
            v = Variable.__new__(Variable)
            v._trainable = bool(vd.trainable)
            v._constraint = None
            v._eager_session = None
            v._graph = graph
            v._dtype = var_op.outputs[0].dtype
            v._shape = var_op.attrs["shape"]
            v._ref = var_op.outputs[0]
            v._initial_value = initial
            v._initializer = init
            v._snapshot = snapshot
            var_op._variable = v  # type: ignore[attr-defined]
            out[name] = v
    return out
