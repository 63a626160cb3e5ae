"""Tests of ``Session.lower``, ``export``/``load_exported`` and ``graph_function``."""

from __future__ import annotations

from collections import namedtuple

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxsess as tf
from jaxsess import errors
from jaxsess.export import export, graph_function, load_exported

RS = np.random.RandomState(0)
X = RS.randn(6, 4).astype(np.float32)
Y = RS.randint(0, 3, 6).astype(np.int32)


def model() -> dict[str, object]:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        y = tf.placeholder(tf.int32, [None], name="y")
        w = tf.Variable(tf.random_normal([4, 3], seed=1), name="w")
        b = tf.Variable(tf.constant([0.1, -0.2, 0.3]), name="b")
        logits = tf.matmul(x, w) + b
        probs = tf.nn.softmax(logits, name="probs")
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits), name="loss")
        grads = tf.gradients(loss, [w, b])
        train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        init = tf.global_variables_initializer()
    return {"g": g, "x": x, "y": y, "w": w, "b": b, "logits": logits, "probs": probs, "loss": loss,
            "grads": grads, "train": train, "init": init}


@pytest.fixture
def m() -> dict[str, object]:
    return model()


@pytest.fixture
def sess(m: dict[str, object]) -> tf.Session:
    s = tf.Session(graph=m["g"])
    s.run(m["init"])
    yield s
    s.close()


# -- Session.lower ------------------------------------------------------------------------


def test_lower_gives_stablehlo_with_variables_as_arguments(m: dict, sess: tf.Session) -> None:
    lowered = sess.lower(m["loss"], {m["x"]: jax.ShapeDtypeStruct((6, 4), np.float32), m["y"]: Y})
    assert isinstance(lowered, jax.stages.Lowered)
    text = lowered.as_text()
    assert "stablehlo" in text
    main = next(line for line in text.splitlines() if "func.func public @main" in line)
    assert "tensor<4x3xf32>" in main and "tensor<3xf32>" in main  # w and b are arguments
    assert "tensor<6x4xf32>" in main and "tensor<6xi32>" in main  # the feeds
    compiled = lowered.compile()
    cost = compiled.cost_analysis()
    assert cost["flops"] > 0
    # Lowering runs nothing: the variables are unchanged and usable.
    np.testing.assert_allclose(sess.run(m["b"]), [0.1, -0.2, 0.3], rtol=1e-6)


def test_lower_of_a_train_op_donates_the_written_variables(m: dict, sess: tf.Session) -> None:
    text = sess.lower(m["train"], {m["x"]: X, m["y"]: Y}).as_text()
    assert "tf.aliasing_output" in text or "jax.buffer_donor" in text


def test_lower_accepts_uninitialised_variables_and_checks_dtypes(m: dict) -> None:
    with tf.Session(graph=m["g"]) as s:
        assert "stablehlo" in s.lower(m["probs"], {m["x"]: X}).as_text()
        with pytest.raises(ValueError, match="dtype"):
            s.lower(m["probs"], {m["x"]: jax.ShapeDtypeStruct((2, 4), np.int32)})
        with pytest.raises(errors.InvalidArgumentError, match="You must feed"):
            s.lower(m["probs"])


# -- export -------------------------------------------------------------------------------


def test_export_for_three_platforms_with_symbolic_batch(m: dict, sess: tf.Session) -> None:
    exp = export([m["probs"], m["loss"]], [m["x"], m["y"]], session=sess)
    assert isinstance(exp, jax.export.Exported)
    assert exp.platforms == ("cpu", "cuda", "tpu")
    assert str(exp.in_avals[0].shape) == "(b, 4)"
    for n in (1, 6):
        got = exp.call(X[:n], Y[:n])
        want = sess.run([m["probs"], m["loss"]], {m["x"]: X[:n], m["y"]: Y[:n]})
        for a, b in zip(got, want, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-6)


def test_serialize_and_load_round_trip(m: dict, sess: tf.Session) -> None:
    pytest.importorskip("flatbuffers")
    blob = export({"p": m["probs"], "l": m["loss"]}, [m["x"], m["y"]], session=sess).serialize()
    assert isinstance(blob, bytes | bytearray)
    loaded = load_exported(bytes(blob))
    assert loaded.platforms == ("cpu", "cuda", "tpu")
    got = loaded.call(X, Y)
    want = sess.run({"p": m["probs"], "l": m["loss"]}, {m["x"]: X, m["y"]: Y})
    assert set(got) == {"p", "l"}
    np.testing.assert_allclose(got["p"], want["p"], rtol=1e-6)
    np.testing.assert_allclose(got["l"], want["l"], rtol=1e-6)
    # Usable inside other JAX code.
    np.testing.assert_allclose(jax.jit(lambda a, b: loaded.call(a, b)["l"] * 2)(X, Y), want["l"] * 2, rtol=1e-6)
    with pytest.raises(TypeError, match="bytes"):
        load_exported("not bytes")  # type: ignore[arg-type]


