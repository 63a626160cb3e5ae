"""Tests of the TF1 graph front end: Graph, Operation, Tensor, scopes, collections.

Semantics are those of ``tf.compat.v1`` graph mode (modelled on TF1's
``ops_test.py``): unique names, name scopes, control dependencies, device
scopes, collections, the thread-local default-graph stack and ``finalize``.
"""

from __future__ import annotations

import os
import threading

import numpy as np
import pytest

import jaxsess as tf
from jaxsess import errors

# -- default graph ----------------------------------------------------------------


def test_get_default_graph_is_stable_and_a_graph() -> None:
    g = tf.get_default_graph()
    assert isinstance(g, tf.Graph)
    assert tf.get_default_graph() is g


def test_as_default_nests_and_restores() -> None:
    outer = tf.get_default_graph()
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default() as entered:
        assert entered is g1
        assert tf.get_default_graph() is g1
        with g2.as_default():
            assert tf.get_default_graph() is g2
            c = tf.constant(1.0)
        assert tf.get_default_graph() is g1
        d = tf.constant(2.0)
    assert tf.get_default_graph() is outer
    assert c.graph is g2 and c.op.graph is g2
    assert d.graph is g1
    assert g1.get_operations() == [d.op]
    assert g2.get_operations() == [c.op]


def test_as_default_restores_after_exception() -> None:
    outer = tf.get_default_graph()
    g = tf.Graph()
    with pytest.raises(ZeroDivisionError), g.as_default():
        1 / 0  # noqa: B018
    assert tf.get_default_graph() is outer


def test_default_graph_stack_is_thread_local() -> None:
    g = tf.Graph()
    seen: dict[str, object] = {}
    barrier = threading.Barrier(2)

    def other() -> None:
        barrier.wait()
        seen["default"] = tf.get_default_graph()
        h = tf.Graph()
        with h.as_default():
            seen["inner"] = tf.get_default_graph()
            seen["const"] = tf.constant(3.0)
        barrier.wait()

    t = threading.Thread(target=other)
    t.start()
    with g.as_default():
        barrier.wait()  # the other thread looks while g is default here
        barrier.wait()
        assert tf.get_default_graph() is g
    t.join()
    assert seen["default"] is not g
    assert seen["default"] is tf.get_default_graph()  # the global default
    assert seen["inner"] is not g
    assert seen["const"].graph is seen["inner"]  # type: ignore[attr-defined]
    assert g.get_operations() == []


def test_reset_default_graph_replaces_the_global_graph() -> None:
    before = tf.get_default_graph()
    c = tf.constant(1.0, name="before_reset")
    assert c.graph is before
    tf.reset_default_graph()
    after = tf.get_default_graph()
    assert after is not before
    assert after.get_operations() == []
    with pytest.raises(KeyError):
        after.get_operation_by_name("before_reset")


def test_reset_default_graph_inside_as_default_raises() -> None:
    g = tf.Graph()
    with g.as_default(), pytest.raises(AssertionError, match="nested graphs"):
        tf.reset_default_graph()


def test_reset_default_graph_with_a_default_session_raises() -> None:
    tf.reset_default_graph()
    sess = tf.Session()
    try:
        with sess.as_default(), pytest.raises(AssertionError):
            tf.reset_default_graph()
    finally:
        sess.close()


# -- names ------------------------------------------------------------------------


def test_unique_names_and_tensor_names() -> None:
    with tf.Graph().as_default():
        a = tf.constant(1.0)
        b = tf.constant(2.0)
        c = tf.constant(3.0)
        s1 = a + b
        s2 = tf.add(a, c)
        m = tf.multiply(a, b)
        assert [a.name, b.name, c.name] == ["Const:0", "Const_1:0", "Const_2:0"]
        assert [a.op.name, b.op.name] == ["Const", "Const_1"]
        # As TF1: operators name ops 'add', op functions 'Add'; counted case-insensitively.
        assert s1.name == "add:0" and s2.name == "Add_1:0"
        assert m.name == "Mul:0"
        assert s1.op.name == "add"


