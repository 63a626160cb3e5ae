"""Symbolic gradients, as ``tf.compat.v1.gradients``, through ``jax.vjp``.

``gradients(ys, xs)`` adds one ``SymbolicGradient`` op. Its lowering
re-expresses the sub-graph between ``xs`` and ``ys`` (the ops that descend
from an ``x`` and lead to a ``y``) as a JAX function of the ``xs`` and takes
its vector-Jacobian product; everything else the sub-graph reads enters as a
constant. Any tensor can be an ``x``; a ``Variable`` stands for all its reads.
A ``while_loop`` on the way must have ``maximum_iterations`` (it is then
differentiated as a bounded loop; see :mod:`jaxsess._tf1.ops.control_flow`).

Ops whose gradient is overridden (:mod:`jaxsess._tf1.ops.custom_gradient`) get
their registered function called once here, building their gradient
sub-graph; the lowering evaluates such an op inside a ``jax.custom_vjp``
whose backward pass evaluates that sub-graph. ``hessians`` is the Jacobian
of a gradient (``jax.vmap`` of the ``jax.vjp``).
"""

from __future__ import annotations

import contextlib
import enum
import functools
from collections.abc import Iterator, Sequence
from typing import Any

import jax
import jax.numpy as jnp

from jaxsess._core.graph._builder import apply_op, convert_to_tensor, executing_eagerly
from jaxsess._core.graph._graph import Operation, Tensor
from jaxsess._core.graph._host import is_host_op
from jaxsess._core.graph._lowering import VARIABLE_OP
from jaxsess._core.graph._registry import get_op_def, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops.custom_gradient import gradient_function, gradient_input
from jaxsess._tf1.ops.fill_ops import zeros_like

__all__ = ["AggregationMethod", "GradientTape", "UnconnectedGradients", "gradients", "hessians", "jacobian", "subgraph_between"]


class AggregationMethod:
    """How TF sums the gradients an op receives from several consumers, as
    ``tf.AggregationMethod``. jaxsess checks the value and lets XLA sum
    (the choice only changes TF's memory use)."""

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


class UnconnectedGradients(enum.Enum):
    """What ``gradients`` gives for an ``x`` no ``y`` depends on, as
    ``tf.UnconnectedGradients``: ``NONE`` (``None``) or ``ZERO`` (zeros)."""

    NONE = "none"
    ZERO = "zero"


# One overridden op: (op, gradient inputs (one per output), gradients (one per input, or None),
# tensors the gradient sub-graph reads besides the op's inputs and outputs, the sub-graph's ops,
# the op type whose implementation's autodiff is the gradient (``{"Sign": "Identity"}``) or None).
Override = tuple[
    Operation, tuple[Tensor, ...], tuple[Tensor | None, ...], tuple[Tensor, ...], tuple[Operation, ...], str | None
]


def _as_x(x: Any) -> Tensor:
    ref = getattr(x, "_ref", None)  # a graph Variable: differentiate all its reads
    if ref is not None and getattr(x, "_eager_session", None) is None:
        return ref  # type: ignore[no-any-return]
    return convert_to_tensor(x)


# Op types TF differentiates to None (``NotDifferentiable``, or a gradient function returning None).
_NO_GRADIENT = frozenset({
    "StopGradient", "Floor", "Ceil", "Round", "Rint", "ZerosLike", "OnesLike", "PyFunc", "OneHot", "Shape",
    "Size", "Rank", "Range", "LinSpace",
})


