"""Function libraries: a GraphDef's ``FunctionDef``\\ s lowered as JAX functions.

TF 2.x writes ``tf.function`` calls and control flow v2 as nodes that name
functions of the GraphDef's ``library``: ``PartitionedCall``/
``StatefulPartitionedCall`` (``f``), ``If``/``StatelessIf``
(``then_branch``, ``else_branch``), ``Case``/``StatelessCase``
(``branches``), ``While``/``StatelessWhile`` (``cond``, ``body``). This
module registers their lowerings in TF's op-set table
(:data:`~jaxsess._core.graph._tf_opset.TF_LOWERINGS`) and installs how a
lowering's ``ctx.function(f)`` turns a function into a JAX function
(:func:`function_of`):

* a function body is interpreted when it is traced: its ``node_def``\\ s in
  dependency order, each by its lowering in TF's table (TF's attributes
  with the ``OpDef``'s defaults, placeholders ``$T`` resolved from the
  call's ``func`` attributes), else by jaxsess's registered op of that TF
  type (its ``TFOp`` mapping, constant inputs folded); a node whose op type
  is a library function is a call of it;
* constants are folded on the host as at import (``Const``, ``Shape``/
  ``Size``/``Rank``/``ShapeN`` — every shape is concrete while tracing — and
  stateless ops of folded values), so static inputs inside bodies work;
* ``If`` → ``lax.cond`` (a condition folded on the host picks its branch at
  trace time), ``Case`` → ``lax.switch`` (an index out of range runs the
  last branch, as TF), ``While`` → ``lax.while_loop`` (loop variables keep
  their shapes and dtypes: TF's ``shape_invariants`` that let a shape
  change are refused, naming the node), a call → the body inline;
* a resource argument of a call is the caller's variable: ``ReadVariableOp``
  and ``Assign*VariableOp`` in the body read and assign it (assigning is
  refused inside ``If``/``Case``/``While`` bodies); random ops in bodies get
  keys folded from the calling node's key (and the loop iteration).

Errors name the calling node, the function and the body node.

Imports: ``_core`` only (graph/ modules before this one).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxsess._core import _tfproto as _tfproto, dtypes as _dtypes, errors as errors
from jaxsess._core.graph._node_def import registry_tf_attrs, split_const_inputs
from jaxsess._core.graph._registry import tf_op_def as registry_tf_op, tf_type_to_op
from jaxsess._core.graph._tf_lists import is_pending
from jaxsess._core.graph._tf_node import (
    VARIANT,
    FunctionLibrary,
    TFFunction,
    TFNodeContext,
    VarRef,
    arg_counts,
    arg_dtypes,
    call_lowering,
    decode_attrs,
    set_function_lowerer,
    static_positions,
)
from jaxsess._core.graph._tf_opset import TF_LOWERINGS, register_tf_lowering, tf_op_def

__all__ = ["function_of", "output_deps", "calls_random", "CALL_OPS"]

CALL_OPS = frozenset({"PartitionedCall", "StatefulPartitionedCall", "If", "StatelessIf", "Case", "StatelessCase",
                      "While", "StatelessWhile"})
"""The TF op types this module lowers (the import engine owns them)."""

_SHAPE_OPS = frozenset({"Shape", "Size", "Rank", "ShapeN"})
_VARIABLE_BODY_OPS = frozenset({"ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"})
_ASSIGNING = ("Assign", "Apply", "ResourceApply", "ScatterAdd", "ScatterSub", "ScatterUpdate", "ResourceScatter")
_PASS_THROUGH = frozenset({"Identity", "IdentityN", "StopGradient", "Snapshot", "PreventGradient"})


class _BodyContext(TFNodeContext):
    """The ``ctx`` of a node inside a function body: the caller's variables and randomness."""

    def __init__(self, parent: TFNodeContext, fname: str, node_name: str, op_type: str, library: FunctionLibrary,
                 in_control_flow: bool, fold: Any = None) -> None:
        self.parent = parent
        self.name = f"{parent.name}/{fname}/{node_name}"
        self.op_type = op_type
        self.library = library
        self.in_control_flow = in_control_flow
        self.fold = fold

    def read_variable(self, ref: VarRef) -> Any:
        if not isinstance(ref, VarRef):
            raise self.error("reads a resource that is not a variable of the caller")
        return self.parent.read_variable(ref)

    def assign_variable(self, ref: VarRef, value: Any) -> Any:
        if not isinstance(ref, VarRef):
            raise self.error("assigns a resource that is not a variable of the caller")
        if self.in_control_flow:
            raise self.error(f"assigns variable '{ref.name}' inside an If/Case/While body, which jaxsess "
                             "does not support")
        return self.parent.assign_variable(ref, value)

    def rng_key(self, *seeds: Any) -> Any:
        key = jax.random.fold_in(self.parent.rng_key(), np.uint32(zlib.crc32(self.name.encode())))
        if self.fold is not None:
            key = jax.random.fold_in(key, self.fold)
        return key

    def rng_stream(self, *seeds_and_n: Any) -> Any:
        """The calling node's place in its stream: a body's seeded random op draws TF's stream
        for its own seeds from where the call's counter is (TF's per-op stream state is not kept)."""
        try:
            return self.parent.rng_stream(*seeds_and_n)
        except errors.OpError:
            return np.uint32(0)

    def function(self, f: TFFunction) -> Callable[..., list[Any]]:
        return function_of(self, f, self.library)


