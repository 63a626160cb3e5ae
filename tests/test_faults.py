"""Reliability under faults (issue 7): nothing lost, nothing leaked.

* an exception in the middle of a run (a bad feed, an error while a
  ``while_loop`` body is traced) leaves the variables and the owned buffers
  as they were (``stats()`` live counts and variable values unchanged);
* ``KeyboardInterrupt`` during a run — raised from a feed value's
  ``__array__``, from an op traced into the plan, from the jitted call, from
  the bookkeeping after it — leaves the session usable and closable;
* interpreter exit with open sessions of each strategy neither hangs nor
  prints anything (a subprocess with a timeout);
* a garbage-collected unclosed session warns and releases what it owned.

Faults are injected by a test-only op, ``JaxsessTestFault``, whose
implementation raises the exception in :data:`FAULT` while it is set (the
op's output spec is given, so building the graph never calls it).
"""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import sys
import textwrap
import threading
import warnings
import weakref
from collections.abc import Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import jaxsess as tf
from jaxsess import EagerSession, ResourceCleanupStrategy, errors
from jaxsess._core.graph._builder import apply_op
from jaxsess._core.graph._registry import REGISTRY, register_op

ON_SESSION_CLOSE = ResourceCleanupStrategy.ON_SESSION_CLOSE
STRATEGIES = list(ResourceCleanupStrategy)
SUBPROCESS_TIMEOUT_S = 120.0

# -- the fault injector ----------------------------------------------------------------

FAULT: dict[str, BaseException | None] = {"raise": None}


def _fault_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (shape, dtype), = specs
    return [(tf.TensorShape(shape), dtype)]


if "JaxsessTestFault" not in REGISTRY:

    @register_op("JaxsessTestFault", infer=_fault_infer, default_name="fault")
    def _fault(x: Any) -> Any:
        exc = FAULT["raise"]
        if exc is not None:
            raise exc
        return x


def fault(x: Any, name: str | None = None) -> Any:
    """Identity, except that it raises ``FAULT['raise']`` while the plan is traced."""
    return apply_op("JaxsessTestFault", (x,), name=name)


@pytest.fixture(autouse=True)
def _no_fault_left() -> Iterator[None]:
    FAULT["raise"] = None
    yield
    FAULT["raise"] = None


# -- a small model with state ------------------------------------------------------------


class Model:
    """``x: float32[?, 4]``, ``labels: int32[?]``; a linear layer trained by
    Adam; a step counter; and a ``while_loop`` whose body goes through
    :func:`fault`, written into ``acc`` by ``loop_step``."""

    def __init__(self) -> None:
        self.graph = g = tf.Graph()
        with g.as_default():
            tf.set_random_seed(1)
            self.x = tf.placeholder(tf.float32, [None, 4], name="x")
            self.labels = tf.placeholder(tf.int32, [None], name="labels")
            self.w = tf.Variable(tf.truncated_normal([4, 3], stddev=0.5), name="w")
            self.b = tf.Variable(tf.zeros([3]), name="b")
            self.count = tf.Variable(0, dtype=tf.int32, name="count", trainable=False)
            logits = tf.matmul(self.x, self.w) + self.b
            self.loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=self.labels, logits=logits)
            )
            opt = tf.train.AdamOptimizer(0.1).minimize(self.loss)
            with tf.control_dependencies([opt]):
                self.train = tf.assign_add(self.count, 1, name="train")
            self.acc = tf.Variable(np.zeros(3, np.float32), name="acc", trainable=False)
            _, total = tf.while_loop(
                lambda i, a: i < 3,
                lambda i, a: (i + 1, fault(a + tf.cast(i, tf.float32), name="body_fault")),
                [tf.constant(0), tf.reduce_sum(self.x, axis=0)[:3]],
            )
            self.loop_step = tf.group(self.acc.assign(total), tf.assign_add(self.count, 10))
            self.faulty = fault(self.loss, name="loss_fault")
            self.faulty_step = tf.group(tf.assign_add(self.count, 100), self.faulty)
            self.init = tf.global_variables_initializer()
            self.variables = [self.w, self.b, self.count, self.acc] + [
                v for v in tf.global_variables() if v not in (self.w, self.b, self.count, self.acc)
            ]

    def feed(self, seed: int = 0, n: int = 8) -> dict[Any, np.ndarray]:
        rng = np.random.default_rng(seed)
        return {
            self.x: rng.normal(size=(n, 4)).astype(np.float32),
            self.labels: rng.integers(0, 3, n).astype(np.int32),
        }

    def values(self, sess: tf.Session) -> list[np.ndarray]:
        """Copies of every variable's value (numpy; the fetched arrays are dropped)."""
        return [np.array(v) for v in sess.run(self.variables)]


