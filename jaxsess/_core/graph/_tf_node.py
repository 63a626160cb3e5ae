"""Generic TF nodes: a GraphDef node run by its lowering in TF's op-set table.

A node of a GraphDef written by TensorFlow whose op type has a lowering in
:data:`~jaxsess._core.graph._tf_opset.TF_LOWERINGS` is imported as one
graph op of a generic type (see :func:`node_kind`):

* ``TFNode`` — a stateless op;
* ``TFStatefulNode`` — a stateful op (its ``TFLowering.stateful``): it may
  read and assign variables through its ref/resource inputs;
* ``TFRandomNode`` — a stateful op with TF's ``seed``/``seed2`` attributes:
  it also has a draw counter (a state slot), as jaxsess's own random ops.

The op's attributes (``op.attrs``):

==================  ========================================================
``tf_op``           TF's op type (``'Reshape'``)
``tf_attrs``        TF's attributes by name, TF's defaults filled in from the
                    ``OpDef`` (see :func:`decode_attrs` for the value types)
``node_def``        the imported ``NodeDef``'s attributes, serialized (export
                    writes them back as they were)
``static_values``   ``{input index: np.ndarray}``: the static inputs
                    (``TFLowering.static_inputs``) folded when the graph was
                    imported; a static input missing here is folded when
                    the plan is traced (see below)
``var_refs``        the input positions that are TF ref/resource inputs
``var_writes``      the variables (``VariableV2`` ops) the op may assign
                    (every ref/resource input of a stateful op; the
                    lowering sees what :mod:`._lowering` expects of an
                    assign: see :class:`TFNodeContext`)
``library``         the :class:`FunctionLibrary` of the GraphDef (ops that
                    name functions: ``PartitionedCall``, ``If``, ``While``)
``seed``/``seed2``  a random op's seeds (TF's, or drawn at import when both
                    are 0: TF's "nondeterministic" seeding)
==================  ========================================================

**Static inputs, folded as Grappler would.** An input a lowering needs as
a host value (``Reshape``'s shape, ``Transpose``'s perm, ``Range``'s
bounds) is computed on the host from the sub-graph that produces it
(:func:`fold`): ``Const``, ``Shape``/``Size``/``Rank``/``ShapeN`` of inputs
whose shapes are known, and any stateless op (a ``TFNode``, or a registered
jaxsess op) of folded inputs, evaluated with its own lowering. At import
the known shapes are the static ones; when a shape is unknown there (a
batch dimension ``None``), the fold is deferred to the plan's trace, when
every shape is concrete (a plan is made per feed signature): so Keras'
``Reshape(x, Pack(StridedSlice(Shape(x)), ...))`` works for any batch. An
input that depends on a *value* (a placeholder, a variable, a stateful op)
cannot be folded: import raises ``ValueError`` naming the node, the input
and the op it depends on.

Imports: ``_core`` only (errors, dtypes, _tfproto and graph/ modules before this one).
"""

from __future__ import annotations

import math
import random as _pyrandom
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import jax
import jax.export  # a submodule that older `import jax` does not load
import jax.numpy as jnp
import numpy as np

from jaxsess._core import _tfproto as _tfproto, dtypes as _dtypes, errors as errors
from jaxsess._core.graph._graph import Operation, Tensor
from jaxsess._core.graph._registry import OutputSpec, _freeze, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._core.graph._tf_lists import is_pending
from jaxsess._core.graph._tf_opset import TF_LOWERINGS, TFLowering, tf_op_def

__all__ = [
    "TF_NODE_TYPES", "RESOURCE", "VARIANT", "TFFunction", "VarRef", "TFNodeContext", "FunctionLibrary",
    "NotFoldable", "decode_attrs", "decode_attr_value", "arg_counts", "arg_dtypes", "node_kind", "fold",
    "call_lowering", "is_tf_node",
]

TF_NODE = "TFNode"
TF_STATEFUL_NODE = "TFStatefulNode"
TF_RANDOM_NODE = "TFRandomNode"
TF_NODE_TYPES = frozenset({TF_NODE, TF_STATEFUL_NODE, TF_RANDOM_NODE})

RESOURCE = "resource"
"""The value of a type attribute that names TF's ``DT_RESOURCE`` (jaxsess has no such dtype)."""
VARIANT = "variant"
"""The value of a type attribute that names TF's ``DT_VARIANT`` (``TensorList``\\ s, datasets)."""
_SPECIAL_TYPES = {_tfproto.types_pb2.DT_RESOURCE: RESOURCE, _tfproto.types_pb2.DT_VARIANT: VARIANT}

# TensorArray ops' "flow" arguments (TF: a float scalar ordering the writes): here the array's contents.
_FLOW_ARGS = frozenset({"flow", "flow_in", "flow_out"})
# The ops whose value is a function of their inputs' shapes only.
_SHAPE_OPS = frozenset({"Shape", "Size", "Rank", "ShapeN"})


