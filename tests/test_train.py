"""Tests of jaxsess.train: optimizers on optax, the global step, schedules.

Each optimizer is checked against two references: TF1's update formula
written in NumPy (float64), and the same optax transformation run directly.
Whole training programs are checked against closed forms (least squares)
and against the same steps written in plain JAX + optax.
"""

from __future__ import annotations

import math
import re

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest

import jaxsess as tf
from jaxsess import train
from jaxsess._core.graph._graph import GraphKeys

_OPEN: list[tf.Session] = []


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield
    while _OPEN:  # sessions made by helpers are closed even when an assertion failed
        _OPEN.pop().close()


# -- helpers -------------------------------------------------------------------------

W0 = np.array([[0.5, -1.0, 2.0], [0.25, 0.0, -0.75]], np.float32)
TARGET = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 0.1]], np.float32)
SCALE = np.array([[1.0, 0.1, 3.0], [0.01, 2.0, 0.5]], np.float32)


def _loss_jax(w: jax.Array) -> jax.Array:
    return jnp.sum(SCALE * (w - TARGET) ** 2) + jnp.sum(jnp.sin(3.0 * w))


def _loss_graph(w: tf.Variable) -> tf.Tensor:
    return tf.reduce_sum(SCALE * tf.square(w - TARGET)) + tf.reduce_sum(tf.sin(3.0 * w))


_grad = jax.jit(jax.grad(_loss_jax))


def _graph_steps(make_opt, steps: int) -> tuple[list[np.ndarray], train.Optimizer, tf.Variable, tf.Session]:
    w = tf.Variable(W0, name="w")
    opt = make_opt()
    train_op = opt.minimize(_loss_graph(w))
    sess = tf.Session()
    _OPEN.append(sess)
    sess.run(tf.global_variables_initializer())
    out = []
    for _ in range(steps):
        sess.run(train_op)
        out.append(np.asarray(sess.run(w)))
    return out, opt, w, sess


def _tf1_reference(kind: str, steps: int, hp: dict) -> list[np.ndarray]:
    """TF1's update formulas (the kernels' documented math), in float64."""
    w = W0.astype(np.float64)
    out = []
    a = np.zeros_like(w)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    ms = np.ones_like(w)
    mg = np.zeros_like(w)
    acc = np.full_like(w, hp.get("initial_accumulator_value", 0.1))
    lr = hp["learning_rate"]
    for t in range(1, steps + 1):
        g = np.asarray(_grad(jnp.asarray(w, jnp.float32)), np.float64)
        if kind == "sgd":
            w = w - lr * g
        elif kind == "momentum":
            a = hp["momentum"] * a + g
            if hp.get("use_nesterov"):
                w = w - lr * g - lr * hp["momentum"] * a
            else:
                w = w - lr * a
        elif kind == "adam":
            b1, b2, eps = hp["beta1"], hp["beta2"], hp["epsilon"]
            lr_t = lr * math.sqrt(1 - b2**t) / (1 - b1**t)
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            w = w - lr_t * m / (np.sqrt(v) + eps)
        elif kind == "rmsprop":
            d, mom, eps = hp["decay"], hp["momentum"], hp["epsilon"]
            ms = d * ms + (1 - d) * g * g
            denom = ms
            if hp.get("centered"):
                mg = d * mg + (1 - d) * g
                denom = ms - mg * mg
            a = mom * a + lr * g / np.sqrt(denom + eps)
            w = w - a
        elif kind == "adagrad":
            acc = acc + g * g
            w = w - lr * g / np.sqrt(acc)
        else:  # pragma: no cover
            raise AssertionError(kind)
        out.append(w.copy())
    return out


def _optax_reference(make_tx, steps: int) -> list[np.ndarray]:
    """The same optax transformation, run directly (``make_tx(t)`` builds step ``t``'s)."""
    w = jnp.asarray(W0)
    state = make_tx(1).init(w)
    out = []
    for t in range(1, steps + 1):
        tx = make_tx(t)
        updates, state = tx.update(_grad(w), state, w)
        w = optax.apply_updates(w, updates)
        out.append(np.asarray(w))
    return out


