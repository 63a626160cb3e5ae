"""Ownership of device buffers: cleanup strategies, the registry, stats.

One :class:`OwnershipRegistry` belongs to one session. It holds a strong
reference to every ``jax.Array`` the session produced and decides, under the
session's :class:`ResourceCleanupStrategy`, when an array is *unused* — no
Python reference to it exists outside the registry — and frees it by dropping
that last reference (so that an alias sharing its device buffer, made with
``jax.device_put`` or ``addressable_data``, keeps the buffer alive).
``close()`` ``delete()``s what is left, except buffers such an alias still
uses: ownership is per device buffer, not per Python object.

What a session adopts is decided in one place, :func:`adoptable` ("adopt
these outputs, given these inputs"), called through
:meth:`OwnershipRegistry.adopt_outputs` and :meth:`OwnershipRegistry.pin_output`
by every producer: ``session.jit``, eager ops, ``Session.run``, variables and
``track``.

Detection is by reference count (``sys.getrefcount``): the registry keeps the
array itself, so adopting costs one dict insert and a sweep costs O(live
arrays). The baseline count of "only the registry holds it" is measured once,
through the same code path the sweep uses, so it stays right on any CPython
version that reports reference counts for ordinary objects.

The semantics of the strategies follow TensorFlow Java's
``EagerSession.ResourceCleanupStrategy``.
"""

from __future__ import annotations

import atexit
import enum
import gc
import logging
import operator
import sys
import threading
import time
import warnings
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import jax
import jax.numpy as jnp
from jax import tree_util

from jaxsess._core import _display, errors as errors
from jaxsess._core.graph._compile import compile_function
from jaxsess._core.runtime._native import (  # the C safe point (jaxsess/_core/runtime/_hot_registry.c), or None
    hot as _c_hot,
)

__all__ = [
    "DeviceStats",
    "OwnershipRegistry",
    "ResourceCleanupStrategy",
    "SessionStats",
    "adoptable",
    "buffer_keys",
    "is_concrete_array",
    "jit_returns_input_buffers",
]

_getrefcount = sys.getrefcount
_log = logging.getLogger("jaxsess")
_Tracer = jax.core.Tracer
# Concrete ``jax.Array`` classes seen so far (jaxlib's ``ArrayImpl``), learned
# from instances through the public ``jax.Array``/``jax.core.Tracer`` types so
# that no private jaxlib name is imported and no backend is started at import.
_concrete_types: set[type] = set()


def is_concrete_array(x: object) -> bool:
    """Whether ``x`` is a ``jax.Array`` with device buffers (not a tracer)."""
    t = type(x)
    if t in _concrete_types:
        return True
    if isinstance(x, jax.Array) and not isinstance(x, _Tracer):
        _concrete_types.add(t)
        return True
    return False


def buffer_keys(arr: jax.Array) -> tuple[int, ...]:
    """The device buffers of a concrete ``jax.Array``, as opaque integers (one
    per addressable shard); ``()`` when it is deleted.

    Two arrays share a device buffer (``jax.device_put`` to the same device,
    ``addressable_data``, ``make_array_from_single_device_arrays``, an input
    that ``jax.jit`` forwards) exactly when their keys intersect.
    """
    try:
        return (arr.unsafe_buffer_pointer(),)
    except Exception:
        pass
    try:
        return tuple(s.data.unsafe_buffer_pointer() for s in arr.addressable_shards)
    except Exception:  # deleted or donated
        return ()


def _concrete_leaves(tree: Any) -> list[Any]:
    t = type(tree)
    if t in _concrete_types:
        return [tree]
    if t is tuple or t is list:
        for x in tree:
            if type(x) not in _concrete_types:
                break
        else:
            return list(tree)
    elif is_concrete_array(tree):
        return [tree]
    return [x for x in tree_util.tree_leaves(tree) if is_concrete_array(x)]


_jit_forwards: bool | None = None


def jit_returns_input_buffers() -> bool:
    """Whether ``jax.jit`` hands an input it returns back over the input's
    own device buffer (probed once, on first use). JAX 0.10 copies it; when
    it does not share, the outputs of a jitted call cannot share a buffer
    with its (undonated) inputs and :func:`adoptable` skips that check."""
    global _jit_forwards
    if _jit_forwards is None:
        with jax.ensure_compile_time_eval():  # concrete even when first asked inside a trace
            x = jnp.zeros(2)
            y = compile_function(lambda v: v)(x)
        kx, ky = buffer_keys(x), buffer_keys(y)
        if not kx or not ky:  # could not tell: compare buffers
            return True
        _jit_forwards = not set(ky).isdisjoint(kx)
    return _jit_forwards


def adoptable(outputs: object, inputs: object = (), *, by_buffer: bool = True) -> list[jax.Array]:
    """The adoption rule: the leaves of ``outputs`` a session may own, given
    the ``inputs`` of the call that produced them.

    A leaf is never adopted when it is not a concrete ``jax.Array`` (a
    tracer, a NumPy array, a Python value), when it is one of ``inputs``, or
    when it shares a device buffer with one of them (``jnp.asarray`` returns
    its input; ``jax.device_put`` to the same device, ``addressable_data``
    return a new ``jax.Array`` over the same buffer). Everything else was
    created by the call and is the producer's to own.

    Args:
      outputs: any pytree.
      inputs: any pytree (the call's arguments).
      by_buffer: compare device buffers, not only identity. A producer whose
        outputs are fresh XLA buffers (a ``jax.jit`` call, when
        :func:`jit_returns_input_buffers` is False) passes False: the
        comparison costs about a microsecond per array.

    Returns:
      The adoptable leaves, in order.
    """
    outs = _concrete_leaves(outputs)
    if not outs or inputs is None or ((type(inputs) is tuple or type(inputs) is list) and not inputs):
        return outs
    ins = _concrete_leaves(inputs)
    if not ins:
        return outs
    if len(ins) == 1:
        (x,) = ins
        outs = [o for o in outs if o is not x]
    else:
        ids = {id(x) for x in ins}
        outs = [o for o in outs if id(o) not in ids]
    if not by_buffer or not outs:
        return outs
    in_bufs = {b for x in ins for b in buffer_keys(x)}
    if not in_bufs:
        return outs
    return [o for o in outs if in_bufs.isdisjoint(buffer_keys(o))]


