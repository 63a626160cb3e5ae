"""A TF1 program that calls disable_v2_behavior(): with a graph seed, the default initializers of
legacy RNN cells, tf.layers and Keras layers are tf.compat.v1 ones and take the graph's next op
seeds, and random ops in a cond branch count in the graph's own count (control flow v1)."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
tf.set_random_seed(7)

RESULTS = {}
RESULTS["control_flow_v2"] = tf.control_flow_v2_enabled()
np.random.seed(0)
x = tf.placeholder(tf.float32, [None, 6, 4])
w_out = tf.Variable(tf.random_normal([5, 3]), name="w_out")
steps = tf.unstack(x, 6, 1)
lstm = tf.nn.rnn_cell.BasicLSTMCell(5, forget_bias=1.0)
outputs, _ = tf.nn.static_rnn(lstm, steps, dtype=tf.float32)
logits = tf.matmul(outputs[-1], w_out)
with tf.variable_scope("gru"):
    gru_out, gru_state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), x, dtype=tf.float32)
hidden = tf.layers.dense(outputs[-1], 4, activation=tf.nn.relu)
k_out = tf.keras.layers.Dense(2)(hidden)
emb = tf.get_variable("emb", [7, 3])
noisy = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.random_uniform([3]), lambda: tf.zeros([3]))
after = tf.random_normal([2])
feed = {x: np.random.rand(2, 6, 4).astype(np.float32)}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["initial"] = sess.run({v.op.name: v for v in tf.global_variables()})
    RESULTS["forward"] = sess.run([logits, gru_state, k_out, noisy, after], feed)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