CASES = {
    "sgd": (
        lambda: train.GradientDescentOptimizer(0.05),
        {"learning_rate": 0.05},
        lambda t: optax.sgd(0.05),
    ),
    "momentum": (
        lambda: train.MomentumOptimizer(0.05, 0.9),
        {"learning_rate": 0.05, "momentum": 0.9},
        lambda t: optax.sgd(0.05, momentum=0.9),
    ),
    "nesterov": (
        lambda: train.MomentumOptimizer(0.05, 0.9, use_nesterov=True),
        {"learning_rate": 0.05, "momentum": 0.9, "use_nesterov": True},
        lambda t: optax.sgd(0.05, momentum=0.9, nesterov=True),
    ),
    "adam": (
        # A large epsilon: TF1's "epsilon hat" placement must matter.
        lambda: train.AdamOptimizer(0.1, beta1=0.8, beta2=0.95, epsilon=0.5),
        {"learning_rate": 0.1, "beta1": 0.8, "beta2": 0.95, "epsilon": 0.5},
        lambda t: optax.adam(0.1, b1=0.8, b2=0.95, eps=0.5 / math.sqrt(1 - 0.95**t)),
    ),
    "rmsprop": (
        lambda: train.RMSPropOptimizer(0.05, decay=0.8, momentum=0.5, epsilon=0.1),
        {"learning_rate": 0.05, "decay": 0.8, "momentum": 0.5, "epsilon": 0.1},
        lambda t: optax.rmsprop(0.05, decay=0.8, eps=0.1, initial_scale=1.0, momentum=0.5),
    ),
    "rmsprop_centered": (
        lambda: train.RMSPropOptimizer(0.05, decay=0.8, momentum=0.5, epsilon=0.1, centered=True),
        {"learning_rate": 0.05, "decay": 0.8, "momentum": 0.5, "epsilon": 0.1, "centered": True},
        lambda t: optax.rmsprop(0.05, decay=0.8, eps=0.1, initial_scale=1.0, momentum=0.5, centered=True),
    ),
    "rmsprop_no_momentum": (
        lambda: train.RMSPropOptimizer(0.05),
        {"learning_rate": 0.05, "decay": 0.9, "momentum": 0.0, "epsilon": 1e-10},
        lambda t: optax.rmsprop(0.05, decay=0.9, eps=1e-10, initial_scale=1.0),
    ),
    "adagrad": (
        lambda: train.AdagradOptimizer(0.3, initial_accumulator_value=0.5),
        {"learning_rate": 0.3, "initial_accumulator_value": 0.5},
        lambda t: optax.adagrad(0.3, initial_accumulator_value=0.5, eps=0.0),
    ),
}

KIND = {
    "sgd": "sgd", "momentum": "momentum", "nesterov": "momentum", "adam": "adam", "rmsprop": "rmsprop",
    "rmsprop_centered": "rmsprop", "rmsprop_no_momentum": "rmsprop", "adagrad": "adagrad",
}


# -- each optimizer against TF1's formula and optax ----------------------------------------


@pytest.mark.parametrize("case", list(CASES))
def test_first_updates_match_tf1_formula(case: str) -> None:
    make_opt, hp, _ = CASES[case]
    got, _, _, sess = _graph_steps(make_opt, 4)
    want = _tf1_reference(KIND[case], 4, hp)
    for step, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6, err_msg=f"{case}, step {step + 1}")
    assert not np.allclose(got[0], W0)  # the step moved the variable


@pytest.mark.parametrize("case", list(CASES))
def test_first_updates_match_optax(case: str) -> None:
    make_opt, _, make_tx = CASES[case]
    got, _, _, sess = _graph_steps(make_opt, 4)
    want = _optax_reference(make_tx, 4)
    for step, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-7, err_msg=f"{case}, step {step + 1}")


def test_adam_epsilon_is_epsilon_hat() -> None:
    # With a large epsilon, optax's plain eps placement differs from TF1's.
    got, _, _, sess = _graph_steps(lambda: train.AdamOptimizer(0.1, epsilon=0.5), 1)
    plain = _optax_reference(lambda t: optax.adam(0.1, eps=0.5), 1)
    assert not np.allclose(got[0], plain[0], rtol=1e-4)


