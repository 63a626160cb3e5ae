"""The math/nn/array/state ops of the mathnn slice: what the corpus (``v34_*``,
values checked against TF) does not cover — eager execution, errors, build-time
limits, GraphDef round trips and the helpers without a TF 2.x oracle."""

from __future__ import annotations

import numpy as np
import pytest

import jaxsess as tf
from jaxsess._tf1.ops.segment_ops import DataDependentShapeError


def test_scatter_ops_eager() -> None:
    with tf.EagerSession():
        v = tf.Variable(np.zeros([4, 2], np.float32))
        out = tf.scatter_update(v, [1, 3], [[1.0, 2.0], [3.0, 4.0]])
        np.testing.assert_array_equal(np.asarray(out), [[0, 0], [1, 2], [0, 0], [3, 4]])
        tf.scatter_add(v, [1, 1], np.ones([2, 2], np.float32))
        tf.scatter_nd_sub(v, [[0, 1]], [5.0])
        np.testing.assert_array_equal(np.asarray(v.read_value()), [[0, -5], [3, 4], [0, 0], [3, 4]])


def test_scatter_on_reference_variable_and_in_control_dependencies() -> None:
    tf.disable_resource_variables()
    try:
        v = tf.Variable([1.0, 2.0, 3.0], name="ref_v")
    finally:
        tf.enable_resource_variables()
    upd = tf.scatter_mul(v, [0, 2], [10.0, 10.0])
    with tf.control_dependencies([upd]):
        after = tf.identity(v.read_value())
    with tf.Session() as sess:
        sess.run(v.initializer)
        np.testing.assert_allclose(sess.run(after), [10.0, 2.0, 30.0])
        np.testing.assert_allclose(sess.run(v), [10.0, 2.0, 30.0])


def test_scatter_errors_name_the_variable() -> None:
    v = tf.Variable(np.zeros([4, 3], np.float32), name="table")
    with pytest.raises(ValueError, match=r"scatter_update: updates of variable 'table'.*must have shape \(2, 3\)"):
        tf.scatter_update(v, [0, 1], [[1.0, 2.0, 3.0]])
    with pytest.raises(TypeError, match="indices must be int32 or int64"):
        tf.scatter_add(v, [0.5], [[1.0, 2.0, 3.0]])
    with pytest.raises(TypeError, match="Expected a Variable"):
        tf.scatter_sub(tf.constant([1.0]), [0], [1.0])
    with pytest.raises(ValueError, match="rank >= 1"):
        tf.scatter_nd_update(v, 0, [1.0, 2.0, 3.0])


def test_fft_eager_round_trip_and_unknown_length() -> None:
    with tf.EagerSession():
        x = np.arange(6, dtype=np.float32)
        spec = tf.signal.rfft(x)
        np.testing.assert_allclose(np.asarray(spec), np.fft.rfft(x), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(np.asarray(tf.signal.irfft(spec)), x, atol=1e-5)
        c = tf.complex(x, -x)
        np.testing.assert_allclose(np.asarray(tf.ifft(tf.fft(c))), x - 1j * x, atol=1e-5)
    p = tf.placeholder(tf.float32, [2, None])
    with pytest.raises(ValueError, match="fft_length is required"):
        tf.signal.rfft(p)
    with tf.Session() as sess:
        out = sess.run(tf.signal.rfft(p, fft_length=[4]), {p: np.ones([2, 4], np.float32)})
    np.testing.assert_allclose(out, [[4, 0, 0], [4, 0, 0]], atol=1e-6)


def test_space_to_depth_nchw_matches_nhwc() -> None:
    x = np.arange(2 * 4 * 6 * 3, dtype=np.float32).reshape(2, 4, 6, 3)
    nhwc = tf.space_to_depth(x, 2)
    nchw = tf.space_to_depth(np.transpose(x, [0, 3, 1, 2]), 2, data_format="NCHW")
    back = tf.depth_to_space(nchw, 2, data_format="NCHW")
    with tf.Session() as sess:
        a, b, c = sess.run([nhwc, nchw, back])
    np.testing.assert_array_equal(np.transpose(b, [0, 2, 3, 1]), a)
    np.testing.assert_array_equal(np.transpose(c, [0, 2, 3, 1]), x)


def test_data_dependent_shapes_raise_at_build_time() -> None:
    idx = tf.placeholder(tf.int32, [2])
    with pytest.raises(DataDependentShapeError, match="DynamicStitch"):
        tf.dynamic_stitch([idx], [tf.ones([2])])
    with pytest.raises(DataDependentShapeError, match="ListDiff"):
        tf.setdiff1d(idx, [1])
    # confusion_matrix without num_classes is a host op (tests/test_basics.py); with it, a device op
    cm = tf.confusion_matrix(idx, [0, 1], num_classes=2)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(cm, {idx: [1, 1]}), [[0, 0], [1, 1]])


