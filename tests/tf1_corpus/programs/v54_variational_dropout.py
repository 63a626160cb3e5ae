"""Variational (Gal & Ghahramani) recurrent dropout with DropoutWrapper as
in the TF1 PTB tutorial variants: one mask per run shared across time steps and
batch rows; keep_prob from a placeholder_with_default (1.0 at eval = exact)."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
B, T, D, H = 3, 5, 4, 6
keep = tf.placeholder_with_default(1.0, [], name="keep_prob")
x = tf.placeholder(tf.float32, [None, T, D], name="x")
cells = [tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(H), input_keep_prob=keep,
                                       output_keep_prob=keep, state_keep_prob=keep, variational_recurrent=True,
                                       input_size=D if i == 0 else H, dtype=tf.float32, seed=i + 1)
         for i in range(2)]
cell = tf.nn.rnn_cell.MultiRNNCell(cells)
out, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
probe = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(H), output_keep_prob=0.5, variational_recurrent=True,
                                      dtype=tf.float32, seed=3)
with tf.variable_scope("probe"):
    p_out, _ = tf.nn.dynamic_rnn(probe, x, dtype=tf.float32)
try:
    tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(H), input_keep_prob=0.5, variational_recurrent=True,
                                  dtype=tf.float32)
except ValueError as e:
    RESULTS["no_input_size"] = type(e).__name__
try:
    tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(H), variational_recurrent=True)
except ValueError as e:
    RESULTS["no_dtype"] = type(e).__name__

RESULTS["vars"] = [(v.name, v.shape.as_list()) for v in tf.trainable_variables()]
x_np = np.cos(np.arange(B * T * D) * 0.3).reshape(B, T, D).astype(np.float32) + 1.0
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i, v in enumerate(tf.trainable_variables()):
        shape = v.shape.as_list()
        sess.run(v.assign((0.3 * np.sin(np.arange(np.prod(shape)) * 0.4 + i)).reshape(shape).astype(np.float32)))
    RESULTS["eval_out"], RESULTS["eval_state"] = sess.run([out, state], {x: x_np})
    o = sess.run(p_out, {x: x_np})
    zero = o == 0
    RESULTS["same_mask_over_time_and_batch"] = bool(np.all(zero == zero[:1, :1, :]))
    o2 = sess.run(out, {x: x_np, keep: 0.5})
    RESULTS["train_out_shape"] = list(o2.shape)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
