"""Run-time checks, metrics, contrib.layers, moving averages, py_func: what the
TF1 corpus programs (``v21_*``) cannot show (messages, state after a failed
run, eager mode, make_callable, construction errors)."""

from __future__ import annotations

import numpy as np
import pytest

import jaxsess as tf
from jaxsess import errors


@pytest.fixture
def graph():
    g = tf.Graph()
    with g.as_default():
        yield g


def test_failing_assert_leaves_variables_and_names_the_condition(graph):
    x = tf.placeholder(tf.float32, [None], name="x")
    v = tf.Variable(np.zeros(2, np.float32), name="v")
    check = tf.assert_positive(x, message="x must be positive")
    with tf.control_dependencies([check]):
        step = tf.assign_add(v, tf.reduce_sum(x) * tf.ones([2]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step, {x: [1.0, 2.0]})
        with pytest.raises(errors.InvalidArgumentError) as info:
            sess.run(step, {x: [1.0, -2.0]})
        assert str(info.value).startswith(
            "assertion failed: [x must be positive.  ] [Condition x > 0 did not hold element-wise:] "
            "[x (x:0) = ] [1 -2]"
        )
        assert info.value.op is check
        np.testing.assert_array_equal(sess.run(v), [3.0, 3.0])


def test_assert_data_is_summarized_as_tf_print(graph):
    x = tf.placeholder(tf.float32, [None])
    a = tf.Assert(tf.reduce_all(x < 0.0), [x, "tail", tf.constant(3)], summarize=2)
    assert a.name == "Assert/Assert"
    with tf.Session() as sess:
        with pytest.raises(errors.InvalidArgumentError, match=r"^assertion failed: \[1.5 2...\] \[tail\] \[3\]"):
            sess.run(a, {x: [1.5, 2.0, 3.0]})
        assert sess.run(a, {x: [-1.0]}) is None


def test_static_checks_raise_when_built(graph):
    with pytest.raises(errors.InvalidArgumentError, match="Condition x == y did not hold"):
        tf.assert_equal(1, 2)
    with pytest.raises(ValueError, match=r"must have rank 1.  Received rank 2, shape \(2, 3\)"):
        tf.assert_rank(tf.zeros([2, 3]), 1)
    assert tf.assert_rank(tf.zeros([2, 3]), 2).type == "NoOp"
    with pytest.raises(TypeError, match="DataType int32 not in list of allowed values"):
        tf.check_numerics(tf.constant([1]), "ints")


def test_check_on_an_assigned_value_is_refused(graph):
    v = tf.Variable(1.0)
    with pytest.raises(NotImplementedError, match="assigns a variable"):
        tf.assert_positive(tf.assign_add(v, 1.0))
    with pytest.raises(NotImplementedError, match="assigns a variable"):
        tf.py_func(lambda a: a, [tf.assign(v, 2.0) * 2.0], tf.float32)


def test_check_numerics_message_and_make_callable(graph):
    x = tf.placeholder(tf.float32, [None])
    y = tf.check_numerics(x * 2.0, "x is bad")
    with tf.Session() as sess:
        for value, what in (([np.nan], "NaN"), ([np.inf], "Inf"), ([np.nan, -np.inf], "Inf and NaN")):
            with pytest.raises(errors.InvalidArgumentError, match=f"^x is bad : Tensor had {what} values"):
                sess.run(y, {x: value})
        np.testing.assert_array_equal(sess.run(y + 1.0, {x: [1.0]}), [3.0])


def test_checks_run_at_once_in_an_eager_session():
    with tf.EagerSession():
        x = tf.constant([1.0, -1.0])
        assert tf.assert_less(x, 2.0) is None
        with pytest.raises(errors.InvalidArgumentError):
            tf.assert_positive(x)
        with pytest.raises(errors.InvalidArgumentError, match="Tensor had NaN values"):
            tf.check_numerics(tf.constant([np.nan]), "m")
        np.testing.assert_array_equal(np.asarray(tf.py_func(lambda a: a * 3, [x], tf.float32)), [3.0, -3.0])


def test_graph_without_checks_has_no_host_pass(graph):
    """A graph without checks, py_funcs or strings runs its plan directly; a
    graph with one runs its checked values first (the cost is paid only there)."""
    from jaxsess._core.runtime import _host_run as _host_run

    x = tf.placeholder(tf.float32, [2])
    y = x * 2.0
    assert not _host_run.needs_host_pass(graph)
    tf.assert_positive(x)
    assert _host_run.needs_host_pass(graph)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [1.0, 2.0]}), [2.0, 4.0])


