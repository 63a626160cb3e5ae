"""Tests of the session API: lifecycle, close, jit/track/detach, stats, defaults.

Parametrised over the three cleanup strategies where behaviour may differ.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
import warnings
import weakref
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxsess
from jaxsess import BaseSession, EagerSession, ResourceCleanupStrategy, SessionStats

CLOSED = "Attempted to use a closed Session."
DEADLINE_S = 5.0


def wait_for(predicate: Callable[[], bool], timeout: float = DEADLINE_S) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() > deadline:
            return predicate()
        time.sleep(0.001)


def cleaner_threads(name: str) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == f"jaxsess-cleaner[{name}]"]


def alive(ref: weakref.ref) -> bool:
    arr = ref()
    return arr is not None and not arr.is_deleted()


def assert_none_live(refs: list[weakref.ref]) -> None:
    """None of the arrays behind ``refs`` is alive and undeleted in JAX."""
    survivors = [a for a in (r() for r in refs) if a is not None]
    assert all(a.is_deleted() for a in survivors)
    live = jax.live_arrays()
    assert not any(a is b for a in survivors for b in live)
    del live, survivors


# -- construction -------------------------------------------------------------


def test_eager_session_is_a_base_session(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy, name="probe") as s:
        assert isinstance(s, BaseSession)
        assert s.strategy is strategy
        assert s.name == "probe"
        assert not s.closed
        assert "probe" in repr(s) and strategy.name in repr(s)


def test_strategy_accepted_by_name(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy.name) as s:
        assert s.strategy is strategy


def test_bad_strategy_lists_valid_names() -> None:
    with pytest.raises(ValueError) as info:
        EagerSession(cleanup="WHENEVER")
    message = str(info.value)
    assert "'WHENEVER'" in message
    for name in ("IN_BACKGROUND", "ON_SAFE_POINTS", "ON_SESSION_CLOSE"):
        assert name in message


def test_bad_config_type() -> None:
    with pytest.raises(TypeError, match="ConfigProto"):
        EagerSession(config={"allow_soft_placement": True})  # type: ignore[arg-type]


def test_jit_of_non_callable_raises_type_error(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        with pytest.raises(TypeError, match="callable"):
            s.jit(42)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="callable"):
            s.jit(jnp.ones(3))  # type: ignore[arg-type]


# -- close --------------------------------------------------------------------


def test_close_deletes_every_owned_array(strategy: ResourceCleanupStrategy) -> None:
    s = EagerSession(cleanup=strategy)
    f = s.jit(lambda x: (x + 1, {"y": x * 2}))
    x = jnp.arange(4.0)
    refs: list[weakref.ref] = []
    escaped = []
    for i in range(30):
        a, b = f(x)
        refs += [weakref.ref(a), weakref.ref(b["y"])]
        if i % 3 == 0:
            escaped.append(a)
    tracked = s.track(jnp.ones(7) * 5)
    refs.append(weakref.ref(tracked))
    s.close()
    assert s.closed
    assert_none_live(refs)
    assert all(a.is_deleted() for a in escaped)
    assert tracked.is_deleted()
    assert not x.is_deleted()  # the user's input is not the session's
    stats = s.stats()  # works after close
    assert stats.closed
    assert stats.live_buffers == 0
    assert stats.live_bytes == 0
    assert stats.freed_buffers == stats.allocated_buffers == 61


def test_escaped_reference_raises_array_deleted_after_close(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        y = s.jit(lambda x: x * 3)(jnp.ones(4))
        np.testing.assert_array_equal(np.asarray(y), np.full(4, 3.0))
    assert y.is_deleted()
    with pytest.raises(RuntimeError, match="Array has been deleted"):
        np.asarray(y)
    with pytest.raises(RuntimeError, match="Array has been deleted"):
        y + 1


def test_detached_array_survives_close(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        f = s.jit(lambda x: (x + 1, x + 2))
        a, b = f(jnp.zeros(3))
        assert s.detach(a) is a
        assert not s.owns(a) and s.owns(b)
        assert s.stats().detached_buffers == 1
    assert not a.is_deleted()
    assert b.is_deleted()
    np.testing.assert_array_equal(np.asarray(a + 1), np.full(3, 2.0))
    assert any(a is live for live in jax.live_arrays())


def test_numpy_view_of_owned_array_stays_valid_after_close(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        y = s.jit(lambda x: x * 2 + 1)(jnp.arange(4096.0))
        view = np.asarray(y)
        del y
    junk = [jnp.full(4096, 7.0) + i for i in range(20)]  # reuse freed memory, if any
    np.testing.assert_array_equal(view, np.arange(4096.0) * 2 + 1)
    del junk


def test_exception_inside_with_releases_everything(strategy: ResourceCleanupStrategy) -> None:
    escaped = []
    with pytest.raises(ZeroDivisionError):
        with EagerSession(cleanup=strategy, name="raises") as s:
            f = s.jit(lambda x: x - 1)
            escaped = [f(jnp.ones(4)) for _ in range(5)]
            1 / 0  # noqa: B018
    assert s.closed
    assert all(a.is_deleted() for a in escaped)
    assert s.stats().live_buffers == 0
    assert jaxsess.get_default_session() is None
    assert EagerSession.get_default() is None
    assert not cleaner_threads("raises")


def test_close_twice_is_fine(strategy: ResourceCleanupStrategy) -> None:
    s = EagerSession(cleanup=strategy)
    y = s.track(jnp.ones(2) + 1)
    s.close()
    s.close()
    assert s.closed
    assert y.is_deleted()
    assert s.stats().freed_buffers == 1


def test_entering_closed_session_raises() -> None:
    s = EagerSession()
    s.close()
    with pytest.raises(RuntimeError) as info:
        with s:
            pass
    assert str(info.value) == CLOSED


def test_cleaner_thread_gone_after_close(strategy: ResourceCleanupStrategy) -> None:
    s = EagerSession(cleanup=strategy, name=f"gone-{strategy.name}")
    thread = s._registry.thread
    if strategy is ResourceCleanupStrategy.IN_BACKGROUND:
        assert thread is not None and thread.is_alive()
        assert cleaner_threads(s.name) == [thread]
    else:
        assert thread is None
        assert not cleaner_threads(s.name)
    s.jit(lambda x: x + 1)(jnp.ones(3))
    s.close()
    assert not cleaner_threads(s.name)
    if thread is not None:
        assert not thread.is_alive()
        assert thread not in threading.enumerate()


@pytest.mark.parametrize(
    "use",
    [
        pytest.param(lambda s, f, x: s.jit(lambda v: v), id="jit"),
        pytest.param(lambda s, f, x: f(x), id="call_jitted"),
        pytest.param(lambda s, f, x: s.track(jnp.ones(2)), id="track"),
        pytest.param(lambda s, f, x: s.detach(x), id="detach"),
        pytest.param(lambda s, f, x: s.sweep(), id="sweep"),
        pytest.param(lambda s, f, x: s.__enter__(), id="enter"),
    ],
)
def test_use_after_close_raises_tf1_message(
    strategy: ResourceCleanupStrategy, use: Callable[..., object]
) -> None:
    s = EagerSession(cleanup=strategy)
    f = s.jit(lambda v: v + 1)
    x = f(jnp.ones(3))
    s.close()
    with pytest.raises(RuntimeError) as info:
        use(s, f, x)
    assert str(info.value) == CLOSED


# -- jit ------------------------------------------------------------------------


def test_jit_does_not_adopt_forwarded_inputs(strategy: ResourceCleanupStrategy) -> None:
    x = jnp.arange(3.0)
    with EagerSession(cleanup=strategy) as s:
        ident = s.jit(lambda v: v)
        y = ident(x)
        assert not s.owns(x)
        p, q = s.jit(lambda a, b: (a, b + 1))(x, x)
        assert not s.owns(x)
        z = s.jit(lambda d: d["v"])({"v": x})
        assert not s.owns(x)
        del y, p, q, z
        s.sweep()
        assert not x.is_deleted()
    assert not x.is_deleted()
    np.testing.assert_array_equal(np.asarray(x + 1), [1.0, 2.0, 3.0])


def test_jit_does_not_adopt_closed_over_arrays(strategy: ResourceCleanupStrategy) -> None:
    const = jnp.arange(3.0) + 1
    with EagerSession(cleanup=strategy) as s:
        out = s.jit(lambda v: (const, v + const))(jnp.ones(3))
        only = s.jit(lambda: const)()
        assert not s.owns(const)
        del out, only
        s.sweep()
    assert not const.is_deleted()
    np.testing.assert_array_equal(np.asarray(const), [1.0, 2.0, 3.0])


def test_jit_owns_outputs_and_keeps_values(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        f = s.jit(lambda x: {"sum": x.sum(), "sq": x**2, "n": 3})
        out = f(jnp.arange(4.0))
        assert s.owns(out["sum"]) and s.owns(out["sq"])
        assert out["n"] == 3
        assert float(out["sum"]) == 6.0
        np.testing.assert_array_equal(np.asarray(out["sq"]), [0.0, 1.0, 4.0, 9.0])
        assert f.__name__ == "<lambda>"
        assert "stablehlo" in f.lower(jnp.arange(4.0)).as_text()  # type: ignore[attr-defined]
        shape = f.eval_shape(jnp.arange(4.0))  # type: ignore[attr-defined]
        assert shape["sq"].shape == (4,)


def test_jit_calls_own_outputs_count_donations_and_translate_errors(strategy: ResourceCleanupStrategy) -> None:
    """A session.jit function (``session.wrap(jax.jit(fn))``, positional or
    keyword calls) adopts fresh outputs (one array, a pytree), never a
    forwarded input, counts a donated input freed at the call, translates a
    device out-of-memory error, and raises the closed-session error after
    close."""
    x = jnp.arange(3.0)
    s = EagerSession(cleanup=strategy)
    jit = s.jit

    one = jit(lambda v: v * 2.0)(x)
    tree = jit(lambda v: {"a": v + 1.0, "b": (v, 3)})(x)
    assert s.owns(one) and s.owns(tree["a"]) and not s.owns(x) and tree["b"][1] == 3
    assert jit(lambda v: v)(x) is not None and not s.owns(x)
    kw = jit(lambda v, scale: v * scale)(x, scale=4.0)
    assert s.owns(kw) and float(kw[1]) == 4.0
    donor = jit(lambda: jnp.ones(8))()
    s.sweep()  # what was dropped so far
    freed = s.stats().freed_buffers
    out = jit(lambda v: v + 1.0, donate_argnums=0)(donor)
    assert donor.is_deleted() and s.owns(out)
    assert s.stats().freed_buffers == freed + 1  # at the call, not at a later sweep
    del donor
    s.sweep()
    assert s.stats().freed_buffers == freed + 1

    def oom(v: Any) -> Any:
        raise jax.errors.JaxRuntimeError("RESOURCE_EXHAUSTED: Out of memory allocating 8 bytes.")

    f = s.jit(lambda v: v)
    call: Any = f
    py = getattr(call, "_python", call)  # the C twin (WrapCall) calls its _fn; its Python path, the closure's
    cell = next(c for c in py.__closure__ if c.cell_contents is f.jitted)
    cell.cell_contents = oom
    if py is not call:
        call._fn = oom
    with pytest.raises(jaxsess.errors.ResourceExhaustedError, match="Device out of memory") as info:
        call(x)
    assert isinstance(info.value.__cause__, jax.errors.JaxRuntimeError)
    with pytest.raises(TypeError, match="incompatible shapes"):
        jit(lambda a, b: a + b)(jnp.ones(2), jnp.ones(5))
    assert s._registry.inflight == []  # a failed call leaves nothing in flight
    g = jit(lambda v: v + 1.0)
    s.close()
    assert one.is_deleted() and tree["a"].is_deleted() and not x.is_deleted()
    with pytest.raises(RuntimeError, match="^Attempted to use a closed Session.$"):
        g(x)
    assert s._registry.inflight == []


def test_jit_forwards_jit_kwargs(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        f = s.jit(lambda x, n: x * n, static_argnums=1)
        y = f(jnp.ones(2), 3)
        assert s.owns(y)
        np.testing.assert_array_equal(np.asarray(y), [3.0, 3.0])


def test_jit_donation_counts_donated_input_as_freed(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        x = s.jit(lambda: jnp.ones(1024, jnp.float32))()
        assert s.owns(x)
        double = s.jit(lambda v: v * 2, donate_argnums=0)
        y = double(x)  # with filterwarnings=error: no "donated buffers not usable"
        assert x.is_deleted()
        s.stats()  # must not raise on the donated (deleted) array
        del x
        s.sweep()
        stats = s.stats()
        assert stats.freed_buffers == 1
        assert stats.live_buffers == 1
        assert stats.live_bytes == y.nbytes
        np.testing.assert_array_equal(np.asarray(y), np.full(1024, 2.0))
    assert s.stats().freed_buffers == 2


def test_jit_donation_of_held_input_is_freed_at_close(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        x = s.track(jnp.ones(16) + 1)
        y = s.jit(lambda v: v + 1, donate_argnums=0)(x)
        assert x.is_deleted() and not y.is_deleted()
    stats = s.stats()
    assert stats.freed_buffers == stats.allocated_buffers == 2
    assert stats.live_bytes == 0


# -- track / detach -------------------------------------------------------------


def test_track_adopts_leaves_and_returns_tree(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        tree: dict[str, Any] = {"a": jnp.ones(2) + 1, "b": [jnp.zeros(3) + 1, 7, "text"], "c": np.ones(2)}
        assert s.track(tree) is tree
        assert s.owns(tree["a"]) and s.owns(tree["b"][0])
        assert not s.owns(tree["c"])
        stats = s.stats()
        assert stats.live_buffers == 2
        assert stats.live_bytes == 2 * 4 + 3 * 4
    assert tree["a"].is_deleted() and tree["b"][0].is_deleted()


def test_tracked_arrays_freed_when_dropped(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        ref = weakref.ref(s.track(jnp.ones(5) + 1))
        if strategy is ResourceCleanupStrategy.IN_BACKGROUND:
            assert wait_for(lambda: s.stats().live_buffers == 0)
        elif strategy is ResourceCleanupStrategy.ON_SAFE_POINTS:
            assert s.stats().live_buffers == 0  # stats() is a safe point
        else:
            assert s.stats().live_buffers == 1
            assert alive(ref)


def test_detach_tree_and_errors(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy, name="det") as s:
        owned = s.track({"w": jnp.ones(2) + 1, "b": jnp.zeros(4, jnp.int32) + 1})
        assert s.detach(owned) is owned
        assert not s.owns(owned["w"]) and not s.owns(owned["b"])
        assert s.stats().detached_buffers == 2
        assert s.stats().live_buffers == 0
        stranger = jnp.ones((2, 3), jnp.float32)
        with pytest.raises(ValueError) as info:
            s.detach({"ok": s.track(jnp.ones(1) + 1), "bad": [stranger]})
        message = str(info.value)
        assert "['bad'][0]" in message
        assert "float32[2, 3]" in message
        assert "'det'" in message
        # Nothing was detached by the failed call.
        assert s.stats().detached_buffers == 2
        with pytest.raises(ValueError, match="<root>"):
            s.detach(stranger)
    assert not owned["w"].is_deleted() and not owned["b"].is_deleted()
    assert not stranger.is_deleted()


def test_detach_then_track_again(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        y = s.track(jnp.ones(3) + 1)
        s.detach(y)
        s.track(y)
        assert s.owns(y)
    assert y.is_deleted()


# -- stats ------------------------------------------------------------------------


def test_stats_per_device_breakdown(strategy: ResourceCleanupStrategy) -> None:
    devices = jax.devices()
    assert len(devices) == 8  # conftest: jax_num_cpu_devices=8
    with EagerSession(cleanup=strategy) as s:
        on3 = s.track(jax.device_put(jnp.arange(10, dtype=jnp.float32), devices[3]))
        on0 = s.track(jnp.ones(6, jnp.int32) + 1)
        stats = s.stats()
        assert isinstance(stats, SessionStats)
        assert str(devices[3]) in stats.devices
        assert stats.devices[str(devices[3])] == jaxsess.DeviceStats(live_buffers=1, live_bytes=40)
        assert stats.devices[str(next(iter(on0.sharding.device_set)))].live_bytes == 24
        assert stats.live_bytes == 64
        assert stats.peak_bytes >= 64
        assert sum(d.live_buffers for d in stats.devices.values()) == stats.live_buffers == 2
        del on3, on0


def test_stats_peak_bytes_tracks_maximum(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        big = s.track(jnp.ones(1000, jnp.float32) + 1)
        small = s.track(jnp.ones(10, jnp.float32) + 1)
        s.detach(big)
        stats = s.stats()
        assert stats.live_bytes == 40
        assert stats.peak_bytes == 4040
        assert stats.allocated_buffers == 2
        del small


# -- garbage collection of an unclosed session -------------------------------------


def test_gc_of_unclosed_session_warns_and_releases(strategy: ResourceCleanupStrategy) -> None:
    s = EagerSession(cleanup=strategy, name=f"leaky-{strategy.name}")
    f = s.jit(lambda x: x + 1)
    escaped = f(jnp.ones(3))
    registry = s._registry
    ref = weakref.ref(s)
    with pytest.warns(ResourceWarning, match="garbage-collected without close"):
        del s, f
        gc.collect()
    assert ref() is None
    # The finalizer never blocks: the cleaner (or a helper thread) frees and exits on its own.
    assert registry.wait_closed(30.0)
    assert registry.thread is None or not registry.thread.is_alive()
    assert escaped.is_deleted()
    assert not cleaner_threads(f"leaky-{strategy.name}")


def test_gc_of_unclosed_session_releases_even_if_warning_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unraisable: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    s = EagerSession(name="leaky-error")
    registry = s._registry
    escaped = s.jit(lambda x: x + 1)(jnp.ones(3))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", ResourceWarning)
            del s
            gc.collect()
        assert registry.closed
        assert registry.wait_closed(30.0)
        assert escaped.is_deleted()
        assert not cleaner_threads("leaky-error")
    finally:
        registry.close()  # do not leave a polling cleaner behind for the other tests


# -- default sessions -----------------------------------------------------------------


def test_get_default_inside_and_outside_with(strategy: ResourceCleanupStrategy) -> None:
    assert EagerSession.get_default() is None
    assert jaxsess.get_default_session() is None
    with EagerSession(cleanup=strategy) as s:
        assert EagerSession.get_default() is s
        assert jaxsess.get_default_session() is s
    assert EagerSession.get_default() is None
    assert jaxsess.get_default_session() is None


def test_nested_sessions(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy, name="outer") as outer:
        a = outer.track(jnp.ones(2) + 1)
        with EagerSession(cleanup=ResourceCleanupStrategy.ON_SESSION_CLOSE, name="inner") as inner:
            assert EagerSession.get_default() is inner
            assert jaxsess.get_default_session() is inner
            b = inner.track(jnp.ones(2) + 2)
            assert inner.owns(b) and not outer.owns(b)
            assert outer.owns(a) and not inner.owns(a)
        assert b.is_deleted()
        assert not a.is_deleted()  # closing the inner session left the outer's arrays alone
        assert EagerSession.get_default() is outer
        assert jaxsess.get_default_session() is outer
    assert a.is_deleted()
    assert EagerSession.get_default() is None


def test_as_default_does_not_close(strategy: ResourceCleanupStrategy) -> None:
    s = EagerSession(cleanup=strategy)
    try:
        with s.as_default() as entered:
            assert entered is s
            assert EagerSession.get_default() is s
        assert EagerSession.get_default() is None
        assert not s.closed
        s.track(jnp.ones(1) + 1)
    finally:
        s.close()


def test_default_session_is_thread_local() -> None:
    seen: list[object] = []
    with EagerSession() as s:
        th = threading.Thread(target=lambda: seen.append(EagerSession.get_default()))
        th.start()
        th.join()
        assert EagerSession.get_default() is s
    assert seen == [None]