def subgraph_between(
    xs: Sequence[Tensor], ys: Sequence[Tensor], stop: Sequence[Tensor] = ()
) -> tuple[list[Operation], list[Tensor], list[bool], list[list[int]]]:
    """The ops on data paths from ``xs`` to ``ys``, their external inputs,
    for each ``x`` whether any ``y`` depends on it, and groups of ``xs``
    none of which depends on another (each group is differentiated in one
    ``jax.vjp``; an ``x`` downstream of another gets the total derivative,
    as TF1).

    Returns:
      ``(ops in creation order, external inputs, connected flags, groups)``.
    """
    graph = (xs[0] if xs else ys[0]).graph
    x_set = set(xs)
    stop_ops = {t.op for t in stop}
    # Ancestors of ys (data edges), walking through the xs too.
    anc: set[Operation] = set()
    stack = [y.op for y in ys]
    while stack:
        op = stack.pop()
        # as TF, StopGradient has no gradient function: an x reached only through it gets None
        if op in anc or op in stop_ops or op.type == "StopGradient":
            continue
        anc.add(op)
        for t in op.inputs:
            if t.op not in anc:
                stack.append(t.op)
    # Descendants of xs among the ancestors, in creation order, as TF's gradients: only through
    # float/complex tensors and ops with a gradient (an argmax, a cast to int, a comparison, floor or
    # stop_gradient on every path: the gradient is None).
    produced: set[Tensor] = set(x_set)
    ops: list[Operation] = []
    first = min((t.op._id for t in xs), default=0)
    for op in graph._ops:
        if op._id < first or op not in anc:
            continue
        if any(t in produced for t in op.inputs):
            if op.type in _NO_GRADIENT and op._gradient_op_type is None:
                continue
            ops.append(op)
            produced.update(t for t in op.outputs if t.dtype.is_floating or t.dtype.is_complex)
    # Keep the ops on such paths that reach a y.
    needed: set[Tensor] = set(ys)
    kept: list[Operation] = []
    for op in reversed(ops):
        if any(t in needed for t in op.outputs):
            kept.append(op)
            needed.update(t for t in op.inputs if t in produced)
    ops = kept[::-1]
    inside = set(ops)
    external: list[Tensor] = []
    seen: set[Tensor] = set()
    for op in ops:
        for t in op.inputs:
            if t in x_set or t.op in inside or t in seen:
                continue
            seen.add(t)
            external.append(t)
    y_set = set(ys)
    connected = [x in y_set or any(x in op.inputs for op in ops) for x in xs]
    # Group the xs into antichains by their depth among each other.
    if not any(x.op in inside for x in xs):
        groups = [list(range(len(xs)))]
    else:
        # level(x) = number of xs on the longest chain above x; depth(t) =
        # 1 + the largest level of an x that t descends from.
        level: dict[Tensor, int] = {x: 0 for x in xs if x.op not in inside}
        depth: dict[Tensor, int] = {x: 1 for x in level}
        for op in ops:
            d = max((depth.get(t, 0) for t in op.inputs), default=0)
            for t in op.outputs:
                if t in x_set:
                    level[t] = d
                    depth[t] = d + 1
                elif d:
                    depth[t] = d
        by_level: dict[int, list[int]] = {}
        for i, x in enumerate(xs):
            by_level.setdefault(level.get(x, 0), []).append(i)
        groups = [by_level[k] for k in sorted(by_level)]
    return ops, external, connected, groups


def _check_loops_bounded(ops: Sequence[Operation]) -> None:
    """Raises ``ValueError`` naming a ``while_loop`` on the gradient's path
    that has no ``maximum_iterations`` (XLA's while has no reverse mode)."""
    todo = list(ops)
    while todo:
        op = todo.pop()
        if op.type == "While" and op.attrs.get("maximum_iterations") is None and op.attrs.get("counting") is None:
            loop = op.name.rsplit("/", 1)[0]
            raise ValueError(
                f"Cannot differentiate while_loop '{loop}': it has no maximum_iterations. XLA's while "
                "loop has no reverse mode; build the loop with maximum_iterations=N (a bound on its "
                "iterations) to take gradients through it."
            )
        if op._op_def.lowering is not None:
            for sub in op.attrs.get("sub_ops", ()):
                todo.extend(sub)


def _with_bodies(ops: Sequence[Operation]) -> list[Operation]:
    """``ops`` and the ops of the control-flow bodies among them (recursively;
    not the sub-graphs of nested gradients, which handle their own)."""
    out: list[Operation] = []
    todo = list(reversed(ops))
    while todo:
        op = todo.pop()
        out.append(op)
        if op._op_def.lowering is not None and op.type != "SymbolicGradient":
            for sub in op.attrs.get("sub_ops", ()):
                todo.extend(reversed(sub))
    return out


