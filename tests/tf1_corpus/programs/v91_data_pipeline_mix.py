"""A tf.data input pipeline as tutorials chain it: from_tensor_slices of a dict, map with
num_parallel_calls, filter, shuffle with a seed and reshuffle_each_iteration, repeat, batch with and without
drop_remainder, padded_batch of ragged sequences, zip/concatenate/skip/take, an initializable iterator
fed by placeholders, from_generator, and the OutOfRangeError that ends an epoch."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
features = {"x": np.arange(10, dtype=np.float32), "id": np.arange(10, dtype=np.int64)}
labels = np.arange(10, dtype=np.int32) % 3
ds = tf.data.Dataset.from_tensor_slices((features, labels))
ds = ds.map(lambda f, l: ({"x": f["x"] * 2.0, "id": f["id"]}, l), num_parallel_calls=2)
ds = ds.filter(lambda f, l: tf.not_equal(l, 1))
ds = ds.shuffle(4, seed=7, reshuffle_each_iteration=True).repeat(2).batch(3)
it = tf.data.make_one_shot_iterator(ds)
nxt = it.get_next()
RESULTS["output_types"] = str(tf.data.get_output_types(ds))
RESULTS["output_shapes"] = str(tf.data.get_output_shapes(ds))
batches = []
with tf.Session() as sess:
    try:
        while True:
            f, l = sess.run(nxt)
            batches.append([f["id"], l])
    except tf.errors.OutOfRangeError as e:
        RESULTS["end"] = type(e).__name__
RESULTS["batches"] = batches

seqs = tf.data.Dataset.from_generator(lambda: ([n] * n for n in range(1, 6)), tf.int64, tf.TensorShape([None]))
padded = seqs.padded_batch(2, padded_shapes=[None], padding_values=tf.constant(-1, tf.int64), drop_remainder=True)
combo = tf.data.Dataset.zip((tf.data.Dataset.range(5), tf.data.Dataset.range(10, 15))).skip(1).take(3)
combo = combo.concatenate(tf.data.Dataset.from_tensors((tf.constant(99, tf.int64), tf.constant(-99, tf.int64))))
lo = tf.placeholder(tf.int64, [])
hi = tf.placeholder(tf.int64, [])
ranged = tf.data.Dataset.range(lo, hi).map(lambda v: v * v).batch(2)
init_it = tf.data.make_initializable_iterator(ranged)
nxt_r = init_it.get_next()
pad_next = tf.data.make_one_shot_iterator(padded).get_next()
combo_next = tf.data.make_one_shot_iterator(combo).get_next()


def drain(sess, t):
    out = []
    try:
        while True:
            out.append(sess.run(t))
    except tf.errors.OutOfRangeError:
        return out


with tf.Session() as sess:
    RESULTS["padded"] = drain(sess, pad_next)
    RESULTS["combo"] = drain(sess, combo_next)
    sess.run(init_it.initializer, {lo: 2, hi: 7})
    RESULTS["ranged_a"] = drain(sess, nxt_r)
    sess.run(init_it.initializer, {lo: 0, hi: 3})
    RESULTS["ranged_b"] = drain(sess, nxt_r)
RESULTS["padded_shapes"] = str(tf.data.get_output_shapes(padded))
