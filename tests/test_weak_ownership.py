"""Ownership by weak reference (issue 31): a session never holds memory plain
JAX would have freed; ``close()`` deletes what it owns, every shard of it;
``session.wrap`` owns the outputs of any callable (Equinox's ``filter_jit``,
AOT-compiled calls), never its inputs; stats say what holds memory."""

from __future__ import annotations

import weakref
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from jaxsess import EagerSession, ResourceCleanupStrategy

IN_BACKGROUND = ResourceCleanupStrategy.IN_BACKGROUND
ON_SAFE_POINTS = ResourceCleanupStrategy.ON_SAFE_POINTS
ON_SESSION_CLOSE = ResourceCleanupStrategy.ON_SESSION_CLOSE
ALL = list(ResourceCleanupStrategy)
FREEING = [IN_BACKGROUND, ON_SAFE_POINTS]


def _live_bytes() -> int:
    return sum(a.nbytes for a in jax.live_arrays() if not a.is_deleted())


def _mlp_loop(step: Any, steps: int) -> tuple[list[float], int, int]:
    """The optax MLP 784-512-512-10 + Adam loop of the issue, ``p, s, l =
    step(p, s, x, y)`` with ``block_until_ready`` each step. Returns the
    losses, the peak of live device bytes (``jax.live_arrays()``) over the
    loop, measured after each step, and the bytes live before it."""
    optax = pytest.importorskip("optax")
    k = jax.random.split(jax.random.PRNGKey(0), 4)
    sizes = [784, 512, 512, 10]
    params = [
        (jax.random.normal(k[i], (a, b)) * 0.05, jnp.zeros(b)) for i, (a, b) in enumerate(zip(sizes, sizes[1:]))
    ]
    opt = optax.adam(1e-3)
    state = opt.init(params)
    x = jax.random.normal(k[3], (32, 784))
    y = jax.nn.one_hot(jnp.arange(32) % 10, 10)
    base = _live_bytes()
    peak = 0
    losses = []
    for _ in range(steps):
        params, state, loss = step(params, state, x, y)
        jax.block_until_ready((params, state, loss))
        losses.append(float(loss))
        peak = max(peak, _live_bytes())
        del loss
    return losses, peak, base


def _make_step() -> Any:
    optax = pytest.importorskip("optax")
    opt = optax.adam(1e-3)

    def step(p: Any, s: Any, x: jax.Array, y: jax.Array) -> Any:
        def loss_fn(p: Any) -> jax.Array:
            h = x
            for w, b in p[:-1]:
                h = jax.nn.relu(h @ w + b)
            w, b = p[-1]
            return optax.softmax_cross_entropy(h @ w + b, y).mean()

        loss, g = jax.value_and_grad(loss_fn)(p)
        upd, s = opt.update(g, s, p)
        return optax.apply_updates(p, upd), s, loss

    return step


@pytest.mark.parametrize("strategy", FREEING, ids=[s.name for s in FREEING])
def test_training_loop_peak_is_plain_jax_peak(strategy: ResourceCleanupStrategy) -> None:
    step = _make_step()
    plain_losses, plain_peak, _ = _mlp_loop(jax.jit(step), 20)
    with EagerSession(cleanup=strategy) as s:
        losses, peak, _ = _mlp_loop(s.jit(step), 20)
        # the session's own account: two generations at most (while a step's outputs are adopted)
        assert plain_peak < s.stats().peak_bytes <= 2 * plain_peak
    assert losses == plain_losses  # bitwise: the same computation
    assert plain_peak > 0 and peak <= 1.10 * plain_peak, (peak, plain_peak)


def test_on_session_close_holds_every_generation() -> None:
    step = _make_step()
    _, plain_peak, _ = _mlp_loop(jax.jit(step), 5)
    with EagerSession(cleanup=ON_SESSION_CLOSE) as s:
        _, peak, _ = _mlp_loop(s.jit(step), 5)
        assert s.stats().freed_buffers == 0
    assert peak > 3 * plain_peak  # the documented n*m: nothing freed before close()


