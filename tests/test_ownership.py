"""The ownership rule: what a session owns, what it never deletes, and how
``session.jit`` composes with JAX's transforms.

Each reproducer of issues 11 and 12 (``shared/repro/``) has a test here that
fails on the code before the one adoption rule. Deadlines are polls (a bound,
never a timing assertion).
"""

from __future__ import annotations

import gc
import threading
import warnings
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st
from jax.sharding import Mesh, PartitionSpec

import jaxsess
from jaxsess import EagerSession, ResourceCleanupStrategy, errors
from jaxsess._core.runtime._resources import OwnershipRegistry, adoptable, buffer_keys
from jaxsess._core.runtime._session import _release_unclosed

STRATEGIES = list(ResourceCleanupStrategy)
FREEING = [ResourceCleanupStrategy.IN_BACKGROUND, ResourceCleanupStrategy.ON_SAFE_POINTS]


def _double(v: jax.Array) -> jax.Array:
    return v * 2.0


def _forward_first(a: jax.Array, b: jax.Array) -> tuple[jax.Array, jax.Array]:
    return a, b + 1.0


# -- the rule ------------------------------------------------------------------


def test_rule_never_adopts_inputs_aliases_tracers_or_non_arrays() -> None:
    user = jnp.arange(3.0)
    alias = jax.device_put(user, jax.devices()[0])
    new = user + 1
    assert alias is not user and set(buffer_keys(alias)) == set(buffer_keys(user))
    assert adoptable((user, alias, new, np.ones(2), 1.0, "s"), inputs=[user]) == [new]
    seen: list[list[Any]] = []
    jax.jit(lambda v: seen.append(adoptable(v * 2)) or v)(user)
    assert seen == [[]]  # a tracer is never adopted


@pytest.mark.parametrize("strategy", STRATEGIES, ids=[s.name for s in STRATEGIES])
def test_jit_forwarded_input_is_not_adopted(strategy: ResourceCleanupStrategy) -> None:
    # Whether jax.jit copies an input it returns or hands back its buffer, the
    # session owns the result only when it is a buffer of its own.
    user = jnp.arange(3.0)
    with EagerSession(cleanup=strategy) as s:
        a, b = s.jit(_forward_first)(user, user)
        assert s.owns(a) == set(buffer_keys(a)).isdisjoint(buffer_keys(user))
        assert s.owns(b)
        del a
        s.sweep()
    assert not user.is_deleted()
    np.testing.assert_array_equal(np.asarray(user), [0.0, 1.0, 2.0])


def test_eager_variable_never_takes_the_callers_array() -> None:
    # repro eager_variable_deletes_user_array.py
    ua, ub, uc = jnp.arange(3.0), jnp.arange(3.0), jnp.arange(3.0)
    with EagerSession() as s:
        v = jaxsess.Variable(ua)
        assert not s.owns(ua)
        np.testing.assert_array_equal(np.asarray(v.value()), [0.0, 1.0, 2.0])
    with EagerSession() as s:
        w = jaxsess.Variable(jnp.zeros(3))
        w.assign(ub)
        assert not s.owns(ub)
    with EagerSession():
        jaxsess.get_variable("gv", initializer=uc)
    for u in (ua, ub, uc):
        assert not u.is_deleted()
        np.testing.assert_array_equal(np.asarray(u), [0.0, 1.0, 2.0])


def test_graph_run_never_adopts_a_fed_array(sess: jaxsess.Session) -> None:
    p = jaxsess.placeholder(jaxsess.float32, [3])
    out = jaxsess.identity(p)
    user = jnp.arange(3.0)
    np.testing.assert_array_equal(np.asarray(sess.run(out, {p: user})), [0.0, 1.0, 2.0])
    sess.close()
    assert not user.is_deleted()


# Producers for the property test. Each takes (session, pool array) and returns
# (outputs, inputs the caller passed in).
def _p_jit_new(s: EagerSession, x: jax.Array) -> tuple[Any, Any]:
    return s.jit(_double)(x), x


def _p_jit_forward(s: EagerSession, x: jax.Array) -> tuple[Any, Any]:
    return s.jit(_forward_first)(x, x), x


def _p_eager_op(s: EagerSession, x: jax.Array) -> tuple[Any, Any]:
    return jaxsess.add(x, x), x


def _p_eager_identity(s: EagerSession, x: jax.Array) -> tuple[Any, Any]:
    return jaxsess.identity(x), x