@pytest.mark.parametrize(
    ("make_opt", "names"),
    [
        (lambda: train.GradientDescentOptimizer(0.1), []),
        (lambda: train.MomentumOptimizer(0.1, 0.9), ["momentum"]),
        (lambda: train.AdamOptimizer(), ["m", "v"]),
        (lambda: train.RMSPropOptimizer(0.1), ["momentum", "rms"]),
        (lambda: train.RMSPropOptimizer(0.1, centered=True), ["mg", "momentum", "rms"]),
        (lambda: train.AdagradOptimizer(0.1), ["accumulator"]),
    ],
)
def test_slot_names(make_opt, names: list[str]) -> None:
    w = tf.Variable(W0, name="w")
    opt = make_opt()
    opt.minimize(_loss_graph(w))
    assert opt.get_slot_names() == names
    for n in names:
        s = opt.get_slot(w, n)
        assert isinstance(s, tf.Variable)
        assert s.shape == w.shape and s.dtype == w.dtype
        assert not s.trainable
        assert s in tf.global_variables()
        assert s in opt.variables()
    assert opt.get_slot(w, "nope") is None
    assert tf.trainable_variables() == [w]


def test_slot_initial_values_and_names() -> None:
    w = tf.Variable(W0, name="w")
    rms = train.RMSPropOptimizer(0.1, centered=True)
    ada = train.AdagradOptimizer(0.1, initial_accumulator_value=0.25)
    adam = train.AdamOptimizer()
    loss = _loss_graph(w)
    rms.minimize(loss)
    ada.minimize(loss)
    adam.minimize(loss)
    # TF1's slot variable names: '<var>/<Optimizer>', then _1, _2 in TF1's slot order.
    assert rms.get_slot(w, "rms").op.name == "w/RMSProp"
    assert rms.get_slot(w, "mg").op.name == "w/RMSProp_1"
    assert rms.get_slot(w, "momentum").op.name == "w/RMSProp_2"
    assert adam.get_slot(w, "m").op.name == "w/Adam"
    assert adam.get_slot(w, "v").op.name == "w/Adam_1"
    assert ada.get_slot(w, "accumulator").op.name == "w/Adagrad"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        # uniform initial values are fill ops, not constants copied into the graph
        assert rms.get_slot(w, "rms").initial_value.op.type == "OptaxSlotInit"
        np.testing.assert_array_equal(sess.run(rms.get_slot(w, "rms")), np.ones_like(W0))
        np.testing.assert_array_equal(sess.run(rms.get_slot(w, "mg")), np.zeros_like(W0))
        np.testing.assert_array_equal(sess.run(ada.get_slot(w, "accumulator")), np.full_like(W0, 0.25))
        np.testing.assert_array_equal(sess.run(adam.get_slot(w, "m")), np.zeros_like(W0))
        powers = {v.op.name: v for v in adam.variables() if v.op.name.endswith("_power")}
        assert sorted(powers) == ["beta1_power", "beta2_power"]  # TF1's non-slot variables
        assert all(p.dtype == tf.float32 for p in powers.values())
        np.testing.assert_allclose(sess.run([powers["beta1_power"], powers["beta2_power"]]), [0.9, 0.999])


def test_adam_slots_hold_moments() -> None:
    _, opt, w, sess = _graph_steps(lambda: train.AdamOptimizer(0.1, beta1=0.8, beta2=0.95), 1)
    g = np.asarray(_grad(jnp.asarray(W0)))
    np.testing.assert_allclose(sess.run(opt.get_slot(w, "m")), 0.2 * g, rtol=1e-6)
    np.testing.assert_allclose(sess.run(opt.get_slot(w, "v")), 0.05 * g * g, rtol=1e-5)
    powers = {v.op.name: v for v in opt.variables() if v.op.name.endswith("_power")}
    np.testing.assert_allclose(sess.run([powers["beta1_power"], powers["beta2_power"]]), [0.8**2, 0.95**2], rtol=1e-6)


def test_train_step_is_one_plan_with_one_update_op() -> None:
    w = tf.Variable(W0, name="w")
    b = tf.Variable(np.zeros(3, np.float32), name="b")
    loss = _loss_graph(w) + tf.reduce_sum(tf.square(b - 1.0))
    train_op = train.AdamOptimizer(0.01).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before = len(sess._plans)
        for _ in range(5):
            sess.run(train_op)
        assert len(sess._plans) == before + 1
        plan = next(e[0] for e in sess._plans.values() if train_op in e[0].targets)
        assert [op.type for op in plan.ops].count("OptaxUpdate") == 1
        assert [op.type for op in plan.ops].count("SymbolicGradient") == 1
        # params and slots are both read and written: donated to the one jitted call
        assert w.op in plan.donated and b.op in plan.donated
        if hasattr(plan.fn, "_cache_size"):  # traced once: no retrace per step
            assert plan.fn._cache_size() == 1