@pytest.mark.parametrize("strategy", ALL, ids=[s.name for s in ALL])
def test_close_deletes_every_shard_of_a_referenced_sharded_array(strategy: ResourceCleanupStrategy) -> None:
    devices = jax.devices()[:4]
    assert len(devices) == 4
    sharding = NamedSharding(Mesh(np.array(devices), ("x",)), PartitionSpec("x"))
    x = jax.device_put(jnp.arange(16.0), sharding)
    s = EagerSession(cleanup=strategy)
    f = s.jit(lambda v: v * 2.0)
    ys = [f(x) for _ in range(5)]
    aliased = f(x)
    alias = aliased.addressable_data(1)  # a user's view of one shard: spared
    assert all(len(y.sharding.device_set) == 4 and s.owns(y) for y in ys) and not s.owns(x)
    s.close()
    assert all(y.is_deleted() for y in ys)
    assert not x.is_deleted()
    np.testing.assert_array_equal(np.asarray(x), np.arange(16.0))
    assert not alias.is_deleted()
    np.testing.assert_array_equal(np.asarray(alias), [8.0, 10.0, 12.0, 14.0])


@pytest.mark.parametrize("strategy", ALL, ids=[s.name for s in ALL])
def test_aot_compiled_outputs_are_owned(strategy: ResourceCleanupStrategy) -> None:
    x = jnp.arange(4.0)
    s = EagerSession(cleanup=strategy)
    f = s.jit(lambda v: {"a": v + 1.0, "b": v * 2.0})
    compiled = f.lower(x).compile()  # type: ignore[attr-defined]
    assert "add" in compiled.as_text() or compiled.as_text()  # the stage's own attributes
    out = compiled(x)
    via_trace = f.trace(x).lower().compile()(x)  # type: ignore[attr-defined]
    assert s.owns(out["a"]) and s.owns(via_trace["b"]) and not s.owns(x)
    assert {h.producer for h in s.stats().held} == {"test_aot_compiled_outputs_are_owned.<locals>.<lambda>"}
    s.close()
    assert out["a"].is_deleted() and out["b"].is_deleted() and via_trace["a"].is_deleted()
    assert not x.is_deleted()


def test_wrap_owns_outputs_of_any_callable_never_inputs() -> None:
    cache = jnp.ones(3)

    def framework_call(module: dict[str, Any], v: jax.Array) -> Any:
        # returns an input, a non-array leaf, a function and a new array
        return {"w": module["w"], "act": module["act"], "n": 3, "out": module["act"](v @ module["w"]), "c": cache}

    module = {"w": jnp.eye(3), "act": jax.nn.relu}
    with EagerSession() as s:
        g = s.wrap(framework_call)
        assert g.__wrapped__ is framework_call  # type: ignore[attr-defined]
        out = g(module, jnp.arange(3.0))
        assert out["act"] is jax.nn.relu and out["n"] == 3
        assert s.owns(out["out"]) and not s.owns(out["w"])
        assert s.owns(out["c"])  # created outside the call, but not an input: adopted
        again = g(module, jnp.arange(3.0))
        assert again["c"] is cache and s.stats().live_buffers == 3  # adopted once
        s.detach(cache)
    assert not module["w"].is_deleted() and not cache.is_deleted()
    assert out["out"].is_deleted()


@pytest.mark.parametrize("strategy", ALL, ids=[s.name for s in ALL])
def test_wrap_equinox_filter_jit(strategy: ResourceCleanupStrategy) -> None:
    eqx = pytest.importorskip("equinox")
    model = eqx.nn.MLP(4, 2, 8, 2, key=jax.random.PRNGKey(0))
    x = jnp.ones(4)
    want = eqx.filter_jit(lambda m, v: m(v))(model, x)
    s = EagerSession(cleanup=strategy)
    f = s.wrap(eqx.filter_jit(lambda m, v: m(v)))
    y = f(model, x)
    np.testing.assert_array_equal(np.asarray(y), np.asarray(want))
    weights = [a for a in jax.tree_util.tree_leaves(model) if isinstance(a, jax.Array)]
    assert s.owns(y) and not any(s.owns(w) for w in weights)
    s.close()
    assert y.is_deleted() and not any(w.is_deleted() for w in weights)
    np.testing.assert_array_equal(np.asarray(model(x)), np.asarray(want))