def _p_variable(s: EagerSession, x: jax.Array) -> tuple[Any, Any]:
    return jaxsess.Variable(x).value(), x


def _p_track(s: EagerSession, x: jax.Array) -> tuple[Any, Any]:
    return s.track(x + 0.5), ()


PRODUCERS = [_p_jit_new, _p_jit_forward, _p_eager_op, _p_eager_identity, _p_variable, _p_track]


@hsettings(max_examples=25, deadline=None)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(PRODUCERS), st.integers(0, 50), st.booleans()), min_size=1, max_size=8
    ),
    strategy=st.sampled_from(STRATEGIES),
)
def test_property_every_producer_owns_only_what_it_created(
    steps: list[tuple[Any, int, bool]], strategy: ResourceCleanupStrategy
) -> None:
    user = [jnp.arange(3.0), jnp.ones(3)]
    with EagerSession(cleanup=strategy) as s:
        pool = list(user)
        for producer, pick, alias in steps:
            x = pool[pick % len(pool)]
            if alias and not x.is_deleted():  # the user makes an unowned alias of it
                x = jax.device_put(x, jax.devices()[0])
                user.append(x)
            outs, _ = producer(s, x)
            for o in jax.tree_util.tree_leaves(outs):
                shares_user = any(not set(buffer_keys(o)).isdisjoint(buffer_keys(u)) for u in user)
                if shares_user:
                    assert not s.owns(o)  # an input, or an alias of one
                pool.append(o)
        s.sweep()
        for u in user:
            assert not u.is_deleted()
    for u in user:  # close deletes nothing the user made, nor its aliases
        assert not u.is_deleted()
        np.asarray(u)


@hsettings(max_examples=15, deadline=None)
@given(
    feeds=st.lists(st.sampled_from(["user", "alias", "numpy"]), min_size=1, max_size=3),
    fetch_identity=st.booleans(),
    strategy=st.sampled_from(STRATEGIES),
)
def test_property_graph_run_owns_only_what_it_created(
    feeds: list[str], fetch_identity: bool, strategy: ResourceCleanupStrategy
) -> None:
    user = [jnp.arange(3.0) + i for i in range(len(feeds))]
    g = jaxsess.Graph()
    with g.as_default():
        ps = [jaxsess.placeholder(jaxsess.float32, [3]) for _ in feeds]
        v = jaxsess.Variable(np.zeros(3, np.float32))
        outs = [jaxsess.identity(p) if fetch_identity else p * 2.0 for p in ps]
        step = v.assign_add(ps[0])
        init = jaxsess.global_variables_initializer()
    s = jaxsess.Session(graph=g, cleanup=strategy)
    s.run(init)
    values: list[Any] = []
    for kind, u in zip(feeds, user, strict=True):
        values.append(np.asarray(u) if kind == "numpy" else jax.device_put(u, jax.devices()[0]) if kind == "alias" else u)
    results = s.run([outs, step], dict(zip(ps, values, strict=True)))
    for r in jax.tree_util.tree_leaves(results):
        if isinstance(r, jax.Array):
            assert not any(not set(buffer_keys(r)).isdisjoint(buffer_keys(u)) and s.owns(r) for u in user)
    s.close()
    for u, val in zip(user, values, strict=True):
        assert not u.is_deleted()
        if isinstance(val, jax.Array):
            assert not val.is_deleted()


# -- per device buffer (issue 12 item 2) -------------------------------------------


@pytest.mark.parametrize(
    "make_alias",
    [
        lambda x: jax.device_put(x, jax.devices()[0]),
        lambda x: x.addressable_data(0),
        lambda x: jax.make_array_from_single_device_arrays(x.shape, x.sharding, [x]),
    ],
    ids=["device_put", "addressable_data", "make_array_from_single_device_arrays"],
)
@pytest.mark.parametrize("strategy", STRATEGIES, ids=[s.name for s in STRATEGIES])
def test_unowned_alias_survives_sweeps_and_close(strategy: ResourceCleanupStrategy, make_alias: Any) -> None:
    # repro 13_device_put_alias_deleted_by_sweep.py
    s = EagerSession(cleanup=strategy)
    y = make_alias(s.jit(_double)(jnp.arange(4.0)))
    assert not s.owns(y)
    s.sweep()  # the owned original is unreferenced now
    assert not y.is_deleted()
    np.testing.assert_array_equal(np.asarray(y + 1), [1.0, 3.0, 5.0, 7.0])
    kept = s.jit(_double)(jnp.ones(2))
    alias_of_kept = make_alias(kept)
    s.close()
    assert kept.is_deleted() is False  # its buffer is shared with an unowned alias
    np.testing.assert_array_equal(np.asarray(alias_of_kept), [2.0, 2.0])
    np.testing.assert_array_equal(np.asarray(y), [0.0, 2.0, 4.0, 6.0])