def test_export_bakes_in_the_current_variable_values(m: dict, sess: tf.Session) -> None:
    before = np.asarray(sess.run(m["probs"], {m["x"]: X}))
    exp = export(m["probs"], [m["x"]], session=sess, platforms=("cpu",))
    for _ in range(3):
        sess.run(m["train"], {m["x"]: X, m["y"]: Y})
    after = np.asarray(sess.run(m["probs"], {m["x"]: X}))
    assert not np.allclose(before, after)
    np.testing.assert_allclose(exp.call(X), before, rtol=1e-6)  # a snapshot at export time
    np.testing.assert_allclose(export(m["probs"], [m["x"]], session=sess, platforms=("cpu",)).call(X), after, rtol=1e-6)


def test_export_uses_the_default_session_and_structures(m: dict, sess: tf.Session) -> None:
    Pair = namedtuple("Pair", ["probs", "loss"])
    with sess.as_default():
        exp = export({"pair": Pair(m["probs"], m["loss"]), "op": m["train"]}, ["x:0", "y:0"], platforms=("cpu",))
    out = exp.call(X, Y)
    assert isinstance(out["pair"], tuple) and len(out["pair"]) == 2  # namedtuples export as tuples
    assert out["op"] is None
    np.testing.assert_allclose(out["pair"][1], sess.run(m["loss"], {m["x"]: X, m["y"]: Y}), rtol=1e-6)


def test_export_train_op_is_pure(m: dict, sess: tf.Session) -> None:
    exp = export([m["loss"], m["train"]], [m["x"], m["y"]], session=sess, platforms=("cpu",))
    l1, _ = exp.call(X, Y)
    l2, _ = exp.call(X, Y)
    assert float(l1) == float(l2)  # assignments inside do not persist


def test_export_random_ops_fix_the_counter(m: dict) -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 5])
        r = tf.nn.dropout(x, rate=0.5, seed=4)
        u = tf.random_uniform([3], seed=9)
    with tf.Session(graph=g) as s:
        ones = np.ones((2, 5), np.float32)
        s.run([r, u], {x: ones})  # counters move on (by the values drawn: 10 and 3)
        exp = export([r, u], [x], session=s, platforms=("cpu",))
        a = exp.call(ones)
        b = exp.call(ones)
        np.testing.assert_array_equal(a[1], b[1])  # every call draws the same values
        nxt = s.run([r, u], {x: ones})  # the session's next draw uses the same counter
        np.testing.assert_array_equal(a[0], nxt[0])
        np.testing.assert_array_equal(a[1], nxt[1])


def test_export_polymorphic_shapes_and_stateless_without_session() -> None:
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, [None, 3], name="a")
        b = tf.placeholder(tf.float32, [None, 3], name="b")
        out = tf.concat([a, b], axis=0)
        s = tf.reduce_sum(a, axis=0) + tf.reduce_sum(b, axis=0)
    exp = export([out, s], [a, b], platforms=("cpu",), polymorphic_shapes=["(n, 3)", "(k, 3)"])
    va, vb = np.ones((2, 3), np.float32), np.full((5, 3), 2.0, np.float32)
    o, t = exp.call(va, vb)
    assert o.shape == (7, 3)
    np.testing.assert_allclose(t, [12.0, 12.0, 12.0])
    # Default names: dimension 0 is one shared batch size "b".
    exp2 = export(a + b, [a, b], platforms=("cpu",))
    assert [str(v.shape) for v in exp2.in_avals] == ["(b, 3)", "(b, 3)"]


def test_export_errors(m: dict) -> None:
    with pytest.raises(errors.InvalidArgumentError, match="You must feed"):
        export(m["loss"], [m["x"]], platforms=("cpu",))
    with pytest.raises(ValueError, match="session"):
        export(m["probs"], [m["x"]], platforms=("cpu",))
    with tf.Session(graph=m["g"]) as s, pytest.raises(errors.FailedPreconditionError, match="uninitialized"):
        export(m["probs"], [m["x"]], session=s, platforms=("cpu",))
    g = tf.Graph()
    with g.as_default():
        z = tf.placeholder(tf.float32, None)
        twice = z * 2.0
    with pytest.raises(ValueError, match="unknown rank"):
        export(twice, [z], platforms=("cpu",))
    assert export(twice, [z], platforms=("cpu",), polymorphic_shapes=["(n, 2)"]).call(np.ones((3, 2), np.float32)).shape == (3, 2)
    with pytest.raises(ValueError, match="polymorphic_shapes has"):
        export(twice, [z], platforms=("cpu",), polymorphic_shapes=[])


# -- graph_function ------------------------------------------------------------------------


