"""tf.data input pipelines (values are checked against TF in the corpus, v13l_data_*)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import jaxsess as tf


def _drain(sess: tf.Session, t: object) -> list[object]:
    out = []
    try:
        while True:
            out.append(np.array(sess.run(t)))
    except tf.errors.OutOfRangeError:
        return out


def test_training_loop_compiles_once_and_end_keeps_variables() -> None:
    ds = tf.data.Dataset.from_tensor_slices(np.arange(12, dtype=np.float32).reshape(6, 2)).batch(2)
    x = tf.data.make_one_shot_iterator(ds).get_next()
    v = tf.Variable(0.0)
    step = v.assign_add(tf.reduce_sum(x))
    with tf.Session() as sess:
        sess.run(v.initializer)
        for _ in range(3):
            sess.run(step)
        plans = len(sess._plans)
        with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
            sess.run(step)
        assert len(sess._plans) == plans
        assert float(np.asarray(sess.run(v))) == float(np.arange(12).sum())


def test_each_session_starts_the_iterator_afresh() -> None:
    n = tf.data.Dataset.range(3).make_one_shot_iterator().get_next()
    with tf.Session() as s1:
        assert int(np.asarray(s1.run(n))) == 0
        assert int(np.asarray(s1.run(n))) == 1
    with tf.Session() as s2:
        assert int(np.asarray(s2.run(n))) == 0


def test_shuffle_is_seeded_and_reshuffles_each_epoch() -> None:
    def epochs() -> list[list[int]]:
        tf.reset_default_graph()
        ds = tf.data.Dataset.range(20).shuffle(20, seed=7).batch(20).repeat(3)
        nxt = ds.make_one_shot_iterator().get_next()
        with tf.Session() as sess:
            return [e.tolist() for e in _drain(sess, nxt)]  # type: ignore[attr-defined]

    a, b = epochs(), epochs()
    assert a == b
    assert all(sorted(e) == list(range(20)) for e in a)
    assert a[0] != a[1] and a[0] != list(range(20))


def test_one_shot_iterator_cannot_capture_a_placeholder() -> None:
    p = tf.placeholder(tf.float32, [None])
    with pytest.raises(ValueError, match="initializable"):
        tf.data.Dataset.from_tensor_slices(p).make_one_shot_iterator()


def test_map_with_random_op_and_variable_error() -> None:
    ds = tf.data.Dataset.from_tensors(np.zeros(3, np.float32)).repeat(2)
    noisy = ds.map(lambda x: x + tf.random_uniform([3], seed=1))
    nxt = noisy.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        a, b = _drain(sess, nxt)
    assert not np.array_equal(a, b)
    # A variable read in a map function is captured: its value when the iterator
    # starts (a one-shot iterator cannot capture it, as TF).
    v = tf.Variable(2.0)
    scaled = tf.data.Dataset.from_tensors(np.ones(3, np.float32)).map(lambda x: x * v)
    with pytest.raises(ValueError):
        scaled.make_one_shot_iterator()
    it = scaled.make_initializable_iterator()
    with tf.Session() as sess:
        sess.run(v.initializer)
        sess.run(it.initializer)
        np.testing.assert_array_equal(sess.run(it.get_next()), [2.0, 2.0, 2.0])


def test_get_next_in_make_callable_names_the_host_op() -> None:
    nxt = tf.data.Dataset.range(3).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        f = sess.make_callable(nxt + 1)
        with pytest.raises(tf.errors.InvalidArgumentError, match="IteratorGetNext"):
            f()


def test_structures_and_errors() -> None:
    ds = tf.data.Dataset.from_tensor_slices({"b": np.zeros((4, 2), np.float32), "a": np.arange(4)})
    assert set(ds.output_types) == {"a", "b"}
    assert ds.batch(3, drop_remainder=True).output_shapes["b"].as_list() == [3, 2]
    with pytest.raises(ValueError, match="not compatible"):  # TF: "Dimensions 3 and 4 are not compatible"
        tf.data.Dataset.from_tensor_slices((np.zeros(3), np.zeros(4)))
    with pytest.raises(ValueError, match="batch_size"):
        ds.batch(0)
    it = tf.data.Iterator.from_structure(tf.float32, tf.TensorShape([2]))
    with pytest.raises(TypeError, match="output types"):
        it.make_initializer(tf.data.Dataset.range(2))



def test_threads_share_an_iterator_without_losing_elements() -> None:
    nxt = tf.data.Dataset.range(200).make_one_shot_iterator().get_next()
    got: list[int] = []
    lock = threading.Lock()
    with tf.Session() as sess:
        coord = tf.train.Coordinator()

        def pull() -> None:
            with coord.stop_on_exception():
                while not coord.should_stop():
                    v = int(np.asarray(sess.run(nxt)))
                    with lock:
                        got.append(v)

        threads = [threading.Thread(target=pull) for _ in range(3)]
        for t in threads:
            t.start()
        coord.join(threads)
    assert sorted(got) == list(range(200))