class TFFunction(NamedTuple):
    """A ``func`` attribute (TF's ``NameAttrList``): a function of the GraphDef's library."""

    name: str
    attrs: Mapping[str, Any]


def is_tf_node(op: Operation) -> bool:
    """Whether ``op`` is a generic TF node (imported through TF's op-set table)."""
    return op.type in TF_NODE_TYPES


# -- attributes -----------------------------------------------------------------------------------


def _decode_type(enum: int) -> _dtypes.DType | str:
    special = _SPECIAL_TYPES.get(enum)
    if special is None and enum > 100:
        special = _SPECIAL_TYPES.get(enum - 100)  # a *_REF of one
    if special is not None:
        return special
    return _tfproto.enum_to_dtype(enum)


def decode_attr_value(av: Any, kind: str) -> Any:
    """The Python value of ``av`` (an ``AttrValue``), an attribute of TF type ``kind``
    (``'int'``, ``'list(type)'``, ``'func'``...: the ``OpDef``'s ``attr.type``).

    Values: ``int``, ``float``, ``bool``, ``str`` (``bytes`` when not UTF-8),
    :class:`DType` (:data:`RESOURCE`/:data:`VARIANT` for TF's handle types),
    :class:`TensorShape`, ``np.ndarray`` (``tensor``), :class:`TFFunction`
    (``func``), and tuples of these for ``list(...)`` kinds.

    Raises:
      ValueError: a value that does not fit ``kind``, or a ``placeholder``
        (a function attribute left unresolved).
      TypeError: a dtype jaxsess has no type for (quantized types).
    """
    which = av.WhichOneof("value")
    if which == "placeholder":
        raise ValueError(f"an unresolved function attribute placeholder '{av.placeholder}'")
    if kind.startswith("list("):
        if which not in ("list", None):
            raise ValueError(f"a {which} value where TF's OpDef says {kind}")
        lst = av.list
        elem = kind[5:-1]
        if elem == "int":
            return tuple(int(x) for x in lst.i)
        if elem == "float":
            return tuple(float(x) for x in lst.f)
        if elem == "bool":
            return tuple(bool(x) for x in lst.b)
        if elem == "string":
            return tuple(_text(x) for x in lst.s)
        if elem == "type":
            return tuple(_decode_type(x) for x in lst.type)
        if elem == "shape":
            return tuple(TensorShape(_tfproto.proto_to_dims(x)) for x in lst.shape)
        if elem == "tensor":
            return tuple(_tfproto.tensor_proto_to_ndarray(x) for x in lst.tensor)
        if elem == "func":
            return tuple(TFFunction(f.name, _func_attrs(f)) for f in lst.func)
        raise ValueError(f"attribute kind {kind!r} is not supported")
    if which is None:
        raise ValueError(f"no value (TF's OpDef says {kind})")
    if kind == "func" and which == "func":
        return TFFunction(av.func.name, _func_attrs(av.func))
    if which == "s":
        return _text(av.s)
    if which == "i":
        return int(av.i)
    if which == "f":
        return float(av.f)
    if which == "b":
        return bool(av.b)
    if which == "type":
        return _decode_type(av.type)
    if which == "shape":
        return TensorShape(_tfproto.proto_to_dims(av.shape))
    if which == "tensor":
        return _tfproto.tensor_proto_to_ndarray(av.tensor)
    if which == "func":
        return TFFunction(av.func.name, _func_attrs(av.func))
    if which == "list":  # an empty list written for a scalar kind
        raise ValueError(f"a list where TF's OpDef says {kind}")
    raise ValueError(f"attribute values of kind {which!r} are not supported")


def _text(b: bytes) -> str | bytes:
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return bytes(b)


