"""With a graph seed, layers' default initializers (tf.layers, Keras layers, RNN cells; TF 2.x draws them with
fresh random seeds) leave the graph's op seeds to the seeded ops that follow: dropout masks and random
tensors made after the layers are TF's, run after run."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-5, "atol": 2e-6}

tf.set_random_seed(3)
x = tf.placeholder(tf.float32, [None, 6], name="x")
h = tf.layers.dense(x, 4, activation=tf.nn.relu)
conv = tf.layers.conv2d(tf.reshape(x, [-1, 2, 3, 1]), 2, 2, padding="same")
k = tf.keras.layers.Dense(3)(h)
cell = tf.nn.rnn_cell.BasicLSTMCell(5)
outputs, state = tf.nn.dynamic_rnn(cell, tf.reshape(x, [-1, 3, 2]), dtype=tf.float32)
mask = tf.layers.dropout(tf.ones([2, 5]), rate=0.5, training=True)
noise = tf.random_normal([3])
w = tf.get_variable("w", [2, 2])  # the default of get_variable is TF1's seeded glorot uniform

RESULTS["shapes"] = [t.shape.as_list() for t in (h, conv, k, outputs)]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["w"] = sess.run(w)
    for step in range(2):
        RESULTS[f"mask_{step}"], RESULTS[f"noise_{step}"] = sess.run([mask, noise])
    out = sess.run(outputs, {x: np.ones([2, 6], np.float32)})
    RESULTS["outputs_shape"] = list(out.shape)
