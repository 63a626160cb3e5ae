"""Control flow, as ``tf.compat.v1.cond`` / ``while_loop`` / ``case``.

The branch and body functions build their ops into the graph as usual; the
ops they create become a *sub-graph function* of the control-flow op, whose
data inputs are the tensors the sub-graphs capture from outside (see
:mod:`jaxsess._tf1.ops._subgraph`, shared with ``functional_ops``). The lowering
evaluates the sub-graphs inside ``lax.cond``, ``lax.switch`` and
``lax.while_loop``, so only the taken branch runs and loops compile once.

Variables in bodies: a use of a (resource) variable inside a branch or body
is a read made there; assignments inside branches and loop bodies run as
TF 2.x's ``cond_v2``/``while_v2`` run them (every assign of the taken branch,
of every iteration). The variables a body assigns are threaded through the
lowered ``lax.cond``/``lax.switch`` operands and the ``lax.while_loop``
carry; the control-flow op is then the assign those variables' later reads
see (attribute ``var_writes``; see :mod:`jaxsess._core.graph._lowering`).

Gradients: ``tf.gradients`` through a ``while_loop`` built with
``maximum_iterations`` differentiates a bounded loop (``lax.scan`` over
``maximum_iterations`` steps, each a ``lax.cond`` that runs the body only
while the loop's condition holds). A counting loop (condition ``i < n`` or
``i <= n``, body ``i + step``, constant start and step, ``n`` a constant or
computed from shapes) needs no ``maximum_iterations``: its trip count,
known when the run is traced, is the bound. Otherwise it raises
``ValueError`` naming the loop (XLA's ``while`` has no reverse mode).
Assigning variables in a ``while_loop`` *condition* is not supported.

TensorArrays (:mod:`jaxsess._tf1.ops.tensor_array_ops`) in loop vars and branch
results travel as their flows (dense buffers); a buffer first written in a
loop body or a branch is allocated with the shape an abstract evaluation
(``jax.eval_shape``) of the body or the other branches gives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
from jax import tree_util

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import (
    apply_op,
    constant_value,
    convert_to_tensor,
    executing_eagerly,
    identity,
)
from jaxsess._core.graph._dynamic import trace_computable, trace_value
from jaxsess._core.graph._graph import Operation, Tensor, get_default_graph
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import math_ops as math_ops
from jaxsess._tf1.ops._subgraph import (
    eval_subgraph,
    final_values,
    flatten_tensors,
    last_writers,
    random_ops_within,
    rng_advances,
    split_externals,
    subgraph_externals,
    trace_subgraph,
)
from jaxsess._tf1.ops.check_ops import Assert
from jaxsess._tf1.ops.shape_ops import stack
from jaxsess._tf1.ops.tensor_array_ops import TensorArray, build_ta_with_new_flow, carry_value, is_unallocated

__all__ = ["cond", "case", "while_loop", "switch_case"]

# -- cond / case -----------------------------------------------------------------


def _branches_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return list(attrs["out_specs"])


def _branches_lowering(ev: Any, op: Operation, vals: list[Any]) -> Any:
    index = vals[0]
    ext_env, var_values = split_externals(op.attrs["externals"], vals[1:])
    writes: tuple[Operation, ...] = op.attrs["var_writes"]
    branches = op.attrs["branches"]  # ((ops, outs), ...)

    alloc: dict[int, Any] = {}  # TensorArray buffers some branches leave unallocated: the others' shape
    # random ops in the branches: their counters advance only in the branch taken, as TF's
    randoms = random_ops_within([o for ops, _ in branches for o in ops])

    def make(ops: Sequence[Operation], outs: Sequence[Tensor]) -> Callable[..., Any]:
        writers = last_writers(ops)

        def branch(operands: tuple[tuple[Any, ...], tuple[Any, ...]]) -> tuple[Any, ...]:
            ext, wvals = operands
            start = {**var_values, **dict(zip(writes, wvals))}
            vals_out, child = eval_subgraph(ev, ops, outs, dict(zip(ext_env, ext)), var_values=start)
            res = tuple(
                jnp.zeros(alloc[k].shape, alloc[k].dtype) if k in alloc and is_unallocated(v)
                else carry_value(v, spec[1].np_dtype)
                for k, (v, spec) in enumerate(zip(vals_out, op.attrs["out_specs"]))
            )
            return res, final_values(ev, child, writers, writes, start), rng_advances(child, ops, randoms)

        return branch

    fns = [make(o, t) for o, t in branches]
    operands = (tuple(ext_env.values()), tuple(var_values[w] for w in writes))
    if op.attrs.get("tensor_arrays"):
        for outs_abs in [jax.eval_shape(f, operands)[0] for f in fns]:
            for k, a in enumerate(outs_abs):
                if not is_unallocated(a):
                    alloc.setdefault(k, a)
    if op.type == "If":
        res, new_vars, advanced = jax.lax.cond(index, fns[0], fns[1], operands)
    else:
        res, new_vars, advanced = jax.lax.switch(index, fns, operands)
    if writes:
        ev.assigned[op] = dict(zip(writes, new_vars))
    ev.rng_advance.update(zip(randoms, advanced))
    return res if len(res) != 1 else res[0]


for _type, _name in (("If", "cond"), ("Case", "case")):
    register_op(
        _type,
        num_outputs=lambda attrs: len(attrs["out_specs"]),
        infer=_branches_infer,
        lowering=_branches_lowering,
        default_name=_name,
    )(lambda *a, **k: None)


def _merge_specs(per_branch: list[list[Tensor]], what: str) -> list[tuple[TensorShape, _dtypes.DType]]:
    first = per_branch[0]
    specs = []
    for i, t in enumerate(first):
        shape = t.shape
        for other in per_branch[1:]:
            o = other[i]
            if o.dtype != t.dtype:  # TypeError, as TF
                raise TypeError(
                    f"Outputs of {what} branches must have the same dtype: output {i} is "
                    f"{t.dtype.name} in one branch and {o.dtype.name} in another."
                )
            if not shape.is_compatible_with(o.shape):
                raise ValueError(
                    f"Outputs of {what} branches must have compatible shapes: output {i} is "
                    f"{shape} in one branch and {o.shape} in another."
                )
            if shape.ndims is not None and o.shape.ndims is not None:
                shape = TensorShape([a if a == b else None for a, b in zip(shape.as_list(), o.shape.as_list())])
        specs.append((shape, t.dtype))
    return specs


def _op_result(op: Operation, value: Tensor) -> Tensor:
    """What a branch that returns the Operation ``op`` returns: ``value`` once ``op`` ran (TF's
    ``op_return_value``: ``cond`` gives its predicate)."""
    with get_default_graph().control_dependencies([op]):
        return identity(value)


def _build_branches(op_type: str, selector: Tensor, fns: Sequence[Callable[[], Any]], name: str | None, what: str,
                    op_value: Tensor | None = None) -> Any:
    graph = get_default_graph()
    traced = []
    structure = None
    tas: dict[int, TensorArray] = {}  # TensorArrays among the results: they travel as their flows

    def flows(fn: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            leaves, tree = flatten_tensors(fn())
            for k, x in enumerate(leaves):
                if isinstance(x, TensorArray):
                    tas.setdefault(k, x)
                elif isinstance(x, Operation) and op_value is not None:
                    leaves[k] = _op_result(x, op_value)
            return tree_util.tree_unflatten(tree, [x.flow if isinstance(x, TensorArray) else x for x in leaves])

        return run

    for i, fn in enumerate(fns):
        if not callable(fn):
            raise TypeError(f"{what}: branch {i} must be callable, got {type(fn).__name__}.")
        with graph.name_scope(f"branch_{i}"):
            ops, leaves, treedef = trace_subgraph(graph, flows(fn), (), f"{what} branches")
        if structure is None:
            structure = treedef
        elif treedef != structure:
            raise ValueError(
                f"{what}: all branches must return the same structure; got {structure} and {treedef}."
            )
        traced.append((ops, leaves))
    bound: set[Tensor] = set()
    ext: list[Tensor] = []
    seen: set[Tensor] = set()
    for ops, outs in traced:
        for t in subgraph_externals(ops, bound, outs):
            if t not in seen:
                seen.add(t)
                ext.append(t)
    if not traced[0][1]:
        raise ValueError(f"{what}: branches must return at least one tensor.")
    specs = _merge_specs([outs for _, outs in traced], what)
    writes: dict[Operation, None] = {}
    for ops, _ in traced:
        writes.update(dict.fromkeys(last_writers(ops)))
    attrs: dict[str, Any] = {
        "branches": tuple((tuple(ops), tuple(outs)) for ops, outs in traced),
        "externals": tuple(ext),
        "out_specs": tuple(specs),
        "sub_ops": tuple(tuple(ops) for ops, _ in traced),
        "var_writes": tuple(writes),
    }
    if tas:
        attrs["tensor_arrays"] = True
    out = apply_op(op_type, [selector, *ext], attrs, name=name)
    leaves_out = out if isinstance(out, list) else [out]
    # as TF 2.x: each result passes through `<op name>/Identity`, `<op name>/Identity_1`, ...
    with graph.name_scope(leaves_out[0].op.name + "/"):
        leaves_out = [identity(t, name="Identity") for t in leaves_out]
    leaves_out = [tas[k].from_cond(t) if k in tas else t for k, t in enumerate(leaves_out)]
    return tree_util.tree_unflatten(structure, leaves_out)


def cond(pred: Any, true_fn: Callable[[], Any] | None = None, false_fn: Callable[[], Any] | None = None,
         strict: bool = False, name: str | None = None, fn1: Any = None, fn2: Any = None) -> Any:
    """``true_fn()`` if ``pred`` else ``false_fn()``, as ``tf.compat.v1.cond``.

    Only the taken branch runs (``lax.cond``). Both functions must return the
    same structure of tensors with equal dtypes; an ``Operation`` among the
    results gives ``pred`` once the operation ran (as TF 2.x).

    Args:
      pred: a scalar bool tensor or Python bool.
      true_fn, false_fn: functions of no arguments building the branches.

    Raises:
      TypeError: a branch is not callable, or the branches' dtypes differ.
      ValueError: the branches' structures differ.
    """
    true_fn = true_fn or fn1
    false_fn = false_fn or fn2
    if true_fn is None or false_fn is None:
        raise TypeError("cond needs both true_fn and false_fn.")
    if isinstance(pred, bool):
        return true_fn() if pred else false_fn()
    if executing_eagerly():
        return true_fn() if bool(pred) else false_fn()
    p = convert_to_tensor(pred, dtype=_dtypes.bool)
    if p.shape.ndims not in (None, 0):
        raise ValueError(f"cond: pred must be a scalar, got shape {p.shape}.")
    return _build_branches("If", p, [true_fn, false_fn], name, "cond", op_value=p)


def case(pred_fn_pairs: Any, default: Callable[[], Any] | None = None, exclusive: bool = False,
         strict: bool = False, name: str = "case") -> Any:
    """The function of the first true predicate, else ``default``, as
    ``tf.compat.v1.case`` (lowered to ``lax.switch``).

    Args:
      pred_fn_pairs: a list of ``(bool tensor, callable)`` pairs (or a dict).
      default: called when no predicate holds (required unless one always does).
      exclusive: check at run time that at most one predicate holds: the
        result then depends on an ``Assert`` (TF's message), which fails the
        run with ``InvalidArgumentError`` when several hold. Like every
        check, it is a host op (see ``check_ops``).
    """
    if isinstance(pred_fn_pairs, dict):
        pred_fn_pairs = list(pred_fn_pairs.items())
    pairs = list(pred_fn_pairs)
    if not pairs:
        if default is None:
            raise ValueError("case needs at least one pred_fn pair or a default.")
        return default()
    if default is None:
        default = pairs[-1][1]
        pairs = pairs[:-1]
        if not pairs:
            return default()
    if executing_eagerly():  # as tf.cond: only the taken function runs
        return next((f for p, f in pairs if bool(p)), default)()
    preds = [convert_to_tensor(p, dtype=_dtypes.bool) for p, _ in pairs]
    if exclusive and len(preds) > 1:
        with get_default_graph().name_scope(name):
            check = _assert_at_most_one_true(preds)
        with get_default_graph().control_dependencies([check]):
            return case(pairs, default, exclusive=False, strict=strict, name=name)
    with get_default_graph().name_scope(name):
        # Index of the first true predicate, or len(preds) for the default.
        idx = convert_to_tensor(len(preds), dtype=_dtypes.int32)
        for i in range(len(preds) - 1, -1, -1):
            idx = math_ops.where(preds[i], convert_to_tensor(i, dtype=_dtypes.int32), idx)
        # named `<name>/cond`, its result `<name>/cond/Identity:0`, as TF 2.x (nested conds there)
        return _build_branches("Case", idx, [f for _, f in pairs] + [default], "cond", "case")


def _assert_at_most_one_true(preds: Sequence[Tensor]) -> Operation:
    """The ``Assert`` of ``case(exclusive=True)``, with TF's op names and message."""
    preds_c = stack(preds, name="preds_c")
    num_true = math_ops.reduce_sum(math_ops.cast(preds_c, _dtypes.int32), name="num_true_conds")
    names = ", ".join(p.name for p in preds)
    message = f"Input error: exclusive=True: more than 1 conditions ({names}) evaluated as True:"
    return Assert(math_ops.less_equal(num_true, 1), [message, preds_c], summarize=len(preds))


# -- while_loop -------------------------------------------------------------------


def _loopvar_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(attrs["shape"], attrs["dtype"])]