def _build_overrides(
    forward: list[Operation], xs: Sequence[Tensor]
) -> tuple[tuple[Override, ...], list[Operation], list[Tensor]]:
    """Calls the registered gradient function of each overridden op among
    ``forward`` (and their bodies), under the current name scope.

    Returns:
      ``(overrides, the gradient sub-graphs' ops, tensors they read that the
      forward pass does not compute)``.

    Raises:
      LookupError: an op is mapped to an unregistered gradient name.
      ValueError: a gradient function returns the wrong number of gradients.
    """
    overrides: list[Override] = []
    grad_ops: list[Operation] = []
    outer: list[Tensor] = []
    produced: set[Tensor] | None = None
    for op in forward:
        overridden, fn, as_type = gradient_function(op)
        if not overridden:
            continue
        if op._op_def.ref_inputs:
            raise ValueError(f"Cannot override the gradient of '{op.name}' (op: {op.type}): it takes a variable reference")
        if as_type is not None:
            overrides.append((op, (), (), (), (), as_type))
            continue
        graph = op.graph
        start = len(graph._ops)
        with graph.name_scope(op.name.rsplit("/", 1)[-1] + "_grad"):
            g_in = tuple(gradient_input(t) for t in op.outputs)
            if fn is None:
                raw: Any = [None] * len(op.inputs)
            else:
                raw = fn(op, *g_in)
            raw_l = list(raw) if isinstance(raw, list | tuple) else [raw]
            if len(raw_l) != len(op.inputs):
                raise ValueError(
                    f"Num gradients {len(raw_l)} generated for op name: {op.name} (op: {op.type}) do not "
                    f"match num inputs {len(op.inputs)}"
                )
            grads = tuple(None if g is None else convert_to_tensor(g, dtype=t.dtype) for g, t in zip(raw_l, op.inputs))
        g_in_ops = {t.op for t in g_in}
        new = [g_op for g_op in graph._ops[start:] if g_op not in g_in_ops]
        new_set = set(new)
        bound = {*op.inputs, *op.outputs, *g_in}
        ext: dict[Tensor, None] = {}
        for g_op in new:
            for t in g_op.inputs:
                if t.op not in new_set and t not in bound:
                    ext[t] = None
        for g in grads:
            if g is not None and g.op not in new_set and g not in bound:
                ext[g] = None
        if produced is None:
            produced = set(xs)
            for f_op in forward:
                produced.update(f_op.outputs)
        for t in ext:
            if t in produced and t.op._id > op._id and t not in xs:
                raise ValueError(
                    f"The gradient function of '{op.name}' (op: {op.type}) reads '{t.name}', which the forward "
                    "pass computes after that op; a gradient may read the op's inputs and outputs and tensors "
                    "computed before it."
                )
        outer.extend(t for t in ext if t not in produced and t.op.type != VARIABLE_OP)
        grad_ops.extend(new)
        overrides.append((op, g_in, grads, tuple(ext), tuple(new), None))
    return tuple(overrides), grad_ops, outer


def _value_of(ev: Any, t: Tensor) -> Any:
    if t in ev.env:
        return ev.env[t]
    if t.op.type == VARIABLE_OP:
        return ev.read_var(None, t.op)
    raise ValueError(
        f"The gradient of '{ev.current_op.name}' reads '{t.name}', which is not computed before it"
    )