def snapshot(model: Model, sess: tf.Session) -> tuple[list[np.ndarray], int, int]:
    """Variable values and the (swept) live buffer count and bytes."""
    values = model.values(sess)
    if sess.strategy is not ON_SESSION_CLOSE:
        sess.sweep()
    st = sess.stats()
    return values, st.live_buffers, st.live_bytes


def assert_unchanged(model: Model, sess: tf.Session, before: tuple[list[np.ndarray], int, int]) -> None:
    values, live, nbytes = before
    if sess.strategy is not ON_SESSION_CLOSE:
        sess.sweep()
    st = sess.stats()
    assert (st.live_buffers, st.live_bytes) == (live, nbytes), st
    after = model.values(sess)
    for a, b, v in zip(values, after, model.variables, strict=True):
        np.testing.assert_array_equal(a, b, err_msg=v.name)


@pytest.fixture
def model() -> Model:
    return Model()


def _open(model: Model, strategy: ResourceCleanupStrategy, name: str) -> tf.Session:
    s = tf.Session(graph=model.graph, cleanup=strategy, name=name)
    s.run(model.init)
    s.run(model.train, model.feed(0))  # plans built, state in place
    s.run(model.loop_step, model.feed(0))
    return s


@pytest.fixture(scope="module", params=STRATEGIES, ids=[s.name for s in STRATEGIES])
def shared(request: pytest.FixtureRequest) -> Iterator[tuple[Model, tf.Session]]:
    """One trained model and session per strategy, shared by the tests that
    must leave it usable (a fault that broke it fails the tests after it)."""
    m = Model()
    s = _open(m, request.param, f"faults-shared-{request.param.name}")
    try:
        yield m, s
    finally:
        s.close()
        assert s.stats().live_buffers == 0


@pytest.fixture
def fresh(model: Model, strategy: ResourceCleanupStrategy) -> Iterator[tf.Session]:
    s = _open(model, strategy, f"faults-{strategy.name}")
    try:
        yield s
    finally:
        s.close()
        assert s.stats().live_buffers == 0