def test_each_donated_variable_buffer_receives_its_own_new_value() -> None:
    # jax.jit pairs donated buffers with outputs of the same shape in order:
    # a layer stack of equal shapes, whose Adam slots are written in another
    # order than the state is read, must still alias every slot to itself
    # (else XLA copies each input and output: 197 copies in a 20-layer MLP).
    x = tf.placeholder(tf.float32, [None, 4])
    h = x
    for i in range(3):
        w = tf.get_variable(f"w{i}", [4, 4], initializer=tf.constant_initializer(0.1 * (i + 1)))
        b = tf.get_variable(f"b{i}", [4], initializer=tf.zeros_initializer())
        h = tf.nn.relu(tf.matmul(h, w) + b)
    train_op = train.AdamOptimizer(0.01).minimize(tf.reduce_sum(h))
    xv = np.ones((2, 4), np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train_op, {x: xv})
        plan = next(e[0] for e in sess._plans.values() if train_op in e[0].targets)
        assert len(plan.donated) == 3 * 2 * 3 + 2  # w, b and their m, v; Adam's two beta powers
        assert plan.written[: len(plan.donated)] == plan.donated
        state = sess._state
        donated = tuple(state[s] for s in plan.donated)
        hlo = plan.fn.lower(donated, (), (xv,)).compile().as_text()
        pairs = re.findall(r"\{(\d+)\}: \((\d+), \{\}, may-alias\)", hlo.split("input_output_alias=", 1)[1].split("\n", 1)[0])
        assert len(pairs) == len(plan.donated)
        assert all(out == arg for out, arg in pairs), pairs


@pytest.mark.parametrize(
    "make_opt",
    [
        lambda: train.AdamOptimizer(0.01),
        lambda: train.AdagradOptimizer(0.1, initial_accumulator_value=0.3),
        lambda: train.RMSPropOptimizer(0.01, momentum=0.5),
    ],
)
def test_slot_setup_is_one_compiled_program(make_opt) -> None:
    # optax's init runs as one jitted program, cached per optimizer and
    # parameter shapes (eagerly, every zeros_like of a new shape compiled one).
    compiles: list[str] = []

    def listener(event: str, duration: float, **kwargs: object) -> None:
        if event == "/jax/core/compile/backend_compile_duration":
            compiles.append(event)

    shapes = [(11, 13), (13,), (13, 17), (17,), (17, 19, 2)]  # shapes no other test compiles for

    def build() -> tuple[object, list[object]]:
        vs = [tf.Variable(np.full(s, 0.5, np.float32), name=f"p{i}") for i, s in enumerate(shapes)]
        loss = tf.add_n([tf.reduce_sum(tf.square(v)) for v in vs])
        opt = make_opt()
        jax.monitoring.register_event_duration_secs_listener(listener)
        try:
            train_op = opt.minimize(loss)
        finally:
            jax.monitoring.unregister_event_duration_listener(listener)
        return train_op, [opt.get_slot(v, n) for v in vs for n in opt.get_slot_names()]

    train_op, slots = build()
    assert len(compiles) <= 1, compiles
    assert slots and all(s is not None for s in slots)
    compiles.clear()
    with tf.Graph().as_default():  # the same optimizer and shapes again: nothing to compile
        build()
    assert compiles == []
    with tf.Session() as sess:  # (initial values: test_slot_initial_values_and_names)
        sess.run(tf.global_variables_initializer())
        sess.run(train_op)
        assert all(np.all(np.isfinite(v)) for v in sess.run(slots))


# -- training programs ------------------------------------------------------------------------


def test_linear_regression_matches_least_squares() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(128, 3)).astype(np.float32)
    true_w = np.array([[1.5], [-2.0], [0.5]], np.float32)
    Y = (X @ true_w + 0.3 + 0.1 * rng.normal(size=(128, 1))).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    W = tf.Variable(np.zeros((3, 1), np.float32), name="W")
    b = tf.Variable(np.zeros((1,), np.float32), name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))
    train_op = train.GradientDescentOptimizer(0.1).minimize(loss)
    A = np.concatenate([X, np.ones((128, 1), np.float32)], axis=1).astype(np.float64)
    sol, *_ = np.linalg.lstsq(A, Y.astype(np.float64), rcond=None)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = float(sess.run(loss, {x: X, y: Y}))
        for _ in range(600):
            sess.run(train_op, {x: X, y: Y})
        got_w, got_b, last = (np.asarray(a) for a in sess.run([W, b, loss], {x: X, y: Y}))
    np.testing.assert_allclose(got_w, sol[:3], atol=1e-4)
    np.testing.assert_allclose(got_b, sol[3], atol=1e-4)
    assert last < first / 10