def function_of(ctx: TFNodeContext, f: TFFunction, library: FunctionLibrary,
                in_control_flow: bool = False, fold: Any = None,
                wanted: frozenset[int] | None = None) -> Callable[..., list[Any]]:
    """The JAX function of library function ``f`` called by the node of ``ctx``:
    ``fn(*args) -> list of outputs`` (its ``signature``'s output args in order;
    given ``wanted``, only those outputs are computed, the others are ``None``).

    Raises:
      ValueError: ``f`` is not in ``library`` (at the call: an ``InvalidArgumentError`` naming the node).
    """
    try:
        fdef = library.get(f.name)
    except ValueError as e:
        raise ctx.error(str(e)) from None

    def fn(*args: Any) -> list[Any]:
        return _run_body(ctx, f, fdef, library, list(args), in_control_flow, fold, wanted)

    return fn


def _order(fdef: Any) -> list[Any]:
    """The body's nodes in dependency order (TF does not sort them)."""
    by_name = {n.name: n for n in fdef.node_def}
    order: list[Any] = []
    state: dict[str, int] = {}
    for root in fdef.node_def:
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
                raise ValueError(f"function '{fdef.signature.name}': node '{dep.name}' (op '{dep.op}'): its inputs "
                                 "form a cycle")
            state[dep.name] = 1
            stack.append((dep, 0))
    return order


def _needed_nodes(fdef: Any, refs: Sequence[str]) -> set[str]:
    """The body nodes that the tensors ``refs`` depend on (data inputs; nodes that assign variables always)."""
    by_name = {n.name: n for n in fdef.node_def}
    todo = [r.split(":")[0] for r in refs if r]
    todo += [n.name for n in fdef.node_def if n.op in _VARIABLE_BODY_OPS or n.op.startswith(_ASSIGNING)]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        todo.extend(i.split(":")[0] for i in by_name[name].input if not i.startswith("^"))
    return seen


def calls_random(attrs: Mapping[str, Any], library: FunctionLibrary) -> bool:
    """Whether a node with these attributes calls, directly or not, a library function holding a
    stateful random op (a stateful lowering with ``seed``/``seed2`` attributes)."""
    todo = [f.name for v in attrs.values() for f in (v if isinstance(v, tuple) and not isinstance(v, TFFunction)
                                                      else (v,)) if isinstance(f, TFFunction)]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in library.functions:
            continue
        seen.add(name)
        hit = library.cache.get(("random", name))
        if hit is None:
            hit = False
            for n in library.functions[name].node_def:
                lw = TF_LOWERINGS.get(n.op)
                op_def = tf_op_def(n.op)
                if lw is not None and lw.stateful and op_def is not None and {"seed", "seed2"} <= {
                        a.name for a in op_def.attr}:
                    hit = True
                if n.op in library.functions:
                    todo.append(n.op)
                for av in n.attr.values():
                    if av.WhichOneof("value") == "func":
                        todo.append(av.func.name)
                    elif av.WhichOneof("value") == "list":
                        todo.extend(f.name for f in av.list.func)
            library.cache[("random", name)] = hit
        if hit:
            return True
    return False


