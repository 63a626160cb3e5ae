"""Mistakes and edge cases RNN tutorials run into: dynamic_rnn without dtype or
initial_state, inputs of rank 2, sequence_length of the wrong rank, feeding a
state of the wrong shape, manual bidirectional RNN with reverse_sequence,
nested (tuple) inputs, initial_state_fw/bw, log_softmax, l2-normalised
embedding similarity with top_k."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
B, T, D, H = 2, 3, 2, 3
x = tf.placeholder(tf.float32, [B, T, D], name="x")


def error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return "no error"


with tf.variable_scope("e1"):
    RESULTS["no_dtype"] = error_of(lambda: tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(H), x))
with tf.variable_scope("e2"):
    RESULTS["rank2_inputs"] = error_of(
        lambda: tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(H), tf.zeros([B, D]), dtype=tf.float32))
with tf.variable_scope("e3"):
    RESULTS["seq_len_rank"] = error_of(
        lambda: tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(H), x, sequence_length=[[1, 2]], dtype=tf.float32))
with tf.variable_scope("e4"):
    RESULTS["static_not_list"] = error_of(
        lambda: tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(H), x, dtype=tf.float32))

lens = tf.constant([3, 2])
with tf.variable_scope("fw"):
    out_fw, st_fw = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(H), x, sequence_length=lens, dtype=tf.float32)
with tf.variable_scope("bw"):
    rev = tf.reverse_sequence(x, lens, seq_axis=1, batch_axis=0)
    out_bw_rev, st_bw = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(H), rev, sequence_length=lens, dtype=tf.float32)
    out_bw = tf.reverse_sequence(out_bw_rev, lens, seq_axis=1, batch_axis=0)
manual = tf.concat([out_fw, out_bw], -1)

init_fw = tf.placeholder(tf.float32, [B, H], name="init_fw")
with tf.variable_scope("bi"):
    (bo_fw, bo_bw), (bs_fw, bs_bw) = tf.nn.bidirectional_dynamic_rnn(
        tf.nn.rnn_cell.GRUCell(H), tf.nn.rnn_cell.GRUCell(H), x, sequence_length=lens,
        initial_state_fw=init_fw, initial_state_bw=tf.ones([B, H]) * 0.1)
state_fed = tf.placeholder(tf.float32, [None, H], name="state_fed")
with tf.variable_scope("fed"):
    fed_out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(H), x, initial_state=state_fed)


class PairCell(tf.nn.rnn_cell.RNNCell):
    """A custom cell taking a (features, flags) tuple per step."""

    def __init__(self, n):
        super(PairCell, self).__init__()
        self._n = n

    @property
    def state_size(self):
        return self._n

    @property
    def output_size(self):
        return self._n

    def __call__(self, inputs, state, scope=None):
        feats, flags = inputs
        new = tf.tanh(state + tf.reduce_sum(feats, 1, keepdims=True) * flags)
        return new, new


pair_out, pair_state = tf.nn.dynamic_rnn(PairCell(H), (x, tf.ones([B, T, 1]) * 0.5), dtype=tf.float32)

emb = tf.constant(np.array([[1, 0], [0.8, 0.6], [0, 1], [-1, 0]], np.float32))
normed = tf.nn.l2_normalize(emb, axis=1)
sim = tf.matmul(normed, normed, transpose_b=True)
top_sim, top_ids = tf.nn.top_k(sim, k=2)
logp = tf.nn.log_softmax(sim, axis=0)

RESULTS["vars"] = [(v.name, v.shape.as_list()) for v in tf.global_variables()]
xa = np.sin(np.arange(B * T * D)).reshape(B, T, D).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i, v in enumerate(tf.trainable_variables()):
        s = v.shape.as_list()
        sess.run(v.assign((0.3 * np.cos(np.arange(np.prod(s)) * 0.8 + i)).reshape(s).astype(np.float32)))
    RESULTS["manual"], RESULTS["st_bw"] = sess.run([manual, st_bw], {x: xa})
    RESULTS["bi"] = sess.run([bo_fw, bo_bw, bs_fw, bs_bw], {x: xa, init_fw: np.full([B, H], -0.2, np.float32)})
    RESULTS["bad_state_feed"] = error_of(lambda: sess.run(fed_out, {x: xa, state_fed: np.zeros([B, H + 1])}))
    RESULTS["fed"] = sess.run(fed_out, {x: xa, state_fed: np.zeros([B, H])})
    RESULTS["pair"] = sess.run([pair_out, pair_state], {x: xa})
    RESULTS["sim"], RESULTS["top_ids"], RESULTS["logp"] = sess.run([top_sim, top_ids, logp])
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
