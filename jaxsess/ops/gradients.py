"""Symbolic gradients, as ``tf.compat.v1.gradients``, through ``jax.vjp``.

``gradients(ys, xs)`` adds one ``SymbolicGradient`` op. Its lowering
re-expresses the sub-graph between ``xs`` and ``ys`` (the ops that descend
from an ``x`` and lead to a ``y``) as a JAX function of the ``xs`` and takes
its vector-Jacobian product; everything else the sub-graph reads enters as a
constant. Any tensor can be an ``x``; a ``Variable`` stands for all its reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp

from jaxsess.graph._graph import Operation, Tensor, TensorShape
from jaxsess.graph._registry import register_op
from jaxsess.ops._core import apply_op, convert_to_tensor, executing_eagerly

__all__ = ["gradients", "subgraph_between"]


def _as_x(x: Any) -> Tensor:
    ref = getattr(x, "_ref", None)  # a graph Variable: differentiate all its reads
    if ref is not None and getattr(x, "_eager_session", None) is None:
        return ref  # type: ignore[no-any-return]
    return convert_to_tensor(x)


def subgraph_between(
    xs: Sequence[Tensor], ys: Sequence[Tensor], stop: Sequence[Tensor] = ()
) -> tuple[list[Operation], list[Tensor], list[bool]]:
    """The ops on data paths from ``xs`` to ``ys``, their external inputs, and
    for each ``x`` whether any ``y`` depends on it.

    Returns:
      ``(ops in creation order, external input tensors, connected flags)``.
    """
    graph = (xs[0] if xs else ys[0]).graph
    x_set = set(xs)
    stop_ops = {t.op for t in stop}
    # Ancestors of ys (data edges).
    anc: set[Operation] = set()
    stack = [y.op for y in ys if y not in x_set]
    while stack:
        op = stack.pop()
        if op in anc or op in stop_ops:
            continue
        anc.add(op)
        for t in op.inputs:
            if t not in x_set and t.op not in anc:
                stack.append(t.op)
    # Descendants of xs among the ancestors, in creation order.
    produced: set[Tensor] = set(x_set)
    ops: list[Operation] = []
    first = min((t.op._id for t in xs), default=0)
    for op in graph._ops:
        if op._id < first or op not in anc:
            continue
        if any(t in produced for t in op.inputs):
            ops.append(op)
            produced.update(op.outputs)
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
    connected = []
    for x in xs:
        direct = x in y_set
        used = any(x in op.inputs for op in ops)
        connected.append(direct or used)
    return ops, external, connected


def _grad_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    n = attrs["n_x"]
    return [(TensorShape(s), d) for s, d in specs[:n]]


def _gradients_lowering(ev: Any, op: Operation, vals: list[Any]) -> Any:
    xs: tuple[Tensor, ...] = op.attrs["xs"]
    ys: tuple[Tensor, ...] = op.attrs["ys"]
    (sub,) = op.attrs["sub_ops"]
    n = len(xs)
    x_vals = vals[:n]
    grad_ys = vals[n:n + len(ys)] if op.attrs["has_grad_ys"] else None

    def f(*xv: Any) -> list[Any]:
        child = ev.fork(dict(zip(xs, xv)), drop=sub)
        child.run(sub)
        return [child.env[y] for y in ys]

    outs, vjp = jax.vjp(f, *x_vals)
    if grad_ys is None:
        cot = [jnp.ones_like(o) for o in outs]
    else:
        cot = [jnp.asarray(g, dtype=o.dtype) for g, o in zip(grad_ys, outs)]
    grads = vjp(cot)
    out = []
    for g, x in zip(grads, x_vals):
        if getattr(g, "dtype", None) == jax.dtypes.float0:
            g = jnp.zeros_like(x)
        out.append(g)
    return tuple(out) if n != 1 else out[0]


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
    unconnected_gradients: str = "none",
) -> list[Any]:
    """Symbolic derivatives of ``sum(ys)`` with respect to each of ``xs``, as
    ``tf.compat.v1.gradients``.

    Args:
      ys: a tensor or list of tensors to differentiate.
      xs: a tensor, ``Variable`` or list of them. Any tensor can be an ``x``.
      grad_ys: optional list of cotangents, one per ``y`` (default ones).
      stop_gradients: tensors treated as constants.
      unconnected_gradients: ``'none'`` (TF1 default: ``None`` for an ``x``
        no ``y`` depends on) or ``'zero'``.

    Returns:
      A list with one tensor per ``x`` (same shape and dtype), or ``None``.

    Raises:
      ValueError: ``grad_ys`` has the wrong length, or ``unconnected_gradients``
        is unknown.
    """
    if executing_eagerly():
        raise RuntimeError(
            "tf.gradients is not supported when eager execution is enabled (EagerSession); "
            "use jax.grad / jax.vjp on a function instead."
        )
    ys_l = [convert_to_tensor(y) for y in (ys if isinstance(ys, list | tuple) else [ys])]
    xs_l = [_as_x(x) for x in (xs if isinstance(xs, list | tuple) else [xs])]
    if unconnected_gradients not in ("none", "zero"):
        raise ValueError(f"Unknown unconnected_gradients={unconnected_gradients!r}; use 'none' or 'zero'.")
    gys: list[Any] | None = None
    if grad_ys is not None:
        gys = list(grad_ys) if isinstance(grad_ys, list | tuple) else [grad_ys]
        if len(gys) != len(ys_l):
            raise ValueError(f"Passed {len(gys)} grad_ys for {len(ys_l)} ys")
        gys = [convert_to_tensor(g, dtype=y.dtype) for g, y in zip(gys, ys_l)]
    stops = [convert_to_tensor(t) for t in (stop_gradients or [])]
    ops, external, connected = subgraph_between(xs_l, ys_l, stops)
    live = [x for x, c in zip(xs_l, connected) if c]
    results: list[Any] = []
    if live:
        attrs = {
            "xs": tuple(live),
            "ys": tuple(ys_l),
            "sub_ops": (tuple(ops),),
            "n_x": len(live),
            "has_grad_ys": gys is not None,
        }
        out = apply_op("SymbolicGradient", [*live, *(gys or []), *external], attrs, name=name)
        grads = list(out) if isinstance(out, list) else [out]
    else:
        grads = []
    it = iter(grads)
    for x, c in zip(xs_l, connected):
        if c:
            results.append(next(it))
        elif unconnected_gradients == "zero":
            from jaxsess.ops import array_ops

            results.append(array_ops.zeros_like(x))
        else:
            results.append(None)
    return results