def test_graph_def_round_trip_of_new_ops() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 4, 4, 2], name="x")
        outs = {
            "svd": tf.svd(tf.reshape(x, [16, 4]))[0],
            "rfft": tf.abs(tf.signal.rfft(x)),
            "s2d": tf.space_to_depth(x, 2),
            "argmax": tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")[1],
            "stitch": tf.dynamic_stitch([[1, 0]], [tf.reshape(x, [2, 32])]),
            "conv3d": tf.nn.conv3d(tf.reshape(x, [1, 2, 4, 4, 2]), tf.ones([1, 2, 2, 2, 3]), [1] * 5, "SAME"),
        }
        names = {k: v.name for k, v in outs.items()}
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(g.as_graph_def(), name="")
    feed = np.random.RandomState(0).rand(2, 4, 4, 2).astype(np.float32)
    with tf.Session(graph=g) as s1, tf.Session(graph=g2) as s2:
        a = s1.run(outs, {x: feed})
        b = s2.run({k: g2.get_tensor_by_name(n) for k, n in names.items()}, {"x:0": feed})
    for k in a:
        np.testing.assert_allclose(a[k], b[k], rtol=1e-5, atol=1e-5, err_msg=k)


def test_embed_sequence_variable_and_values() -> None:
    ids = tf.constant([[0, 2], [1, 1]])
    table = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = tf.contrib.layers.embed_sequence(ids, vocab_size=3, embed_dim=4,
                                           initializer=tf.constant_initializer(table))
    again = tf.contrib.layers.embed_sequence(ids, vocab_size=3, embed_dim=4, scope="EmbedSequence", reuse=True)
    assert [v.name for v in tf.model_variables()] == ["EmbedSequence/embeddings:0"]
    assert out.shape.as_list() == [2, 2, 4]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        a, b = sess.run([out, again])
    np.testing.assert_array_equal(a, table[[[0, 2], [1, 1]]])
    np.testing.assert_array_equal(b, a)
    with pytest.raises(ValueError, match="vocab_size"):
        tf.contrib.layers.embed_sequence(ids, embed_dim=4)