def _softmax_data(n: int = 240, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centers = np.array([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]], np.float32)
    labels = rng.integers(0, 3, size=n)
    X = (centers[labels] + 0.5 * rng.normal(size=(n, 2))).astype(np.float32)
    return X, np.eye(3, dtype=np.float32)[labels]


def test_softmax_regression_trains_and_matches_plain_jax() -> None:
    X, Y = _softmax_data()
    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.placeholder(tf.float32, [None, 3])
    W = tf.Variable(np.zeros((2, 3), np.float32), name="W")
    b = tf.Variable(np.zeros((3,), np.float32), name="b")
    logits = tf.matmul(x, W) + b
    loss = tf.reduce_mean(tf.reduce_logsumexp(logits, axis=1) - tf.reduce_sum(y * logits, axis=1))
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(y, 1)), tf.float32))
    train_op = train.GradientDescentOptimizer(0.5).minimize(loss)

    def ref_loss(p, xb, yb):
        lg = xb @ p["W"] + p["b"]
        return jnp.mean(jax.nn.logsumexp(lg, axis=1) - jnp.sum(yb * lg, axis=1))

    tx = optax.sgd(0.5)
    params = {"W": jnp.zeros((2, 3)), "b": jnp.zeros(3)}
    state = tx.init(params)

    @jax.jit
    def ref_step(params, state):
        upd, state = tx.update(jax.grad(ref_loss)(params, X, Y), state, params)
        return optax.apply_updates(params, upd), state

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(100):
            sess.run(train_op, {x: X, y: Y})
            params, state = ref_step(params, state)
        got_W, got_b, acc, final = (np.asarray(a) for a in sess.run([W, b, accuracy, loss], {x: X, y: Y}))
    np.testing.assert_allclose(got_W, params["W"], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_b, params["b"], rtol=1e-4, atol=1e-5)
    assert acc > 0.95
    assert final < 0.3