register_op("LoopVar", infer=_loopvar_infer, graph_only=True, default_name="loop_var",
            lowering=lambda ev, op, vals: ev.env[op.outputs[0]])(lambda **k: None)


def _while_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return list(attrs["out_specs"])


def _while_lowering(ev: Any, op: Operation, vals: list[Any]) -> Any:
    n = len(op.attrs["out_specs"])
    init = [carry_value(v, s[1].np_dtype) for v, s in zip(vals[:n], op.attrs["out_specs"])]
    ext_env, var_values = split_externals(op.attrs["externals"], vals[n:])
    loop_vars: tuple[Tensor, ...] = op.attrs["loop_vars"]
    cond_ops, body_ops = op.attrs["sub_ops"]
    pred_t: Tensor = op.attrs["pred"]
    body_outs: tuple[Tensor, ...] = op.attrs["body_outs"]
    max_iter = op.attrs["maximum_iterations"]
    writes: tuple[Operation, ...] = op.attrs["var_writes"]
    writers = last_writers(body_ops)

    def env_for(carry: Sequence[Any]) -> dict[Tensor, Any]:
        env = dict(ext_env)
        env.update(zip(loop_vars, carry))
        return env

    def starts(wvals: Sequence[Any]) -> dict[Operation, Any]:
        return {**var_values, **dict(zip(writes, wvals))}

    # random ops in the body: each iteration draws after the earlier ones, as TF's (the carry
    # holds the values each drew in this run's earlier iterations)
    randoms = random_ops_within(body_ops)
    LoopState = tuple[Any, tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]

    def pred(state: LoopState) -> Any:
        i, carry, wvals, _ = state
        (p,), _ = eval_subgraph(ev, cond_ops, [pred_t], env_for(carry), fold=i, var_values=starts(wvals))
        return jnp.asarray(p, dtype=bool)

    def cond_fun(state: LoopState) -> Any:
        p = pred(state)
        if max_iter is not None:
            p = jnp.logical_and(p, state[0] < max_iter)
        return p

    def body_fun(state: LoopState, check: bool = True) -> Any:
        i, carry, wvals, offsets = state
        start = starts(wvals)
        raw, child = eval_subgraph(ev, body_ops, body_outs, env_for(carry), fold=i, var_values=start,
                                   rng_offset=dict(zip(randoms, offsets)))
        new = tuple(carry_value(v, s[1].np_dtype) for v, s in zip(raw, op.attrs["out_specs"]))
        for k, (a, b) in enumerate(zip(carry, new)):
            if (is_unallocated(a) and is_unallocated(b)) or (is_unallocated(a) and not check):
                continue
            if is_unallocated(a) or is_unallocated(b) or a.shape != b.shape:
                raise errors.InvalidArgumentError(
                    op.name, op,
                    f"while_loop '{op.name}': the body changes loop var {k} ('{loop_vars[k].name}') "
                    f"from shape {_shape_of(a)} to {_shape_of(b)}; XLA loops keep shapes fixed "
                    "(shape_invariants cannot let a loop var grow in jaxsess).",
                )
        advanced = tuple(o + a for o, a in zip(offsets, rng_advances(child, body_ops, randoms)))
        return i + 1, new, final_values(ev, child, writers, writes, start), advanced

    offsets0 = tuple(jnp.asarray(ev.rng_offset.get(r, 0), jnp.uint32) for r in randoms)
    state0 = (jnp.uint32(0), tuple(init), tuple(var_values[w] for w in writes), offsets0)
    if any(is_unallocated(v) for v in init):
        # A TensorArray first written in the body: its buffer's shape is the body's output's.
        after = jax.eval_shape(lambda st: body_fun(st, check=False), state0)[1]
        init = [jnp.zeros(a.shape, a.dtype) if is_unallocated(v) and not is_unallocated(a) else v
                for v, a in zip(init, after)]
        state0 = (state0[0], tuple(init), state0[2], offsets0)
    if ev.differentiating:
        trips = _trip_count(ev, op.attrs.get("counting"))
        if trips is not None:
            max_iter = trips if max_iter is None else min(max_iter, trips)
        if max_iter is None:
            raise ValueError(
                f"Cannot differentiate while_loop '{op.name.rsplit('/', 1)[0]}': it has no maximum_iterations. XLA's while "
                "loop has no reverse mode; build the loop with maximum_iterations=N (a bound on its "
                "iterations) to take gradients through it (a counting loop `i < n`, `i + step` with constant "
                "start and step and n known when the run is traced needs none)."
            )

        def step(state: Any, _: Any) -> tuple[Any, None]:
            return jax.lax.cond(pred(state), body_fun, lambda st: st, state), None

        _, final, new_vars, offsets = jax.lax.scan(step, state0, None, length=max_iter)[0]
    else:
        _, final, new_vars, offsets = jax.lax.while_loop(cond_fun, body_fun, state0)
    if writes:
        ev.assigned[op] = dict(zip(writes, new_vars))
    ev.rng_advance.update((r, b - a) for r, a, b in zip(randoms, offsets0, offsets))
    return final if n != 1 else final[0]


