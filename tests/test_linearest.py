"""Categorical feature columns, ``linear_model`` and the linear / wide-and-deep
estimators (the differential checks are corpus programs ``v43_*``)."""

from __future__ import annotations

import numpy as np
import pytest

import jaxsess as tf
from jaxsess._tf1._fingerprint import fingerprint64
from jaxsess._tf1.ops import feature_column_ops

fc = tf.feature_column


def test_fingerprint64_is_tfs():
    # tf.strings.to_hash_bucket_fast(['a', 'hello', '', 'xyz'], 2**62) in TF 2.21
    got = [fingerprint64(s) % 2**62 for s in (b"a", b"hello", b"", "xyz")]
    assert got == [3694432073954588131, 3786372426573024488, 1936946117179621455, 1169912104014393516]


def test_cross_hashes_are_tfs():
    # tf.sparse.cross_hashed([[['a'], ['b']], [[3], [5]]], num_buckets=0 / 100) in TF 2.21
    with tf.Graph().as_default(), tf.Session() as sess:
        strings = tf.constant(np.array([[b"a"], [b"b"]], dtype=object))
        ints = tf.constant(np.array([[3], [5]], np.int64))
        unbounded = feature_column_ops.cross_hashed_ids([strings, ints], 0)
        bounded = feature_column_ops.cross_hashed_ids([strings, ints], 100)
        got = sess.run([unbounded, bounded])
    np.testing.assert_array_equal(got[0], [[9216350530976061679], [2973843856347199673]])
    np.testing.assert_array_equal(got[1], [[86], [73]])


def test_string_placeholder_feeds_vocabulary_and_hash_ids():
    with tf.Graph().as_default():
        words = tf.placeholder(tf.string, [None])
        color = fc.categorical_column_with_vocabulary_list("w", ["red", "blue"], num_oov_buckets=1)
        hashed = fc.categorical_column_with_hash_bucket("v", 4)
        net = fc.input_layer({"w": words, "v": words}, [fc.indicator_column(color), fc.indicator_column(hashed)])
        assert net.shape.as_list() == [None, 7]
        with tf.Session() as sess:
            out = sess.run(net, {words: ["blue", "", "green"]})
    # columns in the order of their names: v_indicator (4 buckets), then w_indicator
    np.testing.assert_array_equal(out[:, 4:], [[0, 1, 0], [0, 0, 0], [0, 0, 1]])
    expected = fingerprint64(b"blue") % 4
    assert out[0, :4].tolist() == [float(i == expected) for i in range(4)]
    assert out[1, :4].sum() == 0  # '' is a missing value


def test_identity_column_default_and_missing_values():
    with tf.Graph().as_default(), tf.Session() as sess:
        feats = {"k": np.array([[0, 7], [-1, 2]], np.int64)}
        with_default = fc.indicator_column(fc.categorical_column_with_identity("k", 3, default_value=1))
        ignored = fc.categorical_column_with_identity("k", 3)
        out = sess.run(fc.input_layer(feats, [with_default]))
        ids = sess.run(ignored._ids(feats))
    np.testing.assert_array_equal(out, [[1, 1, 0], [0, 0, 1]])
    np.testing.assert_array_equal(ids, [[0, -1], [-1, 2]])


@pytest.mark.parametrize(("combiner", "expected"), [("sum", [4.0, 0.0]), ("mean", [2.0, 0.0]),
                                                    ("sqrtn", [4.0 / np.sqrt(2.0), 0.0])])
def test_embedding_combiners_ignore_missing_ids(combiner, expected):
    with tf.Graph().as_default(), tf.Session() as sess:
        col = fc.embedding_column(fc.categorical_column_with_identity("k", 3), 1, combiner=combiner,
                                  initializer=tf.constant_initializer([[1.0], [2.0], [3.0]]))
        net = fc.input_layer({"k": np.array([[0, 2, -1], [-1, -1, -1]], np.int64)}, [col])
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(net)[:, 0], expected, rtol=1e-6)
        assert [v.name for v in tf.global_variables()] == ["input_layer/k_embedding/embedding_weights:0"]


def test_linear_model_variables_and_value():
    with tf.Graph().as_default(), tf.Session() as sess:
        age_b = fc.bucketized_column(fc.numeric_column("a"), [1.0, 2.0])
        cols_to_vars: dict = {}
        out = fc.linear_model({"a": np.array([0.5, 1.5, 9.0], np.float32)}, [age_b], units=2,
                              cols_to_vars=cols_to_vars)
        weights, bias = cols_to_vars[age_b][0], cols_to_vars["bias"][0]
        assert (weights.name, bias.name) == ("linear_model/a_bucketized/weights:0", "linear_model/bias_weights:0")
        sess.run(tf.global_variables_initializer())
        sess.run([tf.assign(weights, [[1.0, 0.0], [2.0, 0.0], [3.0, 1.0]]), tf.assign(bias, [0.5, 0.5])])
        np.testing.assert_allclose(sess.run(out), [[1.5, 0.5], [2.5, 0.5], [3.5, 1.5]])


