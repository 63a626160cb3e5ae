"""The graph ``Session`` and ``InteractiveSession``, as ``tf.compat.v1``.

``run`` normalises fetches and feeds, looks the (fetches, feeds, targets)
signature up in the session's plan cache (building and jitting a
:class:`~jaxsess._core.graph._plan.Plan` on a miss), calls the jitted function
with the session's state buffers and the feeds, swaps in the new state and
hands the results back in the fetch structure: host NumPy values owned by the
caller, as TF1 (or, with ``device_fetches=True``, ``jax.Array``s owned by the
session). Nothing on a cache hit walks the graph.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import operator
import os
import threading
import warnings
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar, cast

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import (
    _context as _context,
    _signals as _signals,
    distributed as _distributed,
    dtypes as _dtypes,
    errors as errors,
)
from jaxsess._core._config import ConfigProto, enable_compilation_cache
from jaxsess._core.graph._compile import Compiled, CompilerOptions, supported_compiler_options
from jaxsess._core.graph._device import log_placement
from jaxsess._core.graph._graph import Graph, Operation, Tensor, get_default_graph
from jaxsess._core.graph._host import HOST_GRAPH_REFS as _HOST_GRAPH_REFS
from jaxsess._core.graph._lowering import VARIABLE_OP, Lowering, PlanFn, Slot, prune
from jaxsess._core.graph._placement import PlacementOptions, slot_placement
from jaxsess._core.graph._plan import Plan, build_plan
from jaxsess._core.graph._sparse import SparseTensor
from jaxsess._core.runtime import _compile_notice as _compile_notice, _host_run as _host_run
from jaxsess._core.runtime._fetch import (
    Fetches,
    check_unique,
    feed_items,
    feed_key,
    feed_keys as resolve_feeds,
    feed_value,
    feed_values,
    feeds_fit,
    feeds_fit_spec,
    host_value,
    sparse_callable,
    split_leaves,
    to_host,
)
from jaxsess._core.runtime._native import (  # the C hot path (jaxsess/_core/runtime/_hot.c), or None
    hot as _c_hot,
)
from jaxsess._core.runtime._resources import ResourceCleanupStrategy, jit_returns_input_buffers
from jaxsess._core.runtime._session import BaseSession, _closed_error

__all__ = ["Session", "InteractiveSession"]


logger = logging.getLogger("jaxsess")

# A plan that compiles this many times for different feed shapes logs a
# warning once (as TF's tf.function retracing warning, after 5).
RECOMPILE_WARN_AFTER = 5

# Initialisation plans (they only write variables the session has not
# initialised, fetch and feed nothing) run once: XLA:CPU compiles them about
# 4x faster without backend optimisation, and runs them about 2.5x slower,
# which costs less than the compile saves below this many written elements.
# XLA:CPU's older loop emitters (xla_cpu_use_fusion_emitters off) compile the
# Philox loops of random initialisers faster again: a TF1 tutorial's five
# initialisation plans took 1.2-2.2 s each, and the whole program 36 s -> 31 s.
INIT_PLAN_FAST_COMPILE_MAX_ELEMENTS = 4 * 1024 * 1024
_FAST_COMPILE: CompilerOptions = {"xla_backend_optimization_level": 0, "xla_cpu_use_fusion_emitters": False}

# Every plan's program on CPU: no YNNPACK library fusions
# (``xla_cpu_experimental_ynn_fusion_type`` empty). jax 0.10's XLA:CPU hands convolutions,
# dots and some element-wise chains to YNNPACK by default; without it they run as XLA's own
# Eigen convolutions and dots and fused loops. One 3x3 64->64 convolution on [8, 56, 56, 64]
# ran in 5.6 instead of 10.1 ms, a 1x1 256->64 in 2.6 instead of 8.2 ms (2 cores, jax 0.10.2),
# and benchmarks/bench_models.py's frozen nets (batch 8, 224x224, one process, interleaved,
# load ~1) ran ResNet50 in 240-256 instead of 336-358 ms a batch, MobileNetV2 52 instead of 88,
# EfficientNetB0 83 instead of 114; the training steps of benchmarks/bench_vs_tf1.py 1.08x
# (MLP) and 1.05x (small CNN) faster. jax 0.12's XLA:CPU: ResNet50 246 instead of 287 ms,
# MobileNetV2 unchanged. Outputs change by the order of the dots' sums (ResNet50's logits by
# <= 5e-10). A jaxlib whose XLA does not know the option compiles with its defaults.
CPU_STEP_OPTIONS: CompilerOptions = {"xla_cpu_experimental_ynn_fusion_type": ""}

# A plan's program on CPU that writes no state (inference, evaluation) is also compiled with
# LLVM at -O1 instead of XLA's default -O3. XLA:CPU spends most of a big program's compile in
# LLVM (EfficientNetB0 at batch 8: ~80 ms of HLO passes, ~2 s emitting and optimising 83
# kernels). Measured on 2 shared cores (load 1.9-2.6), fresh processes, interleaved, 3 each
# (benchmarks/bench_models.py's frozen nets, batch 8; XLA compile CPU seconds / steady ms a
# batch): EfficientNetB0 2.17-2.31 -> 1.73-1.75 s / 140-191 -> 143-188 ms, MobileNetV2
# 0.84-0.94 -> 0.83-0.84 s / 105-128 -> 105-127 ms, ResNet50 0.41-0.42 -> 0.42-0.44 s /
# 644-657 -> 630-658 ms; outputs bitwise equal (LLVM does not reassociate floats without
# fast-math flags, which XLA:CPU leaves off by default). Training steps keep -O3: the small
# CNN of benchmarks/bench_vs_tf1.py trained 2-5% slower at -O1 (4 interleaved runs), and a
# training program runs many more times than it compiles.
CPU_PLAN_OPTIONS: CompilerOptions = {**CPU_STEP_OPTIONS, "xla_backend_optimization_level": 1}

_F = TypeVar("_F", bound=Callable[..., Any])


def _c_hot_path(method: _F) -> _F:
    """``method`` (``Session.run``) with its cache hits run by ``jaxsess._core.runtime._hot``
    when it is built; the Python method stays its ``__wrapped__`` and runs
    every other call."""
    if _c_hot is None:
        return method
    return cast(_F, functools.update_wrapper(_c_hot.HotRun(method), method))


# A cache hit's call of a plan: converted feed values -> the plan's device results.
_Invoke = Callable[[list[Any]], tuple[Any, ...]]
# What the C hot path runs for a stateful plan on the default device, as
# Session._call does: (plan.fn, donated slots, kept slots, written slots).
_Step = tuple[PlanFn, tuple[Slot, ...], tuple[Slot, ...], tuple[Slot, ...]]


class _Invoker(NamedTuple):
    """How a plan cache entry calls its plan (made by ``Session._invoker``).

    Attributes:
      invoke: the call every cache hit can make.
      flat: a stateless plan's flat compiled function of the feeds
        (``Plan.flat``) that a hit may call instead of ``invoke``; ``None``
        when ``invoke`` does more (x64 scope, feed permutation, host outputs).
      single: ``flat`` returns the one fetched array itself.
      step: for the C hot path, see :data:`_Step`; ``None`` when ``invoke``
        is not exactly ``Session._call``.
    """

    invoke: _Invoke
    flat: Compiled | None = None
    single: bool = False
    step: _Step | None = None


def _in_x64(invoke: _Invoke) -> _Invoke:
    """``invoke`` traced and called under JAX's scoped x64 mode (this thread only)."""

    def call(vals: list[Any]) -> tuple[Any, ...]:
        with _dtypes.x64_scope():
            return invoke(vals)

    return call


