"""Tests of ``get_variable``, ``variable_scope`` and the initializers, as ``tf.compat.v1``."""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np
import pytest

import jaxsess as tf
from jaxsess._tf1.ops import init_ops, variable_scope as vs
from jaxsess._tf1.ops.variable_scope import AUTO_REUSE, get_variable, get_variable_scope, variable_scope


def init_and_get(sess: tf.Session, *vars_: Any) -> list[np.ndarray]:
    sess.run(tf.global_variables_initializer())
    return [np.asarray(v) for v in sess.run(list(vars_))]


class TestGetVariable:
    def test_creates_with_full_scope_name(self) -> None:
        with variable_scope("foo"):
            with variable_scope("bar"):
                v = get_variable("w", [2, 3])
        assert v.name == "foo/bar/w:0"
        assert v.op.name == "foo/bar/w"
        assert v.shape.as_list() == [2, 3]
        assert v.dtype == tf.float32
        assert tf.global_variables() == [v]
        assert tf.trainable_variables() == [v]

    def test_root_scope(self) -> None:
        v = get_variable("w", [1])
        assert v.op.name == "w"
        assert get_variable_scope().name == ""

    def test_op_name_is_the_scope_path_whatever_the_name_scope(self) -> None:
        with tf.name_scope("ns"), variable_scope("vsc"):
            v = get_variable("w", [1])
        assert v.op.name == "vsc/w"  # TF1: get_variable ignores the name scope
        with tf.name_scope("other"):
            u = get_variable("u", [1])
        assert u.op.name == "u"

    def test_exists_error(self) -> None:
        with variable_scope("foo"):
            get_variable("w", [1])
        with variable_scope("foo"), pytest.raises(ValueError) as ei:
            get_variable("w", [1])
        assert str(ei.value).startswith(
            "Variable foo/w already exists, disallowed. Did you mean to set reuse=True or "
            "reuse=tf.AUTO_REUSE in VarScope?"
        )

    def test_does_not_exist_error(self) -> None:
        with variable_scope("foo", reuse=True), pytest.raises(ValueError) as ei:
            get_variable("w", [1])
        assert str(ei.value) == (
            "Variable foo/w does not exist, or was not created with tf.get_variable(). Did you mean "
            "to set reuse=tf.AUTO_REUSE in VarScope?"
        )

    def test_reuse_returns_the_same_variable(self) -> None:
        with variable_scope("foo"):
            v = get_variable("w", [2])
        with variable_scope("foo", reuse=True):
            assert get_variable("w", [2]) is v
            assert get_variable("w") is v  # shape may be omitted
        assert len(tf.global_variables()) == 1

    def test_reuse_shape_mismatch_names_both_shapes(self) -> None:
        with variable_scope("foo"):
            get_variable("w", [2, 3])
        with variable_scope("foo", reuse=True), pytest.raises(ValueError) as ei:
            get_variable("w", [3, 3])
        msg = str(ei.value)
        assert "foo/w" in msg and "(3, 3)" in msg and "(2, 3)" in msg

    def test_reuse_dtype_mismatch(self) -> None:
        with variable_scope("foo"):
            get_variable("w", [2])
        with variable_scope("foo", reuse=True), pytest.raises(ValueError, match="dtype int32.*float32"):
            get_variable("w", [2], dtype=tf.int32)

    def test_auto_reuse(self) -> None:
        def make() -> Any:
            with variable_scope("net", reuse=AUTO_REUSE):
                return get_variable("w", [3])

        a, b = make(), make()
        assert a is b
        assert a.op.name == "net/w"
        assert len(tf.global_variables()) == 1

    def test_auto_reuse_is_inherited(self) -> None:
        with variable_scope("outer", reuse=AUTO_REUSE):
            with variable_scope("inner") as sc:
                assert sc.reuse is AUTO_REUSE
                a = get_variable("w", [1])
        with variable_scope("outer", reuse=AUTO_REUSE), variable_scope("inner"):
            assert get_variable("w", [1]) is a

    def test_reuse_variables(self) -> None:
        with variable_scope("foo") as scope:
            v = get_variable("w", [1])
            scope.reuse_variables()
            assert scope.reuse is True
            assert get_variable("w", [1]) is v
            with variable_scope("inner") as inner:
                assert inner.reuse is True

    def test_reuse_is_inherited_and_false_inherits(self) -> None:
        with variable_scope("a", reuse=True):
            with variable_scope("b", reuse=False) as b:
                assert b.reuse is True  # False means "inherit", as TF1
        with variable_scope("c") as c:
            assert c.reuse is False

    def test_shape_must_be_fully_defined(self) -> None:
        with pytest.raises(ValueError, match="must be fully defined"):
            get_variable("w", [None, 3])
        with pytest.raises(ValueError, match="must be fully defined"):
            get_variable("v")

    def test_value_initializer(self, sess: tf.Session) -> None:
        a = get_variable("a", initializer=tf.constant([1.0, 2.0]))
        b = get_variable("b", initializer=np.arange(3, dtype=np.int32))
        c = get_variable("c", initializer=[[1.0, 2.0]])
        assert a.shape.as_list() == [2] and b.dtype == tf.int32 and c.shape.as_list() == [1, 2]
        va, vb, vc = init_and_get(sess, a, b, c)
        np.testing.assert_array_equal(va, [1.0, 2.0])
        np.testing.assert_array_equal(vb, [0, 1, 2])
        np.testing.assert_array_equal(vc, [[1.0, 2.0]])

    def test_value_initializer_with_shape_raises(self) -> None:
        with pytest.raises(ValueError, match="do not specify shape"):
            get_variable("a", [2], initializer=tf.constant([1.0, 2.0]))

    def test_value_initializer_dtype_mismatch(self) -> None:
        with pytest.raises(ValueError, match="don't match"):
            get_variable("a", initializer=tf.constant([1, 2]), dtype=tf.float32)

    def test_default_initializers(self, sess: tf.Session) -> None:
        f = get_variable("f", [50, 50])
        i = get_variable("i", [3], dtype=tf.int32)
        b = get_variable("b", [2], dtype=tf.bool)
        vf, vi, vb = init_and_get(sess, f, i, b)
        limit = math.sqrt(6.0 / 100)  # glorot uniform
        assert np.abs(vf).max() <= limit and np.abs(vf).max() > 0.8 * limit
        assert vf.std() > 0.5 * limit / math.sqrt(3)
        np.testing.assert_array_equal(vi, [0, 0, 0])
        np.testing.assert_array_equal(vb, [False, False])

    def test_initializer_class_is_instantiated(self, sess: tf.Session) -> None:
        v = get_variable("v", [2], initializer=init_ops.ones_initializer)
        np.testing.assert_array_equal(init_and_get(sess, v)[0], [1.0, 1.0])

    def test_plain_function_initializer(self, sess: tf.Session) -> None:
        def init(shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
            return tf.constant(np.full(shape, 7.0, np.float32))

        def init_no_partition(shape: Any, dtype: Any = None) -> Any:
            return tf.constant(np.full(shape, 8.0, np.float32))

        a = get_variable("a", [2], initializer=init)
        b = get_variable("b", [2], initializer=init_no_partition)
        va, vb = init_and_get(sess, a, b)
        np.testing.assert_array_equal(va, [7.0, 7.0])
        np.testing.assert_array_equal(vb, [8.0, 8.0])

    def test_trainable_and_collections(self) -> None:
        a = get_variable("a", [1], trainable=False)
        b = get_variable("b", [1], collections=["mine", tf.GraphKeys.GLOBAL_VARIABLES])
        c = vs.get_local_variable("c", [1])
        assert tf.trainable_variables() == [b]
        assert tf.global_variables() == [a, b]
        assert tf.get_collection("mine") == [b]
        assert tf.local_variables() == [c]

    def test_regularizer_adds_a_loss(self, sess: tf.Session) -> None:
        w = get_variable("w", initializer=tf.constant([1.0, 2.0]),
                         regularizer=lambda v: 0.5 * tf.reduce_sum(v * v))
        losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
        assert len(losses) == 1
        assert losses[0].name.startswith("w/Regularizer/")
        sess.run(w.initializer)
        assert float(sess.run(losses[0])) == 2.5
        with variable_scope("", reuse=True):
            get_variable("w")
        assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == 1  # not added again

    def test_regularizer_returning_none_adds_nothing(self) -> None:
        get_variable("w", [1], regularizer=vs.no_regularizer)
        assert tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES) == []

    def test_partitioner_gives_parts(self) -> None:  # more in test_nlp.py
        pv = get_variable("w", [4], partitioner=lambda shape, dtype: [2])
        assert [v.name for v in pv] == ["w/part_0:0", "w/part_1:0"]

    def test_custom_getter(self) -> None:
        seen: list[str] = []

        def getter(next_getter: Any, name: str, *args: Any, **kwargs: Any) -> Any:
            seen.append(name)
            kwargs["trainable"] = False
            return next_getter(name, *args, **kwargs)

        v = get_variable("w", [1], custom_getter=getter)
        assert seen == ["w"] and not v.trainable

    def test_scope_custom_getters_nest(self) -> None:
        order: list[str] = []

        def make(tag: str) -> Any:
            def getter(next_getter: Any, name: str, *args: Any, **kwargs: Any) -> Any:
                order.append(tag)
                return next_getter(name, *args, **kwargs)

            return getter

        with variable_scope("a", custom_getter=make("outer")), variable_scope("b", custom_getter=make("inner")):
            v = get_variable("w", [1])
        assert order == ["inner", "outer"]
        assert v.op.name == "a/b/w"

    def test_get_variable_with_variable_in_session(self, sess: tf.Session) -> None:
        with variable_scope("s", initializer=init_ops.constant_initializer(2.0)):
            w = get_variable("w", [2])
        y = w * 3.0
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(np.asarray(sess.run(y)), [6.0, 6.0])

    def test_stores_are_per_graph(self) -> None:
        g1, g2 = tf.Graph(), tf.Graph()
        with g1.as_default():
            a = get_variable("w", [1])
        with g2.as_default():
            b = get_variable("w", [1])  # no "already exists"
        assert a is not b and a.graph is g1 and b.graph is g2

    def test_eager_get_variable_creates_each_time(self) -> None:
        with tf.EagerSession():
            a = get_variable("w", [2], initializer=init_ops.ones_initializer())
            b = get_variable("w", [2], initializer=init_ops.zeros_initializer())
            np.testing.assert_array_equal(np.asarray(a.value()), [1.0, 1.0])
            np.testing.assert_array_equal(np.asarray(b.value()), [0.0, 0.0])


