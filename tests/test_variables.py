"""Tests of ``Variable`` and the assign ops, as ``tf.compat.v1.Variable``.

Values live per session; reads follow the ordering rule of
``jaxsess._core.graph._lowering`` (a read ordered after an assign sees it, a plain
read sees the value at the start of the run); failed runs leave values
unchanged; replaced (donated) buffers are counted as freed.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np
import pytest

import jaxsess as tf
from jaxsess import ResourceCleanupStrategy, errors
from jaxsess._core._context import VariableStore


class TestCreation:
    def test_initial_value_and_names(self, sess: tf.Session) -> None:
        v = tf.Variable([1.0, 2.0], name="w")
        assert v.name == "w:0"
        assert v.op.name == "w"
        assert v.op.type == "VariableV2"
        assert v.dtype == tf.float32
        assert v.shape.as_list() == [2]
        assert v.initializer.type == "Assign"
        sess.run(v.initializer)
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])

    def test_default_names_are_unique(self) -> None:
        a = tf.Variable(1.0)
        b = tf.Variable(2.0)
        c = tf.Variable(3.0, name="w")
        d = tf.Variable(4.0, name="w")
        assert [x.op.name for x in (a, b, c, d)] == ["Variable", "Variable_1", "w", "w_1"]

    def test_name_scope_prefixes_the_variable(self) -> None:
        with tf.name_scope("layer"):
            v = tf.Variable(0.0, name="w")
        assert v.op.name == "layer/w"

    def test_callable_initial_value_and_dtype(self, sess: tf.Session) -> None:
        v = tf.Variable(lambda: tf.constant([[1, 2], [3, 4]]), name="m")
        assert v.dtype == tf.int32
        assert v.shape.as_list() == [2, 2]
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(v), [[1, 2], [3, 4]])

    def test_initial_value_from_another_variable(self, sess: tf.Session) -> None:
        a = tf.Variable(3.0, name="a")
        b = tf.Variable(a.initialized_value() * 2.0, name="b")
        sess.run(b.initializer)  # runs a's initializer first
        assert float(sess.run(b)) == 6.0
        assert float(sess.run(a)) == 3.0

    def test_no_initial_value_raises(self) -> None:
        with pytest.raises(ValueError, match="initial_value must be specified"):
            tf.Variable()

    def test_unknown_shape_needs_validate_shape_false(self) -> None:
        p = tf.placeholder(tf.float32, [None])
        with pytest.raises(ValueError, match="validate_shape=False"):
            tf.Variable(p)

    def test_repr(self) -> None:
        v = tf.Variable(np.zeros((2, 3), np.float32), name="w")
        assert repr(v) == "<tf.Variable 'w:0' shape=(2, 3) dtype=float32>"


class TestInitialization:
    def test_uninitialized_read_raises_failed_precondition(self, sess: tf.Session) -> None:
        v = tf.Variable([1.0], name="w")
        with pytest.raises(errors.FailedPreconditionError, match="Attempting to use uninitialized value w"):
            sess.run(v)
        with pytest.raises(errors.FailedPreconditionError, match="uninitialized value w"):
            sess.run(v * 2.0)

    def test_uninitialized_error_names_the_variable_not_others(self, sess: tf.Session) -> None:
        a = tf.Variable(1.0, name="a")
        b = tf.Variable(2.0, name="b")
        sess.run(a.initializer)
        assert float(sess.run(a)) == 1.0
        with pytest.raises(errors.FailedPreconditionError, match="uninitialized value b"):
            sess.run(a + b)

    def test_variables_initializer_subset(self, sess: tf.Session) -> None:
        a = tf.Variable(1.0, name="a")
        b = tf.Variable(2.0, name="b")
        sess.run(tf.variables_initializer([a]))
        assert float(sess.run(a)) == 1.0
        with pytest.raises(errors.FailedPreconditionError):
            sess.run(b)
        sess.run(tf.global_variables_initializer())
        assert float(sess.run(b)) == 2.0

    def test_reinitializing_resets_the_value(self, sess: tf.Session) -> None:
        v = tf.Variable(1.0, name="v")
        inc = v.assign_add(1.0)
        sess.run(v.initializer)
        sess.run(inc)
        sess.run(inc)
        assert float(sess.run(v)) == 3.0
        sess.run(v.initializer)
        assert float(sess.run(v)) == 1.0

    def test_empty_initializer_is_a_no_op(self, sess: tf.Session) -> None:
        init = tf.global_variables_initializer()
        assert sess.run(init) is None


class TestAssign:
    def test_assign_returns_the_new_value(self, sess: tf.Session) -> None:
        v = tf.Variable([1.0, 2.0], name="v")
        sess.run(v.initializer)
        np.testing.assert_array_equal(sess.run(v.assign([3.0, 4.0])), [3.0, 4.0])
        np.testing.assert_array_equal(sess.run(v), [3.0, 4.0])

    def test_assign_add_and_sub(self, sess: tf.Session) -> None:
        v = tf.Variable([1.0, 2.0], name="v")
        add = tf.assign_add(v, [10.0, 10.0])
        sub = tf.assign_sub(v, [1.0, 2.0])
        sess.run(v.initializer)
        np.testing.assert_array_equal(sess.run(add), [11.0, 12.0])
        np.testing.assert_array_equal(sess.run(add), [21.0, 22.0])
        np.testing.assert_array_equal(sess.run(sub), [20.0, 20.0])
        np.testing.assert_array_equal(sess.run(v), [20.0, 20.0])

    def test_module_level_assign_accepts_the_ref_tensor(self, sess: tf.Session) -> None:
        v = tf.Variable(1.0, name="v")
        op = tf.assign(v.value(), 7.0)
        sess.run(v.initializer)
        assert float(sess.run(op)) == 7.0

    def test_assign_with_fed_value(self, sess: tf.Session) -> None:
        v = tf.Variable(np.zeros(3, np.float32), name="v")
        p = tf.placeholder(tf.float32, [3])
        op = v.assign(p)
        sess.run(v.initializer)
        for k in range(3):
            sess.run(op, {p: np.full(3, k, np.float32)})
            np.testing.assert_array_equal(sess.run(v), np.full(3, k))

    def test_static_shape_mismatch_raises(self) -> None:
        v = tf.Variable([1.0, 2.0], name="v")
        with pytest.raises(ValueError, match="shape"):
            v.assign([1.0, 2.0, 3.0])

    def test_assign_dtype_is_the_variable_dtype(self, sess: tf.Session) -> None:
        v = tf.Variable(1, name="i")
        op = v.assign_add(2)
        assert op.dtype == tf.int32
        sess.run(v.initializer)
        assert int(sess.run(op)) == 3

    def test_load(self, sess: tf.Session) -> None:
        v = tf.Variable([0.0, 0.0], name="v")
        sess.run(v.initializer)
        v.load([5.0, 6.0], sess)
        np.testing.assert_array_equal(sess.run(v), [5.0, 6.0])
        with pytest.raises(ValueError, match="shape"):
            v.load([1.0, 2.0, 3.0], sess)

    def test_eval_with_default_session(self) -> None:
        v = tf.Variable(2.5, name="v")
        with tf.Session() as s:
            s.run(v.initializer)
            assert float(v.eval()) == 2.5
            assert float((v * 2.0).eval()) == 5.0

    def test_variable_operators(self, sess: tf.Session) -> None:
        v = tf.Variable([1.0, -2.0], name="v")
        sess.run(v.initializer)
        np.testing.assert_allclose(sess.run(v + 1.0), [2.0, -1.0])
        np.testing.assert_allclose(sess.run(2.0 * v), [2.0, -4.0])
        np.testing.assert_allclose(sess.run(-v), [-1.0, 2.0])
        np.testing.assert_allclose(sess.run(abs(v)), [1.0, 2.0])
        np.testing.assert_allclose(sess.run(v[1]), -2.0)


class TestPerSessionValues:
    def test_two_sessions_hold_independent_values(self) -> None:
        v = tf.Variable(0.0, name="v")
        inc = v.assign_add(1.0)
        s1, s2 = tf.Session(), tf.Session()
        try:
            s1.run(v.initializer)
            s2.run(v.initializer)
            for _ in range(3):
                s1.run(inc)
            s2.run(inc)
            assert float(s1.run(v)) == 3.0
            assert float(s2.run(v)) == 1.0
            s2.run(v.assign(-5.0))
            assert float(s1.run(v)) == 3.0
        finally:
            s1.close()
            s2.close()

    def test_new_session_starts_uninitialized(self) -> None:
        v = tf.Variable(1.0, name="v")
        with tf.Session() as s1:
            s1.run(v.initializer)
            assert float(s1.run(v)) == 1.0
        with tf.Session() as s2, pytest.raises(errors.FailedPreconditionError):
            s2.run(v)

    def test_graphs_are_separate(self) -> None:
        g1, g2 = tf.Graph(), tf.Graph()
        with g1.as_default():
            v1 = tf.Variable(1.0, name="v")
        with g2.as_default():
            v2 = tf.Variable(2.0, name="v")
        with tf.Session(graph=g1) as s1, tf.Session(graph=g2) as s2:
            s1.run(v1.initializer)
            s2.run(v2.initializer)
            assert float(s1.run(v1)) == 1.0
            assert float(s2.run(v2)) == 2.0


class TestReadOrdering:
    def test_read_after_assign_sees_new_value_plain_read_sees_old(self, sess: tf.Session) -> None:
        v = tf.Variable([1.0, 1.0], name="v")
        plain = v + 0.0  # reads the snapshot made with the variable
        a = v.assign([5.0, 6.0])
        with tf.control_dependencies([a]):
            after = v.read_value()
            after_expr = after * 10.0
        sess.run(v.initializer)
        r_after, r_expr, r_plain, r_fetch, r_a = sess.run([after, after_expr, plain, v, a])
        np.testing.assert_array_equal(r_after, [5.0, 6.0])
        np.testing.assert_array_equal(r_expr, [50.0, 60.0])
        np.testing.assert_array_equal(r_plain, [1.0, 1.0])
        np.testing.assert_array_equal(r_fetch, [1.0, 1.0])  # a fetched variable: start of the run
        np.testing.assert_array_equal(r_a, [5.0, 6.0])
        np.testing.assert_array_equal(sess.run(v), [5.0, 6.0])

    def test_read_ordered_by_data_dependency(self, sess: tf.Session) -> None:
        v = tf.Variable(1.0, name="v")
        a = v.assign_add(1.0)
        # Depends on `a` through data: sees the value after the assign.
        with tf.control_dependencies([a]):
            r = tf.identity(v.read_value())
        sess.run(v.initializer)
        assert float(sess.run(r)) == 2.0
        assert float(sess.run(r)) == 3.0

    def test_chained_assigns_compose(self, sess: tf.Session) -> None:
        v = tf.Variable(1.0, name="v")
        a1 = v.assign_add(1.0)
        with tf.control_dependencies([a1]):
            a2 = v.assign_add(10.0)  # reads the value after a1
        sess.run(v.initializer)
        assert float(sess.run(a2)) == 12.0
        assert float(sess.run(v)) == 12.0

    def test_unordered_assign_adds_both_land(self, sess: tf.Session) -> None:
        # TF's AssignAdd is an atomic update of the current value: both land, in some order
        # (tests/tf1_corpus/programs/v91_concurrent_updates.py records TF doing so).
        v = tf.Variable(1.0, name="v")
        a1 = v.assign_add(1.0)
        a2 = v.assign_add(10.0)  # not ordered after a1
        sess.run(v.initializer)
        r1, r2 = sess.run([a1, a2])
        assert float(sess.run(v)) == 12.0
        assert {float(r1), float(r2)} in ({2.0, 12.0}, {11.0, 12.0})  # the first to land, then the other

    def test_swap_two_variables_in_one_run(self, sess: tf.Session) -> None:
        a = tf.Variable(1.0, name="a")
        b = tf.Variable(2.0, name="b")
        swap = tf.group(a.assign(b), b.assign(a))
        sess.run(tf.global_variables_initializer())
        sess.run(swap)
        assert (float(sess.run(a)), float(sess.run(b))) == (2.0, 1.0)

    def test_counter_pattern_with_group(self, sess: tf.Session) -> None:
        step = tf.Variable(0, name="step")
        inc = step.assign_add(1)
        with tf.control_dependencies([inc]):
            doubled = step.read_value() * 2
        sess.run(step.initializer)
        assert [int(sess.run(doubled)) for _ in range(3)] == [2, 4, 6]


class TestFailedRuns:
    def test_bad_feed_shape_leaves_variables_unchanged(self, sess: tf.Session) -> None:
        v = tf.Variable([1.0, 2.0], name="v")
        p = tf.placeholder(tf.float32, [2])
        op = v.assign_add(p)
        sess.run(v.initializer)
        with pytest.raises(ValueError, match="Cannot feed value of shape"):
            sess.run(op, {p: [1.0, 2.0, 3.0]})
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(op, {p: [1.0, 1.0]}), [2.0, 3.0])

    def test_bad_feed_type_leaves_variables_unchanged(self, sess: tf.Session) -> None:
        v = tf.Variable([1.0, 2.0], name="v")
        p = tf.placeholder(tf.float32, [2])
        op = v.assign_add(p)
        sess.run(v.initializer)
        with pytest.raises(ValueError):  # NumPy's class for strings, as TF1
            sess.run(op, {p: ["a", "b"]})
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])

    def test_missing_feed_leaves_variables_unchanged(self, sess: tf.Session) -> None:
        v = tf.Variable(1.0, name="v")
        p = tf.placeholder(tf.float32, [])
        op = v.assign_add(p)
        sess.run(v.initializer)
        with pytest.raises(errors.InvalidArgumentError, match="You must feed a value for placeholder"):
            sess.run(op)
        assert float(sess.run(v)) == 1.0

    def test_run_time_shape_error_leaves_variables_usable(self, sess: tf.Session) -> None:
        # The static shape [None] passes; the fed [3] fails inside the run,
        # after the plan would have donated the variable's buffer.
        v = tf.Variable([1.0, 2.0], name="v")
        p = tf.placeholder(tf.float32, [None])
        assign = v.assign(p)
        add = v.assign_add(p)
        sess.run(v.initializer)
        with pytest.raises(errors.InvalidArgumentError, match="Assign requires shapes"):
            sess.run(assign, {p: [1.0, 2.0, 3.0]})
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])
        with pytest.raises(errors.InvalidArgumentError):
            sess.run(add, {p: [1.0, 2.0, 3.0]})
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(add, {p: [1.0, 1.0]}), [2.0, 3.0])

    def test_failed_initializer_run_keeps_other_values(self, sess: tf.Session) -> None:
        a = tf.Variable(1.0, name="a")
        p = tf.placeholder(tf.float32, [])
        b = tf.Variable(p, name="b")  # its initializer needs a feed
        sess.run(a.initializer)
        sess.run(a.assign(5.0))
        with pytest.raises(errors.InvalidArgumentError):
            sess.run(tf.global_variables_initializer())
        assert float(sess.run(a)) == 5.0
        sess.run(tf.global_variables_initializer(), {p: 3.0})
        assert (float(sess.run(a)), float(sess.run(b))) == (1.0, 3.0)


class TestCollections:
    def test_global_and_trainable(self) -> None:
        a = tf.Variable(1.0, name="a")
        b = tf.Variable(2.0, name="b", trainable=False)
        assert tf.global_variables() == [a, b]
        assert tf.trainable_variables() == [a]
        assert tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES) == [a, b]
        assert not b.trainable and a.trainable

    def test_custom_collections(self, sess: tf.Session) -> None:
        loc = tf.Variable(0.0, name="loc", collections=[tf.GraphKeys.LOCAL_VARIABLES], trainable=False)
        mine = tf.Variable(0.0, name="mine", collections=["mine"])
        assert tf.local_variables() == [loc]
        assert tf.global_variables() == []
        assert tf.get_collection("mine") == [mine]
        assert tf.trainable_variables() == [mine]
        sess.run(tf.local_variables_initializer())
        assert float(sess.run(loc)) == 0.0

    def test_scope_filter(self) -> None:
        with tf.name_scope("enc"):
            a = tf.Variable(1.0, name="w")
        with tf.name_scope("dec"):
            tf.Variable(1.0, name="w")
        assert tf.global_variables(scope="enc") == [a]
        assert tf.trainable_variables("enc") == [a]

    def test_collections_are_per_graph(self) -> None:
        g = tf.Graph()
        with g.as_default():
            v = tf.Variable(1.0)
            assert tf.global_variables() == [v]
        assert tf.global_variables() == []


class TestBuffers:
    def test_donated_buffers_are_counted_freed(self, strategy: ResourceCleanupStrategy) -> None:
        v = tf.Variable(np.zeros(256, np.float32), name="v")
        inc = v.assign_add(np.ones(256, np.float32))
        with tf.Session(cleanup=strategy) as s:
            s.run(v.initializer)
            before = s.stats()
            for _ in range(5):
                s.run(inc.op)
            after = s.stats()
            assert after.freed_buffers - before.freed_buffers == 5
            assert after.live_buffers == before.live_buffers  # one value buffer, replaced in place
            np.testing.assert_array_equal(s.run(v), np.full(256, 5.0))

    def test_fetched_assign_result_stays_valid_after_next_run(self, strategy: ResourceCleanupStrategy) -> None:
        v = tf.Variable(0.0, name="v")
        inc = v.assign_add(1.0)
        with tf.Session(cleanup=strategy) as s:
            s.run(v.initializer)
            first = s.run(inc)
            second = s.run(inc)
            assert float(first) == 1.0
            assert float(second) == 2.0

    def test_close_frees_variable_values(self) -> None:
        v = tf.Variable(np.zeros(16, np.float32), name="v")
        s = tf.Session()
        s.run(v.initializer)
        assert s.stats().live_buffers >= 1
        s.close()
        st = s.stats()
        assert st.live_buffers == 0
        assert st.closed


class TestResourceVariableReads:
    """Reads of resource variables happen where they are made (TF 2.x ``tf.compat.v1`` graph mode)."""

    def test_uses_under_control_dependencies_see_the_assignment(self, sess: tf.Session) -> None:
        v = tf.Variable(1.0, name="v")
        a = tf.assign(v, 5.0)
        with tf.control_dependencies([a]):
            y = tf.identity(v)
            plus = v + 1.0
            read = v.read_value()
            value = v.value()
        before = v * 10.0
        for t, want in ((y, 5.0), (plus, 6.0), (read, 5.0), (value, 5.0), (before, 10.0)):
            sess.run(v.initializer)
            assert float(np.asarray(sess.run(t))) == want, t.name

    def test_reference_variables_share_tf_buffers(self, sess: tf.Session) -> None:
        # Values checked against TF 2.21 (RefVariable, graph mode): uses ordered after an
        # assign see it, value() is the snapshot, a fetched variable (or identity/assign
        # output of it) is its value at the end of the run.
        v = tf.Variable(1.0, name="v", use_resource=False)
        a = tf.assign(v, 5.0)
        with tf.control_dependencies([a]):
            y = tf.identity(v)
            times = v * 2.0
            read = v.read_value()
            snap = v.value()
        inc = tf.assign_add(v, 1.0)
        cases = [(y, 5.0), (times, 10.0), (read, 5.0), (snap, 1.0), ([v, a], [5.0, 5.0]),
                 ([v * 1.0, a], [1.0, 5.0]), ([tf.identity(v), inc], [2.0, 2.0]), ([inc, v.value()], [2.0, 2.0])]
        for fetch, want in cases:
            sess.run(v.initializer)
            np.testing.assert_array_equal(sess.run(fetch), want)

    def test_fetched_reference_variable_after_a_train_step(self, sess: tf.Session) -> None:
        tf.disable_v2_behavior()
        try:
            w = tf.Variable([2.0], name="w")
        finally:
            tf.enable_v2_behavior()
        res = tf.Variable([2.0], name="res")
        loss = tf.reduce_sum(tf.square(w)) + tf.reduce_sum(tf.square(res))
        step = tf.train.GradientDescentOptimizer(0.25).minimize(loss)
        sess.run(tf.global_variables_initializer())
        _, loss_val, w_val, res_val = sess.run([step, loss, w, res])
        assert float(loss_val) == 8.0  # computed before the update
        np.testing.assert_array_equal(w_val, [1.0])  # reference variable: after the update
        np.testing.assert_array_equal(res_val, [2.0])  # resource variable: the read at the start

    def test_fetched_reference_variables_on_two_devices(self, sess: tf.Session) -> None:
        w = tf.Variable([2.0], name="w", use_resource=False)
        with tf.device("/cpu:1"):
            u = tf.Variable([3.0], name="u", use_resource=False)
            loss = tf.reduce_sum(tf.square(w)) + tf.reduce_sum(tf.square(u))
        step = tf.train.GradientDescentOptimizer(0.25).minimize(loss)
        sess.run(tf.global_variables_initializer())
        _, loss_val, w_val, u_val = sess.run([step, loss, w, u])
        assert float(loss_val) == 13.0
        np.testing.assert_array_equal(w_val, [1.0])
        np.testing.assert_array_equal(u_val, [1.5])

    def test_resource_variable_switches(self) -> None:
        assert tf.resource_variables_enabled()
        tf.disable_resource_variables()
        try:
            assert not tf.resource_variables_enabled()
            ref = tf.Variable(1.0)
        finally:
            tf.enable_resource_variables()
        res = tf.Variable(1.0)
        with tf.control_dependencies([res.assign(2.0), ref.assign(2.0)]):
            assert ref.value() is ref._snapshot  # the snapshot; other uses read ordered here
            assert tf.identity(res).op.inputs[0] is not res._snapshot


class TestVariableStore:
    """Both sessions implement the narrow interface variables, the Saver and
    export use to reach variable state (``jaxsess._core._context.VariableStore``)."""

    def test_graph_session_read_assign_is_initialized(self) -> None:
        g = tf.Graph()
        with g.as_default():
            v = tf.Variable(np.array([1.0, 2.0], np.float32), name="v")
        with tf.Session(graph=g) as s:
            assert isinstance(s, VariableStore)
            assert not s.is_initialized(v.op)
            with pytest.raises(errors.FailedPreconditionError, match="uninitialized value v"):
                s.read(v.op)
            s.run(v.initializer)
            assert s.is_initialized(v.op)
            first = s.read(v.op)
            held = s.assign(v.op, jnp_array([5.0, 6.0]))
            np.testing.assert_array_equal(s.run(v), [5.0, 6.0])
            np.testing.assert_array_equal(held, [5.0, 6.0])
            np.testing.assert_array_equal(first, [1.0, 2.0])  # a read is not changed by later assignments
            mine = jnp_array([7.0, 8.0])
            s.assign(v.op, mine, inputs=mine)  # the caller's array: the session keeps a copy
            s.run(v.assign_add([1.0, 1.0]))  # donates the state buffer
            assert not mine.is_deleted()
            np.testing.assert_array_equal(mine, [7.0, 8.0])
            np.testing.assert_array_equal(s.read(v.op), [8.0, 9.0])
        with pytest.raises(RuntimeError, match="closed"):
            s.read(v.op)

    def test_eager_session_keeps_variable_values_in_its_store(self) -> None:
        with tf.EagerSession() as s:
            assert isinstance(s, VariableStore)
            v = tf.Variable(np.array([1.0, 2.0], np.float32))
            assert s.is_initialized(v)
            np.testing.assert_array_equal(s.read(v), [1.0, 2.0])
            v.assign([3.0, 4.0])
            np.testing.assert_array_equal(s.read(v), [3.0, 4.0])
            with tf.EagerSession() as other:
                assert not other.is_initialized(v)
                with pytest.raises(errors.FailedPreconditionError):
                    other.read(v)


def jnp_array(values: list[float]) -> Any:
    return jnp.asarray(np.array(values, np.float32))
