"""Fixes found by the classic-tutorial TF1 programs (``tests/tf1_corpus/programs/v50_*``)."""

from __future__ import annotations

from typing import Any

import jaxsess.compat.v1 as tf
import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _fresh_graph() -> None:
    tf.reset_default_graph()


def test_division_by_a_constant_is_rounded_once() -> None:
    # XLA turns x / 20 into x * (1/20): 20 * (1/20) = 1 + 2**-24 in float32.
    a = tf.placeholder(tf.float32, [])
    frac = 1.0 - tf.minimum(a, 20.0) / 20.0
    with tf.Session() as sess:
        f, r = sess.run([frac, tf.pow(frac, 0.5)], {a: 20.0})
        assert f == 0.0 and r == 0.0
        v = np.float32([3.0, 7.0, 11.0])
        np.testing.assert_array_equal(sess.run(tf.constant(v) / 10.0), v / np.float32(10.0))
        np.testing.assert_array_equal(sess.run(tf.realdiv(tf.constant(v), 10.0)), v / np.float32(10.0))


def test_division_by_a_constant_keeps_its_gradient() -> None:
    b = tf.Variable(3.0)
    loss = b * b / tf.constant(4.0) + 1.0 / b
    (g,) = tf.gradients(loss, [b])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(g), 1.5 - 1.0 / 9.0, rtol=1e-6)


def test_polynomial_decay_past_its_end_is_the_end_rate() -> None:
    step = tf.placeholder(tf.int64, [])
    lr = tf.train.polynomial_decay(0.1, step, 20, 0.01, power=0.5)
    with tf.Session() as sess:
        for s in (20, 25):
            np.testing.assert_allclose(sess.run(lr, {step: s}), 0.01, rtol=1e-6)


def test_confusion_matrix_of_fed_values_without_num_classes() -> None:
    labels = tf.placeholder(tf.int64, [None])
    preds = tf.placeholder(tf.int64, [None])
    cm = tf.confusion_matrix(labels, preds)
    cmw = tf.math.confusion_matrix(labels, preds, weights=tf.cast(labels, tf.float32) + 1.0, dtype=tf.float32)
    assert cm.shape.as_list() == [None, None] and cm.dtype == tf.int32
    assert cm.name == "confusion_matrix/ScatterNd:0"
    with tf.Session() as sess:
        got = sess.run(cm, {labels: [0, 2, 1, 2], preds: [0, 1, 1, 2]})
        np.testing.assert_array_equal(got, [[1, 0, 0], [0, 1, 0], [0, 1, 1]])
        assert got.dtype == np.int32
        small = sess.run(cm, {labels: [0, 1], preds: [1, 1]})
        np.testing.assert_array_equal(small, [[0, 1], [0, 1]])
        w = sess.run(cmw, {labels: [0, 1, 1], preds: [0, 1, 0]})
        np.testing.assert_array_equal(w, np.float32([[1, 0], [2, 2]]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="negative"):
            sess.run(cm, {labels: [0, -1], preds: [1, 1]})


def test_confusion_matrix_without_num_classes_after_an_assignment_raises() -> None:
    v = tf.Variable([0, 1], dtype=tf.int64)
    with pytest.raises(NotImplementedError, match="confusion_matrix"):
        tf.confusion_matrix(tf.assign(v, [1, 1]), [0, 1])


def test_new_losses_and_schedules_validate_their_arguments() -> None:
    y = tf.constant([[1.0, 0.0]])
    with pytest.raises(ValueError, match="axis"):
        tf.losses.cosine_distance(y, y)
    with pytest.raises(ValueError, match="broadcast"):
        tf.losses.mean_pairwise_squared_error(y, y, weights=tf.ones([1, 1, 1]))
    with pytest.raises(ValueError, match="global_step"):
        tf.train.cosine_decay_restarts(0.1, None, 10)
    with tf.Session() as sess:
        assert sess.run(tf.losses.cosine_distance(y, y, dim=1)) == 0.0
        np.testing.assert_allclose(sess.run(tf.losses.mean_pairwise_squared_error(y, 2.0 * y)), 1.0)


def test_boolean_mask_and_where_of_run_time_values() -> None:
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    x = tf.placeholder(tf.float32, [None, 2])
    m = tf.placeholder(tf.bool, [None])
    b = tf.boolean_mask(v * x, m)
    (g,) = tf.gradients(tf.reduce_sum(b * b), v)
    big = tf.boolean_mask(v, v > 2.5)  # a 2-D mask computed from a variable
    idx = tf.where(v > 2.5)
    assert b.shape.as_list() == [None, 2] and big.shape.as_list() == [None]
    assert idx.shape.as_list() == [None, 2] and idx.dtype == tf.int64 and idx.name == "Where:0"
    feed = {x: np.float32([[1], [0], [2]]) * np.ones((3, 2), np.float32), m: [True, False, True]}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got_b, got_g, got_big, got_idx = sess.run([b, g, big, idx], feed)
        np.testing.assert_array_equal(got_b, [[1, 2], [10, 12]])
        np.testing.assert_array_equal(got_g, [[2, 4], [0, 0], [40, 48]])
        np.testing.assert_array_equal(got_big, [3, 4, 5, 6])
        np.testing.assert_array_equal(got_idx, [[1, 0], [1, 1], [2, 0], [2, 1]])
        assert got_idx.dtype == np.int64
        # another number of kept rows: the plan compiles for it
        assert sess.run(b, {x: feed[x], m: [False, False, True]}).shape == (1, 2)
        assert sess.run(b, {x: feed[x], m: [False, False, False]}).shape == (0, 2)


def test_unique_bincount_and_dynamic_partition_of_fed_values() -> None:
    x = tf.placeholder(tf.int32, [None])
    y, idx = tf.unique(x)
    u = tf.unique_with_counts(x, out_idx=tf.int64)
    counts = tf.bincount(x)
    weighted = tf.math.bincount(x, weights=tf.cast(x, tf.float32), minlength=6)
    capped = tf.math.bincount(x, maxlength=3)
    data = tf.placeholder(tf.float32, [None])
    parts = tf.dynamic_partition(data, x % 2, 2)
    (gp,) = tf.gradients(tf.reduce_sum(parts[1]) * 3.0, data)
    assert y.shape.as_list() == [None] and counts.name == "bincount/DenseBincount:0"
    assert [p.shape.as_list() for p in parts] == [[None], [None]]
    fx = [4, 3, 4, 1, 1, 1]
    with tf.Session() as sess:
        out = sess.run([y, idx, u, counts, weighted, capped, parts, gp],
                       {x: fx, data: np.arange(6, dtype=np.float32)})
    np.testing.assert_array_equal(out[0], [4, 3, 1])
    np.testing.assert_array_equal(out[1], [0, 1, 0, 2, 2, 2])
    assert type(out[2]).__name__ == "UniqueWithCounts" and out[2].count.dtype == np.int64
    np.testing.assert_array_equal(out[2].count, [2, 1, 3])
    np.testing.assert_array_equal(out[3], [0, 3, 0, 1, 2])
    np.testing.assert_array_equal(out[4], np.float32([0, 3, 0, 3, 8, 0]))
    np.testing.assert_array_equal(out[5], [0, 3, 0])
    np.testing.assert_array_equal(out[6][0], [0, 2])
    np.testing.assert_array_equal(out[6][1], [1, 3, 4, 5])
    np.testing.assert_array_equal(out[7], [0, 3, 0, 3, 3, 3])
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="non-negative"):
        sess.run(counts, {x: [1, -2]})


