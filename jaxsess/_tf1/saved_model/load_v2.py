"""TF2 SavedModels (``tf.saved_model.save``) loaded without TensorFlow, as ``tf.saved_model.load``.

A TF2 SavedModel holds one ``MetaGraphDef`` whose ``GraphDef`` calls the
model's concrete functions (``StatefulPartitionedCall`` nodes, the functions
in the graph's ``FunctionDefLibrary``) on the variables' handles
(``VarHandleOp``), a ``SavedObjectGraph`` (the Python objects that were
saved: user objects, variables, functions, their children by name) and an
object-based checkpoint ``variables/variables`` whose own object graph
(``_CHECKPOINTABLE_OBJECT_GRAPH``) lists each object's checkpoint keys,
node for node in the same order as the ``SavedObjectGraph``.

Loading reads the three: the graph's nodes that the signatures need are
imported into a fresh :class:`~jaxsess.Graph` (import lowers the function
library), a :class:`~jaxsess.Session` is made for it, and each variable
handle gets its value from the checkpoint (the handle a signature's call node
passes as its *k*-th captured input is the variable its concrete function's
``bound_inputs[k]`` names). The result is an object shaped like TF's: its
``signatures`` map keys to callables taking NumPy arrays by keyword and
returning a ``dict`` of NumPy arrays; its children (variables, nested
objects) are attributes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

import jax.numpy as jnp
import numpy as np
from tensorboard.compat.proto import trackable_object_graph_pb2

from jaxsess._core import _tfproto as _tfproto, dtypes as _dtypes
from jaxsess._core.graph._graph import Graph, Tensor
from jaxsess._core.graph._graph_def import import_graph_def
from jaxsess._core.runtime._graph_session import Session
from jaxsess._tf1.saved_model import constants, loader as _loader_v1
from jaxsess._tf1.saved_model.loader import read_saved_model
from jaxsess._tf1.saved_model.tag_constants import SERVING
from jaxsess._tf1.train._checkpoint import BundleReader, is_bundle

__all__ = ["LoadedModel", "LoadedVariable", "SavedFunction", "SignatureFunction", "is_tf2_saved_model", "load", "load_either"]

_OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
_VARIABLE_VALUE = "VARIABLE_VALUE"
_CALL_OPS = frozenset({"StatefulPartitionedCall", "PartitionedCall"})


def is_tf2_saved_model(export_dir: str) -> bool:
    """Whether ``export_dir`` holds a SavedModel written by TF2's ``tf.saved_model.save`` (its meta
    graph has an object graph), as opposed to TF1's ``SavedModelBuilder``."""
    try:
        saved = read_saved_model(export_dir)
    except (OSError, ValueError):
        return False
    return any(len(m.object_graph_def.nodes) for m in saved.meta_graphs)


class LoadedVariable:
    """A variable of a loaded SavedModel (TF's restored ``tf.Variable``): its name, dtype, shape and
    value as saved. ``numpy()`` returns the value a signature call now reads.

    Attributes:
      name: the variable's name as TF saved it (``"dense/kernel:0"``).
    """

    def __init__(self, name: str, value: np.ndarray, model: LoadedModel | None, handle: str | None) -> None:
        self.name = name if name.endswith(":0") else f"{name}:0"
        self._value = value
        self._model = model
        self._handle = handle

    @property
    def dtype(self) -> np.dtype[Any]:
        """The NumPy dtype of the value."""
        return self._value.dtype

    @property
    def shape(self) -> tuple[int, ...]:
        """The value's shape."""
        return tuple(self._value.shape)

    def numpy(self) -> np.ndarray:
        """The current value, a new NumPy array."""
        if self._model is not None and self._handle is not None:
            op = self._model.graph.get_operation_by_name(self._handle)
            return np.array(self._model.session.read(op))
        return np.array(self._value)

    def __repr__(self) -> str:
        return f"<LoadedVariable '{self.name}' shape={self.shape} dtype={self.dtype}>"