def _run_overridden(spec: Override, ev: Any, op: Operation) -> Any:
    """The outputs of ``op`` from a ``jax.custom_vjp`` whose backward pass is
    the registered gradient (an :class:`Evaluator` hook)."""
    _, g_in, grads, ext, g_ops, as_type = spec
    in_vals = ev.input_values(op)
    ext_vals = [_value_of(ev, t) for t in ext]
    others = {k: v for k, v in ev.grad_overrides.items() if k is not op}

    def forward(in_vals: list[Any], ext_vals: list[Any]) -> list[Any]:
        # JAX may trace this after ``ev`` has stored the op's outputs: recompute them.
        child = ev.fork(dict(zip(op.inputs, in_vals)), drop=() if is_host_op(op) else (op,))
        child.grad_overrides = others
        child.run_op(op)
        return [child.env[t] for t in op.outputs]

    def fwd(in_vals: list[Any], ext_vals: list[Any]) -> tuple[list[Any], Any]:
        outs = forward(in_vals, ext_vals)
        return outs, (in_vals, outs, ext_vals)

    def bwd(res: Any, cts: list[Any]) -> tuple[list[Any], list[Any]]:
        in_vals, outs, ext_vals = res
        if as_type is not None:
            od = get_op_def(as_type)
            attrs = op.attrs if as_type == op.type else {}
            _, vjp = jax.vjp(lambda *a: od.impl(*a, **attrs), *in_vals)
            got = list(vjp(cts[0] if len(cts) == 1 else tuple(cts)))
        else:
            env = dict(zip(op.inputs, in_vals))
            env.update(zip(op.outputs, outs))
            env.update(zip(ext, ext_vals))
            env.update(zip(g_in, cts))
            child = ev.fork(env, drop=g_ops)
            child.run(g_ops)
            got = [None if g is None else child.env[g] for g in grads]
        cot: list[Any] = []
        for g, v in zip(got, in_vals):
            inexact = jnp.issubdtype(jnp.result_type(v), jnp.inexact)
            if g is None or not inexact or getattr(g, "dtype", None) == jax.dtypes.float0:
                cot.append(None)
            else:
                cot.append(jnp.broadcast_to(jnp.asarray(g, dtype=jnp.result_type(v)), jnp.shape(v)))
        return cot, [None] * len(ext_vals)

    call = jax.custom_vjp(forward)
    call.defvjp(fwd, bwd)
    outs = call(list(in_vals), ext_vals)
    return tuple(outs) if len(op.outputs) != 1 else outs[0]


def _grad_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    n = attrs["n_x"]
    if attrs.get("jacobian"):
        (y,) = attrs["ys"]
        x_shape, x_dtype = specs[0]
        return [(y.shape.concatenate(TensorShape(x_shape)), x_dtype)]
    return [(TensorShape(s), d) for s, d in specs[:n]]


def _gradients_lowering(ev: Any, op: Operation, vals: list[Any]) -> Any:
    xs: tuple[Tensor, ...] = op.attrs["xs"]
    ys: tuple[Tensor, ...] = op.attrs["ys"]
    sub = op.attrs["sub_ops"][0]
    n = len(xs)
    x_vals = vals[:n]
    grad_ys = vals[n:n + len(ys)] if op.attrs["has_grad_ys"] else None
    overrides: tuple[Override, ...] = op.attrs.get("overrides", ())
    hooks = dict(ev.grad_overrides)
    for spec in overrides:
        hooks[spec[0]] = functools.partial(_run_overridden, spec)
    jacobian = op.attrs.get("jacobian", False)
    recomputed = [o for o in sub if not is_host_op(o)]  # host ops' outputs were computed before the plan
    grads: list[Any] = [None] * n
    for group in op.attrs["groups"]:
        gx = [xs[i] for i in group]

        drew: list[Operation] = []  # random ops the recomputation ran, in the order of its advances

        def f(*xv: Any, gx: list[Tensor] = gx, drew: list[Operation] = drew) -> tuple[list[Any], list[Any]]:
            child = ev.fork(dict(zip(gx, xv)), drop=recomputed)
            child.differentiating = True  # loops in ``sub`` lower to their reverse-differentiable form
            child.assigned = dict(child.assigned)  # assigns re-run under vjp stay inside it
            child.grad_overrides = hooks
            child.run(sub)
            drew[:] = list(child.rng_advance)
            return [child.env[y] for y in ys], [jnp.asarray(child.rng_advance[r], jnp.uint32) for r in drew]

        outs, vjp, advances = jax.vjp(f, *[x_vals[i] for i in group], has_aux=True)
        # A random op that only the gradient's recomputation ran (``sess.run(train_op)``) advances
        # its stream by what it drew there, as TF's one forward run of it.
        for r, a in zip(drew, advances):
            ev.rng_advance.setdefault(r, a)
        if jacobian:  # d y / d x for the one y and x: one vjp per element of y (vmapped)
            y = outs[0]
            basis = jnp.eye(y.size, dtype=y.dtype).reshape((y.size, *y.shape))
            (jac,) = jax.vmap(vjp)([basis])
            return jnp.reshape(jac, (*y.shape, *jnp.shape(x_vals[0])))
        if grad_ys is None:
            cot = [jnp.ones_like(o) for o in outs]
        else:
            cot = [jnp.asarray(g, dtype=o.dtype) for g, o in zip(grad_ys, outs)]
        for i, g in zip(group, vjp(cot)):
            if getattr(g, "dtype", None) == jax.dtypes.float0:
                g = jnp.zeros_like(x_vals[i])
            grads[i] = g
    return tuple(grads) if n != 1 else grads[0]