def output_deps(library: FunctionLibrary, fname: str) -> list[frozenset[int]]:
    """For each output of function ``fname``, the arguments it depends on (through data inputs)."""
    key = ("deps", fname)
    hit = library.cache.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    fdef = library.get(fname)
    arg_index = {a.name: k for k, a in enumerate(fdef.signature.input_arg)}
    by_name = {n.name: n for n in fdef.node_def}
    memo: dict[str, frozenset[int]] = {}

    def deps(name: str) -> frozenset[int]:
        if name in arg_index:
            return frozenset({arg_index[name]})
        if name in memo:
            return memo[name]
        out: set[int] = set()
        stack, seen = [name], set()
        while stack:
            cur = stack.pop()
            if cur in seen:
                continue
            seen.add(cur)
            if cur in arg_index:
                out.add(arg_index[cur])
                continue
            node = by_name.get(cur)
            if node is not None:
                stack.extend(i.split(":")[0] for i in node.input if not i.startswith("^"))
        memo[name] = frozenset(out)
        return memo[name]

    res = [deps(fdef.ret.get(a.name, "").split(":")[0]) for a in fdef.signature.output_arg]
    library.cache[key] = res
    return res


def _resolve_attrs(node: Any, call_attrs: Mapping[str, Any]) -> dict[str, Any]:
    """The node's ``AttrValue``\\ s with placeholders (``$T``) resolved from the call's attributes."""
    out: dict[str, Any] = {}
    for k, av in node.attr.items():
        if av.WhichOneof("value") == "placeholder":
            sub = call_attrs.get(av.placeholder)
            if sub is None:
                raise ValueError(f"attribute '{k}' names the function attribute '{av.placeholder}', "
                                 "which the call does not give")
            out[k] = sub
        else:
            out[k] = av
    return out


def _is_host(v: Any) -> bool:
    return isinstance(v, np.ndarray | np.generic)


def _host(v: Any) -> np.ndarray | None:
    """``v`` as a host value when it is one (or a concrete JAX array), else ``None``."""
    if _is_host(v):
        return np.asarray(v)
    if isinstance(v, jax.Array) and not isinstance(v, jax.core.Tracer):
        return np.asarray(v)
    return None


def _run_body(ctx: TFNodeContext, f: TFFunction, fdef: Any, library: FunctionLibrary, args: list[Any],
              in_control_flow: bool, fold: Any, wanted: frozenset[int] | None = None) -> list[Any]:
    sig = fdef.signature
    fname = sig.name
    if len(args) != len(sig.input_arg):
        raise ctx.error(f"function '{fname}' takes {len(sig.input_arg)} argument(s), the call gives {len(args)}")
    env: dict[str, Any] = {}
    for a, v in zip(sig.input_arg, args):
        if a.number_attr or a.type_list_attr:
            raise ctx.error(f"function '{fname}': argument '{a.name}' is a list of tensors, which jaxsess does "
                            "not support in function signatures")
        env[a.name] = v
    outs_of: dict[str, tuple[Any, list[Any]]] = {}  # node -> (its OpDef or None, its flat outputs)

    def value(ref: str, node_name: str) -> Any:
        if ref in env:
            return env[ref]
        parts = ref.split(":")
        node_ref = parts[0]
        if node_ref not in outs_of:
            raise ValueError(f"input '{ref}' of node '{node_name}' is not an argument or a node of the function")
        op_def, flat = outs_of[node_ref]
        if len(parts) == 1:
            return flat[0]
        if len(parts) == 2:  # 'node:k' (a flat index; not TF's function spelling, but unambiguous)
            return flat[int(parts[1])]
        arg_name, idx = parts[1], int(parts[2])
        if op_def is None:
            return flat[idx]
        offset = 0
        for a, n in zip(op_def.output_arg, _counts[node_ref]):
            if a.name == arg_name:
                if idx >= n:
                    raise ValueError(f"input '{ref}' of node '{node_name}': output '{arg_name}' has {n} tensor(s)")
                return flat[offset + idx]
            offset += n
        raise ValueError(f"input '{ref}' of node '{node_name}': TF's op has no output '{arg_name}'")

    _counts: dict[str, list[int]] = {}
    try:
        order = _order(fdef)
    except ValueError as e:
        raise ctx.error(str(e)) from None
    if wanted is not None:
        needed = _needed_nodes(fdef, [fdef.ret.get(a.name, "") for k, a in enumerate(sig.output_arg) if k in wanted])
        order = [n for n in order if n.name in needed]
    for node in order:
        try:
            inputs = [value(s, node.name) for s in node.input if not s.startswith("^")]
            attr_map = _resolve_attrs(node, f.attrs)
        except ValueError as e:
            raise ctx.error(f"function '{fname}': {e}") from None
        bctx = _BodyContext(ctx, fname, node.name, node.op, library, in_control_flow, fold)
        op_def, flat, counts = _run_node(bctx, node, attr_map, inputs, library)
        outs_of[node.name] = (op_def, flat)
        _counts[node.name] = counts
    result: list[Any] = []
    for k, a in enumerate(sig.output_arg):
        if wanted is not None and k not in wanted:
            result.append(None)
            continue
        ref = fdef.ret.get(a.name)
        if ref is None:
            raise ctx.error(f"function '{fname}' gives no value for its output '{a.name}'")
        try:
            result.append(value(ref, f"<return {a.name}>"))
        except ValueError as e:
            raise ctx.error(f"function '{fname}': {e}") from None
    return result