class SignatureFunction:
    """One signature of a loaded SavedModel (TF's ``ConcreteFunction`` under ``.signatures[key]``).

    Call it with NumPy arrays (or nested lists) by keyword, one per input name
    (``fn(x=np.ones((2, 5), np.float32))``); it returns ``{output name:
    np.ndarray}``, computed in the model's session.

    Attributes:
      name: the signature key (``"serving_default"``).
      inputs: ``{input name: (dtype, shape)}``, shapes with ``None`` for unknown dimensions.
      outputs: ``{output name: (dtype, shape)}``.
    """

    def __init__(self, model: LoadedModel, name: str, sig: Any) -> None:
        self._model = model
        self.name = name
        self._in = {k: v.name for k, v in sig.inputs.items()}
        self._out = {k: v.name for k, v in sig.outputs.items()}
        self.inputs = {k: _spec(v) for k, v in sorted(sig.inputs.items())}
        self.outputs = {k: _spec(v) for k, v in sorted(sig.outputs.items())}

    @property
    def structured_outputs(self) -> dict[str, tuple[np.dtype[Any], tuple[int | None, ...] | None]]:
        """The outputs' dtypes and shapes by name (as TF's ``structured_outputs``, without tensors)."""
        return dict(self.outputs)

    def __call__(self, *args: Any, **kwargs: Any) -> dict[str, np.ndarray]:
        """Runs the signature.

        Raises:
          TypeError: a positional argument, a missing or unknown input name (names them).
          ValueError: a value whose shape or dtype does not fit the input (from ``Session.run``).
        """
        if args:
            raise TypeError(f"signature '{self.name}' takes its inputs by keyword: {sorted(self._in)} "
                            f"(got {len(args)} positional)")
        missing = sorted(set(self._in) - set(kwargs))
        extra = sorted(set(kwargs) - set(self._in))
        if missing or extra:
            raise TypeError(f"signature '{self.name}' takes inputs {sorted(self._in)}; "
                            f"missing {missing}, unexpected {extra}")
        graph = self._model.graph
        feeds = {graph.get_tensor_by_name(self._in[k]): v for k, v in kwargs.items()}
        fetches = {k: graph.get_tensor_by_name(v) for k, v in self._out.items()}
        out: dict[str, np.ndarray] = self._model.session.run(fetches, feeds)
        return {k: np.asarray(v) for k, v in out.items()}

    def __repr__(self) -> str:
        ins = ", ".join(f"{k}: {d} {list(s) if s is not None else '?'}" for k, (d, s) in self.inputs.items())
        return f"<SignatureFunction '{self.name}'({ins}) -> {sorted(self.outputs)}>"


def _flat_specs(value: Any) -> list[Any]:
    """The ``TensorSpecProto`` s of a ``StructuredValue``, in ``tf.nest.flatten`` order (dict keys sorted)."""
    kind = value.WhichOneof("kind")
    if kind == "tensor_spec_value":
        return [value.tensor_spec_value]
    if kind in ("list_value", "tuple_value"):
        return [t for v in getattr(value, kind).values for t in _flat_specs(v)]
    if kind == "dict_value":
        return [t for k in sorted(value.dict_value.fields) for t in _flat_specs(value.dict_value.fields[k])]
    if kind == "named_tuple_value":
        return [t for v in value.named_tuple_value.values for t in _flat_specs(v.value)]
    return []


def _rebuild(value: Any, flat: Iterator[np.ndarray]) -> Any:
    """``flat`` packed into the structure ``value`` describes (TF's ``nest.pack_sequence_as``)."""
    kind = value.WhichOneof("kind")
    if kind == "tensor_spec_value":
        return next(flat)
    if kind == "list_value":
        return [_rebuild(v, flat) for v in value.list_value.values]
    if kind == "tuple_value":
        return tuple(_rebuild(v, flat) for v in value.tuple_value.values)
    if kind == "dict_value":
        fields = value.dict_value.fields
        return {k: _rebuild(fields[k], flat) for k in sorted(fields)}
    if kind == "named_tuple_value":
        return {v.key: _rebuild(v.value, flat) for v in value.named_tuple_value.values}
    return None


