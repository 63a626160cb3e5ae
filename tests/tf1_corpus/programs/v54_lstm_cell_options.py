"""LSTMCell options and cell plumbing as tutorials use them: initializer,
num_proj, cell_clip, named cells, reuse across two dynamic_rnn calls
(variable_scope reuse), AUTO_REUSE, state_size/zero_state of nested cells,
cell errors (wrong input depth, reuse without reuse flag)."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
B, T, D = 2, 3, 4
x = tf.placeholder(tf.float32, [B, T, D], name="x")
x2 = tf.placeholder(tf.float32, [B, T, D], name="x2")
init = tf.constant_initializer(0.05)


def encoder(inputs, reuse=None):
    with tf.variable_scope("shared_encoder", reuse=reuse):
        cell = tf.nn.rnn_cell.LSTMCell(5, initializer=init, num_proj=3, cell_clip=0.5, name="enc_lstm")
        return tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)


o1, s1 = encoder(x)
o2, s2 = encoder(x2, reuse=True)
with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
    a1, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2, kernel_initializer=init), x, dtype=tf.float32)
with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
    a2, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2, kernel_initializer=init), x2, dtype=tf.float32)
try:
    encoder(x)
except ValueError as e:
    RESULTS["reuse_error"] = type(e).__name__
    RESULTS["reuse_error_has_name"] = "shared_encoder/rnn/enc_lstm/kernel" in str(e)
cell = tf.nn.rnn_cell.BasicRNNCell(3)
with tf.variable_scope("once"):
    cell(tf.zeros([B, D]), cell.zero_state(B, tf.float32))
try:
    with tf.variable_scope("once", reuse=True):
        cell(tf.zeros([B, D + 1]), cell.zero_state(B, tf.float32))
except ValueError as e:
    RESULTS["depth_error"] = type(e).__name__

multi = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.LSTMCell(4, num_proj=2), tf.nn.rnn_cell.GRUCell(3)])
zs = multi.zero_state(5, tf.float32)
RESULTS["multi_sizes"] = [str(multi.state_size), str(multi.output_size)]
RESULTS["zero_shapes"] = [[t.shape.as_list() for t in tf.nest.flatten(zs)]]
RESULTS["vars"] = [(v.name, v.shape.as_list()) for v in tf.global_variables()]
RESULTS["state_proj_shape"] = [s1.c.shape.as_list(), s1.h.shape.as_list(), o1.shape.as_list()]

xa = np.linspace(-2, 2, B * T * D).reshape(B, T, D).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    r = sess.run([o1, s1, o2, a1, a2], {x: xa, x2: xa * 0.5})
    RESULTS["o1"], RESULTS["s1"], RESULTS["o2"], RESULTS["a1"], RESULTS["a2"] = r
    RESULTS["zs"] = sess.run(zs)
