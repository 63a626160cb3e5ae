"""Queue input producers shuffle with TF's permutations when seeded: string_input_producer (strings shuffled on
the host), range_input_producer and slice_input_producer, with and without num_epochs."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

tf.set_random_seed(8)
names = tf.train.string_input_producer(["a.csv", "b.csv", "c.csv", "d.csv", "e.csv"], num_epochs=3)
name = names.dequeue()
forever = tf.train.string_input_producer(["x", "y", "z"], seed=4)
one = forever.dequeue()
index = tf.train.range_input_producer(6, num_epochs=2).dequeue()
features = np.arange(14, dtype=np.float32).reshape(7, 2)
labels = np.arange(7, dtype=np.int32)
feature, label = tf.train.slice_input_producer([features, labels], seed=9)

with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord)
    RESULTS["names"] = [sess.run(name) for _ in range(15)]
    RESULTS["forever"] = [sess.run(one) for _ in range(9)]
    RESULTS["index"] = [int(sess.run(index)) for _ in range(12)]
    pairs = [sess.run([feature, label]) for _ in range(14)]
    RESULTS["slices"] = [[f.tolist(), int(lab)] for f, lab in pairs]
    try:
        sess.run(name)
        RESULTS["after_epochs"] = "no error"
    except tf.errors.OutOfRangeError:
        RESULTS["after_epochs"] = "OutOfRangeError"
    coord.request_stop()
    coord.join(threads)

# a RandomShuffleQueue filled before it is read: TF's order from its seeds
queue = tf.RandomShuffleQueue(capacity=20, min_after_dequeue=2, dtypes=[tf.int32, tf.string], shapes=[[], []])
enqueue = queue.enqueue_many([tf.range(10), tf.constant([b"s%d" % i for i in range(10)])])
dequeue = queue.dequeue()
unshaped = tf.FIFOQueue(5, [tf.float32])
fill = unshaped.enqueue_many([[1.0, 2.0]])
many = unshaped.dequeue_many(2)
with tf.Session() as sess:
    sess.run(enqueue)
    drawn = [sess.run(dequeue) for _ in range(5)]
    sess.run(enqueue)
    drawn += [sess.run(dequeue) for _ in range(8)]
    RESULTS["shuffle_queue"] = [[int(a), b] for a, b in drawn]
    sess.run(fill)
    try:
        sess.run(many)
    except tf.errors.InvalidArgumentError as e:
        RESULTS["dequeue_many_unshaped"] = e.message.splitlines()[-2:]