def _counting(pred: Tensor, lvs: Sequence[Tensor], body_outs: Sequence[Tensor], init: Sequence[Tensor]) -> Any:
    """``(bound, start, step, inclusive)`` when the loop counts ``i`` from the
    constant ``start`` by the constant ``step > 0`` while ``i < bound`` (``<=``:
    inclusive), with ``bound`` a constant or computed from shapes; else None."""
    op = pred.op
    if op.type not in ("Less", "LessEqual"):
        return None
    i, bound = op.inputs
    k = next((j for j, lv in enumerate(lvs) if lv is i), None)
    if k is None or not i.dtype.is_integer or not trace_computable(bound, {}):
        return None
    upd = body_outs[k].op
    if upd.type != "AddV2":
        return None
    a, b = upd.inputs
    step = constant_value(b) if a is i else constant_value(a) if b is i else None
    start = constant_value(init[k])
    if step is None or start is None or step.size != 1 or start.size != 1 or int(step) <= 0:
        return None
    return bound, int(start), int(step), op.type == "LessEqual"


def _trip_tensor(counting: Any) -> Any:
    """A counting loop's trip count as an int or an int32 tensor computed from shapes (None: not one)."""
    if counting is None:
        return None
    bound, start, step, inclusive = counting
    trips = math_ops.floordiv(bound - (start - int(inclusive) - step + 1), step)
    return math_ops.maximum(trips, 0)


