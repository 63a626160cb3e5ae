"""tf.data input pipelines (values are checked against TF in the corpus, v13l_data_*)."""

from __future__ import annotations

import os
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


def _csv(tmp_path, text: str, name: str = "a.csv") -> str:
    path = os.path.join(tmp_path, name)
    with open(path, "w") as f:
        f.write(text)
    return path



def test_get_single_element_errors_name_the_case():
    g = tf.Graph()
    with g.as_default():
        empty = tf.data.experimental.get_single_element(tf.data.Dataset.range(0))
        many = tf.data.experimental.get_single_element(tf.data.Dataset.range(2))
        one = tf.data.experimental.get_single_element(tf.data.Dataset.from_tensors((1, [2.0])))
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="Dataset was empty"):
                sess.run(empty)
            with pytest.raises(tf.errors.InvalidArgumentError, match="more than one element"):
                sess.run(many)
            a, b = sess.run(one)
    assert a == 1 and b.dtype == np.float32 and b.tolist() == [2.0]



def test_reduce_checks_the_state_and_reads_no_element_of_an_empty_dataset():
    g = tf.Graph()
    with g.as_default():
        with pytest.raises(TypeError):
            tf.data.Dataset.range(3).reduce(np.int64(0), lambda s, x: tf.cast(s, tf.float32))
        out = tf.data.Dataset.range(0).reduce((np.int64(4), np.float32(2)), lambda s, x: (s[0] + x, s[1]))
        with tf.Session() as sess:
            assert sess.run(out) == (4, 2.0)



def test_cardinality_reads_fed_counts_when_run():
    g = tf.Graph()
    with g.as_default():
        n = tf.placeholder(tf.int64, [])
        card = tf.data.Dataset.range(n).take(5).cardinality()
        with tf.Session() as sess:
            assert [sess.run(card, {n: k}) for k in (3, 9)] == [3, 5]



def test_options_keep_what_is_set_and_refuse_unknown_names():
    o = tf.data.Options()
    o.experimental_deterministic = False
    o.experimental_optimization.map_fusion = True
    with pytest.raises(AttributeError, match="no_such_option"):
        o.no_such_option = 1  # type: ignore[attr-defined]
    ds = tf.data.Dataset.range(3).with_options(o)
    assert ds.options().experimental_deterministic is False
    assert ds.options().experimental_optimization.map_fusion is True
    with pytest.raises(TypeError, match="Options"):
        tf.data.Dataset.range(3).with_options({"experimental_deterministic": False})



def test_with_options_returns_a_new_dataset_whose_options_flow_downstream():
    # As TF 2.21 (checked with tensorflow-cpu): the input keeps its options,
    # transformations and zip inherit them, a later with_options wins.
    base = tf.data.Dataset.range(5)
    o = tf.data.Options()
    o.experimental_deterministic = False
    ds = base.with_options(o)
    assert ds is not base and base.options().experimental_deterministic is None
    mapped = ds.map(lambda x: x * 2).batch(2)
    assert mapped.options().experimental_deterministic is False
    assert tf.data.Dataset.zip((ds, tf.data.Dataset.range(3))).options().experimental_deterministic is False
    o2 = tf.data.Options()
    o2.experimental_deterministic = True
    assert mapped.with_options(o2).options().experimental_deterministic is True
    nxt = tf.data.make_one_shot_iterator(mapped).get_next()
    with tf.Session() as sess:
        assert sess.run(nxt).tolist() == [0, 2]



def test_make_csv_dataset_errors(tmp_path):
    path = _csv(tmp_path, "a,b\n1,2\n3\n")
    with pytest.raises(ValueError, match="No files match"):
        tf.data.experimental.make_csv_dataset(os.path.join(tmp_path, "none*.csv"), 2)
    with pytest.raises(ValueError, match="row 3 has 1 number of fields"):
        tf.data.experimental.make_csv_dataset(path, 2)
    with pytest.raises(ValueError, match="label_name"):
        tf.data.experimental.make_csv_dataset(path, 2, label_name="c", column_defaults=[0, 0])
    with pytest.raises(ValueError, match="same length"):
        tf.data.experimental.make_csv_dataset(path, 2, select_columns=["a"], column_defaults=[0, 0])
    with pytest.raises(ValueError, match="Neither is provided"):
        tf.data.experimental.make_csv_dataset(path, 2, header=False)
    dup = _csv(tmp_path, "a,a\n1,2\n", "dup.csv")
    with pytest.raises(ValueError, match="duplicate"):
        tf.data.experimental.make_csv_dataset(dup, 2)



def test_make_csv_dataset_infers_int64_float64_and_string_columns(tmp_path):
    path = _csv(tmp_path, "big,wide,text,blank\n3000000000,1e300,x,\n1,2,7,\n")
    g = tf.Graph()
    with g.as_default():
        ds = tf.data.experimental.make_csv_dataset(path, 2, shuffle=False, num_epochs=1)
        types = {k: v.name for k, v in ds.output_types.items()}
    assert types == {"big": "int64", "wide": "float64", "text": "string", "blank": "string"}



def test_tfrecord_writer_writes_a_dataset_and_refuses_other_elements(tmp_path):
    path = os.path.join(tmp_path, "r.tfrecord")
    g = tf.Graph()
    with g.as_default():
        with pytest.raises(TypeError, match="scalar string"):
            tf.data.experimental.TFRecordWriter(path).write(tf.data.Dataset.range(3))
        write = tf.data.experimental.TFRecordWriter(path, "GZIP").write(
            tf.data.Dataset.from_tensor_slices([b"a", b"bc"]))
        with tf.Session() as sess:
            sess.run(write)
    assert list(tf.python_io.tf_record_iterator(path, tf.python_io.TFRecordOptions("GZIP"))) == [b"a", b"bc"]



def test_one_shot_iterator_over_a_csv_dataset_of_dtypes(tmp_path):
    path = _csv(tmp_path, "1.5,x\n2.5,y\n")
    g = tf.Graph()
    with g.as_default():
        ds = tf.data.experimental.CsvDataset(path, [tf.float32, tf.string])
        a, b = tf.data.make_one_shot_iterator(ds.batch(2)).get_next()
        with tf.Session() as sess:
            va, vb = sess.run([a, b])
    assert va.tolist() == [1.5, 2.5] and vb.tolist() == [b"x", b"y"]