class _Raises:
    """A feed value whose ``__array__`` raises ``exc``."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise self.exc


# -- exceptions in the middle of a run leave everything as it was ------------------------------


BAD_FEEDS = {
    "wrong shape": (lambda m: {m.x: np.zeros((8, 5), np.float32), m.labels: np.zeros(8, np.int32)}, ValueError),
    "wrong rank": (lambda m: {m.x: np.zeros(4, np.float32), m.labels: np.zeros(8, np.int32)}, ValueError),
    "string for float": (lambda m: {m.x: "four", m.labels: np.zeros(8, np.int32)}, ValueError),
    "tensor as value": (lambda m: {m.x: m.loss, m.labels: np.zeros(8, np.int32)}, TypeError),
    "unknown key": (lambda m: {"nope:0": np.zeros((8, 4), np.float32)}, TypeError),
    "missing labels": (lambda m: {m.x: np.zeros((8, 4), np.float32)}, errors.InvalidArgumentError),
    "__array__ raises": (
        lambda m: {m.x: _Raises(ValueError("no array for you")), m.labels: np.zeros(8, np.int32)},
        ValueError,  # NumPy's class, as TF1
    ),
    "second feed bad": (lambda m: {m.x: np.zeros((8, 4), np.float32), m.labels: [[1.5]] * 8}, ValueError),
}


@pytest.mark.parametrize("case", list(BAD_FEEDS))
def test_bad_feed_in_a_training_run_changes_nothing(shared: tuple[Model, tf.Session], case: str) -> None:
    model, sess = shared
    make_feed, exc = BAD_FEEDS[case]
    before = snapshot(model, sess)
    with pytest.raises(exc):
        sess.run(model.train, make_feed(model))
    assert_unchanged(model, sess, before)
    # Usable: one good step changes the parameters and counts once.
    sess.run(model.train, model.feed(1))
    after = model.values(sess)
    assert int(after[2]) == int(before[0][2]) + 1
    assert not np.array_equal(after[0], before[0][0])


def test_error_in_while_loop_body_at_trace_time_changes_nothing(model: Model, strategy: ResourceCleanupStrategy) -> None:
    with tf.Session(graph=model.graph, cleanup=strategy) as sess:
        sess.run(model.init)
        before = snapshot(model, sess)
        FAULT["raise"] = ValueError("injected failure while tracing the loop body")
        with pytest.raises(errors.InvalidArgumentError, match="body_fault") as info:
            sess.run(model.loop_step, model.feed(0))  # first run of this plan: traced now
        assert "injected failure" in str(info.value)
        assert_unchanged(model, sess, before)
        FAULT["raise"] = None
        feed = model.feed(0)
        sess.run(model.loop_step, feed)
        expected = feed[model.x].sum(axis=0)[:3] + 0.0 + 1.0 + 2.0
        np.testing.assert_allclose(np.asarray(sess.run(model.acc)), expected, rtol=1e-6)
        assert int(sess.run(model.count)) == int(before[0][2]) + 10
    assert sess.stats().live_buffers == 0


def test_error_in_a_plain_op_at_trace_time_changes_nothing(model: Model, strategy: ResourceCleanupStrategy) -> None:
    with tf.Session(graph=model.graph, cleanup=strategy) as sess:
        sess.run(model.init)
        before = snapshot(model, sess)
        FAULT["raise"] = FloatingPointError("injected")
        with pytest.raises(errors.InvalidArgumentError, match="loss_fault"):
            sess.run(model.faulty_step, model.feed(0))
        assert_unchanged(model, sess, before)
        FAULT["raise"] = None
        sess.run(model.faulty_step, model.feed(0))
        assert int(sess.run(model.count)) == int(before[0][2]) + 100


# -- KeyboardInterrupt ----------------------------------------------------------------------


def _still_usable(model: Model, sess: tf.Session, count_before: int, steps_done_since: int) -> None:
    """A good step runs, the counter shows every completed step, results are
    valid; then the session closes and releases everything."""
    out = sess.run([model.train, model.loss], model.feed(5))
    assert np.isfinite(float(out[1]))
    assert int(sess.run(model.count)) == count_before + steps_done_since + 1
    for v in sess.run(model.variables):  # reading a deleted state buffer would raise
        assert np.all(np.isfinite(np.asarray(v)))


def test_keyboard_interrupt_from_a_feed_value(shared: tuple[Model, tf.Session]) -> None:
    model, sess = shared
    before = snapshot(model, sess)
    feed = model.feed(0)
    feed[model.x] = _Raises(KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        sess.run(model.train, feed)
    assert_unchanged(model, sess, before)
    _still_usable(model, sess, int(before[0][2]), 0)


def test_keyboard_interrupt_from_a_make_callable_argument(shared: tuple[Model, tf.Session]) -> None:
    model, sess = shared
    step = sess.make_callable(model.train, [model.x, model.labels])
    before = snapshot(model, sess)
    with pytest.raises(KeyboardInterrupt):
        step(_Raises(KeyboardInterrupt()), model.feed(0)[model.labels])
    assert_unchanged(model, sess, before)
    f = model.feed(2)
    assert int(step(f[model.x], f[model.labels])) == int(before[0][2]) + 1


def test_keyboard_interrupt_while_the_plan_is_traced(model: Model, strategy: ResourceCleanupStrategy) -> None:
    with tf.Session(graph=model.graph, cleanup=strategy) as sess:
        sess.run(model.init)
        sess.run(model.train, model.feed(0))
        before = snapshot(model, sess)
        FAULT["raise"] = KeyboardInterrupt()
        with pytest.raises(KeyboardInterrupt):
            sess.run(model.faulty_step, model.feed(0))
        FAULT["raise"] = None
        assert_unchanged(model, sess, before)
        sess.run(model.faulty_step, model.feed(0))  # traced again, now fine
        _still_usable(model, sess, int(before[0][2]), 100)
    assert sess.stats().live_buffers == 0


@contextlib.contextmanager
def _plan_fn(plan: Any, fn: Any) -> Iterator[None]:
    """Fault injection: ``plan.fn`` is ``fn`` inside the block. A plan is
    frozen (nothing in the library assigns to it), so the test goes around it."""
    real = plan.fn
    object.__setattr__(plan, "fn", fn)
    try:
        yield
    finally:
        object.__setattr__(plan, "fn", real)


def test_keyboard_interrupt_from_the_jitted_call(shared: tuple[Model, tf.Session]) -> None:
    """Ctrl-C while the plan's function is called (before XLA runs it)."""
    model, sess = shared
    plan = next(e[0] for k, e in sess._plans.items() if len(k[0]) == 1 and k[0][0] is model.train)
    real = plan.fn
    calls = []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        raise KeyboardInterrupt

    before = snapshot(model, sess)
    with _plan_fn(plan, interrupted), pytest.raises(KeyboardInterrupt):
        sess.run(model.train, model.feed(0))
    assert calls
    assert plan.fn is real
    assert_unchanged(model, sess, before)
    _still_usable(model, sess, int(before[0][2]), 0)