def test_metrics_are_graph_only_and_local():
    with tf.EagerSession(), pytest.raises(RuntimeError, match="tf.metrics.accuracy is not supported"):
        tf.metrics.accuracy([1], [1])
    g = tf.Graph()
    with g.as_default():
        acc, update = tf.metrics.accuracy([1, 2], [1, 3])
        assert [v.name for v in tf.local_variables()] == ["accuracy/total:0", "accuracy/count:0"]
        assert tf.global_variables() == []
        with tf.Session() as sess:
            with pytest.raises(errors.FailedPreconditionError):
                sess.run(acc)
            sess.run(tf.local_variables_initializer())
            assert sess.run(update) == np.float32(0.5)
            assert sess.run(update) == np.float32(0.5)
            assert sess.run(acc) == np.float32(0.5)


def test_metrics_collections_arguments(graph):
    value, update = tf.metrics.mean([1.0, 3.0], metrics_collections=["m"], updates_collections=["u"])
    assert tf.get_collection("m") == [value]
    assert tf.get_collection("u") == [update]
    with pytest.raises(ValueError, match="Curve must be either ROC or PR"):
        tf.metrics.auc([True], [0.5], curve="XY")


def test_contrib_batch_norm_variables_and_updates(graph):
    layers = tf.contrib.layers
    x = tf.placeholder(tf.float32, [None, 3])
    y = layers.batch_norm(x, decay=0.5, is_training=True)
    assert [v.name for v in tf.global_variables()] == [
        "BatchNorm/beta:0", "BatchNorm/moving_mean:0", "BatchNorm/moving_variance:0"]
    assert [v.name for v in tf.trainable_variables()] == ["BatchNorm/beta:0"]
    assert len(tf.get_collection(tf.GraphKeys.MODEL_VARIABLES)) == 3
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    assert len(updates) == 2
    z = layers.batch_norm(x, decay=0.5, is_training=True, updates_collections=None, scale=True, scope="inplace")
    assert len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)) == 2
    data = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]], np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run(y, {x: data})
        np.testing.assert_allclose(out[:, 0], [-1.0, 1.0], atol=1e-3)
        sess.run(updates, {x: data})
        np.testing.assert_allclose(sess.run("BatchNorm/moving_mean:0"), [1.0, 1.0, 1.0])
        sess.run(z, {x: data})
        np.testing.assert_allclose(sess.run("inplace/moving_mean:0"), [1.0, 1.0, 1.0])


def test_contrib_fully_connected_reuse_and_collections(graph):
    layers = tf.contrib.layers
    x = tf.placeholder(tf.float32, [None, 4])
    a = layers.fully_connected(x, 2, scope="fc", variables_collections=["mine"], outputs_collections="outs")
    b = layers.fully_connected(x, 2, scope="fc", reuse=True)
    assert [v.name for v in tf.trainable_variables()] == ["fc/weights:0", "fc/biases:0"]
    assert [v.name for v in tf.get_collection("mine")] == ["fc/weights:0", "fc/biases:0"]
    assert tf.get_collection("outs") == [a]
    assert a.name == "fc/Relu:0" and b.name != a.name
    with pytest.raises(ValueError, match="num_outputs type should be"):
        layers.fully_connected(x, 2.0)