class TestVariableScope:
    def test_opens_a_matching_name_scope(self) -> None:
        with variable_scope("foo") as scope:
            c = tf.constant(1.0, name="c")
            assert scope.name == "foo"
            assert scope.original_name_scope == "foo/"
        assert c.op.name == "foo/c"

    def test_reentering_by_name_uses_a_new_name_scope(self) -> None:
        with variable_scope("foo"):
            v = get_variable("w", [1])
        with variable_scope("foo", reuse=True) as scope:
            c = tf.constant(1.0, name="c")
            assert get_variable("w") is v
        assert scope.name == "foo"
        assert c.op.name == "foo_1/c"

    def test_reentering_a_scope_object(self) -> None:
        with variable_scope("foo") as foo:
            v = get_variable("w", [1])
        with variable_scope("other"):
            with variable_scope(foo, reuse=True) as again:
                assert again.name == "foo"  # not other/foo
                assert get_variable("w") is v
            with variable_scope(foo):
                u = get_variable("u", [1])
        assert u.op.name == "foo/u"
        assert again.original_name_scope == "foo/"

    def test_scope_object_keeps_its_reuse(self) -> None:
        with variable_scope("foo") as foo:
            get_variable("w", [1])
            foo.reuse_variables()
        with variable_scope(foo) as again:
            assert again.reuse is True

    def test_default_name_is_made_unique(self) -> None:
        names = []
        for _ in range(3):
            with variable_scope(None, default_name="dense") as sc:
                names.append(sc.name)
                get_variable("kernel", [1])
        assert names == ["dense", "dense_1", "dense_2"]
        assert [v.op.name for v in tf.global_variables()] == ["dense/kernel", "dense_1/kernel", "dense_2/kernel"]

    def test_name_or_scope_wins_over_default_name(self) -> None:
        with variable_scope("given", default_name="dflt") as sc:
            assert sc.name == "given"

    def test_default_name_counts_reset_when_the_parent_closes(self) -> None:
        with variable_scope("model"):
            with variable_scope(None, default_name="layer") as a:
                ka = get_variable("k", [1])
            with variable_scope(None, default_name="layer") as b:
                kb = get_variable("k", [1])
        with variable_scope("model", reuse=True):
            with variable_scope(None, default_name="layer") as a2:
                assert get_variable("k", [1]) is ka
            with variable_scope(None, default_name="layer") as b2:
                assert get_variable("k", [1]) is kb
        assert (a.name, b.name, a2.name, b2.name) == ("model/layer", "model/layer_1", "model/layer", "model/layer_1")

    def test_default_name_with_reuse_true_raises(self) -> None:
        with pytest.raises(ValueError, match="reuse=True cannot be used without a name_or_scope"):
            with variable_scope(None, default_name="x", reuse=True):
                pass

    def test_needs_a_name(self) -> None:
        with pytest.raises(TypeError, match="default_name is None then name_or_scope is required"):
            variable_scope(None)

    def test_bad_name_or_scope(self) -> None:
        with pytest.raises(TypeError, match="name_or_scope must be a string or VariableScope"):
            variable_scope(3)  # type: ignore[arg-type]

    def test_bad_reuse(self) -> None:
        with pytest.raises(ValueError, match="reuse"):
            variable_scope("x", reuse="yes")

    def test_scope_initializer_applies_and_is_inherited(self, sess: tf.Session) -> None:
        with variable_scope("a", initializer=init_ops.constant_initializer(3.0)):
            x = get_variable("x", [2])
            with variable_scope("b"):
                y = get_variable("y", [1])
                z = get_variable("z", [1], initializer=init_ops.zeros_initializer())
        vx, vy, vz = init_and_get(sess, x, y, z)
        np.testing.assert_array_equal(vx, [3.0, 3.0])
        np.testing.assert_array_equal(vy, [3.0])
        np.testing.assert_array_equal(vz, [0.0])

    def test_scope_dtype(self) -> None:
        with variable_scope("a", dtype=tf.int32):
            v = get_variable("v", [1])
        assert v.dtype == tf.int32

    def test_scope_regularizer(self) -> None:
        with variable_scope("a", regularizer=lambda v: tf.reduce_sum(v)):
            get_variable("v", [1])
            get_variable("u", [1], regularizer=vs.no_regularizer)
        losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
        assert [t.op.name.split("/")[:3] for t in losses] == [["a", "v", "Regularizer"]]

    def test_scope_restored_after_exit_and_error(self) -> None:
        with pytest.raises(RuntimeError):
            with variable_scope("a"):
                raise RuntimeError("boom")
        assert get_variable_scope().name == ""
        assert tf.get_default_graph().get_name_scope() == ""

    def test_nested_names(self) -> None:
        with variable_scope("a") as a, variable_scope("b") as b, variable_scope("c") as c:
            assert (a.name, b.name, c.name) == ("a", "a/b", "a/b/c")
            assert get_variable_scope() is c
            assert c.original_name_scope == "a/b/c/"

    def test_auxiliary_name_scope_false(self) -> None:
        with tf.name_scope("outer"):
            with variable_scope("v", auxiliary_name_scope=False) as sc:
                c = tf.constant(1.0, name="c")
                w = get_variable("w", [1])
        assert c.op.name == "outer/c"
        assert w.op.name == "v/w"
        assert sc.original_name_scope == "outer/"

    def test_values_pick_the_graph(self) -> None:
        g = tf.Graph()
        with g.as_default():
            x = tf.constant(1.0)
        with variable_scope("s", values=[x]):
            v = get_variable("w", [1])
        assert v.graph is g
        assert tf.global_variables() == []

    def test_scope_collections(self) -> None:
        with variable_scope("enc") as enc:
            a = get_variable("w", [1])
        with variable_scope("dec"):
            get_variable("w", [1], trainable=False)
        assert enc.global_variables() == [a]
        assert enc.trainable_variables() == [a]

    def test_scope_is_per_thread(self) -> None:
        seen: list[str] = []
        graph = tf.get_default_graph()

        def worker() -> None:
            with graph.as_default():
                seen.append(get_variable_scope().name)

        with variable_scope("main"):
            t = threading.Thread(target=worker)
            t.start()
            t.join()
        assert seen == [""]


