"""NMT-tutorial style seq2seq on tf.contrib.seq2seq: an LSTM encoder (dynamic_rnn), a decoder with
TrainingHelper + BasicDecoder + dense projection through dynamic_decode, sequence_loss and a few Adam
steps; greedy inference (GreedyEmbeddingHelper, maximum_iterations) with impute_finished and
output_time_major. TF 2.x has no tf.contrib: there the oracle is _v42_seq2seq_tf115.py, TF 1.15's
behaviour written on tf.compat.v1 ops."""
import os
import sys

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

if hasattr(tf, "contrib"):
    seq2seq = tf.contrib.seq2seq
else:  # TF 1.15's tf.contrib.seq2seq behaviour, written on tf.compat.v1 ops
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import _v42_seq2seq_tf115 as seq2seq

RESULTS = {}
TOLERANCE = {"rtol": 2e-4, "atol": 2e-5}
batch_size, src_len, tgt_len, vocab, emb_dim, units = 3, 5, 4, 8, 4, 6
rng = np.random.RandomState(7)
src = rng.randint(2, vocab, size=(batch_size, src_len)).astype(np.int32)
src_lengths = np.array([5, 3, 4], np.int32)
tgt_in = rng.randint(2, vocab, size=(batch_size, tgt_len)).astype(np.int32)
tgt_out = rng.randint(2, vocab, size=(batch_size, tgt_len)).astype(np.int32)
tgt_lengths = np.array([4, 2, 3], np.int32)


def set_all_trainables(sess):
    for i, v in enumerate(tf.trainable_variables()):
        value = np.random.RandomState(100 + i).uniform(-0.5, 0.5, v.shape.as_list()).astype(np.float32)
        v.load(value, sess)


with tf.Graph().as_default():
    source = tf.placeholder(tf.int32, [None, src_len], name="source")
    source_lengths = tf.placeholder(tf.int32, [None], name="source_lengths")
    target_in = tf.placeholder(tf.int32, [None, None], name="target_in")
    target_out = tf.placeholder(tf.int32, [None, tgt_len], name="target_out")
    target_lengths = tf.placeholder(tf.int32, [None], name="target_lengths")
    embedding = tf.get_variable("embedding", [vocab, emb_dim])
    enc_cell = tf.nn.rnn_cell.BasicLSTMCell(units)
    enc_out, enc_state = tf.nn.dynamic_rnn(enc_cell, tf.nn.embedding_lookup(embedding, source),
                                           sequence_length=source_lengths, dtype=tf.float32, scope="encoder")
    dec_cell = tf.nn.rnn_cell.BasicLSTMCell(units)
    projection = tf.layers.Dense(vocab, use_bias=False)
    helper = seq2seq.TrainingHelper(tf.nn.embedding_lookup(embedding, target_in), target_lengths)
    decoder = seq2seq.BasicDecoder(dec_cell, helper, enc_state, output_layer=projection)
    outputs, final_state, lengths = seq2seq.dynamic_decode(decoder)
    logits = outputs.rnn_output
    mask = tf.sequence_mask(target_lengths, tgt_len, dtype=tf.float32)
    loss = seq2seq.sequence_loss(logits, target_out, mask)
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss)

    # greedy inference, sharing the decoder's variables
    g_helper = seq2seq.GreedyEmbeddingHelper(embedding, tf.fill([tf.shape(source)[0]], 1), 2)
    g_decoder = seq2seq.BasicDecoder(dec_cell, g_helper, enc_state, output_layer=projection)
    g_outputs, g_state, g_lengths = seq2seq.dynamic_decode(g_decoder, maximum_iterations=6, impute_finished=True)
    tm_outputs, _, tm_lengths = seq2seq.dynamic_decode(g_decoder, maximum_iterations=6, output_time_major=True)

    RESULTS["variables"] = [v.name for v in tf.global_variables()]
    RESULTS["trainables"] = [v.name for v in tf.trainable_variables()]
    RESULTS["logits_static_shape"] = logits.shape.as_list()[::2]
    RESULTS["sample_id_dtype"] = outputs.sample_id.dtype.name
    RESULTS["output_types"] = [type(outputs).__name__, type(final_state).__name__]
    feed = {source: src, source_lengths: src_lengths, target_in: tgt_in, target_out: tgt_out,
            target_lengths: tgt_lengths}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        set_all_trainables(sess)
        first = sess.run({"logits": logits, "sample_id": outputs.sample_id, "lengths": lengths,
                          "final_c": final_state.c, "final_h": final_state.h, "loss": loss}, feed)
        RESULTS["train_first"] = first
        RESULTS["losses"] = np.array([sess.run([loss, train_op], feed)[0] for _ in range(3)])
        RESULTS["greedy"] = sess.run({"ids": g_outputs.sample_id, "logits": g_outputs.rnn_output,
                                      "lengths": g_lengths, "h": g_state.h}, feed)
        RESULTS["greedy_time_major_ids"] = sess.run(tm_outputs.sample_id, feed)
        RESULTS["greedy_time_major_lengths"] = sess.run(tm_lengths, feed)