def test_host_shaped_ops_after_an_assignment_raise() -> None:
    v = tf.Variable([1, 2])
    for build in (lambda t: tf.where(t > 1), lambda t: tf.unique(t), lambda t: tf.bincount(t),
                  lambda t: tf.boolean_mask(t, t > 1)):
        with pytest.raises(NotImplementedError, match="assigns a variable"):
            build(tf.assign(v, [2, 3]))


@pytest.mark.parametrize("strategy", ["mod", "div"])
def test_embedding_lookup_over_shards(strategy: str) -> None:
    table = np.arange(7 * 2, dtype=np.float32).reshape(7, 2)
    if strategy == "mod":
        parts = [table[0::3], table[1::3], table[2::3]]
    else:  # 7 rows over 3 shards: 3, 2, 2
        parts = [table[:3], table[3:5], table[5:]]
    shards = [tf.Variable(p) for p in parts]
    ids = tf.placeholder(tf.int32, [None])
    rows = tf.nn.embedding_lookup(shards, ids, partition_strategy=strategy)
    grads = tf.gradients(tf.reduce_sum(rows * rows), shards)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got, gs = sess.run([rows, grads], {ids: [6, 0, 4, 4]})
    np.testing.assert_array_equal(got, table[[6, 0, 4, 4]])
    want = np.zeros_like(table)
    np.add.at(want, [6, 0, 4, 4], 2 * table[[6, 0, 4, 4]])
    wparts = [want[0::3], want[1::3], want[2::3]] if strategy == "mod" else [want[:3], want[3:5], want[5:]]
    for g, w in zip(gs, wparts, strict=True):
        np.testing.assert_array_equal(np.asarray(g), w)
    with pytest.raises(ValueError, match="partition strategy"):
        tf.nn.embedding_lookup(shards, ids, partition_strategy="rows")


def test_saver_makes_the_missing_last_directory(tmp_path: Any) -> None:
    v = tf.Variable(1.0)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert saver.save(sess, str(tmp_path / "ckpt" / "model")) == str(tmp_path / "ckpt" / "model")
        assert tf.train.latest_checkpoint(str(tmp_path / "ckpt")) == str(tmp_path / "ckpt" / "model")
        with pytest.raises(ValueError, match="Parent directory"):
            saver.save(sess, str(tmp_path / "a" / "b" / "model"))
    del v


def test_scalar_mul_takes_x_dtype_and_rejects_tensors() -> None:
    out = tf.scalar_mul(3, tf.constant([1.0, 2.0]))
    assert out.dtype == tf.float32 and out.name == "Mul:0"
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(out), np.float32([3, 6]))
    with pytest.raises(ValueError, match="0-D"):
        tf.math.scalar_mul(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0]))


def test_file_writer_writes_a_graph_with_an_iterator_and_strips_repeated_metadata(tmp_path: Any) -> None:
    x = tf.placeholder(tf.float32, [None])
    it = tf.data.Dataset.from_tensor_slices(x).make_initializable_iterator()
    nxt = it.get_next()
    note = tf.summary.text("note", tf.constant("hello"))
    with pytest.raises(TypeError, match="known when the graph is built"):
        tf.summary.text("fed", tf.placeholder(tf.string, []))
    with tf.Session() as sess:
        writer = tf.summary.FileWriter(str(tmp_path), sess.graph)
        s = sess.run(note)
        writer.add_summary(s, 0)
        writer.add_summary(s, 1)
        writer.close()
        sess.run(it.initializer, {x: [1.0]})
        assert sess.run(nxt) == 1.0
    rows = []
    for name in sorted((tmp_path).iterdir()):
        for e in tf.train.summary_iterator(str(name)):
            if e.HasField("graph_def"):
                rows.append("graph")
            for v in e.summary.value:
                rows.append((e.step, v.tag, v.metadata.plugin_data.plugin_name, v.tensor.string_val[0]))
    assert rows == ["graph", (0, "note", "text", b"hello"), (1, "note", "", b"hello")]
