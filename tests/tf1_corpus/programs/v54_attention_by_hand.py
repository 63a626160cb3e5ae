"""Attention written by hand over a GRU encoder (Bahdanau additive and Luong dot),
masked with sequence_mask and tf.where, einsum / batch matmul / softmax(axis),
and softmax_cross_entropy_with_logits v1 vs v2 (gradients into labels)."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
B, T, D, H, A = 2, 5, 3, 4, 3
x = tf.placeholder(tf.float32, [B, None, D], name="x")
lengths = tf.placeholder(tf.int32, [B], name="lengths")
query = tf.placeholder(tf.float32, [B, H], name="query")
with tf.variable_scope("encoder"):
    enc, enc_state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(H), x, sequence_length=lengths, dtype=tf.float32)
with tf.variable_scope("bahdanau"):
    W1 = tf.get_variable("W1", [H, A])
    W2 = tf.get_variable("W2", [H, A])
    v = tf.get_variable("v", [A])
    keys = tf.tensordot(enc, W1, axes=[[2], [0]])
    q = tf.expand_dims(tf.matmul(query, W2), 1)
    score = tf.reduce_sum(v * tf.tanh(keys + q), axis=2)
    mask = tf.sequence_mask(lengths, maxlen=tf.shape(x)[1])
    score = tf.where(mask, score, tf.ones_like(score) * -1e9)
    alphas = tf.nn.softmax(score, axis=1)
    context = tf.reduce_sum(enc * tf.expand_dims(alphas, -1), axis=1)
with tf.variable_scope("luong"):
    Wa = tf.get_variable("Wa", [H, H])
    proj = tf.einsum("bth,hk->btk", enc, Wa)
    scores = tf.squeeze(tf.matmul(proj, tf.expand_dims(query, 2)), axis=2)
    scores += (1.0 - tf.cast(mask, tf.float32)) * -1e9
    weights = tf.nn.softmax(scores)
    ctx = tf.einsum("bt,bth->bh", weights, enc)
    ctx2 = tf.squeeze(tf.matmul(tf.expand_dims(weights, 1), enc), 1)
    self_att = tf.nn.softmax(tf.matmul(enc, enc, transpose_b=True) / np.sqrt(H), axis=-1)
    self_out = tf.matmul(self_att, enc)
attn_hidden = tf.layers.dense(tf.concat([ctx, query], 1), H, activation=tf.tanh, use_bias=False, name="attn_out")
labels = tf.nn.softmax(tf.get_variable("label_logits", [B, H]))
xent_v1 = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=attn_hidden)
xent_v2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=attn_hidden)
g_v1 = tf.gradients(tf.reduce_sum(xent_v1), labels)
g_v2 = tf.gradients(tf.reduce_sum(xent_v2), labels)
RESULTS["none_grad_v1"] = g_v1[0] is None
RESULTS["shapes"] = [t.shape.as_list() for t in (keys, score, alphas, context, proj, scores, ctx, self_out)]

rng = np.random.RandomState(0)
feed = {x: rng.randn(B, T, D).astype(np.float32), lengths: [5, 3], query: rng.randn(B, H).astype(np.float32)}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i, var in enumerate(tf.global_variables()):
        shape = var.shape.as_list()
        sess.run(var.assign((0.4 * np.cos(np.arange(np.prod(shape)) * 0.9 + i)).reshape(shape).astype(np.float32)))
    RESULTS["alphas"], RESULTS["context"] = sess.run([alphas, context], feed)
    RESULTS["weights"], RESULTS["ctx"], RESULTS["ctx2"] = sess.run([weights, ctx, ctx2], feed)
    RESULTS["self_out"] = sess.run(self_out, feed)
    RESULTS["xent"] = sess.run([xent_v1, xent_v2], feed)
    RESULTS["g_v2"] = sess.run(g_v2, feed)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
