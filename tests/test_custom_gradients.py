"""Tests of customised gradients: ``tf.RegisterGradient`` with
``Graph.gradient_override_map``, ``tf.NotDifferentiable``,
``tf.custom_gradient`` and ``tf.hessians`` (values checked against
``jax.grad``/``jax.hessian`` of the same functions; TF's own behaviour is
in the corpus programs ``v33_*``)."""

from __future__ import annotations

import io
import unittest
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxsess as tf
from jaxsess._tf1.ops import gradients as gradients_module
from jaxsess.export import graph_function

X = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]], np.float32)
SEEN: dict[str, Any] = {}


@tf.RegisterGradient("TestCGReverse")
def _reverse(op: Any, grad: Any) -> Any:
    SEEN["op"] = op
    SEEN["grad"] = grad
    return -grad


@tf.RegisterGradient("TestCGScaleByPlaceholder")
def _scale_by_placeholder(op: Any, grad: Any) -> Any:
    return grad * tf.get_default_graph().get_tensor_by_name("scale:0")


@tf.RegisterGradient("TestCGTwo")
def _two(op: Any, grad: Any) -> Any:
    return [grad, grad]


tf.NotDifferentiable("TestCGBlocked")


def _jaxpr_text(fetch: Any, feeds: list[Any], *values: Any) -> str:
    f = graph_function(fetch, feeds)
    return str(jax.make_jaxpr(lambda *a: f({}, *a))(*values))


