"""Placement and sharding: where a plan's ops and state run.

:func:`place_plan` decides, for a :class:`~jaxsess._core.graph._lowering.Lowering`,
the :class:`Placement` the pipeline (:func:`jaxsess._core.graph._plan.build_plan`)
then partitions and compiles:

* one device (the common case): the plan is its single compiled program;
  ``Placement.device`` is set when that device is not the default;
* ops (or the state they touch) on several devices: ``Placement.device_of``
  says where each op runs, and the plan is split into per-device parts
  (:func:`jaxsess._core.graph._partition.partition_plan`);
* a session over a mesh: the plan is one SPMD program with the mesh's
  in/out shardings (``Placement.mesh``, :func:`shard_plan`), called through
  :func:`sharded_runner`.

Device strings resolve as TF1 (:mod:`jaxsess._core.graph._device`): an unknown
device raises ``InvalidArgumentError`` unless soft placement is on; with
``log_device_placement`` every op's device is logged as TF1 does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from jaxsess._core import distributed as _distributed, errors as errors
from jaxsess._core.graph._compile import Compiled
from jaxsess._core.graph._device import default_device, log_placement, resolve_device, tf_device_name
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._lowering import Lowering, PlanFn, Slot

__all__ = [
    "Placement", "PlacementOptions", "MeshShardings", "place_plan", "shard_plan", "sharded_runner",
    "slot_placement", "named_sharding", "check_seeded",
]

# A sharding that replicates (JAX leaves ``PartitionSpec.__init__`` unannotated).
_REPLICATED: PartitionSpec = PartitionSpec()


class PlacementOptions(NamedTuple):
    """How a session places its plans (its ``mesh`` and ``ConfigProto``)."""

    mesh: Mesh | None = None
    allow_soft_placement: bool = False
    log_device_placement: bool = False


class MeshShardings(NamedTuple):
    """A plan's SPMD program over ``mesh`` (made by :func:`shard_plan`).

    Attributes:
      mesh: the session's mesh.
      in_shardings: ``(donated state, kept state, feeds)``, one sharding each.
      out_shardings: ``(fetches, new state)``: fetches left to XLA (``None``).
    """

    mesh: Mesh
    in_shardings: tuple[tuple[NamedSharding, ...], tuple[NamedSharding, ...], tuple[NamedSharding, ...]]
    out_shardings: tuple[tuple[None, ...], tuple[NamedSharding, ...]]


class Placement(NamedTuple):
    """Where a plan runs (made by :func:`place_plan`); at most one field is set.

    Attributes:
      device: the one device all its ops run on, when not the default device.
      device_of: ops on several devices: the device of each op (the plan is
        partitioned).
      mesh: a session over a mesh: the shardings of its SPMD program.
    """

    device: jax.Device | None = None
    device_of: Callable[[Operation], jax.Device] | None = None
    mesh: MeshShardings | None = None


def place_plan(plan: Lowering, options: PlacementOptions) -> Placement:
    """Resolves the devices of ``plan``'s ops and picks how it runs (see the module docstring).

    An op on a variable's reference (an assign) runs where the variable lives.

    Raises:
      InvalidArgumentError: an op or variable names a device that does not
        exist and ``allow_soft_placement`` is off (names the op); over a mesh
        of several processes, a random op has no seed.
      ValueError: with a mesh, a sharding names an axis the mesh lacks.
    """
    mesh, log_device_placement = options.mesh, options.log_device_placement
    if mesh is not None:
        shardings = shard_plan(plan, mesh)
        if log_device_placement:
            where = f"mesh {dict(mesh.shape)} over " + ", ".join(tf_device_name(d) for d in mesh.devices.flat)
            log_placement([f"{op.name}: ({op.type}): {where}" for op in plan.ops])
        return Placement(mesh=shardings)
    soft = options.allow_soft_placement
    explicit: dict[Operation, jax.Device] = {}
    var_devices: dict[Operation, jax.Device | None] = {}

    def var_device(var: Operation) -> jax.Device | None:
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
        device = next(iter(explicit.values())) if explicit else None
        if log_device_placement:
            name = tf_device_name(device or default)
            log_placement([f"{op.name}: ({op.type}): {name}" for op in plan.ops])
        return Placement(device=device)
    if log_device_placement:
        log_placement([f"{op.name}: ({op.type}): {tf_device_name(explicit.get(op, default))}" for op in plan.ops])

    def device_of(op: Operation) -> jax.Device:
        return explicit.get(op, default)

    return Placement(device_of=device_of)


def shard_plan(plan: Lowering, mesh: Mesh) -> MeshShardings:
    """The shardings that make ``plan`` one SPMD program over ``mesh``.

    Variables take the sharding of their ``sharding`` attribute (replicated
    when unset), placeholders theirs, rng counters are replicated; fetches
    are left to XLA. Over several processes each process feeds its local
    part of a global array (see :func:`sharded_runner`).

    Raises:
      ValueError: a sharding names an axis ``mesh`` lacks (names the node).
      InvalidArgumentError: over several processes, a random op has no seed.
    """
    if mesh.is_multi_process:
        check_seeded(plan.rng_ops)
    replicated = NamedSharding(mesh, _REPLICATED)

    def slot_sharding(slot: Slot) -> NamedSharding:
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
    return MeshShardings(mesh, (donated, kept, feeds), (tuple(None for _ in plan.fetches), written))


def sharded_runner(jitted: Compiled, shardings: MeshShardings) -> PlanFn:
    """A function of ``jitted``'s signature (a plan's SPMD program) that
    first brings the feeds to their shardings: over several processes each
    process feeds its local part of a global array
    (:func:`jaxsess._core.distributed.local_to_global`); else a fed
    ``jax.Array`` committed elsewhere moves to its sharding (NumPy values
    are placed by the call)."""
    multi_process = shardings.mesh.is_multi_process
    feed_shardings = shardings.in_shardings[2]

    def call(
        donated_vals: tuple[Any, ...], kept_vals: tuple[Any, ...], feed_vals: tuple[Any, ...]
    ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        out: tuple[tuple[Any, ...], tuple[Any, ...]]
        if multi_process:  # each process feeds its local part of a global array
            out = jitted(donated_vals, kept_vals, tuple(map(_distributed.local_to_global, feed_vals, feed_shardings)))
            return out
        # Feeds committed elsewhere move to their sharding (numpy values are placed by jit).
        vals = tuple(
            jax.device_put(v, sh) if isinstance(v, jax.Array) and v.sharding != sh else v
            for v, sh in zip(feed_vals, feed_shardings, strict=False)
        )
        out = jitted(donated_vals, kept_vals, vals)
        return out

    return call


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
        spec = _REPLICATED
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