def _trip_count(ev: Any, counting: Any) -> int | None:
    """The iterations of a counting loop (see :func:`_counting`), when its bound's value is known."""
    if counting is None:
        return None
    bound, start, step, inclusive = counting
    try:
        n = int(trace_value(ev, bound))
    except Exception:  # a shape the trace cannot see: no inferred count
        return None
    span = n - start + (1 if inclusive else 0)
    return max(0, -(-span // step))


def _shape_of(v: Any) -> Any:
    return "unallocated" if is_unallocated(v) else list(v.shape)


register_op(
    "While",
    num_outputs=lambda attrs: len(attrs["out_specs"]),
    infer=_while_infer,
    lowering=_while_lowering,
    default_name="while",
)(lambda *a, **k: None)


def while_loop(cond: Callable[..., Any], body: Callable[..., Any], loop_vars: Any, shape_invariants: Any = None,
               parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
               name: str | None = None, maximum_iterations: Any = None, return_same_structure: bool = False) -> Any:
    """Repeats ``body`` while ``cond`` holds, as ``tf.compat.v1.while_loop``
    (lowered to ``lax.while_loop``).

    Args:
      cond: ``(*loop_vars) -> scalar bool tensor``.
      body: ``(*loop_vars) -> loop_vars`` of the same structure, dtypes and
        (unless relaxed by ``shape_invariants``) shapes.
      loop_vars: a tensor, or a (nested) list/tuple of tensors.
      shape_invariants: optional shapes (with ``None`` dims) per loop var.
      maximum_iterations: optional static int bound.

    Returns:
      The final loop vars, in the structure of ``loop_vars`` (a single
      tensor when ``loop_vars`` is a one-element list, as TF1).

    Raises:
      ValueError: ``body`` changes a loop var's dtype or shape, or ``cond``
        does not give a scalar bool (names the loop var).
      TypeError: ``cond`` or ``body`` is not callable.
    """
    if not callable(cond) or not callable(body):
        raise TypeError("cond and body must be callable.")
    single = not isinstance(loop_vars, list | tuple)
    if executing_eagerly():
        vars_ = loop_vars if not single else (loop_vars,)
        while bool(cond(*vars_)):
            out = body(*vars_)
            vars_ = (out,) if single else tuple(out) if isinstance(out, list | tuple) else (out,)
        return vars_[0] if single else type(loop_vars)(vars_)
    graph = get_default_graph()
    structure_in = loop_vars if not single else [loop_vars]
    leaves, treedef = flatten_tensors(list(structure_in))
    mi = None
    if maximum_iterations is not None:
        v = constant_value(maximum_iterations)
        if v is None:
            raise ValueError("maximum_iterations must be known when the graph is built.")
        mi = int(v)
    # TensorArrays travel as their flows (buffers); the body sees TensorArrays on the loop vars.
    loop_name = graph.unique_name(name or "while", mark_as_used=False)
    tas = {i: x for i, x in enumerate(leaves) if isinstance(x, TensorArray)}
    init = [tas[i].flow if i in tas else convert_to_tensor(x) for i, x in enumerate(leaves)]
    if shape_invariants is not None:
        inv_leaves = tree_util.tree_leaves(shape_invariants if not single else [shape_invariants],
                                           is_leaf=lambda s: isinstance(s, TensorShape | list | tuple) and not (
                                               isinstance(s, list | tuple) and s and isinstance(s[0], list | tuple | TensorShape)))
        invariants = [TensorShape(s) for s in inv_leaves] if len(inv_leaves) == len(init) else [t.shape for t in init]
    else:
        invariants = [t.shape for t in init]
    invariants = [tas[i].loop_shape() if i in tas else s for i, s in enumerate(invariants)]

    def as_tas(values: Sequence[Any]) -> Any:
        return tree_util.tree_unflatten(treedef, [build_ta_with_new_flow(tas[i], v) if i in tas else v for i, v in enumerate(values)])

    def body_flows(*a: Any) -> Any:
        out = body(*a)
        out_leaves, out_tree = flatten_tensors(out)
        return tree_util.tree_unflatten(out_tree, [x.flow if isinstance(x, TensorArray) else x for x in out_leaves])
    with graph.name_scope(name or "while") as scope:
        lvs = [
            apply_op("LoopVar", (), {"shape": inv, "dtype": t.dtype}, name=f"loop_var_{i}")
            for i, (t, inv) in enumerate(zip(init, invariants))
        ]
        args = as_tas(lvs)
        cond_ops, preds, _ = trace_subgraph(graph, cond, args, "while_loop cond")
        if len(preds) != 1:
            raise ValueError(f"while_loop: cond must return one scalar bool tensor, got {len(preds)} values.")
        pred = preds[0]
        if pred.dtype != _dtypes.bool or pred.shape.ndims not in (None, 0):
            raise ValueError(
                f"while_loop: cond must return a scalar bool, got {pred.dtype.name} of shape {pred.shape}."
            )
        body_ops, body_outs, out_tree = trace_subgraph(graph, body_flows, args, "while_loop bodies")
        if out_tree != treedef and not (len(body_outs) == len(lvs) == 1):
            if len(body_outs) != len(lvs):
                raise ValueError(
                    f"while_loop: body returned {len(body_outs)} loop vars, expected {len(lvs)}."
                )
        for i, (t, lv) in enumerate(zip(body_outs, lvs)):
            if t.dtype != lv.dtype:
                raise ValueError(
                    f"while_loop: loop var {i} ('{init[i].name}') enters with dtype {lv.dtype.name} but "
                    f"the body returns {t.dtype.name}."
                )
            if not lv.shape.is_compatible_with(t.shape) or (
                lv.shape.is_fully_defined() and t.shape.as_tuple() != lv.shape.as_tuple()
                and t.shape.is_fully_defined()
            ):
                raise ValueError(
                    f"while_loop: loop var {i} ('{init[i].name}') has shape {lv.shape} before the loop "
                    f"and {t.shape} after one iteration; pass shape_invariants to allow it."
                )
        bound = set(lvs)
        ext: list[Tensor] = []
        seen: set[Tensor] = set()
        for t in subgraph_externals(cond_ops, bound, [pred]) + subgraph_externals(body_ops, bound, body_outs):
            if t not in seen:
                seen.add(t)
                ext.append(t)
        if last_writers(cond_ops):
            raise NotImplementedError(
                f"while_loop '{graph.unique_name('while', mark_as_used=False)}': assigning variables in the "
                "loop condition is not supported by jaxsess; assign in the body."
            )
        attrs = {
            "loop_vars": tuple(lvs),
            "pred": pred,
            "body_outs": tuple(body_outs),
            "externals": tuple(ext),
            "out_specs": tuple((inv, t.dtype) for inv, t in zip(invariants, init)),
            "sub_ops": (tuple(cond_ops), tuple(body_ops)),
            "maximum_iterations": mi,
            "var_writes": tuple(last_writers(body_ops)),
            "counting": _counting(pred, lvs, body_outs, init),
        }
        # dynamic_size TensorArrays grow by a bound on the iterations before the loop
        grow = [i for i in tas if tas[i].dynamic_size]
        if grow:
            rows = mi if mi is not None else _trip_tensor(attrs["counting"])
            for i in grow:
                init[i] = tas[i].grow_for_loop(rows, loop_name).flow
        res = apply_op("While", [*init, *ext], attrs, name=scope)  # the op is named as its scope (`while`)
        # as TF 2.x: the results are `while/Identity_2`, ... (TF's 0 and 1 are its loop counter and bound)
        res_l = [identity(t, name=f"Identity_{i + 2}") for i, t in enumerate(res if isinstance(res, list) else [res])]
    result = as_tas(res_l)
    if single:
        return result[0]
    if isinstance(loop_vars, tuple):
        return tuple(result)
    if len(result) == 1 and not return_same_structure:
        return result[0]
    return result


def switch_case(branch_index: Any, branch_fns: Any, default: Callable[[], Any] | None = None,
                name: str = "switch_case") -> Any:
    """The result of ``branch_fns[branch_index]``, as ``tf.switch_case`` (lowered to ``lax.switch``).

    Args:
      branch_index: an int32 scalar tensor or value.
      branch_fns: a list of callables, a dict ``{int: callable}`` with keys
        ``0..n-1``, or a list of ``(int, callable)`` pairs.
      default: called for an index outside ``[0, n)``; when ``None``, the last
        branch is (as TF).

    Raises:
      TypeError: a branch is not callable; ValueError: no branches, or keys not ``0..n-1``.
    """
    if isinstance(branch_fns, dict):
        branch_fns = sorted(branch_fns.items())
    fns = list(branch_fns)
    if fns and isinstance(fns[0], tuple):
        keys = [k for k, _ in fns]
        if sorted(keys) != list(range(len(keys))):
            raise ValueError(f"branch indices (keys) must form contiguous range of [0 to {len(keys)}) but "
                             f"found {{{', '.join(str(k) for k in keys)}}}")
        fns = [f for _, f in sorted(fns, key=lambda kv: kv[0])]
    if not fns:
        raise ValueError("Must provide at least one item in `branch_fns`")
    if executing_eagerly():
        i = int(branch_index)
        return (fns[i] if 0 <= i < len(fns) else default or fns[-1])()
    with get_default_graph().name_scope(name):
        idx = convert_to_tensor(branch_index, dtype=_dtypes.int32, name="branch_index")
        out_of_range = math_ops.logical_or(math_ops.less(idx, 0), math_ops.greater_equal(idx, len(fns)))
        if default is not None:
            fns = [*fns, default]
        idx = math_ops.where(out_of_range, convert_to_tensor(len(fns) - 1, dtype=_dtypes.int32), idx)
        return _build_branches("Case", idx, fns, "indexed_case", "switch_case")