@pytest.mark.parametrize("strategy", ALL, ids=[s.name for s in ALL])
def test_donated_inputs_leave_the_account_at_the_call(strategy: ResourceCleanupStrategy) -> None:
    with EagerSession(cleanup=strategy) as s:
        make = s.jit(lambda: jnp.ones(1024))
        bump = s.jit(lambda v: v + 1.0, donate_argnums=0)
        v = make()
        for _ in range(10):
            v = bump(v)
        st = s.stats()
        assert st.live_bytes == 4096 and st.live_buffers == 1
        if strategy is not ON_SESSION_CLOSE:
            assert st.peak_bytes == 2 * 4096  # the donated one counted until the call returned
        assert st.freed_buffers == 10


def test_stats_say_what_holds_memory() -> None:
    with EagerSession(cleanup=ON_SAFE_POINTS) as s:

        def big(v: jax.Array) -> jax.Array:
            return jnp.tile(v, 256)

        small = s.jit(lambda v: v + 1.0)
        keep_big = [s.jit(big)(jnp.ones(4)) for _ in range(3)]
        keep_small = [small(jnp.ones(4)) for _ in range(2)]
        held = s.stats(top=2).held
        assert [(h.producer, h.shape, h.dtype, h.arrays, h.bytes) for h in held] == [
            ("test_stats_say_what_holds_memory.<locals>.big", (1024,), "float32", 3, 3 * 4096),
            ("test_stats_say_what_holds_memory.<locals>.<lambda>", (4,), "float32", 2, 32),
        ]
        del keep_big
        assert [h.arrays for h in s.stats().held] == [2]
        del keep_small


def test_the_registry_never_keeps_an_array_alive() -> None:
    for strategy in FREEING:
        with EagerSession(cleanup=strategy) as s:
            f = s.jit(lambda v: (v + 1.0, v * 2.0))
            a, b = f(jnp.ones(8))
            refs = [weakref.ref(a), weakref.ref(b)]
            del a
            assert refs[0]() is None and refs[1]() is not None
            del b
            assert refs[1]() is None


@pytest.mark.parametrize("strategy", FREEING, ids=[s.name for s in FREEING])
def test_equinox_cnn_training_loop_peak_is_plain_jax_peak(strategy: ResourceCleanupStrategy) -> None:
    eqx = pytest.importorskip("equinox")
    optax = pytest.importorskip("optax")
    key = jax.random.PRNGKey(0)
    k1, k2 = jax.random.split(key)
    opt = optax.adam(1e-3)
    x = jax.random.normal(key, (8, 1, 12, 12))
    y = jnp.arange(8) % 10

    def make() -> Any:
        return eqx.nn.Sequential([
            eqx.nn.Conv2d(1, 4, 3, key=k1),
            eqx.nn.Lambda(jax.nn.relu),
            eqx.nn.Lambda(jnp.ravel),
            eqx.nn.Linear(4 * 10 * 10, 10, key=k2),
        ])

    def step(model: Any, state: Any, x: jax.Array, y: jax.Array) -> Any:
        def loss_fn(m: Any) -> jax.Array:
            return optax.softmax_cross_entropy_with_integer_labels(jax.vmap(m)(x), y).mean()

        loss, g = eqx.filter_value_and_grad(loss_fn)(model)
        upd, state = opt.update(g, state, eqx.filter(model, eqx.is_array))
        return eqx.apply_updates(model, upd), state, loss

    def loop(f: Any) -> tuple[list[float], int]:
        m = make()
        s = opt.init(eqx.filter(m, eqx.is_array))
        peak, losses = 0, []
        for _ in range(8):
            m, s, loss = f(m, s, x, y)
            jax.block_until_ready(loss)
            losses.append(float(loss))
            peak = max(peak, _live_bytes())
        return losses, peak

    plain_losses, plain_peak = loop(eqx.filter_jit(step))
    with EagerSession(cleanup=strategy) as sess:
        losses, peak = loop(sess.wrap(eqx.filter_jit(step)))
        assert sess.stats().allocated_buffers > 0
    assert losses == plain_losses
    assert peak <= 1.10 * plain_peak, (peak, plain_peak)


