"""Tests of ``cond``, ``case`` and ``while_loop``, as ``tf.compat.v1``."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxsess as tf


def val(sess: tf.Session, t: Any, feed: Any = None) -> Any:
    return jax.tree_util.tree_map(np.asarray, sess.run(t, feed))


class TestCond:
    def test_fed_predicate_picks_the_branch(self, sess: tf.Session) -> None:
        p = tf.placeholder(tf.bool, [])
        x = tf.placeholder(tf.float32, [3])
        r = tf.cond(p, lambda: x * 2.0, lambda: x - 1.0)
        assert r.shape.as_list() == [3] and r.dtype == tf.float32
        xv = np.array([1.0, 2.0, 3.0], np.float32)
        np.testing.assert_array_equal(val(sess, r, {p: True, x: xv}), xv * 2)
        np.testing.assert_array_equal(val(sess, r, {p: False, x: xv}), xv - 1)

    def test_predicate_computed_in_the_graph(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [])
        r = tf.cond(x > 0.0, lambda: tf.sqrt(x), lambda: -x)
        assert float(val(sess, r, {x: 4.0})) == 2.0
        assert float(val(sess, r, {x: -3.0})) == 3.0

    def test_only_the_taken_branch_value_is_returned(self, sess: tf.Session) -> None:
        # The untaken branch would give NaN/inf; the result shows none of it.
        x = tf.placeholder(tf.float32, [])
        r = tf.cond(x > 0.0, lambda: tf.log(x), lambda: tf.constant(-1.0))
        assert float(val(sess, r, {x: -5.0})) == -1.0
        assert np.isclose(float(val(sess, r, {x: np.e})), 1.0)

    def test_python_bool_predicate_builds_one_branch(self) -> None:
        calls: list[str] = []

        def t() -> Any:
            calls.append("t")
            return tf.constant(1)

        def f() -> Any:
            calls.append("f")
            return tf.constant(2)

        r = tf.cond(True, t, f)
        assert calls == ["t"]
        with tf.Session() as s:
            assert int(s.run(r)) == 1

    def test_structures(self, sess: tf.Session) -> None:
        p = tf.placeholder(tf.bool, [])
        x = tf.constant(3.0)
        r = tf.cond(p, lambda: {"a": x, "b": (x * 2.0, tf.constant(1))},
                    lambda: {"a": -x, "b": (x * 3.0, tf.constant(2))})
        assert set(r) == {"a", "b"}
        out = val(sess, r, {p: False})
        assert float(out["a"]) == -3.0 and float(out["b"][0]) == 9.0 and int(out["b"][1]) == 2

    def test_nested_cond(self, sess: tf.Session) -> None:
        a = tf.placeholder(tf.bool, [])
        b = tf.placeholder(tf.bool, [])
        x = tf.placeholder(tf.int32, [])
        r = tf.cond(a, lambda: tf.cond(b, lambda: x + 1, lambda: x + 2), lambda: x * 10)
        for av, bv, expect in [(True, True, 6), (True, False, 7), (False, True, 50), (False, False, 50)]:
            assert int(val(sess, r, {a: av, b: bv, x: 5})) == expect

    def test_branches_read_variables(self, sess: tf.Session) -> None:
        v = tf.Variable(10.0, name="v")
        p = tf.placeholder(tf.bool, [])
        r = tf.cond(p, lambda: v * 2.0, lambda: v.read_value() + 1.0)
        sess.run(v.initializer)
        assert float(val(sess, r, {p: True})) == 20.0
        assert float(val(sess, r, {p: False})) == 11.0

    def test_result_shapes_merge(self) -> None:
        p = tf.placeholder(tf.bool, [])
        a = tf.placeholder(tf.float32, [2, 3])
        b = tf.placeholder(tf.float32, [None, 3])
        assert tf.cond(p, lambda: a, lambda: b).shape.as_list() == [None, 3]

    def test_mismatched_branch_dtypes(self) -> None:
        p = tf.placeholder(tf.bool, [])
        with pytest.raises(TypeError, match="same dtype.*float32.*int32"):  # as TF
            tf.cond(p, lambda: tf.constant(1.0), lambda: tf.constant(1))

    def test_mismatched_branch_structures(self) -> None:
        p = tf.placeholder(tf.bool, [])
        with pytest.raises(ValueError, match="structure"):
            tf.cond(p, lambda: (tf.constant(1.0), tf.constant(2.0)), lambda: tf.constant(1.0))

    def test_incompatible_branch_shapes(self) -> None:
        p = tf.placeholder(tf.bool, [])
        with pytest.raises(ValueError, match="shape"):
            tf.cond(p, lambda: tf.constant([1.0, 2.0]), lambda: tf.constant([1.0, 2.0, 3.0]))

    def test_non_scalar_predicate(self) -> None:
        p = tf.placeholder(tf.bool, [2])
        with pytest.raises(ValueError, match="scalar"):
            tf.cond(p, lambda: tf.constant(1), lambda: tf.constant(2))

    def test_branch_not_callable(self) -> None:
        p = tf.placeholder(tf.bool, [])
        with pytest.raises(TypeError):
            tf.cond(p, tf.constant(1), lambda: tf.constant(2))

    def test_assign_in_branch_runs_in_the_taken_branch(self, sess: tf.Session) -> None:
        v = tf.Variable(1.0, name="v")
        p = tf.placeholder(tf.bool, [])
        r = tf.cond(p, lambda: v.assign(2.0), lambda: v.read_value())
        later = r + v.value()  # a read made outside: the value at the start of the run
        with tf.control_dependencies([r]):
            after = tf.identity(v)
        sess.run(v.initializer)
        assert float(val(sess, r, {p: False})) == 1.0
        assert float(val(sess, v)) == 1.0
        assert val(sess, [r, after], {p: True}) == [2.0, 2.0]
        assert float(val(sess, v)) == 2.0
        sess.run(v.initializer)
        assert float(val(sess, later, {p: True})) == 3.0

    def test_failed_run_keeps_variables_assigned_in_branches(self, sess: tf.Session) -> None:
        v = tf.Variable(1.0, name="v")
        p = tf.placeholder(tf.bool, [])
        x = tf.placeholder(tf.float32, [2])
        r = tf.cond(p, lambda: v.assign_add(1.0) + x, lambda: v.read_value() + x)
        sess.run(v.initializer)
        with pytest.raises(ValueError):
            sess.run(r, {p: True, x: [1.0, 2.0, 3.0]})
        assert float(val(sess, v)) == 1.0

    def test_gradient_through_cond(self, sess: tf.Session) -> None:
        p = tf.placeholder(tf.bool, [])
        x = tf.placeholder(tf.float32, [3])
        y = tf.reduce_sum(tf.cond(p, lambda: x * x * x, lambda: tf.sin(x) * 2.0))
        (g,) = tf.gradients(y, x)
        xv = np.array([0.5, 1.0, 2.0], np.float32)

        def f(x: Any, p: bool) -> Any:
            return jnp.sum(jax.lax.cond(p, lambda x: x**3, lambda x: jnp.sin(x) * 2.0, x))

        for pv in (True, False):
            np.testing.assert_allclose(val(sess, g, {p: pv, x: xv}), jax.grad(f)(xv, pv), rtol=1e-6)

    def test_gradient_to_a_captured_tensor(self, sess: tf.Session) -> None:
        p = tf.placeholder(tf.bool, [])
        w = tf.placeholder(tf.float32, [])
        x = tf.constant(3.0)
        y = tf.cond(p, lambda: w * x, lambda: w * w)
        (g,) = tf.gradients(y, w)
        assert float(val(sess, g, {p: True, w: 2.0})) == 3.0
        assert float(val(sess, g, {p: False, w: 2.0})) == 4.0


class TestCase:
    def test_first_true_predicate_wins(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.int32, [])
        r = tf.case([(x < 0, lambda: tf.constant(-1)), (x < 10, lambda: tf.constant(1)),
                     (x < 100, lambda: tf.constant(2))], default=lambda: tf.constant(3))
        for xv, expect in [(-5, -1), (5, 1), (50, 2), (500, 3)]:
            assert int(val(sess, r, {x: xv})) == expect

    def test_without_default_the_last_pair_is_the_default(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.int32, [])
        r = tf.case([(x < 0, lambda: tf.constant(-1)), (x > 100, lambda: tf.constant(100))])
        assert int(val(sess, r, {x: -3})) == -1
        assert int(val(sess, r, {x: 5})) == 100  # no predicate holds: the last function runs

    def test_dict_pairs(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [])
        r = tf.case({x > 0.0: lambda: x * 2.0}, default=lambda: x * 0.0)
        assert float(val(sess, r, {x: 2.0})) == 4.0
        assert float(val(sess, r, {x: -2.0})) == 0.0

    def test_branch_values(self, sess: tf.Session) -> None:
        i = tf.placeholder(tf.int32, [])
        x = tf.placeholder(tf.float32, [2])
        r = tf.case([(tf.equal(i, 0), lambda: x + 1.0), (tf.equal(i, 1), lambda: x * x)],
                    default=lambda: -x)
        xv = np.array([2.0, 3.0], np.float32)
        np.testing.assert_array_equal(val(sess, r, {i: 0, x: xv}), xv + 1)
        np.testing.assert_array_equal(val(sess, r, {i: 1, x: xv}), xv * xv)
        np.testing.assert_array_equal(val(sess, r, {i: 7, x: xv}), -xv)

    def test_only_default(self, sess: tf.Session) -> None:
        assert int(val(sess, tf.case([], default=lambda: tf.constant(9)))) == 9

    def test_mismatched_dtypes(self) -> None:
        x = tf.placeholder(tf.int32, [])
        with pytest.raises(TypeError, match="dtype"):  # as TF
            tf.case([(x < 0, lambda: tf.constant(1.0))], default=lambda: tf.constant(1))

    def test_exclusive_checks_at_run_time_and_leaves_variables(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.int32, [])
        v = tf.Variable(1.0)
        out = tf.case([(x < 0, lambda: tf.constant(1.0)), (x < 5, lambda: tf.constant(2.0))],
                      default=lambda: tf.constant(3.0), exclusive=True)
        step = tf.assign_add(v, out)
        sess.run(v.initializer)
        assert sess.run(out, {x: 3}) == 2.0
        assert sess.run(out, {x: 7}) == 3.0
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"exclusive=True: more than 1 conditions"):
            sess.run(step, {x: -1})
        assert sess.run(v) == 1.0
        assert sess.run(step, {x: 3}) == 3.0


class TestWhileLoop:
    def test_sum(self, sess: tf.Session) -> None:
        i0 = tf.constant(0)
        s0 = tf.constant(0)
        _, s = tf.while_loop(lambda i, s: i < 10, lambda i, s: (i + 1, s + i), [i0, s0])
        assert int(val(sess, s)) == 45

    def test_factorial_with_fed_n(self, sess: tf.Session) -> None:
        n = tf.placeholder(tf.int32, [])
        _, f = tf.while_loop(lambda i, f: i <= n, lambda i, f: (i + 1, f * i), [tf.constant(1), tf.constant(1)])
        assert [int(val(sess, f, {n: k})) for k in range(7)] == [1, 1, 2, 6, 24, 120, 720]

    def test_single_loop_var(self, sess: tf.Session) -> None:
        r = tf.while_loop(lambda x: x < 100.0, lambda x: x * 2.0, [tf.constant(1.0)])
        assert isinstance(r, tf.Tensor)
        assert float(val(sess, r)) == 128.0
        r2 = tf.while_loop(lambda x: x < 100.0, lambda x: x * 3.0, tf.constant(1.0))
        assert float(val(sess, r2)) == 243.0

    def test_maximum_iterations(self, sess: tf.Session) -> None:
        r = tf.while_loop(lambda i: i < 1000, lambda i: i + 1, [tf.constant(0)], maximum_iterations=7)
        assert int(val(sess, r)) == 7
        r2 = tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)], maximum_iterations=7)
        assert int(val(sess, r2)) == 3

    def test_maximum_iterations_must_be_static(self) -> None:
        m = tf.placeholder(tf.int32, [])
        with pytest.raises(ValueError, match="maximum_iterations"):
            tf.while_loop(lambda i: i < 10, lambda i: i + 1, [tf.constant(0)], maximum_iterations=m)

    def test_tuple_and_nested_structures(self, sess: tf.Session) -> None:
        init = (tf.constant(0), (tf.constant(1.0), tf.constant([1.0, 1.0])))
        r = tf.while_loop(lambda i, p: i < 3, lambda i, p: (i + 1, (p[0] * 2.0, p[1] + p[0])), init)
        assert isinstance(r, tuple)
        i, (a, b) = val(sess, r)
        assert int(i) == 3 and float(a) == 8.0
        np.testing.assert_array_equal(b, [8.0, 8.0])  # 1 + 1 + 2 + 4

    def test_captured_tensors_and_variables(self, sess: tf.Session) -> None:
        step = tf.placeholder(tf.float32, [])
        v = tf.Variable(2.0, name="v")
        _, x = tf.while_loop(lambda i, x: i < 4, lambda i, x: (i + 1, x * v + step),
                             [tf.constant(0), tf.constant(1.0)])
        sess.run(v.initializer)
        expect = 1.0
        for _ in range(4):
            expect = expect * 2.0 + 0.5
        assert float(val(sess, x, {step: 0.5})) == expect

    def test_shape_invariants_for_unknown_dims(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [None])
        _, r = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2.0), [tf.constant(0), x],
                             shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
        assert r.shape.as_list() == [None]
        np.testing.assert_array_equal(val(sess, r, {x: [1.0, 2.0]}), [8.0, 16.0])
        np.testing.assert_array_equal(val(sess, r, {x: [1.0, 2.0, 3.0]}), [8.0, 16.0, 24.0])

    def test_shape_invariants_relax_the_static_shape(self) -> None:
        x = tf.constant([1.0, 2.0])
        r = tf.while_loop(lambda x: tf.reduce_sum(x) < 10.0, lambda x: x * 2.0, [x],
                          shape_invariants=[tf.TensorShape([None])])
        assert r.shape.as_list() == [None]

    def test_body_changing_dtype_names_the_loop_var(self) -> None:
        x = tf.constant(1, name="counter")
        with pytest.raises(ValueError, match="loop var 0 .*counter.* int32 .*float32"):
            tf.while_loop(lambda x: x < 10, lambda x: tf.cast(x, tf.float32) * 2.0, [x])

    def test_body_changing_shape_names_the_loop_var(self) -> None:
        from jaxsess._tf1.ops import array_ops as array_ops

        i = tf.constant(0, name="i")
        x = tf.constant([1.0], name="acc")
        with pytest.raises(ValueError, match="loop var 1 .*acc.*shape_invariants"):
            tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, array_ops.concat([x, x], 0)), [i, x])

    def test_body_returning_wrong_number_of_vars(self) -> None:
        with pytest.raises(ValueError, match="loop vars"):
            tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1,), [tf.constant(0), tf.constant(1.0)])

    def test_cond_must_return_a_scalar_bool(self) -> None:
        with pytest.raises(ValueError, match="scalar bool"):
            tf.while_loop(lambda i: i, lambda i: i + 1, [tf.constant(0)])

    def test_not_callable(self) -> None:
        with pytest.raises(TypeError, match="callable"):
            tf.while_loop(1, lambda i: i, [tf.constant(0)])

    def test_cond_inside_loop(self, sess: tf.Session) -> None:
        # Collatz steps of 6: 6 3 10 5 16 8 4 2 1 -> 8 steps.
        def body(n: Any, k: Any) -> Any:
            nxt = tf.cond(tf.equal(tf.floormod(n, 2), 0), lambda: tf.floordiv(n, 2), lambda: 3 * n + 1)
            return nxt, k + 1

        _, steps = tf.while_loop(lambda n, k: n > 1, body, [tf.constant(6), tf.constant(0)])
        assert int(val(sess, steps)) == 8

    def test_nested_loops(self, sess: tf.Session) -> None:
        def outer_body(i: Any, total: Any) -> Any:
            _, inner = tf.while_loop(lambda j, s: j < i, lambda j, s: (j + 1, s + j), [tf.constant(0), total])
            return i + 1, inner

        _, total = tf.while_loop(lambda i, t: i < 5, outer_body, [tf.constant(0), tf.constant(0)])
        assert int(val(sess, total)) == sum(j for i in range(5) for j in range(i))

    def test_loop_inside_cond_branch(self, sess: tf.Session) -> None:
        p = tf.placeholder(tf.bool, [])
        n = tf.placeholder(tf.int32, [])
        r = tf.cond(p, lambda: tf.while_loop(lambda i: i < n, lambda i: i + 2, [tf.constant(0)]), lambda: n)
        assert int(val(sess, r, {p: True, n: 5})) == 6
        assert int(val(sess, r, {p: False, n: 5})) == 5

    def test_loop_result_feeds_later_ops(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [])
        r = tf.while_loop(lambda v: v < 50.0, lambda v: v + x, [tf.constant(0.0)])
        assert float(val(sess, r * 2.0 + 1.0, {x: 20.0})) == 121.0

    def test_assign_in_body_runs_every_iteration(self, sess: tf.Session) -> None:
        v = tf.Variable(0, name="v")

        def body(i: Any) -> Any:
            with tf.control_dependencies([v.assign_add(i)]):
                return i + 1

        r = tf.while_loop(lambda i: i < 4, body, [tf.constant(0)])
        sess.run(v.initializer)
        assert int(val(sess, r)) == 4
        assert int(val(sess, v)) == 6
        assert int(val(sess, r)) == 4
        assert int(val(sess, v)) == 12

    def test_assign_in_loop_nested_in_cond(self, sess: tf.Session) -> None:
        v = tf.Variable(0, name="v")
        p = tf.placeholder(tf.bool, [])

        def loop() -> Any:
            def body(i: Any) -> Any:
                with tf.control_dependencies([v.assign_add(i)]):
                    return i + 1

            return tf.while_loop(lambda i: i < 4, body, [tf.constant(0)])

        r = tf.cond(p, loop, lambda: tf.constant(-1))
        with tf.control_dependencies([r]):
            after = v.read_value()
        sess.run(v.initializer)
        assert val(sess, [r, after], {p: True}) == [4, 6]
        assert val(sess, [r, after], {p: False}) == [-1, 6]
        assert int(val(sess, v)) == 6

    def test_assign_in_cond_is_rejected(self) -> None:
        v = tf.Variable(0, name="v")
        with pytest.raises(NotImplementedError, match="loop condition"):
            tf.while_loop(lambda i: v.assign_add(1) < 3, lambda i: i + 1, [tf.constant(0)])

    def test_gradient_through_bounded_loop(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [])
        _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), [0, tf.constant(1.0)],
                             maximum_iterations=5)
        (g,) = tf.gradients(y, x)
        assert val(sess, [y, g], {x: 2.0}) == [8.0, 12.0]

    def test_gradient_through_loop_that_assigns(self, sess: tf.Session) -> None:
        x = tf.Variable(2.0)
        calls = tf.Variable(0)

        def body(i: Any, y: Any) -> Any:
            with tf.control_dependencies([tf.assign_add(calls, 1)]):
                return i + 1, y * x

        _, y = tf.while_loop(lambda i, y: i < 3, body, [0, tf.constant(1.0)], maximum_iterations=4)
        (g,) = tf.gradients(y, x)
        sess.run(tf.variables_initializer([x, calls]))
        assert val(sess, [y, g]) == [8.0, 12.0]
        assert int(val(sess, calls)) == 3

    def test_gradient_through_unbounded_loop_names_the_loop(self, sess: tf.Session) -> None:
        x = tf.placeholder(tf.float32, [])
        n = tf.placeholder(tf.int32, [])  # a fed bound: not a counting loop with a known trip count
        _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), [0, tf.constant(1.0)],
                             name="powers")
        with pytest.raises(ValueError, match="while_loop 'powers'.*maximum_iterations"):
            tf.gradients(y, x)
        assert float(val(sess, y, {x: 2.0, n: 3})) == 8.0


def test_switch_case_keys_must_be_contiguous() -> None:
    with pytest.raises(ValueError, match=r"contiguous range"):
        tf.switch_case(tf.constant(0), {0: lambda: tf.constant(1), 2: lambda: tf.constant(2)})
    with pytest.raises(TypeError, match=r"branch 1 must be callable"):
        tf.switch_case(tf.constant(0), [lambda: tf.constant(1), 3])