def test_explicit_names_are_uniquified() -> None:
    with tf.Graph().as_default():
        x = tf.constant(1.0, name="x")
        x1 = tf.constant(1.0, name="x")
        x2 = tf.constant(1.0, name="x")
        assert [x.name, x1.name, x2.name] == ["x:0", "x_1:0", "x_2:0"]
        # A name taken explicitly is skipped by later uniquification.
        y1 = tf.constant(1.0, name="y_1")
        y = tf.constant(1.0, name="y")
        y_again = tf.constant(1.0, name="y")
        assert y1.name == "y_1:0" and y.name == "y:0"
        assert y_again.name not in ("y:0", "y_1:0")


def test_invalid_op_name_raises() -> None:
    with tf.Graph().as_default(), pytest.raises(ValueError, match="not a valid"):
        tf.constant(1.0, name="bad name!")


def test_name_scope_prefixes_and_nests() -> None:
    with tf.Graph().as_default() as g:
        with tf.name_scope("outer") as scope:
            assert scope == "outer/"
            a = tf.constant(1.0, name="a")
            with tf.name_scope("inner") as inner:
                assert inner == "outer/inner/"
                b = tf.add(a, a)
            c = tf.multiply(a, 2.0)
        d = tf.constant(0.0, name="a")
        assert a.name == "outer/a:0"
        assert b.name == "outer/inner/Add:0"
        assert c.op.name == "outer/Mul"
        assert d.name == "a:0"
        assert g.get_operation_by_name("outer/inner/Add") is b.op


def test_name_scope_reuse_is_uniquified_and_reentered_verbatim() -> None:
    with tf.Graph().as_default():
        with tf.name_scope("s") as s1:
            x = tf.constant(1.0)
        with tf.name_scope("s") as s2:
            y = tf.constant(1.0)
        with tf.name_scope(s1):  # 's/' re-enters the first scope
            z = tf.constant(1.0)
        with tf.name_scope("s"), tf.name_scope(None):  # None resets to the top
            top = tf.constant(1.0)
        assert s1 == "s/" and s2 == "s_1/"
        assert x.name == "s/Const:0"
        assert y.name == "s_1/Const:0"
        assert z.name == "s/Const_1:0"
        assert top.name == "Const:0"


def test_graph_name_scope_method() -> None:
    g = tf.Graph()
    with g.as_default(), g.name_scope("m") as scope:
        c = tf.constant(1.0)
    assert scope == "m/"
    assert c.name == "m/Const:0"


# -- Tensor -----------------------------------------------------------------------


def test_tensor_properties() -> None:
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, shape=[None, 3], name="x")
        one = tf.constant(1.0)
        y = x + one
        assert y.name == "add:0"
        assert y.op.type == "AddV2"
        assert y.value_index == 0
        assert y.op.outputs[0] is y
        assert y.graph is g
        assert y.dtype == tf.float32
        assert y.dtype.name == "float32"
        assert x.dtype is tf.float32 or x.dtype == tf.float32
        assert y.shape.as_list() == [None, 3]
        assert y.get_shape() == y.shape
        assert y.shape[0] is None and y.shape[1] == 3
        assert y.shape.ndims == 2
        assert not y.shape.is_fully_defined()
        assert "add:0" in repr(y) and "float32" in repr(y)


def test_tensor_shape_unknown_rank_and_scalars() -> None:
    with tf.Graph().as_default():
        u = tf.placeholder(tf.float32)
        s = tf.constant(2.0)
        v = tf.constant([[1, 2, 3]])
        assert u.shape.ndims is None
        assert u.get_shape().dims is None
        with pytest.raises(ValueError):
            u.shape.as_list()
        assert s.shape.as_list() == []
        assert s.shape.is_fully_defined()
        assert v.shape == tf.TensorShape([1, 3])
        assert v.shape.num_elements() == 3
        assert v.dtype == tf.int32


def test_dtypes_compare_with_tensor_dtype() -> None:
    with tf.Graph().as_default():
        f = tf.constant(1.5)
        i = tf.constant(1)
        b = f > 1.0
        p = tf.placeholder(tf.int32)
        assert f.dtype == tf.float32 and f.dtype != tf.int32
        assert i.dtype == tf.int32
        assert b.dtype == tf.bool
        assert p.dtype == tf.int32
        assert f.dtype == np.float32
        assert tf.float32.name == "float32"
        assert tf.int32.name == "int32"
        assert tf.bool.name == "bool"
        assert tf.float32.as_numpy_dtype is np.float32
        assert tf.float32.is_floating and tf.int32.is_integer
        assert tf.as_dtype("float32") == tf.float32
        assert len({tf.float32, tf.as_dtype(np.float32)}) == 1