def test_close_still_deletes_referenced_owned_arrays() -> None:
    s = EagerSession()
    x = s.jit(_double)(jnp.ones(2))
    printed = s.jit(_double)(jnp.ones(2))
    repr(printed)  # NumPy conversion caches a per-shard alias inside the array itself
    s.close()
    assert x.is_deleted()
    assert printed.is_deleted()


def test_track_refuses_an_alias_of_another_sessions_array() -> None:
    a = EagerSession(cleanup="ON_SESSION_CLOSE")
    b = EagerSession(cleanup="ON_SESSION_CLOSE")
    try:
        x = a.jit(lambda v: v + 1)(jnp.ones(3))
        with pytest.raises(ValueError, match="shares its device buffer"):
            b.track(jax.device_put(x, jax.devices()[0]))
        b.close()
        assert not x.is_deleted()
        np.testing.assert_array_equal(np.asarray(x), [2.0, 2.0, 2.0])
    finally:
        a.close()
        b.close()


# -- composes with JAX (issue 11 item 2) -------------------------------------------


@pytest.mark.parametrize("strategy", STRATEGIES, ids=[s.name for s in STRATEGIES])
def test_session_jit_under_jax_transforms(strategy: ResourceCleanupStrategy) -> None:
    x = jnp.arange(4.0)
    want = np.sin(np.arange(4.0, dtype=np.float32))
    with EagerSession(cleanup=strategy) as s:
        h = s.jit(jnp.sin)
        np.testing.assert_allclose(np.asarray(jax.vmap(h)(x)), want, rtol=1e-6)
        np.testing.assert_allclose(np.asarray(jax.grad(lambda v: h(v).sum())(x)), np.cos(np.arange(4.0)), rtol=1e-6)
        np.testing.assert_allclose(np.asarray(jax.jit(lambda v: h(v))(x)), want, rtol=1e-6)
        carry, ys = jax.lax.scan(lambda c, v: (c + h(v), h(v)), 0.0, x)
        np.testing.assert_allclose(np.asarray(ys), want, rtol=1e-6)
        np.testing.assert_allclose(np.asarray(jax.checkpoint(h)(x)), want, rtol=1e-6)
        mesh = Mesh(np.array(jax.devices()[:2]), ("i",))
        sm = jax.shard_map(h, mesh=mesh, in_specs=PartitionSpec("i"), out_specs=PartitionSpec("i"))
        np.testing.assert_allclose(np.asarray(sm(x)), want, rtol=1e-6)
        stats = s.stats()
        assert stats.live_buffers == 0 and stats.allocated_buffers == 0  # no tracer was adopted
        out = h(x)  # outside a trace: owned
        assert s.owns(out)


def test_session_jit_is_a_decorator_factory() -> None:
    with EagerSession() as s:

        @s.jit(static_argnums=1)
        def scale(a: jax.Array, n: int) -> jax.Array:
            return a * n

        out = scale(jnp.ones(2), 3)
        assert s.owns(out)
        np.testing.assert_array_equal(np.asarray(out), [3.0, 3.0])

        donate = s.jit(donate_argnums=0)(_double)
        np.testing.assert_array_equal(np.asarray(donate(jnp.ones(2))), [2.0, 2.0])


# -- failure paths (issue 11 item 4, issue 12 items 3, 7) ---------------------------


def test_feed_that_fails_its_checks_leaves_no_plan(sess: jaxsess.Session) -> None:
    p = jaxsess.placeholder(jaxsess.float32, [2])
    y = p * 2.0
    with pytest.raises(ValueError, match="Cannot feed value of shape"):
        sess.run(y, {p: np.ones(3, np.float32)})
    assert sess._plans == {}
    np.testing.assert_array_equal(np.asarray(sess.run(y, {p: np.ones(2, np.float32)})), [2.0, 2.0])