class ResourceCleanupStrategy(enum.Enum):
    """When a session deletes the device buffers it owns and no longer needs.

    As TensorFlow Java's ``EagerSession.ResourceCleanupStrategy``. Whatever the
    strategy, :meth:`BaseSession.close` deletes every buffer the session still
    owns, including arrays that user code still references (using one after
    close raises JAX's ``RuntimeError: Array has been deleted``).

    Attributes:
      IN_BACKGROUND: (default) a daemon thread owned by the session finds
        unused buffers — owned arrays with no Python reference left outside
        the session — and deletes them while the session runs. It polls every
        0.5 ms while the session owns buffers (every 4 ms while a producer
        adopts many arrays between polls, and never more than ~10% of the
        time), and sleeps when it has owned none for a while. Because a thread
        running a tight loop rarely lets the cleaner have the GIL, that thread
        also sweeps itself at its next call into the session once it has
        adopted max(4, as many arrays as survived the last sweep). ``close()`` stops
        and joins the thread before the final sweep. The most reliable choice.
      ON_SAFE_POINTS: no extra thread. Unused buffers are found and deleted
        synchronously, in the calling thread, when a call into the library
        reaches a safe point: entering ``Session.run``, a call of a
        ``session.jit`` function, an eager op, ``track`` and ``stats()``.
        A safe point sweeps when at least max(2, 1/4 of the arrays that
        survived the last sweep) were adopted since (so every call or two
        while few are owned), or when the last sweep is over 10 ms old;
        ``stats()`` and ``sweep()`` always sweep. The calling thread blocks for the sweep, O(owned
        buffers), amortised O(1) per adopted buffer.
      ON_SESSION_CLOSE: nothing is freed before ``close()``. A loop of ``m``
        iterations producing ``n`` buffers each holds ``n*m`` buffers until
        the session closes. The cheapest per call and the riskiest (device
        out-of-memory); use it only for short-lived sessions.
    """

    IN_BACKGROUND = "IN_BACKGROUND"
    ON_SAFE_POINTS = "ON_SAFE_POINTS"
    ON_SESSION_CLOSE = "ON_SESSION_CLOSE"

    @classmethod
    def coerce(cls, value: ResourceCleanupStrategy | str) -> ResourceCleanupStrategy:
        """Returns ``value`` as a strategy; accepts members and their names.

        Raises:
          ValueError: naming the bad value and listing the valid ones.
        """
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            try:
                return cls[value.upper()]
            except KeyError:
                pass
        valid = ", ".join(m.name for m in cls)
        raise ValueError(
            f"Invalid resource cleanup strategy {value!r}; expected one of: {valid} "
            "(members of jaxsess.ResourceCleanupStrategy or their names)."
        )


@dataclass(frozen=True)
class DeviceStats:
    """Owned buffers on one device. Bytes are bytes (not KiB)."""

    live_buffers: int
    live_bytes: int


@dataclass(frozen=True)
class SessionStats:
    """A snapshot of what a session owns.

    Attributes:
      live_buffers: owned arrays not yet freed (variables included). A donated
        array still referenced by user code counts until the next sweep.
      live_bytes: their total size in bytes (``jax.Array.nbytes``; a sharded
        array counts its logical size once).
      peak_bytes: the largest ``live_bytes`` seen since the session opened.
      allocated_buffers: arrays ever adopted by the session.
      freed_buffers: arrays the session deleted, or found deleted by donation.
      detached_buffers: arrays handed back to user code by ``detach``.
      devices: per-device breakdown, keyed by ``str(device)``. An array
        sharded over several devices counts its per-device shard bytes on each.
      strategy: the session's cleanup strategy.
      closed: whether the session is closed.
      bookkeeping_entries: entries the session keeps to manage what it owns:
        owned and pending arrays plus live ``session.jit`` functions. It
        stays bounded in a long-lived session whose outputs are dropped.
      cleaner_errors: exceptions the cleaner thread caught (each is logged
        on the ``jaxsess`` logger, the first also as a ``RuntimeWarning``);
        the thread keeps running.
    """

    live_buffers: int
    live_bytes: int
    peak_bytes: int
    allocated_buffers: int
    freed_buffers: int
    detached_buffers: int
    devices: dict[str, DeviceStats] = field(default_factory=dict)
    strategy: ResourceCleanupStrategy = ResourceCleanupStrategy.IN_BACKGROUND
    closed: bool = False
    bookkeeping_entries: int = 0
    cleaner_errors: int = 0

    def _repr_html_(self) -> str:
        """Jupyter's display: an HTML table with the per-device breakdown."""
        return _display.stats_html(self)

    def __repr__(self) -> str:
        return (
            f"SessionStats(strategy={self.strategy.name}, live_buffers={self.live_buffers}, "
            f"live_bytes={self.live_bytes}, peak_bytes={self.peak_bytes}, "
            f"allocated_buffers={self.allocated_buffers}, freed_buffers={self.freed_buffers}, "
            f"closed={self.closed})"
        )


_nbytes_cache: dict[Any, int] = {}