register_op(
    "SymbolicGradient",
    num_outputs=lambda attrs: attrs["n_x"],
    infer=_grad_infer,
    lowering=_gradients_lowering,
    default_name="gradients",
)(lambda *a, **k: None)


def gradients(
    ys: Any,
    xs: Any,
    grad_ys: Any = None,
    name: str = "gradients",
    colocate_gradients_with_ops: bool = False,
    gate_gradients: bool = False,
    aggregation_method: Any = None,
    stop_gradients: Any = None,
    unconnected_gradients: str | UnconnectedGradients = "none",
) -> list[Any]:
    """Symbolic derivatives of ``sum(ys)`` with respect to each of ``xs``, as
    ``tf.compat.v1.gradients``.

    Args:
      ys: a tensor or list of tensors to differentiate.
      xs: a tensor, ``Variable`` or list of them. Any tensor can be an ``x``.
      grad_ys: optional list of cotangents, one per ``y`` (default ones).
      stop_gradients: tensors treated as constants.
      unconnected_gradients: ``'none'`` (TF1 default: ``None`` for an ``x``
        no ``y`` depends on) or ``'zero'``, or an :class:`UnconnectedGradients`.

    Returns:
      A list with one tensor per ``x`` (same shape and dtype), or ``None``
      for an ``x`` no ``y`` depends on or of an integer or bool dtype
      (zeros with ``unconnected_gradients='zero'``), as TF.

    Raises:
      ValueError: ``grad_ys`` has the wrong length, ``unconnected_gradients``
        or ``aggregation_method`` (an :class:`AggregationMethod`) is unknown, or a ``while_loop`` between ``xs`` and ``ys`` has no
        ``maximum_iterations`` (names the loop).
    """
    if executing_eagerly():
        raise RuntimeError(
            "tf.gradients is not supported when eager execution is enabled (EagerSession); "
            "use jax.grad / jax.vjp on a function instead."
        )
    ys_l = [convert_to_tensor(y) for y in (ys if isinstance(ys, list | tuple) else [ys])]
    xs_l = [_as_x(x) for x in (xs if isinstance(xs, list | tuple) else [xs])]
    if aggregation_method not in (None, 0, 1, 2):
        raise ValueError(
            f"Invalid `aggregation_method` specified {aggregation_method}. Accepted values are [0, 1, 2]."
        )
    if isinstance(unconnected_gradients, UnconnectedGradients):
        unconnected_gradients = unconnected_gradients.value
    if unconnected_gradients not in ("none", "zero"):
        raise ValueError(f"Unknown value for unconnected_gradients: {unconnected_gradients!r} (use 'none' or 'zero')")
    gys: list[Any] | None = None
    if grad_ys is not None:
        gys = list(grad_ys) if isinstance(grad_ys, list | tuple) else [grad_ys]
        if len(gys) != len(ys_l):
            raise ValueError(f"Length mismatch. Passed {len(gys)} grad_ys for {len(ys_l)} ys")
        gys = [convert_to_tensor(g, dtype=y.dtype) for g, y in zip(gys, ys_l)]
    if stop_gradients is None:
        stop_gradients = []
    stops = [convert_to_tensor(t) for t in (stop_gradients if isinstance(stop_gradients, list | tuple) else [stop_gradients])]
    ops, external, connected, groups = subgraph_between(xs_l, ys_l, stops)
    _check_loops_bounded(ops)
    # As TF: no gradient flows to an integer (or bool) x; the sub-graph still reads it.
    exact = [c and not (x.dtype.is_floating or x.dtype.is_complex) for x, c in zip(xs_l, connected)]
    if any(exact):
        external = external + [x for x, e in zip(xs_l, exact) if e]
        connected = [c and not e for c, e in zip(connected, exact)]
    return _symbolic_gradient(xs_l, ys_l, gys, ops, external, connected, groups, name, unconnected_gradients)


