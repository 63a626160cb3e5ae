"""Seeded random ops in cond branches and loop bodies: TF's seeds (a FuncGraph counts its own), draws only
in runs that take the branch, iterations drawing one after another, and variables' initial values seeded
in the outer graph."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-5, "atol": 2e-6}

tf.set_random_seed(7)
x = tf.placeholder(tf.float32, [None, 3], name="x")
training = tf.placeholder(tf.bool, [], name="training")
noise = tf.random_normal([2])

# a dropout layer switched by a placeholder, as tutorials write it
hidden = tf.layers.dense(x, 4, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(0.3))
dropped = tf.layers.dropout(hidden, rate=0.5, training=training)
branch = tf.cond(training, lambda: tf.nn.dropout(x * 2.0, rate=0.5) + tf.random_uniform([3]),
                 lambda: x)
w = tf.get_variable("w", [3, 2])  # glorot_uniform: its seed counts in the graph, not in a branch


def body(i, h):  # each iteration's mask depends on the previous iteration's result
    return i + 1, tf.nn.dropout(h * 1.5 + 1.0, rate=0.4)


_, looped = tf.while_loop(lambda i, h: i < 4, body, [tf.constant(0), x])
last = tf.random_uniform([3])

feed = np.ones([2, 3], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["w"] = sess.run(w)
    RESULTS["noise"] = sess.run(noise)
    for k, t in enumerate([True, False, True, True, False]):
        RESULTS[f"dropped_{k}"], RESULTS[f"branch_{k}"] = sess.run([dropped, branch], {x: feed, training: t})
    for k in range(2):
        RESULTS[f"looped_{k}"] = sess.run(looped, {x: feed})
    RESULTS["last"] = sess.run(last)