def test_ema_average_tracks_and_restores(graph):
    v = tf.Variable(10.0, name="v")
    ema = tf.train.ExponentialMovingAverage(0.5)
    with tf.control_dependencies([tf.assign(v, 0.0)]):
        update = ema.apply([v])
    i = tf.Variable(1, name="i")
    with pytest.raises(TypeError, match="half, float, or double"):
        ema.apply([i])
    assert ema.variables_to_restore([v]) == {"v/ExponentialMovingAverage": v, "i": i}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(update)
        assert sess.run(ema.average(v)) == np.float32(5.0)


def test_py_func_has_no_host_pass_in_make_callable(graph):
    x = tf.placeholder(tf.float32, [2])
    y = tf.py_func(lambda a: a + 1.0, [x], tf.float32) * 2.0
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [1.0, 2.0]}), [4.0, 6.0])
        call = sess.make_callable(y, [x])
        with pytest.raises(errors.InvalidArgumentError, match="runs on the host"):
            call(np.array([1.0, 2.0], np.float32))


def test_py_func_error_classes_keep_the_cause(graph):
    x = tf.placeholder(tf.float32, [1])

    def stop(a):
        raise StopIteration

    def wrong_count(a):
        return a, a

    with tf.Session() as sess:
        with pytest.raises(errors.OutOfRangeError) as info:
            sess.run(tf.py_func(stop, [x], tf.float32), {x: [1.0]})
        assert isinstance(info.value.__cause__, StopIteration)
        with pytest.raises(errors.InvalidArgumentError, match="returned 2 values, but Tout lists 1"):
            sess.run(tf.py_func(wrong_count, [x], tf.float32), {x: [1.0]})


def test_report_uninitialized_and_tables(graph):
    a = tf.Variable(1.0, name="a")
    tf.Variable(2.0, name="b")
    report = tf.report_uninitialized_variables()
    assert report.dtype == tf.string
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(report), np.array([b"a", b"b"], dtype=object))
        sess.run(a.initializer)
        np.testing.assert_array_equal(sess.run(report), np.array([b"b"], dtype=object))
        assert sess.run(tf.is_variable_initialized(a)) == np.bool_(True)
        assert sess.run(tf.tables_initializer()) is None
        assert tf.train.start_queue_runners(sess) == []


def test_file_writer_add_run_metadata(tmp_path, graph):
    writer = tf.summary.FileWriter(str(tmp_path))
    meta = tf.RunMetadata()
    writer.add_run_metadata(meta, "step1", global_step=3)
    with pytest.raises(ValueError, match="already used"):
        writer.add_run_metadata(meta, "step1")
    writer.close()
    events = [e for p in tmp_path.iterdir() for e in tf.train.summary_iterator(str(p))]
    tagged = [(e.tagged_run_metadata.tag, e.step) for e in events if e.HasField("tagged_run_metadata")]
    assert tagged == [("step1", 3)]


def test_graphs_with_checks_metrics_and_py_funcs_serialise(tmp_path, graph):
    x = tf.placeholder(tf.float32, [None], name="x")
    v = tf.Variable(1.0)
    tf.assert_positive(x)
    tf.check_numerics(x, "m")
    y = tf.py_func(lambda t: t * 2.0, [x], tf.float32, name="double")
    tf.report_uninitialized_variables()
    tf.is_variable_initialized(v)
    tf.metrics.auc([True], tf.cast(x, tf.float64))
    gd = graph.as_graph_def()
    tf.summary.FileWriter(str(tmp_path), graph).close()
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:  # the function is found by the node's token in this process
            np.testing.assert_array_equal(sess.run("double:0", {"x:0": [1.0, 2.0]}), [2.0, 4.0])
    assert y.op.type == "PyFunc"


def test_add_check_numerics_ops_checks_every_float_tensor(graph):
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.log(x)
    check = tf.add_check_numerics_ops()
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run([y, check], {x: [1.0, 2.0]})[0], np.log([1.0, 2.0]))
        with pytest.raises(errors.InvalidArgumentError, match="^Log:0 : Tensor had NaN values"):
            sess.run([y, check], {x: [1.0, -2.0]})