def _run_node(ctx: _BodyContext, node: Any, attr_map: Mapping[str, Any], inputs: list[Any],
              library: FunctionLibrary) -> tuple[Any, list[Any], list[int]]:
    """One body node: ``(its OpDef or None, its flat outputs, output counts per output arg)``."""
    op_type = node.op
    if op_type == "Const":
        return None, [_tfproto.tensor_proto_to_ndarray(attr_map["value"].tensor)], [1]
    if op_type in library.functions:  # a function called as an op
        f = TFFunction(op_type, dict(attr_map))
        outs = function_of(ctx, f, library, ctx.in_control_flow, ctx.fold)(*inputs)
        return None, outs, [1] * len(outs)
    if op_type == "NoOp":
        return None, [], []
    if op_type in _PASS_THROUGH and op_type not in TF_LOWERINGS:
        return None, list(inputs), [len(inputs)] if op_type == "IdentityN" else [1]
    op_def = tf_op_def(op_type)
    if op_def is None:
        raise ctx.error(f"op type '{op_type}' is not in TensorFlow's op registry")
    try:
        attrs = decode_attrs(op_type, attr_map, op_def)
        counts = arg_counts(op_def.output_arg, attrs)
        out_types = [dt for dt, _ in arg_dtypes(op_def.output_arg, attrs)]
    except (ValueError, TypeError, KeyError) as e:
        raise ctx.error(str(e)) from None
    if op_type in _VARIABLE_BODY_OPS:
        return op_def, _variable_op(ctx, op_type, inputs, attrs), counts
    if op_type in _SHAPE_OPS:
        shapes = [tuple(int(d) for d in np.shape(x)) for x in inputs]
        dts = [d.np_dtype for d in out_types if isinstance(d, _dtypes.DType)]
        if op_type in ("Shape", "ShapeN"):
            return op_def, [np.asarray(s, dt) for s, dt in zip(shapes, dts)], counts
        if op_type == "Size":
            return op_def, [np.asarray(int(np.prod(shapes[0], dtype=np.int64)), dts[0])], counts
        return op_def, [np.asarray(len(shapes[0]), dts[0])], counts
    lw = TF_LOWERINGS.get(op_type)
    if lw is not None:
        static = static_positions(lw, len(inputs))
        args = list(inputs)
        for i in static:
            h = _host(args[i])
            if h is None:
                raise ctx.error(f"input {i} must be known before the function runs (TF's kernel needs it on the "
                                "host), but it depends on a value computed in the body")
            args[i] = h
        if not lw.stateful and all(_host(v) is not None for v in args):
            return op_def, _on_host(ctx, lambda: call_lowering(lw, ctx, [
                a if i in static or _host(a).dtype == object else jnp.asarray(a)  # type: ignore[union-attr]
                for i, a in enumerate(args)], attrs, out_types), out_types), counts
        return op_def, call_lowering(lw, ctx, args, attrs, out_types), counts
    return op_def, _registry_op(ctx, op_type, attr_map, inputs, out_types), counts


def _on_host(ctx: TFNodeContext, run: Callable[[], list[Any]], out_types: Sequence[Any]) -> list[Any]:
    wide = any(isinstance(d, _dtypes.DType) and _dtypes.is_64bit(d) for d in out_types)
    with jax.ensure_compile_time_eval():
        if wide:
            with _dtypes.x64_scope():
                outs = run()
        else:
            outs = run()
    return [o if isinstance(o, jax.core.Tracer) or is_pending(o) else np.asarray(o) for o in outs]


