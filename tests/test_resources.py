"""Tests of the ownership registry and the three cleanup strategies.

Background cleaning is checked with deadlines (poll, up to ``DEADLINE_S``),
never with timing assertions.
"""

from __future__ import annotations

import functools
import gc
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding, PartitionSpec

import jaxsess
from jaxsess import EagerSession, ResourceCleanupStrategy, SessionStats
from jaxsess._core.runtime._resources import OwnershipRegistry

IN_BACKGROUND = ResourceCleanupStrategy.IN_BACKGROUND
ON_SAFE_POINTS = ResourceCleanupStrategy.ON_SAFE_POINTS
ON_SESSION_CLOSE = ResourceCleanupStrategy.ON_SESSION_CLOSE
FREEING = [IN_BACKGROUND, ON_SAFE_POINTS]
DEADLINE_S = 5.0


def wait_for(predicate: Callable[[], bool], timeout: float = DEADLINE_S) -> bool:
    """Polls ``predicate`` until it is true or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() > deadline:
            return predicate()
        time.sleep(0.001)


def settled_stats(s: EagerSession, predicate: Callable[[SessionStats], bool]) -> SessionStats:
    """The session's stats once ``predicate`` holds (IN_BACKGROUND: polled with a
    deadline; otherwise one ``stats()`` call, which is itself a safe point)."""
    if s.strategy is IN_BACKGROUND:
        wait_for(lambda: predicate(s.stats()))
    return s.stats()


def gone_or_deleted(ref: weakref.ref) -> bool:
    """The array behind ``ref`` was deleted (or deleted and then dropped by the registry)."""
    arr = ref()
    return arr is None or arr.is_deleted()


def alive(ref: weakref.ref) -> bool:
    arr = ref()
    return arr is not None and not arr.is_deleted()


@pytest.fixture
def session(strategy: ResourceCleanupStrategy) -> Iterator[EagerSession]:
    s = EagerSession(cleanup=strategy)
    try:
        yield s
    finally:
        s.close()


@pytest.fixture
def registry(strategy: ResourceCleanupStrategy) -> Iterator[OwnershipRegistry]:
    reg = OwnershipRegistry(strategy, name="test-registry")
    try:
        yield reg
    finally:
        reg.close()


# -- ResourceCleanupStrategy ------------------------------------------------


def test_strategy_coerce_accepts_members_and_names() -> None:
    for member in ResourceCleanupStrategy:
        assert ResourceCleanupStrategy.coerce(member) is member
        assert ResourceCleanupStrategy.coerce(member.name) is member
        assert ResourceCleanupStrategy.coerce(member.name.lower()) is member


@pytest.mark.parametrize("bad", ["SOMETIMES", 3, None, ""])
def test_strategy_coerce_rejects_bad_values_listing_valid_ones(bad: object) -> None:
    with pytest.raises(ValueError) as info:
        ResourceCleanupStrategy.coerce(bad)
    message = str(info.value)
    assert repr(bad) in message
    for name in ("IN_BACKGROUND", "ON_SAFE_POINTS", "ON_SESSION_CLOSE"):
        assert name in message


def test_default_strategy_is_in_background() -> None:
    with EagerSession() as s:
        assert s.strategy is IN_BACKGROUND
        assert s.stats().strategy is IN_BACKGROUND


def test_strategy_is_reexported() -> None:
    assert jaxsess.ResourceCleanupStrategy is ResourceCleanupStrategy


# -- the registry -------------------------------------------------------------


def test_registry_sweep_frees_only_unreferenced(registry: OwnershipRegistry) -> None:
    kept = jnp.arange(4.0) + 1
    dropped = jnp.arange(4.0) + 2
    ref = weakref.ref(dropped)
    registry.adopt(kept)
    registry.adopt(dropped)
    del dropped
    registry.sweep()
    assert gone_or_deleted(ref)
    assert registry.owns(kept)
    assert not kept.is_deleted()
    np.testing.assert_array_equal(np.asarray(kept), [1.0, 2.0, 3.0, 4.0])
    stats = registry.stats()
    assert stats.live_buffers == 1
    assert stats.live_bytes == kept.nbytes
    assert stats.allocated_buffers == 2
    assert stats.freed_buffers == 1


@pytest.mark.parametrize("strat", [ON_SAFE_POINTS, ON_SESSION_CLOSE])
def test_registry_dropped_arrays_count_allocated_freed_and_in_the_peak(strat: ResourceCleanupStrategy) -> None:
    # Weak holding (ON_SAFE_POINTS) frees an adopted array the moment its last
    # reference goes: the peak is one array beside `kept`, as in plain JAX.
    # Strong holding (ON_SESSION_CLOSE) keeps them all until a sweep.
    # (No cleaner thread either way.)
    registry = OwnershipRegistry(strat, name="test-dropped")
    kept = jnp.arange(4.0) + 1
    twice = jnp.arange(4.0) + 3  # adopted twice: entered once, freed once
    registry.adopt(kept)
    refs = []
    for i in range(5):
        dropped = jnp.arange(4.0) + 10 + i
        refs.append(weakref.ref(dropped))
        registry.adopt(dropped)
        del dropped
        assert gone_or_deleted(refs[-1]) is (strat is ON_SAFE_POINTS)
    registry.adopt(twice)
    registry.adopt(twice)
    twice_ref = weakref.ref(twice)
    del twice
    freed = registry.sweep()
    assert freed == (6 if strat is ON_SESSION_CLOSE else freed)
    assert all(gone_or_deleted(r) for r in refs)
    assert gone_or_deleted(twice_ref)
    assert registry.owns(kept)
    np.testing.assert_array_equal(np.asarray(kept), [1.0, 2.0, 3.0, 4.0])
    stats = registry.stats()
    assert (stats.allocated_buffers, stats.freed_buffers, stats.live_buffers) == (7, 6, 1)
    assert stats.live_bytes == kept.nbytes
    if strat is ON_SESSION_CLOSE:
        assert stats.peak_bytes == 7 * kept.nbytes  # all held until the sweep
    else:
        assert stats.peak_bytes == 2 * kept.nbytes  # kept + the one being adopted
    assert stats.bookkeeping_entries == 1
    registry.close()
    assert kept.is_deleted()


def test_registry_adopt_is_idempotent(registry: OwnershipRegistry) -> None:
    x = jnp.ones(8)
    registry.adopt(x)
    registry.adopt(x)
    registry.adopt_outputs({"a": x, "b": [x]})
    stats = registry.stats()
    assert stats.allocated_buffers == 1
    assert stats.live_buffers == 1
    assert stats.live_bytes == x.nbytes


def test_registry_adopt_tree_excludes_by_identity(registry: OwnershipRegistry) -> None:
    user = jnp.ones(3)
    equal_but_new = jnp.ones(3)
    registry.adopt_outputs((user, {"k": equal_but_new}, 1.0, "not an array"), inputs=[user])
    assert not registry.owns(user)
    assert registry.owns(equal_but_new)
    registry.close()
    assert not user.is_deleted()
    assert equal_but_new.is_deleted()


def test_registry_pinned_arrays_are_never_swept(registry: OwnershipRegistry) -> None:
    pinned = jnp.zeros(5) + 1
    ref = weakref.ref(pinned)
    registry.pin(pinned)
    del pinned
    registry.sweep()
    if registry.strategy is IN_BACKGROUND:
        time.sleep(0.05)  # give the cleaner chances; it must still keep the array
    assert alive(ref)
    registry.unpin(ref())
    registry.sweep()
    assert gone_or_deleted(ref)


_donating_step = jax.jit(lambda xs: [x * 2 for x in xs], donate_argnums=0)


def _counts(reg: OwnershipRegistry) -> tuple[int, int, int, int, int]:
    s = reg.stats()
    return s.live_buffers, s.live_bytes, s.peak_bytes, s.allocated_buffers, s.freed_buffers


@pytest.mark.parametrize("case", ["donated", "kept_old", "duplicate_new", "none_old", "new_already_owned"])
def test_registry_swap_pinned_counts_as_one_array_at_a_time(case: str) -> None:
    # swap_pinned's bulk path must leave exactly the tables and counters that
    # the per-array path (_swap_each) leaves, in every shape of swap.
    def scenario(reg: OwnershipRegistry, bulk: bool) -> tuple[Any, ...]:
        olds = [jnp.full((3 + i,), float(i)) for i in range(4)]
        for a in olds:
            reg.pin(a)
        if case == "donated":
            news = _donating_step(olds)
        elif case == "kept_old":  # olds[1] survives the run: swept later, not freed now
            news = [olds[0] + 1, olds[1] + 1, olds[2] + 1, olds[3] + 1]
            olds[0].delete()
            olds[2].delete()
            olds[3].delete()
        elif case == "duplicate_new":
            one = jnp.zeros(7)
            news = [one, one, jnp.zeros(2), jnp.zeros(2)]
            for a in olds:
                a.delete()
        elif case == "none_old":
            news = [jnp.ones(5) for _ in olds]
            olds = [None, *olds[1:]]
        else:  # the new value was adopted (owned) first
            news = [jnp.ones(6) for _ in olds]
            reg.adopt_outputs(news[2])
        if bulk:
            reg.swap_pinned(olds, news)
        else:
            with reg._lock:
                reg._enter_pending()
                reg._live_bytes = reg._swap_each(olds, news)
                reg._peak_bytes = max(reg._peak_bytes, reg._live_bytes)
        pinned = sorted((tuple(a.shape), n) for a, n in reg._pinned.values())
        owned = sorted((tuple(r().shape), n) for r, n, _ in reg._owned.values() if r() is not None)
        return (pinned, owned, *_counts(reg))

    results = []
    for bulk in (True, False):
        reg = OwnershipRegistry(ON_SESSION_CLOSE, name="swap-test")
        try:
            results.append(scenario(reg, bulk))
        finally:
            reg.close()
    assert results[0] == results[1]
    pinned = results[0][0]
    # a None old replaces nothing: the first array stays pinned beside the new one
    assert len(pinned) == {"duplicate_new": 3, "none_old": 5}.get(case, 4)


def test_registry_swap_pinned_many_steps_exact() -> None:
    reg = OwnershipRegistry(ON_SESSION_CLOSE, name="swap-steps")
    try:
        state = [jnp.zeros((4, i + 1)) for i in range(10)]
        for a in state:
            reg.pin(a)
        start = _counts(reg)
        for _ in range(5):
            new = _donating_step(state)
            reg.swap_pinned(state, new)
            state = new
        live, live_bytes, peak, allocated, freed = _counts(reg)
        assert (live, live_bytes, peak) == start[:3]
        assert (allocated - start[3], freed - start[4]) == (50, 50)
        assert all(reg.owns(a) for a in state)
    finally:
        reg.close()
    assert all(a.is_deleted() for a in state)


def test_registry_discard_deletes_even_if_referenced(registry: OwnershipRegistry) -> None:
    x = jnp.zeros(5) + 1
    registry.pin(x)
    registry.discard(x)
    assert x.is_deleted()
    assert not registry.owns(x)
    assert registry.stats().freed_buffers == 1
    registry.discard(jnp.ones(2))  # not owned: nothing happens


def test_registry_release_hands_back(registry: OwnershipRegistry) -> None:
    x = jnp.zeros(5) + 1
    registry.adopt(x)
    assert registry.release(x) is True
    assert registry.release(x) is False
    assert not registry.owns(x)
    registry.close()
    assert not x.is_deleted()
    stats = registry.stats()
    assert stats.detached_buffers == 1
    assert stats.live_bytes == 0


def test_registry_close_deletes_referenced_and_is_idempotent(registry: OwnershipRegistry) -> None:
    xs = [jnp.full(4, float(i)) for i in range(3)]
    for x in xs:
        registry.adopt(x)
    registry.pin(xs[0])
    registry.close()
    registry.close()
    assert registry.closed
    assert all(x.is_deleted() for x in xs)
    stats = registry.stats()
    assert stats.closed
    assert stats.live_buffers == 0
    assert stats.live_bytes == 0
    assert stats.freed_buffers == 3
    with pytest.raises(RuntimeError, match="closed Session"):
        registry.adopt(jnp.ones(2))


def test_registry_memory_limit_validation() -> None:
    with pytest.raises(ValueError, match="positive"):
        OwnershipRegistry(ON_SAFE_POINTS, memory_limit_bytes=0)
    with pytest.raises(ValueError, match="ON_SESSION_CLOSE"):
        OwnershipRegistry(ON_SESSION_CLOSE, memory_limit_bytes=1 << 20)
    with pytest.raises(ValueError, match="ON_SESSION_CLOSE"):
        EagerSession(cleanup=ON_SESSION_CLOSE, memory_limit_bytes=1 << 20)


def test_registry_thread_only_in_background(strategy: ResourceCleanupStrategy) -> None:
    reg = OwnershipRegistry(strategy, name="thread-probe")
    try:
        if strategy is IN_BACKGROUND:
            assert reg.thread is not None
            assert reg.thread.daemon
            assert reg.thread.name == "jaxsess-cleaner[thread-probe]"
            assert reg.thread.is_alive()
        else:
            assert reg.thread is None
    finally:
        reg.close()
    if strategy is IN_BACKGROUND:
        assert reg.thread is not None and not reg.thread.is_alive()


def test_registry_stats_count_sharded_arrays_per_device(registry: OwnershipRegistry) -> None:
    mesh = jax.make_mesh((8,), ("d",))
    x = jax.device_put(jnp.arange(64.0, dtype=jnp.float32), NamedSharding(mesh, PartitionSpec("d")))
    registry.adopt(x)
    stats = registry.stats()
    assert stats.live_buffers == 1
    assert stats.live_bytes == 64 * 4
    assert len(stats.devices) == 8
    for dev in jax.devices():
        assert stats.devices[str(dev)].live_bytes == 8 * 4
        assert stats.devices[str(dev)].live_buffers == 1


# -- strategies: the n*m loop -------------------------------------------------

N_OUT = 4  # owned outputs per iteration
M_ITERS = 200
# IN_BACKGROUND's adopting thread sweeps itself after max(8, survivors) new
# arrays; ON_SAFE_POINTS sweeps on each call. Both stay far below N_OUT*M_ITERS.
BOUND_BUFFERS = 4 * (N_OUT + 8)


def _loop(s: EagerSession, n: int, m: int, size: int = 1024) -> int:
    """Runs m iterations of a session.jit function with n outputs, dropping them.

    Returns the bytes of one output.
    """
    f = s.jit(lambda x: tuple(x * (k + 1) for k in range(n)))
    x = jnp.ones(size, jnp.float32)
    for _ in range(m):
        outs = f(x)
        jax.block_until_ready(outs)
        del outs
    return size * 4


def test_n_m_loop_stays_bounded_or_accumulates(session: EagerSession) -> None:
    one = _loop(session, N_OUT, M_ITERS)
    total = N_OUT * M_ITERS
    if session.strategy is ON_SESSION_CLOSE:
        stats = session.stats()
        assert stats.live_buffers == total
        assert stats.live_bytes == total * one
        assert stats.freed_buffers == 0
        assert stats.peak_bytes == total * one
        session.close()
        stats = session.stats()
        assert stats.live_buffers == 0
        assert stats.freed_buffers == total
        return
    # While the loop ran, live bytes stayed bounded (peak_bytes records the maximum).
    assert session.stats().peak_bytes <= BOUND_BUFFERS * one, session.stats()
    if session.strategy is ON_SAFE_POINTS:
        assert session.stats().peak_bytes == N_OUT * one
    # Every output was dropped: after the cleaner catches up / the next safe point,
    # nothing is left.
    stats = settled_stats(session, lambda st: st.live_buffers == 0)
    assert stats.live_buffers == 0, stats
    assert stats.live_bytes == 0
    assert stats.allocated_buffers == total
    assert stats.freed_buffers == total


@pytest.mark.parametrize("strategy", FREEING, ids=[s.name for s in FREEING])
def test_weak_strategies_free_the_moment_the_last_reference_goes(strategy: ResourceCleanupStrategy) -> None:
    # As plain JAX: no sweep, no safe point, no cleaner poll needed.
    with EagerSession(cleanup=strategy) as s:
        f = s.jit(lambda x: x + 1)
        y = f(jnp.ones(4))
        ref = weakref.ref(y)
        assert s.owns(y)
        live = len(jax.live_arrays())
        del y
        assert not alive(ref)
        assert len(jax.live_arrays()) == live - 1
        # The bookkeeping is pruned lazily: the registry's own stats do it.
        st = s._registry.stats()
        assert (st.live_buffers, st.live_bytes, st.freed_buffers, st.bookkeeping_entries) == (0, 0, 1, 0)


@pytest.mark.parametrize("safe_point", ["jit_call", "track", "stats", "sweep"])
def test_on_safe_points_each_safe_point_sweeps(safe_point: str) -> None:
    with EagerSession(cleanup=ON_SAFE_POINTS) as s:
        f = s.jit(lambda x: x + 1)
        y = f(jnp.ones(4))
        ref = weakref.ref(y)
        del y
        if safe_point == "jit_call":
            keep = f(jnp.ones(4))
        elif safe_point == "track":
            keep = s.track(jnp.ones(4) * 3)
        elif safe_point == "stats":
            keep = s.stats()
        else:
            keep = s.sweep()
        assert gone_or_deleted(ref)
        del keep


def test_on_session_close_frees_nothing_before_close() -> None:
    with EagerSession(cleanup=ON_SESSION_CLOSE) as s:
        f = s.jit(lambda x: x + 1)
        ref = weakref.ref(f(jnp.ones(4)))
        for _ in range(20):
            f(jnp.ones(4))
        s.track(jnp.ones(3))
        time.sleep(0.01)
        assert alive(ref)
        assert s.stats().freed_buffers == 0
        assert s.stats().live_buffers == 22
        # An explicit sweep frees, whatever the strategy.
        assert s.sweep() == 22
        assert gone_or_deleted(ref)


def test_in_background_cleaner_frees_without_any_call() -> None:
    # Fewer arrays than the assist threshold (8): only the cleaner thread can free them.
    with EagerSession(cleanup=IN_BACKGROUND) as s:
        f = s.jit(lambda x: x * 2)
        refs = [weakref.ref(f(jnp.ones(4))) for _ in range(3)]
        assert wait_for(lambda: all(gone_or_deleted(r) for r in refs)), s.stats()
        assert s.stats().freed_buffers == 3


def test_in_background_idle_cleaner_wakes_for_new_arrays() -> None:
    with EagerSession(cleanup=IN_BACKGROUND) as s:
        f = s.jit(lambda x: x * 2)
        for _ in range(3):
            time.sleep(0.02)  # let the cleaner go idle (it owns nothing)
            ref = weakref.ref(f(jnp.ones(4)))
            assert wait_for(functools.partial(gone_or_deleted, ref)), s.stats()


# -- referenced arrays are never deleted, also across threads -----------------


def test_referenced_arrays_survive_until_close(session: EagerSession) -> None:
    f = session.jit(lambda x: x * 2)
    kept = [f(jnp.full(16, float(i))) for i in range(50)]
    for _ in range(100):
        f(jnp.ones(16))  # dropped at once
    session.sweep()
    assert session.stats().live_buffers == 50
    for i, y in enumerate(kept):
        assert not y.is_deleted()
        np.testing.assert_array_equal(np.asarray(y), np.full(16, 2.0 * i))
    session.close()
    assert all(y.is_deleted() for y in kept)


def test_threads_never_lose_referenced_results(session: EagerSession) -> None:
    n_threads, n_calls = 4, 200
    f = session.jit(lambda x, i: x * i + 1.0)
    results: list[list[tuple[int, jax.Array]]] = [[] for _ in range(n_threads)]
    errors: list[BaseException] = []
    start = threading.Barrier(n_threads)

    def work(t: int) -> None:
        try:
            x = jnp.full(8, float(t + 1), jnp.float32)
            start.wait()
            for i in range(n_calls):
                y = f(x, i)
                if i % 2 == 0:
                    results[t].append((i, y))  # keep every other result
                del y
                if i % 50 == 0:
                    session.stats()  # a safe point, concurrently with the others
        except BaseException as e:  # noqa: B036 - re-raised in the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(n_threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    held = n_threads * n_calls // 2
    if session.strategy is ON_SESSION_CLOSE:
        held = n_threads * n_calls
    stats = settled_stats(session, lambda st: st.live_buffers == held)
    assert stats.live_buffers == held, stats
    for t in range(n_threads):
        assert len(results[t]) == n_calls // 2
        for i, y in results[t]:
            assert not y.is_deleted(), (t, i)
            np.testing.assert_array_equal(np.asarray(y), np.full(8, (t + 1) * i + 1.0, np.float32))
    session.close()
    assert all(y.is_deleted() for r in results for _, y in r)


# -- reference cycles and the memory budget -----------------------------------


class _Node:
    def __init__(self, arr: jax.Array) -> None:
        self.arr = arr
        self.me = self


@pytest.mark.parametrize("strategy", FREEING, ids=[s.name for s in FREEING])
def test_cycle_held_buffers_reclaimed_when_budget_exceeded(strategy: ResourceCleanupStrategy) -> None:
    unit = 64 * 1024  # bytes of one array
    size = unit // 4
    was_enabled = gc.isenabled()
    gc.disable()  # only the budget may collect the cycle
    try:
        with EagerSession(cleanup=strategy, memory_limit_bytes=3 * unit) as s:
            f = s.jit(lambda x: x + 1)
            x = jnp.zeros(size, jnp.float32)
            node = _Node(f(x))
            ref = weakref.ref(node.arr)
            del node  # now only the cycle holds the array
            # Without the budget being exceeded, sweeps cannot see through the cycle.
            s.sweep()
            if strategy is IN_BACKGROUND:
                time.sleep(0.05)
            assert alive(ref)
            assert s._registry.collections == 0
            # Go past the budget with arrays that stay referenced.
            keep = [f(x) for _ in range(3)]
            assert s._registry.stats().live_bytes > 3 * unit
            if strategy is ON_SAFE_POINTS:
                s.stats()  # the next safe point collects, then sweeps
            assert wait_for(lambda: gone_or_deleted(ref)), s.stats()
            assert s._registry.collections >= 1
            stats = s.stats()
            assert stats.live_buffers == 3
            assert all(not k.is_deleted() for k in keep)
    finally:
        if was_enabled:
            gc.enable()


# -- waiting for a finalizer's close -----------------------------------------


def test_wait_closed_times_out_while_open_then_sees_a_finalizer_close(registry: OwnershipRegistry) -> None:
    x = jnp.ones(3) + 1
    registry.adopt(x)
    assert registry.wait_closed(0.05) is False  # open: nothing to wait for
    registry.close_from_finalizer()  # never blocks; frees on the cleaner or a helper thread
    assert registry.wait_closed(30.0) is True
    assert x.is_deleted()
    assert registry.thread is None or not registry.thread.is_alive()


# -- the C swap_pinned (jaxsess._core.runtime._hot.swap_pinned) against the Python one ------

_SHAPES = [(3,), (5,), (2, 2)]


def _quiet_registry(strategy: ResourceCleanupStrategy, limit: int | None) -> OwnershipRegistry:
    """A registry of ``strategy`` whose cleaner thread (IN_BACKGROUND) is stopped:
    only its safe point sweeps."""
    reg = OwnershipRegistry(strategy, memory_limit_bytes=limit)
    if reg._thread is not None:
        reg._stop = True
        reg._wake.set()
        reg._thread.join()
    return reg


def _registry_state(reg: OwnershipRegistry) -> tuple[Any, ...]:
    return (reg._allocated, reg._freed, reg._live_bytes, reg._peak_bytes, len(reg._owned), len(reg._pending),
            reg._pressure, reg.collections)


_SWAP_SHAPES = [(3,), (5,), (2, 2), (4,)]
_fresh_state = jax.jit(lambda i: tuple(jnp.zeros(s, jnp.float32) + i for s in _SWAP_SHAPES))


@pytest.mark.skipif(jaxsess._core.runtime._graph_session._c_hot is None, reason="the C hot path is off (JAXSESS_C_HOT_PATH=0)")
def test_c_swap_pinned_matches_python() -> None:
    """Random sequences of a stateful run's variable writes (old arrays
    donated or not, a slot written for the first time, one array written to
    two slots, an adopted array pending, a closed registry): a registry whose
    swaps take the C common case (``jaxsess._core.runtime._hot.swap_pinned``) and one that
    runs the Python method it copies end every step with the same counters,
    tables and deleted arrays; the C case is taken, also for an array
    written to two slots, and not always."""
    from hypothesis import HealthCheck, given, settings, strategies as st

    from jaxsess._core.runtime import _resources as _resources

    n = len(_SWAP_SHAPES)
    steps_st = st.lists(
        st.tuples(
            st.one_of(  # which olds the run donated (deleted): often all, as a training step does
                st.just([True] * n), st.lists(st.booleans(), min_size=n, max_size=n)
            ),
            st.sampled_from(["plain", "plain", "first_write", "twice", "pending", "keep_old"]),
        ),
        min_size=1,
        max_size=12,
    )
    taken: list[tuple[str, bool]] = []
    c_swap = _resources._c_swap_pinned
    assert c_swap is not None

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(steps_st)
    def check(steps: list[tuple[list[bool], str]]) -> None:
        regs = [_quiet_registry(ResourceCleanupStrategy.ON_SESSION_CLOSE, None) for _ in range(2)]
        state: list[list[Any]] = [list(_fresh_state(0)) for _ in regs]
        for reg, arrs in zip(regs, state, strict=True):
            for a in arrs:
                reg.pin(a)
        held: list[list[Any]] = [[], []]  # the caller's references (olds not donated, pending arrays)
        for k, (donated, case) in enumerate(steps, start=1):
            for i, reg in enumerate(regs):
                olds: list[Any] = list(state[i])
                news = list(_fresh_state(k))
                for old, gone in zip(olds, donated, strict=True):
                    if gone:
                        old.delete()
                    else:
                        held[i].append(old)
                if case == "first_write":
                    olds[0] = None
                elif case == "twice":
                    news[1] = news[0]
                elif case == "pending":
                    extra = jnp.ones(3) + i
                    reg.adopt_outputs(extra)
                    held[i].append(extra)
                elif case == "keep_old":
                    news[2] = olds[2] if olds[2] is not None and not olds[2].is_deleted() else news[2]
                if i == 0:
                    taken.append((case, bool(c_swap(reg, olds, news))))
                    if not taken[-1][1]:
                        reg._swap_pinned(olds, news)
                else:
                    reg._swap_pinned(olds, news)
                state[i] = news
            assert _registry_state(regs[0]) == _registry_state(regs[1]), (case, donated, steps)
            assert len(regs[0]._pinned) == len(regs[1]._pinned)
            assert [a.is_deleted() for a in held[0]] == [a.is_deleted() for a in held[1]]
        for reg in regs:
            reg.close()
            with pytest.raises(RuntimeError, match="closed Session"):
                reg.swap_pinned([None], [jnp.zeros(3)])
            assert not c_swap(reg, [jnp.zeros(3)], [jnp.zeros(3)])

    check()
    assert {case for case, c in taken if c} >= {"plain", "twice"} and not all(c for _, c in taken)