class _GcInsideWait(threading.Event):
    """An Event whose wait() runs a finalizer while holding its own lock: what
    the cyclic collector does when it fires on the cleaner thread there."""

    def __init__(self, finalizer: Any) -> None:
        super().__init__()
        self.finalizer: Any = finalizer

    def wait(self, timeout: float | None = None) -> bool:
        with self._cond:  # type: ignore[attr-defined]
            finalizer, self.finalizer = self.finalizer, None
            if finalizer is not None:
                finalizer()
        return super().wait(timeout)


def test_finalizer_on_the_cleaner_thread_never_blocks() -> None:
    # repro 14_gc_finalizer_on_cleaner_thread_deadlock.py, made deterministic.
    s = EagerSession()
    f = s.jit(lambda v: v + 1)
    xs = [f(jnp.ones(4)) for _ in range(5)]
    registry = s._registry
    thread = registry.thread
    assert thread is not None

    def finalize() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            _release_unclosed(registry, "EagerSession 'gc'")

    registry._wake = _GcInsideWait(finalize)
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert registry.closed
    assert all(x.is_deleted() for x in xs)
    s._finalizer.detach()


def test_finalizer_warning_counts_pending_buffers() -> None:
    s = EagerSession(cleanup="ON_SESSION_CLOSE")
    x = s.jit(_double)(jnp.ones(2))  # adopted, still pending
    with pytest.warns(ResourceWarning, match="releasing the 1 device buffers"):
        del s
        gc.collect()
    assert x.is_deleted()


def test_cleaner_thread_logs_counts_and_survives_an_exception(caplog: pytest.LogCaptureFixture) -> None:
    with EagerSession() as s:
        registry = s._registry
        real = registry.sweep
        calls = {"n": 0}
        done = threading.Event()

        def failing_once(**kwargs: Any) -> int:
            if threading.current_thread() is registry.thread:
                calls["n"] += 1
                if calls["n"] == 1:
                    raise OSError("boom")
                done.set()
            return real(**kwargs)

        registry.sweep = failing_once  # type: ignore[method-assign]
        with pytest.warns(RuntimeWarning, match="cleaner thread caught OSError: boom"):
            f = s.jit(_double)
            for _ in range(3):
                f(jnp.ones(2))
            assert done.wait(30)
        del registry.sweep
        assert s.stats().cleaner_errors == 1
        assert registry.thread is not None and registry.thread.is_alive()
    assert any("sweep failed" in r.message for r in caplog.records)


def test_close_racing_session_jit_callers_get_the_closed_session_error(capfd: pytest.CaptureFixture[str]) -> None:
    messages = set()
    for i in range(100):
        s = EagerSession(cleanup=STRATEGIES[i % 3])
        f = s.jit(lambda a: a * 1.5 + 1)
        box = [f(jnp.ones(16))]
        started = threading.Event()

        def work(f: Any, box: list[Any], started: threading.Event) -> None:
            try:
                while True:
                    box[0] = f(box[0])
                    started.set()
            except Exception as e:  # noqa: BLE001 - what the caller sees
                messages.add(f"{type(e).__name__}: {e}")
                started.set()

        t = threading.Thread(target=work, args=(f, box, started))
        t.start()
        started.wait()
        s.close()
        t.join()
    assert messages == {"RuntimeError: Attempted to use a closed Session."}
    # close() waited for the calls in flight: XLA never ran on a deleted buffer
    # (it logs "Buffer has been deleted or donated" from C++ when it does).
    assert "deleted or donated" not in capfd.readouterr().err


def test_second_close_returns_only_once_closed() -> None:
    s = EagerSession()
    x = s.jit(_double)(jnp.ones(2))
    registry = s._registry
    entered = threading.Event()
    release = threading.Event()
    real_free = registry._free_all

    def slow_free() -> None:
        entered.set()
        release.wait(30)
        real_free()

    registry._free_all = slow_free  # type: ignore[method-assign]
    first = threading.Thread(target=s.close)
    first.start()
    assert entered.wait(30)
    second_done = threading.Event()
    second = threading.Thread(target=lambda: (s.close(), second_done.set()))
    second.start()
    assert not second_done.wait(0.05)  # still waiting for the first close
    release.set()
    first.join(30)
    second.join(30)
    assert second_done.is_set() and x.is_deleted() and s.stats().closed


def test_eager_op_cache_is_dropped_at_close() -> None:
    s = EagerSession()
    with s:
        jaxsess.add(jnp.ones(2), jnp.ones(2))
        assert len(s._op_cache) == 1
    assert s._op_cache == {}