def test_local_variables_initializer_covers_local_collections(graph):
    local = tf.Variable(3.0, collections=[tf.GraphKeys.LOCAL_VARIABLES], name="local")
    glob = tf.Variable(4.0, name="glob")
    assert tf.local_variables() == [local] and tf.global_variables() == [glob]
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert sess.run(local) == np.float32(3.0)
        assert sess.run(tf.report_uninitialized_variables()).tolist() == [b"glob"]


def test_checks_and_py_funcs_on_iterator_batches(graph):
    """A check's condition computed on the device from a host value (an
    iterator's batch) is computed after the iterator runs, fed its batch."""
    ds = tf.data.Dataset.from_tensor_slices(np.array([[1.0, 2.0], [3.0, -4.0]], np.float32)).batch(1)
    x = ds.make_one_shot_iterator().get_next()
    v = tf.Variable(0.0)
    check = tf.assert_positive(x)
    with tf.control_dependencies([check]):
        step = tf.assign_add(v, tf.reduce_sum(x))
    scaled = tf.py_func(lambda a: a * 10.0, [x * 2.0], tf.float32)
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(step) == np.float32(3.0)
        with pytest.raises(errors.InvalidArgumentError, match=r"\[x \(IteratorGetNext:0\) = \] \[\[3 -4\]\]"):
            sess.run(step)
        assert sess.run(v) == np.float32(3.0)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(scaled), [[20.0, 40.0]])


def test_eager_ops() -> None:
    with tf.EagerSession():
        np.testing.assert_array_equal(np.asarray(tf.truncatemod(tf.constant([-7, 7]), tf.constant([2, -2]))), [-1, 1])
        np.testing.assert_array_equal(np.asarray(tf.repeat(tf.constant([1, 2]), 2)), [1, 1, 2, 2])
        assert tf.switch_case(5, [lambda: 1, lambda: 2]) == 2
        assert float(tf.py_function(lambda a: a.numpy() + 1, [tf.constant(1.0)], tf.float32)) == 2.0



def test_py_function_gives_numpy_method_and_bytes() -> None:
    seen = []

    def fn(s: object, x: object) -> object:
        seen.append((s.numpy(), type(x.numpy()).__name__))  # type: ignore[attr-defined]
        return np.float32(len(s.numpy()))  # type: ignore[attr-defined]

    out = tf.py_function(fn, [tf.constant("abc"), tf.constant(2.0)], tf.float32)
    with tf.Session() as sess:
        assert sess.run(out) == 3.0
    assert seen == [(b"abc", "float32")]
    assert out.op.type == "PyFunc" and out.name == "EagerPyFunc:0"



def test_assert_near_tolerance_and_eager() -> None:
    x = tf.placeholder(tf.float32, [2])
    check = tf.assert_near(x, tf.constant([1.0, 2.0]), rtol=0.0, atol=0.1)
    with tf.Session() as sess:
        sess.run(check, {x: [1.05, 2.0]})
        with pytest.raises(errors.InvalidArgumentError, match=r"x and y not equal to tolerance"):
            sess.run(check, {x: [1.2, 2.0]})
    with tf.EagerSession():
        assert tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1.0])) is None



def test_assert_shapes_ellipsis_and_ints() -> None:
    a, b = tf.zeros([4, 2, 3]), tf.zeros([3])
    assert tf.debugging.assert_shapes([(a, ("...", "D")), (b, ("D",))]).type == "NoOp"
    with pytest.raises(ValueError, match=r"dimension 1 must have size 5"):
        tf.debugging.assert_shapes([(a, (4, 5, 3))])
    with pytest.raises(ValueError, match=r"must have rank 2"):
        tf.debugging.assert_shapes({a: ("N", "D")})