class TestOverrideMap:
    def test_registered_function_sees_the_op_and_reverses(self, sess: tf.Session) -> None:
        g = tf.get_default_graph()
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        with g.gradient_override_map({"Identity": "TestCGReverse"}):
            y = tf.identity(x, name="rev")
        z = tf.identity(x, name="plain")  # outside the map: its own gradient
        (gx,) = tf.gradients(tf.reduce_sum(y * y) + tf.reduce_sum(z), x)
        op = SEEN["op"]
        assert op is y.op and op.inputs[0] is x and op.outputs[0] is y
        assert op.get_attr("T") == tf.float32
        assert op.get_attr("_gradient_op_type") == b"TestCGReverse"
        assert SEEN["grad"].shape.as_list() == [None, 3] and SEEN["grad"].name.startswith("gradients/rev_grad/")
        assert z.op._gradient_op_type is None
        np.testing.assert_allclose(sess.run(gx, {x: X}), -2 * X + 1)

    def test_get_attr_knows_tf_names_for_gradient_functions(self) -> None:
        a = tf.placeholder(tf.float32, [2, 2])
        s = tf.reduce_sum(a, 1)
        c = tf.cast(a, tf.int32)
        m = tf.matmul(a, a, transpose_b=True)
        assert s.op.get_attr("keep_dims") is False and s.op.get_attr("T") == tf.float32
        assert c.op.get_attr("SrcT") == tf.float32 and c.op.get_attr("DstT") == tf.int32
        assert m.op.get_attr("transpose_b") is True and m.op.get_attr("T") == tf.float32
        assert tf.constant(1).op.get_attr("dtype") == tf.int32
        for name in ("Tidx", "nothing"):
            with pytest.raises(ValueError, match=f"'Sum' has no attr named '{name}'"):
                s.op.get_attr(name)

    def test_map_is_scoped_and_nests(self) -> None:
        g = tf.get_default_graph()
        x = tf.constant(1.0)
        with g.gradient_override_map({"Identity": "A", "Neg": "B"}):
            with g.gradient_override_map({"Identity": "C"}):
                inner = tf.identity(x)
            outer, neg = tf.identity(x), tf.negative(x)
        after = tf.identity(x)
        assert inner.op.get_attr("_gradient_op_type") == b"C"
        assert outer.op.get_attr("_gradient_op_type") == b"A"
        assert neg.op.get_attr("_gradient_op_type") == b"B"
        with pytest.raises(ValueError, match="no attr named '_gradient_op_type'"):
            after.op.get_attr("_gradient_op_type")

    def test_straight_through_to_a_builtin_type(self, sess: tf.Session) -> None:
        g = tf.get_default_graph()
        x = tf.placeholder(tf.float32, [2, 3])
        with g.gradient_override_map({"Round": "Identity"}):
            q = tf.round(x * 2.0)
        (gx,) = tf.gradients(tf.reduce_sum(q * x), x)
        np.testing.assert_allclose(sess.run(gx, {x: X}), 2 * X + np.round(2 * X), rtol=1e-6)

    def test_not_differentiable(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [2, 3])
        with tf.get_default_graph().gradient_override_map({"Square": "TestCGBlocked"}):
            sq = tf.square(x)
        (gx,) = tf.gradients(tf.reduce_sum(sq + 3.0 * x), x)
        np.testing.assert_allclose(sess.run(gx, {x: X}), np.full_like(X, 3.0))

    def test_gradient_reading_a_feed_and_a_variable(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [2, 3])
        scale = tf.placeholder(tf.float32, [], name="scale")
        w = tf.Variable(np.float32(4.0))

        @tf.RegisterGradient("TestCGTimesVariable")
        def _times_w(op: Any, grad: Any) -> Any:
            return grad * w

        g = tf.get_default_graph()
        with g.gradient_override_map({"Identity": "TestCGScaleByPlaceholder", "Neg": "TestCGTimesVariable"}):
            y = tf.identity(x)
            n = tf.negative(x)
        (gx,) = tf.gradients(tf.reduce_sum(y), x)
        (gn,) = tf.gradients(tf.reduce_sum(n), x)
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError, match="placeholder tensor 'scale'"):
            sess.run(gx, {x: X})
        np.testing.assert_allclose(sess.run(gx, {x: X, scale: 0.5}), np.full_like(X, 0.5))
        np.testing.assert_allclose(sess.run(gn, {x: X}), np.full_like(X, 4.0))

    def test_ops_without_overrides_pay_nothing(self, monkeypatch: pytest.MonkeyPatch) -> None:
        calls: list[str] = []
        real = gradients_module._run_overridden

        def counting(spec: Any, ev: Any, op: Any) -> Any:
            calls.append(op.name)
            return real(spec, ev, op)

        monkeypatch.setattr(gradients_module, "_run_overridden", counting)
        g = tf.get_default_graph()
        x = tf.placeholder(tf.float32, [2, 3])
        with g.gradient_override_map({"Identity": "TestCGReverse"}):
            y = tf.identity(x, name="rev")
        (g_plain,) = tf.gradients(tf.reduce_sum(tf.sin(x)), x)
        (g_over,) = tf.gradients(tf.reduce_sum(tf.sin(y)), x)
        assert g_plain.op.attrs["overrides"] == () and g_plain.op.attrs["sub_ops"][1] == ()
        _jaxpr_text(g_plain, [x], X)
        _jaxpr_text(y, [x], X)  # the forward op alone: a plain identity
        assert calls == []
        text = _jaxpr_text(g_over, [x], X)
        assert calls == ["rev"] and "neg" in text

    def test_override_and_gradients_inside_a_loop_body(self, sess: tf.Session) -> None:
        x0 = tf.placeholder(tf.float32, [None])

        def body(i: Any, x: Any) -> Any:  # gradient *ascent*: the reversed gradient of sum(x^2)
            with tf.get_default_graph().gradient_override_map({"Identity": "TestCGReverse"}):
                y = tf.identity(x)
            (g,) = tf.gradients(tf.reduce_sum(y * y), x)
            return i + 1, x - 0.1 * g

        _, out = tf.while_loop(lambda i, x: i < 3, body, [0, x0])
        np.testing.assert_allclose(sess.run(out, {x0: [1.0, -2.0]}), np.array([1.0, -2.0]) * 1.2**3, rtol=1e-6)

    def test_py_func_with_a_registered_gradient(self, sess: tf.Session) -> None:
        @tf.RegisterGradient("TestCGPyCube")
        def _cube(op: Any, grad: Any) -> Any:
            return grad * 3.0 * tf.square(op.inputs[0])

        x = tf.placeholder(tf.float32, [2, 3])
        with tf.get_default_graph().gradient_override_map({"PyFunc": "TestCGPyCube"}):
            y = tf.py_func(lambda a: (a**3).astype(np.float32), [x], tf.float32)
        y.set_shape([2, 3])
        (gx,) = tf.gradients(tf.reduce_sum(y * 2.0), x)
        np.testing.assert_allclose(sess.run(gx, {x: X}), 6 * X**2, rtol=1e-6)  # the host op runs first
        out, g_again = sess.run([y, gx], {x: X})
        np.testing.assert_allclose(out, X**3, rtol=1e-6)
        np.testing.assert_allclose(g_again, 6 * X**2, rtol=1e-6)

    def test_graph_def_round_trip_keeps_the_override(self) -> None:
        g = tf.get_default_graph()
        x = tf.constant(X)
        with g.gradient_override_map({"Identity": "TestCGReverse"}):
            y = tf.identity(x)
        (gx,) = tf.gradients(tf.reduce_sum(y), x)
        g2 = tf.Graph()
        with g2.as_default():
            tf.import_graph_def(g.as_graph_def(), name="")
            with tf.Session(graph=g2) as s:
                np.testing.assert_allclose(s.run(g2.get_tensor_by_name(gx.name)), -np.ones_like(X))

    def test_second_order_through_a_registered_gradient(self, sess: tf.Session) -> None:
        @tf.RegisterGradient("TestCGCube")
        def _cube_grad(op: Any, grad: Any) -> Any:  # the true gradient of x**3, written by hand
            return grad * 3.0 * op.inputs[0] * op.inputs[0]

        x = tf.placeholder(tf.float32, [2, 3])
        with tf.get_default_graph().gradient_override_map({"Identity": "TestCGCube"}):
            y = tf.identity(x)  # forward: identity; backward: d(x^3)/dx
        (gx,) = tf.gradients(tf.reduce_sum(y), x)
        (ggx,) = tf.gradients(tf.reduce_sum(gx), x)
        out, out2 = sess.run([gx, ggx], {x: X})
        np.testing.assert_allclose(out, 3 * X**2, rtol=1e-6)
        np.testing.assert_allclose(out2, 6 * X, rtol=1e-6)


