"""RNN loops written by hand: LSTMStateTuple of placeholders as initial_state,
a tf.while_loop + TensorArray greedy decoder that feeds its own argmax back,
masked tf.losses.sparse_softmax_cross_entropy, and
tf.scan over a cell."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
B, T, V, E, H = 2, 4, 6, 3, 5
c_in = tf.placeholder(tf.float32, [None, H], name="c_in")
h_in = tf.placeholder(tf.float32, [None, H], name="h_in")
init_state = tf.nn.rnn_cell.LSTMStateTuple(c_in, h_in)
tokens = tf.placeholder(tf.int32, [None, T], name="tokens")
lengths = tf.placeholder(tf.int32, [None], name="lengths")
emb = tf.get_variable("emb", [V, E], initializer=tf.constant_initializer(np.sin(np.arange(V * E)).reshape(V, E)))
cell = tf.nn.rnn_cell.BasicLSTMCell(H)
with tf.variable_scope("lm"):
    outs, final = tf.nn.dynamic_rnn(cell, tf.nn.embedding_lookup(emb, tokens), initial_state=init_state,
                                    sequence_length=lengths)
    logits = tf.layers.dense(outs, V, name="out", kernel_initializer=tf.constant_initializer(
        np.cos(np.arange(H * V)).reshape(H, V) * 0.5))
targets = tf.concat([tokens[:, 1:], tf.zeros([tf.shape(tokens)[0], 1], tf.int32)], axis=1)
weights = tf.sequence_mask(lengths - 1, T, dtype=tf.float32)
loss = tf.losses.sparse_softmax_cross_entropy(targets, logits, weights=weights)
loss_none = tf.losses.sparse_softmax_cross_entropy(targets, logits, weights=weights,
                                                   reduction=tf.losses.Reduction.NONE)

# greedy decoding with while_loop + TensorArray, reusing the lm variables
with tf.variable_scope("lm", reuse=True):
    def body(t, prev, state, ta):
        x = tf.nn.embedding_lookup(emb, prev)
        with tf.variable_scope("rnn"):
            out, state = cell(x, state)
        nxt = tf.argmax(tf.layers.dense(out, V, name="out"), axis=1, output_type=tf.int32)
        return t + 1, nxt, state, ta.write(t, nxt)
    start = tf.fill([tf.shape(c_in)[0]], 1)
    ta0 = tf.TensorArray(tf.int32, size=T)
    _, _, dec_state, ta = tf.while_loop(lambda t, *_: t < T, body, [0, start, init_state, ta0])
    decoded = tf.transpose(ta.stack())

# scan over a cell
with tf.variable_scope("scan"):
    scell = tf.nn.rnn_cell.BasicRNNCell(H)
    xs = tf.transpose(tf.nn.embedding_lookup(emb, tokens), [1, 0, 2])
    scell.build(tf.TensorShape([None, E]))
    scanned = tf.scan(lambda h, x: scell(x, h)[1], xs, initializer=tf.zeros([B, H]))

RESULTS["vars"] = [(v.name, v.shape.as_list()) for v in tf.global_variables()]
RESULTS["meta"] = [decoded.dtype.name, loss.shape.as_list(), loss_none.shape.as_list()]

tok = np.array([[1, 2, 3, 4], [1, 5, 0, 0]], np.int32)
lens = np.array([4, 2], np.int32)
z = np.zeros([B, H], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for v in tf.global_variables():
        if v.name in ("lm/rnn/basic_lstm_cell/kernel:0", "scan/basic_rnn_cell/kernel:0"):
            shape = v.shape.as_list()
            sess.run(v.assign((0.2 * np.sin(np.arange(np.prod(shape)) * 0.3)).reshape(shape).astype(np.float32)))
    feed = {tokens: tok, lengths: lens, c_in: z, h_in: z + 0.1}
    RESULTS["loss"], RESULTS["loss_none"], RESULTS["final"] = sess.run([loss, loss_none, final], feed)
    RESULTS["final_type"] = type(RESULTS["final"]).__name__
    feed2 = {tokens: tok, lengths: lens, c_in: RESULTS["final"].c, h_in: RESULTS["final"].h}
    RESULTS["loss_fed_state"] = sess.run(loss, feed2)
    RESULTS["decoded"], RESULTS["dec_state"] = sess.run([decoded, dec_state], feed)
    RESULTS["scanned"] = sess.run(scanned, feed)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