def _registry_op(ctx: _BodyContext, op_type: str, attr_map: Mapping[str, Any], inputs: list[Any],
                 out_types: Sequence[Any]) -> list[Any]:
    """A body node without a TF lowering: jaxsess's registered op of that TF type (its ``TFOp`` mapping)."""
    od = tf_type_to_op(op_type)
    if od is None or od.stateful or od.lowering is not None or od.graph_only:
        raise ctx.error(f"op type '{op_type}' has no lowering in TF's op-set table (jaxsess cannot run it in a "
                        "function body)")
    m = registry_tf_op(od)
    assert m.from_tf is not None
    try:
        tf_attrs = registry_tf_attrs(attr_map, m, bool(inputs))
    except ValueError as e:
        raise ctx.error(str(e)) from None
    data, raw, at = split_const_inputs(inputs, m.n_const, m.const_pos)
    consts: list[np.ndarray] = []
    for i, v in enumerate(raw, at):
        h = _host(v)
        if h is None:
            raise ctx.error(f"input {i} must be known before the function runs")
        consts.append(h)
    try:
        attrs = m.from_tf(tf_attrs, consts)
        if all(_host(v) is not None for v in data):
            with jax.ensure_compile_time_eval():
                res = od.impl(*[jnp.asarray(v) for v in data], **attrs)
            res_list = [res] if od.n_outputs(attrs) == 1 else list(res)
            return [np.asarray(r, d.np_dtype) if isinstance(d, _dtypes.DType) else r
                    for r, d in zip(res_list, out_types)]
        res = od.impl(*data, **attrs)
    except errors.OpError:
        raise
    except Exception as e:
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ctx.error(f"{type(e).__name__}: {msg}") from e
    res_list = [res] if od.n_outputs(attrs) == 1 else list(res)
    return [jnp.asarray(r, d.np_dtype) if isinstance(d, _dtypes.DType) and d != _dtypes.string else r
            for r, d in zip(res_list, out_types)]


def _variable_op(ctx: _BodyContext, op_type: str, inputs: list[Any], attrs: Mapping[str, Any]) -> list[Any]:
    ref = inputs[0]
    if op_type == "ReadVariableOp":
        # A variable handed to a stateless call (If, While) arrives as its value, read at the call.
        return [ref if not isinstance(ref, VarRef) else ctx.read_variable(ref)]
    value = inputs[1]
    if op_type == "AssignAddVariableOp":
        value = ctx.read_variable(ref) + value
    elif op_type == "AssignSubVariableOp":
        value = ctx.read_variable(ref) - value
    ctx.assign_variable(ref, value)
    return []


# -- the call ops ------------------------------------------------------------------------------


def _library(ctx: Any) -> FunctionLibrary:
    lib = getattr(ctx, "library", None)
    if lib is None:
        lib = getattr(ctx, "_library", None)
    if lib is None:
        op = getattr(ctx, "_op", None)
        lib = op.attrs.get("library") if op is not None else None
    if lib is None:
        raise ctx.error("names a function but the GraphDef has no function library")
    return lib  # type: ignore[no-any-return]


