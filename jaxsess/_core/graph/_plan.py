"""The frozen Plan, and the pipeline that builds it: prune → lower → place → partition → compile.

:func:`build_plan` is the only maker of a :class:`Plan`.
Each stage returns a new frozen value and the plan is constructed once at the
end; nothing assigns to it afterwards:

1. **prune, lower** (:func:`~jaxsess._core.graph._lowering.lower`): the
   ops a signature needs and its resolved state, a ``Lowering``; its pure
   function (:func:`~jaxsess._core.graph._lowering.pure_function`);
2. **place** (:func:`~jaxsess._core.graph._placement.place_plan`): one
   device, several (each op's), or a mesh's shardings;
3. **partition** (:func:`~jaxsess._core.graph._partition.partition_plan`):
   per-device parts, for a plan on several devices;
4. **compile** (:func:`~jaxsess._core.graph._compile.compile_function`, the
   core's one compile site): the plan's program, donating the state it
   overwrites; its parts; for a stateless plan on the default device, the
   flat function of its feeds. With ``const_args`` (a session's plans on one
   device), the program takes the values of the plan's big constants
   (``Lowering.consts``: a frozen model's weights) as arguments, device arrays
   made here once, bound before its other arguments (never donated); the
   program ``Session.lower`` lowers keeps every constant in it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import jax

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._compile import Compiled, CompilerOptions, bind_leading, compile_function
from jaxsess._core.graph._graph import Operation, Tensor
from jaxsess._core.graph._lowering import (
    ConstPlanFn,
    Lowering,
    PlanFn,
    TraceHook,
    const_arg_function,
    lower,
    pure_function,
)
from jaxsess._core.graph._partition import Part, partition_plan, parts_runner
from jaxsess._core.graph._placement import PlacementOptions, place_plan, sharded_runner

__all__ = ["Plan", "build_plan"]


@dataclass(frozen=True, eq=False)
class Plan(Lowering):
    """A lowered, placed and compiled run signature: its :class:`Lowering`
    and the functions that run it, built once by
    :func:`build_plan` and never changed.

    Attributes:
      pure_fn: the pure ``(donated, kept, feeds) -> (fetch values, new
        state)`` that every compiled form traces.
      jitted: the single compiled program of the whole plan: over a mesh,
        the SPMD program with its shardings; for a plan split over devices,
        undonated; with its big constants as arguments, that program with
        their values bound (called and lowered as ``(donated, kept, feeds)``).
      fn: what a run calls, same signature: ``jitted``, or (``custom_call``)
        a Python function that prepares sharded feeds or runs the ``parts``.
      whole: ``jitted`` with every constant embedded in the program (what
        ``Session.lower`` lowers: self-contained StableHLO): ``jitted``
        itself, unless the plan takes its big constants as arguments.
      flat: a stateless plan on the default device: the compiled function
        of the feed values alone (``fn(*feeds)``, no argument pytrees) that
        returns the fetched values, or with one fetch its array itself;
        ``None`` for other plans.
      device: the one device the plan runs on when it is not the default.
      parts: the per-device parts of a plan placed on several devices.
      custom_call: whether ``fn`` is a Python function rather than ``jitted``.
    """

    pure_fn: PlanFn
    jitted: Compiled
    fn: PlanFn
    whole: Compiled
    flat: Compiled | None = None
    device: jax.Device | None = None
    parts: list[Part] | None = None
    custom_call: bool = False

    def clear_cache(self) -> None:
        """Frees every executable compiled for this plan (at close, on eviction)."""
        self.jitted.clear_cache()
        if self.whole is not self.jitted:
            self.whole.clear_cache()
        if self.flat is not None:
            self.flat.clear_cache()
        for part in self.parts or ():
            part.fn.clear_cache()


def build_plan(
    fetches: Sequence[Tensor],
    feeds: Sequence[Tensor],
    targets: Sequence[Operation],
    *,
    placement: PlacementOptions | None = None,
    compiler_options: Callable[[Lowering], CompilerOptions | None] | None = None,
    on_trace: TraceHook | None = None,
    const_args: bool = False,
) -> Plan:
    """The plan of one run signature (see the module docstring).

    Args:
      fetches: the unique tensors to fetch, in order.
      feeds: the fed tensors, in the order the plan's functions take them.
      targets: the ops to run for their effects.
      placement: where a session's plans run (its mesh and placement
        config). ``None``: one program on the default device, whatever
        device the ops name (exporting, dataset functions).
      compiler_options: the XLA options of the plan's program, given its
        lowering (``None``, or when it returns ``None``: JAX's defaults).
        Used for a program on one device; not for a mesh or for parts.
      on_trace: called with the feed values each time the plan's pure
        function is traced (a compile, or a load from the persistent
        compilation cache).
      const_args: whether a program on one device takes the values of the
        plan's big constants as arguments (see the module docstring): a
        session's plans. ``False``: every constant is a literal of the
        program (exporting, dataset functions).

    Raises:
      InvalidArgumentError: a placeholder the fetches need is not fed; an op
        names a device that does not exist (without soft placement).
      ValueError: over a mesh, a sharding names an axis the mesh lacks.
    """
    lowering = lower(fetches, feeds, targets)
    pure = pure_function(lowering, on_trace)
    where = place_plan(lowering, placement) if placement is not None else None
    donate = (0,) if lowering.donated else ()
    if where is not None and where.mesh is not None:  # one SPMD program over the mesh
        shardings = where.mesh
        sharded = compile_function(
            pure,
            donate_argnums=donate,
            in_shardings=shardings.in_shardings,
            out_shardings=shardings.out_shardings,
        )
        return _plan(lowering, pure, sharded, sharded_runner(sharded, shardings), custom_call=True)
    if where is not None and where.device_of is not None:  # per-device parts
        parts = partition_plan(lowering, where.device_of)
        whole = compile_function(pure)  # what Session.lower lowers (placement aside); runs never call it
        return _plan(lowering, pure, whole, parts_runner(lowering, parts), parts=parts, custom_call=True)
    options = compiler_options(lowering) if compiler_options is not None else None
    whole = compile_function(pure, donate_argnums=donate, compiler_options=options)
    device = where.device if where is not None else None
    if not const_args or not lowering.consts:
        flat = _flat_function(lowering, pure, options) if not lowering.stateful and device is None else None
        return _plan(lowering, pure, whole, whole, flat=flat, device=device)
    consts = _const_values(lowering, device)
    with_consts = const_arg_function(lowering, on_trace)
    donate = (1,) if lowering.donated else ()
    jitted = bind_leading(compile_function(with_consts, donate_argnums=donate, compiler_options=options), consts)
    flat = None
    if not lowering.stateful and device is None:
        flat = bind_leading(_flat_const_function(lowering, with_consts, options), *consts)
    return _plan(lowering, pure, jitted, jitted, whole=whole, flat=flat, device=device)


def _const_values(lowering: Lowering, device: jax.Device | None) -> tuple[jax.Array, ...]:
    """The values of ``lowering``'s big constants on ``device`` (``None``:
    JAX's default device, uncommitted), in their graph dtypes."""
    with _dtypes.x64_scope() if lowering.x64 else contextlib.nullcontext():
        return tuple(jax.device_put(op.attrs["value"], device) for op in lowering.consts)


def _plan(
    lowering: Lowering,
    pure: PlanFn,
    jitted: Compiled,
    fn: PlanFn,
    *,
    whole: Compiled | None = None,
    flat: Compiled | None = None,
    device: jax.Device | None = None,
    parts: list[Part] | None = None,
    custom_call: bool = False,
) -> Plan:
    # The lowering's fields, as they are, and the compiled functions.
    return Plan(
        **vars(lowering),
        pure_fn=pure,
        jitted=jitted,
        fn=fn,
        whole=jitted if whole is None else whole,
        flat=flat,
        device=device,
        parts=parts,
        custom_call=custom_call,
    )


def _flat_function(lowering: Lowering, pure: PlanFn, options: CompilerOptions | None = None) -> Compiled:
    """A stateless plan's program as a function of the feed values alone
    (JAX's C++ dispatch path, no nested argument pytrees) that returns the
    fetched values; with one fetch, the array itself (no output pytree).
    ``options``: its XLA options, as the plan's other programs."""
    # (The names are the programs' names: in compile logs and cache keys.)
    if len(lowering.fetches) == 1:

        def flat(*feeds: Any) -> Any:
            return pure((), (), feeds)[0][0]

        return compile_function(flat, compiler_options=options)

    def flat_all(*feeds: Any) -> tuple[Any, ...]:
        return pure((), (), feeds)[0]

    return compile_function(flat_all, compiler_options=options)


def _flat_const_function(lowering: Lowering, with_consts: ConstPlanFn,
                         options: CompilerOptions | None = None) -> Compiled:
    """:func:`_flat_function` of a stateless plan whose big constants are
    arguments: ``(*consts, *feeds)``, the constants bound by the caller."""
    n = len(lowering.consts)
    if len(lowering.fetches) == 1:

        def flat(*args: Any) -> Any:
            return with_consts(args[:n], (), (), args[n:])[0][0]

        return compile_function(flat, compiler_options=options)

    def flat_all(*args: Any) -> tuple[Any, ...]:
        return with_consts(args[:n], (), (), args[n:])[0]

    return compile_function(flat_all, compiler_options=options)
