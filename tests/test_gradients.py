"""Tests of ``gradients``, as ``tf.compat.v1.gradients``, against ``jax.grad``
of the same function written in ``jax.numpy``."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxsess as tf


def run_np(sess: tf.Session, fetches: Any, feed: Any = None) -> Any:
    out = sess.run(fetches, feed)
    if isinstance(out, list):
        return [None if o is None else np.asarray(o) for o in out]
    return np.asarray(out)


RNG = np.random.default_rng(0)
X = RNG.normal(size=(4, 3)).astype(np.float32)
W = RNG.normal(size=(3, 2)).astype(np.float32)


class TestAgainstJax:
    def test_elementwise(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [4, 3])
        y = tf.reduce_sum(tf.sin(x) * x * x + tf.exp(-x))
        (g,) = tf.gradients(y, x)
        assert g.shape.as_list() == [4, 3] and g.dtype == tf.float32

        def f(x: Any) -> Any:
            return jnp.sum(jnp.sin(x) * x * x + jnp.exp(-x))

        np.testing.assert_allclose(run_np(sess, g, {x: X}), jax.grad(f)(X), rtol=1e-5, atol=1e-6)

    def test_matmul_two_inputs(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [None, 3])
        w = tf.placeholder(tf.float32, [3, 2])
        y = tf.reduce_mean(tf.tanh(tf.matmul(x, w)) ** 2)
        gx, gw = tf.gradients(y, [x, w])

        def f(x: Any, w: Any) -> Any:
            return jnp.mean(jnp.tanh(x @ w) ** 2)

        ex, ew = jax.grad(f, argnums=(0, 1))(X, W)
        rx, rw = run_np(sess, [gx, gw], {x: X, w: W})
        np.testing.assert_allclose(rx, ex, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(rw, ew, rtol=1e-5, atol=1e-6)

    def test_reductions_and_broadcasting(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [4, 3])
        b = tf.placeholder(tf.float32, [3])
        z = x + b
        y = tf.reduce_logsumexp(z, axis=1) - tf.reduce_max(z, axis=0)[0] + tf.reduce_prod(tf.sigmoid(b))
        gx, gb = tf.gradients(y, [x, b])
        bv = np.array([0.5, -1.0, 2.0], np.float32)

        def f(x: Any, b: Any) -> Any:
            z = x + b
            return jnp.sum(jax.nn.logsumexp(z, axis=1) - jnp.max(z, axis=0)[0] + jnp.prod(jax.nn.sigmoid(b)))

        # tf.gradients differentiates sum(y) for a non-scalar y.
        ex, eb = jax.grad(f, argnums=(0, 1))(X, bv)
        rx, rb = run_np(sess, [gx, gb], {x: X, b: bv})
        np.testing.assert_allclose(rx, ex, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(rb, eb, rtol=1e-5, atol=1e-6)

    def test_division_sqrt_pow_where(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [5])
        y = tf.reduce_sum(tf.where(x > 1.0, tf.sqrt(x) / (x + 1.0), tf.pow(x, 3.0)))
        (g,) = tf.gradients(y, x)
        xv = np.array([0.5, 1.5, 2.0, 0.1, 3.0], np.float32)

        def f(x: Any) -> Any:
            return jnp.sum(jnp.where(x > 1.0, jnp.sqrt(x) / (x + 1.0), x**3))

        np.testing.assert_allclose(run_np(sess, g, {x: xv}), jax.grad(f)(xv), rtol=1e-5)

    def test_gradient_of_a_variable(self, sess: tf.Session) -> None:
        v = tf.Variable(W, name="w")
        x = tf.constant(X)
        loss = tf.reduce_sum(tf.matmul(x, v) ** 2) + tf.reduce_sum(v)  # v read twice
        (g,) = tf.gradients(loss, v)
        assert g.shape.as_list() == [3, 2]

        def f(w: Any) -> Any:
            return jnp.sum((X @ w) ** 2) + jnp.sum(w)

        sess.run(v.initializer)
        np.testing.assert_allclose(run_np(sess, g), jax.grad(f)(W), rtol=1e-5, atol=1e-5)

    def test_second_order(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        y = tf.reduce_sum(x**3)
        (g,) = tf.gradients(y, x)
        (h,) = tf.gradients(tf.reduce_sum(g), x)
        xv = np.array([1.0, 2.0, 3.0], np.float32)
        np.testing.assert_allclose(run_np(sess, h, {x: xv}), 6 * xv, rtol=1e-6)

    def test_gradients_of_several_ys_are_summed(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        y1 = tf.reduce_sum(x * x)
        y2 = tf.reduce_sum(tf.sin(x))
        (g,) = tf.gradients([y1, y2], x)
        xv = np.array([0.1, 0.2, 0.3], np.float32)
        np.testing.assert_allclose(run_np(sess, g, {x: xv}), 2 * xv + np.cos(xv), rtol=1e-6)

    def test_non_scalar_y_uses_ones(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        y = x * x  # d sum(y)/dx
        (g,) = tf.gradients(y, x)
        xv = np.array([1.0, -2.0, 3.0], np.float32)
        np.testing.assert_allclose(run_np(sess, g, {x: xv}), 2 * xv)


class TestIntermediateAndUnconnected:
    def test_gradient_with_respect_to_an_intermediate_tensor(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        h = tf.tanh(x)
        y = tf.reduce_sum(h * h * 3.0)
        (gh,) = tf.gradients(y, h)
        xv = np.array([0.1, -0.4, 0.9], np.float32)
        np.testing.assert_allclose(run_np(sess, gh, {x: xv}), 6 * np.tanh(xv), rtol=1e-5)

    def test_x_and_an_intermediate_of_x_together(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        y2 = x * 2.0
        z = tf.reduce_sum(y2 * y2) + tf.reduce_sum(x)
        gy, gx = tf.gradients(z, [y2, x])
        xv = np.array([1.0, 2.0, 3.0], np.float32)
        assert gx is not None
        ry, rx = run_np(sess, [gy, gx], {x: xv})
        np.testing.assert_allclose(ry, 4 * xv)
        np.testing.assert_allclose(rx, 8 * xv + 1)

    def test_tf_docs_example_without_stop_gradients(self, sess: tf.Session) -> None:
        a = tf.constant(0.0)
        b = 2 * a
        ga, gb = tf.gradients(a + b, [a, b])
        assert [float(v) for v in sess.run([ga, gb])] == [3.0, 1.0]

    def test_unconnected_is_none(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        q = tf.placeholder(tf.float32, [2])
        y = tf.reduce_sum(x * x)
        gx, gq = tf.gradients(y, [x, q])
        assert gq is None
        np.testing.assert_allclose(run_np(sess, gx, {x: np.ones(3, np.float32)}), 2 * np.ones(3))

    def test_unconnected_zero(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        q = tf.placeholder(tf.float32, [2])
        y = tf.reduce_sum(x * x)
        (gq,) = tf.gradients(y, [q], unconnected_gradients="zero")
        np.testing.assert_array_equal(run_np(sess, gq, {q: np.ones(2, np.float32)}), np.zeros(2))

    def test_unknown_unconnected_mode(self) -> None:
        x = tf.placeholder(tf.float32, [3])
        with pytest.raises(ValueError, match="unconnected_gradients"):
            tf.gradients(tf.reduce_sum(x), x, unconnected_gradients="ones")

    def test_y_is_x(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [2])
        (g,) = tf.gradients(x, x)
        np.testing.assert_array_equal(run_np(sess, g, {x: np.ones(2, np.float32)}), np.ones(2))


class TestStopGradient:
    def test_stop_gradient_op(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        y = tf.reduce_sum(tf.stop_gradient(x) * x)
        (g,) = tf.gradients(y, x)
        xv = np.array([1.0, 2.0, 3.0], np.float32)

        def f(x: Any) -> Any:
            return jnp.sum(jax.lax.stop_gradient(x) * x)

        np.testing.assert_allclose(run_np(sess, g, {x: xv}), jax.grad(f)(xv))
        np.testing.assert_allclose(run_np(sess, g, {x: xv}), xv)

    def test_only_path_through_stop_gradient_is_unconnected_or_zero(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        y = tf.reduce_sum(tf.stop_gradient(x * 2.0))
        (g,) = tf.gradients(y, x)
        if g is not None:  # TF1 gives None; zeros are equivalent for a stopped path
            np.testing.assert_array_equal(run_np(sess, g, {x: np.ones(3, np.float32)}), np.zeros(3))

    def test_stop_gradients_argument(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        h = x * 2.0
        y = tf.reduce_sum(h * h) + tf.reduce_sum(x * x)
        (g,) = tf.gradients(y, x, stop_gradients=[h])
        xv = np.array([1.0, 2.0, 3.0], np.float32)
        np.testing.assert_allclose(run_np(sess, g, {x: xv}), 2 * xv)  # only the direct x*x path
        assert tf.gradients(tf.reduce_sum(h * h), x, stop_gradients=[h]) == [None]

    def test_tf_docs_example_with_stop_gradients(self, sess: tf.Session) -> None:
        a = tf.constant(0.0)
        b = 2 * a
        ga, gb = tf.gradients(a + b, [a, b], stop_gradients=[a, b])
        assert [float(v) for v in sess.run([ga, gb])] == [1.0, 1.0]


class TestGradYs:
    def test_constant_grad_ys(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        y = tf.reduce_sum(x * x)
        (g,) = tf.gradients(y, x, grad_ys=[3.0])
        xv = np.array([1.0, 2.0, 3.0], np.float32)
        np.testing.assert_allclose(run_np(sess, g, {x: xv}), 6 * xv)

    def test_fed_grad_ys_is_a_vjp(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [4, 3])
        w = tf.constant(W)
        y = tf.tanh(tf.matmul(x, w))
        gy = tf.placeholder(tf.float32, [4, 2])
        (g,) = tf.gradients(y, x, grad_ys=gy)
        cot = RNG.normal(size=(4, 2)).astype(np.float32)
        _, vjp = jax.vjp(lambda x: jnp.tanh(x @ W), X)
        np.testing.assert_allclose(run_np(sess, g, {x: X, gy: cot}), vjp(cot)[0], rtol=1e-5, atol=1e-6)

    def test_grad_ys_one_per_y(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [2])
        y1, y2 = x * 2.0, x * x
        (g,) = tf.gradients([y1, y2], x, grad_ys=[[1.0, 0.0], [0.0, 1.0]])
        np.testing.assert_allclose(run_np(sess, g, {x: np.array([3.0, 4.0], np.float32)}), [2.0, 8.0])

    def test_grad_ys_wrong_length(self) -> None:
        x = tf.placeholder(tf.float32, [2])
        with pytest.raises(ValueError, match="grad_ys"):
            tf.gradients([x * 2.0], x, grad_ys=[1.0, 2.0])


class TestTraining:
    def test_manual_sgd_matches_numpy(self, sess: tf.Session) -> None:
        xv = X
        yv = (X @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)
        w = tf.Variable(np.zeros((3, 1), np.float32), name="w")
        x = tf.placeholder(tf.float32, [None, 3])
        y = tf.placeholder(tf.float32, [None, 1])
        loss = tf.reduce_mean((tf.matmul(x, w) - y) ** 2)
        (g,) = tf.gradients(loss, w)
        step = w.assign_sub(0.1 * g)
        sess.run(w.initializer)
        wn = np.zeros((3, 1), np.float32)
        losses = []
        for _ in range(20):
            losses.append(float(sess.run(loss, {x: xv, y: yv})))
            sess.run(step, {x: xv, y: yv})
            gn = 2 * xv.T @ (xv @ wn - yv) / xv.shape[0]
            wn = wn - 0.1 * gn
        np.testing.assert_allclose(np.asarray(sess.run(w)), wn, rtol=1e-4, atol=1e-5)
        assert losses[-1] < losses[0] * 0.5

    def test_gradients_in_eager_session_raise(self) -> None:
        with tf.EagerSession(), pytest.raises(RuntimeError, match="eager"):
            tf.gradients(tf.constant(1.0), tf.constant(1.0))


def test_indexed_slices() -> None:
    s = tf.IndexedSlices(tf.constant([[1.0, 1.0]]), tf.constant([2]), tf.constant([4, 2]))
    assert s.shape.as_list() == [4, 2] and s.dtype == tf.float32
    assert tf.IndexedSlices(tf.constant([[1.0, 1.0]]), tf.constant([2])).shape.as_list() == [None, 2]
    v = tf.Variable(np.ones((4, 2), np.float32))
    step = tf.train.GradientDescentOptimizer(1.0).apply_gradients([(s, v)])
    neg = tf.convert_to_tensor(-s)
    with tf.Session() as sess:
        sess.run(v.initializer)
        sess.run(step)
        np.testing.assert_array_equal(sess.run(v)[:, 0], [1.0, 1.0, 0.0, 1.0])
        np.testing.assert_array_equal(sess.run(neg)[2], [-1.0, -1.0])
    with pytest.raises(ValueError, match=r"dtype int32 for Tensor with dtype float32"):
        tf.convert_to_tensor_or_indexed_slices(s, dtype=tf.int32)
    fed_rows = tf.placeholder(tf.int32, [2])
    with pytest.raises(ValueError, match=r"dense_shape known when the graph is built"):
        tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]), fed_rows))



def test_gradients_of_gather_are_dense() -> None:
    params = tf.Variable(np.ones((5, 2), np.float32))
    g = tf.gradients(tf.reduce_sum(tf.gather(params, [1, 1, 3])), params)[0]
    assert not isinstance(g, tf.IndexedSlices) and isinstance(g, tf.Tensor)
