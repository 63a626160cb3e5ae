"""Functional control flow, as ``tf.compat.v1.scan`` / ``map_fn`` / ``foldl`` /
``foldr``, and ``tf.einsum``.

All four loops are one op type, ``Scan``: a sub-graph function (built and
captured exactly as a ``while_loop`` body, see :mod:`jaxsess._tf1.ops.control_flow`)
lowered to ``lax.scan``. It carries a list of tensors from step to step and
stacks per-step outputs along a new leading axis. Reverse-mode gradients
(``tf.gradients``, optimizers) go through ``lax.scan``, so recurrent networks
built on it (:mod:`jaxsess._tf1.ops.rnn`) train. Variables created inside the
function are created once, outside the loop (TF1's ``init_scope``).

Limits: assigning variables inside the function raises ``NotImplementedError``
(as inside ``while_loop`` bodies); the number of steps is the static or
run-time length of the first elems tensor's leading dimension, fixed per
compiled plan.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
from jax import tree_util

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor, executing_eagerly
from jaxsess._core.graph._graph import Operation, Tensor, get_default_graph
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import array_ops as array_ops
from jaxsess._tf1.ops._subgraph import (
    eval_subgraph,
    flatten_tensors,
    last_writers,
    random_ops_within,
    rng_advances,
    split_externals,
    subgraph_externals,
    trace_subgraph,
)
from jaxsess._tf1.ops.custom_gradient import identity_n

__all__ = ["scan", "map_fn", "foldl", "foldr", "einsum", "scan_loop", "vectorized_map", "function"]


# -- the Scan op ------------------------------------------------------------------------


def _scan_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return list(attrs["out_specs"])


def _scan_lowering(ev: Any, op: Operation, vals: list[Any]) -> Any:
    carry_vars: tuple[Tensor, ...] = op.attrs["carry_vars"]
    elem_vars: tuple[Tensor, ...] = op.attrs["elem_vars"]
    ext_tensors: tuple[Tensor, ...] = op.attrs["externals"]
    carry_outs: tuple[Tensor, ...] = op.attrs["carry_outs"]
    y_outs: tuple[Tensor, ...] = op.attrs["y_outs"]
    (body_ops,) = op.attrs["sub_ops"]
    nc, ne = len(carry_vars), len(elem_vars)
    specs = op.attrs["out_specs"]
    init = tuple(jnp.asarray(v, dtype=s[1].np_dtype) for v, s in zip(vals[:nc], specs))
    elems = tuple(vals[nc:nc + ne])
    ext_env, var_values = split_externals(ext_tensors, vals[nc + ne:])

    # random ops in the body: each step draws after the earlier ones, as in TF's while loop
    randoms = random_ops_within(body_ops)

    def body(state: tuple[Any, tuple[Any, ...], tuple[Any, ...]], xs: tuple[Any, ...]) -> Any:
        i, carry, offsets = state
        env = dict(ext_env)
        env.update(zip(carry_vars, carry))
        env.update(zip(elem_vars, xs))
        raw, child = eval_subgraph(ev, body_ops, (*carry_outs, *y_outs), env, fold=i, var_values=var_values,
                                   rng_offset=dict(zip(randoms, offsets)))
        new = tuple(jnp.asarray(v, dtype=s[1].np_dtype) for v, s in zip(raw[:nc], specs))
        for k, (a, b) in enumerate(zip(carry, new)):
            if a.shape != b.shape:
                raise errors.InvalidArgumentError(
                    op.name, op,
                    f"{op.attrs['what']} '{op.name}': the function changes the shape of its "
                    f"accumulator {k} ('{carry_vars[k].name}') from {list(a.shape)} to {list(b.shape)}.",
                )
        ys = tuple(jnp.asarray(v, dtype=s[1].np_dtype) for v, s in zip(raw[nc:], specs[nc:]))
        advanced = tuple(o + a for o, a in zip(offsets, rng_advances(child, body_ops, randoms)))
        return (i + 1, new, advanced), ys

    length = None if elems else 0
    offsets0 = tuple(jnp.asarray(ev.rng_offset.get(r, 0), jnp.uint32) for r in randoms)
    (_, final, offsets), ys = jax.lax.scan(
        body, (jnp.uint32(0), init, offsets0), elems, length=length, reverse=op.attrs["reverse"]
    )
    ev.rng_advance.update((r, b - a) for r, a, b in zip(randoms, offsets0, offsets))
    out = (*final, *ys)
    return out if len(out) != 1 else out[0]


register_op(
    "Scan",
    num_outputs=lambda attrs: len(attrs["out_specs"]),
    infer=_scan_infer,
    lowering=_scan_lowering,
    default_name="scan",
)(lambda *a, **k: None)


def scan_loop(
    body: Callable[[list[Tensor], list[Tensor]], tuple[Sequence[Any], Sequence[Any]]],
    carry: Sequence[Any],
    elems: Sequence[Any],
    *,
    reverse: bool = False,
    what: str = "scan",
) -> tuple[list[Tensor], list[Tensor]]:
    """One ``Scan`` op: ``body(carry, x) -> (new_carry, y)`` over the leading
    axis of ``elems`` (lowered to ``lax.scan``).

    Args:
      body: builds one step from the carried tensors and one slice of each
        ``elems`` tensor (both lists); returns the new carry (same length,
        dtypes and shapes) and a list of per-step outputs.
      carry: the initial carried tensors.
      elems: tensors of shape ``[n, ...]`` (at least one), all with the same ``n``.
      reverse: iterate from the last slice to the first (outputs keep their
        positions).
      what: the caller's name, for error messages.

    Returns:
      ``(final carry, stacked outputs)``; each output has shape ``[n, ...]``.

    Raises:
      TypeError: ``body`` changes a carried tensor's dtype.
      ValueError: ``body`` changes a carried tensor's static shape.
    """
    carry_t = [convert_to_tensor(c) for c in carry]
    elems_t = [convert_to_tensor(e) for e in elems]
    if not elems_t:
        raise ValueError(f"{what}: needs at least one elems tensor.")
    for e in elems_t:
        if TensorShape(e.shape).ndims == 0:
            raise ValueError(f"{what}: elems must have a leading dimension to iterate over; got a scalar '{e.name}'.")
    if executing_eagerly():
        return _eager_scan(body, carry_t, elems_t, reverse)
    graph = get_default_graph()
    n = elems_t[0].shape[0] if elems_t[0].shape.ndims is not None else None
    carry_vars = [
        apply_op("LoopVar", (), {"shape": c.shape, "dtype": c.dtype}, name=f"carry_{i}")
        for i, c in enumerate(carry_t)
    ]
    elem_vars = [
        apply_op("LoopVar", (), {"shape": TensorShape(e.shape.as_list()[1:] if e.shape.ndims else None),
                                 "dtype": e.dtype}, name=f"elem_{i}")
        for i, e in enumerate(elems_t)
    ]

    def fn() -> Any:
        new_carry, ys = body(list(carry_vars), list(elem_vars))
        return list(new_carry), list(ys)

    body_ops, leaves, _ = trace_subgraph(graph, fn, (), f"{what} functions")
    written = last_writers(body_ops)
    if written:
        op = next(iter(written.values()))
        raise NotImplementedError(
            f"Assigning variables inside {what} functions is not supported by jaxsess (op '{op.name}'); "
            "assign outside the scan, using its result."
        )
    nc = len(carry_t)
    carry_outs, y_outs = leaves[:nc], leaves[nc:]
    if len(carry_outs) != nc:
        raise ValueError(f"{what}: the function returned {len(carry_outs)} accumulators, expected {nc}.")
    for i, (t, c) in enumerate(zip(carry_outs, carry_t)):
        if t.dtype != c.dtype:
            raise TypeError(
                f"{what}: accumulator {i} ('{c.name}') enters with dtype {c.dtype.name} but the "
                f"function returns {t.dtype.name}."
            )
        if not c.shape.is_compatible_with(t.shape):
            raise ValueError(
                f"{what}: accumulator {i} ('{c.name}') has shape {c.shape} but the function "
                f"returns shape {t.shape}."
            )
    bound = set(carry_vars) | set(elem_vars)
    ext = subgraph_externals(body_ops, bound, carry_outs + y_outs)
    out_specs = [(c.shape, c.dtype) for c in carry_t] + [
        (TensorShape([n, *(y.shape.as_list() if y.shape.ndims is not None else [])])
         if y.shape.ndims is not None else TensorShape(None), y.dtype)
        for y in y_outs
    ]
    attrs = {
        "carry_vars": tuple(carry_vars),
        "elem_vars": tuple(elem_vars),
        "carry_outs": tuple(carry_outs),
        "y_outs": tuple(y_outs),
        "externals": tuple(ext),
        "out_specs": tuple(out_specs),
        "sub_ops": (tuple(body_ops),),
        "reverse": bool(reverse),
        "what": what,
    }
    if not out_specs:
        return [], []
    res = apply_op("Scan", [*carry_t, *elems_t, *ext], attrs, name="scan")
    res_l = res if isinstance(res, list) else [res]
    return res_l[:nc], res_l[nc:]


def _eager_scan(
    body: Callable[[list[Any], list[Any]], tuple[Sequence[Any], Sequence[Any]]],
    carry: list[Any], elems: list[Any], reverse: bool,
) -> tuple[list[Any], list[Any]]:
    n = int(elems[0].shape[0])
    steps = range(n - 1, -1, -1) if reverse else range(n)
    ys_steps: list[list[Any]] = []
    for i in steps:
        new_carry, ys = body(list(carry), [e[i] for e in elems])
        carry = [convert_to_tensor(c) for c in new_carry]
        ys_steps.append([convert_to_tensor(y) for y in ys])
    if reverse:
        ys_steps.reverse()
    if not ys_steps:
        return carry, []
    stacked = [array_ops.stack([s[k] for s in ys_steps]) for k in range(len(ys_steps[0]))]
    return carry, stacked


# -- tf.scan / map_fn / foldl / foldr ---------------------------------------------------


def _flat_elems(elems: Any, what: str) -> tuple[list[Any], Any]:
    leaves, treedef = flatten_tensors(elems)
    if not leaves:
        raise ValueError(f"{what}: elems must be a tensor or a non-empty (nested) sequence of tensors.")
    return [convert_to_tensor(x) for x in leaves], treedef


def _like(value: Any, acc: Tensor) -> Any:
    """A Python value as a tensor of the accumulator's dtype; tensors stay as
    they are (a changed dtype is an error of the loop)."""
    if isinstance(value, Tensor) or hasattr(value, "_as_graph_element"):
        return convert_to_tensor(value)
    return convert_to_tensor(value, dtype=acc.dtype)


def scan(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None, parallel_iterations: int = 10,
         back_prop: bool = True, swap_memory: bool = False, infer_shape: bool = True, reverse: bool = False,
         name: str | None = None) -> Any:
    """The accumulated values of ``fn`` over the leading axis of ``elems``, as
    ``tf.compat.v1.scan`` (one ``Scan`` op, lowered to ``lax.scan``).

    ``a = initializer; for x in elems: a = fn(a, x); out.append(a)``.

    Args:
      fn: ``(accumulator, element) -> accumulator``; the accumulator has the
        structure, dtypes and shapes of ``initializer``; an element has the
        structure of ``elems`` with the leading axis removed.
      elems: a tensor of shape ``[n, ...]`` or a (nested) list/tuple of them,
        all with the same ``n``.
      initializer: the first accumulator. Default: ``elems[0]`` (its slices),
        which is then also the first output, and the loop runs over
        ``elems[1:]`` (with ``reverse``: ``elems[-1]`` and ``elems[:-1]``).
      reverse: scan from the last element to the first.

    Returns:
      The accumulators stacked along a new leading axis of length ``n``, in
      the structure of ``initializer`` (or of ``elems``).

    Raises:
      TypeError: ``fn`` changes an accumulator's dtype (as TF1).
      ValueError: ``fn`` changes an accumulator's shape, or ``elems`` is empty.
    """
    flat, e_tree = _flat_elems(elems, "scan")
    graph = None if executing_eagerly() else get_default_graph()
    with graph.name_scope(name or "scan") if graph is not None else contextlib.nullcontext():
        if initializer is None:
            if reverse:
                init_leaves = [e[-1] for e in flat]
                flat_iter = [e[:-1] for e in flat]
            else:
                init_leaves = [e[0] for e in flat]
                flat_iter = [e[1:] for e in flat]
            a_tree = e_tree
        else:
            init_leaves_raw, a_tree = flatten_tensors(initializer)
            init_leaves = [convert_to_tensor(x) for x in init_leaves_raw]
            flat_iter = flat

        def body(carry: list[Tensor], xs: list[Tensor]) -> tuple[list[Any], list[Any]]:
            a = tree_util.tree_unflatten(a_tree, carry)
            x = tree_util.tree_unflatten(e_tree, xs)
            out_leaves, out_tree = flatten_tensors(fn(a, x))
            if out_tree != a_tree and len(out_leaves) != len(carry):
                raise ValueError(
                    f"scan: fn must return the structure of the accumulator {a_tree}, got {out_tree}."
                )
            out = [_like(o, c) for o, c in zip(out_leaves, carry)]
            return out, out

        _, ys = scan_loop(body, init_leaves, flat_iter, reverse=reverse, what="scan")
        if initializer is None:
            first = [array_ops.expand_dims(t, 0) for t in init_leaves]
            if reverse:
                ys = [array_ops.concat([y, f], 0) for y, f in zip(ys, first)]
            else:
                ys = [array_ops.concat([f, y], 0) for y, f in zip(ys, first)]
    return tree_util.tree_unflatten(a_tree, ys)


def map_fn(fn: Callable[[Any], Any], elems: Any, dtype: Any = None, parallel_iterations: int | None = None,
           back_prop: bool = True, swap_memory: bool = False, infer_shape: bool = True, name: str | None = None,
           fn_output_signature: Any = None) -> Any:
    """``fn`` applied to each slice of ``elems`` along its leading axis,
    results stacked, as ``tf.compat.v1.map_fn`` (one ``Scan`` op).

    Args:
      fn: ``element -> output``; an element has the structure of ``elems``
        with the leading axis removed.
      elems: a tensor of shape ``[n, ...]`` or a (nested) list/tuple of them.
      dtype / fn_output_signature: the dtype (structure) of ``fn``'s output
        when it differs from ``elems``'; outputs are checked against it.

    Returns:
      ``fn``'s outputs stacked along a new leading axis of length ``n``, in
      the structure ``fn`` returns.

    Raises:
      TypeError: ``fn``'s output dtypes differ from ``dtype``.
    """
    flat, e_tree = _flat_elems(elems, "map_fn")
    want = fn_output_signature if fn_output_signature is not None else dtype
    graph = None if executing_eagerly() else get_default_graph()
    out_tree: list[Any] = []
    with graph.name_scope(name or "map") if graph is not None else contextlib.nullcontext():

        def body(carry: list[Tensor], xs: list[Tensor]) -> tuple[list[Any], list[Any]]:
            leaves, tree = flatten_tensors(fn(tree_util.tree_unflatten(e_tree, xs)))
            out_tree.append(tree)
            outs = [convert_to_tensor(x) for x in leaves]
            if want is not None:
                want_leaves = tree_util.tree_leaves(want, is_leaf=lambda d: not isinstance(d, list | tuple))
                if len(want_leaves) == len(outs):
                    for o, d in zip(outs, want_leaves):
                        if o.dtype != _dtypes.as_dtype(d):
                            raise TypeError(
                                f"map_fn: fn returned a {o.dtype.name} tensor where dtype says "
                                f"{_dtypes.as_dtype(d).name}."
                            )
            return [], outs

        _, ys = scan_loop(body, [], flat, what="map_fn")
    return tree_util.tree_unflatten(out_tree[-1], ys)


def _fold(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any, reverse: bool, name: str) -> Any:
    flat, e_tree = _flat_elems(elems, name)
    graph = None if executing_eagerly() else get_default_graph()
    with graph.name_scope(name) if graph is not None else contextlib.nullcontext():
        if initializer is None:
            idx = -1 if reverse else 0
            init_leaves = [e[idx] for e in flat]
            flat = [e[:-1] if reverse else e[1:] for e in flat]
            a_tree = e_tree
        else:
            raw, a_tree = flatten_tensors(initializer)
            init_leaves = [convert_to_tensor(x) for x in raw]

        def body(carry: list[Tensor], xs: list[Tensor]) -> tuple[list[Any], list[Any]]:
            out_leaves, _ = flatten_tensors(fn(tree_util.tree_unflatten(a_tree, carry), tree_util.tree_unflatten(e_tree, xs)))
            if len(out_leaves) != len(carry):
                raise ValueError(f"{name}: fn returned {len(out_leaves)} values for an accumulator of {len(carry)}.")
            return [_like(o, c) for o, c in zip(out_leaves, carry)], []

        final, _ = scan_loop(body, init_leaves, flat, reverse=reverse, what=name)
    return tree_util.tree_unflatten(a_tree, final)


def foldl(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None, parallel_iterations: int = 10,
          back_prop: bool = True, swap_memory: bool = False, name: str | None = None) -> Any:
    """``fn`` folded over ``elems`` from first to last, as ``tf.compat.v1.foldl``.

    ``a = initializer; for x in elems: a = fn(a, x); return a`` (without an
    ``initializer``, ``elems[0]`` starts and the fold runs over the rest).

    Returns:
      The final accumulator, in the structure of ``initializer`` (or ``elems``).
    """
    return _fold(fn, elems, initializer, False, name or "foldl")


def foldr(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None, parallel_iterations: int = 10,
          back_prop: bool = True, swap_memory: bool = False, name: str | None = None) -> Any:
    """``fn`` folded over ``elems`` from last to first, as ``tf.compat.v1.foldr``
    (without an ``initializer``, ``elems[-1]`` starts)."""
    return _fold(fn, elems, initializer, True, name or "foldr")


# -- einsum -------------------------------------------------------------------------------


@register_op("Einsum", default_name="einsum")
def _einsum(*xs: Any, equation: str) -> Any:
    return jnp.einsum(equation, *xs, preferred_element_type=xs[0].dtype)


def einsum(equation: str, *inputs: Any, name: str | None = None, **kwargs: Any) -> Any:
    """Tensor contraction by Einstein summation, as ``tf.einsum``
    (``jnp.einsum``; ellipses and implicit outputs as NumPy).

    Args:
      equation: e.g. ``'ij,jk->ik'``; one comma-separated term per input.
      inputs: tensors of one dtype.

    Returns:
      A tensor of the inputs' dtype.

    Raises:
      ValueError: the number of terms differs from the number of inputs, the
        dtypes differ, or the shapes do not fit the equation (names the op).
    """
    kwargs.pop("optimize", None)  # TF's contraction-order hint; XLA picks its own
    if kwargs:
        raise TypeError(f"einsum: unexpected keyword argument {sorted(kwargs)[0]!r}")
    eq = equation.replace(" ", "")
    lhs = eq.split("->")[0]
    if len(lhs.split(",")) != len(inputs):
        raise ValueError(
            f"einsum: the equation '{equation}' has {len(lhs.split(','))} input terms but "
            f"{len(inputs)} inputs were given."
        )
    xs = [convert_to_tensor(x) for x in inputs]
    if xs:
        xs = [convert_to_tensor(x, dtype=xs[0].dtype) for x in inputs]
    return apply_op("Einsum", xs, {"equation": eq}, name=name)


def vectorized_map(fn: Callable[[Any], Any], elems: Any, fallback_to_while_loop: bool = True,
                   warn: bool = True) -> Any:
    """``fn`` applied to each slice of ``elems`` along the leading axis, results stacked, as
    ``tf.vectorized_map``: the values of :func:`map_fn` (whose ``Scan`` XLA compiles), output
    dtypes inferred from ``fn``; TF's pfor vectorisation is not reproduced."""
    return map_fn(fn, elems, name="vectorized_map")