class TestInitializers:
    def run_init(self, init: Any, shape: list[int], dtype: Any = tf.float32) -> np.ndarray:
        t = init(shape, dtype=dtype)
        with tf.Session() as s:
            return np.asarray(s.run(t))

    def test_zeros_ones_constant(self) -> None:
        np.testing.assert_array_equal(self.run_init(init_ops.zeros_initializer(), [2, 2]), np.zeros((2, 2)))
        ones = self.run_init(init_ops.ones_initializer(), [3], tf.int32)
        assert ones.dtype == np.int32
        np.testing.assert_array_equal(ones, [1, 1, 1])
        np.testing.assert_array_equal(self.run_init(init_ops.constant_initializer(4.0), [2]), [4.0, 4.0])
        np.testing.assert_array_equal(
            self.run_init(init_ops.constant_initializer([1, 2, 3, 4]), [2, 2]), [[1, 2], [3, 4]]
        )

    def test_constant_wrong_size(self) -> None:
        # as TF's make_tensor_proto: fewer values repeat the last one, more raise
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(init_ops.constant_initializer([1.0, 2.0, 3.0])([2, 2])),
                                          [[1, 2], [3, 3]])
        with pytest.raises(ValueError, match="Too many elements provided. Takes at most 4, but got 5."):
            init_ops.constant_initializer([1.0, 2.0, 3.0, 4.0, 5.0])([2, 2])

    def test_constant_verify_shape(self) -> None:
        with pytest.raises(TypeError, match="shape"):
            init_ops.constant_initializer([1.0, 2.0, 3.0, 4.0], verify_shape=True)([2, 2])

    def test_constructor_dtype_is_the_default(self) -> None:
        t = init_ops.zeros_initializer(dtype=tf.int32)([2])
        assert t.dtype == tf.int32

    def test_random_normal(self) -> None:
        x = self.run_init(init_ops.random_normal_initializer(1.0, 0.5, seed=1), [100, 100])
        assert abs(x.mean() - 1.0) < 0.03 and abs(x.std() - 0.5) < 0.03

    def test_truncated_normal(self) -> None:
        x = self.run_init(init_ops.truncated_normal_initializer(0.0, 0.1, seed=1), [100, 100])
        assert np.abs(x).max() <= 0.2 + 1e-6

    def test_random_uniform(self) -> None:
        x = self.run_init(init_ops.random_uniform_initializer(-0.5, 0.25, seed=1), [100, 100])
        assert x.min() >= -0.5 and x.max() < 0.25
        x = self.run_init(init_ops.random_uniform_initializer(seed=1), [1000])  # maxval None: [0, 1)
        assert x.min() >= 0.0 and x.max() < 1.0

    def test_glorot_uniform_limit_for_conv_kernels(self) -> None:
        shape = [3, 3, 16, 32]  # HWIO: fan_in = 9*16, fan_out = 9*32
        assert init_ops.compute_fans(shape) == (144, 288)
        x = self.run_init(init_ops.glorot_uniform_initializer(seed=1), shape)
        limit = math.sqrt(6.0 / (144 + 288))
        assert np.abs(x).max() <= limit and np.abs(x).max() > 0.95 * limit

    def test_glorot_normal(self) -> None:
        x = self.run_init(init_ops.glorot_normal_initializer(seed=1), [200, 300])
        stddev = math.sqrt(2.0 / 500)
        assert abs(x.std() - stddev) < 0.05 * stddev
        assert np.abs(x).max() <= 2 * stddev / 0.87962566103423978 + 1e-6

    @pytest.mark.parametrize("mode,n", [("fan_in", 64), ("fan_out", 128), ("fan_avg", 96)])
    def test_variance_scaling_modes(self, mode: str, n: int) -> None:
        init = init_ops.variance_scaling_initializer(2.0, mode, "untruncated_normal", seed=1)
        x = self.run_init(init, [64, 128])
        assert abs(x.std() - math.sqrt(2.0 / n)) < 0.05 * math.sqrt(2.0 / n)

    def test_variance_scaling_uniform_and_truncated(self) -> None:
        x = self.run_init(init_ops.variance_scaling_initializer(3.0, "fan_in", "uniform", seed=1), [100, 50])
        limit = math.sqrt(3.0 * 3.0 / 100)
        assert np.abs(x).max() <= limit and np.abs(x).max() > 0.95 * limit
        t = self.run_init(init_ops.variance_scaling_initializer(1.0, "fan_in", seed=1), [400, 100])
        assert abs(t.std() - math.sqrt(1.0 / 400)) < 0.05 * math.sqrt(1.0 / 400)  # variance kept

    def test_variance_scaling_bad_arguments(self) -> None:
        with pytest.raises(ValueError, match="scale"):
            init_ops.variance_scaling_initializer(0.0)
        with pytest.raises(ValueError, match="mode"):
            init_ops.variance_scaling_initializer(1.0, "fan_sideways")
        with pytest.raises(ValueError, match="distribution"):
            init_ops.variance_scaling_initializer(1.0, "fan_in", "cauchy")

    def test_fans(self) -> None:
        assert init_ops.compute_fans([]) == (1, 1)
        assert init_ops.compute_fans([7]) == (7, 7)
        assert init_ops.compute_fans([3, 5]) == (3, 5)
        assert init_ops.compute_fans([2, 4, 6]) == (8, 12)

    @pytest.mark.parametrize("shape", [[4, 4], [6, 3], [3, 6], [2, 2, 5]])
    def test_orthogonal(self, shape: list[int]) -> None:
        x = self.run_init(init_ops.orthogonal_initializer(gain=2.0, seed=1), shape)
        assert list(x.shape) == shape
        m = x.reshape(-1, shape[-1])
        if m.shape[0] >= m.shape[1]:
            np.testing.assert_allclose(m.T @ m, 4.0 * np.eye(m.shape[1]), atol=1e-4)
        else:
            np.testing.assert_allclose(m @ m.T, 4.0 * np.eye(m.shape[0]), atol=1e-4)

    def test_orthogonal_needs_rank_2(self) -> None:
        with pytest.raises(ValueError, match="two-dimensional"):
            init_ops.orthogonal_initializer()([3])

    def test_float_initializers_reject_int_dtype(self) -> None:
        with pytest.raises(ValueError, match="floating"):
            init_ops.random_normal_initializer()([2], dtype=tf.int32)

    def test_seeded_initializer_repeats_in_new_sessions(self) -> None:
        v = get_variable("v", [5], initializer=init_ops.random_normal_initializer(seed=3))
        vals = []
        for _ in range(2):
            with tf.Session() as s:
                s.run(v.initializer)
                vals.append(np.asarray(s.run(v)))
        np.testing.assert_array_equal(vals[0], vals[1])

    def test_graph_seed_makes_variables_repeat(self) -> None:
        def build() -> list[np.ndarray]:
            g = tf.Graph()
            with g.as_default():
                tf.set_random_seed(7)
                a = get_variable("a", [4])
                b = get_variable("b", [4])
                with tf.Session() as s:
                    s.run(tf.global_variables_initializer())
                    return [np.asarray(x) for x in s.run([a, b])]

        (a1, b1), (a2, b2) = build(), build()
        np.testing.assert_array_equal(a1, a2)
        np.testing.assert_array_equal(b1, b2)
        assert not np.array_equal(a1, b1)

    def test_get_config_round_trip(self) -> None:
        init = init_ops.variance_scaling_initializer(2.0, "fan_out", "uniform", seed=4)
        again = init_ops.VarianceScaling.from_config(init.get_config())
        assert again.get_config() == init.get_config()
        assert "VarianceScaling" in repr(init)

    def test_he_and_lecun(self) -> None:
        assert init_ops.he_normal().get_config()["scale"] == 2.0
        assert init_ops.he_uniform().distribution == "uniform"
        assert init_ops.lecun_normal().mode == "fan_in"
        assert init_ops.lecun_uniform().scale == 1.0
