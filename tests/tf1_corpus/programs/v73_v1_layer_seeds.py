"""After disable_v2_behavior() (the first line of most TF1 programs ported to TF 2), a graph seed makes
the default initializers of tf.layers, Keras layers and RNN cells draw TF1's seeded values: the same
weights as TF, run after run, and the seeded ops after them keep TF's op seeds."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

RESULTS = {}
TOLERANCE = {"rtol": 2e-5, "atol": 2e-6}

tf.set_random_seed(7)
x = tf.placeholder(tf.float32, [None, 6], name="x")
h = tf.layers.dense(x, 4, activation=tf.nn.relu)
dense = tf.layers.Dense(units=2)
h2 = dense(h)
conv = tf.layers.conv2d(tf.reshape(x, [-1, 2, 3, 1]), 2, 2, padding="same")
k = tf.keras.layers.Dense(3)(h)
emb = tf.keras.layers.Embedding(5, 2)(tf.constant([[1, 3]]))
cell = tf.nn.rnn_cell.BasicLSTMCell(3)
outputs, state = tf.nn.dynamic_rnn(cell, tf.reshape(x, [-1, 3, 2]), dtype=tf.float32)
gru = tf.nn.rnn_cell.GRUCell(2)
gout, _ = tf.nn.dynamic_rnn(gru, tf.reshape(x, [-1, 3, 2]), dtype=tf.float32, scope="gru")
mask = tf.layers.dropout(tf.ones([2, 5]), rate=0.5, training=True)
noise = tf.random_normal([3])
w = tf.get_variable("w", [2, 2])

RESULTS["names"] = [v.name for v in tf.global_variables()]
# what print() shows of graph objects under TF1 behaviour
unknown = tf.placeholder(tf.float32)
RESULTS["printed"] = [str(t) for t in (x, h, unknown, x.shape, unknown.shape, dense.kernel, w, outputs)]
RESULTS["repr"] = [repr(t) for t in (x, unknown, x.shape, tf.TensorShape(None), x.shape[0], x.shape[1], w)]
RESULTS["weights"] = str(dense.weights)
feed = {x: np.linspace(-1, 1, 12).reshape(2, 6).astype(np.float32)}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for v in tf.global_variables():
        RESULTS[v.name] = sess.run(v)
    RESULTS["h2"], RESULTS["conv"], RESULTS["k"], RESULTS["emb"] = sess.run([h2, conv, k, emb], feed)
    RESULTS["outputs"], RESULTS["gout"] = sess.run([outputs, gout], feed)
    RESULTS["mask"], RESULTS["noise"] = sess.run([mask, noise])
