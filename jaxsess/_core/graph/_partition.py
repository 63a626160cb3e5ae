"""The per-device split of a plan whose ops are placed on several devices.

:func:`partition_plan` cuts a :class:`~jaxsess._core.graph._lowering.Lowering`
into :class:`Part` s, one compiled function per device and dependency step;
:func:`parts_runner` runs them with the signature of the plan's single
program (it becomes the plan's ``fn``). Where ops go is decided by
:mod:`jaxsess._core.graph._placement`; the pipeline that assembles the plan is
:func:`jaxsess._core.graph._plan.build_plan`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp

from jaxsess._core.graph._compile import Compiled, compile_function
from jaxsess._core.graph._graph import Operation, Tensor
from jaxsess._core.graph._lowering import (
    VARIABLE_OP,
    Evaluator,
    Lowering,
    PlanFn,
    RngSlot,
    Slot,
    _closure,
    assigned_value,
    rng_slot,
)

__all__ = ["Part", "partition_plan", "parts_runner"]


@dataclass(frozen=True, eq=False)
class Part:
    """One device's share of a plan placed on several devices (made by
    :func:`jaxsess._core.graph._partition.partition_plan`).

    Attributes:
      device: the JAX device the part runs on.
      ops: its ops, in creation order.
      in_tensors: values it reads from feeds or from earlier parts.
      in_assigns: assign ops of earlier parts whose written values it reads.
      in_slots: state slots whose start-of-run values it reads.
      out_tensors: values later parts or the fetches need.
      out_assigns: its assign ops whose values later parts or the new state need.
      out_slots: the rng slots of its random ops (it returns their next counters).
      fn: the compiled ``(in values, in assigns, in slots) -> (out values,
        out assigns, new counters)``, committed to ``device``.
    """

    device: jax.Device
    ops: list[Operation]
    in_tensors: list[Tensor]
    in_assigns: list[Operation]
    in_slots: list[Slot]
    out_tensors: list[Tensor]
    out_assigns: list[Operation]
    out_slots: list[RngSlot]
    fn: Compiled


@dataclass(eq=False)
class _Share:
    """A :class:`Part` while :func:`partition_plan` works out what it reads and hands on."""

    device: jax.Device
    ops: list[Operation]
    in_tensors: list[Tensor] = field(default_factory=list)
    in_assigns: list[Operation] = field(default_factory=list)
    in_slots: list[Slot] = field(default_factory=list)
    out_tensors: list[Tensor] = field(default_factory=list)
    out_assigns: list[Operation] = field(default_factory=list)
    out_slots: list[RngSlot] = field(default_factory=list)


def partition_plan(plan: Lowering, device_of: Callable[[Operation], jax.Device]) -> list[Part]:
    """Splits ``plan`` into per-device parts, each compiled for its device.

    Ops go to ``device_of(op)``. Taken in topological (creation) order, an
    op joins the latest part of its device unless that would make the parts
    depend on each other in a cycle (the part would need, through another
    device, a value computed after it); then it opens a new part. So a
    chain that crosses from one device to another and back makes three
    parts, and independent work on one device shares a part. The parts come
    in a topological order (see :func:`parts_runner`).
    """
    ops = plan.ops
    fed = set(plan.feeds)
    # Greedy merge in topological order: an op joins the latest part of its
    # device unless that would make the parts' dependency graph cyclic (the
    # part depends, through another device, on a part the op reads).
    # NoOps compute nothing: they join no part (the order they impose on
    # variable reads is kept by the read-source edges below).
    ops = [op for op in ops if not (op.type == "NoOp" and not op.outputs)]
    reads_after: dict[Operation, set[Operation]] = {}
    if plan.read_source:
        top: dict[Operation, Operation] = {}
        for op in ops:
            if op._op_def.lowering is not None:
                for sub in _closure([op]):
                    top.setdefault(sub, op)
            else:
                top[op] = op
        for (consumer, _), src in plan.read_source.items():
            owner = top.get(consumer)
            if owner is not None:
                reads_after.setdefault(owner, set()).add(src)
    groups: list[list[Operation]] = []
    group_dev: list[jax.Device] = []
    anc: list[set[int]] = []  # transitive ancestors of each group
    by_device: dict[jax.Device, list[int]] = {}
    group_of: dict[Operation, int] = {}
    for op in ops:
        d = device_of(op)
        deps = [t.op for t in op.inputs if t not in fed] + list(op.control_inputs)
        deps += reads_after.get(op, ())
        ins = {group_of[src] for src in deps if src in group_of}
        chosen = None
        for gi in reversed(by_device.get(d, ())):
            if all(q == gi or gi not in anc[q] for q in ins):
                chosen = gi
                break
        new_anc: set[int] = set()
        for q in ins:
            if q != chosen:
                new_anc |= anc[q]
                new_anc.add(q)
        if chosen is None:
            chosen = len(groups)
            groups.append([])
            group_dev.append(d)
            anc.append(new_anc)
            by_device.setdefault(d, []).append(chosen)
        elif not new_anc <= anc[chosen]:
            anc[chosen] |= new_anc
            for r in range(len(groups)):
                if chosen in anc[r]:
                    anc[r] |= new_anc
        groups[chosen].append(op)
        group_of[op] = chosen
    # An ancestor has strictly fewer ancestors: sorting by that count is a topological order.
    order = sorted(range(len(groups)), key=lambda i: (len(anc[i]), i))
    parts = [_Share(device=group_dev[i], ops=groups[i]) for i in order]
    part_of: dict[Operation, _Share] = {op: p for p in parts for op in p.ops}

    def note_read(part: _Share, consumer: Operation, var: Operation) -> None:
        src = plan.read_source.get((consumer, var))
        if src is None:
            if var not in part.in_slots:
                part.in_slots.append(var)
        elif part_of.get(src) is not part and src not in part.in_assigns:
            part.in_assigns.append(src)

    rng_set = set(plan.rng_ops)
    for part in parts:
        mine = set(part.ops)
        for op in part.ops:
            ref = op._op_def.ref_inputs
            for i, t in enumerate(op.inputs):
                if i in ref:
                    continue
                if t in fed or (t.op not in mine and t.op.type != VARIABLE_OP):
                    if t not in part.in_tensors:
                        part.in_tensors.append(t)
        for op in _closure(part.ops):
            ref = op._op_def.ref_inputs
            for i, t in enumerate(op.inputs):
                if i not in ref and t.op.type == VARIABLE_OP and t not in fed:
                    note_read(part, op, t.op)
            if op._op_def.reads_ref:
                note_read(part, op, op.inputs[ref[0]].op)
            if op.type in ("Shape", "Size", "Rank") and op not in mine and op.inputs:
                src_t = op.inputs[0]  # a Dynamic op's shape source, read at trace time
                if src_t.shape.is_fully_defined():
                    pass
                elif src_t.op.type == VARIABLE_OP and src_t not in fed:
                    note_read(part, op, src_t.op)
                elif (src_t in fed or (src_t.op in part_of and src_t.op not in mine)) and src_t not in part.in_tensors:
                    part.in_tensors.append(src_t)
            if op in rng_set:
                slot = rng_slot(op)
                part.in_slots.append(slot)
                part.out_slots.append(slot)
    # What each part must hand on.
    fetch_set = [t for t in plan.fetches if t not in fed and t.op.type != VARIABLE_OP]
    for t in fetch_set:
        p = part_of[t.op]
        if t not in p.out_tensors:
            p.out_tensors.append(t)
    for part in parts:
        for t in part.in_tensors:
            if t in fed:
                continue
            p = part_of[t.op]
            if t not in p.out_tensors:
                p.out_tensors.append(t)
        for a in part.in_assigns:
            p = part_of[a]
            if a not in p.out_assigns:
                p.out_assigns.append(a)
    for a in plan.final_assign.values():
        p = part_of[a]
        if a not in p.out_assigns:
            p.out_assigns.append(a)
    return [
        Part(
            device=p.device,
            ops=p.ops,
            in_tensors=p.in_tensors,
            in_assigns=p.in_assigns,
            in_slots=p.in_slots,
            out_tensors=p.out_tensors,
            out_assigns=p.out_assigns,
            out_slots=p.out_slots,
            fn=_compile_part(plan, p),
        )
        for p in parts
    ]


def _compile_part(plan: Lowering, part: _Share) -> Compiled:
    in_tensors, in_assigns, in_slots = part.in_tensors, part.in_assigns, part.in_slots
    out_tensors, out_assigns, out_slots = part.out_tensors, part.out_assigns, part.out_slots
    ops = part.ops

    def run(
        in_vals: tuple[Any, ...], assign_vals: tuple[Any, ...], slot_vals: tuple[Any, ...]
    ) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]:
        env = dict(zip(in_tensors, in_vals))
        state = dict(zip(in_slots, slot_vals))
        ev = Evaluator(plan, state, env)
        ev.assigned.update(zip(in_assigns, assign_vals))
        ev.run(ops)
        return (
            tuple(env[t] for t in out_tensors),
            tuple(ev.assigned[a] for a in out_assigns),
            tuple(ev.next_counter(s) for s in out_slots),
        )

    sharding = jax.sharding.SingleDeviceSharding(part.device)
    return compile_function(run, in_shardings=sharding, out_shardings=sharding)


def parts_runner(plan: Lowering, parts: list[Part]) -> PlanFn:
    """A function of the signature of ``plan``'s single program that runs
    ``parts`` (from :func:`partition_plan`) in their topological order,
    moving each part's inputs to its device with ``jax.device_put``
    (dispatch is asynchronous, so parts on different devices with no
    dependency between them overlap). Nothing is donated."""
    donated, kept = plan.donated, plan.kept
    feeds = plan.feeds
    fetches = plan.fetches
    written = plan.written
    final = plan.final_assign

    def runner(
        donated_vals: tuple[Any, ...], kept_vals: tuple[Any, ...], feed_vals: tuple[Any, ...]
    ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        state: dict[Slot, Any] = dict(zip(donated, donated_vals))
        state.update(zip(kept, kept_vals))
        values: dict[Tensor, Any] = dict(zip(feeds, feed_vals))
        assigned: dict[Operation, Any] = {}
        new_slots: dict[Slot, Any] = {}
        for part in parts:
            d = part.device
            args = jax.device_put(
                (
                    tuple(values[t] for t in part.in_tensors),
                    tuple(assigned[a] for a in part.in_assigns),
                    tuple(state[s] for s in part.in_slots),
                ),
                d,
            )
            outs, assigns, slots = part.fn(*args)
            for t, v in zip(part.out_tensors, outs):
                if t not in values:  # a fed tensor keeps its fed value
                    values[t] = v
            assigned.update(zip(part.out_assigns, assigns))
            new_slots.update(zip(part.out_slots, slots))
        out = []
        for t in fetches:
            v = values.get(t)
            if v is None:  # a fetched variable: its value at the start of the run (a copy)
                v = jnp.array(state[t.op], copy=True)
            out.append(v)
        for i, var in plan.fetch_views.items():
            out[i] = assigned_value(assigned, final[var], var)
        new_state = [new_slots[s] if isinstance(s, tuple) else assigned_value(assigned, final[s], s) for s in written]
        return tuple(out), tuple(new_state)

    return runner
