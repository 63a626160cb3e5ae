"""Lowering: a pruned graph becomes one pure JAX function.

A :class:`Lowering` is made once per (fetches, feeds, targets) signature
(:func:`lower`), the first stages of a plan's pipeline
(:func:`jaxsess._core.graph._plan.build_plan`):

1. **prune** — keep the ops the fetches and targets need (through data and
   control inputs), stopping at fed tensors;
2. **order** — creation order is a topological order;
3. **resolve state** — decide, for every read of a variable, which value it
   sees (see below), which variables the plan must read at the start of the
   run, which it writes, and which random ops it draws from;
4. **pure function** — ``fn(donated_state, kept_state, feeds) ->
   (fetches, new_state)`` (:func:`pure_function`), which the later stages
   place and compile, donating the state buffers the run overwrites; a
   session's program on one device also takes the values of the plan's big
   constants (a frozen model's weights, ``Lowering.consts``) as a first
   argument (:func:`const_arg_function`), where they would otherwise be
   literals of the program.

A ``Lowering`` is frozen, and so is the plan made of it
(:class:`jaxsess._core.graph._plan.Plan`: a ``Lowering`` with the compiled
functions that run it).

A plan that holds a 64-bit type anywhere (an op's input or output, a
variable, a feed) has ``x64`` set: sessions trace and call it under JAX's
scoped ``jax.enable_x64(True)`` (:func:`jaxsess._core.dtypes.x64_scope`), and
the evaluator keeps every op output in its graph dtype. Plans without one
run exactly as before.

What a read sees when the same run assigns the variable: a read ordered
after an assign to the same variable by a data or control dependency (an
ancestor of the reading op) sees the value of the latest such assign;
otherwise it sees the value at the start of the run. A read-modify-write
(``AssignAdd``, ``AssignSub``, scatter updates, an optimizer's step: ops
with ``reads_current``) updates the value the variable has when it runs,
as TF's atomic kernels do: two that no edge
orders both land, applied in creation order after the run's earlier
writes (not the second from the start value, losing the first). A fetched variable
tensor is the value at the start of the run — except for a reference
variable (:func:`ref_view`): the fetched variable, an ``Identity`` chain of
it or an assign's output is its value at the end of the run, as TF's shared
buffers. After the run, a written variable holds the value of its last
assign (in creation order).

Control-flow ops (``cond``, ``case``, ``while_loop``) whose bodies assign
variables are assign ops for the variables in their ``var_writes`` attribute:
their written value is a dict ``{variable op: value}``
(:func:`assigned_value`). Inside a body, a read that no assign of the body
precedes sees the value the variable had when the control-flow op started
(for a loop: at the start of the iteration), passed in as ``var_values``.

State slots are keyed by the ``VariableV2`` op (variables) or by
``("rng", op)`` (the draw counter of a random op, which starts at 0 in each
session and advances every run: by the number of values drawn for an op that
draws TF's Philox stream, where TF's generator advances by 256 samples per
value, else by one; so every run draws new values and a new session with the
same seeds repeats the sequence).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._graph import Operation, Tensor
from jaxsess._core.graph._host import device_lowering, is_host_op

__all__ = [
    "Lowering", "lower", "pure_function", "RunContext", "EagerStateContext", "Evaluator",
    "assigned_value", "Slot", "RngSlot", "VarSpec", "PlanFn", "ConstPlanFn", "TraceHook",
    "const_arg_function", "CONST_ARG_MIN_BYTES",
]

VARIABLE_OP = "VariableV2"

# A state slot: a variable's ``VariableV2`` op, or ``("rng", op)``, the draw
# counter of a random op (see the module docstring).
RngSlot: TypeAlias = tuple[str, Operation]
Slot: TypeAlias = Operation | RngSlot
# A variable's static shape (``None``: unknown rank; a ``None`` dimension:
# unknown size) and NumPy dtype.
VarSpec: TypeAlias = tuple[tuple[int | None, ...] | None, np.dtype[Any]]
# A plan's pure function and every form of it that a run calls:
# ``(donated state, kept state, feeds) -> (fetch values, new state)``, each a
# tuple of arrays, the state in the order of ``donated``/``kept``/``written``.
PlanFn: TypeAlias = Callable[
    [tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]], tuple[tuple[Any, ...], tuple[Any, ...]]
]
# The same with the values of the plan's big constants first
# (:func:`const_arg_function`): ``(consts, donated, kept, feeds)``.
ConstPlanFn: TypeAlias = Callable[
    [tuple[Any, ...], tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]], tuple[tuple[Any, ...], tuple[Any, ...]]
]
# Called with the feed values (tracers) each time a plan's pure function is
# traced: a compile, or a load from the persistent compilation cache.
TraceHook: TypeAlias = Callable[[Sequence[Any]], None]

# A ``Const`` of at least this many bytes (a frozen model's weights) is a
# *big constant* of the plans that run it (``Lowering.consts``): a session's
# compiled program takes its value as an argument, a device array made once
# per plan, rather than as a literal of the program. Embedded, MobileNetV2's
# 14 MB of weights are 28 MB of StableHLO text that XLA parses, folds over and
# keeps in the executable (and the persistent cache: 13 MB, now 192 KB): its
# cold compile took 1.2-1.5 s, with the weights as arguments 1.0-1.2 s (ResNet50:
# 1.4-1.7 s, now 0.6-0.7 s), the results bitwise the same.
# Smaller constants (shapes, axes, scalars, small tables) stay literals, which
# XLA folds. 16 KiB covers 97% of the constant bytes of MobileNetV2 and
# EfficientNetB0 with a third of their constants.
CONST_ARG_MIN_BYTES = 16 * 1024
# A constant that a matrix product reads (through ``Identity`` ops) stays a
# literal whatever its size: XLA:CPU packs a constant operand of a dot for its
# YNNPACK kernels when it compiles, and that kernel sums in another order than
# the one for an argument: ResNet50's 2048x1000 classifier as an argument
# changed 3514 of its 8000 outputs by an ulp (TF's own differ from both). Kept
# a literal, every output is bitwise what it was (and ResNet50 compiles in
# 0.6-0.7 s rather than 0.5 s, against 1.4-1.7 s with every weight a literal).
_DOT_TYPES = frozenset({"MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "Einsum"})


def rng_slot(op: Operation) -> RngSlot:
    return ("rng", op)


class RunContext:
    """What stateful op implementations see while a plan is traced.

    ``read_variable(var_op)`` — the value this op sees (ordering rule);
    ``assign_variable(var_op, value)`` — record the op's assignment;
    ``rng_key()`` — a fresh key for the current random op.
    """

    def __init__(self, ev: Evaluator) -> None:
        self._ev = ev

    def read_variable(self, var_op: Operation) -> Any:
        return self._ev.read_var(self._ev.current_op, var_op)

    def assign_variable(self, var_op: Operation, value: Any) -> Any:
        return self._ev.assign_var(self._ev.current_op, var_op, value)

    def rng_key(self, *seeds: Any) -> Any:
        """A key for the current random op (its seeds come from its attrs)."""
        return self._ev.rng_key(self._ev.current_op)

    def rng_stream(self, seed: int, seed2: int, n: int) -> Any:
        """Where the current random op, drawing ``n`` values in this run,
        starts in TF's Philox stream for ``(seed, seed2)``: a ``uint32``
        scalar, the number of values it drew in this session's earlier runs
        (TF reserves 256 samples per value and run); inside a loop body,
        after the values its earlier iterations of this run drew."""
        return self._ev.rng_stream(self._ev.current_op, n)


class Evaluator:
    """Evaluates ops in order inside a trace (or eagerly for constant folding).

    Attributes:
      env: tensor -> value.
      state: state slot -> value at the start of the run.
      assigned: assign op -> the value it wrote.
    """

    def __init__(self, plan: Lowering, state: dict[Slot, Any], env: dict[Tensor, Any]) -> None:
        self.plan = plan
        self.state = state
        self.env = env
        self.assigned: dict[Operation, Any] = {}
        self.var_values: dict[Operation, Any] = {}  # variables' values when a control-flow body started
        self.differentiating = False  # inside a gradient's jax.vjp (loops must be bounded)
        # Ops whose gradient is overridden (tf.RegisterGradient) -> ``hook(evaluator, op)``
        # giving the op's outputs from a jax.custom_vjp; set only inside a gradient's vjp.
        self.grad_overrides: dict[Operation, Callable[[Evaluator, Operation], Any]] = {}
        self.current_op: Operation | None = None
        self.ctx = RunContext(self)
        self.fold: Any = None  # loop iteration, folded into random keys inside loops
        # Random ops -> how far their counters advance this run: the values drawn from TF's
        # stream (a traced count for ops in control-flow bodies; absent: one, JAX's keys).
        self.rng_advance: dict[Operation, Any] = {}
        # Random ops in a loop body -> the values drawn in the earlier iterations of this run.
        self.rng_offset: dict[Operation, Any] = {}
        # Fed tensors a fork recomputes (see fork): tensor -> its fed value.
        self.pinned: dict[Tensor, Any] = {}

    # -- state --------------------------------------------------------------

    def read_var(self, consumer: Operation | None, var_op: Operation) -> Any:
        src = self.plan.read_source.get((consumer, var_op)) if consumer is not None else None
        if src is not None:
            return assigned_value(self.assigned, src, var_op)
        v = self.var_values.get(var_op)
        if v is not None:
            return v
        return self.state[var_op]

    def assign_var(self, assign_op: Operation | None, var_op: Operation, value: Any) -> Any:
        want = self.plan.var_specs.get(var_op)
        if want is not None:
            shape, dtype = want
            value = jnp.asarray(value, dtype=dtype)
            if shape is not None and tuple(value.shape) != tuple(shape):
                raise errors.InvalidArgumentError(
                    assign_op.name if assign_op else None,
                    assign_op,
                    f"Assign requires shapes of both tensors to match. lhs shape= {list(shape)} "
                    f"rhs shape= {list(value.shape)} (variable '{var_op.name}')",
                )
        if assign_op is not None:
            self.assigned[assign_op] = value
        return value

    def rng_stream(self, op: Operation | None, n: int) -> Any:
        assert op is not None
        self.rng_advance[op] = n
        start = self.state[rng_slot(op)]
        offset = self.rng_offset.get(op)
        return start if offset is None else start + offset

    def next_counter(self, slot: tuple[str, Operation]) -> Any:
        """A random op's counter after this run: advanced by the values it
        drew from TF's stream (see :meth:`RunContext.rng_stream`; a traced
        count when it ran in control-flow bodies), else by one."""
        advance = self.rng_advance.get(slot[1], 1)
        if isinstance(advance, int):
            return self.state[slot] + jnp.uint32(advance & 0xFFFFFFFF)
        return self.state[slot] + jnp.asarray(advance, jnp.uint32)

    def rng_key(self, op: Operation | None) -> Any:
        assert op is not None
        counter = self.state[rng_slot(op)]
        seed, seed2 = op.attrs.get("seed", 0), op.attrs.get("seed2", 0)
        key = jax.random.fold_in(jax.random.key(np.uint32(seed & 0xFFFFFFFF)), np.uint32(seed2 & 0xFFFFFFFF))
        key = jax.random.fold_in(key, counter)
        if self.fold is not None:
            key = jax.random.fold_in(key, self.fold)
        return key

    # -- ops ------------------------------------------------------------------

    def input_values(self, op: Operation) -> list[Any]:
        ref = op._op_def.ref_inputs
        vals = []
        env = self.env
        for i, t in enumerate(op.inputs):
            if i in ref:
                vals.append(t.op)  # the variable op itself
            elif t in env:
                vals.append(env[t])
            elif t.op.type == VARIABLE_OP:
                vals.append(self.read_var(op, t.op))
            else:
                raise KeyError(t)
        return vals

    def run_op(self, op: Operation) -> None:
        od = op._op_def
        hook = self.grad_overrides.get(op) if self.grad_overrides else None
        self.current_op = op
        if hook is not None:
            outs = hook(self, op)
        elif od.lowering is device_lowering and not op.outputs:
            outs = ()  # a host op without outputs (it ran in the host pass; its inputs were pruned)
        elif od.lowering is not None:
            outs = od.lowering(self, op, self.input_values(op))
        elif op.type == VARIABLE_OP:
            outs = self.state[op]
        elif op.type == "Placeholder":
            if op.outputs[0] in self.env:  # fed, and reached by a control edge (tf.tuple([x]))
                self.current_op = None
                return
            raise _missing_feed(op.outputs[0])
        else:
            args = self.input_values(op)
            try:
                if od.stateful:
                    outs = od.impl(self.ctx, *args, **op.attrs)
                else:
                    outs = od.impl(*args, **op.attrs)
            except errors.OpError:
                raise
            except Exception as e:
                raise _op_failed(op, e) from e
        n = len(op.outputs)
        if n == 1:
            outs = (outs,)
        env = self.env
        wide = self.plan.x64
        pinned = self.pinned
        for t, v in zip(op.outputs, outs):
            if t not in env or hook is not None:  # a fed tensor keeps its fed value (not under a gradient override)
                if wide and getattr(v, "dtype", None) != t._dtype._np and t._dtype != _dtypes.string:
                    v = jnp.asarray(v, dtype=t._dtype._np)  # x64 mode widened a 32-bit default (not a summary's)
                if pinned and t in pinned:
                    v = _fed_value_on_path(pinned[t], v)
                env[t] = v
        self.current_op = None

    def run(self, ops: Sequence[Operation]) -> None:
        for op in ops:
            self.run_op(op)

    def fork(
        self,
        overrides: dict[Tensor, Any],
        drop: Sequence[Operation] = (),
        fold: Any = None,
        var_values: dict[Operation, Any] | None = None,
        rng_offset: dict[Operation, Any] | None = None,
    ) -> Evaluator:
        """A child evaluator for a sub-graph function: shares state, layers ``env``.

        Args:
          overrides: tensor values bound in the child (function arguments).
          drop: ops whose outputs the child recomputes (their parent values
            are hidden, so they become functions of ``overrides``).
          fold: a traced value folded into random keys (loop iteration).
          var_values: variables' values when the sub-graph starts (a
            control-flow body), seen by reads no assign of it precedes.
          rng_offset: random ops -> values they drew in a loop's earlier
            iterations (where this iteration starts in their streams).
        """
        env = dict(self.env)
        pinned = dict(self.pinned)
        fed = set(self.plan.feeds) if drop else ()
        for op in drop:
            for t in op.outputs:
                if t in fed and t in env:
                    pinned[t] = env[t]
                env.pop(t, None)
        env.update(overrides)
        child = Evaluator(self.plan, self.state, env)
        child.pinned = pinned
        child.assigned = self.assigned
        child.differentiating = self.differentiating
        child.grad_overrides = self.grad_overrides
        child.var_values = self.var_values if var_values is None else {**self.var_values, **var_values}
        child.rng_offset = self.rng_offset if rng_offset is None else {**self.rng_offset, **rng_offset}
        if fold is None:
            child.fold = self.fold
        elif self.fold is None:
            child.fold = fold
        else:  # nested loops: mix the iteration counters
            child.fold = jnp.uint32(self.fold) * jnp.uint32(2654435761) + jnp.uint32(fold)
        return child


def _fed_value_on_path(fed: Any, computed: Any) -> Any:
    """A fed tensor's value where a fork recomputes the ops that produce it
    (a gradient's sub-graph): the fed value, with the derivative of the
    computed one, as TF1's gradient ops read a fed tensor's value but
    backpropagate through the op that would have produced it."""
    if not jnp.issubdtype(jnp.result_type(computed), jnp.inexact):
        return fed
    return fed + (computed - jax.lax.stop_gradient(computed))


def assigned_value(assigned: dict[Operation, Any], op: Operation, var_op: Operation) -> Any:
    """The value ``op`` (an assign, or a control-flow op assigning in its
    bodies) wrote to ``var_op``, from an evaluator's ``assigned``."""
    v = assigned[op]
    return v[var_op] if type(v) is dict else v


def _missing_feed(t: Tensor) -> errors.OpError:
    return errors.InvalidArgumentError(
        t.op.name,
        t.op,
        f"You must feed a value for placeholder tensor '{t.op.name}' with dtype {t.dtype.name}"
        + ("" if t.shape.ndims is None else f" and shape {t.shape.tf_str()}"),
    )


def _op_failed(op: Operation, e: Exception) -> errors.OpError:
    msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    ins = ", ".join(f"{t.dtype.name}{t.shape.tf_str()}" for t in op.inputs)
    return errors.InvalidArgumentError(
        op.name, op, f"{type(e).__name__} in node '{op.name}' (op: '{op.type}') with inputs ({ins}): {msg}"
    )


@dataclass(frozen=True, eq=False)
class Lowering:
    """A run signature pruned and its state resolved (:func:`lower`): what
    its plan computes, before anything is placed or compiled.

    Attributes:
      fetches: unique fetched tensors, in order.
      feeds: fed tensors, in the order of the plan function's feed argument.
      targets: the ops run for their effects.
      ops: the pruned ops, in topological (creation) order.
      read_source: ``(consumer, variable) -> assign``: the assign whose value
        a read sees (absent: the value at the start of the run).
      var_specs: each variable the plan touches -> its shape and dtype.
      start_vars: variables whose start-of-run value the plan reads.
      written: state slots the plan writes (the donated slots first, see
        :func:`lower`).
      final_assign: each written variable -> its last assign.
      fetch_views: fetch index -> the reference variable whose end-of-run
        value that fetch is (:func:`ref_view`).
      rng_ops: random ops (their counters are in ``written`` and ``donated``).
      donated: the start-state slots also written (donated to the call).
      kept: the start-state slots only read.
      stateful: whether the plan reads or writes any state.
      x64: whether a tensor, variable or feed of the plan is 64-bit.
      consts: the plan's big constants: the ``Const`` ops of ``ops`` with a
        numeric value of at least :data:`CONST_ARG_MIN_BYTES` that no matrix
        product reads (a convolution's filter may), whose values
        a session's program takes as arguments (:func:`const_arg_function`).
    """

    fetches: list[Tensor]
    feeds: list[Tensor]
    targets: list[Operation]
    ops: list[Operation]
    read_source: dict[tuple[Operation, Operation], Operation]
    var_specs: dict[Operation, VarSpec]
    start_vars: list[Operation]
    written: list[Slot]
    final_assign: dict[Operation, Operation]
    fetch_views: dict[int, Operation]
    rng_ops: list[Operation]
    donated: list[Slot]
    kept: list[Slot]
    stateful: bool
    x64: bool
    consts: list[Operation]

    def evaluate(
        self, state: dict[Slot, Any], feeds: Sequence[Any], consts: Sequence[Any] = ()
    ) -> tuple[list[Any], list[Any]]:
        """The pure body: values of ``fetches`` and of ``written`` slots.

        ``consts``: the values of :attr:`consts`, in order (arguments of the
        traced function), or empty: every ``Const`` gives its own value.
        """
        env = dict(zip(self.feeds, feeds))
        ops = self.ops
        if consts:
            env.update((op.outputs[0], v) for op, v in zip(self.consts, consts))
            skip = set(self.consts)
            ops = [op for op in ops if op not in skip]
        ev = Evaluator(self, state, env)
        ev.run(ops)
        out = []
        for t in self.fetches:
            if t in env:
                out.append(env[t])
            elif t.op.type == VARIABLE_OP:
                out.append(state[t.op])
            else:  # pragma: no cover - pruning guarantees it
                raise KeyError(t)
        for i, var in self.fetch_views.items():
            out[i] = assigned_value(ev.assigned, self.final_assign[var], var)
        new_state = []
        for slot in self.written:
            if isinstance(slot, tuple):  # rng counter
                new_state.append(ev.next_counter(slot))
            else:
                new_state.append(assigned_value(ev.assigned, self.final_assign[slot], slot))
        return out, new_state


def prune(
    fetches: Sequence[Tensor], targets: Sequence[Operation], fed: set[Tensor], *, device: bool = False
) -> list[Operation]:
    """The ops needed to compute ``fetches`` and run ``targets``, in creation order.

    With ``device`` (the device plan), the inputs of host ops without outputs (table
    initializers, ``MakeIterator``: they ran in the host pass) are not needed.
    """
    needed: set[Operation] = set()
    stack: list[Operation] = []
    for t in fetches:
        if t not in fed and t.op not in needed:
            needed.add(t.op)
            stack.append(t.op)
    for op in targets:
        if op not in needed:
            needed.add(op)
            stack.append(op)
    while stack:
        op = stack.pop()
        ref = op._op_def.ref_inputs
        skip_inputs = device and not op.outputs and is_host_op(op)
        for i, t in enumerate(op.inputs):
            if t in fed or skip_inputs:
                continue
            src = t.op
            if i in ref or src.type == VARIABLE_OP:
                # Variable reads are resolved by the evaluator, not by running the op.
                continue
            if src not in needed:
                needed.add(src)
                stack.append(src)
        for c in op.control_inputs:
            if c not in needed:
                needed.add(c)
                stack.append(c)
    return sorted(needed, key=lambda o: o._id)


def _forward_writers(pruned: Sequence[Operation]) -> list[Operation]:
    """The control-flow ops that assign variables (``var_writes``) and that the run reaches only
    inside the sub-graph of an op whose writes do not escape it (a gradient, which re-evaluates
    its forward pass): they are evaluated at the top level too, once, as in TF, where the
    gradient of a ``cond``/``while_loop`` reads its forward op's outputs, so that op and its
    assigns run whenever the gradient does (a batch norm updating its moving averages inside
    ``tf.cond``, trained by running the train op alone: recorded by the corpus program
    ``v33_batchnorm_cond_train_op_only``)."""
    have = set(pruned)
    extra: list[Operation] = []
    for op in pruned:
        if op._op_def.lowering is None or "var_writes" in op.attrs:
            continue
        for sub in op.attrs.get("sub_ops", ()):
            for s_op in sub:
                if s_op not in have and s_op._op_def.lowering is not None and s_op.attrs.get("var_writes"):
                    have.add(s_op)
                    extra.append(s_op)
    return extra


def _assign_targets(op: Operation) -> tuple[Operation, ...]:
    """The variable ops an assign-like op writes (a control-flow op: those its bodies assign)."""
    od = op._op_def
    if od.writes_ref:
        return (op.inputs[od.ref_inputs[0]].op,)
    if od.lowering is not None:
        return op.attrs.get("var_writes", ())  # type: ignore[no-any-return]
    return ()


def ref_view(t: Tensor, fed: set[Tensor] | frozenset[Tensor] = frozenset()) -> Operation | None:
    """The reference variable (``use_resource=False``) whose buffer ``t`` is in
    TF, else ``None``: the variable's own output, an ``Identity`` chain of it
    (its snapshot ``v/read``, ``read_value()``, ``tf.identity(v)``), or the
    output of an assign op on it (``Assign``, ``AssignAdd``, scatter ops).

    TF hands a fetched buffer over when the run ends, after the run's in-place
    updates, so such a fetch shows the variable's value at the end of the run.
    """
    while True:
        op = t.op
        od = op._op_def
        if op.type == VARIABLE_OP:
            var = op
            break
        if od.writes_ref and t is op.outputs[0]:
            var = op.inputs[od.ref_inputs[0]].op
            break
        if op.type != "Identity" or not op.inputs or op.inputs[0] in fed:
            return None
        t = op.inputs[0]
    variable = getattr(var, "_variable", None)
    if var.type != VARIABLE_OP or variable is None or getattr(variable, "_use_resource", True):
        return None
    return var


def lower(fetches: Sequence[Tensor], feeds: Sequence[Tensor], targets: Sequence[Operation]) -> Lowering:
    """Prunes the graph to one run signature and resolves its state (see the
    module docstring): the first stage of a plan.

    Raises:
      InvalidArgumentError: a placeholder the fetches need is not fed.
    """
    fetches, feeds, targets = list(fetches), list(feeds), list(targets)
    fed = set(feeds)
    pruned = prune(fetches, targets, fed, device=True)
    while True:
        extra = _forward_writers(pruned)
        if not extra:
            break
        targets_plus = [*targets, *extra]
        pruned = prune(fetches, targets_plus, fed, device=True)
    for op in pruned:
        if op.type == "Placeholder" and op.outputs[0] not in fed:
            raise _missing_feed(op.outputs[0])
    read_source: dict[tuple[Operation, Operation], Operation] = {}
    var_specs: dict[Operation, VarSpec] = {}
    # latest[op]: var -> latest assign among op's ancestors (and op itself).
    latest: dict[Operation, dict[Operation, Operation]] = {}
    writes_any = False
    start: dict[Operation, None] = {}
    final: dict[Operation, Operation] = {}
    last_write: dict[Operation, Operation] = {}  # var -> its latest top-level writer so far
    rng_ops: list[Operation] = []
    empty: dict[Operation, Operation] = {}
    nested: set[Operation] = set()
    ops = pruned
    todo = list(ops)
    while todo:
        op = todo.pop()
        if op._op_def.lowering is None:
            continue
        for sub in op.attrs.get("sub_ops", ()):
            for s_op in sub:
                if s_op not in nested:
                    nested.add(s_op)
                    todo.append(s_op)
    if nested:
        ops = sorted(set(ops) | nested, key=lambda o: o._id)
    for op in ops:
        if op.type == VARIABLE_OP:
            var_specs[op] = _var_spec(op)
        merged: dict[Operation, Operation] | None = None
        if writes_any:
            for src in [t.op for t in op.inputs] + op.control_inputs:
                d = latest.get(src)
                if d:
                    if merged is None:
                        merged = dict(d)
                    else:
                        for v, a in d.items():
                            if v not in merged or a._id > merged[v]._id:
                                merged[v] = a
        # Which values does this op read?
        for i, t in enumerate(op.inputs):
            if t in fed:
                continue
            if t.op.type == VARIABLE_OP and i not in op._op_def.ref_inputs:
                src_assign = merged.get(t.op) if merged else None
                if op._op_def.reads_current and op not in nested:  # an update: the current value
                    prev = last_write.get(t.op)
                    if prev is not None and (src_assign is None or prev._id > src_assign._id):
                        src_assign = prev
                if src_assign is not None:
                    read_source[(op, t.op)] = src_assign
                else:
                    start[t.op] = None
                if t.op not in var_specs:
                    var_specs[t.op] = _var_spec(t.op)
        if op._op_def.reads_ref:
            var = op.inputs[op._op_def.ref_inputs[0]].op
            src_assign = merged.get(var) if merged else None
            if op not in nested:
                # A read-modify-write (AssignAdd, ScatterAdd...) updates the variable's current
                # value atomically in TF: two that no edge orders both land (in some order),
                # never one overwriting the other from the start-of-run value. They apply in
                # evaluation (creation) order, after any earlier write of the run.
                prev = last_write.get(var)
                if prev is not None and (src_assign is None or prev._id > src_assign._id):
                    src_assign = prev
            if src_assign is not None:
                read_source[(op, var)] = src_assign
            else:
                start[var] = None
        targets_of = _assign_targets(op)
        if targets_of:
            writes_any = True
            merged = dict(merged) if merged else {}
            for var in targets_of:
                if var not in var_specs:
                    var_specs[var] = _var_spec(var)
                merged[var] = op
                if op not in nested:  # evaluated at its own place (a body's ops run inside their op)
                    last_write[var] = op
                if var not in final or op._id > final[var]._id:
                    final[var] = op
        if op._op_def.random:
            rng_ops.append(op)
        latest[op] = merged if merged else empty
    for t in fetches:
        if t.op.type == VARIABLE_OP and t not in fed:
            start[t.op] = None
            if t.op not in var_specs:
                var_specs[t.op] = _var_spec(t.op)
    start_vars = list(start)
    fetch_views: dict[int, Operation] = {}
    for i, t in enumerate(fetches):
        view = None if t in fed else ref_view(t, fed)
        if view is not None and view in final:
            fetch_views[i] = view
    writes: list[Slot] = [*final, *(rng_slot(op) for op in rng_ops)]
    written_set = set(writes)
    start_slots: list[Slot] = [*start_vars, *(rng_slot(op) for op in rng_ops)]
    donated = [s for s in start_slots if s in written_set]
    kept = [s for s in start_slots if s not in written_set]
    # The new state comes out in the donated order, then the slots written
    # without being read: ``jax.jit`` pairs each donated buffer with the first
    # output of its shape and dtype, in order, so another order would alias
    # one variable's new value to another's old buffer, and XLA then copies
    # every such input and output (a 20-layer MLP's Adam step: 197 copies).
    donated_set = set(donated)
    written = donated + [s for s in writes if s not in donated_set]
    return Lowering(
        fetches=fetches,
        feeds=feeds,
        targets=targets,
        ops=pruned,
        read_source=read_source,
        var_specs=var_specs,
        start_vars=start_vars,
        written=written,
        final_assign=final,
        fetch_views=fetch_views,
        rng_ops=rng_ops,
        donated=donated,
        kept=kept,
        stateful=bool(written or start_vars),
        x64=_needs_x64(fetches, feeds, var_specs, pruned),
        consts=_big_consts(pruned, ops),
    )


def _big_consts(ops: Sequence[Operation], every: Sequence[Operation]) -> list[Operation]:
    """The ``Const`` ops of ``ops`` with a numeric value of at least
    :data:`CONST_ARG_MIN_BYTES` that no matrix product of ``every`` (``ops``
    and the ops of their control-flow bodies) reads (see ``_DOT_TYPES``)."""
    big = []
    for op in ops:
        if op.type != "Const" or op._op_def.lowering is not None:
            continue
        value = op.attrs.get("value")
        if isinstance(value, np.ndarray) and value.dtype != object and value.nbytes >= CONST_ARG_MIN_BYTES:
            big.append(op)
    if not big:
        return big
    readers: dict[Tensor, list[Operation]] = {}
    for op in every:
        for t in op.inputs:
            readers.setdefault(t, []).append(op)

    def read_by_a_dot(op: Operation) -> bool:
        todo = [op]
        while todo:
            for reader in readers.get(todo.pop().outputs[0], ()):
                kind = reader.attrs.get("tf_op", reader.type)  # an imported TF node's own type
                if kind in _DOT_TYPES:
                    return True
                if kind == "Identity":
                    todo.append(reader)
        return False

    return [op for op in big if not read_by_a_dot(op)]


def pure_function(lowering: Lowering, on_trace: TraceHook | None = None) -> PlanFn:
    """The pure function of ``lowering``: ``(donated, kept, feeds) -> (fetch
    values, new state)``, which calls ``on_trace(feeds)`` each time it is traced."""
    donated, kept, evaluate = lowering.donated, lowering.kept, lowering.evaluate

    def pure(
        donated_vals: tuple[Any, ...], kept_vals: tuple[Any, ...], feed_vals: tuple[Any, ...]
    ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        if on_trace is not None:
            on_trace(feed_vals)
        state: dict[Slot, Any] = dict(zip(donated, donated_vals))
        state.update(zip(kept, kept_vals))
        out, new_state = evaluate(state, feed_vals)
        return tuple(out), tuple(new_state)

    return pure


def const_arg_function(lowering: Lowering, on_trace: TraceHook | None = None) -> ConstPlanFn:
    """The pure function of ``lowering`` with the values of its big constants
    (:attr:`Lowering.consts`) as a first argument: ``(consts, donated, kept,
    feeds) -> (fetch values, new state)``, the same values as
    :func:`pure_function`'s. A result that is a constant's argument itself (a
    fetched constant, a variable assigned one) is a copy of it, so that no
    output (and no state a later run donates) shares the constant's buffer."""
    donated, kept, evaluate = lowering.donated, lowering.kept, lowering.evaluate

    def pure_consts(
        const_vals: tuple[Any, ...],
        donated_vals: tuple[Any, ...],
        kept_vals: tuple[Any, ...],
        feed_vals: tuple[Any, ...],
    ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        if on_trace is not None:
            on_trace(feed_vals)
        state: dict[Slot, Any] = dict(zip(donated, donated_vals))
        state.update(zip(kept, kept_vals))
        out, new_state = evaluate(state, feed_vals, const_vals)
        args = {id(v) for v in const_vals}
        return tuple(_own(v, args) for v in out), tuple(_own(v, args) for v in new_state)

    return pure_consts


def _own(value: Any, args: set[int]) -> Any:
    return jnp.copy(value) if id(value) in args else value


def _var_spec(var: Operation) -> VarSpec:
    return (var.attrs["shape"].as_tuple(), var.attrs["dtype"].np_dtype)


def _needs_x64(
    fetches: Sequence[Tensor], feeds: Sequence[Tensor], var_specs: dict[Operation, VarSpec], ops: Sequence[Operation]
) -> bool:
    """Whether any tensor, variable or feed of a plan has a 64-bit dtype."""
    wide = _dtypes.is_64bit
    if any(wide(t.dtype) for t in feeds) or any(wide(t.dtype) for t in fetches):
        return True
    if any(wide(dtype) for _, dtype in var_specs.values()):
        return True
    for op in _closure(ops):
        if any(wide(t.dtype) for t in op.outputs) or any(wide(t.dtype) for t in op.inputs):
            return True
    return False


def _closure(ops: Sequence[Operation]) -> list[Operation]:
    """``ops`` and every op they evaluate themselves: sub-graph ops of
    control flow and gradients (recursively) and the shape computations of
    ``Dynamic*`` ops."""
    out: list[Operation] = []
    seen: set[Operation] = set()
    todo = list(ops)
    while todo:
        op = todo.pop()
        if op in seen:
            continue
        seen.add(op)
        out.append(op)
        if op._op_def.lowering is None:
            continue
        for sub in op.attrs.get("sub_ops", ()):
            todo.extend(sub)
        if "deferred" in op.attrs and "n_data" in op.attrs:
            todo.extend(_shape_walk(op.inputs[op.attrs["n_data"]:]))
    return out


def _shape_walk(tensors: Sequence[Tensor]) -> list[Operation]:
    """The ops a ``Dynamic*`` op's trace-time shape evaluation visits."""
    out: list[Operation] = []
    seen: set[Operation] = set()
    todo = [t.op for t in tensors]
    while todo:
        op = todo.pop()
        if op in seen:
            continue
        seen.add(op)
        out.append(op)
        if op.type not in ("Const", "Shape", "Size", "Rank"):
            todo.extend(t.op for t in op.inputs)
    return out


class EagerStateContext:
    """Variable state and randomness of an ``EagerSession`` (eager stateful ops)."""

    def __init__(self, session: Any) -> None:
        self._session = session
        self._counters: dict[Any, int] = {}

    def read_variable(self, var: Any) -> Any:
        return var._eager_value()

    def assign_variable(self, var: Any, value: Any) -> Any:
        return var._eager_assign(value)

    def rng_key(self, seed: int = 0, seed2: int = 0) -> Any:
        n = self._draw((seed, seed2))
        key = jax.random.fold_in(jax.random.key(np.uint32(seed & 0xFFFFFFFF)), np.uint32(seed2 & 0xFFFFFFFF))
        return jax.random.fold_in(key, n)

    def rng_stream(self, seed: int, seed2: int, n: int) -> Any:
        """The values drawn with these seeds before (see ``RunContext.rng_stream``)."""
        return np.uint32(self._draw((seed, seed2), n) & 0xFFFFFFFF)

    def _draw(self, k: tuple[int, int], advance: int = 1) -> int:
        n = self._counters.get(k, 0)
        self._counters[k] = n + advance
        return n