def _symbolic_gradient(
    xs_l: list[Tensor],
    ys_l: list[Tensor],
    gys: list[Any] | None,
    ops: list[Operation],
    external: list[Tensor],
    connected: list[bool],
    groups: list[list[int]],
    name: str,
    unconnected_gradients: str = "none",
    jacobian: bool = False,
) -> list[Any]:
    """Adds the ``SymbolicGradient`` op (after building the gradient
    sub-graphs of overridden ops under the ``name`` scope)."""
    graph = ys_l[0].graph
    with graph.name_scope(name) as scope:
        forward = _with_bodies(ops)
        overrides, grad_ops, outer = _build_overrides(forward, xs_l)
    # Host ops on the path (py_func) run before the device plan: their outputs enter as inputs.
    outer += [t for o in ops if is_host_op(o) for t in o.outputs]
    if outer:
        seen = set(external)
        external = external + [t for t in dict.fromkeys(outer) if t not in seen]
    live = [x for x, c in zip(xs_l, connected) if c]
    live_index = {id(x): i for i, x in enumerate(live)}
    live_groups = tuple(
        g for g in (tuple(live_index[id(xs_l[i])] for i in grp if connected[i]) for grp in groups) if g
    )
    results: list[Any] = []
    if live:
        attrs = {
            "xs": tuple(live),
            "ys": tuple(ys_l),
            "sub_ops": (tuple(ops), tuple(grad_ops)),
            "n_x": len(live),
            "has_grad_ys": gys is not None,
            "groups": live_groups,
            "overrides": overrides,
            "jacobian": jacobian,
        }
        out = apply_op("SymbolicGradient", [*live, *(gys or []), *external], attrs, name=scope)
        grads = list(out) if isinstance(out, list) else [out]
    else:
        grads = []
    it = iter(grads)
    for x, c in zip(xs_l, connected):
        if c:
            results.append(next(it))
        elif unconnected_gradients == "zero":
            results.append(zeros_like(x))
        else:
            results.append(None)
    return results


def hessians(
    ys: Any,
    xs: Any,
    name: str = "hessians",
    colocate_gradients_with_ops: bool = False,
    gate_gradients: bool = False,
    aggregation_method: Any = None,
) -> list[Tensor]:
    """Second derivatives of ``sum(ys)`` with respect to each of ``xs``, as
    ``tf.compat.v1.hessians``.

    For each ``x``, the Jacobian of ``gradients(ys, x)`` with respect to
    ``x`` alone (no cross terms between different ``xs``, as TF).

    Args:
      ys: a tensor or list of tensors.
      xs: a tensor, ``Variable`` or list of them.

    Returns:
      One tensor per ``x``, of shape ``x.shape + x.shape`` and ``x``'s dtype.

    Raises:
      ValueError: no ``y`` depends on an ``x`` (TF's "None values not
        supported."), or what :func:`gradients` raises. Where TF also raises
        it because the gradient happens not to depend on ``x`` (``ys``
        linear in it), jaxsess gives a zero Hessian.
    """
    xs_l = [_as_x(x) for x in (xs if isinstance(xs, list | tuple) else [xs])]
    grads = gradients(ys, xs_l)
    out: list[Tensor] = []
    for g, x in zip(grads, xs_l):
        h = None if g is None else jacobian(g, x, name=name)
        if h is None:
            raise ValueError("None values not supported.")
        out.append(h)
    return out