_STATEFUL_MARKS = ("Variable", "Assign", "Random", "Multinomial", "TruncatedNormal", "Scatter", "Apply", "Queue",
                   "Iterator", "PyFunc", "Print")


def _reads_variable(t: Tensor) -> bool:
    """Whether ``t`` is a variable's value (its op, or the ``read`` identity of one)."""
    op = t.op
    if op.type == "Identity" and op.inputs:
        op = op.inputs[0].op
    return "Variable" in op.type or op.type == "VarHandleOp"


def function(func: Callable[..., Any] | None = None, input_signature: Any = None, autograph: bool = True,
             experimental_relax_shapes: bool = False, jit_compile: bool | None = None,
             reduce_retracing: bool = False, experimental_compile: bool | None = None,
             **kwargs: Any) -> Any:
    """``tf.function`` in a TF1 graph: each call builds the function's ops in
    the calling graph (as TF inlines a ``PartitionedCall`` when it runs), its
    results named as TF names them (``PartitionedCall:0``, or
    ``StatefulPartitionedCall:0`` when the function reads or writes state or
    draws random numbers). Under eager execution, a plain call. Usable as
    ``@tf.function`` or ``@tf.function(input_signature=...)``.

    Python control flow on tensors is not converted (no AutoGraph): write
    ``tf.cond``/``tf.while_loop`` inside, as TF1 code does.
    """

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def call(*args: Any, **kw: Any) -> Any:
            if executing_eagerly():
                return fn(*args, **kw)
            graph = get_default_graph()
            before = len(graph.get_operations())
            scope = graph.unique_name("StatefulPartitionedCall_fn")  # the inner ops' scope; renamed below
            with graph.name_scope(scope + "/"):
                out = fn(*args, **kw)
            made = graph.get_operations()[before:]
            stateful = any(m in op.type for op in made for m in _STATEFUL_MARKS) or any(
                _reads_variable(t) for op in made for t in op.inputs)
            leaves, tree = tree_util.tree_flatten(out, is_leaf=lambda x: isinstance(x, Tensor) or x is None)
            tensors = [i for i, x in enumerate(leaves) if isinstance(x, Tensor)]
            if not tensors:
                return out
            name = graph.unique_name("StatefulPartitionedCall" if stateful else "PartitionedCall")
            passed = identity_n([leaves[i] for i in tensors], name=name + "/")
            for i, t in zip(tensors, passed):
                leaves[i] = t
            return tree_util.tree_unflatten(tree, leaves)

        call.python_function = fn  # type: ignore[attr-defined]
        return call

    return decorate if func is None else decorate(func)