def test_mlp_adam_matches_plain_jax_optax_step_by_step() -> None:
    rng = np.random.default_rng(2)
    init = {
        "W1": (0.5 * rng.normal(size=(4, 16))).astype(np.float32),
        "b1": np.zeros(16, np.float32),
        "W2": (0.5 * rng.normal(size=(16, 3))).astype(np.float32),
        "b2": np.zeros(3, np.float32),
    }
    batches = []
    for _ in range(12):
        xb = rng.normal(size=(32, 4)).astype(np.float32)
        yb = np.eye(3, dtype=np.float32)[rng.integers(0, 3, size=32)]
        batches.append((xb, yb))

    x = tf.placeholder(tf.float32, [None, 4], name="x")
    y = tf.placeholder(tf.float32, [None, 3], name="y")
    with tf.name_scope("dense"):
        W1 = tf.Variable(init["W1"], name="W1")
        b1 = tf.Variable(init["b1"], name="b1")
    with tf.name_scope("out"):
        W2 = tf.Variable(init["W2"], name="W2")
        b2 = tf.Variable(init["b2"], name="b2")
    h = tf.tanh(tf.matmul(x, W1) + b1)
    logits = tf.matmul(h, W2) + b2
    loss = tf.reduce_mean(tf.reduce_logsumexp(logits, axis=1) - tf.reduce_sum(y * logits, axis=1))
    step = train.get_or_create_global_step()
    train_op = train.AdamOptimizer(0.01).minimize(loss, global_step=step)

    def ref_loss(p, xb, yb):
        lg = jnp.tanh(xb @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
        return jnp.mean(jax.nn.logsumexp(lg, axis=1) - jnp.sum(yb * lg, axis=1))

    params = {k: jnp.asarray(v) for k, v in init.items()}
    state = optax.adam(0.01).init(params)

    @jax.jit  # TF1's epsilon is "epsilon hat": optax eps = eps / sqrt(1 - beta2^t)
    def ref_step(params, state, xb, yb, eps):
        tx = optax.adam(0.01, b1=0.9, b2=0.999, eps=eps)
        upd, state = tx.update(jax.grad(ref_loss)(params, xb, yb), state, params)
        return optax.apply_updates(params, upd), state

    graph_vars = {"W1": W1, "b1": b1, "W2": W2, "b2": b2}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for t, (xb, yb) in enumerate(batches, start=1):
            sess.run(train_op, {x: xb, y: yb})
            params, state = ref_step(params, state, xb, yb, np.float32(1e-8 / math.sqrt(1 - 0.999**t)))
            got = sess.run(graph_vars)
            for k in init:
                np.testing.assert_allclose(got[k], params[k], rtol=1e-5, atol=1e-6, err_msg=f"{k} at step {t}")
        assert train.global_step(sess, step) == len(batches)


# -- global step --------------------------------------------------------------------------------


def test_global_step_creation() -> None:
    assert train.get_global_step() is None
    step = train.get_or_create_global_step()
    assert step.op.name == "global_step"
    assert step.dtype == tf.int64  # as TF1, 64-bit in graphs
    assert step.shape.as_list() == []
    assert not step.trainable
    assert tf.get_collection(GraphKeys.GLOBAL_STEP) == [step]
    assert step in tf.global_variables()
    assert train.get_global_step() is step
    assert train.get_or_create_global_step() is step
    with pytest.raises(ValueError, match="already exists"):
        train.create_global_step()
    train.assert_global_step(step)


def test_global_step_in_other_graph() -> None:
    g = tf.Graph()
    step = train.create_global_step(g)
    assert step.graph is g
    assert train.get_global_step() is None
    assert train.get_global_step(g) is step


def test_minimize_increments_global_step() -> None:
    w = tf.Variable(W0, name="w")
    step = train.get_or_create_global_step()
    train_op = train.GradientDescentOptimizer(0.01).minimize(_loss_graph(w), global_step=step)
    assert isinstance(train_op, tf.Operation)
    assert train_op.name == "GradientDescent"
    assert train_op in tf.get_collection(GraphKeys.TRAIN_OP)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(1, 4):
            assert sess.run(train_op) is None
            assert train.global_step(sess, step) == i
        # the weights moved exactly three plain SGD steps
        np.testing.assert_allclose(
            sess.run(w), _tf1_reference("sgd", 3, {"learning_rate": 0.01})[-1], rtol=1e-5, atol=1e-6
        )


# -- learning rates ---------------------------------------------------------------------------


@pytest.mark.parametrize("staircase", [False, True])
def test_exponential_decay_values(staircase: bool) -> None:
    step = tf.placeholder(tf.int32, [], name="step")
    lr = train.exponential_decay(0.1, step, decay_steps=10, decay_rate=0.5, staircase=staircase)
    assert lr.dtype == tf.float32
    assert lr.op.name == "ExponentialDecay"
    with tf.Session() as sess:
        for s in [0, 1, 5, 10, 15, 25, 100]:
            p = s // 10 if staircase else s / 10
            np.testing.assert_allclose(sess.run(lr, {step: s}), 0.1 * 0.5**p, rtol=1e-6)


def test_exponential_decay_requires_global_step() -> None:
    with pytest.raises(ValueError, match="global_step is required"):
        train.exponential_decay(0.1, None, 10, 0.5)


def test_other_schedules() -> None:
    step = tf.placeholder(tf.int32, [])
    inv = train.inverse_time_decay(0.1, step, 5, 0.5)
    inv_s = train.inverse_time_decay(0.1, step, 5, 0.5, staircase=True)
    nat = train.natural_exp_decay(0.1, step, 5, 0.5)
    poly = train.polynomial_decay(0.1, step, 10, end_learning_rate=0.01, power=2.0)
    poly_c = train.polynomial_decay(0.1, step, 10, end_learning_rate=0.01, cycle=True)
    cos = train.cosine_decay(0.1, step, 10, alpha=0.1)
    pw = train.piecewise_constant(step, [3, 7], [1.0, 0.5, 0.1])
    with tf.Session() as sess:
        for s in [0, 2, 3, 4, 7, 8, 12, 25]:
            r = sess.run([inv, inv_s, nat, poly, poly_c, cos, pw], {step: s})
            mult = 1.0 if s == 0 else math.ceil(s / 10)
            want = [
                0.1 / (1 + 0.5 * s / 5),
                0.1 / (1 + 0.5 * (s // 5)),
                0.1 * math.exp(-0.5 * s / 5),
                (0.1 - 0.01) * (1 - min(s, 10) / 10) ** 2 + 0.01,
                (0.1 - 0.01) * (1 - s / (10 * mult)) + 0.01,
                0.1 * (0.9 * 0.5 * (1 + math.cos(math.pi * min(s, 10) / 10)) + 0.1),
                1.0 if s <= 3 else (0.5 if s <= 7 else 0.1),
            ]
            np.testing.assert_allclose(r, want, rtol=1e-5, atol=1e-7, err_msg=f"step {s}")
    with pytest.raises(ValueError, match="1 less than"):
        train.piecewise_constant(step, [3], [1.0])


def test_decayed_learning_rate_drives_updates() -> None:
    # var -= lr(step) * 1 with lr = 1 * 0.5^step: reads the step before the increment.
    v = tf.Variable(0.0, name="v")
    step = train.get_or_create_global_step()
    lr = train.exponential_decay(1.0, step, decay_steps=1, decay_rate=0.5)
    train_op = train.GradientDescentOptimizer(lr).minimize(v, global_step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = []
        for _ in range(4):
            sess.run(train_op)
            values.append(float(sess.run(v)))
    np.testing.assert_allclose(values, [-1.0, -1.5, -1.75, -1.875], rtol=1e-6)


def test_fed_learning_rate() -> None:
    v = tf.Variable(np.ones(2, np.float32), name="v")
    lr = tf.placeholder(tf.float32, [], name="lr")
    train_op = train.MomentumOptimizer(lr, momentum=0.5).minimize(tf.reduce_sum(3.0 * v))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train_op, {lr: 0.1})  # accum = 3, v = 1 - 0.3
        np.testing.assert_allclose(sess.run(v), [0.7, 0.7], rtol=1e-6)
        sess.run(train_op, {lr: 1.0})  # accum = 1.5 + 3 = 4.5, v = 0.7 - 4.5
        np.testing.assert_allclose(sess.run(v), [-3.8, -3.8], rtol=1e-6)


def test_tensor_hyperparameters() -> None:
    v = tf.Variable(np.ones(2, np.float32), name="v")
    momentum = tf.placeholder_with_default(np.float32(0.0), [])
    train_op = train.MomentumOptimizer(0.1, momentum).minimize(tf.reduce_sum(v))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train_op)
        sess.run(train_op, {momentum: 1.0})  # accum = 1 * 1 + 1 = 2
        np.testing.assert_allclose(sess.run(v), [1 - 0.1 - 0.2] * 2, rtol=1e-6)


# -- var_list, compute/apply --------------------------------------------------------------------


def test_minimize_var_list_only_updates_those() -> None:
    a = tf.Variable(np.ones(3, np.float32), name="a")
    b = tf.Variable(np.ones(3, np.float32), name="b")
    loss = tf.reduce_sum(tf.square(a * b - 3.0))
    opt = train.AdamOptimizer(0.1)
    train_op = opt.minimize(loss, var_list=[a])
    assert opt.get_slot(b, "m") is None
    assert opt.get_slot(a, "m") is not None
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train_op)
        assert not np.allclose(sess.run(a), 1.0)
        np.testing.assert_array_equal(sess.run(b), np.ones(3, np.float32))


def test_compute_and_apply_gradients_split() -> None:
    a = tf.Variable(np.array([1.0, 2.0], np.float32), name="a")
    unused = tf.Variable(np.array([5.0], np.float32), name="unused")
    loss = tf.reduce_sum(tf.square(a))
    opt = train.GradientDescentOptimizer(0.1)
    gv = opt.compute_gradients(loss)
    assert [v for _, v in gv] == [a, unused]
    assert gv[1][0] is None
    assert isinstance(gv[0][0], tf.Tensor)
    clipped = [(None if g is None else tf.clip_by_value(g, -1.0, 1.0), v) for g, v in gv]
    train_op = opt.apply_gradients(clipped, name="apply")
    assert train_op.name == "apply"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(gv[0][0]), [2.0, 4.0])
        sess.run(train_op)
        np.testing.assert_allclose(sess.run(a), [0.9, 1.9], rtol=1e-6)  # clipped gradient 1
        np.testing.assert_array_equal(sess.run(unused), [5.0])


