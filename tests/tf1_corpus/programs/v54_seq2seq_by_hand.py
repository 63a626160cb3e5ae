"""Seq2seq (reverse a sequence) with a dynamic_rnn GRU encoder and an LSTM decoder
fed the encoder's final state, teacher forcing, masked loss with sequence_mask,
Adam + clipped gradients, greedy inference by a feed-back loop in Python."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
VOCAB, EMB, H, T = 7, 4, 5, 5
GO, PAD = 1, 0

enc_in = tf.placeholder(tf.int32, [None, None], name="encoder_inputs")
enc_len = tf.placeholder(tf.int32, [None], name="encoder_lengths")
dec_in = tf.placeholder(tf.int32, [None, None], name="decoder_inputs")
dec_tgt = tf.placeholder(tf.int32, [None, None], name="decoder_targets")
dec_len = tf.placeholder(tf.int32, [None], name="decoder_lengths")

embeddings = tf.Variable(np.linspace(-1, 1, VOCAB * EMB).reshape(VOCAB, EMB).astype(np.float32), name="embeddings")
enc_emb = tf.nn.embedding_lookup(embeddings, enc_in)
dec_emb = tf.nn.embedding_lookup(embeddings, dec_in)

with tf.variable_scope("encoder"):
    enc_cell = tf.nn.rnn_cell.LSTMCell(H)
    enc_out, enc_state = tf.nn.dynamic_rnn(enc_cell, enc_emb, sequence_length=enc_len, dtype=tf.float32)
with tf.variable_scope("decoder"):
    dec_cell = tf.nn.rnn_cell.LSTMCell(H)
    dec_out, dec_state = tf.nn.dynamic_rnn(dec_cell, dec_emb, initial_state=enc_state,
                                           sequence_length=dec_len, dtype=tf.float32, scope="plain_decoder")
logits = tf.layers.dense(dec_out, VOCAB, name="proj", kernel_initializer=tf.constant_initializer(np.sin(np.arange(H * VOCAB)).reshape(H, VOCAB)))
mask = tf.sequence_mask(dec_len, tf.shape(dec_tgt)[1], dtype=tf.float32)
xent = tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.one_hot(dec_tgt, VOCAB), logits=logits)
loss = tf.reduce_sum(xent * mask) / tf.reduce_sum(mask)
opt = tf.train.AdamOptimizer(0.05)
gvs = opt.compute_gradients(loss)
capped = [(tf.clip_by_value(g, -1.0, 1.0), v) for g, v in gvs if g is not None]
train_op = opt.apply_gradients(capped)
pred = tf.argmax(logits, axis=-1, output_type=tf.int32)

RESULTS["vars"] = [(v.name, v.shape.as_list()) for v in tf.trainable_variables()]
RESULTS["enc_out_shape"] = enc_out.shape.as_list()
RESULTS["logits_shape"] = logits.shape.as_list()
RESULTS["mask_dtype"] = mask.dtype.name
RESULTS["n_slots"] = len(opt.get_slot_names())

rng = np.random.RandomState(3)
def batch(n):
    lens = rng.randint(2, T + 1, size=n)
    x = np.zeros((n, T), np.int32)
    for i, L in enumerate(lens):
        x[i, :L] = rng.randint(2, VOCAB, size=L)
    y = np.zeros((n, T + 1), np.int32)
    d = np.zeros((n, T + 1), np.int32)
    for i, L in enumerate(lens):
        y[i, :L] = x[i, :L][::-1]
        d[i, 0] = GO
        d[i, 1:L + 1] = y[i, :L]
    return x, lens.astype(np.int32), d, y, (lens + 1).astype(np.int32)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for v in tf.trainable_variables():
        if "kernel" in v.name and "proj" not in v.name:
            shape = v.shape.as_list()
            sess.run(v.assign((0.2 * np.sin(np.arange(np.prod(shape)) * 0.3)).reshape(shape).astype(np.float32)))
    losses = []
    for step in range(5):
        x, xl, d, y, yl = batch(3)
        l, _ = sess.run([loss, train_op], {enc_in: x, enc_len: xl, dec_in: d, dec_tgt: y, dec_len: yl})
        losses.append(l)
    RESULTS["losses"] = np.array(losses)
    x, xl, d, y, yl = batch(2)
    RESULTS["enc_out_masked"] = sess.run(enc_out, {enc_in: x, enc_len: xl})
    # greedy decoding: feed the growing decoder input back in
    dec = np.full((2, 1), GO, np.int32)
    for t in range(T):
        p = sess.run(pred, {enc_in: x, enc_len: xl, dec_in: dec, dec_len: np.full([2], t + 1, np.int32)})
        dec = np.concatenate([dec, p[:, -1:]], axis=1)
    RESULTS["greedy"] = dec
    RESULTS["pred_dtype"] = p.dtype.name
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
