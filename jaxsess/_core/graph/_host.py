"""Ops that run on the host, before the device plan: the registry.

Strings (``tf.string`` tensors) and input pipelines (``tf.data`` iterators)
are host values. An op is a *host op* when its type is registered here with
``always=True`` (iterator ops), or when one of its inputs or outputs is a string
and its type is registered here (``Const``, ``Identity``, string ops). A graph that
holds a host op is remembered in :data:`HOST_GRAPHS`; ``Session.run`` on such
a graph first evaluates the host ops its fetches need, in creation order, with
these implementations, then feeds their outputs into the device plan
(``jaxsess._core.runtime._host_run``), so the plan stays one compiled function.

A host implementation is ``impl(ctx, op, input_values) -> tuple of outputs``:
``ctx`` holds the session's host resources (iterator states), inputs and
outputs are NumPy values (strings: object arrays of ``bytes``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from jaxsess._core import _context as _context, dtypes as _dtypes, errors as errors
from jaxsess._core.graph._graph import Graph, Operation, Tensor
from jaxsess._core.graph._shape import TensorShape
from jaxsess._core.types import Evaluator

__all__ = [
    "HOST_GRAPHS", "HOST_GRAPH_REFS", "register_host", "host_impl", "is_host_op", "is_blocking", "note_op", "device_lowering", "string_input_specs",
    "check_not_eager", "require_no_assign_before",
]

HostImpl = Callable[[Any, Operation, list[Any]], tuple[Any, ...]]
HostInfer = Callable[[list[tuple[Any, Any]], dict[str, Any]], list[tuple[TensorShape, Any]]]

_IMPLS: dict[str, tuple[HostImpl, bool]] = {}
_INFERS: dict[str, HostInfer] = {}
_BLOCKING: set[str] = set()
HOST_GRAPHS: weakref.WeakSet[Graph] = weakref.WeakSet()
# The set of weak references behind HOST_GRAPHS: ``Session.run`` tests it for
# emptiness on every call, which WeakSet's ``__len__`` makes slower.
HOST_GRAPH_REFS: set[weakref.ref[Graph]] = HOST_GRAPHS.data  # type: ignore[attr-defined]


def register_host(op_type: str, *, always: bool = False, blocking: bool = False,
                  infer: HostInfer | None = None) -> Callable[[HostImpl], HostImpl]:
    """Registers the host implementation of ``op_type``.

    Args:
      always: the op always runs on the host (iterators); else only when an
        output is a string.
      blocking: the op may wait for other threads' runs (queues): it runs
        without the session's host lock.
      infer: ``(input_specs, attrs) -> [(shape, dtype), ...]`` used when an
        input is a string (``jax.eval_shape`` cannot trace strings).
    """

    def deco(fn: HostImpl) -> HostImpl:
        if op_type in _IMPLS:
            raise ValueError(f"Host op type {op_type!r} is already registered.")
        _IMPLS[op_type] = (fn, always)
        if infer is not None:
            _INFERS[op_type] = infer
        if blocking:
            _BLOCKING.add(op_type)
        return fn

    return deco


def check_not_eager(fn: str) -> None:
    """Raises ``NotImplementedError`` naming ``fn`` inside an ``EagerSession``: host ops
    with numeric inputs (image encoding, ``tf.sets``...) run in graph sessions only."""
    if _context.current_eager_session() is not None:
        raise NotImplementedError(
            f"{fn} runs on the host, before the device plan of a graph Session.run; an EagerSession "
            "does not run host ops. Build a graph and run it in a Session.")


def _has_string_output(op: Operation) -> bool:
    # An op with a ``host_output`` (a summary) computes on the device; its string is made after the run.
    return op._op_def.host_output is None and any(t.dtype == _dtypes.string for t in op.outputs)


def is_host_op(op: Operation) -> bool:
    """Whether ``op`` runs on the host (see the module docstring): also any op with a
    string input (``tf.size`` of a string tensor), which only a host implementation takes."""
    entry = _IMPLS.get(op.type)
    if entry is not None and entry[1]:
        return True
    return _has_string_output(op) or (entry is not None and any(t.dtype == _dtypes.string for t in op.inputs))


def is_blocking(op: Operation) -> bool:
    """Whether ``op`` is a host op that may wait for other threads (see :func:`register_host`)."""
    return op.type in _BLOCKING


def host_impl(op: Operation) -> HostImpl:
    """The host implementation of ``op``.

    Raises:
      TypeError: a string-producing op type with no host implementation.
    """
    entry = _IMPLS.get(op.type)
    if entry is None:
        raise TypeError(
            f"Op '{op.name}' (type {op.type}) produces a string tensor, which jaxsess computes on the host, "
            f"but {op.type} has no host implementation."
        )
    return entry[0]


def string_input_specs(op_type: str, inputs: Sequence[Any], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    """Output specs of an op with a string input.

    Raises:
      TypeError: the op type has no host implementation for strings (names
        the op type and the string input).
    """
    infer = _INFERS.get(op_type)
    if infer is None:
        s = next(t for t in inputs if t.dtype == _dtypes.string)
        raise TypeError(
            f"Op {op_type} cannot take the string tensor '{s.name}': jaxsess keeps strings on the host, "
            "where only Identity, Print and string ops take them."
        )
    return infer([(t.shape, t.dtype) for t in inputs], attrs)


def note_op(graph: Graph, op: Operation) -> None:
    """Remembers ``graph`` if ``op`` is a host op (called for every new op)."""
    if is_host_op(op):
        HOST_GRAPHS.add(graph)


def device_lowering(ev: Evaluator, op: Operation, inputs: list[Any]) -> Any:
    """The device plan's view of a host op: its outputs were fed (or it has none).

    Raises:
      InvalidArgumentError: the op's outputs were not computed on the host
        (a plan run without the host pass, e.g. ``make_callable``).
    """
    if not op.outputs:
        return ()
    if all(t in ev.env for t in op.outputs):
        vals = tuple(ev.env[t] for t in op.outputs)
        return vals[0] if len(vals) == 1 else vals
    raise errors.InvalidArgumentError(
        None, op,
        f"Op '{op.name}' (type {op.type}) runs on the host; it runs only through Session.run "
        "(not make_callable, lower or export).",
    )


def require_no_assign_before(tensors: Sequence[object], fn: str) -> None:
    """Raises NotImplementedError if a tensor depends on a variable assignment: the
    inputs of a host op (checks, ``py_func``, ops of run-time shape) are computed by a
    device run of their own (see :mod:`jaxsess._core.runtime._host_run`), which would assign twice."""
    seen: set[Operation] = set()
    stack = [t.op for t in tensors if isinstance(t, Tensor)]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        od = op._op_def
        if od.writes_ref or op.attrs.get("var_writes"):
            raise NotImplementedError(
                f"{fn}: the checked value depends on '{op.name}' (type {op.type}), which assigns a variable. "
                "jaxsess computes checked values in a run before the step, which would assign twice; "
                "check a value computed without assignments."
            )
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