def _on_one_device(fn: Callable[..., Any], feeds: Sequence[Any], err: ValueError) -> Any:
    """Retries ``fn(*feeds)`` that JAX refused because fed arrays are committed
    to different devices: TF1 copies feeds to where the ops run, so move them
    to the default device. (JAX checks devices before it runs or donates.)"""
    if "incompatible devices" not in str(err):
        raise err
    dev = getattr(jax.config, "jax_default_device", None) or jax.local_devices()[0]
    return fn(*[jax.device_put(v, dev) if isinstance(v, jax.Array) else v for v in feeds])


def _call_flat(session: Session, fn: Callable[..., Any], vals: Sequence[Any]) -> Any:
    """``fn(*vals)``, a stateless plan's flat jitted function, retried on one
    device for feeds committed to several, its errors translated (the session
    closed meanwhile, device out of memory). The hot paths inline the first
    try and call :func:`_flat_failed` on an error."""
    try:
        return fn(*vals)
    except Exception as e:
        return _flat_failed(session, fn, vals, e)


def _flat_failed(session: Session, fn: Callable[..., Any], vals: Sequence[Any], err: Exception) -> Any:
    """After ``fn(*vals)`` raised ``err``: the retry on one device of feeds
    committed to several devices, or ``err`` translated (see :func:`_call_flat`)."""
    _compile_notice.finish()  # a compile that failed says nothing more
    try:
        if isinstance(err, ValueError):
            return _on_one_device(fn, vals, err)
        raise err
    except Exception as e:
        session._raise_translated(e)


def _step_failed(fn: Callable[..., Any], donated: tuple[Any, ...], kept: tuple[Any, ...], feeds: tuple[Any, ...],
                 err: Exception) -> Any:
    """After a plan's ``fn(donated, kept, feeds)`` raised ``err`` (in
    :meth:`Session._call`, or in the C hot path with the state lock held):
    the retry on one device of feeds committed to several, or ``err``."""
    if isinstance(err, ValueError):
        return _on_one_device(lambda *f: fn(donated, kept, f), feeds, err)
    raise err


def _arity_error(feeds: Sequence[Tensor], args: Sequence[Any]) -> TypeError:
    """A ``make_callable`` function called with another number of feed values than it has feeds."""
    return TypeError(f"Callable takes {len(feeds)} feed value(s) ({[t.name for t in feeds]}), got {len(args)}.")


class _Entry(NamedTuple):
    """A plan cache entry: the plan and what a cache hit needs, computed once."""

    plan: Plan
    positions: list[Any] | None  # where each fetch leaf's value is in the results (None: the identity)
    invoke: Callable[[list[Any]], tuple[Any, ...]]  # converted feeds -> the plan's device results
    feeds: tuple[Tensor, ...]  # the fed tensors, in the key's order
    # Whether feed values (in that order) need no conversion or check (feeds_fit).
    fits: Callable[[Sequence[Any]], bool]
    # A stateless plan's flat jitted function of the feeds (invoke without a
    # frame): ``direct`` returns the fetched values, ``direct_one`` the one
    # fetched array of a plan with a single fetch; None when there is none.
    direct: Any
    direct_one: Any
    by_buffer: bool  # whether adopting its device results compares buffers (see Session._adopt)
    # feeds_fit as data, for the C hot path: (dtype, shape) per feed, or None
    fit_spec: tuple[tuple[np.dtype[Any], tuple[int | None, ...]], ...] | None
    # A stateful plan on the default device whose invoke is Session._call as
    # it is (no feed permutation, host outputs or x64 scope): (plan.fn,
    # donated, kept, written slots as tuples), what the C hot path runs as
    # _call does; else None.
    step: tuple[Any, tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]] | None

    @classmethod
    def of(cls, plan: Plan, positions: list[Any] | None, invoker: _Invoker, feeds: Sequence[Tensor]) -> _Entry:
        # the flat function of the stateless fast path (not for x64 plans: they need the scope)
        flat = None if plan.x64 else invoker.flat
        one = invoker.single
        return cls(
            plan, positions, invoker.invoke, tuple(feeds), feeds_fit(feeds), None if one else flat,
            flat if one else None, plan.parts is not None or jit_returns_input_buffers(), feeds_fit_spec(feeds),
            invoker.step,
        )

    def feed_values(self, values: Sequence[Any]) -> Sequence[Any]:
        """``values`` as the plan takes them: themselves when they fit (the
        hot path: no conversion, no check), else each converted and checked."""
        return values if self.fits(values) else feed_values(self.feeds, values)


# The fetch leaves run() takes as they are, in a flat list (see _run).
_PLAIN_LEAVES = frozenset((Tensor, Operation))


def _clear_caches(entry: _Entry) -> None:
    """Frees the compiled executables of a plan cache entry (all its plan's)."""
    with contextlib.suppress(Exception):
        entry.plan.clear_cache()


# What Session._hit returns when the call is not a plan-cache hit it takes.
_MISS: Any = object()


def _run_entry(session: Session, entry: _Entry, vals: Sequence[Any], device: bool, single: bool,
               rebuild: Callable[[list[Any]], Any] | None) -> Any:
    """Runs a cached plan on feed values it takes as they are and returns what
    ``run`` (or a ``make_callable`` function) returns: the end of every run
    of a plan, the cache hits' (:meth:`Session._hit`, make_callable's
    ``runner``) and a miss's once it has built the plan.

    The one Python copy, and the reference of its C twin ``run_entry`` in
    ``_hot.c``. The steps, in this order in both:

    1. compiled variants past ``ConfigProto.plan_cache_size`` are freed
       (:meth:`Session._free_variants`);
    2. a stateless plan of one fetch whose value is the one asked for
       (``single``; not gathered from several processes): its flat jitted
       function ``direct_one(*vals)`` (an error: :func:`_flat_failed`), the
       array adopted by the registry (``device``) or its host copy
       (:func:`host_value`), returned; signal handlers are not deferred
       (no state to split, see :meth:`Session.run`);
    3. else the plan's results: the flat jitted function of a stateless plan
       (``direct_one`` or ``direct``, through :func:`_call_flat`, not
       deferred), or, with signal handlers deferred until the value is
       made, ``entry.invoke`` (a stateful plan on the default device:
       :meth:`Session._call`, whose stateful branch C runs as ``state_call``
       from the entry's ``step``), its error translated
       (:meth:`BaseSession._raise_translated`);
    4. host values gathered from every process (multi-process host fetches);
    5. device results adopted (:meth:`Session._adopt`), else their host
       copies (one by :func:`host_value`, several by :func:`to_host`);
    6. the values placed by the entry's ``positions`` (``None``: as they are);
    7. the first (``single``), the list (``rebuild`` ``None``) or ``rebuild(list)``.

    C runs steps 2 and 3 for ``direct_one``, ``direct`` and ``step``
    entries with every state slot set, and calls this function for any
    other entry, when variants are to be freed, or when a slot is missing
    (the first run of a random op creates its counter in Python); its
    callers never give it a multi-process session's host fetches.
    """
    if session._drop_variants:
        session._free_variants()
    fn = entry.direct_one
    gather = not device and session._multiprocess
    if fn is not None and single and not gather:
        try:  # _call_flat, inlined
            out = fn(*vals)
        except Exception as e:
            out = _flat_failed(session, fn, vals, e)
        if device:  # one fresh array: the registry's inlined case
            session._registry.adopt_outputs(out, vals, by_buffer=entry.by_buffer, producer="Session.run")
            return out
        return host_value(out)
    held = None
    try:
        results: Sequence[Any]
        if fn is not None:
            results = (_call_flat(session, fn, vals),)
        elif entry.direct is not None:
            results = _call_flat(session, entry.direct, vals)
        else:
            held = _signals.defer()
            try:
                results = entry.invoke(list(vals))
            except Exception as e:
                session._raise_translated(e)  # closed meanwhile; device out of memory
        if gather:
            results = session._gather(results)
        values: list[Any]
        if device:
            session._adopt(results, vals, entry.plan)
            values = list(results)
        elif len(results) == 1:
            values = [host_value(results[0])]
        else:
            values = to_host(results)
        positions = entry.positions
        if positions is not None:  # e.g. a plan of more fetches reused (Session._reuse)
            values = [None if p is None else values[p] for p in positions]
        if single:
            return values[0]
        return values if rebuild is None else rebuild(values)
    finally:
        _signals.deliver(held)