def test_tensor_hash_and_eq_are_identity() -> None:
    with tf.Graph().as_default():
        a = tf.constant(1.0)
        b = tf.constant(1.0)
        assert (a == a) is True
        assert (a == b) is False
        assert (a != b) is True
        d = {a: "a", b: "b"}
        assert d[a] == "a" and d[b] == "b"
        assert len({a, b, a}) == 2
        assert a in [a] and b not in {a}


def test_tensor_bool_and_iter_raise() -> None:
    with tf.Graph().as_default():
        a = tf.constant([1.0, 2.0])
        with pytest.raises(TypeError):
            bool(a)
        with pytest.raises(TypeError):
            iter(a)


def test_get_tensor_and_operation_by_name() -> None:
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [2], name="x")
        with tf.name_scope("s"):
            y = tf.add(x, x, name="y")
    assert g.get_tensor_by_name("x:0") is x
    assert g.get_tensor_by_name("s/y:0") is y
    assert g.get_operation_by_name("s/y") is y.op
    assert g.get_operation_by_name("x") is x.op
    with pytest.raises(ValueError):
        g.get_tensor_by_name("x")  # an op name
    with pytest.raises(ValueError):
        g.get_operation_by_name("x:0")  # a tensor name
    with pytest.raises(KeyError):
        g.get_tensor_by_name("nope:0")
    with pytest.raises(KeyError):
        g.get_tensor_by_name("x:1")  # no such output
    with pytest.raises(KeyError):
        g.get_operation_by_name("nope")
    with pytest.raises(TypeError):
        g.get_tensor_by_name(3)  # type: ignore[arg-type]


def test_get_operations_in_creation_order() -> None:
    with tf.Graph().as_default() as g:
        a = tf.constant(1.0)
        b = tf.placeholder(tf.float32)
        c = a * b
        ops = g.get_operations()
    assert ops == [a.op, b.op, c.op]
    ops.append("junk")  # a copy
    assert len(g.get_operations()) == 3


# -- Operation ----------------------------------------------------------------------


def test_operation_properties() -> None:
    with tf.Graph().as_default() as g:
        a = tf.constant(1.0, name="a")
        b = tf.constant(2.0, name="b")
        with tf.control_dependencies([a]):
            c = tf.subtract(b, 1.0, name="c")
        op = c.op
        assert op.name == "c"
        assert op.type == "Sub"
        assert op.inputs[0] is b
        assert len(op.inputs) == 2
        assert op.outputs == [c]
        assert op.control_inputs == [a.op]
        assert op.device == ""
        assert op.graph is g
        assert "c" in repr(op)
        assert a.op.inputs == () or list(a.op.inputs) == []


def test_operation_hash_is_identity() -> None:
    with tf.Graph().as_default():
        a = tf.constant(1.0)
        b = tf.constant(1.0)
    assert len({a.op, b.op, a.op}) == 2
    assert a.op == a.op and a.op != b.op


def test_group_is_a_noop_with_control_inputs() -> None:
    with tf.Graph().as_default():
        a = tf.constant(1.0)
        b = tf.constant(2.0)
        g = tf.group(a, b)
        assert isinstance(g, tf.Operation)
        assert g.type == "NoOp"
        assert g.outputs == []
        assert set(g.control_inputs) == {a.op, b.op}
        n = tf.no_op(name="nothing")
        assert n.name == "nothing" and n.type == "NoOp"


def test_operation_run_uses_default_session() -> None:
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [], name="x")
        op = tf.group(x * 2.0)
        with pytest.raises(ValueError, match="No default session"):
            op.run()
        with tf.Session(graph=g) as sess:
            assert op.run(feed_dict={x: 1.0}) is None
            with pytest.raises(errors.InvalidArgumentError, match="placeholder tensor 'x'"):
                op.run()
            assert op.run(feed_dict={x: 1.0}, session=sess) is None


def test_tensor_eval_uses_default_session() -> None:
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [2], name="x")
        y = x * 3.0
        with pytest.raises(ValueError, match="No default session"):
            y.eval(feed_dict={x: [1.0, 2.0]})
        sess = tf.Session(graph=g)
        try:
            np.testing.assert_array_equal(y.eval(feed_dict={x: [1.0, 2.0]}, session=sess), [3.0, 6.0])
            with sess.as_default():
                np.testing.assert_array_equal(y.eval({x: [0.5, 1.0]}), [1.5, 3.0])
        finally:
            sess.close()