class TestOverrideErrors:
    def test_unregistered_name_raises_lookup_error_at_gradients(self) -> None:
        x = tf.constant(X)
        with tf.get_default_graph().gradient_override_map({"Identity": "TestCGNowhere"}):
            y = tf.identity(x, name="lost")
        with pytest.raises(LookupError, match=r"operation'lost'.*'TestCGNowhere'"):
            tf.gradients(y, x)

    def test_registering_twice_raises_key_error(self) -> None:
        with pytest.raises(KeyError, match="Registering two gradient with name 'TestCGReverse'"):
            tf.RegisterGradient("TestCGReverse")(lambda op, grad: grad)
        with pytest.raises(KeyError, match="TestCGBlocked"):
            tf.NotDifferentiable("TestCGBlocked")
        with pytest.raises(TypeError, match="op_type must be a string"):
            tf.RegisterGradient(3)  # type: ignore[arg-type]

    def test_wrong_number_of_gradients(self) -> None:
        x = tf.constant(X)
        with tf.get_default_graph().gradient_override_map({"Identity": "TestCGTwo"}):
            y = tf.identity(x, name="two")
        with pytest.raises(ValueError, match="Num gradients 2 generated for op name: two .*num inputs 1"):
            tf.gradients(y, x)

    def test_gradient_reading_a_later_tensor_is_refused(self) -> None:
        x = tf.constant(X)
        later: list[Any] = []

        @tf.RegisterGradient("TestCGReadsLater")
        def _reads_later(op: Any, grad: Any) -> Any:
            return grad * later[0]

        with tf.get_default_graph().gradient_override_map({"Identity": "TestCGReadsLater"}):
            y = tf.identity(x, name="early")
        later.append(tf.sin(y, name="after"))
        with pytest.raises(ValueError, match="of 'early' .* reads 'after:0', which the forward pass computes after"):
            tf.gradients(tf.reduce_sum(later[0]), x)

    def test_map_must_be_strings(self) -> None:
        g = tf.get_default_graph()
        with pytest.raises(TypeError, match="mapping strings to strings"), g.gradient_override_map({"Identity": 3}):  # type: ignore[dict-item]
            pass
        with pytest.raises(TypeError, match="mapping strings to strings"), g.gradient_override_map([("a", "b")]):  # type: ignore[arg-type]
            pass


@tf.custom_gradient
def log1pexp(x: Any) -> Any:
    e = tf.exp(x)

    def grad(dy: Any) -> Any:
        return dy * (1 - 1 / (1 + e))

    return tf.log(1 + e), grad


