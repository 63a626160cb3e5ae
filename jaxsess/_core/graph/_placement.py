"""Placement and sharding: where a plan's ops and state run, and how the plan is called.

A graph session hands each new :class:`~jaxsess._core.graph._lowering.Plan` to
:func:`place_plan`, which completes it for where it runs:

* one device (the common case): ``plan.fn`` stays the plan's single jitted
  function; ``plan.device`` is set when that device is not the default;
* ops (or the state they touch) on several devices: the plan is split into
  per-device parts (:func:`jaxsess._core.graph._partition.partition_plan`);
* a session over a mesh: ``plan.fn`` is one SPMD program with the mesh's
  in/out shardings (:func:`shard_plan`).

Device strings resolve as TF1 (:mod:`jaxsess._core.graph._device`): an unknown
device raises ``InvalidArgumentError`` unless soft placement is on; with
``log_device_placement`` every op's device is logged as TF1 does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from jaxsess._core import distributed as _distributed, errors as errors
from jaxsess._core.graph._device import default_device, log_placement, resolve_device, tf_device_name
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._lowering import Plan
from jaxsess._core.graph._partition import partition_plan

__all__ = ["place_plan", "shard_plan", "slot_placement", "named_sharding", "check_seeded"]


def place_plan(
    plan: Plan, *, mesh: Mesh | None, allow_soft_placement: bool, log_device_placement: bool
) -> None:
    """Resolves the devices of ``plan``'s ops and picks how it runs (see the module docstring).

    An op on a variable's reference (an assign) runs where the variable lives.

    Raises:
      InvalidArgumentError: an op or variable names a device that does not
        exist and ``allow_soft_placement`` is off (names the op).
      ValueError: with ``mesh``, a sharding names an axis the mesh lacks.
    """
    if mesh is not None:
        shard_plan(plan, mesh)
        if log_device_placement:
            where = f"mesh {dict(mesh.shape)} over " + ", ".join(tf_device_name(d) for d in mesh.devices.flat)
            log_placement([f"{op.name}: ({op.type}): {where}" for op in plan.ops])
        return
    soft = allow_soft_placement
    explicit: dict[Operation, Any] = {}
    var_devices: dict[Operation, Any] = {}

    def var_device(var: Operation) -> Any:
        if var not in var_devices:
            var_devices[var] = resolve_device(var.device, var.name, allow_soft_placement=soft)
        return var_devices[var]

    for op in plan.ops:
        ref = op._op_def.ref_inputs
        dev = None
        if ref:  # ops on a variable's reference run where the variable lives
            dev = var_device(op.inputs[ref[0]].op)
        if dev is None:
            dev = resolve_device(op.device, op.name, allow_soft_placement=soft)
        if dev is not None:
            explicit[op] = dev
    default = default_device()
    devices = set(explicit.values())
    if len(explicit) < len(plan.ops):
        devices.add(default)
    # Where the state the plan reads or writes lives (unplaced: the default device).
    state_devices = {var_device(v) or default for v in [*plan.start_vars, *plan.final_assign]}
    if len(devices) <= 1 and state_devices <= (devices or {default}):
        plan.device = next(iter(explicit.values())) if explicit else None
        if log_device_placement:
            name = tf_device_name(plan.device or default)
            log_placement([f"{op.name}: ({op.type}): {name}" for op in plan.ops])
        return
    partition_plan(plan, lambda op: explicit.get(op, default))
    plan.device = None
    if log_device_placement:
        log_placement([f"{op.name}: ({op.type}): {tf_device_name(explicit.get(op, default))}" for op in plan.ops])


def shard_plan(plan: Plan, mesh: Mesh) -> None:
    """Makes ``plan.fn`` (and ``plan.jitted``) one SPMD program over ``mesh``.

    Variables take the sharding of their ``sharding`` attribute (replicated
    when unset), placeholders theirs, rng counters are replicated; fetches
    are left to XLA. Over several processes each process feeds its local
    part of a global array (:func:`jaxsess._core.distributed.local_to_global`).

    Raises:
      ValueError: a sharding names an axis ``mesh`` lacks (names the node).
      InvalidArgumentError: over several processes, a random op has no seed.
    """
    assert plan.pure_fn is not None
    if mesh.is_multi_process:
        check_seeded(plan.rng_ops)
    replicated = NamedSharding(mesh, PartitionSpec())

    def slot_sharding(slot: Any) -> Any:
        if isinstance(slot, tuple):  # an rng counter
            return replicated
        return named_sharding(mesh, slot.attrs.get("sharding"), slot.name)

    donated = tuple(slot_sharding(s) for s in plan.donated)
    kept = tuple(slot_sharding(s) for s in plan.kept)
    feeds = tuple(
        named_sharding(mesh, t.op.attrs.get("sharding") if t.op.type == "Placeholder" else None, t.op.name)
        for t in plan.feeds
    )
    written = tuple(slot_sharding(s) for s in plan.written)
    kwargs: dict[str, Any] = {
        "in_shardings": (donated, kept, feeds),
        "out_shardings": (tuple(None for _ in plan.fetches), written),
    }
    if plan.donated:
        kwargs["donate_argnums"] = (0,)
    jitted = jax.jit(plan.pure_fn, **kwargs)
    plan.jitted = jitted
    feed_shardings = feeds

    def call(donated_vals: tuple[Any, ...], kept_vals: tuple[Any, ...], feed_vals: tuple[Any, ...]) -> Any:
        if mesh.is_multi_process:  # each process feeds its local part of a global array
            return jitted(donated_vals, kept_vals, tuple(map(_distributed.local_to_global, feed_vals, feed_shardings)))
        # Feeds committed elsewhere move to their sharding (numpy values are placed by jit).
        vals = tuple(
            jax.device_put(v, sh) if isinstance(v, jax.Array) and v.sharding != sh else v
            for v, sh in zip(feed_vals, feed_shardings, strict=False)
        )
        return jitted(donated_vals, kept_vals, vals)

    call.clear_cache = jitted.clear_cache  # type: ignore[attr-defined]
    plan.fn = call
    plan.custom_call = True


def slot_placement(slot: Any, *, mesh: Mesh | None, allow_soft_placement: bool) -> Any:
    """Where a state slot's value lives: a ``jax.Device``, a ``NamedSharding``
    (``mesh`` given), or ``None`` (anywhere: an rng counter, an unplaced
    variable, or a device that does not resolve)."""
    if isinstance(slot, tuple) or not isinstance(slot, Operation):
        return None
    if mesh is not None:
        return named_sharding(mesh, slot.attrs.get("sharding"), slot.name)
    try:
        return resolve_device(slot.device, slot.name, allow_soft_placement=allow_soft_placement)
    except errors.OpError:
        return None


def named_sharding(mesh: Mesh, spec: PartitionSpec | None, name: str) -> NamedSharding:
    """``NamedSharding(mesh, spec)`` (replicated when ``spec`` is None).

    Raises:
      ValueError: ``spec`` names an axis the mesh does not have (names the node ``name``).
    """
    if spec is None:
        spec = PartitionSpec()
    for entry in spec:
        for axis in entry if isinstance(entry, tuple) else (entry,):
            if axis is not None and axis not in mesh.axis_names:
                raise ValueError(
                    f"The sharding {spec} of '{name}' names mesh axis {axis!r}, but the session's mesh "
                    f"has axes {tuple(mesh.axis_names)}."
                )
    return NamedSharding(mesh, spec)


def check_seeded(rng_ops: Sequence[Operation]) -> None:
    """Refuses unseeded random ops in a session over several processes: each
    process drew their seeds when it built its graph, so "replicated" random
    values would differ between processes.

    Raises:
      InvalidArgumentError: names the op and how to seed it.
    """
    for op in rng_ops:
        if op.attrs.get("seeded") is False:
            raise errors.InvalidArgumentError(
                op.name,
                op,
                f"Random op '{op.name}' ({op.type}) has no seed. In a session over several processes "
                "every process must draw the same numbers: set a graph seed with "
                "tf.set_random_seed(...) (or the op's seed=) before building the graph.",
            )