# -- finalize -----------------------------------------------------------------------


def test_finalize_makes_the_graph_read_only() -> None:
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.0)
        b = a + 1.0
    assert not g.finalized
    g.finalize()
    assert g.finalized
    with g.as_default():
        with pytest.raises(RuntimeError, match="finalized"):
            tf.constant(2.0)
        with pytest.raises(RuntimeError, match="finalized"):
            _ = a * 2.0
        with pytest.raises(RuntimeError, match="finalized"):
            tf.placeholder(tf.float32)
    assert g.get_operations() == [a.op, b.op.inputs[1].op, b.op]
    # A finalized graph still runs.
    with tf.Session(graph=g) as sess:
        assert float(sess.run(b)) == 2.0


# -- control dependencies ---------------------------------------------------------


def test_control_dependencies_nest_and_clear() -> None:
    with tf.Graph().as_default():
        a = tf.constant(1.0)
        b = tf.constant(2.0)
        with tf.control_dependencies([a]):
            c = tf.constant(3.0)
            with tf.control_dependencies([b.op]):
                d = tf.constant(4.0)
                with tf.control_dependencies(None):
                    e = tf.constant(5.0)
                    with tf.control_dependencies([b]):
                        f = tf.constant(6.0)
        g = tf.constant(7.0)
        assert c.op.control_inputs == [a.op]
        assert d.op.control_inputs == [a.op, b.op]
        assert e.op.control_inputs == []
        assert f.op.control_inputs == [b.op]
        assert g.op.control_inputs == []


def test_control_dependency_skipped_when_an_input_already_depends() -> None:
    with tf.Graph().as_default():
        a = tf.constant(1.0)
        with tf.control_dependencies([a]):
            b = tf.identity(a)
        assert b.op.control_inputs == []


def test_control_dependencies_reject_bad_inputs() -> None:
    with tf.Graph().as_default():
        with pytest.raises(TypeError), tf.control_dependencies([3.0]):
            pass
        other = tf.Graph()
        with other.as_default():
            foreign = tf.constant(1.0)
        with pytest.raises(ValueError), tf.control_dependencies([foreign]):
            pass


def test_control_dependencies_are_executed() -> None:
    # A control input that needs a feed makes the dependent op need it too.
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [], name="x")
        check = x * 1.0
        with tf.control_dependencies([check]):
            out = tf.constant(42.0) + 0.0
    with tf.Session(graph=g) as sess:
        with pytest.raises(errors.InvalidArgumentError, match="placeholder tensor 'x'"):
            sess.run(out)
        assert float(sess.run(out, {x: 1.0})) == 42.0


# -- device scopes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "canonical"),
    [
        ("/cpu:0", "/device:CPU:0"),
        ("/CPU:3", "/device:CPU:3"),
        ("/device:GPU:1", "/device:GPU:1"),
        ("/gpu:0", "/device:GPU:0"),
        ("/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:CPU:0"),
    ],
)
def test_device_scope_sets_op_device(spec: str, canonical: str) -> None:
    with tf.Graph().as_default():
        with tf.device(spec):
            a = tf.constant(1.0)
            b = a + 1.0
        c = tf.constant(1.0)
    assert a.op.device == canonical
    assert b.op.device == canonical and b.device == canonical
    assert c.op.device == ""


def test_device_scopes_merge_and_clear() -> None:
    with tf.Graph().as_default():
        with tf.device("/job:localhost/replica:0/task:0"):
            with tf.device("/cpu:2"):
                a = tf.constant(1.0)
                with tf.device(None):
                    b = tf.constant(1.0)
            c = tf.constant(1.0)
        with tf.device("/cpu:1"), tf.device("/cpu:2"):
            d = tf.constant(1.0)
    assert a.op.device == "/job:localhost/replica:0/task:0/device:CPU:2"
    assert b.op.device == ""
    assert c.op.device == "/job:localhost/replica:0/task:0"
    assert d.op.device == "/device:CPU:2"