class TestCustomGradient:
    def test_log1pexp_values_and_second_order(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [None])
        y = log1pexp(x)
        assert y.op.type == "IdentityN" and y.shape.as_list() == [None]
        (gx,) = tf.gradients(tf.reduce_sum(y), x)
        (ggx,) = tf.gradients(tf.reduce_sum(gx), x)
        v = np.array([1.0, -2.0, 30.0], np.float32)
        out, g1, g2 = sess.run([y, gx, ggx], {x: v})
        np.testing.assert_allclose(out[:2], np.log1p(np.exp(v[:2])), rtol=1e-6)
        np.testing.assert_allclose(g1, jax.nn.sigmoid(v), rtol=1e-6)
        np.testing.assert_allclose(g2, jax.vmap(jax.grad(jax.nn.sigmoid))(v), rtol=1e-5, atol=1e-7)

    def test_no_gradient_flows_through_the_inner_ops(self, sess: tf.Session) -> None:
        @tf.custom_gradient
        def f(a: Any, n: Any) -> Any:
            def grad(dy: Any) -> Any:
                return dy * 7.0, None

            return tf.sin(a) * tf.cast(n, tf.float32), grad

        x = tf.placeholder(tf.float32, [2, 3])
        n = tf.constant(3)
        out = f(x, n)
        gx, gn = tf.gradients(tf.reduce_sum(out), [x, n])
        assert gn is None  # an integer input: no gradient, as TF
        np.testing.assert_allclose(sess.run(gx, {x: X}), np.full_like(X, 7.0))
        np.testing.assert_allclose(sess.run(out, {x: X}), np.sin(X) * 3, rtol=1e-6)

    def test_variables_get_the_returned_gradients_and_train(self, sess: tf.Session) -> None:
        w = tf.Variable(np.array([0.5, -1.0, 2.0], np.float32), name="w")

        @tf.custom_gradient
        def scale(a: Any) -> Any:
            def grad(dy: Any, variables: Any = None) -> Any:
                assert variables == [w]
                return dy * 2.0, [dy * a + 0.5]

            return a * w, grad

        x = tf.placeholder(tf.float32, [3])
        out = scale(x)
        gx, gw = tf.gradients(tf.reduce_sum(out), [x, w])
        train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(out))
        sess.run(tf.global_variables_initializer())
        v = np.array([1.0, -2.0, 0.25], np.float32)
        r_gx, r_gw = sess.run([gx, gw], {x: v})
        np.testing.assert_allclose(r_gx, [2.0, 2.0, 2.0])
        np.testing.assert_allclose(r_gw, v + 0.5)
        sess.run(train, {x: v})
        np.testing.assert_allclose(sess.run(w), np.array([0.5, -1.0, 2.0]) - 0.1 * (v + 0.5), rtol=1e-6)

    def test_variables_need_the_keyword(self) -> None:
        w = tf.Variable(1.0, name="needs_kw")

        @tf.custom_gradient
        def f(a: Any) -> Any:
            return a * w, lambda dy: dy

        with pytest.raises(TypeError, match="must accept keyword argument 'variables'.*needs_kw"):
            f(tf.constant(2.0))

    def test_wrong_variable_gradient_count(self) -> None:
        w = tf.Variable(1.0)

        @tf.custom_gradient
        def f(a: Any) -> Any:
            def grad(dy: Any, variables: Any = None) -> Any:
                return dy, []

            return a * w, grad

        x = tf.constant(2.0)
        with pytest.raises(ValueError, match="Must return gradient for each variable"):
            tf.gradients(f(x), x)

    def test_keyword_arguments_are_refused_in_graph_mode(self) -> None:
        with pytest.raises(ValueError, match="keywords arguments only when eager"):
            log1pexp(x=tf.constant(1.0))

    def test_eager_is_a_custom_vjp(self) -> None:
        @tf.custom_gradient
        def loud(a: Any) -> Any:
            return tf.sin(a), lambda dy: dy * 100.0

        v = jnp.asarray([0.0, 1.0])
        with tf.EagerSession():
            out = log1pexp(v)
            np.testing.assert_allclose(np.asarray(out), np.log1p(np.exp([0.0, 1.0])), rtol=1e-6)
            np.testing.assert_allclose(np.asarray(loud(v)), np.sin(v), rtol=1e-6)
            grad = jax.grad(lambda a: tf.reduce_sum(loud(a) * 2.0))(v)
            np.testing.assert_allclose(np.asarray(grad), [200.0, 200.0])
            np.testing.assert_allclose(np.asarray(jax.grad(lambda a: tf.reduce_sum(log1pexp(a)))(v)),
                                       jax.nn.sigmoid(v), rtol=1e-6)


def _cubic(v: Any) -> Any:
    return jnp.sum(v**3) + jnp.sum(v[:, :-1] * v[:, 1:])