def jacobian(y: Any, x: Any, name: str = "jacobian") -> Tensor | None:
    """The Jacobian ``d y / d x`` as one tensor of shape ``y.shape + x.shape``
    (one ``jax.vjp`` per element of ``y``, vmapped), or ``None`` when ``y``
    does not depend on ``x`` (or ``x`` is not floating).

    Raises:
      ValueError: a ``while_loop`` between them has no ``maximum_iterations``.
    """
    y_t, x_t = convert_to_tensor(y), _as_x(x)
    ops, external, connected, groups = subgraph_between([x_t], [y_t])
    _check_loops_bounded(ops)
    if not connected[0] or not (x_t.dtype.is_floating or x_t.dtype.is_complex):
        return None
    (out,) = _symbolic_gradient([x_t], [y_t], None, ops, external, connected, groups, name, jacobian=True)
    return out  # type: ignore[no-any-return]


class GradientTape:
    """``tf.GradientTape`` in a TF1 graph: ``gradient`` is :func:`gradients`
    of the target with respect to the sources, as TF's tape gives in graph
    mode for ops built inside the ``with`` block.

    Args:
      persistent: allow several ``gradient`` calls (else one, as TF).
      watch_accessed_variables: accepted (every tensor and variable can be a
        source in a graph).

    jaxsess differentiates the graph itself, so an op built outside the
    ``with`` block also carries gradients (TF's tape would not have recorded
    it); eager execution has no tape (``gradient`` raises).
    """

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True) -> None:
        self._persistent = persistent
        self._used = False
        self._watched: list[Any] = []

    def __enter__(self) -> GradientTape:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def watch(self, tensor: Any) -> None:
        """Marks tensors as sources, as ``GradientTape.watch`` (any tensor is one in a graph)."""
        self._watched.extend(tensor if isinstance(tensor, list | tuple) else [tensor])

    def watched_variables(self) -> tuple[Any, ...]:
        """The watched variables (``watch`` calls), as ``GradientTape.watched_variables``."""
        return tuple(v for v in self._watched if hasattr(v, "initializer"))

    @contextlib.contextmanager
    def stop_recording(self) -> Iterator[None]:
        """A block whose ops the tape does not record, as ``GradientTape.stop_recording``."""
        yield

    def reset(self) -> None:
        """Forgets what was watched and used, as ``GradientTape.reset``."""
        self._watched, self._used = [], False

    def gradient(self, target: Any, sources: Any, output_gradients: Any = None,
                 unconnected_gradients: str | UnconnectedGradients = UnconnectedGradients.NONE) -> Any:
        """The gradients of ``target`` (a tensor or a structure of them,
        summed) with respect to ``sources``, in ``sources``' structure, as
        ``GradientTape.gradient``: ``None`` for a source it does not depend on.

        Raises:
          RuntimeError: a second call on a non-persistent tape, or eager execution.
        """
        if executing_eagerly():
            raise RuntimeError("jaxsess's GradientTape differentiates TF1 graphs; eager execution has no tape.")
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients "
                               "(or jacobians)")
        self._used = True
        ys = jax.tree_util.tree_leaves(target, is_leaf=lambda x: x is None)
        flat, tree = jax.tree_util.tree_flatten(sources, is_leaf=lambda x: x is None)
        grad_ys = (None if output_gradients is None else
                   jax.tree_util.tree_leaves(output_gradients, is_leaf=lambda x: x is None))
        grads = gradients(ys, flat, grad_ys=grad_ys, unconnected_gradients=unconnected_gradients)
        return jax.tree_util.tree_unflatten(tree, grads)