if _c_hot is not None:
    _c_hot.configure(
        np_array=np.array,
        ndarray=np.ndarray,
        tensor=Tensor,
        host_data=_HOST_GRAPH_REFS,
        flat_failed=_flat_failed,
        operation=Operation,
        defer=_signals.defer,
        deliver=_signals.deliver,
        to_host=to_host,
        step_failed=_step_failed,
        feed_values=feed_values,
        run_entry=_run_entry,
        i_plan=_Entry._fields.index("plan"),
        i_positions=_Entry._fields.index("positions"),
        i_fits=_Entry._fields.index("fits"),
        i_spec=_Entry._fields.index("fit_spec"),
        i_direct=_Entry._fields.index("direct"),
        i_direct_one=_Entry._fields.index("direct_one"),
        i_by_buffer=_Entry._fields.index("by_buffer"),
        i_step=_Entry._fields.index("step"),
        i_feeds=_Entry._fields.index("feeds"),
    )


class Session(BaseSession):
    """A graph session, as ``tf.compat.v1.Session``.

    Args:
      target: ``''`` (in-process), or the ``target`` of a ``tf.train.Server``
        made in this process (the session still runs here, see
        :mod:`jaxsess._tf1.train._cluster`).
      graph: the :class:`Graph` to run (default: the default graph at creation).
      config: a :class:`ConfigProto` (soft placement, placement logging, GPU options).
      cleanup: the :class:`ResourceCleanupStrategy` for the device arrays
        the session owns (default ``IN_BACKGROUND``).
      memory_limit_bytes: optional budget in bytes, see :class:`BaseSession`.
      mesh: optional ``jax.sharding.Mesh``. Every plan then becomes one SPMD
        program over the mesh (``jax.jit`` with in/out shardings): a
        variable's state is laid out by its ``sharding=`` ``PartitionSpec``
        (default replicated), a placeholder's feed by its ``sharding=``
        (default replicated), and XLA inserts the collectives. Device scopes
        (``tf.device``) are ignored in a mesh session. A mesh over several
        processes' devices (after :func:`jaxsess._core.distributed.initialize`)
        runs the same graph in every process: a placeholder with a sharded
        ``PartitionSpec`` is fed each process's local part of the global
        batch (``jax.make_array_from_process_local_data``; its static shape
        is checked against that local part, so leave the batch dimension
        ``None``), a replicated one the same whole value everywhere. Every
        process must make the same ``run`` calls in the same order.
      device_fetches: what :meth:`run`, ``Tensor.eval`` and
        :meth:`make_callable` return. ``False`` (default): TF1's value
        contract, host NumPy values (``numpy.ndarray``; a 0-d result as a
        NumPy scalar such as ``np.float32``) that belong to the caller and
        outlive ``close()``. ``True``: device-resident ``jax.Array``s owned
        by the session, freed under ``cleanup`` and deleted at ``close()``;
        no device-to-host copy, for accelerator loops that feed a result
        back into the next run.
      fetch_local_shards: only for a mesh over several processes' devices
        (``jax.distributed``, see :mod:`jaxsess._core.distributed`). ``False``
        (default): a host fetch is the global value, gathered from every
        process (``process_allgather``). ``True``: each process gets only
        the part its own devices hold (for a batch-sharded result, its
        rows; a replicated result whole), with no cross-process copy.

    Raises:
      ValueError: a ``target`` other than those, or a bad strategy.
      TypeError: ``graph`` is not a :class:`Graph`, or ``mesh`` not a ``Mesh``.

    ``with Session() as s:`` makes ``s`` the default session and its graph the
    default graph, and closes it on exit. Everything on the device belongs to
    the session: variable values, per-op random counters, intermediates,
    donated buffers, compiled plans (and run results with ``device_fetches``).

    Placement (no mesh): each op runs on the device its ``tf.device`` scope
    names (ops with no device on the default device; ops that assign or
    update a variable on the variable's device, where its state stays). A
    plan whose ops all run on one device is one jitted call; a plan that
    spans devices runs as per-device jitted parts, its values moved between
    devices with ``jax.device_put`` (see ``partition_plan``).
    """

    def __init__(
        self,
        target: str = "",
        graph: Graph | None = None,
        config: ConfigProto | None = None,
        *,
        cleanup: ResourceCleanupStrategy | str = ResourceCleanupStrategy.IN_BACKGROUND,
        memory_limit_bytes: int | None = None,
        name: str | None = None,
        mesh: Any = None,
        device_fetches: bool = False,
        fetch_local_shards: bool = False,
    ) -> None:
        if mesh is not None and not isinstance(mesh, jax.sharding.Mesh):
            raise TypeError(f"mesh must be a jax.sharding.Mesh; got {type(mesh).__name__}")
        if target not in ("", None) and not _context.is_local_server_target(target):
            raise ValueError(
                f"Session target {target!r} is not supported: jaxsess runs in-process (target='', or the "
                "target of a tf.train.Server created in this process)."
            )
        if graph is None:
            graph = get_default_graph()
        elif not isinstance(graph, Graph):
            raise TypeError(f"graph must be a jaxsess.Graph; got {type(graph).__name__}")
        super().__init__(cleanup=cleanup, config=config, memory_limit_bytes=memory_limit_bytes, name=name)
        self._graph = graph
        cfg = self._config
        # Plans, least recently used first; see _lookup.
        self._plans: OrderedDict[Any, _Entry] = OrderedDict()
        # (fetch, feed keys, entry) of the plan the C hot path ran last and
        # moved to the LRU end (jaxsess/_core/runtime/_hot.c); any other change of _plans
        # resets it, so a repeated run skips the key, the lookup and the move.
        self._last_hit: tuple[Any, ...] | None = None
        # (fetch leaves, feed keys) of runs that the host pass found to need no host op (a graph
        # with host ops: TF's saver sub-graph, a string constant): they take the plan-cache hit path
        self._no_host_keys: set[tuple[Any, ...]] = set()
        self._plan_cache_size = max(1, int(cfg.plan_cache_size))
        self._log_compiles = bool(cfg.log_compilations) or os.environ.get("JAXSESS_LOG_COMPILES", "") not in (
            "", "0", "false", "False")
        self._compile_notice_after_s = _compile_notice.enabled_after_s(cfg.compile_notice_after_s)
        self._traces: dict[Plan, list[Any]] = {}  # plan -> [variants compiled, their signatures]
        self._drop_variants: list[Plan] = []  # plans whose executables to free before the next run
        enable_compilation_cache(cfg)
        self._plan_lock = threading.Lock()
        self._state: dict[Any, Any] = {}  # state slot -> jax.Array (pinned in the registry)
        self._state_lock = threading.RLock()
        self._graph_cm: list[Any] = []
        self._mesh = mesh
        self._device_fetches = bool(device_fetches)
        # A mesh over several processes: host fetches of global arrays are gathered.
        self._multiprocess = mesh is not None and mesh.is_multi_process
        self._fetch_local_shards = bool(fetch_local_shards)

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def mesh(self) -> Any:
        """The ``jax.sharding.Mesh`` plans run over, or ``None``."""
        return self._mesh

    @property
    def device_fetches(self) -> bool:
        """Whether :meth:`run` returns session-owned ``jax.Array``s (``True``)
        or host NumPy values owned by the caller (``False``, TF1's contract)."""
        return self._device_fetches

    @property
    def graph_def(self) -> Any:
        return self._graph.as_graph_def() if hasattr(self._graph, "as_graph_def") else None

    @property
    def sess_str(self) -> str:
        return ""

    # -- lifecycle --------------------------------------------------------------

    def __enter__(self) -> Session:
        self._check_open()
        if self._graph_cm:  # as TF1: the inner exit would close the session under the outer block
            raise RuntimeError(
                "Session context managers are not re-entrant. Use `Session.as_default()` if you "
                "want to enter a session multiple times."
            )
        gcm = self._graph.as_default()
        gcm.__enter__()
        self._graph_cm.append(gcm)
        scm = self.as_default()
        scm.__enter__()
        self._default_cm.append(scm)
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            if self._default_cm:
                self._default_cm.pop().__exit__(exc_type, exc, tb)
            if self._graph_cm:
                self._graph_cm.pop().__exit__(exc_type, exc, tb)
        finally:
            self.close()

    def _on_close(self) -> None:
        _host_run.cancel_resources(self)  # wakes runs waiting on queues
        with self._plan_lock:
            for entry in list(self._plans.values()):
                _clear_caches(entry)
            self._plans.clear()
            self._last_hit = None
            self._traces.clear()
        with self._state_lock:
            self._state.clear()

    # -- state ------------------------------------------------------------------

    # The VariableStore interface (jaxsess._core._context): how variables, the Saver
    # and export reach the state; see read, assign and is_initialized below.

    def is_initialized(self, var: Any) -> bool:
        """Whether a state slot (a variable's ``VariableV2`` op) has a value in this session."""
        return var in self._state

    # -- run ----------------------------------------------------------------------

    @_c_hot_path
    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None, run_metadata: Any = None) -> Any:
        """Runs the ops and evaluates the tensors in ``fetches``, as ``tf.compat.v1.Session.run``.

        Args:
          fetches: a ``Tensor``, an ``Operation`` (gives ``None``), a name
            (``'x:0'`` or an op name), or any nesting of list, tuple,
            namedtuple and dict of those. Duplicates are computed once.
          feed_dict: ``{tensor or name: value}``. Any tensor can be fed; a
            value is converted as ``np.asarray(value, tensor.dtype)`` (a
            ``jax.Array`` of the right dtype passes without a host copy).
          options, run_metadata: accepted and ignored.

        Returns:
          ``fetches`` with every tensor replaced by its value and every
          operation by ``None``, in the same structure. A value is a host
          ``numpy.ndarray`` (a 0-d value a NumPy scalar, e.g. ``np.float32``)
          that belongs to the caller and stays valid after ``close()``; with
          ``device_fetches=True`` it is a ``jax.Array`` owned by this session
          (freed under its strategy, or at close).

        Raises:
          RuntimeError: the session is closed.
          TypeError: a ``None`` fetch, a ``Tensor`` as feed value, or a
            ``feed_dict`` that is not a mapping.
          ValueError: a fed value's shape does not fit the tensor, an element
            of another graph, or a fetched name that is not in the graph.
          InvalidArgumentError: a placeholder was not fed (names it, its
            dtype and shape), or an op failed (names the node).
          FailedPreconditionError: an uninitialised variable is read.

        A Ctrl-C (or another signal whose handler raises) that arrives during
        ``run`` is never raised between XLA consuming the donated variable
        buffers and the install of the new ones, nor inside a
        garbage-collector callback (which would swallow it): a run that
        reads or writes state defers signal handlers and raises it when
        ``run`` returns or fails (see ``jaxsess._core._signals``). A cache hit of a
        stateless plan has no state to split and is not deferred: there a
        Ctrl-C raises where it lands, as in a plain JAX call (and, as
        anywhere in Python, one landing in a collector callback is lost).
        """
        kind = type(fetches)  # the plain fetches (hot_run's first step in _hot.c)
        if kind is Tensor or kind is Operation:
            out = self._hit((fetches,), feed_dict, True, None)
        elif kind is list and fetches and set(map(type, fetches)) <= _PLAIN_LEAVES:
            out = self._hit(tuple(fetches), feed_dict, False, None)
        else:
            out = _MISS
        if out is not _MISS:
            return out
        held = _signals.defer()
        try:
            return self._run(fetches, feed_dict, options, run_metadata)
        finally:
            _signals.deliver(held)

    def _hit(self, leaves: tuple[Any, ...], feed_dict: Any, single: bool,
             rebuild: Callable[[list[Any]], Any] | None) -> Any:
        """The plan-cache hit of :meth:`run`: its value, or ``_MISS`` (nothing
        done: the general path :meth:`_run` runs the call).

        The one Python copy of it, and the reference of its C twin
        ``hot_run`` in ``_hot.c`` (which also takes :meth:`run`'s first
        lines: ``leaves`` of a ``Tensor``, an ``Operation`` or a list of them).
        The steps, in this order in both:

        1. the feed keys and values: none, or a ``dict``'s (another mapping: a miss);
        2. a miss unless the session is open and its graph needs no host pass
           (strings, ``tf.data``; ``_host_run``);
        3. the plan-cache entry of the key ``(leaves, feed keys)``; none: a
           miss (keys of names, or of another graph's elements, are never cached);
        4. the feed values as the plan takes them (:meth:`_Entry.feed_values`:
           as they are when they fit, else converted and checked, TF1's feed
           errors raised here);
        5. the registry's safe point;
        6. the entry moved to the LRU end (gone: evicted meanwhile by another
           thread), and C's last hit (``_last_hit``) forgotten: it is no longer last;
        7. :func:`_run_entry`: the plan's call and the fetched values.

        C leaves the call to this method (declines) before step 4 in a
        multi-process session; it skips the lookup and the move of steps 3
        and 6 when the key is the one it moved last (``_last_hit``, which
        every other change of the cache resets): that entry is cached and
        already last.

        Args:
          leaves: the fetch leaves (``Tensor``/``Operation``), distinct.
          feed_dict: as :meth:`run`.
          single: one fetch: its value is returned, else a list.
          rebuild: the fetch structure from the list of values, or ``None`` (the list).
        """
        if feed_dict is None:
            keys: tuple[Any, ...] = ()
            values: Sequence[Any] = ()
        elif type(feed_dict) is dict:
            keys, values = tuple(feed_dict), tuple(feed_dict.values())
        else:
            return _MISS
        key = (leaves, keys)
        if self._closed or (_HOST_GRAPH_REFS and key not in self._no_host_keys
                            and _host_run.needs_host_pass(self._graph)):
            return _MISS
        entry = self._plans.get(key)
        if entry is None:
            return _MISS
        vals = entry.feed_values(values)
        self._registry.safe_point()
        try:  # not contextlib.suppress: a cache hit's path
            self._plans.move_to_end(key)
        except KeyError:  # evicted meanwhile by another thread
            pass
        self._last_hit = None  # the key C moved last is no longer last
        return _run_entry(self, entry, vals, self._device_fetches, single, rebuild)

    def _run(self, fetches: Any, feed_dict: Any, options: Any = None, run_metadata: Any = None) -> Any:
        """:meth:`run` when :meth:`_hit` missed (signal handlers deferred by
        ``run``): the closed-session error, the host pass, fetch structures
        (resolved by ``Fetches``; their cache hits go to :meth:`_hit`), feeds
        by name or of other mappings, and a plan-cache miss: the plan is
        built and stored, then run by :func:`_run_entry` as a hit is."""
        if self._closed:
            raise _closed_error()
        graph = self._graph
        # strings, tf.data iterators (WeakSet.data: its set, no Python-level call when empty)
        if _HOST_GRAPH_REFS and _host_run.needs_host_pass(graph):
            self._registry.safe_point()
            return _host_run.run(self, fetches, feed_dict, options, run_metadata)
        kind = type(fetches)
        rebuild: Callable[[list[Any]], Any] | None = None
        single = kind is Tensor or kind is Operation
        if single:
            leaves: tuple[Any, ...] = (fetches,)
        elif kind is list and set(map(type, fetches)) <= _PLAIN_LEAVES and len(set(fetches)) == len(fetches):
            leaves = tuple(fetches)
        else:
            fm = Fetches(graph, fetches)
            leaves, rebuild = tuple(fm.leaves), fm.rebuild
            out = self._hit(leaves, feed_dict, False, rebuild)
            if out is not _MISS:
                return out
        if rebuild is None:
            Fetches(graph, fetches)  # raises TF1's error for an element of another graph
        feed_keys, raw = feed_items(graph, feed_dict)
        # Feeds are checked before a plan is built or cached.
        vals = [feed_value(t, v) for t, v in zip(feed_keys, raw, strict=False)]
        self._registry.safe_point()
        key = (leaves, tuple(feed_keys))
        entry = self._plans.get(key) or self._lookup(list(leaves), feed_keys, key)
        return _run_entry(self, entry, vals, self._device_fetches, single, rebuild)

    def _gather(self, results: Sequence[Any]) -> list[Any]:
        """Host values of a multi-process run's results (a collective: the
        same call in every process), see ``fetch_local_shards``."""
        local = self._fetch_local_shards
        return [_distributed.host_value(v, local=local) for v in results]

    def _lookup(self, leaves: list[Any], feed_keys: list[Tensor], key: Any) -> _Entry:
        """The plan cache entry for ``key`` = (fetch leaves, feeds in the
        caller's order), on a miss of the plan cache.

        Plans are compiled with their feeds sorted by name, so a ``feed_dict``
        in another order reuses the compiled plan: ``key`` then gets an entry
        of its own that permutes the feed values into the plan's order.
        """
        order = sorted(range(len(feed_keys)), key=lambda i: feed_keys[i].name)
        if order == list(range(len(feed_keys))):
            return self._reuse(leaves, feed_keys, key) or self._build(leaves, feed_keys, key)
        feeds = [feed_keys[i] for i in order]
        ckey = (key[0], tuple(feeds))
        entry = self._plans.get(ckey) or self._reuse(leaves, feeds, ckey) or self._build(leaves, feeds, ckey)
        plan, positions, invoke = entry.plan, entry.positions, entry.invoke

        def permuted(vals: list[Any]) -> tuple[Any, ...]:
            return invoke([vals[i] for i in order])

        # No flat function: make_callable's direct path would skip the permutation.
        alias = _Entry.of(plan, positions, _Invoker(permuted), feed_keys)
        self._store(key, alias)
        return alias

    def _reuse(self, leaves: list[Any], feeds: list[Tensor], key: Any) -> _Entry | None:
        """An entry for ``key`` that runs an already compiled plan, when one
        computes these fetches from the same feeds (in the same order) and
        does nothing else, and running it costs about what a plan of its own
        would: it has no targets and writes no state (no assignments, no
        random counters), and its ops beyond those the fetches need are at
        most ``max(4, a quarter of its ops)``. Saves a trace and a compile
        (e.g. ``run(loss)`` after ``run([loss, accuracy])``); the entry is
        stored under ``key``. ``None``: build a plan of its own."""
        if not leaves or not all(type(e) is Tensor for e in leaves):
            return None
        wanted = set(leaves)
        fed = tuple(feeds)
        best: _Entry | None = None
        for entry in list(self._plans.values()):  # a snapshot: run() reorders the cache without the lock
            plan = entry.plan
            if (
                plan.feeds == feeds
                and entry.feeds == fed  # not an entry whose invoke permutes the feeds (see _lookup)
                and not plan.targets
                and not plan.written
                and wanted.issubset(plan.fetches)
                and (best is None or len(plan.ops) < len(best.plan.ops))
            ):
                best = entry
        if best is None:
            return None
        plan = best.plan
        needed = prune(list(leaves), [], set(feeds))
        if len(plan.ops) - len(needed) > max(4, len(plan.ops) // 4):
            return None
        # It must read no state these fetches do not (an uninitialised variable would fail the run).
        reads = {t.op for op in needed for t in op.inputs if t.op.type == VARIABLE_OP}
        reads.update(t.op for t in leaves if t.op.type == VARIABLE_OP)
        if not reads.issuperset(plan.kept):
            return None
        index = {t: i for i, t in enumerate(plan.fetches)}
        # invoke returns the plan's fetches in order, whatever leaves its own key had
        entry = best._replace(positions=[index[t] for t in leaves])
        self._store(key, entry)
        return entry

    def _store(self, key: Any, entry: _Entry) -> None:
        """Adds a plan cache entry, evicting the least recently used beyond
        ``ConfigProto.plan_cache_size`` (their executables are freed)."""
        with self._plan_lock:
            self._check_open()
            plans = self._plans
            self._last_hit = None
            plans[key] = entry
            while len(plans) > self._plan_cache_size:
                _, old = plans.popitem(last=False)
                # A snapshot (one C call): run() reorders the cache without the lock.
                if not any(e.plan is old.plan for e in list(plans.values())):
                    _clear_caches(old)
                    self._traces.pop(old.plan, None)

    def _on_trace(self, plan: Plan, feeds: Sequence[Any]) -> None:
        """Called when JAX traces ``plan`` (a compile, or a load from the
        persistent compilation cache): logs it when asked, and warns once
        when the plan keeps compiling for new feed shapes."""
        sig = ", ".join(
            f"{t.name} {np.dtype(v.dtype).name}{list(v.shape)}" for t, v in zip(plan.feeds, feeds, strict=False)
        )
        if self._log_compiles:
            fetches = ", ".join(t.name for t in plan.fetches)
            targets = ", ".join(op.name for op in plan.targets)
            log_placement([f"Compiling plan fetches=[{fetches}] targets=[{targets}] feeds=[{sig}]"])
        if self._compile_notice_after_s is not None:
            names = [t.name for t in plan.fetches] or [op.name for op in plan.targets]
            shown = ", ".join(names[:3]) + (f", ... ({len(names)} in all)" if len(names) > 3 else "")
            _compile_notice.start(f"the plan of [{shown}] (session {self.name!r})", self._compile_notice_after_s)
        seen = self._traces.setdefault(plan, [0, []])  # [variants compiled since freed, signatures]
        seen[0] += 1
        sigs: list[str] = seen[1]
        sigs.append(sig)
        if len(sigs) == RECOMPILE_WARN_AFTER:
            fetches = ", ".join(t.name for t in plan.fetches) or ", ".join(op.name for op in plan.targets)
            logger.warning(
                "Session %r: the plan of [%s] compiled %d times for different feed shapes: %s. Every "
                "distinct size of a None dimension compiles another program; pad or bucket the fed "
                "batches to a few sizes. Compiled variants beyond ConfigProto.plan_cache_size (%d) "
                "are dropped.",
                self.name, fetches, len(sigs), "; ".join(f"[{s}]" for s in sigs), self._plan_cache_size,
            )
        elif len(sigs) > RECOMPILE_WARN_AFTER:
            del sigs[RECOMPILE_WARN_AFTER:]  # warned once; keep the record small
        if seen[0] > self._plan_cache_size:
            self._drop_variants.append(plan)  # not during JAX's trace: before the next run

    def _free_variants(self) -> None:
        """Frees the compiled variants of plans that passed the bound."""
        with self._plan_lock:
            plans, self._drop_variants = self._drop_variants, []
            for entry in [e for e in list(self._plans.values()) if e.plan in plans]:
                _clear_caches(entry)
            for plan in plans:
                if plan in self._traces:
                    self._traces[plan][0] = 0

    def _build(self, leaves: list[Any], feed_keys: list[Tensor], key: Any) -> _Entry:
        fetch_tensors, targets, positions = split_leaves(leaves)
        check_unique(feed_keys)
        # Every compiled form of the plan traces its pure function: the hook
        # sees compilations (through a weak reference: no session cycle). A
        # plan is traced when first called, after build_plan has returned it.
        ref = weakref.ref(self)
        built: list[Plan] = []

        def on_trace(feeds: Sequence[Any]) -> None:
            session = ref()
            if session is not None and built:
                session._on_trace(built[0], feeds)

        cfg = self._config
        plan = build_plan(
            fetch_tensors,
            feed_keys,
            targets,
            placement=PlacementOptions(self._mesh, cfg.allow_soft_placement, cfg.log_device_placement),
            compiler_options=self._compiler_options,
            on_trace=on_trace,
            const_args=True,
        )
        built.append(plan)
        all_tensors = all(p is not None for p in positions) and positions == list(range(len(positions)))
        invoker = self._invoker(plan)
        host = [(i, t.op) for i, t in enumerate(fetch_tensors) if t.op._op_def.host_output is not None]
        if host:  # the flat function and the step would skip the host conversions
            invoker = _Invoker(_with_host_outputs(invoker.invoke, host))
        entry = _Entry.of(plan, None if all_tensors else positions, invoker, feed_keys)
        self._store(key, entry)
        return entry

    def _compiler_options(self, lowering: Lowering) -> CompilerOptions | None:
        """The XLA options of a new plan's program: fast compilation for a
        small initialisation plan; on CPU, ``CPU_PLAN_OPTIONS`` for one that
        writes no state and ``CPU_STEP_OPTIONS`` for one that does; JAX's
        defaults elsewhere."""
        if self._is_small_init(lowering):
            return supported_compiler_options(_FAST_COMPILE)
        if jax.default_backend() != "cpu":
            return None
        return supported_compiler_options(CPU_STEP_OPTIONS if lowering.written else CPU_PLAN_OPTIONS) or None

    def _is_small_init(self, plan: Lowering) -> bool:
        """Whether ``plan`` initialises variables (see ``INIT_PLAN_FAST_COMPILE_MAX_ELEMENTS``)."""
        if plan.fetches or plan.feeds or not plan.final_assign or plan.start_vars:
            return False
        if any(v in self._state for v in plan.final_assign):
            return False
        total = 0
        for v in plan.final_assign:
            shape = plan.var_specs.get(v, (None, None))[0]
            dims = [d for d in shape or () if d is not None]
            if shape is None or len(dims) != len(shape):
                return False
            total += int(np.prod(dims, dtype=np.int64))
        return total <= INIT_PLAN_FAST_COMPILE_MAX_ELEMENTS

    def _slot_placement(self, slot: Any) -> Any:
        """Where a state slot's value lives (:func:`jaxsess._core.graph._placement.slot_placement`)."""
        return slot_placement(slot, mesh=self._mesh, allow_soft_placement=self._config.allow_soft_placement)

    def _invoker(self, plan: Plan) -> _Invoker:
        """The function a cache hit calls: converted feed values -> the plan's
        device results (not adopted: the caller copies them to the host or
        adopts them, see :meth:`_adopt`).

        A stateless plan on the default device calls its flat function of
        positional feeds (``Plan.flat``: JAX's C++ dispatch path, no nested
        argument pytrees) that returns only the fetches. Other plans get a call of
        :meth:`_call` through a weak reference, so that the plan cache never
        makes the session part of a reference cycle. A plan holding a 64-bit
        type is traced and called under JAX's scoped x64 mode
        (:func:`jaxsess._core.dtypes.x64_scope`); other plans pay nothing for it.
        """
        if plan.x64:  # the flat function and the C hot path's step would skip the scope
            return _Invoker(_in_x64(self._plain_invoker(plan).invoke))
        return self._plain_invoker(plan)

    def _plain_invoker(self, plan: Plan) -> _Invoker:
        flat = plan.flat
        if flat is None:  # stateful, on another device, or a custom call
            ref = weakref.ref(self)

            def call(vals: list[Any]) -> tuple[Any, ...]:
                session = ref()
                if session is None:  # pragma: no cover - only reachable through the session
                    raise _closed_error()
                return session._call(plan, vals)

            step: _Step | None = None
            if plan.stateful and plan.device is None:  # what the C hot path runs as _call does (_Entry.step)
                step = (plan.fn, tuple(plan.donated), tuple(plan.kept), tuple(plan.written))
            return _Invoker(call, step=step)

        if len(plan.fetches) == 1:  # the flat function returns the array itself: no output pytree

            def invoke(vals: list[Any]) -> tuple[Any, ...]:
                try:
                    return (flat(*vals),)
                except ValueError as e:
                    return (_on_one_device(flat, vals, e),)

            return _Invoker(invoke, flat, single=True)

        def invoke_all(vals: list[Any]) -> tuple[Any, ...]:
            try:
                return flat(*vals)  # type: ignore[no-any-return]
            except ValueError as e:
                return _on_one_device(flat, vals, e)  # type: ignore[no-any-return]

        return _Invoker(invoke_all, flat)

    def _call(self, plan: Plan, feed_vals: list[Any]) -> tuple[Any, ...]:
        registry = self._registry
        if plan.device is not None:
            feed_vals = [jax.device_put(v, plan.device) for v in feed_vals]
        if not plan.stateful:
            if plan.device is None:
                try:
                    out, _ = plan.fn((), (), tuple(feed_vals))
                except ValueError as e:
                    out, _ = _step_failed(plan.fn, (), (), tuple(feed_vals), e)
            else:
                out, _ = self._call_on_device(plan, (), (), feed_vals)
            return out
        # Signals are deferred from before the lock is taken until the new
        # state is installed: a Ctrl-C landing while XLA runs a step that
        # donated the variables' buffers raises after the install, never
        # between the donation and the install (see ``_signals``).
        held = _signals.defer()
        try:
            with self._state_lock:
                if self._closed:
                    raise _closed_error()
                state = self._state
                try:  # C-level gathers: no Python code per variable
                    donated = tuple(map(state.__getitem__, plan.donated))
                    kept = tuple(map(state.__getitem__, plan.kept))
                except KeyError:
                    donated = tuple(self._start_value(slot) for slot in plan.donated)
                    kept = tuple(self._start_value(slot) for slot in plan.kept)
                olds = list(map(state.get, plan.written))
                if plan.device is None:
                    try:
                        out, new_state = plan.fn(donated, kept, tuple(feed_vals))
                    except ValueError as e:
                        out, new_state = _step_failed(plan.fn, donated, kept, tuple(feed_vals), e)
                else:
                    out, new_state = self._call_on_device(plan, donated, kept, feed_vals)
                state.update(zip(plan.written, new_state))
                registry.swap_pinned(olds, new_state)
        finally:
            _signals.deliver(held)
        return out

    def _by_buffer(self, plan: Plan) -> bool:
        # One jitted program returns fresh buffers; per-device parts move values
        # with jax.device_put, which aliases a value already on its device.
        return plan.parts is not None or jit_returns_input_buffers()

    def _call_on_device(self, plan: Plan, donated: tuple[Any, ...], kept: tuple[Any, ...], feeds: list[Any]) -> Any:
        with jax.default_device(plan.device):
            return plan.fn(donated, kept, tuple(feeds))

    def _release_state(self, old: Any) -> None:
        # Donated buffers are already deleted: count them freed now. Others
        # may still be referenced (variable_value): sweep them once unused.
        if old.is_deleted():
            self._registry.discard(old)
        else:
            self._registry.unpin(old)

    def _adopt(self, out: Sequence[Any], feed_vals: Sequence[Any], plan: Plan) -> None:
        """Makes a run's device results session-owned (``device_fetches``),
        except what the session did not create by this run: feeds handed back
        unchanged and the state this plan read or wrote (only that state: the
        cost does not grow with the session's other variables)."""
        inputs: list[Any] = list(feed_vals)
        if plan.stateful:
            state = self._state
            inputs += [state.get(s) for s in (*plan.kept, *plan.written)]
        self._registry.adopt_outputs(out, inputs, by_buffer=self._by_buffer(plan), producer="Session.run")

    def _start_value(self, slot: Any) -> Any:
        # A slot's value at the start of a run (a missing rng counter is created).
        v = self._state.get(slot)
        return self._missing_state(slot) if v is None else v

    def _missing_state(self, slot: Any) -> Any:
        if isinstance(slot, tuple):  # an rng counter: 0, or random for unseeded ops
            start = 0 if slot[1].attrs.get("seeded", True) else int(np.random.randint(0, 2**31 - 1))
            v = jnp.asarray(start, jnp.uint32)
            self._state[slot] = v
            self._registry.pin(v)
            return v
        raise errors.FailedPreconditionError(
            slot.name,
            slot,
            f"Attempting to use uninitialized value {slot.name}\n\t [[node {slot.name}]]",
        )

    # -- callables ----------------------------------------------------------------

    def make_callable(
        self,
        fetches: Any,
        feed_list: Sequence[Any] | None = None,
        accept_options: bool = False,
        device_fetches: bool | None = None,
    ) -> Callable[..., Any]:
        """A function running ``fetches`` with positional feeds, as
        ``tf.compat.v1.Session.make_callable``: the least overhead per call.

        Args:
          fetches: as :meth:`run`.
          feed_list: tensors (or names) fed by the callable's positional
            arguments, in order.
          accept_options: accepted for compatibility (options are ignored).
          device_fetches: ``False``: the callable returns host NumPy values
            owned by the caller, as TF1; ``True``: session-owned
            ``jax.Array``s (no host copy; feed them back to the next call);
            ``None`` (default): the session's ``device_fetches`` setting.

        Returns:
          ``f(*feed_values)`` returning what ``run(fetches, dict(zip(feed_list, feed_values)))`` would.

        Raises:
          As :meth:`run`; also ``TypeError`` when called with the wrong
          number of arguments.
        """
        self._check_open()
        if feed_list and any(type(k) is SparseTensor for k in feed_list):  # fed as SparseTensorValues
            return sparse_callable(self.make_callable, fetches, feed_list, accept_options, device_fetches)
        graph = self._graph
        fm = Fetches(graph, fetches)
        feeds = resolve_feeds(graph, feed_list or ())
        key = (tuple(fm.leaves), tuple(feeds))
        entry = self._plans.get(key) or self._lookup(fm.leaves, feeds, key)
        rebuild = None if type(fetches) in _PLAIN_LEAVES else fm.rebuild  # None: one value, a tensor's or an op's None
        single = rebuild is None
        n = len(feeds)
        session = self
        device = self._device_fetches if device_fetches is None else bool(device_fetches)
        feed_values_of, safe_point = entry.feed_values, self._registry.safe_point

        def runner(*args: Any, **kwargs: Any) -> Any:
            """The plan-cache hit of a ``make_callable`` function (keyword
            arguments, the accepted options, are ignored).

            The one Python copy, and the reference of its C twin
            ``hotrunner_vectorcall`` in ``_hot.c`` (the ``HotRunner`` this
            function is the ``__wrapped__`` of). The steps, in this order in
            both: the closed-session error; the arity error; the feed values
            as the plan takes them (as they are when they fit, else
            converted and checked); the registry's safe point;
            :func:`_run_entry`.
            """
            if session._closed:
                raise _closed_error()
            if len(args) != n:
                raise _arity_error(feeds, args)
            vals = feed_values_of(args)
            safe_point()
            return _run_entry(session, entry, vals, device, single, rebuild)

        if _c_hot is not None and not (self._multiprocess and not device):
            return _c_hot.HotRunner(runner, session, self._registry, entry, n, device, rebuild)
        return runner

    # -- lowering -------------------------------------------------------------------

    def lower(self, fetches: Any, feed_dict: Any = None) -> Any:
        """JAX's ``Lowered`` for the plan :meth:`run` would use for these
        fetches and feeds (not run, nothing is donated).

        The lowered function is ``(donated_state, kept_state, feeds) ->
        (fetches, new_state)``: the variables (and random-op counters) the
        plan reads are arguments, as are the feeds; every constant is in the
        program (a run's program takes a frozen model's big constants as
        arguments, see ``jaxsess._core.graph._plan``). ``as_text()`` gives
        StableHLO; ``compile()`` compiles it (``cost_analysis()``,
        ``memory_analysis()``, ``as_text()`` of the optimised HLO). In a
        mesh session it is the SPMD program with its shardings; a plan that
        spans several devices is lowered as one program (placement aside).

        Args:
          fetches: as :meth:`run`.
          feed_dict: ``{tensor or name: value}``; a value may be an array or
            a ``jax.ShapeDtypeStruct`` (only its shape and dtype matter).

        Returns:
          A ``jax.stages.Lowered``.

        Raises:
          As :meth:`run` for fetches and feeds; ``FailedPreconditionError``
          for a variable of unknown shape that is not initialised.
        """
        plan, donated, kept, feed_vals = self._plan_specs(fetches, feed_dict)
        jitted = plan.whole  # one program for the whole plan (also when it runs as parts), its constants in it
        try:
            with _dtypes.x64_scope() if plan.x64 else contextlib.nullcontext():
                if plan.device is not None:
                    with jax.default_device(plan.device):
                        return jitted.lower(donated, kept, feed_vals)
                return jitted.lower(donated, kept, feed_vals)
        finally:
            _compile_notice.finish()  # lowered, not compiled: nothing to announce

    def warmup(self, fetches: Any, feed_shapes: Any = None) -> Any:
        """Compiles, ahead of time, the program :meth:`run` (or :meth:`make_callable`)
        will call for these fetches and feed shapes, without running it: for servers that
        must answer their first request at full speed. Nothing is run, read, written or
        donated; the plan is built and cached as by a first ``run``, and the compiled
        executable is the one that run then calls (no trace, no compile at the first run).
        With the persistent compilation cache on (the default), the executable is also
        stored there for the next process.

        Args:
          fetches: as :meth:`run`.
          feed_shapes: ``{tensor or name: shape}``, one entry per tensor ``run`` will
            feed: a shape is a tuple of ints (the fed dtype is the tensor's), a
            ``jax.ShapeDtypeStruct`` or an array (its shape and dtype). A feed of
            another shape at run time compiles again, as any new feed shape does.

        Returns:
          The ``jax.stages.Compiled`` of the plan's program (``cost_analysis()``,
          ``memory_analysis()``, ``as_text()``).

        Raises:
          As :meth:`run` for fetches and feeds (a shape that does not fit a tensor:
          ``ValueError`` naming it); ``TypeError`` for a shape that is not a sequence
          of ints; ``FailedPreconditionError`` for a variable of unknown shape that is
          not initialised.

        The same step as ``jax.jit(f).trace(...).lower().compile()`` before a first call.
        A plan that spans several devices compiles its per-device parts at its first run.
        """
        self._check_open()
        graph = self._graph
        specs: dict[Tensor, Any] = {}
        for k, v in (feed_shapes or {}).items():
            t = feed_key(graph, k)
            if isinstance(v, jax.ShapeDtypeStruct) or hasattr(v, "dtype"):
                specs[t] = jax.ShapeDtypeStruct(tuple(v.shape), v.dtype)
                continue
            try:
                shape = tuple(operator.index(d) for d in v)
            except TypeError:
                raise TypeError(
                    f"warmup: the shape for Tensor {t.name} must be a sequence of ints, a ShapeDtypeStruct or "
                    f"an array, got {v!r:.80}"
                ) from None
            if not t.shape.is_compatible_with(shape):
                raise ValueError(f"warmup: shape {list(shape)} does not fit Tensor {t.name} of shape {t.shape}")
            specs[t] = jax.ShapeDtypeStruct(shape, t.dtype.np_dtype)
        plan, donated, kept, feed_vals = self._plan_specs(fetches, specs)
        with _dtypes.x64_scope() if plan.x64 else contextlib.nullcontext():
            if plan.flat is not None:  # what a stateless plan's cache hit calls (Plan.flat)
                return plan.flat.lower(*feed_vals).compile()
            with jax.default_device(plan.device) if plan.device is not None else contextlib.nullcontext():
                return plan.jitted.lower(donated, kept, feed_vals).compile()

    def _plan_specs(self, fetches: Any, feed_dict: Any) -> tuple[Plan, tuple[Any, ...], tuple[Any, ...],
                                                                   tuple[Any, ...]]:
        """The plan of ``fetches`` and ``feed_dict`` (built and cached as by ``run``) and the
        arguments its program takes: (plan, donated state specs, kept state specs, feed
        values or ``ShapeDtypeStruct``s in the plan's order)."""
        self._check_open()
        graph = self._graph
        fm = Fetches(graph, fetches)
        feed_keys, raw = feed_items(graph, feed_dict)
        feed_vals: list[Any] = []
        for t, v in zip(feed_keys, raw, strict=False):
            if isinstance(v, jax.ShapeDtypeStruct):
                if np.dtype(v.dtype) != t.dtype.np_dtype:
                    raise ValueError(
                        f"Cannot feed a ShapeDtypeStruct of dtype {v.dtype} for Tensor {t.name} of dtype "
                        f"{t.dtype.name}."
                    )
                if not t.shape.is_compatible_with(tuple(v.shape)):
                    raise ValueError(
                        f"Cannot feed a ShapeDtypeStruct of shape {list(v.shape)} for Tensor {t.name}, which has "
                        f"shape {t.shape}."
                    )
                feed_vals.append(v)
            else:
                feed_vals.append(feed_value(t, v))
        key = (tuple(fm.leaves), tuple(feed_keys))
        entry = self._plans.get(key) or self._lookup(list(fm.leaves), feed_keys, key)
        plan = entry.plan
        if plan.feeds != feed_keys:  # the plan's feeds are sorted by name (see _lookup)
            feed_vals = [feed_vals[feed_keys.index(t)] for t in plan.feeds]
        with self._state_lock:
            donated = tuple(self._state_spec(plan, slot) for slot in plan.donated)
            kept = tuple(self._state_spec(plan, slot) for slot in plan.kept)
        return plan, donated, kept, tuple(feed_vals)

    def _state_spec(self, plan: Plan, slot: Any) -> Any:
        v = self._state.get(slot)
        if v is not None:
            return jax.ShapeDtypeStruct(v.shape, v.dtype, sharding=v.sharding if self._mesh is not None else None)
        if isinstance(slot, tuple):
            return jax.ShapeDtypeStruct((), np.uint32)
        shape, dtype = plan.var_specs[slot]
        if shape is None or any(d is None for d in shape):
            raise errors.FailedPreconditionError(
                slot.name, slot, f"Attempting to use uninitialized value {slot.name} (its shape is unknown)"
            )
        return jax.ShapeDtypeStruct(tuple(shape), dtype)

    # -- introspection --------------------------------------------------------------

    def list_devices(self) -> list[Any]:
        """The devices this session can place ops on (JAX devices)."""
        return list(jax.devices())

    def read(self, var: Any) -> Any:
        """A copy of a state slot's current value (a variable's ``VariableV2``
        op, or a random op's counter slot), owned by the session: later runs
        do not change it (they may donate the state buffer itself).

        Raises:
          FailedPreconditionError: the variable is not initialised.
          RuntimeError: the session is closed.
        """
        with self._state_lock:
            self._check_open()
            v = self._state.get(var)
            if v is None:
                name = var[1].name if isinstance(var, tuple) else var.name
                raise errors.FailedPreconditionError(name, var, f"Attempting to use uninitialized value {name}")
            with _dtypes.x64_scope(v.dtype):
                out = jnp.array(v, copy=True)
        self._registry.adopt_outputs(out, v, producer="Session.run")
        return out

    variable_value = read  # the earlier name

    def assign(self, var: Any, value: Any, inputs: Any = ()) -> Any:
        """Replaces a state slot's value (``Saver.restore``, ``Variable.load``),
        see :class:`jaxsess._core._context.VariableStore`; the value moves to where
        the slot lives (its variable's device or sharding).

        Returns:
          The array now holding the value.
        """
        slot = var
        where = self._slot_placement(slot)
        if where is not None and isinstance(value, jax.Array):
            if isinstance(where, jax.Device):
                if value.devices() != {where}:
                    value = jax.device_put(value, where)
            elif value.sharding != where:
                value = jax.device_put(value, where)
        held = _signals.defer()  # the slot and its bookkeeping change together
        try:
            with self._state_lock:
                self._check_open()
                old = self._state.get(slot)
                value = self._registry.pin_output(value, inputs)
                self._state[slot] = value
                if old is not None and old is not value:
                    self._release_state(old)
        finally:
            _signals.deliver(held)
        return value


class InteractiveSession(Session):
    """A :class:`Session` that installs itself as the default on creation,
    as ``tf.compat.v1.InteractiveSession`` (for shells and notebooks).

    Its graph becomes the thread's default graph too. Creating one while
    another is open warns (``UserWarning``), as TF1. ``close()`` uninstalls it.
    """

    _active_lock = threading.Lock()
    _active = 0

    def __init__(self, target: str = "", graph: Graph | None = None, config: ConfigProto | None = None, **kwargs: Any) -> None:
        super().__init__(target, graph, config, **kwargs)
        with InteractiveSession._active_lock:
            if InteractiveSession._active > 0:
                warnings.warn(
                    "An interactive session is already active. This can cause out-of-memory "
                    "errors or some other unexpected errors (due to the unpredictable timing of "
                    "garbage collection) in some cases. You must explicitly call "
                    "`InteractiveSession.close()` to release resources held by the other session(s). "
                    "Please use `tf.Session()` if you intend to productionize.",
                    UserWarning,
                    stacklevel=2,
                )
            InteractiveSession._active += 1
        self._counted = True
        self._interactive_graph_cm = self._graph.as_default()
        self._interactive_graph_cm.__enter__()
        self._interactive_cm = self.as_default()
        self._interactive_cm.__enter__()

    def close(self) -> None:
        if getattr(self, "_counted", False):
            with InteractiveSession._active_lock:
                InteractiveSession._active -= 1
            self._counted = False
            with contextlib.suppress(Exception):
                _context.session_stack().remove(self)
            with contextlib.suppress(Exception):
                _context.execution_stack().remove(self._graph)
        super().close()


def _with_host_outputs(invoke: Callable[..., Any], host: list[tuple[int, Operation]]) -> Callable[..., Any]:
    """``invoke`` followed by the ``host_output`` conversions of the fetched outputs at ``host``
    (summary ops: serialized ``Summary`` protos built from their device values)."""

    def run(*args: Any) -> Any:
        out = list(invoke(*args))
        for i, op in host:
            out[i] = op._op_def.host_output(np.asarray(out[i]), op)
        return out

    return run
