"""tf.data shuffles with a graph or op seed give TF's order: each epoch under repeat, reshuffle_each_iteration,
re-initialised iterators, batches, list_files, shuffle_and_repeat, and a training loop fed from the pipeline."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}


def drain(sess, element, limit=100):
    out = []
    try:
        while len(out) < limit:
            value = sess.run(element)
            out.append(value if isinstance(value, bytes) else value.tolist())
    except tf.errors.OutOfRangeError:
        pass
    return out


tf.set_random_seed(11)
plain = tf.data.Dataset.range(12).shuffle(5).repeat(3)
op_seed = tf.data.Dataset.range(9).shuffle(4, seed=21, reshuffle_each_iteration=False).repeat(2)
batched = tf.data.Dataset.range(20).shuffle(8, seed=2).batch(3).shuffle(3).repeat(2)
sar = tf.data.Dataset.range(7).apply(tf.data.experimental.shuffle_and_repeat(3, count=2, seed=5))
after = tf.random_uniform([2])

root = tempfile.mkdtemp()
for i in range(6):
    open(os.path.join(root, "part-%d.csv" % i), "w").close()
files = tf.data.Dataset.list_files(os.path.join(root, "*.csv")).repeat(2)

it_plain = tf.data.make_initializable_iterator(plain)
next_plain = it_plain.get_next()
next_op_seed = tf.data.make_one_shot_iterator(op_seed).get_next()
next_batched = tf.data.make_one_shot_iterator(batched).get_next()
next_sar = tf.data.make_one_shot_iterator(sar).get_next()
next_file = tf.data.make_one_shot_iterator(files).get_next()

# a training loop on a shuffled, batched pipeline
xs = np.linspace(-1.0, 1.0, 16).astype(np.float32).reshape(-1, 1)
ys = (3.0 * xs + 0.5).astype(np.float32)
train = tf.data.Dataset.from_tensor_slices((xs, ys)).shuffle(16).batch(4).repeat()
bx, by = tf.data.make_one_shot_iterator(train).get_next()
w = tf.Variable([[0.1]])
b = tf.Variable([0.0])
loss = tf.reduce_mean(tf.square(tf.matmul(bx, w) + b - by))
step = tf.train.GradientDescentOptimizer(0.2).minimize(loss)

with tf.Session() as sess:
    sess.run(it_plain.initializer)
    RESULTS["plain"] = drain(sess, next_plain)
    sess.run(it_plain.initializer)
    RESULTS["plain_again"] = drain(sess, next_plain)
    RESULTS["op_seed"] = drain(sess, next_op_seed)
    RESULTS["batched"] = drain(sess, next_batched)
    RESULTS["shuffle_and_repeat"] = drain(sess, next_sar)
    RESULTS["files"] = [os.path.basename(f.decode()) for f in drain(sess, next_file)]
    RESULTS["after"] = sess.run(after)
    sess.run(tf.global_variables_initializer())
    RESULTS["losses"] = [float(sess.run([step, loss])[1]) for _ in range(8)]