@pytest.mark.parametrize("width", [2, 20])
@pytest.mark.parametrize("look_every", [1, 7])
@pytest.mark.parametrize("strategy", FREEING, ids=[s.name for s in FREEING])
def test_counts_stay_exact_however_long_outputs_live(strategy: ResourceCleanupStrategy, look_every: int,
                                                     width: int) -> None:
    """Outputs (2 arrays a call, or 20: more than the C table scans
    unhashed) kept for 0 to 5 further calls, some also under a user's own
    ``weakref.ref``, dropped before or after the next call: after every call
    the session's live bytes are exactly those of its outputs still alive
    (the C call's young generations and the promoted entries alike, looked
    at after every call or every 7th), its peak
    is the most of those at any call, every array is freed once, and the
    user's weak references die with their arrays."""
    f32 = 4 * 8
    with EagerSession(cleanup=strategy) as s:
        step = s.jit(lambda v: {f"{k}": v * 2.0 + k for k in range(width)})
        x = jnp.ones(8)
        held: list[tuple[int, Any]] = []
        user_refs: list[Any] = []
        peak = made = 0
        for i in range(40):
            out = step(x)
            made += width
            if i % 3 == 0:
                user_refs.append(weakref.ref(out["1"]))
            held.append((i + i % 6, out))  # kept until call i + i % 6
            del out
            alive = sum(width for _, o in held)
            peak = max(peak, alive * f32)
            held = [(until, o) for until, o in held if until > i]
            if i % look_every:
                continue  # (stats() prunes too: some rounds leave it to the calls)
            st = s.stats()
            assert st.live_bytes == len(held) * width * f32, i
            assert st.allocated_buffers == made and st.freed_buffers == made - width * len(held), i
        assert s.stats().peak_bytes == peak
        held.clear()
        assert s.stats().live_bytes == 0 and s.stats().freed_buffers == made
        assert all(r() is None for r in user_refs)


@pytest.mark.parametrize("strategy", FREEING, ids=[s.name for s in FREEING])
def test_device_fetches_are_owned_weakly_and_counted_exactly(strategy: ResourceCleanupStrategy) -> None:
    """``Session(device_fetches=True).run`` results (the C run path enters
    them as ``session.jit`` outputs): kept for 0 to 3 further runs, the
    session's live bytes after every run are exactly those still alive, each
    is freed once, a feed handed back is the caller's (never owned), and
    ``close()`` deletes the ones still referenced."""
    import jaxsess as tf

    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [8])
        y = x * 2.0 + 1.0
        same = tf.identity(x)
    nb = 8 * 4
    with tf.Session(graph=g, cleanup=strategy, device_fetches=True) as s:
        feed = jnp.ones(8)
        held: list[tuple[int, Any]] = []
        for i in range(30):
            out = s.run(y, {x: feed})
            assert isinstance(out, jax.Array) and s.owns(out)
            held = [(until, o) for until, o in held if until > i] + [(i + i % 4, out)]
            del out
            st = s.stats()
            assert st.live_bytes == nb * len(held), i
            assert st.allocated_buffers == i + 1 and st.freed_buffers == i + 1 - len(held), i
        back = s.run(same, {x: feed})
        assert not s.owns(feed) and (back is not feed or s.stats().allocated_buffers == 30)
        kept = [o for _, o in held]
    assert all(o.is_deleted() for o in kept) and not feed.is_deleted()