def test_apply_gradients_with_scaled_gradients_adam() -> None:
    w = tf.Variable(W0, name="w")
    opt = train.AdamOptimizer(0.1, beta1=0.8, beta2=0.95, epsilon=0.5)
    gv = opt.compute_gradients(_loss_graph(w))
    train_op = opt.apply_gradients([(g * 1.0, v) for g, v in gv])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train_op)
        want = _tf1_reference("adam", 1, CASES["adam"][1])[0]
        np.testing.assert_allclose(sess.run(w), want, rtol=2e-5, atol=2e-6)


def test_errors() -> None:
    w = tf.Variable(W0, name="w")
    i = tf.Variable(np.zeros(2, np.int32), name="i")
    c = tf.constant(2.0)
    opt = train.GradientDescentOptimizer(0.1)
    with pytest.raises(ValueError, match="No gradients provided"):
        opt.minimize(c * 2.0, var_list=[w])
    # As TF: an integer variable the loss does not reach gets a None gradient, no error
    assert opt.compute_gradients(tf.reduce_sum(w), var_list=[i]) == [(None, i)]
    with pytest.raises(ValueError, match="No gradients provided"):
        opt.apply_gradients([(None, w)])
    with pytest.raises(ValueError, match="No variables provided"):
        opt.apply_gradients([])
    with pytest.raises(ValueError, match="shape"):
        opt.apply_gradients([(tf.constant(np.ones(3, np.float32)), w)])
    with pytest.raises(ValueError, match="more than once"):
        g = tf.constant(np.ones((2, 3), np.float32))
        opt.apply_gradients([(g, w), (g, w)])
    with pytest.raises(ValueError, match="initial_accumulator_value"):
        train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)
    tf.reset_default_graph()
    with pytest.raises(ValueError, match="No variables to optimize"):
        train.GradientDescentOptimizer(0.1).minimize(tf.constant(1.0))