class _InterruptingLock:
    """Wraps the registry's lock: once armed, the arming thread's next
    ``acquire`` raises ``KeyboardInterrupt`` (other threads, e.g. the cleaner,
    are never interrupted)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.armed_by: int | None = None
        self.fired = False

    def arm(self) -> None:
        self.armed_by = threading.get_ident()

    def acquire(self, *args: Any, **kwargs: Any) -> bool:
        if self.armed_by is not None and self.armed_by == threading.get_ident():
            self.armed_by = None
            self.fired = True
            raise KeyboardInterrupt
        return bool(self.real.acquire(*args, **kwargs))

    def release(self) -> None:
        self.real.release()

    def locked(self) -> bool:
        return bool(self.real.locked())

    def __enter__(self) -> _InterruptingLock:
        self.acquire()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.real.release()


def test_keyboard_interrupt_after_the_donating_call_keeps_the_session_usable(
    model: Model, fresh: tf.Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C right after XLA consumed the donated variable buffers, while the
    session does its bookkeeping: simulated by the calling thread's first
    acquisition of the registry's lock after the plan's function returned."""
    sess = fresh
    registry = sess._registry
    lock = _InterruptingLock(registry._lock)
    plan = next(e[0] for k, e in sess._plans.items() if len(k[0]) == 1 and k[0][0] is model.train)
    real_fn = plan.fn

    def fn_then_interrupt(*args: Any, **kwargs: Any) -> Any:
        out = real_fn(*args, **kwargs)
        lock.arm()
        return out

    count = int(sess.run(model.count))
    monkeypatch.setattr(registry, "_lock", lock)
    with _plan_fn(plan, fn_then_interrupt), pytest.raises(KeyboardInterrupt):
        sess.run(model.train, model.feed(0))
    assert lock.fired
    monkeypatch.setattr(registry, "_lock", lock.real)
    # The interrupted step completed on the device and its inputs are gone:
    # the only consistent state is the one it computed.
    _still_usable(model, sess, count, 1)


def test_keyboard_interrupt_in_eager_ops_and_session_jit(strategy: ResourceCleanupStrategy) -> None:
    def boom(x: Any) -> Any:
        if FAULT["raise"] is not None:
            raise FAULT["raise"]
        return x * 2.0

    def boom2(x: Any) -> Any:  # another function: jax.jit caches traces per function
        return boom(x)

    with EagerSession(cleanup=strategy) as s:
        f = s.jit(boom)
        kept = f(jnp.ones(3))
        with s.as_default():
            a = tf.constant([1.0, 2.0, 3.0])
        live = s.stats().live_buffers
        FAULT["raise"] = KeyboardInterrupt()
        g = s.jit(boom2)  # traced at its first call: interrupted there
        with pytest.raises(KeyboardInterrupt):
            g(jnp.ones(3))
        with s.as_default(), pytest.raises(KeyboardInterrupt):
            tf.add(_Raises(KeyboardInterrupt()), a)
        FAULT["raise"] = None
        if strategy is not ON_SESSION_CLOSE:
            s.sweep()
        assert s.stats().live_buffers == live
        np.testing.assert_array_equal(np.asarray(g(jnp.ones(3))), np.full(3, 2.0))
        np.testing.assert_array_equal(np.asarray(kept), np.full(3, 2.0))
        with s.as_default():
            np.testing.assert_array_equal(np.asarray(tf.add(a, 1.0)), [2.0, 3.0, 4.0])
    assert kept.is_deleted() and a.is_deleted()
    assert s.stats().live_buffers == 0


# -- interpreter exit with open sessions ---------------------------------------------------------

