"""NMT-tutorial attention on tf.contrib.seq2seq: BahdanauAttention (normalize, memory_sequence_length)
and LuongAttention (scale) over the encoder outputs, AttentionWrapper (attention_layer_size,
alignment_history, output_attention, zero_state(...).clone(cell_state=encoder_state)), trained
through TrainingHelper + BasicDecoder with Adam, and greedy decoding. TF 2.x has no tf.contrib:
there the oracle is _v42_seq2seq_tf115.py, TF 1.15's
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
rng = np.random.RandomState(3)
src = rng.randint(2, vocab, size=(batch_size, src_len)).astype(np.int32)
src_lengths = np.array([5, 2, 4], np.int32)
tgt_in = rng.randint(2, vocab, size=(batch_size, tgt_len)).astype(np.int32)
tgt_out = rng.randint(2, vocab, size=(batch_size, tgt_len)).astype(np.int32)
tgt_lengths = np.array([4, 3, 4], np.int32)


def set_all_trainables(sess):
    for i, v in enumerate(tf.trainable_variables()):
        value = np.random.RandomState(200 + i).uniform(-0.5, 0.5, v.shape.as_list()).astype(np.float32)
        v.load(value, sess)


def build(kind):
    source = tf.placeholder(tf.int32, [batch_size, src_len], name="source")
    target_in = tf.placeholder(tf.int32, [batch_size, tgt_len], name="target_in")
    target_out = tf.placeholder(tf.int32, [batch_size, tgt_len], name="target_out")
    embedding = tf.get_variable("embedding", [vocab, emb_dim])
    enc_out, enc_state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(units), tf.nn.embedding_lookup(embedding, source),
                                           sequence_length=src_lengths, dtype=tf.float32, scope="encoder")
    if kind == "bahdanau":
        mechanism = seq2seq.BahdanauAttention(units, enc_out, memory_sequence_length=src_lengths, normalize=True)
        cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(units), mechanism, attention_layer_size=5,
                                        alignment_history=True)
    else:
        mechanism = seq2seq.LuongAttention(units, enc_out, memory_sequence_length=src_lengths, scale=True)
        cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(units), mechanism, output_attention=False)
    init = cell.zero_state(batch_size, tf.float32).clone(cell_state=enc_state)
    projection = tf.layers.Dense(vocab, use_bias=False)
    helper = seq2seq.TrainingHelper(tf.nn.embedding_lookup(embedding, target_in), tgt_lengths)
    outputs, state, _ = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, helper, init, output_layer=projection))
    loss = seq2seq.sequence_loss(outputs.rnn_output, target_out, tf.sequence_mask(tgt_lengths, tgt_len, tf.float32))
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss)
    g_helper = seq2seq.GreedyEmbeddingHelper(embedding, tf.fill([batch_size], 1), 0)
    g_out, g_state, g_len = seq2seq.dynamic_decode(seq2seq.BasicDecoder(cell, g_helper, init, output_layer=projection),
                                                   maximum_iterations=5)
    RESULTS[kind + "_variables"] = [v.name for v in tf.global_variables()]
    RESULTS[kind + "_state_type"] = type(state).__name__
    RESULTS[kind + "_output_size"] = cell.output_size
    feed = {source: src, target_in: tgt_in, target_out: tgt_out}
    fetch = {"logits": outputs.rnn_output, "alignments": state.alignments, "attention": state.attention,
             "time": state.time, "loss": loss, "greedy_ids": g_out.sample_id, "greedy_len": g_len,
             "greedy_alignments": g_state.alignments}
    if kind == "bahdanau":
        fetch["alignment_history"] = state.alignment_history.stack()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        set_all_trainables(sess)
        RESULTS[kind] = sess.run(fetch, feed)
        RESULTS[kind + "_losses"] = np.array([sess.run([loss, train_op], feed)[0] for _ in range(3)])
        RESULTS[kind + "_trained_logits"] = sess.run(outputs.rnn_output, feed)


for kind in ("bahdanau", "luong"):
    with tf.Graph().as_default():
        build(kind)
