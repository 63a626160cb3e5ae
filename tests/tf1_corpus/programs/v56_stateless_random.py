import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

# Stateless random values differ between implementations (TF uses Philox): check determinism, shapes, dtypes, ranges.
RESULTS = {}

seed = tf.placeholder(tf.int32, [2], name="seed")
outs = {
    "uniform": tf.random.stateless_uniform([200], seed),
    "uniform_int": tf.random.stateless_uniform([50], seed=[1, 2], minval=3, maxval=7, dtype=tf.int32),
    "uniform_f64": tf.random.stateless_uniform([2, 3], seed=tf.constant([7, 8], tf.int64), dtype=tf.float64),
    "normal": tf.random.stateless_normal([500], seed, mean=2.0, stddev=0.5),
    "truncated": tf.random.stateless_truncated_normal([500], seed),
    "categorical": tf.random.stateless_categorical(tf.math.log([[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]), 20, seed),
    "multinomial": tf.random.stateless_multinomial([[0.0, 0.0]], 4, [5, 6], output_dtype=tf.int32),
}
with tf.Session() as sess:
    a = sess.run(outs, {seed: [1, 2]})
    b = sess.run(outs, {seed: [1, 2]})
    c = sess.run(outs, {seed: [9, 9]})
with tf.Session() as sess:
    d = sess.run(outs["uniform"], {seed: [1, 2]})
for k, t in outs.items():
    RESULTS[k + "/dtype"] = t.dtype.name
    RESULTS[k + "/shape"] = t.shape.as_list()
    RESULTS[k + "/name"] = t.name
    RESULTS[k + "/same_seed_same_values"] = bool(np.array_equal(a[k], b[k]))
RESULTS["other_seed_differs"] = not np.array_equal(a["uniform"], c["uniform"])
RESULTS["new_session_same"] = bool(np.array_equal(a["uniform"], d))
RESULTS["uniform_range"] = bool(a["uniform"].min() >= 0 and a["uniform"].max() < 1 and a["uniform"].std() > 0.2)
RESULTS["uniform_int_range"] = sorted(set(a["uniform_int"].tolist())) == [3, 4, 5, 6]
RESULTS["normal_moments"] = bool(abs(a["normal"].mean() - 2.0) < 0.1 and abs(a["normal"].std() - 0.5) < 0.1)
RESULTS["truncated_bound"] = bool(np.abs(a["truncated"]).max() <= 2.0)
RESULTS["categorical_support"] = [sorted(set(a["categorical"][0].tolist())) <= [0, 1],
                                  set(a["categorical"][1].tolist()) == {2}]
for name, fn in [("int_no_max", lambda: tf.random.stateless_uniform([2], [1, 2], dtype=tf.int32)),
                 ("bad_seed", lambda: tf.random.stateless_normal([2], [1, 2, 3]))]:
    try:
        fn()
        RESULTS[name] = "no error"
    except Exception as e:  # noqa: BLE001
        RESULTS[name] = type(e).__name__
