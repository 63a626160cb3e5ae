"""Graph serialisation in TF's own format: ``Graph.as_graph_def()`` and ``import_graph_def``.

A graph def is TensorFlow's ``GraphDef`` protocol buffer (the compiled message
classes that the ``tensorboard`` package ships; no TensorFlow needed): one
``NodeDef`` per op, in creation order, with TF's op type (``'MatMul'``),
``input`` names (``'op'``, ``'op:1'``, control inputs ``'^op'``), ``device``
and ``attr`` (``AttrValue``: ``T``, ``transpose_a``, ``value`` as a
``TensorProto``...), plus ``_output_shapes``. The registry owns how each op
is written (:class:`jaxsess._core.graph._registry.TFOp`): TF's op type, how its
Python attributes become TF's, which attributes TF passes as constant inputs
(``Mean``'s reduction axes, ``Reshape``'s shape: written as ``Const`` nodes,
folded back into attributes on import).

Where TF has no attribute for a value (a sharding, an optimizer spec, a
control-flow sub-graph), the node's exact attributes also travel as JSON in
the private attribute ``_jaxsess_attrs`` (TF ignores attributes that start
with ``_``), so every registered op round-trips. Its values use one-key
objects as type tags:

==========================  ==============================================
Python value                encoding
==========================  ==============================================
``None``, bool, int, str    themselves
finite float                itself; ``{"float": "nan" | "inf" | "-inf"}``
list                        a JSON list
tuple                       ``{"tuple": [...]}``
dict                        ``{"dict": [[key, value], ...]}``
``DType``                   ``{"dtype": "float32"}``
``TensorShape``             ``{"shape": [2, null] | null}``
NumPy array                 ``{"ndarray": {"dtype", "shape", "data"}}``
                            (``data``: base64 of the little-endian bytes;
                            strings: a list of base64 texts)
NumPy scalar                the same, with ``"scalar": true``
``Tensor`` / ``Operation``  ``{"tensor": "name:0"}`` / ``{"op": "name"}``
``PartitionSpec``           ``{"partition_spec": [null, "data", ["a", "b"]]}``
a library function          ``{"function": "array_ops._as_vector"}`` (a fixed
                            allow-list; user functions cannot be encoded)
optimizer specs             ``{"transformation_spec": {...}}`` and
                            ``{"treedef": "..."}`` (recomputed on import)
==========================  ==============================================

TF's files need not list nodes in order: import sorts them topologically.
Loading never executes code from the graph def: there is no pickle and no
``eval``; functions are looked up by name in a fixed allow-list. Unknown op
types, malformed nodes and attributes raise ``ValueError`` naming the node
and its op type.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from google.protobuf import text_format

from jaxsess._core import _tfproto as _tfproto, dtypes as _dtypes
from jaxsess._core.graph._attr_json import (
    _POST_DECODE,
    _Decoder,
    _encode,
    _has_pending,
    _NoEncoding,
    _note_mapped,
    _StringConst,
    _tensor_key,
    register_function as register_function,
    register_transformation_spec as register_transformation_spec,
)
from jaxsess._core.graph._graph import (
    _VALID_OP_NAME,
    Graph,
    Operation,
    Tensor,
    get_default_graph,
    register_graph_def_writer,
)
from jaxsess._core.graph._host import note_op
from jaxsess._core.graph._node_def import (
    OUTPUT_SHAPES,
    attr_value,
    input_name,
    refine_output_shapes,
    registry_tf_attrs,
    split_const_inputs,
    write_output_shapes,
)
from jaxsess._core.graph._registry import REGISTRY, _freeze, infer_output_specs, tf_op_def, tf_type_to_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._core.graph._tf_frames import functionalize, has_v1_control_flow
from jaxsess._core.graph._tf_import import (
    TF_NODE_ATTR as TF_NODE_ATTR,
    VARIABLE_QUERIES,
    export_tf_node,
    import_is_initialized,
    import_tf_node,
    reads_through_table,
)
from jaxsess._core.graph._tf_lists import LIST_OPS as LIST_OPS  # registers TensorArray/TensorList ops
from jaxsess._core.graph._tf_node import FunctionLibrary, is_tf_node

if TYPE_CHECKING:
    from tensorboard.compat.proto import graph_pb2, node_def_pb2

__all__ = ["graph_to_graph_def", "import_graph_def", "write_graph", "read_graph_def", "PRODUCER", "MIN_CONSUMER"]

PRODUCER = 1
"""The graph-def version this library writes."""
MIN_CONSUMER = 1
"""The oldest reader version that can load what this library writes."""

# -- TF attribute values --------------------------------------------------------------


def _to_attr_value(v: Any) -> Any:
    """An ``AttrValue`` holding the Python value ``v``, or ``None`` when TF has no attr type for it."""
    if isinstance(v, _tfproto.AttrValue):
        return v
    av = _tfproto.AttrValue()
    if isinstance(v, bool | np.bool_):
        av.b = bool(v)
    elif isinstance(v, int | np.integer):
        if not -(2**63) <= int(v) < 2**63:
            return None
        av.i = int(v)
    elif isinstance(v, float | np.floating):
        av.f = float(v)
    elif isinstance(v, str):
        av.s = v.encode("utf-8")
    elif isinstance(v, bytes):
        av.s = v
    elif isinstance(v, _dtypes.DType):
        av.type = _tfproto.dtype_to_enum(v)
    elif isinstance(v, TensorShape):
        av.shape.CopyFrom(_tfproto.shape_to_proto(v.as_tuple()))
    elif isinstance(v, np.ndarray):
        try:
            av.tensor.CopyFrom(_tfproto.ndarray_to_tensor_proto(v))
        except TypeError:
            return None
    elif isinstance(v, list | tuple) and not hasattr(v, "_fields"):
        items = list(v)
        lst = av.list
        if all(isinstance(x, bool) for x in items) and items:
            lst.b.extend(items)
        elif all(isinstance(x, int | np.integer) and not isinstance(x, bool) for x in items):
            lst.i.extend(int(x) for x in items)
        elif all(isinstance(x, float | int) and not isinstance(x, bool) for x in items):
            lst.f.extend(float(x) for x in items)
        elif all(isinstance(x, str) for x in items):
            lst.s.extend(x.encode("utf-8") for x in items)
        elif all(isinstance(x, _dtypes.DType) for x in items):
            lst.type.extend(_tfproto.dtype_to_enum(x) for x in items)
        elif all(isinstance(x, TensorShape) for x in items):
            for x in items:
                lst.shape.add().CopyFrom(_tfproto.shape_to_proto(x.as_tuple()))
        else:
            return None
    else:
        return None
    return av


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(_freeze(a) == _freeze(b))
    except TypeError:
        return False


# -- export ---------------------------------------------------------------------------------

PRIVATE_ATTRS = "_jaxsess_attrs"
"""The private attribute holding a node's exact jaxsess attributes (JSON) where TF's attrs cannot."""
def graph_to_graph_def(graph: Graph, from_version: int | None = None, add_shapes: bool = True, *,
                       lenient: bool = False) -> graph_pb2.GraphDef:
    """The ``GraphDef`` protocol buffer of ``graph``, as ``tf.Graph.as_graph_def``.

    Each op becomes a ``NodeDef`` in TF's terms (the registry's :class:`TFOp`
    mapping: TF's op type, TF's attributes, type attributes, constant
    inputs as ``Const`` nodes named ``'<node>/<attr>'``). Attributes TF has
    no place for travel as JSON in the private ``_jaxsess_attrs`` attribute
    (TF ignores attributes starting with ``_``), so every op round-trips.

    Args:
      graph: the graph to describe.
      from_version: only nodes created after ``graph.version`` was this value.
      add_shapes: record each node's output shapes in ``_output_shapes``
        (as TF); jaxsess uses them to restore shapes refined by ``set_shape``.
      lenient: leave out attributes that have no encoding (host objects such
        as a ``tf.data`` iterator) instead of raising: a picture of the graph
        (TensorBoard's graph tab) that cannot be imported back.

    Returns:
      A ``GraphDef`` (``tensorboard.compat.proto.graph_pb2.GraphDef``: TF's
      schema; ``SerializeToString()`` gives bytes that TF reads).

    Raises:
      ValueError: an attribute value has no encoding (names the node, its op
        type and the attribute); not when ``lenient``.
    """
    with graph._lock:
        ops = list(graph._ops)
    if from_version:
        ops = ops[int(from_version):]
    by_name = {op.name: op for op in graph._ops}
    taken = set(by_name)
    gd = _tfproto.GraphDef()
    gd.versions.producer = PRODUCER
    gd.versions.min_consumer = MIN_CONSUMER
    libraries: list[FunctionLibrary] = []
    for op in ops:
        if is_tf_node(op):
            export_tf_node(gd, op, add_shapes)
            lib = op.attrs.get("library")
            if lib is not None and all(lib is not x for x in libraries):
                libraries.append(lib)
            continue
        _export_op(gd, graph, op, taken, by_name, add_shapes, lenient)
    written: set[str] = set()
    for lib in libraries:
        for fname, fdef in lib.functions.items():
            if fname not in written:
                written.add(fname)
                gd.library.function.add().CopyFrom(fdef)
        for fname, grad in lib.gradients.items():
            gd.library.gradient.add(function_name=fname, gradient_func=grad)
    return gd


def op_to_node_def(op: Operation) -> node_def_pb2.NodeDef:
    """The ``NodeDef`` of ``op`` as :func:`graph_to_graph_def` writes it, without
    ``_output_shapes`` and jaxsess's private attributes (``str(op)``, as TF)."""
    gd = _tfproto.GraphDef()
    if is_tf_node(op):
        export_tf_node(gd, op, False)
    else:
        _export_op(gd, op.graph, op, {o.name for o in op.graph.get_operations()}, {op.name: op}, False)
    node = gd.node[len(gd.node) - 1]
    for private in (PRIVATE_ATTRS, TF_NODE_ATTR):
        if private in node.attr:
            del node.attr[private]
    return node


register_graph_def_writer(graph_to_graph_def, op_to_node_def)


TFExpansion = Callable[[Operation], "list[tuple[str, str, list[str], dict[str, Any]]] | None"]
TF_EXPORT_EXPANSIONS: dict[str, TFExpansion] = {}
"""jaxsess op type -> how it is written as several of TF's nodes when TF has no one op for it
(``RandomUniform(minval, maxval)`` is TF's ``RandomUniform(shape) * (maxval - minval) + minval``).

``fn(op) -> [(suffix, tf_op, inputs, attrs), ...]`` (or ``None``: written as one node): the
helper nodes ``op.name + '/' + suffix`` and, with suffix ``''``, the node named ``op.name``
whose output 0 is the op's. ``inputs`` name tensors of the graph or helpers (``'{name}/mul'``);
``attrs`` are Python values (see ``_to_attr_value``). The final node also carries the op's exact
attributes and its own inputs privately, so jaxsess reads its op back, and skips the helpers."""
_HELPER_ATTR = "_jaxsess_helper"


def _export_expanded(gd: Any, graph: Graph, op: Operation, taken: set[str], add_shapes: bool) -> bool:
    expand = TF_EXPORT_EXPANSIONS.get(op.type)
    parts = expand(op) if expand is not None else None
    if not parts:
        return False
    names = [op.name + "/" + suffix if suffix else op.name for suffix, _, _, _ in parts]
    if any(n in taken for n in names if n != op.name):
        return False
    try:
        encoded = {k: _encode(v, graph) for k, v in op.attrs.items()}
    except _NoEncoding:
        return False
    taken.update(names)
    for (suffix, tf_op, inputs, attrs), name in zip(parts, names, strict=True):
        node = gd.node.add(name=name, op=tf_op, device=op.device)
        node.input.extend(inputs)
        for k, v in attrs.items():
            av = _to_attr_value(v)
            if av is None:
                raise ValueError(f"Cannot serialise node '{op.name}' (op '{op.type}'): attribute '{k}' of {tf_op}")
            node.attr[k].CopyFrom(av)
        if suffix:
            node.attr[_HELPER_ATTR].s = op.name.encode("utf-8")
            continue
        node.input.extend("^" + c.name for c in op.control_inputs)
        private = {"op": op.type, "attrs": encoded, "n_const": 0, "inputs": [input_name(t) for t in op.inputs]}
        node.attr[PRIVATE_ATTRS].s = json.dumps(private).encode("utf-8")
        if add_shapes and op.outputs:
            write_output_shapes(node, op.outputs)
    return True


def _export_op(
    gd: Any, graph: Graph, op: Operation, taken: set[str], by_name: dict[str, Operation], add_shapes: bool,
    lenient: bool = False,
) -> None:
    if _export_expanded(gd, graph, op, taken, add_shapes):
        return
    m = tf_op_def(op._op_def)
    assert m.to_tf is not None and m.from_tf is not None
    specs = [(t.shape, t.dtype) for t in op.inputs]
    try:
        tf_attrs, consts = m.to_tf(dict(op.attrs), specs)
    except Exception as e:  # noqa: BLE001 - a mapping that cannot express these attrs: keep them privately
        tf_attrs, consts = {}, []
        exact = False
        why: Any = e
    else:
        exact = True
        why = None
    inputs = [input_name(t) for t in op.inputs]
    input_dtypes: list[_dtypes.DType | None] = [t.dtype for t in op.inputs]
    const_names: list[str] = []
    for k, value in enumerate(consts):
        arr = np.asarray(value)
        cname = f"{op.name}/input_{len(op.inputs) + k}"
        prior = by_name.get(cname)
        if prior is not None and prior.type == "Const" and _same(prior.attrs.get("value"), arr):
            const_names.append(cname)  # imported from a graph def we wrote: that Const is exported as it is
            continue
        while cname in taken:
            cname += "_"
        taken.add(cname)
        c = gd.node.add(name=cname, op="Const", device=op.device)
        c.attr["value"].tensor.CopyFrom(_tfproto.ndarray_to_tensor_proto(arr))
        c.attr["dtype"].type = c.attr["value"].tensor.dtype
        if add_shapes:
            c.attr[OUTPUT_SHAPES].list.shape.add().CopyFrom(_tfproto.shape_to_proto(list(arr.shape)))
        const_names.append(cname)
    const_dtypes = [None if _tfproto.is_string_array(np.asarray(c)) else _dtypes.as_dtype(np.asarray(c).dtype)
                    for c in consts]
    at = len(inputs) if m.const_pos < 0 else m.const_pos
    inputs = inputs[:at] + const_names + inputs[at:]
    input_dtypes = input_dtypes[:at] + const_dtypes + input_dtypes[at:]
    node = gd.node.add(name=op.name, op=m.op, device=op.device)
    node.input.extend(inputs)
    node.input.extend("^" + c.name for c in op.control_inputs)
    types = m.types if m.types is not None else ({"T": 0} if op.inputs else {})
    for key, i in types.items():
        dt = op.outputs[-1 - i].dtype if i < 0 else (input_dtypes[i] if i < len(input_dtypes) else None)
        if dt is not None:
            node.attr[key].type = _tfproto.dtype_to_enum(dt)
    decoded: dict[str, Any] = {}
    for key, value in tf_attrs.items():
        av = _to_attr_value(value)
        if av is None:
            exact = False
            continue
        node.attr[key].CopyFrom(av)
        if key not in types:  # as on import: type attributes come from the inputs
            decoded[key] = attr_value(av)
    if exact:
        try:
            exact = _same(m.from_tf(decoded, [np.asarray(c) for c in consts]), dict(op.attrs))
        except Exception:  # noqa: BLE001
            exact = False
    if not exact:
        encoded = {}
        for key, value in op.attrs.items():
            try:
                encoded[key] = _encode(value, graph)
            except _NoEncoding as e:
                if lenient:
                    continue
                raise ValueError(
                    f"Cannot serialise node '{op.name}' (op '{op.type}'): attribute '{key}': {e}."
                    + (f" (TF mapping failed: {why})" if why else "")
                ) from None
        private = {"op": op.type, "attrs": encoded, "n_const": len(consts)}
        node.attr[PRIVATE_ATTRS].s = json.dumps(private).encode("utf-8")
    if add_shapes and op.outputs and m.shapes:
        write_output_shapes(node, op.outputs)


def write_graph(graph_or_graph_def: Graph | graph_pb2.GraphDef, logdir: str, name: str, as_text: bool = True) -> str:
    """Writes a graph's ``GraphDef`` to ``logdir/name``, as ``tf.io.write_graph``.

    Args:
      graph_or_graph_def: a :class:`Graph` or a ``GraphDef``.
      logdir: the directory (created if missing).
      name: the file name (``'model.pbtxt'``, ``'frozen.pb'``).
      as_text: protobuf text format (``.pbtxt``) or binary (``.pb``).

    Returns:
      The path written.

    Raises:
      TypeError: neither a ``Graph`` nor a ``GraphDef``.
    """
    if isinstance(graph_or_graph_def, Graph):
        gd = graph_to_graph_def(graph_or_graph_def)
    elif isinstance(graph_or_graph_def, _tfproto.GraphDef):
        gd = graph_or_graph_def
    else:
        raise TypeError(f"write_graph needs a Graph or a GraphDef, got {type(graph_or_graph_def).__name__}.")
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    data = text_format.MessageToString(gd).encode("utf-8") if as_text else gd.SerializeToString()
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    finally:  # a failed write (full disk, an interrupt) leaves no temporary behind
        if os.path.exists(tmp):
            os.remove(tmp)
    return path


def read_graph_def(path: str) -> graph_pb2.GraphDef:
    """The ``GraphDef`` in the file ``path``: binary (``.pb``) or text format (``.pbtxt``, tried
    when the bytes do not parse as binary).

    Raises:
      OSError: the file cannot be read.
      ValueError: neither form parses (names the file).
    """
    return _tfproto.read_message(path, _tfproto.GraphDef)


# -- import ---------------------------------------------------------------------------------


def _bad_node(i: int, name: str, op_type: str, why: str) -> ValueError:
    what = f"node '{name}'" if name else f"node #{i}"
    if op_type:
        what += f" (op '{op_type}')"
    return ValueError(f"Invalid graph def: {what}: {why}")


def import_graph_def(
    graph_def: graph_pb2.GraphDef,
    input_map: Mapping[str, Any] | None = None,
    return_elements: Sequence[str] | None = None,
    name: str | None = None,
    op_dict: object = None,
    producer_op_list: object = None,
) -> list[Any] | None:
    """Adds the nodes of ``graph_def`` to the default graph, as ``tf.compat.v1.import_graph_def``.

    Reads graph defs written by TF (frozen models, training graphs,
    function libraries, TF1's control-flow frames) and by jaxsess
    (``docs/tf-import.md``). TF1's frames (``Switch``/``Merge``/``Enter``/
    ``Exit``/``NextIteration``/``LoopCond``) are first rewritten as control
    flow v2 (``graph/_tf_frames``). In a GraphDef TF wrote
    (``versions.producer`` is not jaxsess's), a node whose op type has a
    lowering in TF's op-set table becomes a generic TF node
    (``graph/_tf_import``: TF's attributes with the ``OpDef``'s defaults,
    static inputs folded on the host as Grappler would), except graph
    structure (constants, placeholders, variables, their reads and
    assigns); other nodes, and every node of jaxsess's own files, are looked
    up in the registry by their TF name and their TF attributes become the
    op's.

    Args:
      graph_def: a ``GraphDef`` (:meth:`Graph.as_graph_def`, or parsed from a
        ``.pb``/``.pbtxt`` file: ``tf.GraphDef.FromString(data)``).
      input_map: ``{tensor name in graph_def: Tensor of the default graph}``;
        every use of the named tensor becomes the given tensor.
      return_elements: names in ``graph_def`` (``'op'`` or ``'op:0'``) whose
        imported ``Operation``/``Tensor`` to return.
      name: prefix of the imported names (default ``'import'``, made unique
        as a name scope; ``''`` imports the names unchanged).
      op_dict, producer_op_list: accepted for compatibility and ignored.

    Returns:
      The imported elements named by ``return_elements``, in order, or
      ``None`` when it is not given.

    Raises:
      ValueError: an op type that jaxsess does not know, a malformed node or
        attribute, an attribute TF's ``OpDef`` does not list or a required
        one missing, inputs that do not fit the op (count, dtype), a static
        input that depends on a fed value, a function the library lacks, a
        v1 frame or cond of a shape TF does not write, an ``input_map`` key
        or ``return_elements`` name not in the graph def (the message names
        the node and its op type).
      TypeError: ``graph_def`` is not a ``GraphDef``, or an ``input_map``
        value is not a ``Tensor``.
    """
    if not isinstance(graph_def, _tfproto.GraphDef):
        raise TypeError(f"graph_def must be a GraphDef proto, got {type(graph_def).__name__}.")
    if has_v1_control_flow(graph_def):  # TF1's frames: rewritten as control flow v2 (graph/_tf_frames)
        graph_def = functionalize(graph_def)
    library = FunctionLibrary.from_proto(graph_def.library) if graph_def.library.function else None
    # TF's op-set table reads GraphDefs TF wrote; jaxsess's own files keep its registry's mappings.
    use_table = graph_def.versions.producer != PRODUCER
    folded: dict[Tensor, np.ndarray] = {}
    graph = get_default_graph()
    if graph._is_eager:  # pragma: no cover - EagerSession is not a Graph
        raise RuntimeError("import_graph_def needs a graph.")
    mapped: dict[str, Tensor] = {}
    for k, v in (input_map or {}).items():
        if not isinstance(k, str):
            raise TypeError(f"input_map keys must be tensor names (strings), got {k!r:.60}.")
        t = getattr(v, "_as_graph_element", lambda v=v: v)()
        if not isinstance(t, Tensor):
            raise TypeError(f"input_map values must be Tensors, got {v!r:.60} for {k!r}.")
        if t.graph is not graph:
            raise ValueError(f"input_map value for {k!r} is not an element of the default graph.")
        mapped[_tensor_key(k)] = t
    if name is None:
        name = "import"
    if name:
        with graph.name_scope(name) as scope:
            prefix = scope
    else:
        prefix = ""
    tensors: dict[str, Tensor] = dict(mapped)
    ops: dict[str, Operation] = {}
    decoder = _Decoder(tensors, ops)
    used_map: set[str] = set()
    helpers: dict[str, str] = {}  # skipped helper node -> the node of the op it is a part of
    with graph.control_dependencies(None):
        for i, node in enumerate(_topological(graph_def)):
            if node.op == "Const" and node.attr["value"].tensor.dtype == _tfproto.types_pb2.DT_STRING:
                try:
                    value = _tfproto.tensor_proto_to_ndarray(node.attr["value"].tensor)
                except ValueError as e:
                    raise _bad_node(i, node.name, node.op, str(e)) from None
                # Kept as a value for ops that take it as a constant (summary tags),
                # and imported as a string Const (a host value) for other consumers.
                decoder.strings[node.name] = _StringConst(node.name, value)
            if _HELPER_ATTR in node.attr and PRIVATE_ATTRS not in node.attr:
                # a part of one of jaxsess's ops written as several TF nodes: read as that op
                helpers[node.name] = node.attr[_HELPER_ATTR].s.decode("utf-8", "replace")
                continue
            try:
                if node.op in VARIABLE_QUERIES and PRIVATE_ATTRS not in node.attr:
                    op = import_is_initialized(graph, node, prefix, decoder, mapped, used_map)
                elif reads_through_table(node, use_table, PRIVATE_ATTRS):
                    op = import_tf_node(graph, node, prefix, decoder, mapped, used_map, library, folded)
                else:
                    op = _import_node(graph, node, prefix, decoder, mapped, used_map)
            except ValueError as e:
                if str(e).startswith("Invalid graph def:"):
                    raise
                raise _bad_node(i, node.name, node.op, str(e)) from None
            except (TypeError, KeyError, AttributeError, IndexError, RecursionError) as e:
                raise _bad_node(i, node.name, node.op, f"{type(e).__name__}: {e}") from None
            ops[node.name] = op
            for t in op.outputs:
                key = f"{node.name}:{t.value_index}"
                if key not in mapped:
                    tensors[key] = t
    unused = sorted(set(mapped) - used_map)
    if unused:
        raise ValueError(f"Attempted to map inputs that were not found in graph_def: {unused}")
    if return_elements is None:
        return None
    out: list[Any] = []
    for r in return_elements:
        if not isinstance(r, str):
            raise TypeError(f"return_elements must be names (strings), got {r!r:.60}.")
        if ":" in r:
            t = tensors.get(r)
            if t is None:
                raise ValueError(f"Requested return_element {r!r} not found in graph_def.")
            out.append(t)
        else:
            found = ops.get(r) or ops.get(helpers.get(r, ""))
            if found is None:
                raise ValueError(f"Requested return_element {r!r} not found in graph_def.")
            out.append(found)
    return out


def _topological(graph_def: Any) -> list[Any]:
    """The nodes in an order where every input comes first (TF's files need not be sorted).

    Raises:
      ValueError: a cycle, or a duplicate node name (names the node).
    """
    by_name: dict[str, Any] = {}
    for node in graph_def.node:
        if node.name in by_name:
            raise ValueError(f"Invalid graph def: node '{node.name}' (op '{node.op}'): duplicate node name")
        by_name[node.name] = node
    order: list[Any] = []
    state: dict[str, int] = {}  # 1: visiting, 2: done
    for root in graph_def.node:
        if state.get(root.name):
            continue
        stack: list[tuple[Any, int]] = [(root, 0)]
        state[root.name] = 1
        while stack:
            node, k = stack.pop()
            deps = [s.lstrip("^").split(":")[0] for s in node.input]
            while k < len(deps) and (deps[k] not in by_name or state.get(deps[k]) == 2):
                k += 1
            if k == len(deps):
                state[node.name] = 2
                order.append(node)
                continue
            stack.append((node, k + 1))
            dep = by_name[deps[k]]
            if state.get(dep.name) == 1:
                raise ValueError(f"Invalid graph def: node '{dep.name}' (op '{dep.op}'): its inputs form a cycle")
            state[dep.name] = 1
            stack.append((dep, 0))
    return order


def _import_node(
    graph: Graph,
    node: Any,
    prefix: str,
    decoder: _Decoder,
    mapped: dict[str, Tensor],
    used_map: set[str],
) -> Operation:
    name, op_type = node.name, node.op
    if not _VALID_OP_NAME.match(name):
        raise ValueError(f"invalid node name {name!r:.80}")
    private = node.attr.get(PRIVATE_ATTRS) if PRIVATE_ATTRS in node.attr else None
    spec: Any = None
    if private is not None:
        try:
            spec = json.loads(private.s.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError) as e:
            raise ValueError(f"attribute '{PRIVATE_ATTRS}': not JSON ({type(e).__name__})") from None
        if not isinstance(spec, dict) or not isinstance(spec.get("op"), str) or not isinstance(spec.get("attrs"), dict):
            raise ValueError(f"attribute '{PRIVATE_ATTRS}': malformed")
        op_def = REGISTRY.get(spec["op"])
        if op_def is None:
            raise ValueError(f"op type '{spec['op']}' is not registered in jaxsess")
    else:
        op_def = tf_type_to_op(op_type)
        if op_def is None:
            raise ValueError(f"op type '{op_type}' is not registered in jaxsess")
    m = tf_op_def(op_def)
    assert m.from_tf is not None
    inputs: list[Tensor] = []
    controls: list[Operation] = []
    node_inputs = list(node.input)
    if spec is not None and "inputs" in spec:  # written as several TF nodes: the op's own inputs
        own = spec["inputs"]
        if not isinstance(own, list) or not all(isinstance(x, str) and not x.startswith("^") for x in own):
            raise ValueError(f"attribute '{PRIVATE_ATTRS}': malformed inputs")
        node_inputs = own + [x for x in node_inputs if x.startswith("^")]
    for s in node_inputs:
        if s.startswith("^"):
            controls.append(decoder.op(s[1:]))
            continue
        if controls:
            raise ValueError("control inputs ('^name') must come after the data inputs")
        key = _tensor_key(s)
        if key in mapped:
            used_map.add(key)
        string = decoder.strings.get(key[:-2]) if key.endswith(":0") else None
        inputs.append(string if string is not None else decoder.tensor(key))  # type: ignore[arg-type]
    n_const = m.n_const if spec is None else spec.get("n_const", 0)
    if not isinstance(n_const, int) or n_const < 0:
        raise ValueError(f"attribute '{PRIVATE_ATTRS}': malformed n_const")
    if n_const:
        if len(inputs) < n_const:
            raise ValueError(f"{op_type} takes {n_const} constant input(s) besides its data inputs; got {len(inputs)} inputs")
        inputs, const_inputs, _ = split_const_inputs(inputs, n_const, m.const_pos)
    else:
        const_inputs = []
    if spec is not None:
        attrs = {}
        for k, v in spec["attrs"].items():
            try:
                attrs[k] = decoder.decode(v)
            except (ValueError, TypeError) as e:
                raise ValueError(f"attribute '{k}': {e}") from None
            _note_mapped(v, mapped, used_map)
    else:
        tf_attrs = registry_tf_attrs(node.attr, m, bool(node.input))
        consts = []
        for t in const_inputs:
            if isinstance(t, _StringConst):
                consts.append(t.value)
                continue
            if t.op.type != "Const":
                raise ValueError(
                    f"input '{t.name}' must be a constant (jaxsess needs {op_type}'s "
                    f"{'last input' if m.n_const == 1 else f'last {m.n_const} inputs'} when the graph is built)"
                )
            consts.append(np.asarray(t.op.attrs["value"]))
        try:
            attrs = m.from_tf(tf_attrs, consts)
        except (ValueError, TypeError, KeyError, IndexError) as e:
            raise ValueError(f"attributes do not fit jaxsess's {op_def.type}: {type(e).__name__}: {e}") from None
    inputs = [decoder.tensor(t.name + ":0") if isinstance(t, _StringConst) else t for t in inputs]
    post = _POST_DECODE.get(op_def.type)
    if post is not None:
        post(attrs, inputs)
    for k, v in attrs.items():
        if _has_pending(v):
            raise ValueError(f"attribute '{k}': a treedef is only valid in an optimizer update")
    try:
        specs = infer_output_specs(op_def, inputs, attrs)
    except Exception as e:  # a shape error, a missing attribute: the node does not fit
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ValueError(f"its inputs and attributes do not fit the op: {type(e).__name__}: {msg}") from None
    for j, (shape, dtype) in enumerate(specs):
        if not isinstance(dtype, _dtypes.DType) or not isinstance(shape, TensorShape):
            raise ValueError(f"its attributes give output {j} no valid dtype and shape ({dtype!r:.40}, {shape!r:.40})")
    if spec is not None or node.op == m.op:  # not for TF's resource ops
        specs = refine_output_shapes(node, specs)
    ctx = graph.device(node.device) if node.device else contextlib.nullcontext()
    with ctx:
        op = graph._create_op(op_def, inputs, attrs, prefix + name + "/", specs, controls)
    note_op(graph, op)
    return op