def test_eager_and_unknown_shape_errors() -> None:
    v = tf.Variable(np.ones(2, np.float32), validate_shape=False, name="v")
    with pytest.raises(ValueError, match="fully defined"):
        train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(v), var_list=[v])
    with tf.EagerSession(), pytest.raises(RuntimeError, match="EagerSession"):
        train.GradientDescentOptimizer(0.1).minimize(tf.constant(1.0))


def test_slots_are_reused_across_minimize_calls() -> None:
    w = tf.Variable(W0, name="w")
    opt = train.MomentumOptimizer(0.05, 0.9)
    op1 = opt.minimize(_loss_graph(w))
    slot = opt.get_slot(w, "momentum")
    op2 = opt.minimize(2.0 * _loss_graph(w))
    assert opt.get_slot(w, "momentum") is slot
    assert op1.name == "Momentum" and op2.name == "Momentum_1"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(op1)
        sess.run(op2)
        # accum after two steps: a1 = g1, a2 = 0.9 g1 + 2 g2
        g1 = np.asarray(_grad(jnp.asarray(W0)))
        w1 = W0 - 0.05 * g1
        g2 = 2.0 * np.asarray(_grad(jnp.asarray(w1)))
        np.testing.assert_allclose(sess.run(slot), 0.9 * g1 + g2, rtol=1e-5, atol=1e-6)


def test_optax_optimizer_extension() -> None:
    w = tf.Variable(W0, name="w")

    def lion(lr):
        return optax.lion(lr, b1=0.9, b2=0.99)

    opt = train.OptaxOptimizer(lion, 0.01, slot_names={"mu": "m"})
    train_op = opt.minimize(_loss_graph(w))
    assert opt.get_slot_names() == ["m"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train_op)
        got = np.asarray(sess.run(w))
    want = _optax_reference(lambda t: lion(0.01), 3)[-1]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_training_in_two_sessions_is_independent() -> None:
    w = tf.Variable(W0, name="w")
    train_op = train.AdamOptimizer(0.1).minimize(_loss_graph(w))
    s1, s2 = tf.Session(), tf.Session()
    _OPEN.extend([s1, s2])
    for s in (s1, s2):
        s.run(tf.global_variables_initializer())
    for _ in range(3):
        s1.run(train_op)
    s2.run(train_op)
    assert not np.allclose(s1.run(w), s2.run(w))
    for _ in range(2):
        s2.run(train_op)
    np.testing.assert_array_equal(s1.run(w), s2.run(w))
