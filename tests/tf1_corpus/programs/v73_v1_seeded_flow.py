"""TF1 control flow after disable_v2_behavior(): random ops inside cond branches and while_loop bodies
take the graph's op seeds in order (TF1 builds them in the graph itself), so with a graph seed every
draw, and every seeded op after them, is TF's."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

RESULTS = {}
TOLERANCE = {"rtol": 2e-5, "atol": 2e-6}

tf.set_random_seed(11)
training = tf.placeholder_with_default(True, [], name="training")
x = tf.ones([2, 4])
dropped = tf.cond(training, lambda: tf.nn.dropout(x, rate=0.5), lambda: x)
i0 = tf.constant(0)
acc0 = tf.zeros([3])


def body(i, acc):
    return i + 1, acc + tf.random_normal([3])


_, acc = tf.while_loop(lambda i, acc: i < 3, body, [i0, acc0])
after = tf.random_uniform([2])
cell = tf.nn.rnn_cell.BasicRNNCell(2)
outputs, _ = tf.nn.dynamic_rnn(cell, tf.ones([1, 3, 2]), dtype=tf.float32)
last = tf.random_normal([2])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(2):
        RESULTS[f"step_{step}"] = sess.run([dropped, acc, after, outputs, last])
    RESULTS["eval"] = sess.run(dropped, {training: False})