class TestHessians:
    def test_values_and_static_shape(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [2, 3])
        (h,) = tf.hessians(tf.reduce_sum(x**3) + tf.reduce_sum(x[:, :-1] * x[:, 1:]), x)
        assert h.shape.as_list() == [2, 3, 2, 3] and h.dtype == tf.float32
        np.testing.assert_allclose(sess.run(h, {x: X}), jax.hessian(_cubic)(X), rtol=1e-5, atol=1e-6)

    def test_unknown_shape_and_no_cross_terms(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [None])
        b = tf.Variable(np.array([0.5, 2.0], np.float32))
        hx, hb = tf.hessians(tf.reduce_sum(x * x * x) * tf.reduce_sum(b * b), [x, b])
        assert hx.shape.as_list() == [None, None] and hb.shape.as_list() == [2, 2]
        sess.run(tf.global_variables_initializer())
        v = np.array([1.0, -1.0, 2.0], np.float32)
        rx, rb = sess.run([hx, hb], {x: v})
        np.testing.assert_allclose(rx, np.diag(6 * v) * 4.25, rtol=1e-6)
        np.testing.assert_allclose(rb, np.eye(2) * 2 * np.sum(v**3), rtol=1e-6)

    def test_through_a_custom_gradient(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [3])
        (h,) = tf.hessians(tf.reduce_sum(log1pexp(x)), x)
        v = np.array([1.0, -2.0, 0.5], np.float32)
        np.testing.assert_allclose(sess.run(h, {x: v}), np.diag(jax.vmap(jax.grad(jax.nn.sigmoid))(v)), rtol=1e-5)

    def test_unconnected_x_raises(self) -> None:
        x = tf.constant(X)
        with pytest.raises(ValueError, match="None values not supported"):
            tf.hessians(tf.reduce_sum(x), [x, tf.constant(1.0)])


class TestGradientChecker:
    def test_theoretical_matches_jax_and_numerical(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [2, 3])
        y = tf.reduce_sum(tf.sin(x) * x, axis=1)
        with sess.as_default():
            jt, jn = tf.test.compute_gradient(x, [2, 3], y, [2], x_init_value=X)
            err = tf.test.compute_gradient_error(x, [2, 3], y, [2], x_init_value=X)
        want = jax.jacrev(lambda v: jnp.sum(jnp.sin(v) * v, axis=1))(X).reshape(2, 6).T
        assert jt.shape == jn.shape == (6, 2) and jt.dtype == np.float32
        np.testing.assert_allclose(jt, want, rtol=1e-6)
        np.testing.assert_allclose(jn, want, atol=2e-3)
        assert isinstance(err, np.float32) and 0 < err < 2e-3

    def test_errors(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [2])
        with pytest.raises(ValueError, match="default session"):
            tf.test.compute_gradient(x, [2], x * 2.0, [2])
        with sess.as_default():
            with pytest.raises(ValueError, match="does not depend on x"):
                tf.test.compute_gradient(x, [2], tf.constant([1.0, 2.0]), [2])
            with pytest.raises(ValueError, match=r"x_shape = \[2\], init_data shape = \[3\]"):
                tf.test.compute_gradient(x, [2], x * 2.0, [2], x_init_value=np.zeros(3, np.float32))
            n = tf.placeholder(tf.int32, [2])
            with pytest.raises(TypeError, match="Don't support type int32 for x"):
                tf.test.compute_gradient(n, [2], tf.cast(n, tf.float32), [2])


class TestTestCase:
    def _run(self, case: type) -> Any:
        return unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(
            unittest.defaultTestLoader.loadTestsFromTestCase(case)
        )

    def test_sessions_assertions_and_cleanup(self) -> None:
        seen: dict[str, Any] = {}

        class Case(tf.test.TestCase):
            def test_passes(self) -> None:
                with self.cached_session() as s1:
                    c = tf.constant([[1.0, 2.0]])
                    self.assertAllClose({"a": [c, (1.0, [2.0, 3.0])]}, {"a": [[[1.0, 2.0]], (1.0, [2.0, 3.0])]})
                    self.assertAllEqual(self.evaluate(tf.shape(c)), [1, 2])
                    self.assertShapeEqual(np.zeros((1, 2)), c)
                    self.assertArrayNear([1.0, 2.0], [1.05, 1.95], 0.1)
                with self.cached_session() as s2:
                    seen["same"] = s1 is s2
                seen["session"] = s1
                seen["seed"] = tf.get_default_graph().seed

            def test_fails(self) -> None:
                self.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.5])

            def test_fails_on_shape(self) -> None:
                self.assertAllEqual([1, 2], [[1, 2]])

        result = self._run(Case)
        failed = sorted(t.id().rsplit(".", 1)[-1] for t, _ in result.failures)
        assert failed == ["test_fails", "test_fails_on_shape"] and not result.errors
        assert result.testsRun == 4 and len(result.skipped) == 1  # test_session skips itself, as TF
        assert seen["same"] and seen["seed"] == 87654321
        with pytest.raises(RuntimeError, match="closed"):
            seen["session"].run(tf.constant(1.0))  # closed by tearDown