@register_tf_lowering("PartitionedCall")
def _partitioned_call(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Sequence[Any]:
    return function_of(ctx, attrs["f"], _library(ctx), getattr(ctx, "in_control_flow", False),
                       getattr(ctx, "fold", None))(*inputs)


register_tf_lowering("StatefulPartitionedCall", stateful=True)(_partitioned_call)


def _truthy(ctx: Any, c: Any) -> Any:
    """TF's ``If`` condition: a bool scalar; a numeric scalar is true when non-zero; else
    (a tensor of other rank) true when it has elements."""
    if np.ndim(c) != 0:
        return np.bool_(np.size(c) > 0)
    if _is_host(c):
        return np.bool_(np.asarray(c).item() != 0 if np.asarray(c).dtype != object else len(np.asarray(c).item()))
    return c if c.dtype == jnp.bool_ else c != 0


def _same_structure(ctx: Any, what: str, outs: Sequence[Any], types: Sequence[Any]) -> list[Any]:
    if len(outs) != len(types):
        raise ctx.error(f"{what} gives {len(outs)} output(s); the node's Tout lists {len(types)}")
    return [jnp.asarray(o, t.np_dtype) if isinstance(t, _dtypes.DType) else o for o, t in zip(outs, types)]


def _wanted_outputs(ctx: Any, types: Sequence[Any]) -> frozenset[int]:
    """The outputs of an ``If``/``Case`` to compute: those the plan reads (when tracing a plan),
    else (shape inference, function bodies) every output but TF's ``variant`` ones (the
    optionals and lists TF 2.x adds to a cond for its gradient, which differ between branches)."""
    used = _used_outputs(ctx, len(types))
    if used is not None:
        return frozenset(used)
    return frozenset(k for k, t in enumerate(types) if t != VARIANT)


def _branch(ctx: Any, f: TFFunction, types: Sequence[Any], wanted: frozenset[int]
            ) -> Callable[[tuple[Any, ...]], list[Any]]:
    fn = function_of(ctx, f, _library(ctx), True, getattr(ctx, "fold", None), wanted)
    order = sorted(wanted)
    sub = [types[k] for k in order]

    def run(args: tuple[Any, ...]) -> list[Any]:
        outs = fn(*args)  # once: a body traced per output would repeat its work (and its draws)
        return _same_structure(ctx, f"branch '{f.name}'", [outs[k] for k in order], sub)

    return run


def _scatter(types: Sequence[Any], wanted: frozenset[int], outs: Sequence[Any]) -> list[Any]:
    """The node's outputs: the computed ones in place, a zero scalar for those no one reads."""
    res: list[Any] = [jnp.zeros((), jnp.float32)] * len(types)
    for k, v in zip(sorted(wanted), outs):
        res[k] = v
    return res


@register_tf_lowering("If", "StatelessIf")
def _if(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Sequence[Any]:
    """``lax.cond`` over the outputs the plan needs (:func:`_wanted_outputs`)."""
    cond, args = inputs[0], tuple(_branch_value(ctx, a) for a in inputs[1:])
    pred = _truthy(ctx, cond)
    types = attrs["Tout"]
    wanted = _wanted_outputs(ctx, types)
    then_fn = _branch(ctx, attrs["then_branch"], types, wanted)
    else_fn = _branch(ctx, attrs["else_branch"], types, wanted)
    if _is_host(pred):  # folded: the branch is known when the plan is traced
        return _scatter(types, wanted, then_fn(args) if bool(pred) else else_fn(args))
    return _scatter(types, wanted, lax.cond(pred, then_fn, else_fn, args))


@register_tf_lowering("Case", "StatelessCase")
def _case(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Sequence[Any]:
    """``lax.switch`` over the outputs the plan needs; an index out of range runs the last branch."""
    index, args = inputs[0], tuple(_branch_value(ctx, a) for a in inputs[1:])
    types = attrs["Tout"]
    wanted = _wanted_outputs(ctx, types)
    fns = [_branch(ctx, f, types, wanted) for f in attrs["branches"]]
    n = len(fns)
    if n == 0:
        raise ctx.error("has no branches")
    if _is_host(index):
        k = int(np.asarray(index).item())
        return _scatter(types, wanted, fns[k if 0 <= k < n else n - 1](args))
    sel = jnp.where((index < 0) | (index >= n), n - 1, index)  # TF: out of range runs the last branch
    return _scatter(types, wanted, lax.switch(sel, fns, args))


def _branch_value(ctx: Any, v: Any) -> Any:
    """A branch operand: a variable handed to ``If``/``Case`` is read at the branch's start."""
    return ctx.read_variable(v) if isinstance(v, VarRef) else _device_value(v)


def _device_value(v: Any) -> Any:
    if isinstance(v, VarRef) or is_pending(v):
        return v
    return jnp.asarray(v) if _is_host(v) and np.asarray(v).dtype != object else v


@register_tf_lowering("While", "StatelessWhile")
def _while(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Sequence[Any]:
    """``lax.while_loop`` over the loop variables the plan needs (as Grappler prunes the rest):
    those whose outputs the plan reads, the condition's, and what they depend on in the body.
    A ``PendingList`` loop variable gets its array from one abstract trace of the body."""
    lib = _library(ctx)
    init = [_device_value(a) for a in inputs]
    n = len(init)
    cond_f, body_f = attrs["cond"], attrs["body"]
    body_deps = output_deps(lib, body_f.name)
    cond_deps = output_deps(lib, cond_f.name)[0]
    if len(body_deps) != n:
        raise ctx.error(f"while body '{body_f.name}' gives {len(body_deps)} outputs for {n} loop variables")
    # Variables captured by the loop (resource loop variables the body passes on unchanged): not
    # carried; the body reads them from the caller (assigning them in a loop is refused).
    passed = _passed_through(lib, body_f.name)
    fixed = {k for k, v in enumerate(init) if isinstance(v, VarRef)}
    for k in fixed:
        if k not in passed:
            raise ctx.error(f"loop variable {k} is variable '{init[k].name}', which the body does not pass on "
                            "unchanged: jaxsess's loops read captured variables, they do not carry them")
    def closure(start: set[int]) -> list[int]:
        live = set(start) | set(cond_deps)
        todo = list(live)
        while todo:
            for d in body_deps[todo.pop()]:
                if d not in live:
                    live.add(d)
                    todo.append(d)
        return sorted(live - fixed)

    used = _used_outputs(ctx, n)
    if used is None:  # shape inference: every loop variable that keeps its shape
        probe = _probe_body(ctx, lib, body_f, init, None)
        stable = _stable(probe, init)
        order = closure({k for k in range(n) if stable[k]})
    else:
        order = closure(used)
        probe = _probe_body(ctx, lib, body_f, init, frozenset(order))
        stable = _stable(probe, init)
    for k in order:
        if probe is not None and not stable[k]:
            raise ctx.error(f"loop variable {k} changes shape from {list(jnp.shape(init[k]))} to "
                            f"{list(probe[k].shape)} in '{body_f.name}' (TF's shape_invariants): jaxsess's loops "
                            "keep shapes")
        if is_pending(init[k]):
            if probe is None:
                raise ctx.error(f"loop variable {k} is a TensorList whose element shape is not known")
            init[k] = jnp.zeros(probe[k].shape, probe[k].dtype)
    wanted = frozenset(order)

    def full(vals: tuple[Any, ...]) -> list[Any]:
        args = list(init)
        for k, v in zip(order, vals):
            args[k] = v
        return args

    def cond_fn(carry: tuple[Any, tuple[Any, ...]]) -> Any:
        i, vals = carry
        out = function_of(ctx, cond_f, lib, True, _mix(ctx, i))(*full(vals))
        if len(out) != 1:
            raise ctx.error(f"while condition '{cond_f.name}' gives {len(out)} outputs; TF's gives one")
        return jnp.asarray(_truthy(ctx, out[0]))

    def body_fn(carry: tuple[Any, tuple[Any, ...]]) -> tuple[Any, tuple[Any, ...]]:
        i, vals = carry
        out = function_of(ctx, body_f, lib, True, _mix(ctx, i), wanted)(*full(vals))
        new = []
        for k, v in zip(order, vals):
            o = out[k]
            o = jnp.asarray(o, v.dtype) if hasattr(v, "dtype") else o
            if tuple(jnp.shape(o)) != tuple(jnp.shape(v)):
                raise ctx.error(f"loop variable {k} changes shape from {list(jnp.shape(v))} to "
                                f"{list(jnp.shape(o))} in '{body_f.name}' (TF's shape_invariants): jaxsess's loops "
                                "keep shapes")
            new.append(o)
        return i + jnp.uint32(1), tuple(new)

    start = (jnp.uint32(0), tuple(init[k] for k in order))
    if getattr(getattr(ctx, "_ev", None), "differentiating", False):
        # XLA's while loop has no reverse mode: a loop whose trip count the host can count
        # (its condition depends only on values known when the plan is traced) runs as a scan.
        trips = _trip_count(ctx, lib, cond_f, body_f, init, cond_deps, body_deps)
        if trips is None:
            raise ctx.error("cannot be differentiated: XLA's while loop has no reverse mode, and its trip count "
                            "depends on values known only when the graph runs (a fed bound)")

        def step(carry: tuple[Any, tuple[Any, ...]], _: Any) -> tuple[tuple[Any, tuple[Any, ...]], None]:
            return body_fn(carry), None

        final = lax.scan(step, start, None, length=trips)[0][1]
    else:
        final = lax.while_loop(cond_fn, body_fn, start)[1]
    result = list(init)
    for k, v in zip(order, final):
        result[k] = v
    return result


def _passed_through(library: FunctionLibrary, fname: str) -> frozenset[int]:
    """The arguments function ``fname`` returns unchanged at the same position (a loop's invariants)."""
    fdef = library.get(fname)
    sig = fdef.signature
    return frozenset(k for k, (a, o) in enumerate(zip(sig.input_arg, sig.output_arg)) if fdef.ret.get(o.name) == a.name)


def _trip_count(ctx: Any, lib: FunctionLibrary, cond_f: TFFunction, body_f: TFFunction, init: list[Any],
                cond_deps: frozenset[int], body_deps: list[frozenset[int]]) -> int | None:
    """How many times the loop runs, counted on the host when the condition depends only on
    loop variables whose initial values and updates are host values (``i < n``, ``n`` a
    constant); ``None`` otherwise."""
    counting = set(cond_deps)
    todo = list(counting)
    while todo:
        for d in body_deps[todo.pop()]:
            if d not in counting:
                counting.add(d)
                todo.append(d)
    vals: list[Any] = [None] * len(init)
    for k in counting:
        h = _host(init[k])
        if h is None:
            host_input = getattr(ctx, "host_input", None)
            h = host_input(k) if host_input is not None else None
        if h is None:
            return None
        vals[k] = h
    wanted = frozenset(counting)
    try:
        for trips in range(1_000_000):
            c = function_of(ctx, cond_f, lib, True, None)(*vals)[0]
            if _host(c) is None:
                return None
            if not bool(np.asarray(_truthy(ctx, _host(c)))):
                return trips
            out = function_of(ctx, body_f, lib, True, None, wanted)(*vals)
            if any(_host(out[k]) is None for k in counting):
                return None
            vals = [_host(out[k]) if k in counting else None for k in range(len(init))]
    except errors.OpError:
        return None
    return None


def _stable(probe: list[Any] | None, init: list[Any]) -> list[bool]:
    """Which loop variables keep their shape through the body (a pending list: when it gets one)."""
    return [probe is not None and probe[k] is not None and (
        is_pending(v) or tuple(probe[k].shape) == tuple(jnp.shape(v))) if not isinstance(v, VarRef) else True
        for k, v in enumerate(init)]


def _probe_body(ctx: Any, lib: FunctionLibrary, body_f: TFFunction, init: list[Any],
                wanted: frozenset[int] | None) -> list[Any] | None:
    """The body's outputs' shapes and dtypes (``jax.ShapeDtypeStruct``; ``None`` for those not
    ``wanted``) on the initial values (pending lists closed over), or ``None`` when the body
    does not trace on them."""
    slots = [k for k, v in enumerate(init) if not is_pending(v) and not isinstance(v, VarRef)]

    def run(*vals: Any) -> list[Any]:
        args = list(init)
        for k, v in zip(slots, vals):
            args[k] = v
        out = function_of(ctx, body_f, lib, True, None, wanted)(*args)
        return [None if o is None or is_pending(o) or isinstance(o, VarRef) else o for o in out]

    try:
        shapes = jax.eval_shape(run, *[jax.ShapeDtypeStruct(jnp.shape(init[k]), jnp.result_type(init[k]))
                                       for k in slots])
    except Exception:  # noqa: BLE001 - the loop's own run reports the error
        return None
    return list(shapes)


def _used_outputs(ctx: Any, n: int) -> set[int] | None:
    """The outputs of ctx's node that the plan being traced reads (``None``: not known)."""
    ev, op = getattr(ctx, "_ev", None), getattr(ctx, "_op", None)
    plan = getattr(ev, "plan", None)
    if plan is None or op is None:
        return None
    needed = ev.__dict__.get("_tf_needed")
    if needed is None:  # what the plan's ops read, with the ops they evaluate themselves (gradients)
        needed = set(plan.fetches)
        seen: set[Any] = set()
        todo = list(plan.ops)
        while todo:
            o = todo.pop()
            if o in seen:
                continue
            seen.add(o)
            needed.update(o.inputs)
            if o._op_def.lowering is not None:
                needed.update(t for t in o.attrs.get("ys", ()) if hasattr(t, "op"))
                for sub in o.attrs.get("sub_ops", ()):
                    todo.extend(sub)
        ev.__dict__["_tf_needed"] = needed
    return {k for k, t in enumerate(op.outputs) if t in needed}


def _mix(ctx: Any, i: Any) -> Any:
    outer = getattr(ctx, "fold", None)
    return i if outer is None else jnp.uint32(outer) * jnp.uint32(2654435761) + i


set_function_lowerer(lambda ctx, f, library: function_of(ctx, f, library))
