"""Compiling less and once: order-insensitive plan keys, the bounded plan
cache, compile logging, the recompile warning and the persistent
compilation cache."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import jax
import numpy as np
import pytest
from jax.experimental.compilation_cache import compilation_cache as cc

import jaxsess as tf
from jaxsess._core._config import ConfigProto, compilation_cache_dir, enable_compilation_cache
from jaxsess._core.graph import _compile
from jaxsess._core.runtime import _graph_session

LOG = ConfigProto(log_compilations=True)


def compiles(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("Compiling plan")]


def _model() -> tuple[tf.Tensor, tf.Tensor, tf.Tensor, tf.Operation]:
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.placeholder(tf.float32, [None], name="y")
    w = tf.Variable(np.array([[1.0], [2.0]], np.float32), name="w")
    loss = tf.reduce_mean(tf.square(tf.squeeze(tf.matmul(x, w), 1) - y))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    return x, y, loss, train


def test_feed_dict_order_compiles_once(caplog: pytest.LogCaptureFixture) -> None:
    x, y, loss, train = _model()
    xv = np.ones((3, 2), np.float32)
    yv = np.arange(3, dtype=np.float32)
    caplog.set_level(logging.INFO, logger="jaxsess")
    with tf.Session(config=LOG) as s:
        s.run(tf.global_variables_initializer())
        caplog.clear()
        a = s.run(loss, {x: xv, y: yv})
        b = s.run(loss, {y: yv, x: xv})
        c = s.run(loss, {"y:0": yv, "x:0": xv})
        assert len(compiles(caplog)) == 1
        np.testing.assert_allclose(np.asarray(a), np.asarray(b))
        np.testing.assert_allclose(np.asarray(a), np.asarray(c))
        # The other order trains the same variable, with the same plan.
        s.run(train, {y: yv, x: xv})
        s.run(train, {x: xv, y: yv})
        assert len(compiles(caplog)) == 2
        f = s.make_callable(loss, [y, x])
        np.testing.assert_allclose(np.asarray(f(yv, xv)), np.asarray(s.run(loss, {x: xv, y: yv})))
        assert len(compiles(caplog)) == 2
        lowered = s.lower(loss, {y: yv, x: xv})
        assert "stablehlo" in lowered.as_text() or "func" in lowered.as_text()


def test_compile_log_names_signature(caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAXSESS_LOG_COMPILES", "1")
    x, y, loss, _ = _model()
    caplog.set_level(logging.INFO, logger="jaxsess")
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        caplog.clear()
        s.run(loss, {x: np.ones((4, 2), np.float32), y: np.ones(4, np.float32)})
    (line,) = compiles(caplog)
    assert "fetches=[Mean:0]" in line
    assert "x:0 float32[4, 2]" in line and "y:0 float32[4]" in line


def test_no_compile_log_by_default(caplog: pytest.LogCaptureFixture) -> None:
    x, y, loss, _ = _model()
    caplog.set_level(logging.INFO, logger="jaxsess")
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        s.run(loss, {x: np.ones((4, 2), np.float32), y: np.ones(4, np.float32)})
    assert compiles(caplog) == []


def test_plan_cache_is_lru_bounded(caplog: pytest.LogCaptureFixture) -> None:
    a = tf.constant(1.0)
    b = tf.constant(2.0)
    c = tf.constant(3.0)
    caplog.set_level(logging.INFO, logger="jaxsess")
    with tf.Session(config=ConfigProto(log_compilations=True, plan_cache_size=2)) as s:
        assert s.run(a) == 1.0
        assert s.run(b) == 2.0
        assert s.run(a) == 1.0  # a is now the most recently used
        assert len(compiles(caplog)) == 2
        assert s.run(c) == 3.0  # evicts b
        assert len(s._plans) == 2
        assert s.run(a) == 1.0
        assert len(compiles(caplog)) == 3
        assert s.run(b) == 2.0  # compiled again
        assert len(compiles(caplog)) == 4
        assert len(s._plans) == 2


def test_repeated_runs_keep_the_lru_order_whichever_path_ran_between(caplog: pytest.LogCaptureFixture) -> None:
    """A run repeated with the same fetch and feed keys skips building,
    looking up and moving its plan-cache key (the C hot path's last hit,
    ``jaxsess/_core/runtime/_hot.c``); a run of another plan in between, by any path (a
    cache hit of a list fetch, a store, an eviction), makes the next repeat
    move its plan to the LRU end again. Values always follow the feed dict
    given, also one in another key order (another cache key)."""
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.placeholder(tf.float32, [2], name="y")
    a, b, c = x + y, x * y, x - y
    xv, yv = np.array([1.0, 2.0], np.float32), np.array([3.0, 5.0], np.float32)
    caplog.set_level(logging.INFO, logger="jaxsess")
    with tf.Session(config=ConfigProto(log_compilations=True, plan_cache_size=2)) as s:

        def order() -> list[tf.Tensor]:
            return [key[0][0] for key in s._plans]

        np.testing.assert_array_equal(s.run(a, {x: xv, y: yv}), xv + yv)
        s.run([b], {x: xv, y: yv})
        for scale in (1.0, 2.0, 3.0):  # the repeats: a fresh dict each time, the same keys
            np.testing.assert_array_equal(s.run(a, {x: scale * xv, y: yv}), scale * xv + yv)
        assert order() == [b, a]
        np.testing.assert_array_equal(s.run([b], {x: xv, y: yv})[0], xv * yv)  # a hit through the Python path
        assert order() == [a, b]
        np.testing.assert_array_equal(s.run(a, {x: xv, y: yv}), xv + yv)
        assert order() == [b, a]
        np.testing.assert_array_equal(s.run(c, {x: xv, y: yv}), xv - yv)  # evicts b, the least recently used
        assert order() == [a, c]
        np.testing.assert_array_equal(s.run(a, {x: xv, y: yv}), xv + yv)
        assert order() == [c, a]
        assert len(compiles(caplog)) == 3
        np.testing.assert_array_equal(s.run(a, {y: yv, x: xv}), xv + yv)  # another key order: another key
        assert len(s._plans) == 2 and len(compiles(caplog)) == 3
        np.testing.assert_array_equal(s.run(a, {y: 2 * yv, x: xv}), xv + 2 * yv)


def test_recompile_warning_names_shapes(caplog: pytest.LogCaptureFixture) -> None:
    x = tf.placeholder(tf.float32, [None], name="x")
    total = tf.reduce_sum(x, name="total")
    caplog.set_level(logging.INFO, logger="jaxsess")
    with tf.Session(config=ConfigProto(plan_cache_size=3)) as s:
        for n in range(1, 8):
            assert s.run(total, {x: np.ones(n, np.float32)}) == n
        # Variants beyond the bound were dropped; the plan still runs.
        assert s.run(total, {x: np.ones(2, np.float32)}) == 2
    warns = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warns) == 1
    assert "compiled 5 times" in warns[0]
    assert "x:0 float32[1]" in warns[0] and "x:0 float32[5]" in warns[0]


def test_cache_dir_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike[str]) -> None:
    monkeypatch.setenv("JAXSESS_COMPILATION_CACHE", "0")
    assert compilation_cache_dir() is None
    monkeypatch.setenv("JAXSESS_COMPILATION_CACHE", "1")
    monkeypatch.setenv("JAXSESS_COMPILATION_CACHE_DIR", str(tmp_path))
    assert compilation_cache_dir() == str(tmp_path)
    assert compilation_cache_dir(ConfigProto(compilation_cache_dir="/elsewhere")) == "/elsewhere"
    assert compilation_cache_dir(ConfigProto(compilation_cache=False)) is None
    monkeypatch.delenv("JAXSESS_COMPILATION_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert compilation_cache_dir() == os.path.join(str(tmp_path), "jaxsess", "xla")


@pytest.fixture
def restore_jax_cache() -> Iterator[None]:
    old_dir = jax.config.jax_compilation_cache_dir
    old_time = jax.config.jax_persistent_cache_min_compile_time_secs
    old_size = jax.config.jax_persistent_cache_min_entry_size_bytes
    yield
    jax.config.update("jax_compilation_cache_dir", old_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", old_time)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", old_size)
    cc.reset_cache()


def test_persistent_cache_second_start_compiles_nothing(
    restore_jax_cache: None, monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike[str]
) -> None:
    cache = os.path.join(str(tmp_path), "xla")
    monkeypatch.setenv("JAXSESS_COMPILATION_CACHE", "1")
    monkeypatch.setenv("JAXSESS_COMPILATION_CACHE_DIR", cache)
    jax.config.update("jax_compilation_cache_dir", None)
    x = tf.placeholder(tf.float32, [3], name="x")
    y = tf.multiply(x, 3.0, name="y_compile_cache_test")
    with tf.Session() as s:
        assert jax.config.jax_compilation_cache_dir == cache
        np.testing.assert_allclose(s.run(y, {x: np.ones(3, np.float32)}), 3.0)
    written = set(os.listdir(cache))
    assert written
    hits: list[str] = []

    def listener(event: str, **kwargs: object) -> None:
        if event == "/jax/compilation_cache/cache_hits":
            hits.append(event)

    jax.monitoring.register_event_listener(listener)
    try:
        jax.clear_caches()
        with tf.Session() as s:  # a second start: loaded, not compiled
            np.testing.assert_allclose(s.run(y, {x: np.ones(3, np.float32)}), 3.0)
    finally:
        jax.monitoring.unregister_event_listener(listener)
    assert hits
    assert set(os.listdir(cache)) == written


def test_user_cache_dir_is_kept(
    restore_jax_cache: None, monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike[str]
) -> None:
    monkeypatch.setenv("JAXSESS_COMPILATION_CACHE", "1")
    jax.config.update("jax_compilation_cache_dir", str(tmp_path))
    assert enable_compilation_cache(ConfigProto(compilation_cache_dir="/not/this")) == str(tmp_path)
    assert jax.config.jax_compilation_cache_dir == str(tmp_path)


def test_init_plan_compiles_without_backend_optimisation() -> None:
    w = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="w")
    r = tf.Variable(tf.random_uniform([4], seed=1), name="r")
    init = tf.global_variables_initializer()
    with tf.Session() as s:
        s.lower(init)  # built, not run: the session has no variable yet
        entry = next(iter(s._plans.values()))
        assert s._is_small_init(entry[0])
        s.run(init)
        np.testing.assert_array_equal(s.run(w), np.arange(6, dtype=np.float32).reshape(2, 3))
        assert s.run(r).shape == (4,)
        assert not s._is_small_init(entry[0])  # initialised: a re-run is not an initialisation
        train = tf.assign_add(w, tf.ones([2, 3]))
        s.run(train)
        (train_entry,) = [e for k, e in s._plans.items() if train in k[0]]
        assert not s._is_small_init(train_entry[0])


def _sigmoid_depthwise_net() -> tuple[tf.Tensor, tf.Tensor]:
    rng = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [None, 12, 12, 8], name="x")
    h = tf.nn.depthwise_conv2d(x, tf.constant(rng.uniform(-1, 1, (3, 3, 8, 1)).astype(np.float32)), [1, 1, 1, 1], "SAME")
    h = h * tf.sigmoid(h)  # swish, as EfficientNet
    h = tf.nn.conv2d(h, tf.constant(rng.uniform(-1, 1, (1, 1, 8, 16)).astype(np.float32)), [1, 1, 1, 1], "SAME")
    return x, tf.reduce_mean(tf.nn.relu6(h), axis=[1, 2])


def test_cpu_plans_compile_with_the_cpu_plan_options(monkeypatch: pytest.MonkeyPatch) -> None:
    from jaxsess._core.graph import _plan

    seen: list[object] = []
    real = _plan.compile_function

    def spy(fn: object, **kw: object) -> object:
        seen.append(kw.get("compiler_options"))
        return real(fn, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(_plan, "compile_function", spy)
    x, y = _sigmoid_depthwise_net()
    xv = np.random.RandomState(1).uniform(-2, 2, (2, 12, 12, 8)).astype(np.float32)
    w = tf.Variable(np.ones((2, 2), np.float32), name="w")
    tf.Variable(np.ones((2048, 2049), np.float32), name="big")  # the initialisation is not small
    with tf.Session() as s:
        s.run(y, {x: xv})  # inference
        assert seen and all(o == _graph_session.CPU_PLAN_OPTIONS for o in seen), seen
        seen.clear()
        s.run(tf.global_variables_initializer())
        s.run(w.assign_add(tf.ones([2, 2])))  # a step that writes state: no -O1
        assert seen and all(o == _graph_session.CPU_STEP_OPTIONS for o in seen), seen


def test_cpu_plans_leave_out_ynnpack_fusions() -> None:
    # The option reaches XLA: no YNNPACK library fusion in the compiled convolutions and
    # dots, neither in an inference plan nor in a training step (jax 0.10's XLA:CPU makes
    # one of each by default).
    x, y = _sigmoid_depthwise_net()
    w = tf.Variable(np.full((16, 4), 0.1, np.float32), name="w")
    loss = tf.reduce_sum(tf.matmul(y, w))
    step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as s:
        s.run(w.initializer)
        for fetches in (loss, [loss, step]):
            hlo = s.warmup(fetches, {x: (4, 12, 12, 8)}).as_text()
            assert "convolution" in hlo or "dot(" in hlo, hlo[:2000]
            assert "__ynn_fusion" not in hlo


def test_cpu_plan_options_keep_the_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    # LLVM -O1 and XLA's default -O3 compute the same floats (no fast-math): bitwise. Eigen's
    # and YNNPACK's convolutions sum in other orders: within float32 rounding.
    x, y = _sigmoid_depthwise_net()
    xv = np.random.RandomState(1).uniform(-2, 2, (2, 12, 12, 8)).astype(np.float32)
    results = {}
    for name, options in [("ours", _graph_session.CPU_PLAN_OPTIONS), ("O3", _graph_session.CPU_STEP_OPTIONS),
                          ("default", {})]:
        monkeypatch.setattr(_graph_session, "CPU_PLAN_OPTIONS", options)
        with tf.Session() as s:
            results[name] = s.run(y, {x: xv})
    np.testing.assert_array_equal(results["ours"], results["O3"])
    np.testing.assert_allclose(results["ours"], results["default"], rtol=1e-5, atol=1e-6)


def test_a_subset_of_a_compiled_plans_fetches_reuses_it(caplog: pytest.LogCaptureFixture) -> None:
    """run(loss) after run([loss, accuracy]) with the same feeds runs the
    compiled plan (no trace); a fetch needing much less of it, a plan that
    writes state, or other feeds compile their own."""
    caplog.set_level(logging.INFO, logger="jaxsess")
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        w = tf.Variable(np.array([[1.0, -1.0], [0.5, 2.0]], np.float32), name="w")
        logits = tf.matmul(x, w)
        loss = tf.reduce_mean(tf.square(logits))
        accuracy = tf.reduce_mean(tf.cast(tf.greater(logits, 0.0), tf.float32))
        cheap = tf.reduce_sum(x)
        peak = tf.reduce_max(logits)
        big = x
        for _ in range(20):
            big = tf.sin(big) * 2.0
        step = w.assign_add(tf.ones([2, 2]))
    xv = np.array([[1.0, 2.0], [-1.0, 0.5]], np.float32)
    with tf.Session(graph=g, config=ConfigProto(log_compilations=True)) as s:
        s.run(w.initializer)
        both = s.run([loss, accuracy], {x: xv})
        n = len(compiles(caplog))
        assert s.run(loss, {x: xv}) == both[0]
        assert s.run({"acc": accuracy}, {x: xv}) == {"acc": both[1]}
        assert s.run([accuracy, loss], {"x:0": xv}) == [both[1], both[0]]
        assert len(compiles(caplog)) == n  # all three ran the compiled plan
        np.testing.assert_array_equal(s.make_callable(loss, [x])(xv), both[0])
        assert len(compiles(caplog)) == n
        s.run([cheap, big], {x: xv})
        n = len(compiles(caplog))
        s.run(cheap, {x: xv})  # needs a few of that plan's ops: its own plan
        assert len(compiles(caplog)) == n + 1
        s.run([step, peak], {x: xv})  # writes state
        n = len(compiles(caplog))
        s.run(peak, {x: xv})  # a plan that writes state is never run for a plain fetch
        assert len(compiles(caplog)) == n + 1


def test_a_compiled_plan_reading_more_variables_is_not_reused() -> None:
    """run(y) after a failed run([y, uninitialised]) runs a plan of its own (as v12_bad_inputs)."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        y = tf.add(x, 1.0, name="y")
        uninit = tf.Variable(np.zeros(2, np.float32), name="uninit")
    xv = np.ones((2, 3), np.float32)
    with tf.Session(graph=g) as s:
        with pytest.raises(tf.errors.FailedPreconditionError):
            s.run([y, uninit], {x: xv})
        np.testing.assert_array_equal(s.run(y, {x: xv}), xv + 1)


def test_compiler_options_xla_refuses_are_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # jax 0.11/0.12's XLA refuses xla_cpu_use_fusion_emitters ('No such compile
    # option'): an option the core picks for compile speed is probed, never assumed.
    bogus = "xla_jaxsess_no_such_option"
    assert _compile.supported_compiler_options({bogus: True, "xla_backend_optimization_level": 0}) == {
        "xla_backend_optimization_level": 0
    }
    monkeypatch.setattr(_graph_session, "_FAST_COMPILE", {**_graph_session._FAST_COMPILE, bogus: False})
    with tf.Graph().as_default():
        w = tf.Variable(tf.random_normal([3, 2], seed=1), name="w")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())  # an initialisation plan: compiled with the fast options
            assert sess.run(w).shape == (3, 2)
