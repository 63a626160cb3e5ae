"""Seeded random values that feed run-time checks (tf.Assert, assert_* ops) and py_func are drawn once per
run, as TF: the checked, the fetched and the py_func values agree, and the next run draws anew."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
tf.set_random_seed(1)
x = tf.random_uniform([3])
check = tf.Assert(tf.reduce_all(x < 2.0), [x])
with tf.control_dependencies([check]):
    y = tf.identity(x)
nonneg = tf.debugging.assert_non_negative(x)
with tf.control_dependencies([nonneg]):
    w = x * 2
z = tf.random_uniform([2])
h = tf.nn.dropout(tf.ones([2, 4]), keep_prob=0.5)
doubled = tf.py_func(lambda a: (a * 2).astype(np.float32), [h], tf.float32)
n = tf.random_normal([2])
printed = tf.Print(n, [n], "n=")
with tf.Session() as sess:
    RESULTS["first"] = sess.run([y, z])
    RESULTS["second"] = sess.run([y, z, w])
    RESULTS["third"] = sess.run([x, w])
    RESULTS["py_func"] = [sess.run([h, doubled]) for _ in range(2)]
    RESULTS["print"] = [sess.run([printed, n]) for _ in range(2)]