_EXIT_SCRIPT = textwrap.dedent(
    """
    import os, sys, threading
    os.environ["JAX_PLATFORMS"] = "cpu"
    import jax.numpy as jnp
    import numpy as np
    import jaxsess as tf

    keep = []
    for strategy in tf.ResourceCleanupStrategy:
        g = tf.Graph()
        with g.as_default():
            x = tf.placeholder(tf.float32, [None, 2])
            v = tf.Variable(np.ones(2, np.float32))
            y = tf.reduce_sum(x * v)
            step = v.assign_add(np.ones(2, np.float32))
        s = tf.Session(graph=g, cleanup=strategy)
        s.run(v.initializer)
        s.run(step)
        keep.append((s, s.run(y, {x: np.ones((3, 2), np.float32)})))
        e = tf.EagerSession(cleanup=strategy)
        f = e.jit(lambda a: a + 1)
        keep.append((e, f(jnp.ones(4))))
        with e.as_default():
            keep.append(tf.add(tf.constant([1.0]), 2.0))
    inter = tf.InteractiveSession(graph=tf.Graph())
    MODE = sys.argv[1]
    if MODE == "entered":
        s = tf.Session(graph=g)
        s.__enter__()  # a `with` block never left
        s.run(v.initializer)
        s.run(step)
    print("done", flush=True)
    """
)