def _nbytes(arr: Any) -> int:
    aval = arr.aval
    n = _nbytes_cache.get(aval)
    if n is None:
        n = _nbytes_cache[aval] = int(arr.nbytes)
    return n


_NONE_ID = id(None)
_SECOND = operator.itemgetter(1)
_AVAL = operator.attrgetter("aval")
_is_deleted = operator.methodcaller("is_deleted")
# Sizes of a sequence of arrays, keyed by the ids of their avals (a jitted
# call returns the same aval objects at every call); each value holds its
# avals, so that their ids are not reused while the entry lives.
_nbytes_of_cache: dict[tuple[int, ...], tuple[tuple[Any, ...], tuple[int, ...], int]] = {}


def _nbytes_of(arrays: Sequence[Any]) -> tuple[tuple[int, ...], int]:
    """The sizes in bytes of ``arrays`` (one per array) and their sum."""
    avals = tuple(map(_AVAL, arrays))
    key = tuple(map(id, avals))
    hit = _nbytes_of_cache.get(key)
    if hit is None:
        nbs = tuple(map(_nbytes, arrays))
        if len(_nbytes_of_cache) >= 256:
            _nbytes_of_cache.clear()
        hit = _nbytes_of_cache[key] = (avals, nbs, sum(nbs))
    return hit[1], hit[2]


def _unreferenced(entries: list[tuple[int, tuple[Any, int]]], baseline: int) -> list[int]:
    """Keys of ``entries`` whose array nothing outside the registry references.

    Each array is referenced by its registry entry tuple, by the local ``arr``
    and by ``getrefcount``'s argument; ``baseline`` is that count, measured.
    """
    dead = []
    for key, entry in entries:
        arr = entry[0]
        if _getrefcount(arr) <= baseline:
            dead.append(key)
    return dead


