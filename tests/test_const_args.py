"""A frozen model's big constants are arguments of a session's compiled program, not literals
of it (``CONST_ARG_MIN_BYTES``): the same numbers, a smaller program that XLA compiles faster;
a matrix product's constant stays a literal (XLA:CPU's kernel for it sums in another order);
``Session.lower`` and ``export`` keep every constant in the program (self-contained)."""

from __future__ import annotations

import jax
import numpy as np

import jaxsess as tf
from jaxsess._core.graph._compile import supported_compiler_options
from jaxsess._core.graph._lowering import CONST_ARG_MIN_BYTES
from jaxsess._core.runtime import _graph_session
from jaxsess.export import export, load_exported

RS = np.random.RandomState(0)
W = RS.randn(3, 3, 32, 64).astype(np.float32)  # 72 KiB: a big constant
B = RS.randn(64).astype(np.float32)  # 256 bytes: a literal
D = RS.randn(64, 128).astype(np.float32)  # 32 KiB, read by a matrix product: a literal
X = RS.randn(2, 8, 8, 32).astype(np.float32)


def _frozen() -> tuple[tf.Graph, tf.Tensor, tf.Tensor, tf.Tensor]:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 8, 8, 32], name="x")
        w = tf.constant(W, name="w")
        h = tf.nn.relu(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME") + tf.constant(B, name="b"))
        y = tf.matmul(tf.reduce_mean(h, [1, 2]), tf.identity(tf.constant(D, name="d")), name="y")
    return g, x, w, y


def _leaves(compiled: jax.stages.Compiled) -> int:
    return len(jax.tree_util.tree_leaves(compiled.args_info))


def test_the_big_constant_is_an_argument_and_the_numbers_are_the_same() -> None:
    assert W.nbytes >= CONST_ARG_MIN_BYTES > B.nbytes
    g, x, _, y = _frozen()
    with tf.Session(graph=g) as s:
        compiled = s.warmup(y, {x: X.shape})  # the program a run calls
        assert _leaves(compiled) == 2  # the filter and the feed; the bias and the dense weights are literals
        got = s.run(y, {x: X})
        lowered = s.lower(y, {x: X})  # self-contained: the weights are in it
        assert _leaves(lowered.compile()) == 1
        assert "dense<" in lowered.as_text() and "3x3x32x64" in lowered.as_text()
        # compiled with the XLA options a run's program gets (Eigen's, not YNNPACK's, convolution)
        want = lowered.compile(supported_compiler_options(_graph_session.CPU_PLAN_OPTIONS))((), (), (X,))[0][0]
        np.testing.assert_array_equal(got, np.asarray(want))
        np.testing.assert_array_equal(s.run(y, {x: X}), got)


def test_a_fetched_or_assigned_big_constant_keeps_its_buffer() -> None:
    g, x, w, y = _frozen()
    with g.as_default():
        v = tf.Variable(np.zeros_like(W), name="v")
        assign = v.assign(w)
        total = tf.reduce_sum(v) + tf.reduce_sum(y)
    with tf.Session(graph=g) as s:
        s.run(v.initializer)
        for _ in range(3):  # the variable's buffer is donated by the next assign: never the constant's
            np.testing.assert_array_equal(s.run(assign), W)
            np.testing.assert_array_equal(s.run(w), W)
            np.testing.assert_array_equal(s.run([w, y], {x: X})[0], W)
        np.testing.assert_allclose(s.run(total, {x: X}), W.sum() + s.run(y, {x: X}).sum(), rtol=1e-5)


def test_export_keeps_the_big_constant_in_the_artifact() -> None:
    g, x, _, y = _frozen()
    with tf.Session(graph=g) as s:
        want = s.run(y, {x: X})
    exp = load_exported(export(y, [x], platforms=["cpu"]).serialize())
    assert len(exp.in_avals) == 1
    # The caller's JAX compiles the artifact with its own default XLA options (jax 0.10's
    # XLA:CPU: YNNPACK convolutions, summing in another order than a session's program).
    got = np.asarray(exp.call(X))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6 * float(np.abs(want).max()))
