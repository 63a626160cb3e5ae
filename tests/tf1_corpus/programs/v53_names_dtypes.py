"""Names of unnamed constants after reductions, one_hot dtypes, Python/NumPy values in ops."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

a = tf.constant(2)
b = tf.constant(3)
x = tf.add(a, b)
data = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
total = tf.reduce_sum(data)
mean = tf.reduce_mean(data)
row_means = tf.reduce_mean(data, axis=1)
c = tf.constant(10.0)
s = tf.placeholder(tf.float32, [])
u = tf.placeholder(tf.float32)
scalar_sum = tf.reduce_sum(s)
any_sum = tf.reduce_max(u)
r = tf.range(3)
d = tf.constant([1, 2])
labels = tf.placeholder(tf.int32, [None], name="labels")
oh = tf.one_hot(labels, 4)
oh_int = tf.one_hot(labels, 4, on_value=1, off_value=0)
oh_neg = tf.one_hot(labels, 3, on_value=1.0, off_value=-1.0, axis=0)
oh_named = tf.one_hot(labels, 4, dtype=tf.int64, name="targets")
py_mix = tf.constant(1.5) * 2
np_mix = tf.constant([1.0, 2.0]) + np.array([0.5, 0.5])
int_div = tf.constant(7) / tf.constant(2)
i64_div = tf.constant(7, tf.int64) // 2

tensors = [a, b, x, data, total, mean, row_means, c, scalar_sum, any_sum, r, d, oh, oh_int, oh_neg, oh_named,
           py_mix, np_mix, int_div, i64_div]
RESULTS["names"] = [t.name for t in tensors]
RESULTS["dtypes"] = [t.dtype.name for t in tensors]
RESULTS["shapes"] = [t.shape.as_list() if t.shape.ndims is not None else None for t in tensors]
RESULTS["printed"] = [str(t) for t in (a, x, total, c, oh_int)]

errors = {}
for key, make in {
    "one_hot_dtype": lambda: tf.one_hot(labels, 3, on_value=1, dtype=tf.float32),
    "one_hot_on_off": lambda: tf.one_hot(labels, 3, on_value=1, off_value=0.0),
    "int_plus_float": lambda: tf.constant(1) + 2.5,
}.items():
    try:
        make()
        errors[key] = None
    except Exception as e:  # noqa: BLE001
        errors[key] = type(e).__name__
RESULTS["errors"] = errors

with tf.Session() as sess:
    RESULTS["values"] = sess.run([x, total, mean, row_means, scalar_sum, r, py_mix, np_mix, int_div, i64_div],
                                 {s: 4.0})
    RESULTS["one_hot"] = sess.run([oh, oh_int, oh_neg, oh_named], {labels: [0, 2, 5]})