def _measure_baseline() -> int:
    probe = object()
    owned = {0: (probe, 0)}
    del probe
    entries = list(owned.items())
    lo, hi = 0, 64
    # The smallest threshold at which the probe (held only by `owned`) is found.
    while lo < hi:
        mid = (lo + hi) // 2
        if _unreferenced(entries, mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


_BASELINE = _measure_baseline()


def _pending_refcounts(batch: list[Any]) -> list[int]:
    """``sys.getrefcount`` of each array of a pending batch (C-level)."""
    return list(map(_getrefcount, batch))


def _measure_pending_baseline() -> int:
    # The count of an object referenced only by the batch list (as
    # _enter_pending measures it).
    probe = object()
    batch = [probe]
    del probe
    return _pending_refcounts(batch)[0]


_PENDING_BASELINE = _measure_pending_baseline()

_MIN_INTERVAL_S = 0.0005  # cleaner poll interval while buffers are owned
_BUSY_INTERVAL_S = 0.004  # ... while a producer adopts many arrays between polls
_IDLE_AFTER = 200  # empty polls before the cleaner polls slowly
_IDLE_INTERVAL_S = 0.02
_SAFE_POINT_MAX_AGE_S = 0.01  # ON_SAFE_POINTS: sweep at least this often while calls come
_MAX_INTERVAL_S = 0.05
_EXIT_WAIT_S = 60.0  # at interpreter exit: the longest wait for closes still freeing

# Every registry, for _finish_closes_at_exit.
_registries: weakref.WeakSet[OwnershipRegistry] = weakref.WeakSet()


def _finish_closes_at_exit() -> None:
    # No registry thread may still run when the interpreter finalizes: a
    # daemon thread that waits for the GIL then exits by forced unwinding,
    # which aborts the process ("FATAL: exception not rethrown") when that
    # thread is inside jaxlib's array destructor. A close begun by a
    # garbage-collection finalizer (a session dropped without close()) or on
    # the cleaner thread returns at once and frees on that thread: wait for
    # it. A registry still open (its session's weakref.finalize exit hook,
    # which closes it the same way, has not run yet: the two hooks' order
    # depends on which was registered first) is closed here, blocking.
    # Registered after jax is imported, this runs before jax's own exit hooks.
    deadline = time.monotonic() + _EXIT_WAIT_S
    for registry in list(_registries):
        if registry.closed:
            registry.wait_closed(max(0.0, deadline - time.monotonic()))
        else:
            registry.close()


atexit.register(_finish_closes_at_exit)

_c_swap_pinned = None if _c_hot is None else _c_hot.swap_pinned
if _c_hot is not None:
    _c_hot.configure_registry(
        nbytes_cache=_nbytes_cache,
        nbytes_of_cache=_nbytes_of_cache,
        perf_counter=time.perf_counter,
        max_age=_SAFE_POINT_MAX_AGE_S,
        concrete=_concrete_types,
    )


class OwnershipRegistry:
    """The set of device arrays one session owns, and their deletion.

    Thread-safe. Adopt the outputs the session created with
    :meth:`adopt_outputs` (the adoption rule keeps out inputs, their aliases
    and tracers), then let the strategy free the unused ones; ``close``
    deletes the rest.

    Adopting is one ``list.append`` (atomic under the GIL): new arrays wait in
    a *pending* list and are entered into the table — sizes, counters, peak —
    by the next sweep, ``stats()``, ``owns``/``detach`` or ``close``. Live
    bytes only grow between two such points and only shrink inside a sweep,
    so the peak measured when pending arrays are entered is exact.

    Args:
      strategy: a :class:`ResourceCleanupStrategy`.
      memory_limit_bytes: optional budget in bytes. When owned live bytes
        exceed it, the next sweep first runs ``gc.collect()`` so that arrays
        held only by reference cycles become unreferenced and are deleted.
      name: used to name the cleaner thread.
    """

    def __init__(
        self,
        strategy: ResourceCleanupStrategy,
        *,
        memory_limit_bytes: int | None = None,
        name: str = "session",
    ) -> None:
        self.strategy = strategy
        self._lock = threading.Lock()
        self._pending: list[Any] = []  # adopted, not yet entered (strong refs)
        self._owned: dict[int, tuple[Any, int]] = {}  # id -> (array, nbytes); swept
        self._pinned: dict[int, tuple[Any, int]] = {}  # id -> (array, nbytes); not swept
        self._live_bytes = 0
        self._peak_bytes = 0
        self._allocated = 0
        self._freed = 0
        self._detached = 0
        self._closed = False
        self._final_done = threading.Event()  # set once close() has freed everything
        self._close_in_cleaner = False  # close() ran on the cleaner thread: it frees on exit
        _registries.add(self)  # a close may free on another thread (a cleaner, a helper)
        self.cleaner_errors = 0
        # Thread ids of calls in flight that use owned arrays as inputs
        # (session.jit functions, eager ops): close() waits for them before it
        # deletes anything, so they end with the closed-session error rather
        # than XLA's "Buffer has been deleted or donated". append/remove are
        # atomic under the GIL.
        self.inflight: list[int] = []
        if memory_limit_bytes is not None:
            if int(memory_limit_bytes) <= 0:
                raise ValueError(f"memory_limit_bytes must be positive, got {memory_limit_bytes!r}.")
            if strategy is ResourceCleanupStrategy.ON_SESSION_CLOSE:
                raise ValueError(
                    "memory_limit_bytes needs a strategy that frees before close "
                    "(IN_BACKGROUND or ON_SAFE_POINTS); ON_SESSION_CLOSE frees nothing before close()."
                )
            memory_limit_bytes = int(memory_limit_bytes)
        self.memory_limit_bytes = memory_limit_bytes
        self._collect_at = memory_limit_bytes
        self._pressure = False
        self.collections = 0  # gc.collect() runs triggered by the budget
        # A safe point sweeps once this many arrays are pending (recomputed
        # from the survivors after each sweep), so the cost of sweeping stays
        # amortised O(1) per adopted array.
        self._sweep_at = 1
        # ... and this many once a sweep left nothing owned.
        self._sweep_at_idle = 4 if strategy is ResourceCleanupStrategy.IN_BACKGROUND else 2
        self._last_sweep = time.perf_counter()
        self._wake = threading.Event()
        self._stop = False
        self._thread: threading.Thread | None = None
        self.safe_point = self._noop
        if strategy is ResourceCleanupStrategy.IN_BACKGROUND:
            self._thread = threading.Thread(
                target=self._clean_loop, name=f"jaxsess-cleaner[{name}]", daemon=True
            )
            self._thread.start()
            self.safe_point = self._assist_at_safe_point
        elif strategy is ResourceCleanupStrategy.ON_SAFE_POINTS:
            self.safe_point = self._sweep_at_safe_point
        if _c_hot is not None and self.safe_point != self._noop:
            # The same trigger and the sweep's common case (every pending
            # array unreferenced, nothing owned) in C; the rest calls the
            # method above. A device-fetch loop sweeps every few calls.
            kind = 1 if strategy is ResourceCleanupStrategy.IN_BACKGROUND else 2
            self.safe_point = _c_hot.SafePoint(self, self.safe_point, kind)

    # -- adopting -----------------------------------------------------------

    def adopt_outputs(self, outputs: object, inputs: object = (), *, by_buffer: bool = True) -> None:
        """The one adoption entry point: takes ownership of the leaves of
        ``outputs`` that :func:`adoptable` allows given ``inputs`` (idempotent).

        Every producer calls it: ``session.jit`` (inputs: the call's
        arguments), eager ops, ``Session.run`` (inputs: feeds and state read),
        ``track`` (no inputs), and, through :meth:`pin_output`, variables.
        ``by_buffer``: see :func:`adoptable`.

        Raises:
          RuntimeError: the registry is closed (the adopted arrays are deleted).
        """
        if not by_buffer and type(outputs) in _concrete_types:
            # The common case, inlined: one fresh array out of a jitted call
            # (``Session.run`` with device fetches; ``session.jit`` inlines it itself).
            if type(inputs) is tuple or type(inputs) is list:
                for x in inputs:
                    if x is outputs:
                        return
            elif inputs is outputs:
                return
            self._pending.append(outputs)
        else:
            append = self._pending.append
            for arr in adoptable(outputs, inputs, by_buffer=by_buffer):
                append(arr)
        if self._closed:
            self.reject_late()

    def adopt(self, arr: jax.Array) -> None:
        """``adopt_outputs(arr)``: adopts one array the caller created."""
        self.adopt_outputs(arr)

    def pin_output(self, arr: jax.Array, inputs: object = ()) -> jax.Array:
        """Pins ``arr`` as state (see :meth:`pin`) when the adoption rule
        allows it given ``inputs``; otherwise (it is, or shares a buffer with,
        an input the caller still owns) pins and returns a copy of it.

        Returns:
          The array now pinned.

        Raises:
          RuntimeError: the registry is closed.
        """
        if not adoptable(arr, inputs):
            arr = jnp.array(arr, copy=True)
        self.pin(arr)
        return arr

    def reject_late(self) -> None:
        """Deletes arrays adopted after close (a call that raced ``close()``)
        and raises the closed-session error."""
        with self._lock:
            while self._pending:
                arr = self._pending.pop()
                if not arr.is_deleted():
                    arr.delete()
        raise RuntimeError("Attempted to use a closed Session.")

    def _enter_pending(self, *, closing: bool = False, sweeping: bool = False) -> int:
        # Caller holds the lock. Moves pending arrays into the table.
        # sweeping: arrays that nothing outside the pending list references
        # are dropped at once (counted allocated and freed) instead of being
        # entered and then swept: the common fate of a result the caller
        # used and let go, at a fraction of the cost. Returns how many.
        pending = self._pending
        n = len(pending)
        if not n:
            return 0
        batch = pending[:n]
        del pending[:n]  # appends made meanwhile stay, after index n
        if self._closed and not closing:  # calls that raced close(): their outputs die too
            for arr in batch:
                if not arr.is_deleted():
                    arr.delete()
            return 0
        owned, pinned = self._owned, self._pinned
        live = self._live_bytes
        added = dropped = 0
        dropped_bytes = 0
        cache = _nbytes_cache
        counts = _pending_refcounts(batch) if sweeping else None
        for i, arr in enumerate(batch):
            nb = cache.get(arr.aval)
            if nb is None:
                nb = _nbytes(arr)
            if counts is not None and counts[i] <= _PENDING_BASELINE:
                dropped += 1
                dropped_bytes += nb
                continue
            key = id(arr)
            if key in owned or key in pinned:
                continue
            owned[key] = (arr, nb)
            live += nb
            added += 1
        del arr
        self._allocated += added + dropped
        self._freed += dropped
        self._live_bytes = live
        if live + dropped_bytes > self._peak_bytes:  # they were live until now
            self._peak_bytes = live + dropped_bytes
        if self._collect_at is not None and live > self._collect_at:
            self._pressure = True
        if dropped:
            batch.clear()  # the last references: their buffers are freed here
        return dropped

    def pin(self, arr: jax.Array) -> None:
        """Adopts ``arr`` as state the session references itself (a variable
        value): never swept, deleted by :meth:`discard` or at close."""
        with self._lock:
            if self._closed:
                raise RuntimeError("Attempted to use a closed Session.")
            self._enter_pending()
            key = id(arr)
            entry = self._owned.pop(key, None)
            if entry is None:
                if key in self._pinned:
                    return
                nb = _nbytes(arr)
                entry = (arr, nb)
                self._allocated += 1
                self._live_bytes += nb
                if self._live_bytes > self._peak_bytes:
                    self._peak_bytes = self._live_bytes
            self._pinned[key] = entry

    def swap_pinned(self, olds: Sequence[Any], news: Sequence[Any]) -> None:
        """Replaces pinned state arrays in one step (the variable writes of a run).

        Pins every array of ``news``; the array of ``olds`` at the same
        position (``None``: none) is counted freed when it is deleted (donated
        to the run), else moved to the swept set (still referenced elsewhere,
        e.g. by ``variable_value``). One lock acquisition per run.

        The common case — fresh ``news``, every pinned old donated — runs in
        C when the extension is built (``jaxsess._core.runtime._hot.swap_pinned``, an exact
        copy of :meth:`_swap_pinned`'s first branch), else in a fixed number
        of C-level passes (``map``, ``dict.update``): no Python code per
        array, a training step's cost does not grow in Python with its number
        of variables. Anything else takes the per-array path.

        Raises:
          RuntimeError: the registry is closed.
        """
        if _c_swap_pinned is None or not _c_swap_pinned(self, olds, news):
            self._swap_pinned(olds, news)

    def _swap_pinned(self, olds: Sequence[Any], news: Sequence[Any]) -> None:
        # swap_pinned in Python: the reference of the C common case, and every other case.
        with self._lock:
            if self._closed:
                raise RuntimeError("Attempted to use a closed Session.")
            if self._pending:
                self._enter_pending()
            pinned, owned = self._pinned, self._owned
            new_ids = list(map(id, news))
            old_ids = list(map(id, olds))
            n = len(new_ids)
            if (
                n == len(old_ids)
                and _NONE_ID not in old_ids
                and pinned.keys().isdisjoint(new_ids)
                and (not owned or owned.keys().isdisjoint(new_ids))
            ):
                nbs, total = _nbytes_of(news)
                entries = list(filter(None, map(pinned.pop, old_ids, repeat(None))))
                if all(map(_is_deleted, olds)):
                    freed = entries
                else:  # some olds outlive the run (not donated): the sweep frees them
                    freed = []
                    for entry in entries:
                        if entry[0].is_deleted():
                            freed.append(entry)
                        else:
                            owned[id(entry[0])] = entry
                size = len(pinned)
                pinned.update(zip(new_ids, zip(news, nbs)))
                if len(pinned) - size != n:  # an array written to two slots: count it once
                    firsts = dict(zip(reversed(new_ids), reversed(nbs)))
                    n, total = len(firsts), sum(firsts.values())
                self._allocated += n
                self._freed += len(freed)
                live = self._live_bytes + total - sum(map(_SECOND, freed))
            else:
                live = self._swap_each(olds, news)
            self._live_bytes = live
            if live > self._peak_bytes:
                self._peak_bytes = live

    def _swap_each(self, olds: Sequence[Any], news: Sequence[Any]) -> int:
        # swap_pinned, one array at a time (caller holds the lock); returns live bytes.
        pinned, owned, cache = self._pinned, self._owned, _nbytes_cache
        live = self._live_bytes
        for old, new in zip(olds, news):
            key = id(new)
            if key not in pinned:
                entry = owned.pop(key, None)
                if entry is None:
                    nb = cache.get(new.aval)
                    if nb is None:
                        nb = _nbytes(new)
                    entry = (new, nb)
                    self._allocated += 1
                    live += nb
                pinned[key] = entry
            if old is None or old is new:
                continue
            entry = pinned.pop(id(old), None)
            if entry is None:
                continue
            if old.is_deleted():
                live -= entry[1]
                self._freed += 1
            else:
                owned[id(old)] = entry
        return live

    def discard(self, arr: jax.Array) -> None:
        """Deletes an owned array now, referenced or not (a replaced variable
        value). Arrays already deleted by donation count as freed."""
        key = id(arr)
        with self._lock:
            self._enter_pending()
            entry = self._pinned.pop(key, None) or self._owned.pop(key, None)
            if entry is not None:
                self._free(entry)

    def unpin(self, arr: jax.Array) -> None:
        """Moves a pinned array back to the swept set (freed once unused)."""
        key = id(arr)
        with self._lock:
            entry = self._pinned.pop(key, None)
            if entry is not None:
                self._owned[key] = entry
                self._wake.set()

    def owns(self, arr: object) -> bool:
        """Whether this very ``jax.Array`` object is owned (an alias of an
        owned array, sharing its buffer, is not)."""
        key = id(arr)
        with self._lock:
            self._enter_pending()
            entry = self._owned.get(key) or self._pinned.get(key)
            return entry is not None and entry[0] is arr

    def owns_buffer_of(self, arr: jax.Array) -> bool:
        """Whether an owned array shares a device buffer with ``arr`` (``arr``
        itself, or an alias of it). O(owned arrays of the same shape)."""
        keys = set(buffer_keys(arr))
        if not keys:
            return False
        shape, dtype = arr.shape, arr.dtype
        with self._lock:
            self._enter_pending()
            for table in (self._owned, self._pinned):
                for owned, _ in table.values():
                    if owned is arr:
                        return True
                    if owned.shape == shape and owned.dtype == dtype and not keys.isdisjoint(buffer_keys(owned)):
                        return True
        return False

    def release(self, arr: jax.Array) -> bool:
        """Gives up ownership of ``arr`` without deleting it; False if not owned."""
        key = id(arr)
        with self._lock:
            self._enter_pending()
            entry = self._owned.get(key)
            table = self._owned
            if entry is None:
                entry, table = self._pinned.get(key), self._pinned
            if entry is None or entry[0] is not arr:
                return False
            del table[key]
            self._live_bytes -= entry[1]
            self._detached += 1
            return True

    # -- freeing ------------------------------------------------------------

    def _free(self, entry: tuple[Any, int], *, delete: bool = True) -> None:
        # Caller holds the lock and has removed `entry` from its table.
        # delete=False drops the registry's reference only: used for arrays
        # nothing else references (the buffer is freed as the last reference
        # goes, unless an unowned alias still shares it) and at close for
        # arrays whose buffer an unowned alias shares.
        if delete:
            arr = entry[0]
            if not arr.is_deleted():
                arr.delete()
        self._live_bytes -= entry[1]
        self._freed += 1

    def sweep(self, *, collect: bool = False, donated: bool = True) -> int:
        """Deletes every owned array that nothing outside the registry references.

        Args:
          collect: run ``gc.collect()`` first, so arrays kept alive only by
            reference cycles are found too.
          donated: also drop arrays that are still referenced but were
            deleted by donation (an O(owned) scan; safe points skip it).

        Returns:
          The number of arrays freed (deleted now, or found deleted by donation).
        """
        if collect:
            gc.collect()
            self.collections += 1
        with self._lock:
            dropped = self._enter_pending(sweeping=True)
            self._last_sweep = time.perf_counter()
            if not self._owned:
                self._pressure = False
                self._sweep_at = self._sweep_at_idle
                return dropped
            entries = list(self._owned.items())
            dead = _unreferenced(entries, _BASELINE)
            if donated and len(dead) < len(entries):  # referenced arrays deleted by donation are dead too
                dead_set = set(dead)
                dead.extend(k for k, e in entries if k not in dead_set and e[0].is_deleted())
            del entries
            for key in dead:
                entry = self._owned.pop(key, None)
                if entry is not None:
                    # Unreferenced: dropping the last reference frees the buffer,
                    # unless an alias (jax.device_put, addressable_data) shares it.
                    self._free(entry, delete=False)
                    del entry
            survivors = len(self._owned)
            if self.strategy is ResourceCleanupStrategy.IN_BACKGROUND:
                self._sweep_at = max(4, survivors)
            else:
                self._sweep_at = max(2, survivors // 4)
            if collect and self.memory_limit_bytes is not None:
                self._pressure = False
                # Collect again only once the budget is exceeded by new growth.
                self._collect_at = max(self.memory_limit_bytes, int(self._live_bytes * 1.25))
            return len(dead) + dropped

    def _noop(self) -> None:
        return None

    def _sweep_at_safe_point(self) -> None:
        # ON_SAFE_POINTS: sweep when enough was adopted since the last sweep,
        # under memory pressure, or when the last sweep is over 10 ms old.
        if (self._owned or self._pending) and (
            len(self._pending) >= self._sweep_at
            or self._pressure
            or time.perf_counter() - self._last_sweep > _SAFE_POINT_MAX_AGE_S
        ):
            self.sweep(collect=self._pressure, donated=False)

    def _assist_at_safe_point(self) -> None:
        # IN_BACKGROUND: the cleaner thread rarely gets the GIL while a thread
        # runs a tight loop; that thread then sweeps itself at its next call,
        # once it has adopted as many arrays as survived the last sweep.
        if len(self._pending) >= self._sweep_at or self._pressure:
            self.sweep(collect=self._pressure, donated=False)

    def _clean_loop(self) -> None:
        try:
            self._clean_until_stopped()
        finally:
            if self._close_in_cleaner:  # close() ran on this thread (a finalizer, a __del__)
                self._free_all()

    def _clean_until_stopped(self) -> None:
        interval = _MIN_INTERVAL_S
        empty_polls = 0
        while not self._stop:
            if not self._owned and not self._pending and not self._pressure:
                # Nothing owned for a while: poll slowly (adopting never
                # signals the thread, to keep the hot path a bare append).
                empty_polls += 1
                wait = _IDLE_INTERVAL_S if empty_polls > _IDLE_AFTER else _MIN_INTERVAL_S
                if self._wake.wait(wait):
                    self._wake.clear()
                continue
            empty_polls = 0
            t0 = time.perf_counter()
            young = len(self._pending)
            try:
                self.sweep(collect=self._pressure)
            except Exception as e:  # never let the cleaner die; say so once
                self._cleaner_failed(e)
            spent = time.perf_counter() - t0
            # Spend at most ~10% of the time sweeping; back off while a producer
            # is adopting fast (it sweeps itself when it outruns us).
            base = _BUSY_INTERVAL_S if young > 2 else _MIN_INTERVAL_S
            interval = min(_MAX_INTERVAL_S, max(base, 9 * spent))
            if self._wake.wait(interval):
                self._wake.clear()

    def _cleaner_failed(self, e: BaseException) -> None:
        # Counted every time; logged (with its traceback) and warned once, so a
        # failure that repeats at every poll does not flood the log.
        self.cleaner_errors += 1
        if self.cleaner_errors == 1:
            _log.error("jaxsess cleaner thread: sweep failed; it keeps running", exc_info=e)
            warnings.warn(
                f"jaxsess: the cleaner thread caught {type(e).__name__}: {e}; it keeps running "
                "(counted in stats().cleaner_errors, logged on the 'jaxsess' logger).",
                RuntimeWarning,
                stacklevel=1,
            )

    # -- closing ------------------------------------------------------------

    def close(self) -> None:
        """Stops and joins the cleaner thread, then deletes every owned array.

        Idempotent; returns once everything is freed (a second caller waits
        for the first). Arrays still referenced by user code are deleted too,
        except those whose device buffer an array the session does not own
        (``jax.device_put`` of it to the same device, ``addressable_data``)
        still shares: the registry only drops its reference to those.

        Called on the cleaner thread itself (a ``__del__`` run by the garbage
        collector there), it marks the registry closed and the thread frees
        everything as it exits, without blocking.
        """
        with self._lock:
            first = not self._closed
            self._closed = True
            self._stop = True
        if not first:
            if threading.current_thread() is not self._thread:
                self._final_done.wait()
            return
        thread = self._thread
        if thread is not None and thread is threading.current_thread():
            self._close_in_cleaner = True  # the loop sees _stop and frees on exit
            return
        self._wake.set()
        if thread is not None:
            thread.join()
        self._wait_inflight()
        self._free_all()

    def _wait_inflight(self) -> None:
        # Calls that started before close() was seen finish with valid inputs
        # (their outputs are then deleted and they raise the closed-session error).
        me = threading.get_ident()
        delay = 1e-5
        while any(t != me for t in list(self.inflight)):
            time.sleep(delay)
            delay = min(delay * 2, 1e-3)

    def close_from_finalizer(self) -> None:
        """Closes without ever blocking: for garbage-collection finalizers,
        which may run on any thread, the cleaner thread included, at any
        point (holding this registry's lock or its wake event's).

        Marks the registry closed; the cleaner thread (``IN_BACKGROUND``)
        frees everything as it exits; without one, the calling thread frees
        everything if the lock is free, else a short-lived thread does.
        """
        self._closed = True  # plain stores: no lock (it may be held by this very thread)
        self._stop = True
        if self._thread is not None and self._thread.is_alive():
            self._close_in_cleaner = True
            if threading.current_thread() is self._thread:
                return
            # The cleaner may have checked the flag just before it was set: a
            # helper thread (which may block) makes sure the frees happen.
            threading.Thread(target=self._join_then_free, name="jaxsess-finalize", daemon=True).start()
            return
        if self._lock.acquire(blocking=False):
            self._lock.release()
            self._free_all()
        else:
            threading.Thread(target=self._free_all, name="jaxsess-finalize", daemon=True).start()

    def wait_closed(self, timeout: float | None = None) -> bool:
        """Blocks until a close has freed every owned array and the cleaner
        thread has exited: for a close begun by a garbage-collection
        finalizer (:meth:`close_from_finalizer`), which returns at once.

        Args:
          timeout: seconds to wait at most; ``None`` waits for as long as it takes.

        Returns:
          True once both happened; False if ``timeout`` passed first (or if
          called on the cleaner thread itself, which cannot wait for its own exit).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        if not self._final_done.wait(timeout):
            return False
        thread = self._thread
        if thread is None:
            return True
        if thread is threading.current_thread():
            return False
        thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return not thread.is_alive()

    def _join_then_free(self) -> None:
        thread = self._thread
        if thread is not None:
            self._wake.set()
            thread.join()
        self._free_all()

    def _free_all(self) -> None:
        # Deletes every owned array (idempotent); an array whose buffer an
        # unowned array that something still references shares is only dropped.
        try:
            with self._lock:
                self._enter_pending(closing=True)
                aliases: dict[int, list[Any]] = {}
                if self._owned or self._pinned:
                    aliases = _unowned_aliases([e[0] for t in (self._owned, self._pinned) for e in t.values()])
                for table in (self._owned, self._pinned):
                    while table:
                        _, entry = table.popitem()
                        try:
                            cands = aliases.pop(id(entry[0]), None)
                            shared = cands is not None and _alias_held(entry[0], cands)
                            del cands
                            self._free(entry, delete=not shared)
                        except Exception:  # pragma: no cover - backend already gone
                            self._live_bytes -= entry[1]
                            self._freed += 1
                        del entry
        finally:
            self._final_done.set()  # also after an error: nothing waits forever

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def thread(self) -> threading.Thread | None:
        """The cleaner thread (``IN_BACKGROUND`` only)."""
        return self._thread

    # -- stats --------------------------------------------------------------

    def stats(self) -> SessionStats:
        with self._lock:
            self._enter_pending()
            per_device: dict[str, list[int]] = {}
            for table in (self._owned, self._pinned):
                for arr, n in table.values():
                    try:
                        shards = arr.addressable_shards if len(arr.sharding.device_set) > 1 else None
                    except Exception:  # deleted by donation
                        continue
                    if shards is None:
                        (dev,) = arr.sharding.device_set
                        acc = per_device.setdefault(str(dev), [0, 0])
                        acc[0] += 1
                        acc[1] += n
                    else:
                        for shard in shards:
                            acc = per_device.setdefault(str(shard.device), [0, 0])
                            acc[0] += 1
                            acc[1] += _nbytes(shard.data)
            return SessionStats(
                live_buffers=len(self._owned) + len(self._pinned),
                live_bytes=self._live_bytes,
                peak_bytes=self._peak_bytes,
                allocated_buffers=self._allocated,
                freed_buffers=self._freed,
                detached_buffers=self._detached,
                devices={k: DeviceStats(v[0], v[1]) for k, v in sorted(per_device.items())},
                strategy=self.strategy,
                closed=self._closed,
                bookkeeping_entries=len(self._owned) + len(self._pinned) + len(self._pending),
                cleaner_errors=self.cleaner_errors,
            )

    def live_count(self) -> int:
        """How many arrays the registry holds (owned, pinned, pending), without
        taking its lock (for finalizers; exact when nothing adopts meanwhile)."""
        pending = {id(a) for a in list(self._pending)}
        owned = set(self._owned) | set(self._pinned)
        return len(owned | pending)

    def exhausted_error(self, err: BaseException) -> errors.OpError | None:
        """``errors.ResourceExhaustedError`` for a device out-of-memory error
        (XLA ``RESOURCE_EXHAUSTED``), saying what this session owns: live
        buffers and bytes, per device, and the largest few; ``None`` for
        other errors."""
        text = str(err)
        if "RESOURCE_EXHAUSTED" not in text and "Out of memory" not in text:
            return None
        s = self.stats()
        with self._lock:
            arrays = [e for t in (self._owned, self._pinned) for e in t.values()]
        arrays.sort(key=lambda e: -e[1])
        largest = ", ".join(f"{a.dtype}{list(a.shape)} ({n} bytes)" for a, n in arrays[:5])
        devices = "; ".join(f"{d}: {v.live_buffers} buffers, {v.live_bytes} bytes" for d, v in s.devices.items())
        return errors.ResourceExhaustedError(
            None,
            None,
            f"Device out of memory: {text.splitlines()[0] if text else type(err).__name__}. "
            f"The session owns {s.live_buffers} live buffers, {s.live_bytes} bytes"
            f"{' (' + devices + ')' if devices else ''}; largest: {largest or 'none'}. "
            "Drop references to arrays you no longer need, call session.sweep(collect=True), "
            "or detach/close what you keep.",
        )

    def live_arrays(self) -> list[Any]:
        """The owned arrays (a new list; holding it keeps them referenced)."""
        with self._lock:
            self._enter_pending()
            return [e[0] for e in self._owned.values()] + [e[0] for e in self._pinned.values()]


def _unowned_aliases(owned: list[Any]) -> dict[int, list[Any]]:
    """For each owned array (by id) that shares a device buffer with live
    arrays it is not, those arrays (one O(live arrays) pass at close)."""
    mine = {id(x) for x in owned}
    owner_of: dict[int, int] = {}
    for x in owned:
        for k in buffer_keys(x):
            owner_of[k] = id(x)
    out: dict[int, list[Any]] = {}
    try:
        live = jax.live_arrays()
    except Exception:  # pragma: no cover - backend gone at exit
        return out
    for a in live:
        if id(a) in mine:
            continue
        for k in buffer_keys(a):
            owner = owner_of.get(k)
            if owner is not None:
                lst = out.setdefault(owner, [])
                if not any(c is a for c in lst):
                    lst.append(a)
    return out


def _held_outside(cands: list[Any], cached: set[int], baseline: int) -> bool:
    """Whether an array of ``cands`` is referenced beyond ``cands`` itself and,
    for those in ``cached`` (ids), the one reference of the owned array's own
    per-shard cache."""
    for a in cands:
        n = _getrefcount(a) - (1 if id(a) in cached else 0)
        if n > baseline:
            return True
    return False


def _measure_alias_baseline() -> int:
    probe = object()
    cands = [probe]
    del probe
    lo, hi = 0, 64
    while lo < hi:  # the smallest threshold at which the probe counts as unheld
        mid = (lo + hi) // 2
        if _held_outside(cands, set(), mid):
            lo = mid + 1
        else:
            hi = mid
    return lo


_ALIAS_BASELINE = _measure_alias_baseline()


def _alias_held(arr: Any, cands: list[Any]) -> bool:
    """Whether something other than ``arr`` keeps one of its aliases ``cands``.

    A ``jax.Array`` caches the per-shard arrays ``addressable_data`` returns
    (NumPy conversion creates them too); such an alias that nothing else
    references dies with ``arr`` and does not keep the buffer.
    """
    try:
        cached = {id(arr.addressable_data(i)) for i in range(len(arr.addressable_shards))}
    except Exception:  # deleted
        return False
    return _held_outside(cands, cached, _ALIAS_BASELINE)