@pytest.mark.parametrize("mode", ["idle", "entered"])
@pytest.mark.parametrize("warnings_flag", [[], ["-W", "default"]], ids=["plain", "W-default"])
def test_interpreter_exit_with_open_sessions(mode: str, warnings_flag: list[str], tmp_path: Any) -> None:
    script = tmp_path / "exit_with_open_sessions.py"
    script.write_text(_EXIT_SCRIPT)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "PYTHONDEVMODE")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in [os.getcwd(), env.get("PYTHONPATH", "")] if p)
    proc = subprocess.run(
        [sys.executable, *warnings_flag, str(script), mode],
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT_S,  # a hang fails the test with TimeoutExpired
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "done"
    assert "Traceback" not in proc.stderr, proc.stderr
    if not warnings_flag:
        assert proc.stderr == ""


def test_exit_hook_has_released_everything_when_it_returns(strategy: ResourceCleanupStrategy) -> None:
    """What ``weakref.finalize`` runs at interpreter exit for a live session
    must have stopped the cleaner and deleted the buffers when it returns,
    even while a sweep holds the registry lock (here: held for 0.3 s)."""
    s = EagerSession(cleanup=strategy, name=f"exit-hook-{strategy.name}")
    held = s.jit(lambda a: a + 1)(jnp.ones(3))
    registry = s._registry
    locked, release = threading.Event(), threading.Event()

    def long_sweep() -> None:
        with registry._lock:
            locked.set()
            release.wait(0.3)

    t = threading.Thread(target=long_sweep)
    t.start()
    try:
        assert locked.wait(10.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            s._finalizer()  # the session is alive: exactly the atexit call
        assert registry.closed
        assert held.is_deleted()
        if registry.thread is not None:
            assert not registry.thread.is_alive()
    finally:
        release.set()
        t.join(10.0)
        s.close()
        if registry.thread is not None:
            registry.thread.join(10.0)


# -- garbage-collected unclosed sessions -------------------------------------------------------------


def _cleaners(name: str) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == f"jaxsess-cleaner[{name}]" and t.is_alive()]


def test_gc_of_unclosed_graph_session_warns_and_releases(model: Model, strategy: ResourceCleanupStrategy) -> None:
    name = f"gc-graph-{strategy.name}"
    s = tf.Session(graph=model.graph, cleanup=strategy, name=name, device_fetches=True)
    s.run(model.init)
    step = s.make_callable(model.train, [model.x, model.labels])
    f = model.feed(0)
    step(f[model.x], f[model.labels])
    escaped = s.run(model.loss, f)
    state = list(s._state.values())
    registry = s._registry
    thread = registry.thread
    ref = weakref.ref(s)
    with pytest.warns(ResourceWarning, match=f"Session '{name}' was garbage-collected without close"):
        del s, step
        gc.collect()
    assert ref() is None
    # The finalizer never blocks: the cleaner (or a helper thread) frees and exits on its own.
    assert registry.wait_closed(30.0)
    assert escaped.is_deleted()
    assert all(v.is_deleted() for v in state)
    assert not _cleaners(name)
    if thread is not None:
        assert not thread.is_alive()


def test_gc_of_unclosed_eager_session_used_as_default_warns_and_releases(strategy: ResourceCleanupStrategy) -> None:
    name = f"gc-eager-{strategy.name}"
    s = EagerSession(cleanup=strategy, name=name)
    with s.as_default():
        r = tf.multiply(tf.constant([1.0, 2.0]), 3.0)
    registry = s._registry
    ref = weakref.ref(s)
    with pytest.warns(ResourceWarning, match="without close"):
        del s
        gc.collect()
    assert ref() is None
    assert registry.wait_closed(30.0)
    assert r.is_deleted()
    assert not _cleaners(name)
    assert jax.numpy.ones(2).sum() == 2.0  # JAX itself is fine


# -- issue 12: reproducers -------------------------------------------------------------------


def test_export_while_another_thread_trains_reads_a_consistent_state() -> None:
    """``tf.export`` reads the variables under the session's state lock
    (before: ``Array has been deleted`` when a step donated them meanwhile)."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 64])
        w = tf.Variable(np.ones((64, 64), np.float32) * 0.001)
        y = tf.matmul(x, w)
        train = tf.train.GradientDescentOptimizer(1e-6).minimize(tf.reduce_mean(y * y))
    xb = np.ones((16, 64), np.float32)
    with tf.Session(graph=g) as s:
        s.run(w.initializer)
        s.run(train, {x: xb})
        stop = threading.Event()

        def trainer() -> None:
            while not stop.is_set():
                s.run(train, {x: xb})

        th = threading.Thread(target=trainer)
        th.start()
        try:
            for _ in range(15):
                exp = tf.export(y, [x], session=s, platforms=("cpu",))
                out = np.asarray(exp.call(xb))
                assert out.shape == (16, 64) and np.isfinite(out).all()
        finally:
            stop.set()
            th.join()


def test_case_and_variable_load_in_an_eager_session() -> None:
    with EagerSession() as s:
        r = tf.case([(tf.constant(False), lambda: tf.constant(1.0))], default=lambda: tf.constant(2.0))
        assert float(r) == 2.0
        r = tf.case([(tf.constant(True), lambda: tf.constant(1.0))], default=lambda: tf.constant(2.0))
        assert float(r) == 1.0
        v = tf.Variable(jnp.zeros(3))
        v.load(np.ones(3))
        np.testing.assert_array_equal(np.asarray(v.read_value()), np.ones(3))
        with pytest.raises(ValueError, match="'Variable"):
            v.load(np.ones(4))
        np.testing.assert_array_equal(np.asarray(v.read_value()), np.ones(3))
        assert not s.closed


@pytest.mark.parametrize("feed", [[("x", 1.0)], {"x"}, 5, "x:0", ("x",)], ids=["list", "set", "int", "str", "tuple"])
def test_feed_dict_that_is_not_a_mapping_is_a_type_error(feed: Any) -> None:
    """As TF1's ``nest.flatten_dict_items`` (before: ``AttributeError``)."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [3], name="x")
        y = x * 2
    with tf.Session(graph=g) as s:
        with pytest.raises(TypeError, match=f"feed_dict must be a dictionary.*instead of '{type(feed).__name__}'"):
            s.run(y, feed)
        with pytest.raises(TypeError, match="feed_dict must be a dictionary"):
            s.lower(y, feed)
        np.testing.assert_array_equal(np.asarray(s.run(y, {x: np.ones(3, np.float32)})), [2.0, 2.0, 2.0])


def _exported_blob() -> bytes:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        w = tf.Variable(np.ones((3, 2), np.float32))
        y = tf.matmul(x, w)
    with tf.Session(graph=g) as s:
        s.run(w.initializer)
        return bytes(tf.export(y, [x], session=s, platforms=("cpu",)).serialize())


BLOB = _exported_blob()


@pytest.mark.parametrize(
    "blob",
    [b"garbage" * 10, BLOB[: len(BLOB) // 2], b"", bytes([BLOB[0] ^ 0xFF]) + BLOB[1:], BLOB[:4], b"\x00" * 64],
    ids=["garbage", "truncated", "empty", "first-byte-flipped", "header-only", "zeros"],
)
def test_load_exported_of_corrupted_bytes_is_a_value_error(blob: bytes) -> None:
    with pytest.raises(ValueError, match="not a valid jax.export artifact"):
        tf.load_exported(blob)


def test_load_exported_round_trip_still_works() -> None:
    exp = tf.load_exported(BLOB)
    np.testing.assert_array_equal(np.asarray(exp.call(np.ones((2, 3), np.float32))), np.full((2, 2), 3.0))


def _load_or_value_error(blob: bytes) -> None:
    """Only the documented outcomes: an ``Exported``, or ``ValueError``."""
    try:
        exp = tf.load_exported(blob)
    except ValueError as e:
        assert "not a valid jax.export artifact" in str(e)
    else:
        assert isinstance(exp, jax.export.Exported)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2048))
def test_fuzz_load_exported_random_bytes(blob: bytes) -> None:
    _load_or_value_error(blob)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.integers(0, len(BLOB) - 1), st.integers(0, 255)), min_size=1, max_size=6),
    st.integers(0, len(BLOB)),
    st.integers(0, 3),
)
def test_fuzz_load_exported_mutated_artifact(flips: list[tuple[int, int]], cut: int, nesting: int) -> None:
    """Byte mutations of a real artifact, truncated at ``cut``, optionally
    wrapped ``nesting`` times in another artifact's bytes (structure depth)."""
    b = bytearray(BLOB)
    for pos, val in flips:
        b[pos] = val
    blob = bytes(b[:cut] if cut else b)
    for _ in range(nesting):
        blob = BLOB[:16] + blob + BLOB[16:]
    _load_or_value_error(blob)