def _func_attrs(f: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, av in f.attr.items():
        which = av.WhichOneof("value")
        out[k] = av if which is None else decode_attr_value(av, "list(int)" if which == "list" and not (
            av.list.type or av.list.s or av.list.f or av.list.shape or av.list.b) else _kind_of(av))
    return out


def _kind_of(av: Any) -> str:
    which = av.WhichOneof("value")
    if which == "list":
        lst = av.list
        for k, name in (("type", "type"), ("s", "string"), ("f", "float"), ("shape", "shape"), ("b", "bool"),
                        ("tensor", "tensor"), ("func", "func")):
            if len(getattr(lst, k)):
                return f"list({name})"
        return "list(int)"
    return {"s": "string", "i": "int", "f": "float", "b": "bool", "type": "type", "shape": "shape",
            "tensor": "tensor", "func": "func"}.get(which or "", "string")


def decode_attrs(op_type: str, attr_map: Mapping[str, Any], op_def: Any | None = None) -> dict[str, Any]:
    """TF's attributes of a node of ``op_type`` (its ``NodeDef.attr`` map), with
    the defaults of TF's ``OpDef`` filled in.

    Attributes whose name starts with ``_`` (TF's private ones:
    ``_output_shapes``, ``_class``) are skipped.

    Raises:
      ValueError: an attribute the ``OpDef`` does not list, one it requires
        that is missing, or a malformed value (names the attribute).
    """
    op_def = op_def if op_def is not None else tf_op_def(op_type)
    if op_def is None:
        raise ValueError(f"op type '{op_type}' is not in TensorFlow's op registry")
    known = {a.name: a for a in op_def.attr}
    for k in attr_map:
        if not k.startswith("_") and k not in known:
            raise ValueError(
                f"attribute '{k}' is not an attribute of TF's {op_type} (its OpDef lists: "
                f"{', '.join(sorted(known)) or 'none'})")
    out: dict[str, Any] = {}
    for name, a in known.items():
        if name in attr_map:
            av = attr_map[name]
        elif a.HasField("default_value"):
            av = a.default_value
        else:
            raise ValueError(f"attribute '{name}' ({a.type}) is missing and TF's OpDef gives it no default")
        try:
            out[name] = decode_attr_value(av, a.type)
        except (ValueError, TypeError) as e:
            raise ValueError(f"attribute '{name}': {e}") from None
        if a.type == "int" and a.has_minimum and out[name] < a.minimum:
            raise ValueError(f"attribute '{name}' is {out[name]}, less than TF's minimum {a.minimum}")
    return out


def arg_counts(args: Sequence[Any], attrs: Mapping[str, Any]) -> list[int]:
    """How many tensors each of ``args`` (an ``OpDef``'s ``input_arg`` or ``output_arg``) stands
    for, given the node's attributes (``number_attr``, ``type_list_attr``)."""
    out = []
    for a in args:
        if a.number_attr:
            out.append(int(attrs[a.number_attr]))
        elif a.type_list_attr:
            out.append(len(attrs[a.type_list_attr]))
        else:
            out.append(1)
    return out


def arg_dtypes(args: Sequence[Any], attrs: Mapping[str, Any]) -> list[tuple[_dtypes.DType | str, bool]]:
    """The dtype of each tensor of ``args`` (flattened, as :func:`arg_counts`) and whether it
    is a ref (``is_ref``); :data:`RESOURCE`/:data:`VARIANT` for TF's handle types, and
    :data:`VARIANT` for a ``TensorArray``'s flow (its contents, see ``graph/_tf_frames``)."""
    out: list[tuple[_dtypes.DType | str, bool]] = []
    for a, n in zip(args, arg_counts(args, attrs)):
        if a.name in _FLOW_ARGS and a.type == _tfproto.types_pb2.DT_FLOAT:
            out.append((VARIANT, False))  # a TensorArray's flow: its contents here (graph/_tf_frames)
            continue
        if a.type_list_attr:
            out.extend((t, a.is_ref) for t in attrs[a.type_list_attr])
            continue
        t = attrs[a.type_attr] if a.type_attr else _decode_type(a.type)
        out.extend([(t, a.is_ref)] * n)
    return out


# -- function libraries ---------------------------------------------------------------------------


@dataclass(eq=False)
class FunctionLibrary:
    """A GraphDef's ``FunctionDefLibrary``: ``name -> FunctionDef`` (and gradients), compared by
    identity (one per imported GraphDef). Function bodies are lowered by
    :mod:`jaxsess._core.graph._tf_function`."""

    functions: dict[str, Any] = field(default_factory=dict)
    gradients: dict[str, str] = field(default_factory=dict)
    cache: dict[Any, Any] = field(default_factory=dict)

    @classmethod
    def from_proto(cls, lib: Any) -> FunctionLibrary:
        out = cls()
        for f in lib.function:
            out.functions[f.signature.name] = f
        for g in lib.gradient:
            out.gradients[g.function_name] = g.gradient_func
        return out

    def __hash__(self) -> int:
        return id(self)

    def get(self, name: str) -> Any:
        """The ``FunctionDef`` named ``name``.

        Raises:
          ValueError: none in the library (names it).
        """
        f = self.functions.get(name)
        if f is None:
            raise ValueError(f"function '{name}' is not in the GraphDef's function library")
        return f


# -- what a lowering sees -------------------------------------------------------------------------


@dataclass(frozen=True)
class VarRef:
    """A ref/resource input of a stateful op: the variable, for :class:`TFNodeContext`'s
    ``read_variable``/``assign_variable``.

    Attributes:
      index: the input's position among the node's inputs.
      name: the variable's op name (``'w'``).
      shape: the variable's static shape.
      dtype: the variable's dtype.
    """

    index: int
    name: str
    shape: TensorShape
    dtype: _dtypes.DType


class TFNodeContext:
    """What a TF lowering's ``ctx`` gives (``fn(ctx, inputs, attrs) -> outputs``).

    Attributes:
      name: the node's name (``'import/dense/MatMul'``), for errors.
      op_type: its TF op type (``'MatMul'``).
      seeds: a random op's ``(seed, seed2)`` (TF's attributes; drawn at
        import when both were 0); ``(0, 0)`` for other ops.
      seeded: whether the GraphDef gave a seed (``seed`` or ``seed2`` not 0):
        a lowering may then draw TF's Philox values (:meth:`rng_stream`).

    Methods (stateful lowerings):

    * ``read_variable(ref)``: the value of the variable of a ref/resource
      input (``inputs[i]`` is a :class:`VarRef` there), as this node sees
      it in the run (after an assign it is ordered after; after this
      node's own earlier ``assign_variable``);
    * ``assign_variable(ref, value)``: assigns it (checked against the
      variable's shape; cast to its dtype); returns the value. The
      variable's value after the node is the last value assigned;
    * ``rng_key(*seeds)``: a ``jax.random`` key for this node and run: the
      node's seeds (``seeds`` given are ignored: the node's own are used)
      and its draw counter (advanced every run, as jaxsess's random ops:
      a new session repeats the sequence). A stateful op without seed
      attributes gets a key of its node name (folded with the loop
      iteration inside loops);
    * ``rng_stream([seed, seed2,] n)``: where this node starts in TF's
      Philox stream for its seeds when it draws ``n`` values in this run
      (a ``uint32`` scalar: the values it drew in this session's earlier
      runs), for lowerings that reproduce TF's values (only for nodes
      with ``seed``/``seed2`` attributes);
    * ``function(f)``: the JAX function of a library function (``f``: a
      :class:`TFFunction` attribute value): ``fn(*args) -> list of
      outputs``, traceable inside ``lax.cond``/``lax.while_loop``;
    * ``host_input(i)``: input ``i`` folded on the host when it depends only
      on constants and shapes, else ``None`` (``While`` counts its trips
      with it to run as a reverse-differentiable scan);
    * ``error(message)``: an ``InvalidArgumentError`` naming the node and
      op (raise it).
    """

    name: str
    op_type: str
    seeds: tuple[int, int] = (0, 0)
    seeded: bool = False

    def read_variable(self, ref: VarRef) -> Any:
        raise self.error("reads a variable, which is not supported here")

    def assign_variable(self, ref: VarRef, value: Any) -> Any:
        raise self.error("assigns a variable, which is not supported here")

    def rng_key(self, *seeds: Any) -> Any:
        return jax.random.key(0)

    def rng_stream(self, *seeds_and_n: Any) -> Any:
        return np.uint32(0)

    def function(self, f: TFFunction) -> Callable[..., list[Any]]:
        raise self.error(f"calls function '{f.name}' without a function library")

    def host_input(self, i: int) -> np.ndarray | None:
        """Input ``i`` folded on the host (as static inputs are) when it depends only on
        constants and shapes, else ``None``; the lowering's own ``inputs[i]`` is unchanged."""
        return None

    def error(self, message: str) -> errors.OpError:
        return errors.InvalidArgumentError(self.name, None, f"node '{self.name}' (op '{self.op_type}'): {message}")


class _ShapeContext(TFNodeContext):
    """The context while output shapes are inferred (``jax.eval_shape``)."""

    def __init__(self, name: str, op_type: str, values: Sequence[Any], library: FunctionLibrary | None) -> None:
        self.name, self.op_type = name, op_type
        self._values = values
        self._writes: dict[int, Any] = {}
        self._library = library

    def read_variable(self, ref: VarRef) -> Any:
        return self._writes.get(ref.index, self._values[ref.index])

    def assign_variable(self, ref: VarRef, value: Any) -> Any:
        value = jnp.asarray(value, ref.dtype.np_dtype)
        self._writes[ref.index] = value
        return value

    def function(self, f: TFFunction) -> Callable[..., list[Any]]:
        return _function(self, f, self._library)


class _RunContext(TFNodeContext):
    """The context while a plan is traced: variables and randomness from the evaluator."""

    def __init__(self, ev: Any, op: Operation) -> None:
        self._ev = ev
        self._op = op
        self.name, self.op_type = op.name, op.attrs["tf_op"]
        if op.type == TF_RANDOM_NODE:
            self.seeds = (op.attrs["seed"], op.attrs["seed2"])
            self.seeded = bool(op.attrs["seeded"])
        self.writes: dict[Operation, Any] = {}

    def _var(self, ref: VarRef) -> Operation:
        if not isinstance(ref, VarRef):
            raise self.error(f"read_variable/assign_variable need a VarRef input, got {type(ref).__name__}")
        return self._op.inputs[ref.index].op

    def read_variable(self, ref: VarRef) -> Any:
        var = self._var(ref)
        if var in self.writes:
            return self.writes[var]
        return self._ev.read_var(self._op, var)

    def assign_variable(self, ref: VarRef, value: Any) -> Any:
        var = self._var(ref)
        value = self._ev.assign_var(None, var, value)
        self.writes[var] = value
        return value

    def rng_key(self, *seeds: Any) -> Any:
        if self._op.type != TF_RANDOM_NODE:
            return _derived_key(self._ev, self._op)
        return self._ev.rng_key(self._op)

    def rng_stream(self, *seeds_and_n: Any) -> Any:
        if self._op.type != TF_RANDOM_NODE:
            raise self.error("draws from TF's random stream but has no seed attributes")
        return self._ev.rng_stream(self._op, int(seeds_and_n[-1]))

    def function(self, f: TFFunction) -> Callable[..., list[Any]]:
        return _function(self, f, self._op.attrs.get("library"))

    def host_input(self, i: int) -> np.ndarray | None:
        try:
            return _fold_at_trace(self._ev, self._op, i)
        except errors.OpError:
            return None


def _derived_key(ev: Any, op: Operation) -> Any:
    key = jax.random.key(np.uint32(zlib.crc32(op.name.encode())))
    if getattr(ev, "fold", None) is not None:
        key = jax.random.fold_in(key, ev.fold)
    return key


_FUNCTION_LOWERER: list[Callable[[TFNodeContext, TFFunction, FunctionLibrary], Callable[..., list[Any]]]] = []


def _function(ctx: TFNodeContext, f: TFFunction, library: FunctionLibrary | None) -> Callable[..., list[Any]]:
    if library is None or not _FUNCTION_LOWERER:
        raise ctx.error(f"calls function '{f.name}' but the GraphDef has no function library")
    return _FUNCTION_LOWERER[0](ctx, f, library)


def set_function_lowerer(fn: Callable[[TFNodeContext, TFFunction, FunctionLibrary], Callable[..., list[Any]]]) -> None:
    """Installs how ``ctx.function(f)`` lowers a library function (``graph/_tf_function``)."""
    _FUNCTION_LOWERER[:] = [fn]


# -- calling a lowering -----------------------------------------------------------------------


def call_lowering(lw: TFLowering, ctx: TFNodeContext, inputs: Sequence[Any], attrs: Mapping[str, Any],
                  out_dtypes: Sequence[_dtypes.DType | str]) -> list[Any]:
    """Runs ``lw`` and checks what it returns: one value per TF output (``out_dtypes``: TF's
    dtypes, flattened), each cast to TF's dtype (handle types as they come).

    Raises:
      InvalidArgumentError: the lowering failed, or returned the wrong number of outputs
        (names the node and op).
    """
    try:
        outs = lw.fn(ctx, list(inputs), attrs)
    except errors.OpError:
        raise
    except Exception as e:
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        if not msg.startswith(f"node '{ctx.name}'"):  # the lowering's own error names the node already
            msg = f"{type(e).__name__} in node '{ctx.name}' (op '{ctx.op_type}'): {msg}"
        raise errors.InvalidArgumentError(ctx.name, None, msg) from e
    outs = list(outs) if isinstance(outs, list | tuple) else [outs]
    if len(outs) != len(out_dtypes):
        raise errors.InvalidArgumentError(
            ctx.name, None, f"node '{ctx.name}' (op '{ctx.op_type}'): its lowering returned {len(outs)} "
            f"output(s); TF's OpDef gives {len(out_dtypes)}")
    res = []
    for v, dt in zip(outs, out_dtypes):
        if (isinstance(dt, _dtypes.DType) and dt != _dtypes.string and getattr(v, "dtype", None) != dt.np_dtype
                and not is_pending(v)):  # a pending list is made by its first write
            v = jnp.asarray(v, dt.np_dtype)
        res.append(v)
    return res


def _out_dtypes(op: Operation) -> list[_dtypes.DType | str]:
    return list(op.attrs["out_dtypes"])


def _lower_tf_node(ev: Any, op: Operation, values: list[Any]) -> Any:
    """The plan's lowering of a generic TF node (``OpDef.lowering``)."""
    attrs = op.attrs
    tf_op = attrs["tf_op"]
    lw = TF_LOWERINGS.get(tf_op)
    if lw is None:  # pragma: no cover - the table lost an entry after import
        raise errors.InvalidArgumentError(op.name, op, f"node '{op.name}': no lowering for TF op type '{tf_op}'")
    inputs = list(values)
    for i in attrs["var_refs"]:
        inputs[i] = _var_ref(op, i)
    statics = attrs["static_values"]
    for i in static_positions(lw, len(inputs)):
        if i in statics:
            inputs[i] = statics[i]
        else:
            inputs[i] = _fold_at_trace(ev, op, i)
    ctx = _RunContext(ev, op)
    outs = call_lowering(lw, ctx, inputs, attrs["tf_attrs"], _out_dtypes(op))
    if attrs["var_writes"]:
        ev.assigned[op] = {var: ctx.writes[var] if var in ctx.writes else ev.read_var(op, var)
                           for var in attrs["var_writes"]}
    return outs[0] if len(outs) == 1 else tuple(outs)


class _nullcontext:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _var_ref(op: Operation, i: int) -> VarRef:
    var = op.inputs[i].op
    return VarRef(i, var.name, var.attrs["shape"], var.attrs["dtype"])


def _tf_node_impl(*args: Any, **attrs: Any) -> Any:
    """Shape inference's view of a generic TF node: the lowering on abstract values."""
    stateful = attrs["_stateful"]
    values = list(args[1:] if stateful else args)
    lw = TF_LOWERINGS[attrs["tf_op"]]
    inputs: list[Any] = list(values)
    for i in attrs["var_refs"]:
        v = values[i]
        inputs[i] = VarRef(i, f"input {i}", TensorShape(list(v.shape)), _dtypes.as_dtype(v.dtype))
    for i, v in attrs["static_values"].items():
        inputs[i] = v
    ctx = _ShapeContext(attrs["_name"], attrs["tf_op"], values, attrs.get("library"))
    outs = call_lowering(lw, ctx, inputs, attrs["tf_attrs"], attrs["out_dtypes"])
    return tuple(outs) if len(outs) != 1 else outs[0]


for _kind, _stateful, _random in ((TF_NODE, False, False), (TF_STATEFUL_NODE, True, False),
                                  (TF_RANDOM_NODE, True, True)):
    register_op(_kind, lowering=_lower_tf_node, graph_only=True, default_name=_kind, stateful=_stateful,
                random=_random, num_outputs=lambda attrs: len(attrs["out_dtypes"]))(_tf_node_impl)


def static_positions(lw: TFLowering, n_inputs: int) -> tuple[int, ...]:
    """``lw.static_inputs`` as positions among ``n_inputs`` inputs (negative ones count from the end)."""
    return tuple(i if i >= 0 else n_inputs + i for i in lw.static_inputs)


def node_kind(lw: TFLowering, attrs: Mapping[str, Any]) -> str:
    """The generic op type of a node with lowering ``lw`` and TF attributes ``attrs``."""
    if not lw.stateful:
        return TF_NODE
    if "seed" in attrs and "seed2" in attrs:
        return TF_RANDOM_NODE
    return TF_STATEFUL_NODE


def random_seeds(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """A random node's ``seed``/``seed2``/``seeded`` (TF: both 0 means seeds drawn when the op's
    kernel is made; here when the node is imported)."""
    s1, s2 = int(attrs["seed"]), int(attrs["seed2"])
    if s1 == 0 and s2 == 0:
        return {"seed": _pyrandom.randint(1, 2**31 - 1), "seed2": _pyrandom.randint(1, 2**31 - 1), "seeded": False}
    return {"seed": s1, "seed2": s2, "seeded": True}


_INFER_CACHE: dict[Any, list[OutputSpec]] = {}


def infer_specs(kind: str, name: str, inputs: Sequence[Tensor], attrs: dict[str, Any]) -> list[OutputSpec] | None:
    """Output shapes and dtypes of a generic TF node by one ``jax.eval_shape`` of its lowering
    (unknown dimensions symbolic); ``None`` (shapes unknown until the plan is traced) when a
    static input is not known yet, an input's rank is unknown, or unknown dimensions do not
    trace symbolically.

    Raises:
      Exception: the lowering's own error, when every input shape is known (names the node).
    """
    lw = TF_LOWERINGS[attrs["tf_op"]]
    if any(i not in attrs["static_values"] for i in static_positions(lw, len(inputs))):
        return None
    if any(t.shape.ndims is None or t.dtype == _dtypes.string for t in inputs):
        return None
    if lw.spec is not None and not attrs["var_refs"]:
        fast = _spec_shapes(lw, inputs, attrs)
        if fast is not None:
            return fast
    try:
        key: Any = (kind, attrs["tf_op"], tuple((t.shape.as_tuple(), t.dtype.name) for t in inputs),
                    _freeze(attrs["tf_attrs"]), _freeze(attrs["static_values"]), id(attrs.get("library")),
                    attrs["var_refs"])
        hash(key)
    except TypeError:
        key = None
    if key is not None and key in _INFER_CACHE:
        return _INFER_CACHE[key]
    probe = dict(attrs, _name=name, _stateful=kind != TF_NODE)
    wide = any(isinstance(d, _dtypes.DType) and _dtypes.is_64bit(d) for d in attrs["out_dtypes"]) or any(
        _dtypes.is_64bit(t.dtype) for t in inputs)
    known = all(t.shape.is_fully_defined() for t in inputs)
    args = []
    names = (f"_d{i}" for i in range(1_000_000))
    for t in inputs:
        dims = t.shape.as_list()
        if None in dims:
            sym = ", ".join(next(names) if d is None else str(d) for d in dims)
            shape: Any = jax.export.symbolic_shape(f"({sym},)" if len(dims) == 1 else f"({sym})")
        else:
            shape = tuple(dims)
        args.append(jax.ShapeDtypeStruct(shape, t.dtype.np_dtype))
    n_out = len(attrs["out_dtypes"])

    def trace(arg_specs: list[Any]) -> list[Any]:
        if kind == TF_NODE:
            out = jax.eval_shape(lambda *xs: _tf_node_impl(*xs, **probe), *arg_specs)
        else:
            out = jax.eval_shape(lambda *xs: _tf_node_impl(None, *xs, **probe), *arg_specs)
        return [out] if n_out == 1 else list(out)

    with _dtypes.x64_scope() if wide else _nullcontext():
        try:
            leaves = trace(args)
            res = [(TensorShape([d if isinstance(d, int) else None for d in v.shape]), _dtypes.as_dtype(v.dtype))
                   for v in leaves]
        except Exception:
            if known:
                raise
            # Unknown dims that do not trace symbolically (Reshape's -1 over them): two concrete
            # trials, the dims they agree on are known (as the registry's inference).
            trials = []
            for fill in (5, 7):
                try:
                    trials.append(trace([jax.ShapeDtypeStruct(tuple(fill if d is None else d for d in t.shape.as_list()),
                                                              t.dtype.np_dtype) for t in inputs]))
                except Exception:  # noqa: BLE001 - known only when the plan is traced
                    return None
            res = []
            for a, b in zip(*trials):
                same_rank = len(a.shape) == len(b.shape)
                res.append((TensorShape([x if x == y else None for x, y in zip(a.shape, b.shape)]) if same_rank
                            else TensorShape(None), _dtypes.as_dtype(a.dtype)))
    if key is not None:
        if len(_INFER_CACHE) > 100_000:
            _INFER_CACHE.clear()
        _INFER_CACHE[key] = res
    return res


def _spec_shapes(lw: TFLowering, inputs: Sequence[Tensor], attrs: dict[str, Any]) -> list[OutputSpec] | None:
    """The outputs by ``lw.spec`` (no trace), or ``None`` when it does not answer (or fails:
    the trace then raises the lowering's own error)."""
    dts = attrs["out_dtypes"]
    if not all(isinstance(d, _dtypes.DType) and d != _dtypes.string for d in dts):
        return None
    assert lw.spec is not None
    try:
        shapes = lw.spec([t.shape.as_tuple() for t in inputs], attrs["tf_attrs"], attrs["static_values"])
    except Exception:  # noqa: BLE001 - the trace decides (and raises the lowering's error)
        return None
    if shapes is None or len(shapes) != len(dts):
        return None
    return [(TensorShape(list(s)), d) for s, d in zip(shapes, dts)]


# -- folding on the host ------------------------------------------------------------------------


class NotFoldable(Exception):
    """A tensor's value is not known on the host.

    Attributes:
      op: the op that stops the fold.
      needs_shapes: it stops only for want of a shape known when the plan is traced
        (the fold can be deferred); else it depends on a value (a feed, a variable).
    """

    def __init__(self, op: Operation, why: str, needs_shapes: bool) -> None:
        super().__init__(why)
        self.op = op
        self.why = why
        self.needs_shapes = needs_shapes


ShapeOf = Callable[[Tensor], "tuple[int, ...] | None"]


def static_shape(t: Tensor) -> tuple[int, ...] | None:
    """``t``'s shape when it is fully known in the graph, else ``None``."""
    s = t.shape
    if not s.is_fully_defined():
        return None
    return tuple(int(d) for d in s.as_list())  # type: ignore[arg-type]


def fold(t: Tensor, shape_of: ShapeOf, memo: dict[Tensor, np.ndarray]) -> np.ndarray:
    """The value of ``t`` computed on the host, as TF's Grappler folds constants: ``Const``,
    ``Shape``/``Size``/``Rank``/``ShapeN`` of inputs whose shape ``shape_of`` knows, and
    stateless ops (generic TF nodes by their lowering, registered jaxsess ops by their
    implementation) of folded inputs.

    Raises:
      NotFoldable: the op that stops the fold, and why.
    """
    hit = memo.get(t)
    if hit is not None:
        return hit
    stack: list[Tensor] = [t]
    while stack:
        cur = stack[-1]
        if cur in memo:
            stack.pop()
            continue
        pending = [i for i in _fold_inputs(cur.op) if i not in memo]
        if pending:
            if len(stack) > 100_000:
                raise NotFoldable(cur.op, "the sub-graph is too deep to fold", False)
            stack.extend(pending)
            continue
        stack.pop()
        for k, v in enumerate(_fold_op(cur.op, shape_of, memo)):
            memo[cur.op.outputs[k]] = v
    return memo[t]


def _tf_type(op: Operation) -> str:
    return op.attrs["tf_op"] if op.type in TF_NODE_TYPES else op.type


def _fold_inputs(op: Operation) -> list[Tensor]:
    """The inputs whose values folding ``op`` needs (none for constants and shape ops)."""
    if op.type == "Const" or _tf_type(op) in _SHAPE_OPS:
        return []
    _check_foldable(op)
    return list(op.inputs)


def _check_foldable(op: Operation) -> None:
    od = op._op_def
    if op.type in TF_NODE_TYPES:
        lw = TF_LOWERINGS.get(op.attrs["tf_op"])
        if lw is None or lw.stateful or op.type != TF_NODE:
            raise NotFoldable(op, "it is stateful", False)
        return
    if op.type in ("Placeholder", "PlaceholderWithDefault"):
        raise NotFoldable(op, "it is fed", False)
    if op.type == "VariableV2":
        raise NotFoldable(op, "it is a variable", False)
    if od.stateful or od.graph_only or od.lowering is not None or od.ref_inputs:
        raise NotFoldable(op, "its value is computed only when the graph runs", False)


def _fold_op(op: Operation, shape_of: ShapeOf, memo: dict[Tensor, np.ndarray]) -> list[np.ndarray]:
    if op.type == "Const":
        return [np.asarray(op.attrs["value"])]
    tf_type = _tf_type(op)
    if tf_type in _SHAPE_OPS:
        shapes = []
        for x in op.inputs:
            s = shape_of(x)
            if s is None:
                raise NotFoldable(op, f"the shape of '{x.name}' ({x.shape.tf_str()}) is not known", True)
            shapes.append(s)
        dts = [o.dtype.np_dtype for o in op.outputs]
        if tf_type == "Shape" or tf_type == "ShapeN":
            return [np.asarray(s, dt) for s, dt in zip(shapes, dts)]
        if tf_type == "Size":
            return [np.asarray(math.prod(shapes[0]), dts[0])]
        return [np.asarray(len(shapes[0]), dts[0])]
    vals = [memo[i] for i in op.inputs]
    # Inputs go to the device by jax.device_put (a copy), not jnp.asarray: the same array, but
    # jnp.asarray compiles a conversion per new shape (20-60 ms each on a cold import).
    wide = any(_dtypes.is_64bit(x.dtype) for x in [*op.inputs, *op.outputs] if x.dtype != _dtypes.string)
    try:
        with _dtypes.x64_scope() if wide else _nullcontext(), jax.ensure_compile_time_eval():
            if op.type in TF_NODE_TYPES:
                lw = TF_LOWERINGS[op.attrs["tf_op"]]
                static = static_positions(lw, len(vals))
                inputs: list[Any] = [v if i in static or v.dtype == object else jax.device_put(v)
                                     for i, v in enumerate(vals)]
                ctx = TFNodeContext()
                ctx.name, ctx.op_type = op.name, op.attrs["tf_op"]
                outs = call_lowering(lw, ctx, inputs, op.attrs["tf_attrs"], _out_dtypes(op))
            else:
                res = op._op_def.impl(*[v if v.dtype == object else jax.device_put(v) for v in vals], **op.attrs)
                outs = [res] if len(op.outputs) == 1 else list(res)
            return [np.asarray(o, dtype=t.dtype.np_dtype) for o, t in zip(outs, op.outputs)]
    except NotFoldable:
        raise
    except Exception as e:  # noqa: BLE001 - the op does not run on these values: not folded
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise NotFoldable(op, f"folding it failed: {type(e).__name__}: {msg}", False) from None


def _fold_at_trace(ev: Any, op: Operation, i: int) -> np.ndarray:
    """Static input ``i`` of ``op`` folded while the plan is traced (every shape concrete)."""
    env = ev.env

    def shape_of(t: Tensor) -> tuple[int, ...] | None:
        v = env.get(t)
        if v is not None and hasattr(v, "shape"):
            return tuple(int(d) for d in v.shape)
        if t.op.type == "VariableV2":
            return tuple(int(d) for d in ev.read_var(op, t.op).shape)
        return static_shape(t)

    memo = ev.__dict__.setdefault("_tf_fold_memo", {})
    try:
        return fold(op.inputs[i], shape_of, memo)
    except NotFoldable as e:
        raise errors.InvalidArgumentError(op.name, op, static_input_error(op.name, op.attrs["tf_op"], i,
                                                                          op.inputs[i], e)) from None


def static_input_error(name: str, op_type: str, i: int, t: Tensor, e: NotFoldable) -> str:
    """The message for a static input that cannot be folded."""
    return (f"node '{name}' (op '{op_type}'): input {i} ('{t.name}') must be known before the graph runs "
            f"(TF's kernel needs it on the host), but it depends on '{e.op.name}' (op '{_tf_type(e.op)}'): {e.why}")
