"""Ownership of device buffers: cleanup strategies, the registry, stats.

One :class:`OwnershipRegistry` belongs to one session. It holds a *weak*
reference to every ``jax.Array`` the session produced (``IN_BACKGROUND``,
``ON_SAFE_POINTS``), so a buffer is freed the moment user code drops its last
reference, exactly as plain JAX frees it; under ``ON_SESSION_CLOSE`` it also
holds a strong one, so nothing is freed before ``close()``. ``close()``
``delete()``s every owned array still alive, referenced or not, except buffers
an unowned alias still uses (``jax.device_put`` to the same device,
``addressable_data``): ownership is per device buffer, not per Python object.

What a session adopts is decided in one place, :func:`adoptable` ("adopt
these outputs, given these inputs"), called through
:meth:`OwnershipRegistry.adopt_outputs` and :meth:`OwnershipRegistry.pin_output`
by every producer: ``session.wrap``/``session.jit``, eager ops,
``Session.run``, variables and ``track``.

No ownership decision reads a reference count: adopting an array is one
``weakref.ref`` whose callback is a bare ``list.append``; the entries of
arrays that died are pruned lazily. The only reference count read is at
``close()``, to tell whether a per-shard array a sharded array caches is
also held by user code (an alias to spare).

The semantics of the strategies follow TensorFlow Java's
``EagerSession.ResourceCleanupStrategy``; holding by weak reference follows
what TF Java itself moved to (``Tensor`` and ``EagerSession`` resources held by
``WeakReference`` plus explicit ``close()``, rather than waiting on Java's GC).
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, NoReturn

import jax
import jax.numpy as jnp
import numpy as np
from jax import tree_util

from jaxsess._core import _display, errors as errors
from jaxsess._core.graph._compile import compile_function
from jaxsess._core.runtime._native import (  # the C safe point (jaxsess/_core/runtime/_hot_registry.c), or None
    hot as _c_hot,
)

__all__ = [
    "DeviceStats",
    "HeldArrays",
    "OwnershipRegistry",
    "ResourceCleanupStrategy",
    "SessionStats",
    "adoptable",
    "buffer_keys",
    "is_concrete_array",
    "jit_returns_input_buffers",
]

_getrefcount = sys.getrefcount
_tree_leaves = tree_util.tree_leaves
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
            x = jax.device_put(np.zeros(2, np.float32))  # (jnp.zeros would compile its fill: 80 ms)
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
    """When a session frees the device buffers it owns and no longer needs.

    As TensorFlow Java's ``EagerSession.ResourceCleanupStrategy``. Whatever the
    strategy, :meth:`BaseSession.close` deletes every buffer the session still
    owns, including arrays that user code still references (using one after
    close raises JAX's ``RuntimeError: Array has been deleted``).

    Attributes:
      IN_BACKGROUND: (default) the session holds its arrays by weak
        reference: a buffer is freed the moment user code drops its last
        reference, as in plain JAX (peak device memory is plain JAX's). A
        daemon thread owned by the session does what reference counting
        cannot: when ``memory_limit_bytes`` is exceeded it runs
        ``gc.collect()`` (arrays held only by reference cycles), and it prunes
        the bookkeeping of dead arrays and of arrays deleted by donation
        (every 5 ms while the session owns arrays, every 50 ms otherwise).
        ``close()`` stops and joins the thread.
      ON_SAFE_POINTS: weak holding as ``IN_BACKGROUND``, no extra thread:
        the ``gc.collect()`` under the budget and the pruning run
        synchronously, in the calling thread, when a call into the library
        reaches a safe point (entering ``Session.run``, a call of a
        ``session.wrap``/``session.jit`` function, an eager op, ``track``,
        ``stats()``).
      ON_SESSION_CLOSE: the session holds a strong reference to every array
        it made and frees nothing before ``close()`` (or an explicit
        ``sweep()``). A loop of ``m`` iterations producing ``n`` buffers each
        holds ``n*m`` buffers until the session closes: use it only for
        short-lived sessions.
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
class HeldArrays:
    """One group of the "what holds memory" breakdown of :class:`SessionStats`:
    live owned arrays of one shape and dtype made by one producer.

    Attributes:
      producer: what made them: the ``__qualname__`` of a ``session.wrap``/
        ``session.jit`` function, an eager op's type, ``"Session.run"``,
        ``"variables"`` (pinned state), ``"track"``.
      shape: the arrays' shape.
      dtype: their dtype's name (``"float32"``).
      arrays: how many.
      bytes: their total size in bytes.
    """

    producer: str
    shape: tuple[int, ...]
    dtype: str
    arrays: int
    bytes: int


@dataclass(frozen=True)
class SessionStats:
    """A snapshot of what a session owns.

    Attributes:
      live_buffers: owned arrays still alive (variables included).
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
        owned, pending and not yet pruned entries plus live ``session.wrap``
        functions. It stays bounded in a long-lived session whose outputs are
        dropped.
      cleaner_errors: exceptions the cleaner thread caught (each is logged
        on the ``jaxsess`` logger, the first also as a ``RuntimeWarning``);
        the thread keeps running.
      held: what holds memory: live owned arrays grouped by producer, shape
        and dtype, the most bytes first (the top ``top`` groups of
        ``stats(top=10)``).
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
    held: tuple[HeldArrays, ...] = ()

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


_ref = weakref.ref
_getweakrefs = weakref.getweakrefs
_getweakrefcount = weakref.getweakrefcount

_POLL_INTERVAL_S = 0.005  # cleaner poll while the session owns arrays
_IDLE_INTERVAL_S = 0.05  # ... while it owns none
_DONATION_SCAN_S = 0.05  # cleaner: look for arrays deleted by donation at most this often
_REAP_AT = 256  # ON_SAFE_POINTS: prune dead bookkeeping at a safe point once this many died
_EXIT_WAIT_S = 60.0  # at interpreter exit: the longest wait for closes still freeing
_PINNED = "variables"  # the producer of pinned state in the breakdown

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

# An owned array's entry: (weak reference, size in bytes, producer).
_Entry = tuple[Any, int, str]


class _OwnedDict(dict[int, _Entry]):
    """The registry's owned arrays, ``id(ref) -> (ref, nbytes, producer)``,
    and its counters: arrays entered (``allocated``) and freed (``freed``)
    all time, bytes alive (``live``) and the most so far (``peak``).

    The reference for the C extension's ``OwnedTable`` (``_hot_owned.c``),
    which the registry uses where the extension is built: the same
    operations, with the entries and counters in C structures that the C
    call paths change without building Python objects."""

    __slots__ = ("allocated", "freed", "live", "peak")

    young = 0  # OwnedTable's young generation (entries the C call made): none here

    def __init__(self) -> None:
        super().__init__()
        self.allocated = self.freed = self.live = self.peak = 0

    def prune_young(self, died: Callable[[Any], Any]) -> int:
        """OwnedTable's prune of its young generation; nothing to do here."""
        return 0


def _owned_counter(field: str) -> Any:
    """A registry attribute that is the owned table's counter ``field``."""

    def get(registry: OwnershipRegistry) -> int:
        return int(getattr(registry._owned, field))

    def set_(registry: OwnershipRegistry, value: int) -> None:
        setattr(registry._owned, field, value)

    return property(get, set_, doc=f"the owned table's {field!r} counter")


def _never_called(*args: Any, **kwargs: Any) -> Any:
    """The functions of a registry's ``_adopter``, which is never called (only its C twin's ownership is used)."""
    raise AssertionError("a registry's _adopter is not a function to call")


def _new_owned_table() -> _OwnedDict:
    return _OwnedDict() if _c_hot is None else _c_hot.OwnedTable()  # type: ignore[return-value]


class OwnershipRegistry:
    """The set of device arrays one session owns, and their deletion.

    Thread-safe. Adopt the outputs the session created with
    :meth:`adopt_outputs` (the adoption rule keeps out inputs, their aliases
    and tracers); ``close`` deletes every owned array still alive.

    Ownership is by weak reference (``weakref.ref`` on the ``jax.Array``,
    whose callback is a bare ``list.append``): under ``IN_BACKGROUND`` and
    ``ON_SAFE_POINTS`` the registry never keeps an array alive, so its buffer
    is freed the moment user code drops the last reference, exactly as in
    plain JAX. Under ``ON_SESSION_CLOSE`` the registry also holds a strong
    reference to each, so nothing is freed before ``close()``. Pinned arrays
    (variable values, the session's own state) are always held strongly.
    Dead entries are pruned lazily: at the next adoption (before its bytes
    are counted, so ``peak_bytes`` is exact), at safe points, by the cleaner
    thread and by ``stats()``. Nothing compares reference counts.

    Arrays the C hot path of graph sessions adopts wait, strongly held, in a
    *pending* list until the next safe point, cleaner poll, ``stats()`` or
    ``close()`` enters them.

    Args:
      strategy: a :class:`ResourceCleanupStrategy`.
      memory_limit_bytes: optional budget in bytes. When owned live bytes
        exceed it, the cleaner thread (``IN_BACKGROUND``) or the next safe
        point (``ON_SAFE_POINTS``) runs ``gc.collect()``, so that arrays held
        only by reference cycles are freed.
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
        # _lock, _pending, _owned, _dead, _died and inflight are never rebound
        # after __init__ (cleared or mutated in place): the C twin of
        # session.wrap's call (_hot_wrap.c) binds them once.
        self._lock = threading.Lock()
        self._pending: list[Any] = []  # adopted by the C hot path, not yet entered (strong refs)
        # ON_SESSION_CLOSE: (arrays, producer) of calls not yet entered (strong refs).
        self._batches: list[tuple[list[Any], str]] = []
        # id(ref) -> (ref, nbytes, producer), and the counters (_live_bytes, ...)
        self._owned = _new_owned_table()
        self._dead: list[Any] = []  # refs whose array died, not yet pruned
        self._died = self._dead.append  # every owned ref's callback
        # ON_SESSION_CLOSE: id(ref) -> the array (the strong holding); else None.
        self._hold: dict[int, Any] | None = {} if strategy is ResourceCleanupStrategy.ON_SESSION_CLOSE else None
        self._pinned: dict[int, tuple[Any, int]] = {}  # id(array) -> (array, nbytes); held strongly
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
        # The C hot path's adoption of a run's fresh device result (Session.run
        # with device_fetches; _hot_common.c: adopt_fresh): owned at once as
        # session.jit's C call owns its outputs (own_one), under the weak
        # strategies; without it (and for ON_SESSION_CLOSE) via _pending.
        self._adopter: Any = None
        if _c_hot is not None and self._hold is None:
            self._adopter = _c_hot.WrapCall(_never_called, self, self, _never_called, "Session.run", _tree_leaves)

    # The counters live in the owned table, where the C call paths change them.
    _allocated = _owned_counter("allocated")
    _freed = _owned_counter("freed")
    _live_bytes = _owned_counter("live")
    _peak_bytes = _owned_counter("peak")

    # -- adopting -----------------------------------------------------------

    def adopt_outputs(
        self, outputs: object, inputs: object = (), *, by_buffer: bool = True, producer: str = "adopted"
    ) -> None:
        """The one adoption entry point: takes ownership of the leaves of
        ``outputs`` that :func:`adoptable` allows given ``inputs`` (idempotent).

        Every producer calls it: ``session.wrap``/``session.jit`` (inputs:
        the call's arguments), eager ops, ``Session.run`` (inputs: feeds and
        state read), ``track`` (no inputs), and, through :meth:`pin_output`,
        variables. ``by_buffer``: see :func:`adoptable`. ``producer`` names
        the function that made them (``stats().held``).

        Raises:
          RuntimeError: the registry is closed (the adopted arrays are deleted).
        """
        leaves = adoptable(outputs, inputs, by_buffer=by_buffer)
        if leaves:
            self._own(leaves, producer, True)
        elif self._closed:
            self.reject_late()

    def own_fresh(self, outputs: object, producer: str) -> None:
        """Takes ownership of every concrete ``jax.Array`` leaf of ``outputs``,
        which the caller guarantees are new arrays (the outputs of a
        ``jax.jit`` call, which never hands back an input when
        :func:`jit_returns_input_buffers` is False): no input or ownership
        check, one weak reference per array.

        Raises:
          RuntimeError: the registry is closed (the arrays are deleted).
        """
        if type(outputs) in _concrete_types:
            self.own_one(outputs, producer)
            return
        leaves = _tree_leaves(outputs)
        if not all(map(_concrete_types.__contains__, map(type, leaves))):
            leaves = [x for x in leaves if is_concrete_array(x)]
        if leaves:  # a jitted call's outputs are distinct new arrays: no check
            self._own(leaves, producer, False)

    def own_one(self, arr: Any, producer: str) -> None:
        """:meth:`own_fresh` of one new concrete array (the common case, inlined)."""
        if self._hold is not None:
            self._own([arr], producer, False)
            return
        r = _ref(arr, self._died)
        nb = _nbytes_cache.get(arr.aval)
        if nb is None:
            nb = _nbytes(arr)
        with self._lock:
            if self._closed:
                self._reject([arr])
            dead = self._dead
            if dead or self._owned.young:
                if len(dead) == 1 and not self._owned.young:  # the previous call's output, dropped: _reap inlined
                    entry = self._owned.pop(id(dead.pop()), None)
                    if entry is not None:
                        self._owned.live -= entry[1]
                        self._owned.freed += 1
                        if self._pressure and self._collect_at is not None and self._owned.live <= self._collect_at:
                            self._pressure = False
                else:
                    self._reap()
            self._owned[id(r)] = (r, nb, producer)
            self._owned.allocated += 1
            live = self._owned.live = self._owned.live + nb
            if live > self._owned.peak:
                self._owned.peak = live
            if self._collect_at is not None and live > self._collect_at and not self._pressure:
                self._pressure = True
                self._wake.set()

    def adopt(self, arr: jax.Array) -> None:
        """``adopt_outputs(arr)``: adopts one array the caller created."""
        self.adopt_outputs(arr)

    def _own(self, arrays: list[Any], producer: str, check: bool) -> None:
        # Enters `arrays` as owned. check: skip arrays already owned (by this
        # or an earlier call) and repeats within `arrays`.
        if self._hold is not None and not check:
            # ON_SESSION_CLOSE frees nothing before close: a call's new arrays
            # wait, strongly held, until stats() or another look enters them.
            if self._closed:
                self._reject(arrays)
            self._batches.append((arrays, producer))
            if self._closed:  # raced close(): reject_late deletes them and raises
                self.reject_late()
            return
        with self._lock:
            if self._closed:
                self._reject(arrays)
            self._reap()
            if check:
                if self._batches:
                    self._enter_batches()
                arrays = self._not_owned(arrays)
                if not arrays:
                    return
            self._insert(arrays, producer)

    def _reject(self, arrays: list[Any]) -> NoReturn:
        for arr in arrays:
            if not arr.is_deleted():
                arr.delete()
        raise RuntimeError("Attempted to use a closed Session.")

    def _insert(self, arrays: list[Any], producer: str) -> None:
        # Caller holds the lock and reaped: enters arrays none of which is owned.
        refs = list(map(_ref, arrays, repeat(self._died)))
        nbs, total = _nbytes_of(arrays)
        keys = list(map(id, refs))
        self._owned.update(zip(keys, zip(refs, nbs, repeat(producer))))
        if self._hold is not None:
            self._hold.update(zip(keys, arrays))
        self._owned.allocated += len(keys)
        live = self._owned.live = self._owned.live + total
        if live > self._owned.peak:
            self._owned.peak = live
        if self._collect_at is not None and live > self._collect_at and not self._pressure:
            self._pressure = True
            self._wake.set()

    def _enter_batches(self, *, closing: bool = False) -> None:
        # Caller holds the lock: enters the calls' arrays ON_SESSION_CLOSE
        # deferred; those deleted by donation meanwhile count allocated and freed.
        batches = self._batches
        n = len(batches)
        todo = batches[:n]
        del batches[:n]
        for arrays, producer in todo:
            if self._closed and not closing:
                for arr in arrays:
                    if not arr.is_deleted():
                        arr.delete()
                continue
            live = [a for a in arrays if not a.is_deleted()]
            if len(live) < len(arrays):
                self._owned.allocated += len(arrays) - len(live)
                self._owned.freed += len(arrays) - len(live)
            if live:
                self._insert(live, producer)

    def _not_owned(self, arrays: list[Any]) -> list[Any]:
        # Caller holds the lock (and reaped): the arrays of `arrays` not owned
        # yet, each once.
        pinned = self._pinned
        out: list[Any] = []
        seen: set[int] = set()
        for arr in arrays:
            key = id(arr)
            if key in seen or key in pinned:
                continue
            seen.add(key)
            if _getweakrefcount(arr) and self._key_of(arr) is not None:
                continue
            out.append(arr)
        return out

    def _key_of(self, arr: Any) -> int | None:
        # The key of arr's entry in _owned (caller holds the lock), or None.
        owned = self._owned
        for r in _getweakrefs(arr):
            entry = owned.get(id(r))
            if entry is not None and entry[0] is r:
                return id(r)
        return None

    def _entry_of(self, arr: Any) -> tuple[str, int, tuple[Any, int]] | None:
        # ("pinned", id(arr), (arr, nb)) or ("owned", key, (arr, nb)); None when not owned.
        key = id(arr)
        pinned = self._pinned.get(key)
        if pinned is not None and pinned[0] is arr:
            return "pinned", key, pinned
        k = self._key_of(arr)
        if k is None:
            return None
        return "owned", k, (arr, self._owned[k][1])

    def _reap(self) -> None:
        # Caller holds the lock: drops the entries of arrays that died (their
        # buffers are already freed) and counts them freed: those the weak
        # references' callback listed in _dead, and those of the owned
        # table's young generation (entries the C call made, whose weak
        # references have no callback: _hot_owned.c).
        dead = self._dead
        if not dead and not self._owned.young:
            return
        freed = self._owned.prune_young(self._died) if self._owned.young else 0
        n = len(dead)
        batch = dead[:n]
        del dead[:n]
        entries = list(filter(None, map(self._owned.pop, map(id, batch), repeat(None))))
        if entries:
            self._owned.live -= sum(map(_SECOND, entries))
            self._owned.freed += len(entries)
        if (entries or freed) and self._pressure and self._collect_at is not None:
            if self._owned.live <= self._collect_at:
                self._pressure = False

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
            while self._batches:
                for arr in self._batches.pop()[0]:
                    if not arr.is_deleted():
                        arr.delete()
        raise RuntimeError("Attempted to use a closed Session.")

    def _enter_pending(self, *, closing: bool = False) -> None:
        # Caller holds the lock. Moves the arrays the C hot path adopted into
        # the table (weakly held from here on, under the weak strategies), and
        # the calls' arrays ON_SESSION_CLOSE deferred.
        if self._batches:
            self._enter_batches(closing=closing)
        pending = self._pending
        n = len(pending)
        if not n:
            return
        batch = pending[:n]
        del pending[:n]  # appends made meanwhile stay, after index n
        if self._closed and not closing:  # calls that raced close(): their outputs die too
            for arr in batch:
                if not arr.is_deleted():
                    arr.delete()
            return
        self._reap()
        batch = self._not_owned(batch)
        if not batch:
            return
        refs = list(map(_ref, batch, repeat(self._died)))
        nbs, total = _nbytes_of(batch)
        keys = list(map(id, refs))
        self._owned.update(zip(keys, zip(refs, nbs, repeat("Session.run"))))
        if self._hold is not None:
            self._hold.update(zip(keys, batch))
        self._owned.allocated += len(keys)
        live = self._owned.live = self._owned.live + total
        if live > self._owned.peak:
            self._owned.peak = live
        if self._collect_at is not None and live > self._collect_at:
            self._pressure = True
        del batch  # under the weak strategies, unreferenced ones die here

    def _own_weak(self, arr: Any, nb: int, producer: str) -> None:
        # Caller holds the lock: enters an array whose bytes are already
        # counted (a pinned array moved to the swept set).
        r = _ref(arr, self._died)
        self._owned[id(r)] = (r, nb, producer)
        if self._hold is not None:
            self._hold[id(r)] = arr

    def _drop_owned(self, key: int) -> _Entry | None:
        entry = self._owned.pop(key, None)
        if self._hold is not None:
            self._hold.pop(key, None)
        return entry

    def pin(self, arr: jax.Array) -> None:
        """Adopts ``arr`` as state the session references itself (a variable
        value): held strongly, deleted by :meth:`discard` or at close."""
        with self._lock:
            if self._closed:
                raise RuntimeError("Attempted to use a closed Session.")
            self._enter_pending()
            self._reap()
            key = id(arr)
            if key in self._pinned:
                return
            k = self._key_of(arr) if _getweakrefcount(arr) else None
            if k is not None:
                entry = self._drop_owned(k)
                assert entry is not None
                self._pinned[key] = (arr, entry[1])
                return
            nb = _nbytes(arr)
            self._pinned[key] = (arr, nb)
            self._owned.allocated += 1
            self._owned.live += nb
            if self._owned.live > self._owned.peak:
                self._owned.peak = self._owned.live

    def swap_pinned(self, olds: Sequence[Any], news: Sequence[Any]) -> None:
        """Replaces pinned state arrays in one step (the variable writes of a run).

        Pins every array of ``news``; the array of ``olds`` at the same
        position (``None``: none) is counted freed when it is deleted (donated
        to the run), else moved to the weakly held set (still referenced
        elsewhere, e.g. by ``variable_value``: it is freed when that goes).
        One lock acquisition per run.

        The common case — fresh ``news``, every pinned old donated — runs in
        C when the extension is built (``jaxsess._core.runtime._hot.swap_pinned``, an exact
        copy of :meth:`_swap_pinned`'s first branch), else in a fixed number
        of C-level passes. Anything else takes the per-array path.

        Raises:
          RuntimeError: the registry is closed.
        """
        if (
            _c_swap_pinned is None
            or self._batches
            or (self._owned and any(map(_getweakrefcount, news)))  # a new one may be owned (weakly)
            or not _c_swap_pinned(self, olds, news)
        ):
            self._swap_pinned(olds, news)

    def _swap_pinned(self, olds: Sequence[Any], news: Sequence[Any]) -> None:
        # swap_pinned in Python: the reference of the C common case, and every other case.
        with self._lock:
            if self._closed:
                raise RuntimeError("Attempted to use a closed Session.")
            if self._pending or self._batches:
                self._enter_pending()
            self._reap()
            pinned = self._pinned
            new_ids = list(map(id, news))
            old_ids = list(map(id, olds))
            n = len(new_ids)
            if (
                n == len(old_ids)
                and _NONE_ID not in old_ids
                and pinned.keys().isdisjoint(new_ids)
                and (not self._owned or not any(map(_getweakrefcount, news)))
            ):
                nbs, total = _nbytes_of(news)
                entries = list(filter(None, map(pinned.pop, old_ids, repeat(None))))
                if all(map(_is_deleted, olds)):
                    freed = entries
                else:  # some olds outlive the run (not donated): freed when unreferenced
                    freed = []
                    for entry in entries:
                        if entry[0].is_deleted():
                            freed.append(entry)
                        else:
                            self._own_weak(entry[0], entry[1], _PINNED)
                size = len(pinned)
                pinned.update(zip(new_ids, zip(news, nbs)))
                if len(pinned) - size != n:  # an array written to two slots: count it once
                    firsts = dict(zip(reversed(new_ids), reversed(nbs)))
                    n, total = len(firsts), sum(firsts.values())
                self._owned.allocated += n
                self._owned.freed += len(freed)
                live = self._owned.live + total - sum(map(_SECOND, freed))
                del entries, freed
            else:
                live = self._swap_each(olds, news)
            self._owned.live = live
            if live > self._owned.peak:
                self._owned.peak = live
            self._reap()  # olds moved to the weak set that nothing references died

    def _swap_each(self, olds: Sequence[Any], news: Sequence[Any]) -> int:
        # swap_pinned, one array at a time (caller holds the lock); returns live bytes.
        pinned, cache = self._pinned, _nbytes_cache
        live = self._owned.live
        for old, new in zip(olds, news):
            key = id(new)
            if key not in pinned:
                k = self._key_of(new) if _getweakrefcount(new) else None
                if k is not None:
                    owned_entry = self._drop_owned(k)
                    assert owned_entry is not None
                    entry: tuple[Any, int] = (new, owned_entry[1])
                else:
                    nb = cache.get(new.aval)
                    if nb is None:
                        nb = _nbytes(new)
                    entry = (new, nb)
                    self._owned.allocated += 1
                    live += nb
                pinned[key] = entry
            if old is None or old is new:
                continue
            old_entry = pinned.pop(id(old), None)
            if old_entry is None:
                continue
            if old.is_deleted():
                live -= old_entry[1]
                self._owned.freed += 1
            else:
                self._owned.live = live
                self._own_weak(old, old_entry[1], _PINNED)
            del old_entry
        return live

    def discard(self, arr: jax.Array) -> None:
        """Deletes an owned array now, referenced or not (a replaced variable
        value). Arrays already deleted by donation count as freed."""
        with self._lock:
            self._enter_pending()
            self._reap()
            found = self._entry_of(arr)
            if found is None:
                return
            table, key, (a, nb) = found
            if table == "pinned":
                del self._pinned[key]
            else:
                self._drop_owned(key)
            if not a.is_deleted():
                a.delete()
            self._owned.live -= nb
            self._owned.freed += 1

    def unpin(self, arr: jax.Array) -> None:
        """Moves a pinned array to the weakly held set: freed as soon as
        nothing else references it (at close at the latest)."""
        key = id(arr)
        with self._lock:
            entry = self._pinned.pop(key, None)
            if entry is not None:
                self._own_weak(entry[0], entry[1], _PINNED)
            del entry
            self._reap()

    def owns(self, arr: object) -> bool:
        """Whether this very ``jax.Array`` object is owned (an alias of an
        owned array, sharing its buffer, is not)."""
        with self._lock:
            self._enter_pending()
            self._reap()
            return self._entry_of(arr) is not None

    def _alive(self) -> list[tuple[Any, int, str]]:
        # Caller holds the lock: (array, nbytes, producer) of every owned array
        # still alive, pinned ones included.
        out = []
        for r, nb, producer in list(self._owned.values()):
            a = r()
            if a is not None:
                out.append((a, nb, producer))
        out.extend((a, nb, _PINNED) for a, nb in self._pinned.values())
        return out

    def owns_buffer_of(self, arr: jax.Array) -> bool:
        """Whether an owned array shares a device buffer with ``arr`` (``arr``
        itself, or an alias of it). O(owned arrays of the same shape)."""
        keys = set(buffer_keys(arr))
        if not keys:
            return False
        shape, dtype = arr.shape, arr.dtype
        with self._lock:
            self._enter_pending()
            for owned, _, _ in self._alive():
                if owned is arr:
                    return True
                if owned.shape == shape and owned.dtype == dtype and not keys.isdisjoint(buffer_keys(owned)):
                    return True
        return False

    def release(self, arr: jax.Array) -> bool:
        """Gives up ownership of ``arr`` without deleting it; False if not owned."""
        with self._lock:
            self._enter_pending()
            self._reap()
            found = self._entry_of(arr)
            if found is None:
                return False
            table, key, (_, nb) = found
            if table == "pinned":
                del self._pinned[key]
            else:
                self._drop_owned(key)
            self._owned.live -= nb
            self._detached += 1
            return True

    def note_donated(self, inputs: object) -> None:
        """Counts the owned arrays among ``inputs`` that a call deleted by
        donation (``donate_argnums``) freed now, rather than at the next sweep."""
        leaves = [x for x in _concrete_leaves(inputs) if x.is_deleted()]
        if not leaves:
            return
        with self._lock:
            self._enter_pending()
            for x in leaves:
                found = self._entry_of(x)
                if found is None or found[0] == "pinned":
                    continue
                entry = self._drop_owned(found[1])
                if entry is not None:
                    self._owned.live -= entry[1]
                    self._owned.freed += 1

    # -- freeing ------------------------------------------------------------

    def sweep(self, *, collect: bool = False, donated: bool = True) -> int:
        """Prunes what the session no longer owns, now, whatever the strategy.

        Under ``IN_BACKGROUND`` and ``ON_SAFE_POINTS`` unreferenced arrays are
        already freed (the registry holds them weakly): a sweep prunes their
        entries. Under ``ON_SESSION_CLOSE`` it drops the registry's strong
        references for a moment, so arrays nothing else references are freed,
        and holds the rest again.

        Args:
          collect: run ``gc.collect()`` first, so arrays kept alive only by
            reference cycles are freed too.
          donated: also drop arrays that are still referenced but were
            deleted by donation (an O(owned) scan; safe points skip it).

        Returns:
          The number of arrays found freed since the last prune (dropped,
          collected, or deleted by donation).
        """
        if collect:
            self.collections += 1  # (first: a waiter may see the array gone before gc.collect returns)
            gc.collect()
        with self._lock:
            freed0 = self._owned.freed
            self._enter_pending()
            self._last_sweep = time.perf_counter()
            hold = self._hold
            if hold:
                arrays = list(hold.values())
                hold.clear()
                del arrays  # the registry's references go: arrays only it held die here
                for key, (r, _, _) in self._owned.items():
                    a = r()
                    if a is not None:
                        hold[key] = a
            if donated and self._owned:
                for key, (r, nb, _) in list(self._owned.items()):
                    a = r()
                    if a is not None and a.is_deleted():
                        self._drop_owned(key)
                        self._owned.live -= nb
                        self._owned.freed += 1
            self._reap()
            if collect and self.memory_limit_bytes is not None:
                self._pressure = False
                # Collect again only once the budget is exceeded by new growth.
                self._collect_at = max(self.memory_limit_bytes, int(self._owned.live * 1.25))
            elif self._collect_at is not None and self._owned.live <= self._collect_at:
                self._pressure = False
            return self._owned.freed - freed0

    def _noop(self) -> None:
        return None

    def _sweep_at_safe_point(self) -> None:
        # ON_SAFE_POINTS: enter what the C hot path adopted, collect cycles
        # under memory pressure, prune dead bookkeeping once it piles up.
        if self._pending or self._pressure or len(self._dead) >= _REAP_AT:
            self.sweep(collect=self._pressure, donated=False)

    def _assist_at_safe_point(self) -> None:
        # IN_BACKGROUND: the cleaner does the rest; arrays the C hot path
        # adopted are entered here (weakly held from the next call on).
        if self._pending:
            with self._lock:
                self._enter_pending()
        if self._pressure:
            self._wake.set()

    def _clean_loop(self) -> None:
        try:
            self._clean_until_stopped()
        finally:
            if self._close_in_cleaner:  # close() ran on this thread (a finalizer, a __del__)
                self._free_all()

    def _clean_until_stopped(self) -> None:
        last_scan = time.perf_counter()
        while not self._stop:
            try:
                now = time.perf_counter()
                scan = bool(self._owned) and now - last_scan > _DONATION_SCAN_S
                # (the owned table's young generations are the C calls' to prune,
                # each before it counts its outputs; a sweep prunes them too)
                if self._pending or self._dead or self._pressure or scan:
                    self.sweep(collect=self._pressure, donated=scan)
                    if scan:
                        last_scan = now
            except Exception as e:  # never let the cleaner die; say so once
                self._cleaner_failed(e)
            wait = _POLL_INTERVAL_S if (self._owned or self._pending) else _IDLE_INTERVAL_S
            if self._wake.wait(wait):
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
        # Deletes every owned array still alive (idempotent); an array whose
        # buffer an unowned array that something still references shares is
        # only dropped.
        try:
            with self._lock:
                self._enter_pending(closing=True)
                self._reap()
                items: list[tuple[Any, int]] = []
                for r, nb, _ in self._owned.values():
                    a = r()
                    if a is not None:
                        items.append((a, nb))
                    else:  # died since the reap
                        self._owned.live -= nb
                        self._owned.freed += 1
                items.extend(self._pinned.values())
                self._owned.clear()  # the refs go with their entries: no callbacks
                self._pinned.clear()
                if self._hold is not None:
                    self._hold.clear()
                self._dead.clear()
                aliases = _unowned_aliases([a for a, _ in items]) if items else {}
                while items:
                    arr, nb = items.pop()
                    try:
                        cands = aliases.pop(id(arr), None)
                        shared = cands is not None and _alias_held(arr, cands)
                        del cands
                        if not shared and not arr.is_deleted():
                            arr.delete()
                    except Exception:  # pragma: no cover - backend already gone
                        pass
                    self._owned.live -= nb
                    self._owned.freed += 1
                    del arr
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

    def stats(self, top: int = 10) -> SessionStats:
        """A :class:`SessionStats` snapshot (prunes dead entries first).

        Args:
          top: how many groups of ``held`` (the largest first).
        """
        with self._lock:
            self._enter_pending()
            self._reap()
            alive = self._alive()
            live_n = len(alive)
            per_device: dict[str, list[int]] = {}
            groups: dict[tuple[str, tuple[int, ...], str], list[int]] = {}
            for arr, n, producer in alive:
                try:
                    if arr.is_deleted():  # donated, not pruned yet
                        continue
                    g = groups.setdefault((producer, tuple(arr.shape), str(arr.dtype)), [0, 0])
                    g[0] += 1
                    g[1] += n
                    shards = arr.addressable_shards if len(arr.sharding.device_set) > 1 else None
                except Exception:  # deleted meanwhile
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
            del alive
            held = sorted(groups.items(), key=lambda kv: (-kv[1][1], kv[0]))[: max(0, top)]
            return SessionStats(
                live_buffers=live_n,
                live_bytes=self._owned.live,
                peak_bytes=self._owned.peak,
                allocated_buffers=self._owned.allocated,
                freed_buffers=self._owned.freed,
                detached_buffers=self._detached,
                devices={k: DeviceStats(v[0], v[1]) for k, v in sorted(per_device.items())},
                strategy=self.strategy,
                closed=self._closed,
                bookkeeping_entries=len(self._owned) + len(self._pinned) + len(self._pending) + len(self._dead)
                + len(self._batches),
                cleaner_errors=self.cleaner_errors,
                held=tuple(HeldArrays(p, shape, dtype, c, b) for (p, shape, dtype), (c, b) in held),
            )

    def live_count(self) -> int:
        """How many arrays the registry owns (alive or pending), without
        taking its lock (for finalizers; exact when nothing adopts meanwhile)."""
        n = sum(1 for r, _, _ in list(self._owned.values()) if r() is not None)
        n += sum(len(arrays) for arrays, _ in list(self._batches))
        return n + len(self._pinned) + len({id(a) for a in list(self._pending)})

    def exhausted_error(self, err: BaseException) -> errors.OpError | None:
        """``errors.ResourceExhaustedError`` for a device out-of-memory error
        (XLA ``RESOURCE_EXHAUSTED``), saying what this session owns: live
        buffers and bytes, per device, and the largest few; ``None`` for
        other errors."""
        text = str(err)
        if "RESOURCE_EXHAUSTED" not in text and "Out of memory" not in text:
            return None
        s = self.stats(top=5)
        largest = ", ".join(
            f"{h.arrays} x {h.dtype}{list(h.shape)} from {h.producer} ({h.bytes} bytes)" for h in s.held
        )
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
        """The owned arrays still alive (a new list; holding it keeps them referenced)."""
        with self._lock:
            self._enter_pending()
            return [a for a, _, _ in self._alive()]


if _c_hot is not None:
    # The C code calls a registry's own safe point only when it has something
    # to do, deciding as _noop, _assist_at_safe_point and _sweep_at_safe_point
    # do (_hot_common.c: hot_safe_point_idle); a replaced safe point is always called.
    _c_hot.configure_registry(
        nbytes_cache=_nbytes_cache,
        nbytes_of_cache=_nbytes_of_cache,
        concrete=_concrete_types,
        noop=OwnershipRegistry._noop,
        assist=OwnershipRegistry._assist_at_safe_point,
        sweep=OwnershipRegistry._sweep_at_safe_point,
        reap_at=_REAP_AT,
    )


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


def _held_outside(cands: list[Any], cached: set[int], baseline: int, extra: int = 0) -> bool:
    """Whether an array of ``cands`` is referenced beyond ``cands`` itself and,
    for those in ``cached`` (ids), the ``extra`` references of the owned
    array's own per-shard cache."""
    for a in cands:
        n = _getrefcount(a) - (extra if id(a) in cached else 0)
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
# How many references a jax.Array keeps to each per-shard array it caches,
# keyed by (single device?): measured on a probe array (jaxlib's count is its
# own: 1 for some versions, 2 for others).
_cache_refs: dict[bool, int] = {}


def _cached_extra(arr: Any) -> int:
    single = len(arr.sharding.device_set) == 1
    n = _cache_refs.get(single)
    if n is None:
        devices = sorted(arr.sharding.device_set, key=lambda d: d.id)
        if single:
            probe = jax.device_put(jnp.zeros(1, jnp.float32), devices[0])
        else:
            import numpy as np  # (numpy is a dependency of jax)

            mesh = jax.sharding.Mesh(np.array(devices), ("p",))
            spec = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("p"))
            probe = jax.device_put(np.zeros(len(devices), np.float32), spec)
        buffer_keys(probe)  # the per-shard caches _alias_held's caller filled on arr
        cands = [probe.addressable_data(0)]
        lo, hi = 0, 64
        while lo < hi:  # the smallest extra at which the unheld cached shard counts as unheld
            mid = (lo + hi) // 2
            if _held_outside(cands, {id(cands[0])}, _ALIAS_BASELINE, mid):
                lo = mid + 1
            else:
                hi = mid
        n = _cache_refs[single] = lo
        del cands, probe
    return n


def _alias_held(arr: Any, cands: list[Any]) -> bool:
    """Whether something other than ``arr`` keeps one of its aliases ``cands``.

    A ``jax.Array`` caches the per-shard arrays ``addressable_data`` returns
    (NumPy conversion creates them too); such an alias that nothing else
    references dies with ``arr`` and does not keep the buffer. Whether one is
    referenced elsewhere is the one reference count this module reads,
    against a count measured on a probe array (:func:`_cached_extra`).
    """
    try:
        buffer_keys(arr)  # fills the caches as on the probe (_unowned_aliases did already)
        cached = {id(arr.addressable_data(i)) for i in range(len(arr.addressable_shards))}
        extra = _cached_extra(arr) if cached else 0
    except Exception:  # deleted
        return False
    return _held_outside(cands, cached, _ALIAS_BASELINE, extra)
