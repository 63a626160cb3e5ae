# flat_map / interleave / window / unbatch / shard / enumerate, as in the tf.data guide.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}


def drain(sess, ds):
    t = tf.data.make_one_shot_iterator(ds).get_next()
    out = []
    try:
        while True:
            out.append(sess.run(t))
    except tf.errors.OutOfRangeError:
        return out


series = np.arange(10, dtype=np.float32) * 0.5
windows = tf.data.Dataset.from_tensor_slices(series).window(4, shift=2, drop_remainder=True)
windows = windows.flat_map(lambda w: w.batch(4))
pairs = windows.map(lambda w: (w[:-1], w[-1]))
pairs_batched = pairs.batch(2)
RESULTS["pair_shapes"] = [s.as_list() for s in pairs_batched.output_shapes]

repeated = tf.data.Dataset.range(1, 4).flat_map(lambda x: tf.data.Dataset.from_tensors(x).repeat(x))
slices = tf.data.Dataset.from_tensor_slices([[1, 2, 3], [4, 5, 6]]).flat_map(tf.data.Dataset.from_tensor_slices)
inter = tf.data.Dataset.range(3).interleave(
    lambda x: tf.data.Dataset.range(10 * x, 10 * x + 4), cycle_length=2, block_length=3)
unbatched = tf.data.Dataset.from_tensor_slices({"a": np.arange(6).reshape(3, 2), "b": np.ones((3, 2))}).unbatch()
exp_unbatched = tf.data.Dataset.range(5).batch(2).apply(tf.data.experimental.unbatch())
sharded = tf.data.Dataset.range(10).shard(num_shards=3, index=2)
enumerated = tf.data.Dataset.from_tensor_slices(["x", "y", "z"]).enumerate(start=5)
zipped_windows = tf.data.Dataset.zip((tf.data.Dataset.range(5), tf.data.Dataset.range(5).map(lambda v: v * v)))
zipped_windows = zipped_windows.window(2).flat_map(lambda a, b: tf.data.Dataset.zip((a.batch(2), b.batch(2))))

RESULTS["unbatched_shapes"] = {k: v.as_list() for k, v in unbatched.output_shapes.items()}
RESULTS["enumerated_types"] = [t.name for t in tf.data.get_output_types(enumerated)]
RESULTS["inter_types"] = inter.output_types.name

with tf.Session() as sess:
    RESULTS["pairs"] = drain(sess, pairs_batched)
    RESULTS["repeated"] = drain(sess, repeated)
    RESULTS["slices"] = drain(sess, slices)
    RESULTS["inter"] = drain(sess, inter)
    RESULTS["unbatched"] = drain(sess, unbatched)
    RESULTS["exp_unbatched"] = drain(sess, exp_unbatched)
    RESULTS["sharded"] = drain(sess, sharded)
    RESULTS["enumerated"] = drain(sess, enumerated)
    RESULTS["zipped_windows"] = drain(sess, zipped_windows)