def test_make_template_unique_name_and_custom_getter() -> None:
    seen: list[str] = []

    def getter(next_getter, name, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(name)
        return next_getter(name, *args, **kwargs)

    def f(x):  # type: ignore[no-untyped-def]
        return x * tf.get_variable("k", [], initializer=tf.ones_initializer())

    t = tf.make_template("t", f, unique_name_="fixed", custom_getter_=getter)
    t(1.0)
    t(2.0)
    assert [v.name for v in tf.global_variables()] == ["fixed/k:0"]
    assert seen == ["fixed/k", "fixed/k"]
    assert t.variable_scope_name == "fixed/"


def test_arg_scope_nesting_and_errors() -> None:
    slim = tf.contrib.slim

    @slim.add_arg_scope
    def f(x, a=1, b=2):  # type: ignore[no-untyped-def]
        return (x, a, b)

    assert slim.arg_scoped_arguments(f) == ("a", "b")
    with slim.arg_scope([f], a=10) as outer:
        with slim.arg_scope([f], b=20):
            assert f(0) == (0, 10, 20)
            assert f(0, a=3) == (0, 3, 20)
        assert f(0) == (0, 10, 2)
    assert f(0) == (0, 1, 2)
    with slim.arg_scope(outer):
        assert f(0) == (0, 10, 2)
    with pytest.raises(ValueError, match="kwargs must be empty"), slim.arg_scope(outer, a=1):
        pass


def test_identity_initializer_rejects_non_matrices() -> None:
    with pytest.raises(ValueError, match="2D matrices"):
        tf.get_variable("w", [2, 2, 2], initializer=tf.initializers.identity())
    v = tf.get_variable("m", [2, 3], initializer=tf.initializers.identity(gain=2.0))
    with tf.Session() as sess:
        sess.run(v.initializer)
        np.testing.assert_array_equal(sess.run(v), [[2, 0, 0], [0, 2, 0]])


def test_max_pool_with_argmax_eager_int32() -> None:
    with tf.EagerSession():
        x = np.array([[1, 5], [7, 2]], np.float32).reshape(1, 2, 2, 1)
        v, i = tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", Targmax=tf.int32)
        assert np.asarray(i).dtype == np.int32
        assert np.asarray(v).item() == 7.0 and np.asarray(i).item() == 2


def test_pool_rejects_same_with_dilation() -> None:
    x = tf.zeros([1, 5, 5, 1])
    with pytest.raises(ValueError, match="'SAME' padding is not implemented"):
        tf.nn.pool(x, [2, 2], "MAX", "SAME", dilation_rate=[2, 2])
    with pytest.raises(ValueError, match="pooling_type"):
        tf.nn.pool(x, [2, 2], "MIN", "VALID")


_X = np.random.RandomState(1).rand(2, 4, 4, 2).astype(np.float32)
_A = np.array([[4.0, 1.0], [1.0, 3.0]], np.float32)
_EAGER_CASES = {
    "matrix_solve": lambda: tf.matrix_solve(_A, np.ones([2, 1], np.float32)),
    "svd_s": lambda: tf.svd(_A)[0],
    "eigvals": lambda: tf.self_adjoint_eigvals(_A),
    "logdet": lambda: tf.linalg.logdet(_A),
    "stft": lambda: tf.abs(tf.signal.stft(np.linspace(0, 1, 16).astype(np.float32), 4, 2)),
    "conv3d": lambda: tf.nn.conv3d(_X.reshape(1, 2, 4, 4, 2), np.ones([1, 2, 1, 2, 3], np.float32), [1] * 5, "SAME"),
    "pool": lambda: tf.nn.pool(_X, [2, 2], "AVG", "VALID"),
    "space_to_batch_nd": lambda: tf.space_to_batch_nd(_X, [2, 2], [[0, 0], [0, 0]]),
    "patches": lambda: tf.extract_image_patches(_X, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
    "weighted_moments": lambda: tf.nn.weighted_moments(_X, [0], 2.0)[1],
    "dynamic_stitch": lambda: tf.dynamic_stitch([[1, 0, 3, 2]], [_X[0, 0]]),
    "confusion_matrix": lambda: tf.confusion_matrix([0, 1], [1, 1]),
}


@pytest.mark.parametrize("case", sorted(_EAGER_CASES))
def test_new_ops_eager_match_graph(case: str) -> None:
    with tf.EagerSession():
        eager = np.asarray(_EAGER_CASES[case]())
    with tf.Session() as sess:
        graph = sess.run(_EAGER_CASES[case]())
    np.testing.assert_allclose(eager, graph, rtol=1e-5, atol=1e-6)


def test_count_up_to_raises_out_of_range_and_keeps_the_variable() -> None:
    v = tf.Variable(1, name="counter")
    nxt = tf.count_up_to(v, 3)
    assert nxt.name == "CountUpTo:0" and nxt.dtype == tf.int32
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert [sess.run(nxt), sess.run(nxt)] == [1, 2]
        with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 3"):
            sess.run(nxt)
        assert sess.run(v) == 3
    with pytest.raises(TypeError, match="int32 or int64"):
        tf.count_up_to(tf.Variable(1.0), 3)
    with tf.EagerSession():
        e = tf.Variable(2)
        assert int(tf.count_up_to(e, 3)) == 2
        with pytest.raises(tf.errors.OutOfRangeError):
            tf.count_up_to(e, 3)