class SavedFunction:
    """A ``tf.function`` of a saved object (``loaded.score``), callable with NumPy arrays.

    Each call picks the first of its saved concrete functions whose input
    signature fits the arguments (count, dtype, known dimensions) and returns
    its outputs in the structure TF saved (a ``dict``, tuple, single array...)
    as NumPy arrays. Tensor arguments only (positional, or by their names).

    Raises (on call):
      TypeError: no saved concrete function takes these arguments (lists what they take).
    """

    def __init__(self, model: LoadedModel, name: str, concretes: list[str]) -> None:
        self._model = model
        self.name = name
        self._concretes = concretes

    def _arguments(self, cname: str) -> list[Any]:
        sig = self._model._object_graph.concrete_functions[cname].canonicalized_input_signature
        return _flat_specs(sig)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        tried = []
        for cname in self._concretes:
            specs = self._arguments(cname)
            by_name = {sp.name: i for i, sp in enumerate(specs)}
            values: list[Any] = list(args) + [None] * (len(specs) - len(args))
            if len(args) > len(specs) or any(k not in by_name or by_name[k] < len(args) for k in kwargs):
                tried.append(cname)
                continue
            for k, v in kwargs.items():
                values[by_name[k]] = v
            arrays = [None if v is None else np.asarray(v) for v in values]
            if all(a is not None and _fits(a, sp) for a, sp in zip(arrays, specs, strict=True)):
                return self._model._call_concrete(cname, [a for a in arrays if a is not None])
            tried.append(cname)
        takes = "; ".join(", ".join(f"{sp.name}: {_dtype_text(sp.dtype)} {_dims_text(sp.shape)}"
                                    for sp in self._arguments(c)) for c in self._concretes)
        raise TypeError(f"saved function '{self.name}' has no concrete function for these arguments; "
                        f"it takes ({takes})")

    def __repr__(self) -> str:
        return f"<SavedFunction '{self.name}' ({len(self._concretes)} concrete)>"


def _fits(array: np.ndarray, spec: Any) -> bool:
    try:
        want = np.dtype(_tfproto.enum_to_dtype(spec.dtype).np_dtype)
    except TypeError:
        return False
    dims = _tfproto.proto_to_dims(spec.shape)
    if dims is not None and (len(dims) != array.ndim or any(d is not None and d != n for d, n in zip(dims, array.shape,
                                                                                                       strict=True))):
        return False
    return array.dtype == want or (array.dtype.kind == want.kind == "f")


def _dtype_text(enum: int) -> str:
    try:
        return _tfproto.enum_to_dtype(enum).name
    except TypeError:
        return f"DataType({enum})"


def _dims_text(shape: Any) -> str:
    dims = _tfproto.proto_to_dims(shape)
    return "<unknown rank>" if dims is None else "[" + ", ".join("?" if d is None else str(d) for d in dims) + "]"


def _spec(info: Any) -> tuple[np.dtype[Any], tuple[int | None, ...] | None]:
    try:
        dtype = np.dtype(_tfproto.enum_to_dtype(info.dtype).np_dtype)
    except TypeError:
        dtype = np.dtype(object)
    dims = _tfproto.proto_to_dims(info.tensor_shape) if info.HasField("tensor_shape") else None
    return dtype, (tuple(dims) if dims is not None else None)