def test_device_out_of_memory_is_resource_exhausted_with_what_the_session_owns() -> None:
    with EagerSession(cleanup="ON_SESSION_CLOSE") as s:
        big = s.jit(lambda v: jnp.zeros(1024) + v)(jnp.ones(()))

        def oom(*args: Any, **kwargs: Any) -> Any:
            raise jax.errors.JaxRuntimeError("RESOURCE_EXHAUSTED: Out of memory allocating 1 bytes.")

        g = s.jit(lambda v: v)
        with pytest.raises(errors.ResourceExhaustedError, match=r"owns 1 live buffers, 4096 bytes.*float32\[1024\]"):
            _call_with(g, oom, big)


def _call_with(wrapper: Any, replacement: Any, *args: Any) -> Any:
    # Runs `wrapper` with its jax.jit function replaced: the session.wrap call
    # closes over it; its C twin (WrapCall) calls its _fn.
    py = getattr(wrapper, "_python", wrapper)
    cell = next(c for c in py.__closure__ if c.cell_contents is wrapper.jitted)
    cell.cell_contents = replacement
    if py is not wrapper:
        wrapper._fn = replacement
    return wrapper(*args)


# -- bounded bookkeeping (issue 12 item 4) -------------------------------------------


@pytest.mark.parametrize("strategy", STRATEGIES, ids=[s.name for s in STRATEGIES])
def test_session_jit_wrappers_do_not_accumulate(strategy: ResourceCleanupStrategy) -> None:
    # repro session_jit_wrappers_accumulate.py
    x = jnp.ones(3)
    with EagerSession(cleanup=strategy) as s:
        for _ in range(300):
            s.jit(_double)(x)
        gc.collect()
        if strategy is not ResourceCleanupStrategy.ON_SESSION_CLOSE:
            assert s.stats().bookkeeping_entries < 50
        else:  # holds its outputs until close, but not the wrappers
            assert s.stats().bookkeeping_entries == s.stats().live_buffers


def test_registry_close_is_idempotent_and_counts(registry_factory: Any = OwnershipRegistry) -> None:
    reg = registry_factory(ResourceCleanupStrategy.ON_SAFE_POINTS)
    a, b = jnp.ones(2), jnp.ones(3)  # held: the registry holds them weakly
    reg.adopt_outputs((a, b))
    assert reg.live_count() == 2
    reg.close()
    reg.close()
    assert reg.stats().freed_buffers == 2 and reg.live_count() == 0


@pytest.mark.parametrize("strategy", FREEING, ids=[s.name for s in FREEING])
def test_a_sweep_frees_the_buffers_of_dropped_outputs(strategy: ResourceCleanupStrategy) -> None:
    x = jnp.ones(3)
    with EagerSession(cleanup=strategy) as s:
        f = s.jit(_double)
        f(x)
        s.sweep()
        before = len(jax.live_arrays())
        for _ in range(10):
            y = f(x)
            repr(y)  # with the per-shard alias NumPy conversion caches inside it
        del y
        s.sweep()
        assert len(jax.live_arrays()) == before
        assert s.stats().live_buffers == 0


def test_shape_inference_cache_never_returns_a_dead_tensors_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    # An op attribute holding a Tensor was cached under id(tensor); a new
    # tensor reusing that id got the old tensor's shape. Every id() is made
    # to collide here, as a reused id does.
    from jaxsess._core.graph import _registry as _registry

    monkeypatch.setattr(_registry, "id", lambda _x: 7, raising=False)
    op_type = "TestOwnershipZerosLike"
    monkeypatch.setitem(_registry.REGISTRY, op_type, None)  # removed again after the test
    del _registry.REGISTRY[op_type]

    @_registry.register_op(op_type)
    def _zeros_like_attr(*, like: Any) -> jax.Array:
        return jnp.zeros(like.shape.as_list(), jnp.float32)

    op_def = _registry.REGISTRY[op_type]
    g = jaxsess.Graph()
    with g.as_default():
        first = jaxsess.zeros([2])
        second = jaxsess.zeros([5, 3])
    specs = _registry.infer_output_specs(op_def, [], {"like": first})
    assert specs[0][0].as_list() == [2]
    specs = _registry.infer_output_specs(op_def, [], {"like": second})
    assert specs[0][0].as_list() == [5, 3]
