"""Queues, queue runners, input producers, batching and file readers: what the
``v37_*`` corpus programs cannot show (real threads, blocking and cancellation,
state after a failed run, errors reported to the coordinator)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import jaxsess as tf
from jaxsess import errors
from jaxsess._core.runtime._host_run import _RESOURCES
from jaxsess._tf1.ops.data_flow_ops import QueueBase

DEADLINE = 20.0  # seconds a test waits for a thread before failing


@pytest.fixture
def graph():
    g = tf.Graph()
    with g.as_default():
        yield g


def _wait_until_blocked(sess, queue: QueueBase, n: int = 1) -> None:
    """Waits (bounded) until ``n`` ops wait on ``queue`` in ``sess``."""
    ev = threading.Event()
    for _ in range(int(DEADLINE / 0.01)):
        st = _RESOURCES.get(sess, {}).get(queue)
        if st is not None and st.waiting >= n:
            return
        ev.wait(0.01)
    raise AssertionError(f"no op blocked on {queue.name}")


def _run_in_thread(sess, fetch):
    out: dict[str, object] = {}
    done = threading.Event()

    def target():
        try:
            out["value"] = sess.run(fetch)
        except Exception as e:  # noqa: BLE001 - inspected by the test
            out["error"] = e
        done.set()

    t = threading.Thread(target=target, daemon=True)
    t.start()
    return out, done, t


def test_fifo_queue_ops_shapes_and_messages(graph):
    q = tf.FIFOQueue(3, [tf.int32, tf.float32], shapes=[[], [2]])
    assert q.name == "fifo_queue" and q.dtypes == [tf.int32, tf.float32] and q.names is None
    enq = q.enqueue([1, [1.0, 2.0]])
    enq_many = q.enqueue_many([[2, 3], [[3.0, 4.0], [5.0, 6.0]]])
    one, many, up_to = q.dequeue(), q.dequeue_many(2), q.dequeue_up_to(5)
    assert enq.name == "fifo_queue_enqueue" and one[0].name == "fifo_queue_Dequeue:0"
    assert many[1].shape.as_list() == [2, 2] and up_to[1].shape.as_list() == [None, 2]
    with tf.Session() as sess:
        sess.run([enq])
        sess.run(enq_many)
        size = sess.run(q.size())
        assert size == 3 and type(size) is np.int32
        assert sess.run(q.is_closed()) == np.False_
        v = sess.run(one)
        assert v[0] == 1 and type(v[0]) is np.int32 and v[1].dtype == np.float32
        sess.run(q.close())
        with pytest.raises(errors.CancelledError, match="FIFOQueue '_0_fifo_queue' is closed."):
            sess.run(enq)
        got = sess.run(up_to)
        np.testing.assert_array_equal(got[0], [2, 3])
        with pytest.raises(errors.OutOfRangeError) as info:
            sess.run(one)
        assert "FIFOQueue '_0_fifo_queue' is closed and has insufficient elements (requested 1, current size 0)" \
            in str(info.value)


def test_failed_dequeue_many_leaves_the_elements(graph):
    q = tf.FIFOQueue(10, tf.int32, shapes=[[]])
    x = tf.placeholder(tf.int32, [None])
    enq = q.enqueue_many([x])
    with tf.Session() as sess:
        sess.run(enq, {x: [1, 2, 3]})
        with pytest.raises(errors.InvalidArgumentError, match="must feed a value"):
            sess.run(enq)  # the enqueue's input failed: nothing enqueued
        sess.run(q.close())
        with pytest.raises(errors.OutOfRangeError, match=r"requested 5, current size 3"):
            sess.run(q.dequeue_many(5))
        assert sess.run(q.size()) == 3
        np.testing.assert_array_equal(sess.run(q.dequeue_up_to(5)), [1, 2, 3])


def test_enqueue_shape_and_dtype_checks(graph):
    q = tf.FIFOQueue(2, [tf.float32], shapes=[[2]])
    with pytest.raises(ValueError, match="incompatible"):
        q.enqueue([[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match="Expected 1 components"):
        q.enqueue([1.0, 2.0])
    p = tf.placeholder(tf.float32)
    enq = q.enqueue([p])
    with tf.Session() as sess, pytest.raises(errors.InvalidArgumentError, match=r"Expected \[2\], got \[3\]"):
        sess.run(enq, {p: [1.0, 2.0, 3.0]})


def test_dequeue_blocks_until_an_enqueue_from_another_thread(graph):
    q = tf.FIFOQueue(1, tf.int32, shapes=[[]])
    x = tf.placeholder(tf.int32, [])
    enq = q.enqueue(x)
    deq = q.dequeue() * 10  # the dequeued value feeds a device op
    with tf.Session() as sess:
        out, done, t = _run_in_thread(sess, deq)
        _wait_until_blocked(sess, q)
        assert not done.is_set()
        sess.run(enq, {x: 4})
        assert done.wait(DEADLINE)
        assert out == {"value": 40}
        # a full queue blocks the enqueue until a dequeue makes room
        sess.run(enq, {x: 1})
        out, done, t = _run_in_thread(sess, q.enqueue(2))
        _wait_until_blocked(sess, q)
        assert sess.run(q.dequeue()) == 1
        assert done.wait(DEADLINE) and "error" not in out
        assert sess.run(q.dequeue()) == 2


def test_close_wakes_a_blocked_dequeue_and_session_close_cancels(graph):
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    with tf.Session() as sess:
        out, done, _ = _run_in_thread(sess, q.dequeue())
        _wait_until_blocked(sess, q)
        sess.run(q.close())
        assert done.wait(DEADLINE)
        assert isinstance(out["error"], errors.OutOfRangeError)
    q2 = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    sess = tf.Session()
    out, done, _ = _run_in_thread(sess, q2.dequeue())
    _wait_until_blocked(sess, q2)
    sess.close()
    assert done.wait(DEADLINE)
    assert isinstance(out["error"], errors.CancelledError)
    assert "Dequeue operation was cancelled" in str(out["error"])


def test_cancel_pending_enqueues(graph):
    q = tf.FIFOQueue(1, tf.int32, shapes=[[]])
    with tf.Session() as sess:
        sess.run(q.enqueue(1))
        out, done, _ = _run_in_thread(sess, q.enqueue(2))
        _wait_until_blocked(sess, q)
        sess.run(q.close(cancel_pending_enqueues=True))
        assert done.wait(DEADLINE)
        assert isinstance(out["error"], errors.CancelledError)
        assert sess.run(q.dequeue()) == 1


def test_queues_are_per_session(graph):
    q = tf.FIFOQueue(4, tf.int32, shapes=[[]])
    enq = q.enqueue(7)
    with tf.Session() as a, tf.Session() as b:
        a.run(enq)
        assert a.run(q.size()) == 1 and b.run(q.size()) == 0


def test_random_shuffle_queue_min_after_dequeue_and_seed(graph):
    tf.set_random_seed(3)
    q = tf.RandomShuffleQueue(10, 2, tf.int32, shapes=[[]], seed=5)
    enq = q.enqueue_many([np.arange(6, dtype=np.int32)])
    orders = []
    for _ in range(2):
        with tf.Session() as sess:
            sess.run(enq)
            first = sess.run(q.dequeue_many(4))  # 6 - 4 >= min_after_dequeue: no wait
            out, done, _ = _run_in_thread(sess, q.dequeue())  # 2 - 1 < 2: waits
            _wait_until_blocked(sess, q)
            sess.run(q.close())  # closing lifts min_after_dequeue
            assert done.wait(DEADLINE)
            rest = sess.run(q.dequeue_up_to(5))
            orders.append([*first, out["value"], *rest])
    assert sorted(orders[0]) == list(range(6))
    assert orders[0] == orders[1]  # same seeds, same order


def test_padding_fifo_queue_and_names(graph):
    q = tf.PaddingFIFOQueue(5, [tf.int32, tf.string], shapes=[[None], []], names=["ids", "word"])
    x = tf.placeholder(tf.int32, [None])
    enq = q.enqueue({"ids": x, "word": "w"})
    batch = q.dequeue_many(2)
    assert sorted(batch) == ["ids", "word"] and batch["ids"].shape.as_list() == [2, None]
    with pytest.raises(ValueError, match="do not match names"):
        q.enqueue({"ids": x})
    with tf.Session() as sess:
        sess.run(enq, {x: [1, 2]})
        sess.run(enq, {x: [3, 4, 5]})
        got = sess.run(batch)
    np.testing.assert_array_equal(got["ids"], [[1, 2, 0], [3, 4, 5]])
    np.testing.assert_array_equal(got["word"], np.array([b"w", b"w"], dtype=object))


def test_slice_input_producer_batch_threads_and_num_epochs(graph):
    x = np.arange(10).reshape(5, 2)
    y = np.arange(5)
    row = tf.train.slice_input_producer([x, y], num_epochs=2, shuffle=False)
    xb, yb = tf.train.batch(row, batch_size=3, allow_smaller_final_batch=True)
    assert xb.shape.as_list() == [None, 2] and xb.name == "batch:0"
    runners = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)
    assert [r.name for r in runners] == ["input_producer/input_producer", "batch/fifo_queue"]
    assert [v.name for v in tf.local_variables()] == ["input_producer/input_producer/limit_epochs/epochs:0"]
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        assert len(threads) == 4  # an enqueue thread and a close_on_stop thread per runner
        ys = []
        with pytest.raises(errors.OutOfRangeError):
            while True:
                xv, yv = sess.run([xb, yb])
                np.testing.assert_array_equal(xv, x[yv])
                ys.append(yv.tolist())
        coord.request_stop()
        coord.join(threads)
    assert ys == [[0, 1, 2], [3, 4, 0], [1, 2, 3], [4]]


def test_num_epochs_needs_local_variables_initializer(graph):
    q = tf.train.string_input_producer(["a", "b"], num_epochs=1, shuffle=False)
    runner = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)[0]
    with tf.Session() as sess:
        with pytest.raises(errors.FailedPreconditionError, match="epochs"):
            sess.run(runner.enqueue_ops[0])
        sess.run(tf.local_variables_initializer())
        sess.run(runner.enqueue_ops[0])
        with pytest.raises(errors.OutOfRangeError, match="Reached limit of 1"):
            sess.run(runner.enqueue_ops[0])
        assert sess.run(q.size()) == 2


def test_shuffle_batch_join_gives_every_element(graph):
    data = np.arange(12, dtype=np.float32)
    rows = [tf.train.slice_input_producer([data], num_epochs=1, shuffle=True, seed=i) for i in range(2)]
    b = tf.train.shuffle_batch_join(rows, batch_size=4, capacity=20, min_after_dequeue=3, seed=1,
                                    allow_smaller_final_batch=True)
    assert b.shape.as_list() == [None]  # one component: a tensor, as TF
    got = []
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        try:
            while not coord.should_stop():
                got.extend(sess.run(b).tolist())
        except errors.OutOfRangeError:
            pass
        finally:
            coord.request_stop()
        coord.join(threads)
    assert sorted(got) == sorted(data.tolist() * 2)


def test_queue_runner_reports_errors_to_the_coordinator(graph):
    q = tf.FIFOQueue(4, tf.float32, shapes=[[]])
    bad = tf.debugging.check_numerics(tf.constant(np.nan, tf.float32), "bad input")
    tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue(bad)]))
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        with pytest.raises(errors.InvalidArgumentError, match="bad input"):
            coord.join(threads, stop_grace_period_secs=DEADLINE)


def test_start_queue_runners_needs_a_session(graph):
    tf.train.string_input_producer(["a"])
    with pytest.raises(ValueError, match="No default session"):
        tf.train.start_queue_runners()


def test_threads_end_when_the_session_closes(graph):
    q = tf.train.string_input_producer(["a", "b"], shuffle=False, capacity=2)  # forever: enqueue blocks
    sess = tf.Session()
    threads = tf.train.start_queue_runners(sess)
    assert sess.run(q.dequeue()) == b"a"
    sess.close()
    for t in threads:
        t.join(DEADLINE)
        assert not t.is_alive()


def test_cifar_style_fixed_length_record_pipeline(tmp_path, graph):
    # CIFAR-10 binary layout: 1 label byte, then the image as depth x height x width bytes.
    rng = np.random.default_rng(0)
    labels = np.arange(6, dtype=np.uint8) % 3
    images = rng.integers(0, 256, (6, 3, 2, 2), dtype=np.uint8)
    files = []
    for k in range(2):
        path = tmp_path / f"data_batch_{k}.bin"
        path.write_bytes(b"".join(bytes([labels[i]]) + images[i].tobytes() for i in range(3 * k, 3 * k + 3)))
        files.append(str(path))
    queue = tf.train.string_input_producer(files, num_epochs=1, shuffle=False)
    reader = tf.FixedLengthRecordReader(record_bytes=1 + 3 * 2 * 2)
    key, value = reader.read(queue)
    raw = tf.decode_raw(value, tf.uint8)
    label = tf.cast(tf.strided_slice(raw, [0], [1]), tf.int32)
    label.set_shape([1])  # as cifar10_input.py: a slice of the unknown-length record has shape [None] (TF)
    image = tf.transpose(tf.reshape(tf.strided_slice(raw, [1], [13]), [3, 2, 2]), [1, 2, 0])
    image = tf.cast(image, tf.float32)
    images_b, labels_b, keys_b = tf.train.batch([image, label, key], batch_size=2, num_threads=2,
                                                allow_smaller_final_batch=True)
    seen = {}
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        try:
            while True:
                ib, lb, kb = sess.run([images_b, labels_b, keys_b])
                for im, lab, k in zip(ib, lb, kb):
                    seen[k] = (im, lab)
        except errors.OutOfRangeError:
            pass
        coord.request_stop()
        coord.join(threads)
        assert sess.run(reader.num_records_produced()) == 6
    assert sorted(seen) == sorted(f"{f}:{i}".encode() for f in files for i in range(3))
    for k, (im, lab) in seen.items():
        f, i = k.decode().rsplit(":", 1)
        n = files.index(f) * 3 + int(i)
        assert lab.tolist() == [labels[n]]
        np.testing.assert_array_equal(im, images[n].transpose(1, 2, 0).astype(np.float32))


def test_mnist_style_tfrecord_pipeline_trains(tmp_path, graph):
    path = str(tmp_path / "train.tfrecords")
    xs = np.linspace(-1, 1, 8).astype(np.float32)
    with tf.python_io.TFRecordWriter(path) as w:
        for v in xs:
            ex = tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=[v])),
                "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(v > 0)]))}))
            w.write(ex.SerializeToString())
    queue = tf.train.string_input_producer([path], num_epochs=5)
    _, serialized = tf.TFRecordReader().read(queue)
    feats = tf.parse_single_example(serialized, {"x": tf.FixedLenFeature([1], tf.float32),
                                                 "label": tf.FixedLenFeature([], tf.int64)})
    xb, yb = tf.train.shuffle_batch([feats["x"], feats["label"]], batch_size=4, capacity=16, min_after_dequeue=4)
    w = tf.Variable(np.zeros((1, 2), np.float32))
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=yb, logits=tf.matmul(xb, w)))
    step = tf.train.GradientDescentOptimizer(1.0).minimize(loss)
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        steps = 0
        try:
            while not coord.should_stop():
                sess.run(step)
                steps += 1
        except errors.OutOfRangeError:
            pass
        finally:
            coord.request_stop()
        coord.join(threads)
        assert steps == 10  # 5 epochs of 8 records, batches of 4
        weights = sess.run(w)
    assert weights[0, 1] > weights[0, 0]  # learnt: larger x, label 1


def test_text_line_reader_and_read_up_to(tmp_path, graph):
    a = tmp_path / "a.csv"
    a.write_text("x,y\n1,2\r\n3,4\n")
    queue = tf.train.string_input_producer([str(a)], num_epochs=1, shuffle=False)
    key, line = tf.TextLineReader(skip_header_lines=1).read(queue)
    cols = tf.decode_csv(line, record_defaults=[[0], [0]])
    q2 = tf.train.string_input_producer([str(a)], num_epochs=1, shuffle=False)
    keys, values = tf.WholeFileReader().read_up_to(q2, 3)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        threads = tf.train.start_queue_runners(sess)
        assert sess.run([key, cols]) == [f"{a}:2".encode(), [1, 2]]
        assert sess.run([key, cols]) == [f"{a}:3".encode(), [3, 4]]
        with pytest.raises(errors.OutOfRangeError):
            sess.run(key)
        k, v = sess.run([keys, values])
        assert k.tolist() == [str(a).encode()] and v.tolist() == [b"x,y\n1,2\r\n3,4\n"]
        for t in threads:
            t.join(DEADLINE)


def test_monitored_session_starts_queue_runners(graph):
    x_row = tf.train.slice_input_producer([np.arange(6, dtype=np.float32)], num_epochs=1, shuffle=False)
    xb = tf.train.batch(x_row, batch_size=2)
    total = tf.Variable(0.0, name="total")
    step = tf.assign_add(total, tf.reduce_sum(xb))
    seen = []
    with tf.train.MonitoredTrainingSession() as sess:  # runs the local init op, starts the runners
        while not sess.should_stop():
            seen.append(sess.run(step))
    assert seen == [1.0, 6.0, 15.0]


def test_random_shuffle_of_strings_runs_on_the_host(graph):
    words = tf.constant(["a", "b", "c", "d", "e"])
    shuffled = tf.random_shuffle(words, seed=4)
    assert shuffled.dtype == tf.string and shuffled.shape.as_list() == [5]
    runs = []
    for _ in range(2):
        with tf.Session() as sess:
            runs.append([sess.run(shuffled).tolist() for _ in range(3)])
    assert all(sorted(r) == [b"a", b"b", b"c", b"d", b"e"] for r in runs[0])
    assert runs[0] == runs[1]  # a seeded op repeats its sequence in a new session


def test_maybe_batch_keep_input_checks(graph):
    x = tf.constant([1, 2, 3])
    with pytest.raises(ValueError, match="keep_input must be a scalar"):
        tf.train.maybe_batch([tf.constant(1)], keep_input=tf.constant([True, False]), batch_size=1)
    b = tf.train.maybe_batch([x], keep_input=tf.constant([True, False]), batch_size=1, enqueue_many=True)
    runner = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)[0]
    with tf.Session() as sess, pytest.raises(errors.InvalidArgumentError, match=r"keep_input has shape \[2\], "
                                                                               r"expected \[3\]"):
        sess.run(runner.enqueue_ops[0])
    assert b.shape.as_list() == [1]


def test_queues_and_readers_need_a_graph():
    with tf.EagerSession():
        with pytest.raises(RuntimeError, match="graph-mode"):
            tf.FIFOQueue(2, tf.int32)
        with pytest.raises(RuntimeError, match="Readers are not supported when eager"):
            tf.TextLineReader()


def test_match_filenames_once_feeds_a_reader(tmp_path) -> None:
    for name in ("a.csv", "b.csv"):
        (tmp_path / name).write_text(f"{name}\n")
    g = tf.Graph()
    with g.as_default():
        files = tf.train.match_filenames_once(str(tmp_path / "*.csv"))
        assert files.name == "matching_filenames:0"
        queue = tf.train.string_input_producer(files, shuffle=False, num_epochs=1)
        _, line = tf.TextLineReader().read(queue)
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            lines = [sess.run(line), sess.run(line)]
            coord.request_stop()
            coord.join(threads)
    assert lines == [b"a.csv", b"b.csv"]
    with pytest.raises(ValueError, match="at most rank 1"):
        tf.io.matching_files([["a"]])