def test_graph_function_values_and_variables(m: dict, sess: tf.Session) -> None:
    f = graph_function(m["loss"], [m["x"], m["y"]], session=sess)
    assert set(f.variable_names) == {"w", "b"}
    vs = f.variables(sess)
    np.testing.assert_allclose(f(vs, X, Y), sess.run(m["loss"], {m["x"]: X, m["y"]: Y}), rtol=1e-6)
    np.testing.assert_allclose(jax.jit(f)(vs, X, Y), sess.run(m["loss"], {m["x"]: X, m["y"]: Y}), rtol=1e-6)
    with pytest.raises(KeyError, match="w"):
        f({"b": vs["b"]}, X, Y)
    with pytest.raises(TypeError, match="2 feed"):
        f(vs, X)
    with sess.as_default():
        assert set(f.variables()) == {"w", "b"}


def test_graph_function_variables_are_owned_by_the_caller(m: dict) -> None:
    f = graph_function(m["probs"], [m["x"]])
    with tf.Session(graph=m["g"]) as s:
        s.run(m["init"])
        vs = f.variables(s)
        s.run(m["train"], {m["x"]: X, m["y"]: Y})  # donates the old buffers
    assert not vs["w"].is_deleted()
    assert f(vs, X).shape == (6, 3)


def test_graph_function_grad_matches_tf_gradients(m: dict, sess: tf.Session) -> None:
    f = graph_function(m["loss"], [m["x"], m["y"]])
    vs = f.variables(sess)
    g = jax.grad(lambda v: f(v, X, Y))(vs)
    gw, gb = sess.run(m["grads"], {m["x"]: X, m["y"]: Y})
    np.testing.assert_allclose(g["w"], gw, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(g["b"], gb, rtol=1e-5, atol=1e-6)
    # Gradients with respect to the inputs too.
    gx = jax.grad(lambda x: f(vs, x, Y))(X)
    assert gx.shape == X.shape


def test_graph_function_vmap_matches_a_loop(m: dict, sess: tf.Session) -> None:
    f = graph_function(m["probs"], [m["x"]])
    vs = f.variables(sess)
    batched = jax.vmap(f, in_axes=(None, 0))(vs, X[:, None, :])
    for i in range(len(X)):
        np.testing.assert_allclose(batched[i], sess.run(m["probs"], {m["x"]: X[i:i + 1]}), rtol=1e-5, atol=1e-7)
    # vmap over the variables: an ensemble of models.
    stacked = {k: jnp.stack([v, v * 2]) for k, v in vs.items()}
    ens = jax.vmap(f, in_axes=(0, None))(stacked, X)
    assert ens.shape == (2, 6, 3)
    np.testing.assert_allclose(ens[0], sess.run(m["probs"], {m["x"]: X}), rtol=1e-5)


def test_graph_function_apply_runs_a_train_step_like_the_session(m: dict, sess: tf.Session) -> None:
    f = graph_function([m["loss"], m["train"]], [m["x"], m["y"]])
    assert set(f.assigned_names) == {"w", "b"}
    vs = f.variables(sess)
    step = jax.jit(f.apply)
    for _ in range(3):
        (loss, _), vs = step(vs, X, Y)
        sess.run(m["train"], {m["x"]: X, m["y"]: Y})
    np.testing.assert_allclose(vs["w"], sess.run(m["w"]), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(vs["b"], sess.run(m["b"]), rtol=1e-5, atol=1e-6)


def test_graph_function_in_a_plain_jax_training_loop(m: dict, sess: tf.Session) -> None:
    f = graph_function(m["loss"], [m["x"], m["y"]])
    vs = f.variables(sess)

    @jax.jit
    def train(vs: dict) -> dict:
        def body(v: dict, _: None) -> tuple[dict, None]:
            g = jax.grad(lambda p: f(p, X, Y))(v)
            return jax.tree.map(lambda p, d: p - 0.5 * d, v, g), None

        return jax.lax.scan(body, vs, None, length=4)[0]

    out = train(vs)
    for _ in range(4):
        sess.run(m["train"], {m["x"]: X, m["y"]: Y})
    np.testing.assert_allclose(out["w"], sess.run(m["w"]), rtol=1e-5, atol=1e-6)


def test_graph_function_rng_counter() -> None:
    g = tf.Graph()
    with g.as_default():
        r = tf.random_normal([4], seed=3)
    f = graph_function(r, [])
    a, b = f({}), f({}, rng_counter=4)  # the counter after one run: the 4 values drawn
    assert not np.array_equal(a, b)
    with tf.Session(graph=g) as s:
        np.testing.assert_array_equal(s.run(r), a)
        np.testing.assert_array_equal(s.run(r), b)
    many = jax.vmap(lambda c: f({}, rng_counter=c))(jnp.arange(3, dtype=jnp.uint32) * 4)
    np.testing.assert_array_equal(many[1], b)
