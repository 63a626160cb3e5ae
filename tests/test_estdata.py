"""tf.data transformations, feedable iterators, captures in dataset functions, string
array ops on the host and Estimator.export_saved_model (values checked against TF
2.21 when written; the v52_* corpus programs compare whole tutorials)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import jaxsess as tf
from jaxsess._tf1.estimator._export import export_outputs_for_predict


def _drain(ds: tf.data.Dataset) -> list[object]:
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    out = []
    with tf.Session() as sess:
        try:
            while True:
                out.append(sess.run(nxt))
        except tf.errors.OutOfRangeError:
            return out


def test_interleave_follows_tfs_cycle_order() -> None:
    ds = tf.data.Dataset.range(1, 4).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(3),
                                               cycle_length=2, block_length=2)
    assert [int(v) for v in _drain(ds)] == [1, 1, 2, 2, 1, 2, 3, 3, 3]  # TF 2.21's order


def test_flat_map_with_tensor_repeat_count_and_window_stride() -> None:
    ds = tf.data.Dataset.range(1, 4).flat_map(lambda x: tf.data.Dataset.from_tensors(x).repeat(x))
    assert [int(v) for v in _drain(ds)] == [1, 2, 2, 3, 3, 3]
    w = tf.data.Dataset.range(7).window(3, shift=2, stride=2).flat_map(lambda w: w.batch(3))
    assert [v.tolist() for v in _drain(w)] == [[0, 2, 4], [2, 4, 6], [4, 6], [6]]


def test_padded_batch_pads_and_rejects_too_short_shapes() -> None:
    def gen():
        yield from ([1], [1, 2], [1, 2, 3])

    ds = tf.data.Dataset.from_generator(gen, tf.int32, tf.TensorShape([None]))
    out = _drain(ds.padded_batch(2, padding_values=-1))
    assert [b.tolist() for b in out] == [[[1, -1], [1, 2]], [[1, 2, 3]]]
    words = tf.data.Dataset.from_generator(lambda: iter([[b"a"], [b"b", b"c"]]), tf.string, [None])
    assert _drain(words.padded_batch(2))[0].tolist() == [[b"a", b""], [b"b", b"c"]]
    with pytest.raises(tf.errors.DataLossError, match="smaller size"):  # TF 2.21's class
        _drain(ds.padded_batch(3, padded_shapes=[2]))
    with pytest.raises(TypeError, match="padding_values"):
        ds.padded_batch(2, padding_values=tf.constant(0.5))


def test_group_by_window_flushes_partial_groups_in_key_order_and_captures_the_key() -> None:
    ds = tf.data.Dataset.from_tensor_slices(np.array([5, 3, 7, 2, 9, 4, 1], np.int64))
    grouped = ds.apply(tf.data.experimental.group_by_window(
        lambda x: x % 3, lambda k, d: d.batch(5).map(lambda b: (k, b)), 5))
    out = [(int(k), b.tolist()) for k, b in _drain(grouped)]
    assert out == [(0, [3, 9]), (1, [7, 4, 1]), (2, [5, 2])]  # TF 2.21


def test_bucket_by_sequence_length_batches_per_bucket() -> None:
    ds = tf.data.Dataset.from_generator(lambda: iter([[1], [2, 2], [3, 3, 3], [4, 4, 4, 4], [5] * 5]),
                                        tf.int64, [None])
    out = _drain(ds.apply(tf.data.experimental.bucket_by_sequence_length(
        lambda e: tf.shape(e)[0], [3], [2, 2])))
    assert [b.tolist() for b in out] == [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]], [[5, 5, 5, 5, 5]]]
    with pytest.raises(ValueError, match="bucket_batch_sizes"):
        ds.bucket_by_sequence_length(lambda e: tf.shape(e)[0], [3], [2])


def test_feedable_iterator_switches_by_handle_and_rejects_unknown_handles() -> None:
    train = tf.data.Dataset.range(10).batch(3).repeat()
    val = tf.data.Dataset.range(100, 102).batch(2)
    handle = tf.placeholder(tf.string, [])
    it = tf.data.Iterator.from_string_handle(handle, tf.data.get_output_types(train),
                                             tf.data.get_output_shapes(train))
    nxt = it.get_next()
    assert nxt.shape.as_list() == [None]
    train_it = tf.data.make_one_shot_iterator(train)
    val_it = tf.data.make_initializable_iterator(val)
    other = tf.data.make_one_shot_iterator(tf.data.Dataset.from_tensors(1.0))
    with tf.Session() as sess:
        th, vh, oh = sess.run([train_it.string_handle(), val_it.string_handle(), other.string_handle()])
        assert isinstance(th, bytes)
        assert sess.run(nxt, {handle: th}).tolist() == [0, 1, 2]
        sess.run(val_it.initializer)
        assert sess.run(nxt, {handle: vh}).tolist() == [100, 101]
        assert sess.run(nxt, {handle: th}).tolist() == [3, 4, 5]
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(nxt, {handle: b"junk"})
        with pytest.raises(tf.errors.InvalidArgumentError, match="types differ"):
            sess.run(nxt, {handle: oh})


def test_dataset_functions_capture_enclosing_tensors() -> None:
    mean = tf.constant([1.0, 2.0])
    scale = tf.placeholder(tf.float32, [])
    batch = tf.placeholder(tf.int64, [])
    ds = tf.data.Dataset.from_tensor_slices(np.ones((3, 2), np.float32)).map(lambda x: (x - mean) * scale)
    ds = ds.batch(batch)
    assert ds.output_shapes.as_list() == [None, 2]
    it = ds.make_initializable_iterator()
    nxt = it.get_next()
    with tf.Session() as sess:
        sess.run(it.initializer, {scale: 2.0, batch: 2})
        assert sess.run(nxt).tolist() == [[0.0, -2.0], [0.0, -2.0]]
        assert sess.run(nxt).shape == (1, 2)
    with pytest.raises(ValueError):
        ds.make_one_shot_iterator()


def test_lists_inside_from_tensor_slices_structures_are_tensors() -> None:
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [3.0, 4.0]})
    assert {k: v.name for k, v in ds.output_types.items()} == {"a": "int32", "b": "float32"}
    assert [(int(e["a"]), float(e["b"])) for e in _drain(ds)] == [(1, 3.0), (2, 4.0)]


def test_experimental_transformations() -> None:
    ex = tf.data.experimental
    r = tf.data.Dataset.range
    assert [v.tolist() for v in _drain(r(5).apply(ex.map_and_batch(lambda x: x * 2, 2)))] == [[0, 2], [4, 6], [8]]
    assert [int(v) for v in _drain(r(6).batch(4).apply(ex.unbatch()))] == list(range(6))
    assert [int(v) for v in _drain(r(5).apply(ex.scan(np.int64(0), lambda s, x: (s + x, s))))] == [0, 0, 1, 3, 6]
    assert [int(v) for v in _drain(r(10).apply(ex.take_while(lambda x: x < 3)))] == [0, 1, 2]
    assert [(int(i), int(v)) for i, v in _drain(r(3, 5).apply(ex.enumerate_dataset()))] == [(0, 3), (1, 4)]
    chosen = ex.choose_from_datasets([r(2), r(10, 12)], r(2).repeat(2))
    assert [int(v) for v in _drain(chosen)] == [0, 10, 1, 11]
    assert [int(v) for v in _drain(tf.data.Dataset.from_tensor_slices([1, 2, 1, 3]).apply(ex.unique()))] == [1, 2, 3]
    assert [int(v) for v in _drain(r(10).shard(3, 1))] == [1, 4, 7]
    assert len(_drain(r(5).apply(ex.shuffle_and_repeat(5, 2, seed=1)))) == 10
    with pytest.raises(tf.errors.InvalidArgumentError):
        r(3).shard(2, 2)


def test_string_array_ops_run_on_the_host_with_tfs_static_shapes() -> None:
    line = tf.placeholder(tf.string, [])
    words = tf.string_split([line]).values
    assert words.shape.as_list() == [None]
    head = words[:2]
    assert head.shape.as_list() == [None]  # as TF: the dim may be shorter than 2
    marked = tf.concat([["<s>"], words], 0)
    row = tf.expand_dims(line, 0)
    assert row.shape.as_list() == [1]
    with tf.Session() as sess:
        out = sess.run([head, marked, row], {line: "a b c"})
    assert [x.tolist() for x in out] == [[b"a", b"b"], [b"<s>", b"a", b"b", b"c"], [b"a b c"]]


def test_export_saved_model_writes_a_loadable_saved_model(tmp_path: os.PathLike[str]) -> None:
    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.5))
        y = tf.matmul(features["x"], w)
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(mode, predictions=y)
        loss = tf.reduce_mean(tf.square(y - labels))
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train)

    est = tf.estimator.Estimator(model_fn, model_dir=os.path.join(tmp_path, "m"))
    receiver_fn = tf.estimator.export.build_raw_serving_input_receiver_fn(
        {"x": tf.placeholder(tf.float32, [None, 2])})
    with pytest.raises(ValueError, match="Couldn't find trained model"):
        est.export_saved_model(os.path.join(tmp_path, "e"), receiver_fn)
    x = np.ones((4, 2), np.float32)
    est.train(lambda: tf.data.Dataset.from_tensor_slices(({"x": x}, np.ones((4, 1), np.float32))).batch(2), steps=1)
    path = est.export_saved_model(os.path.join(tmp_path, "e"), receiver_fn)
    assert isinstance(path, bytes)
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], path)
        sig = meta.signature_def["serving_default"]
        assert sorted(sig.inputs) == ["x"] and sorted(sig.outputs) == ["output"]  # TF's single-output key
        out = sess.run(sig.outputs["output"].name, {sig.inputs["x"].name: x[:1]})
    np.testing.assert_allclose(out, [[1.0]], rtol=1e-6)  # the loss was 0: w stayed 0.5


def test_serving_input_receiver_names_single_tensors() -> None:
    x = tf.placeholder(tf.float32, [None, 3])
    r = tf.estimator.export.ServingInputReceiver(x, x)
    assert list(r.features) == ["feature"] and list(r.receiver_tensors) == ["input"]
    with pytest.raises(ValueError):
        tf.estimator.export.ServingInputReceiver(None, x)
    with pytest.raises(ValueError, match="default"):
        export_outputs_for_predict({"a": tf.estimator.export.PredictOutput(x),
                                    "b": tf.estimator.export.PredictOutput(x)}, None)


def test_py_function_in_map_gets_values_with_numpy() -> None:
    ds = tf.data.Dataset.range(3).map(lambda x: tf.py_function(lambda v: v.numpy() * 3, [x], tf.int64))
    assert [int(v) for v in _drain(ds)] == [0, 3, 6]  # TF 2.21
    words = tf.py_function(lambda s: s.numpy().upper(), [tf.constant("ab")], tf.string)
    with tf.Session() as sess:
        assert sess.run(words) == b"AB"