class _Signatures(Mapping[str, SignatureFunction]):
    def __init__(self, fns: dict[str, SignatureFunction]) -> None:
        self._fns = fns

    def __getitem__(self, key: str) -> SignatureFunction:
        try:
            return self._fns[key]
        except KeyError:
            raise KeyError(f"no signature {key!r}; the SavedModel has {sorted(self._fns)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._fns)

    def __len__(self) -> int:
        return len(self._fns)

    def __repr__(self) -> str:
        return f"_SignatureMap({sorted(self._fns)})"


class _UserObject:
    """A saved user object (``tf.Module``, a Keras layer...): its saved children are attributes."""

    def __repr__(self) -> str:
        names = sorted(k for k in vars(self) if not k.startswith("_"))
        return f"<_UserObject {names}>"


class LoadedModel(_UserObject):
    """What :func:`load` returns, as TF's loaded ``AutoTrackable``.

    Attributes:
      signatures: ``{key: SignatureFunction}`` (``"serving_default"``...).
      variables: every variable the SavedModel saved (:class:`LoadedVariable`).
      graph: the :class:`~jaxsess.Graph` the signatures run in.
      session: the :class:`~jaxsess.Session` holding the variables; ``close()`` frees it.
      tensorflow_version: the TF version that wrote the SavedModel.
    """

    signatures: _Signatures
    variables: list[LoadedVariable]
    graph: Graph
    session: Any
    tensorflow_version: str

    _object_graph: Any
    _graph_def: Any
    _handle_of: dict[int, str]
    _value_of: Any
    _calls: dict[str, tuple[list[Tensor], list[Tensor]]]

    def _call_concrete(self, cname: str, arrays: list[np.ndarray]) -> Any:
        """Runs saved concrete function ``cname`` on ``arrays`` (imported on first use: placeholders,
        the variables it captures, one ``StatefulPartitionedCall``), outputs in TF's structure."""
        if cname not in self._calls:
            self._calls[cname] = self._import_call(cname)
        ins, outs = self._calls[cname]
        values = self.session.run(outs, dict(zip(ins, arrays, strict=True)))
        structure = self._object_graph.concrete_functions[cname].output_signature
        return _rebuild(structure, iter(np.asarray(v) for v in values))

    def _import_call(self, cname: str) -> tuple[list[Tensor], list[Tensor]]:
        fn = self._object_graph.concrete_functions[cname]
        fdef = next(f for f in self._graph_def.library.function if f.signature.name == cname)
        specs = _flat_specs(fn.canonicalized_input_signature)
        args = list(fdef.signature.input_arg)
        n_user = len(args) - len(fn.bound_inputs)
        if n_user != len(specs):
            raise ValueError(f"concrete function '{cname}': {len(specs)} tensor arguments saved, "
                             f"{n_user} in its FunctionDef")
        gd = _tfproto.GraphDef()
        gd.versions.CopyFrom(self._graph_def.versions)
        call = gd.node.add(name="call", op="StatefulPartitionedCall")
        input_map: dict[str, Tensor] = {}
        new_vars: dict[str, int] = {}
        for i, arg in enumerate(args):
            if i < n_user:
                node = gd.node.add(name=f"input_{i}", op="Placeholder")
                node.attr["dtype"].type = arg.type
                node.attr["shape"].shape.CopyFrom(specs[i].shape)
                call.input.append(node.name)
                continue
            node_id = fn.bound_inputs[i - n_user]
            handle = self._handle_of.get(node_id)
            name = f"captured_{node_id}"
            node = gd.node.add(name=name, op="VarHandleOp")
            data = arg.handle_data[0] if len(arg.handle_data) else None
            value = self._value_of(node_id)
            node.attr["dtype"].type = data.dtype if data is not None else _tfproto.dtype_to_enum(
                _dtypes.as_dtype(value.dtype))
            node.attr["shape"].shape.CopyFrom(_tfproto.shape_to_proto(list(value.shape)))
            node.attr["shared_name"].s = name.encode()
            if handle is not None:
                input_map[f"{name}:0"] = self.graph.get_tensor_by_name(f"{handle}:0")
            else:
                new_vars[name] = node_id
            call.input.append(name)
        call.attr["f"].func.name = cname
        call.attr["Tin"].list.type.extend(a.type for a in args)
        call.attr["Tout"].list.type.extend(a.type for a in fdef.signature.output_arg)
        for key in ("config", "config_proto", "executor_type"):
            call.attr[key].s = b""
        library = _prune(self._graph_def, set(), functions={cname}).library
        gd.library.CopyFrom(library)
        prefix = f"__call_{len(self._calls)}_{cname}"
        with self.graph.as_default():
            import_graph_def(gd, input_map=input_map, name=prefix)
        for name, node_id in new_vars.items():
            self.session.assign(self.graph.get_operation_by_name(f"{prefix}/{name}"),
                                _device_value(self._value_of(node_id)))
        ins = [self.graph.get_tensor_by_name(f"{prefix}/input_{i}:0") for i in range(n_user)]
        outs = [self.graph.get_tensor_by_name(f"{prefix}/call:{k}") for k in range(len(fdef.signature.output_arg))]
        return ins, outs

    def close(self) -> None:
        """Closes the session (frees the device memory of the variables)."""
        self.session.close()

    def __enter__(self) -> LoadedModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _pick_meta(saved: Any, tags: Any, export_dir: str) -> Any:
    metas = list(saved.meta_graphs)
    if tags is None:
        if len(metas) == 1:
            return metas[0]
        tags = [SERVING]
    want = {tags} if isinstance(tags, str) else set(tags)
    for m in metas:
        if set(m.meta_info_def.tags) == want:
            return m
    available = [sorted(m.meta_info_def.tags) for m in metas]
    raise RuntimeError(f"MetaGraphDef associated with tags {sorted(want)} could not be found in SavedModel "
                       f"{export_dir}, with available tags {available}.")


def _node_name(tensor_name: str) -> str:
    name = tensor_name[1:] if tensor_name.startswith("^") else tensor_name
    return name.split(":")[0]


def _func_names(attr: Any) -> Iterator[str]:
    if attr.HasField("func"):
        yield attr.func.name
    if attr.HasField("list"):
        for f in attr.list.func:
            yield f.name


def _prune(graph_def: Any, roots: set[str], functions: set[str] = frozenset()) -> Any:  # type: ignore[assignment]
    """The nodes ``roots`` need (inputs and control inputs, transitively) and the library functions
    they call, transitively: the saver's nodes and functions (``SaveV2``, ``RestoreV2``) are left out."""
    by_name = {n.name: n for n in graph_def.node}
    keep: set[str] = set()
    stack = [r for r in roots if r in by_name]
    while stack:
        name = stack.pop()
        if name in keep:
            continue
        keep.add(name)
        stack.extend(i for i in (_node_name(x) for x in by_name[name].input) if i in by_name and i not in keep)
    funcs = {f.signature.name: f for f in graph_def.library.function}
    used: set[str] = set()
    fstack = [f for n in graph_def.node if n.name in keep for a in n.attr.values() for f in _func_names(a)]
    fstack.extend(functions)
    while fstack:
        fname = fstack.pop()
        if fname in used or fname not in funcs:
            continue
        used.add(fname)
        fstack.extend(f for nd in funcs[fname].node_def for a in nd.attr.values() for f in _func_names(a))
        fstack.extend(f for a in funcs[fname].attr.values() for f in _func_names(a))
    out = _tfproto.GraphDef()
    out.versions.CopyFrom(graph_def.versions)
    out.node.extend(n for n in graph_def.node if n.name in keep)
    out.library.function.extend(f for f in graph_def.library.function if f.signature.name in used)
    out.library.gradient.extend(g for g in graph_def.library.gradient if g.function_name in used)
    return out


def _checkpoint_keys(reader: BundleReader | None) -> list[dict[str, str]]:
    """Per object-graph node: ``{attribute name: checkpoint key}``."""
    if reader is None or not reader.has_tensor(_OBJECT_GRAPH_KEY):
        return []
    og = trackable_object_graph_pb2.TrackableObjectGraph.FromString(reader.get_tensor(_OBJECT_GRAPH_KEY).item())
    return [{a.name: a.checkpoint_key for a in n.attributes} for n in og.nodes]


def load(export_dir: str | os.PathLike[str], tags: str | list[str] | None = None, options: Any = None) -> LoadedModel:
    """Loads a TF2 SavedModel, as ``tf.saved_model.load`` (TF 2's; under TF1 ``tf.compat.v2.saved_model.load``).

    Args:
      export_dir: the SavedModel directory (``saved_model.pb``, ``variables/``).
      tags: the meta graph's tags (default: the only one, else ``"serve"``).
      options: accepted for compatibility and ignored.

    Returns:
      A :class:`LoadedModel`: ``loaded.signatures["serving_default"](x=array)`` returns
      ``{output name: np.ndarray}``; the saved object's children (variables, nested objects)
      are attributes.

    Raises:
      OSError: no SavedModel in ``export_dir``.
      RuntimeError: no meta graph with ``tags``.
      ValueError: a SavedModel written by TF1 (load it with
        ``tf.compat.v1.saved_model.loader.load``); a node or function of an op jaxsess cannot
        lower (named by import); a variable the checkpoint lacks (names it).
    """
    export_dir = os.fsdecode(os.fspath(export_dir))
    saved = read_saved_model(export_dir)
    meta = _pick_meta(saved, tags, export_dir)
    og = meta.object_graph_def
    if not len(og.nodes):
        raise ValueError(f"{export_dir} is a TF1 SavedModel (no object graph): load it into a session with "
                         "tf.compat.v1.saved_model.loader.load(sess, tags, export_dir)")
    prefix = os.path.join(export_dir, constants.VARIABLES_DIRECTORY, constants.VARIABLES_FILENAME)
    reader = BundleReader(prefix) if is_bundle(prefix) else None
    keys = _checkpoint_keys(reader)

    def value_of(node_id: int) -> np.ndarray:
        key = keys[node_id].get(_VARIABLE_VALUE) if node_id < len(keys) else None
        if reader is None or key is None or not reader.has_tensor(key):
            name = og.nodes[node_id].variable.name
            raise ValueError(f"variable '{name}' (object {node_id}) has no value in the checkpoint {prefix}")
        return reader.get_tensor(key)

    sigs = {k: v for k, v in meta.signature_def.items() if k != constants.INIT_OP_SIGNATURE_KEY}
    roots = {_node_name(t.name) for s in sigs.values() for t in list(s.outputs.values()) + list(s.inputs.values())}
    graph_def = _prune(meta.graph_def, roots)
    by_name = {n.name: n for n in graph_def.node}
    # the handle each call node passes as its k-th captured input is bound_inputs[k] of its function
    handle_of: dict[int, str] = {}
    for n in graph_def.node:
        if n.op not in _CALL_OPS:
            continue
        fn = og.concrete_functions.get(n.attr["f"].func.name)
        if fn is None or not fn.bound_inputs:
            continue
        captured = [_node_name(i) for i in n.input if not i.startswith("^")][-len(fn.bound_inputs):]
        for node_id, handle in zip(fn.bound_inputs, captured, strict=True):
            if handle in by_name and by_name[handle].op == "VarHandleOp":
                handle_of[node_id] = handle
    unbound = [n.name for n in graph_def.node if n.op == "VarHandleOp" and n.name not in handle_of.values()]
    if unbound:
        raise ValueError(f"SavedModel {export_dir}: variable handles {unbound} are not captured inputs of any "
                         "saved concrete function; jaxsess cannot tell which saved variable they are")

    graph = Graph()
    with graph.as_default():
        import_graph_def(graph_def, name="")
    session = Session(graph=graph)
    model = LoadedModel()
    model.graph = graph
    model.session = session
    model.tensorflow_version = str(meta.meta_info_def.tensorflow_version)
    model._object_graph = og
    model._graph_def = meta.graph_def
    model._handle_of = handle_of
    model._value_of = value_of
    model._calls = {}
    try:
        for node_id, handle in handle_of.items():
            op = graph.get_operation_by_name(handle)
            value = value_of(node_id)
            want = tuple(op.outputs[0].shape.as_list()) if op.outputs[0].shape.rank is not None else None
            if want is not None and None not in want and tuple(value.shape) != want:
                raise ValueError(f"variable handle '{handle}': the checkpoint's value has shape {value.shape}, "
                                 f"the graph's {want}")
            session.assign(op, _device_value(value))
    except BaseException:
        session.close()
        raise

    objects: dict[int, Any] = {0: model}
    variables: list[LoadedVariable] = []
    for i, node in enumerate(og.nodes):
        kind = node.WhichOneof("kind")
        if i == 0:
            continue
        if kind == "variable":
            v = LoadedVariable(node.variable.name or f"variable_{i}", value_of(i) if reader else np.zeros(()),
                               model, handle_of.get(i))
            objects[i] = v
            variables.append(v)
        elif kind == "user_object":
            objects[i] = _UserObject()
        elif kind == "function" and node.function.concrete_functions:
            objects[i] = SavedFunction(model, "", list(node.function.concrete_functions))
    for i, node in enumerate(og.nodes):
        parent = objects.get(i)
        if not isinstance(parent, _UserObject):
            continue
        for child in node.children:
            obj = objects.get(child.node_id)
            name = child.local_name
            if obj is not None and name.isidentifier() and name not in ("signatures", "variables", "graph",
                                                                        "session", "close"):
                if isinstance(obj, SavedFunction) and not obj.name:
                    obj.name = name
                setattr(parent, name, obj)
    model.variables = variables
    model.signatures = _Signatures({k: SignatureFunction(model, k, s) for k, s in sorted(sigs.items())})
    return model


def _device_value(value: np.ndarray) -> Any:
    dt = _dtypes.as_dtype(value.dtype)
    with _dtypes.x64_scope(dt):
        return jnp.asarray(value)


def signature_tensors(model: LoadedModel, key: str) -> tuple[dict[str, Tensor], dict[str, Tensor]]:
    """The graph tensors of signature ``key``: ``({input name: placeholder}, {output name: tensor})``."""
    fn = model.signatures[key]
    graph = model.graph
    return ({k: graph.get_tensor_by_name(v) for k, v in fn._in.items()},
            {k: graph.get_tensor_by_name(v) for k, v in fn._out.items()})


def load_either(*args: Any, **kwargs: Any) -> Any:
    """``saved_model.load`` as both TFs spell it: ``load(sess, tags, export_dir, ...)`` (TF1's
    :func:`jaxsess.saved_model.loader.load`, returns the ``MetaGraphDef``) when the first argument
    is a session (or ``sess=`` is given), else ``load(export_dir, tags=None, options=None)``
    (TF2's, :func:`load`: returns a :class:`LoadedModel`)."""
    first = args[0] if args else kwargs.get("sess", kwargs.get("export_dir"))
    if "sess" in kwargs or (args and hasattr(first, "run") and hasattr(first, "graph")):
        return _loader_v1.load(*args, **kwargs)
    return load(*args, **kwargs)