def test_gather_out_of_range_and_integer_division_by_zero_are_documented() -> None:
    """TF1 raises ``InvalidArgumentError`` on CPU; jaxsess returns XLA's values
    (matching costs every step a host sync: ``benchmarks/bench_checked_gather.py``).
    The difference must be listed in the documentation's known differences (docs/tf1-coverage.md)."""
    g = tf.Graph()
    with g.as_default():
        v = tf.constant([0.0, 1.0, 2.0])
        gat = tf.gather(v, [10])
        fd = tf.constant(1) // tf.constant(0)
    with tf.Session(graph=g) as s:
        assert np.asarray(s.run(gat)).shape == (1,)
        assert np.asarray(s.run(fd)).dtype == np.int32
    with open(os.path.join(os.path.dirname(__file__), "..", "docs", "tf1-coverage.md"), encoding="utf-8") as f:
        readme = f.read()
    known = readme.split("## Known differences from TF1", 1)[1].split("\n## ", 1)[0]
    assert "out-of-range index" in known and "by zero" in known and "InvalidArgumentError" in known


_DROPPED_SCRIPT = textwrap.dedent(
    """
    import atexit, os, sys, threading, time
    os.environ["JAX_PLATFORMS"] = "cpu"
    STATE = {}

    def check():  # registered before jaxsess's hook: atexit runs it after
        registry = STATE["registry"]
        done = registry._final_done.is_set() and not registry.thread.is_alive()
        print("freed" if done else "still freeing", sum(a.is_deleted() for a in STATE["held"]), flush=True)

    atexit.register(check)
    import jax.numpy as jnp
    import jaxsess as tf

    s = tf.EagerSession(cleanup="IN_BACKGROUND")
    f = s.jit(lambda a: a + 1)
    STATE["held"] = [f(jnp.ones(8)) for _ in range(int(sys.argv[1]))]
    registry = STATE["registry"] = s._registry
    locked = threading.Event()

    def busy():  # a sweep that takes a while: the close's frees wait for it
        with registry._lock:
            locked.set()
            time.sleep(0.3)

    threading.Thread(target=busy, daemon=True).start()
    locked.wait()
    del s, f  # dropped without close(): the finalizer closes it on the cleaner thread
    print("done", flush=True)
    """
)


def test_exit_waits_for_the_close_of_a_session_dropped_unclosed(tmp_path: Any) -> None:
    """A session garbage-collected without ``close()`` frees on its cleaner
    thread; at interpreter exit that must be over before the interpreter
    finalizes (a daemon thread still inside jaxlib's array destructor then
    aborted the process: "FATAL: exception not rethrown"). Here the frees
    wait for a sweep that holds the registry's lock for 0.3 s."""
    n = 100
    script = tmp_path / "dropped_session.py"
    script.write_text(_DROPPED_SCRIPT)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "PYTHONDEVMODE")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in [os.getcwd(), env.get("PYTHONPATH", "")] if p)
    proc = subprocess.run(
        [sys.executable, str(script), str(n)],
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT_S,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["done", "freed", str(n)], proc.stdout
    assert proc.stderr == ""