def test_column_errors():
    with pytest.raises(ValueError, match="Duplicate keys"):
        fc.categorical_column_with_vocabulary_list("a", ["x", "x"])
    with pytest.raises(ValueError, match="both num_oov_buckets and default_value"):
        fc.categorical_column_with_vocabulary_list("a", ["x"], default_value=0, num_oov_buckets=1)
    with pytest.raises(ValueError, match="not supported for crossing"):
        fc.crossed_column(["a", fc.categorical_column_with_hash_bucket("b", 3)], 10)
    with pytest.raises(ValueError, match="sorted"):
        fc.bucketized_column(fc.numeric_column("a"), [2.0, 1.0])
    with pytest.raises(ValueError, match="num_buckets 0 < 1"):
        fc.categorical_column_with_identity("a", 0)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="indicator_column"):
            fc.input_layer({"a": np.array([1], np.int64)}, [fc.categorical_column_with_identity("a", 3)])
        with pytest.raises(ValueError, match="dtype must be compatible"):
            fc.input_layer({"a": np.array([1], np.int64)},
                           [fc.indicator_column(fc.categorical_column_with_vocabulary_list("a", ["x"]))])


def test_combined_estimator_errors():
    with pytest.raises(ValueError, match="Either linear_feature_columns or dnn_feature_columns"):
        tf.estimator.DNNLinearCombinedRegressor()
    with pytest.raises(ValueError, match="weight_column is not supported"):
        tf.estimator.LinearRegressor([fc.numeric_column("a")], weight_column="w")
    est = tf.estimator.DNNLinearCombinedRegressor(dnn_feature_columns=[fc.numeric_column("a")])
    with pytest.raises(ValueError, match="dnn_hidden_units must be defined"):
        est.train(lambda: ({"a": tf.constant([[1.0]])}, tf.constant([[1.0]])), steps=1)


def test_id_ops_round_trip_through_graph_def():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.string, [None], name="x")
        color = fc.categorical_column_with_vocabulary_list("x", ["a", "b"])
        net = fc.input_layer({"x": x, "y": x}, [fc.indicator_column(color),
                                                fc.indicator_column(fc.crossed_column(["x", "y"], 4))])
        graph_def = graph.as_graph_def()
        with tf.Session() as sess:
            expected = sess.run(net, {x: ["a", "b", "c"]})
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.import_graph_def(graph_def, name="")
        np.testing.assert_array_equal(sess.run(net.name, {"x:0": ["a", "b", "c"]}), expected)
    np.testing.assert_array_equal(expected[:, 4:], [[1, 0], [0, 1], [0, 0]])


def test_vocabulary_file_column_errors(tmp_path) -> None:
    path = tmp_path / "v.txt"
    path.write_text("a\nb\n")
    col = tf.feature_column.categorical_column_with_vocabulary_file("k", str(path))
    assert col.vocabulary_size == 2 and col.num_buckets == 2
    with pytest.raises(ValueError, match="Invalid vocabulary_size in k"):
        tf.feature_column.categorical_column_with_vocabulary_file("k", str(path), vocabulary_size=0)
    with pytest.raises(ValueError, match="Invalid num_oov_buckets -1 in k"):
        tf.feature_column.categorical_column_with_vocabulary_file("k", str(path), num_oov_buckets=-1)
    with pytest.raises(ValueError, match="Missing vocabulary_file"):
        tf.feature_column.categorical_column_with_vocabulary_file("k", "")
    too_big = tf.feature_column.categorical_column_with_vocabulary_file("k", str(path), vocabulary_size=5)
    with pytest.raises(ValueError, match="Invalid vocab_size 5"):
        tf.feature_column.input_layer({"k": [["a"]]}, [tf.feature_column.indicator_column(too_big)])



def test_shared_embedding_columns_errors() -> None:
    fc = tf.feature_column
    a = fc.categorical_column_with_identity("a", 4)
    with pytest.raises(ValueError, match="Invalid dimension 0"):
        fc.shared_embedding_columns([a], 0)
    with pytest.raises(ValueError, match="same number of buckets"):
        fc.shared_embedding_columns([a, fc.categorical_column_with_identity("b", 5)], 2)
    with pytest.raises(ValueError, match="same type"):
        fc.shared_embedding_columns([a, fc.categorical_column_with_hash_bucket("b", 4)], 2)
    cols = fc.shared_embedding_columns([a, fc.categorical_column_with_identity("b", 4)], 2,
                                       shared_embedding_collection_name="shared")
    assert [c._var_scope_name for c in cols] == ["shared", "shared"]
    assert fc.make_parse_example_spec(cols) == {"a": tf.io.VarLenFeature(tf.int64), "b": tf.io.VarLenFeature(tf.int64)}