def test_malformed_device_string_raises() -> None:
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="device"), tf.device("/banana:0"):
            pass
        with pytest.raises(ValueError), tf.device("/device:CPU:x"):
            pass


# -- collections --------------------------------------------------------------------


def test_collections() -> None:
    with tf.Graph().as_default() as g:
        with tf.name_scope("a"):
            a = tf.constant(1.0)
        with tf.name_scope("b"):
            b = tf.constant(2.0)
        tf.add_to_collection("things", a)
        tf.add_to_collection("things", b)
        tf.add_to_collections(["x", "y"], a)
        assert tf.get_collection("things") == [a, b]
        assert tf.get_collection("things", scope="b") == [b]
        assert tf.get_collection("x") == [a] and tf.get_collection("y") == [a]
        assert tf.get_collection("missing") == []
        copy = tf.get_collection("things")
        copy.append("junk")
        assert g.get_collection("things") == [a, b]
        ref = tf.get_collection_ref("things")
        ref.append(3)
        assert g.get_collection("things") == [a, b, 3]
        assert sorted(g.get_all_collection_keys()) == ["things", "x", "y"]
        g.clear_collection("x")
        assert g.get_collection("x") == []
        assert tf.GraphKeys.GLOBAL_VARIABLES == "variables"
        assert tf.GraphKeys.TRAINABLE_VARIABLES == "trainable_variables"
    other = tf.Graph()
    assert other.get_collection("things") == []


# -- graph membership ---------------------------------------------------------------


def test_ops_from_different_graphs_cannot_mix() -> None:
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default():
        a = tf.constant(1.0)
    with g2.as_default():
        b = tf.constant(2.0)
        with pytest.raises(ValueError):
            tf.add(a, b)


def test_op_joins_the_graph_of_its_inputs() -> None:
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.0)
    c = a + 2.0  # built outside g.as_default(): joins a's graph
    assert c.graph is g
    assert c.op in g.get_operations()


def test_as_graph_element() -> None:
    with tf.Graph().as_default() as g:
        a = tf.constant(1.0, name="a")
    assert g.as_graph_element("a:0") is a
    assert g.as_graph_element("a") is a.op
    assert g.as_graph_element(a) is a
    assert g.as_graph_element(a.op) is a.op
    with pytest.raises(TypeError):
        g.as_graph_element(1.0)
    with pytest.raises(ValueError):
        tf.Graph().as_graph_element(a)


def test_make_tensor_proto_checks() -> None:
    with pytest.raises(TypeError, match=r"Expected Tensor's shape"):
        tf.make_tensor_proto(np.zeros([2, 3]), shape=[3, 2], verify_shape=True)
    p = tf.make_tensor_proto(np.array([1 + 2j], np.complex64), shape=[2])
    np.testing.assert_array_equal(tf.make_ndarray(p), [1 + 2j, 1 + 2j])
    np.testing.assert_array_equal(tf.make_ndarray(tf.make_tensor_proto(tf.constant([1, 2]))), [1, 2])



def test_small_utilities() -> None:
    spec = tf.DeviceSpec.from_string("/job:w/task:2/device:CPU:0")
    assert spec.replace(task=3).to_string() == "/job:w/task:3/device:CPU:0"
    with tf.Graph().as_default() as g, g.device(tf.DeviceSpec(device_type="CPU", device_index=0)):
        assert tf.constant(1.0).device == "/device:CPU:0"
    with tf.compat.forward_compatibility_horizon(2019, 1, 1):
        assert not tf.compat.forward_compatible(2020, 1, 1)
    assert tf.compat.forward_compatible(2020, 1, 1)
    assert tf.dimension_value(tf.compat.dimension_at_index(tf.TensorShape(None), 3)) is None  # Dimension(None), as TF
    d = tf.test.get_temp_dir()
    assert d == tf.test.get_temp_dir() and os.path.isdir(d)
    tf.debugging.set_log_device_placement(True)
    assert tf.debugging.get_log_device_placement()
    tf.debugging.set_log_device_placement(False)
    with pytest.raises(ValueError, match=r"ignore_existing"):
        with tf.colocate_with(None):
            pass
    with pytest.raises(TypeError, match=r"colocate_with expects an Operation, Tensor or Variable"):
        with tf.colocate_with(3):
            pass
    assert tf.dtypes.saturate_cast is tf.saturate_cast and tf.nn.silu is tf.nn.swish
