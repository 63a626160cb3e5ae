"""Static and bidirectional RNNs as aymericdamien/Hvass tutorials write them:
tf.unstack over time, static_rnn with sequence_length, static_bidirectional_rnn,
bidirectional_dynamic_rnn (time_major) with LSTM/GRU, wrappers, last relevant
output by gather_nd, variable names."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
B, T, D, H = 3, 4, 2, 3
x_np = np.sin(np.arange(B * T * D) * 0.37).reshape(B, T, D).astype(np.float32)
lens_np = np.array([4, 2, 3], np.int32)

X = tf.placeholder(tf.float32, [None, T, D], name="X")
seqlen = tf.placeholder(tf.int32, [None], name="seqlen")

x_list = tf.unstack(X, T, 1)
with tf.variable_scope("static"):
    lstm = tf.nn.rnn_cell.BasicLSTMCell(H, forget_bias=1.0)
    s_out, s_state = tf.nn.static_rnn(lstm, x_list, dtype=tf.float32, sequence_length=seqlen)
with tf.variable_scope("static_bi"):
    fw = tf.nn.rnn_cell.LSTMCell(H, use_peepholes=True)
    bw = tf.nn.rnn_cell.GRUCell(H)
    b_out, b_fw, b_bw = tf.nn.static_bidirectional_rnn(fw, bw, x_list, dtype=tf.float32, sequence_length=seqlen)
with tf.variable_scope("dyn_bi"):
    fw2 = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(H), input_keep_prob=1.0, output_keep_prob=1.0,
                                        state_keep_prob=1.0)
    bw2 = tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.BasicRNNCell(D))
    (o_fw, o_bw), (st_fw, st_bw) = tf.nn.bidirectional_dynamic_rnn(
        fw2, bw2, tf.transpose(X, [1, 0, 2]), sequence_length=seqlen, dtype=tf.float32, time_major=True)
    both = tf.concat([o_fw, o_bw], axis=2)
with tf.variable_scope("dyn"):
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.LSTMCell(H, num_proj=2), tf.nn.rnn_cell.GRUCell(H)])
    d_out, d_state = tf.nn.dynamic_rnn(cell, X, sequence_length=seqlen, dtype=tf.float32, swap_memory=True,
                                       parallel_iterations=4)
    idx = tf.stack([tf.range(tf.shape(d_out)[0]), seqlen - 1], axis=1)
    last = tf.gather_nd(d_out, idx)
    # the other classic way: flatten + gather
    flat = tf.gather(tf.reshape(d_out, [-1, H]), tf.range(0, tf.shape(d_out)[0]) * T + (seqlen - 1))

RESULTS["vars"] = [(v.name, v.shape.as_list()) for v in tf.global_variables()]
RESULTS["static_out_len"] = len(s_out)
RESULTS["static_out_shape"] = s_out[0].shape.as_list()
RESULTS["bi_out_shape"] = b_out[0].shape.as_list()
RESULTS["both_shape"] = both.shape.as_list()
RESULTS["d_state_is_lstm_tuple"] = [hasattr(s, "c") for s in d_state]
RESULTS["sizes"] = [str(cell.state_size), str(cell.output_size), str(fw2.state_size), str(bw2.output_size)]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i, v in enumerate(tf.global_variables()):
        shape = v.shape.as_list()
        sess.run(v.assign((0.3 * np.sin(np.arange(np.prod(shape)) * 0.5 + i)).reshape(shape).astype(np.float32)))
    feed = {X: x_np, seqlen: lens_np}
    RESULTS["static"] = sess.run([s_out, s_state], feed)
    RESULTS["static_bi"] = sess.run([b_out, b_fw, b_bw], feed)
    RESULTS["dyn_bi"] = sess.run([both, st_fw, st_bw], feed)
    RESULTS["dyn"] = sess.run([d_out, d_state, last, flat], feed)
