"""NMT-tutorial beam search on tf.contrib.seq2seq: tile_batch of the encoder outputs, lengths and
state, BeamSearchDecoder over an LSTM (plain) and over an AttentionWrapper (Bahdanau, alignment
history reordered along the beams, length and coverage penalties), FinalBeamSearchDecoderOutput's
predicted_ids, and gather_tree on hand-made beams. TF 2.x has no tf.contrib: there the oracle is
_v42_seq2seq_tf115.py, TF 1.15's behaviour written on tf.compat.v1 ops."""
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
batch_size, src_len, vocab, emb_dim, units, beam_width, max_iter = 2, 5, 9, 4, 6, 3, 6
rng = np.random.RandomState(5)
src = rng.randint(2, vocab, size=(batch_size, src_len)).astype(np.int32)
src_lengths = np.array([5, 3], np.int32)


def set_all_trainables(sess):
    for i, v in enumerate(tf.trainable_variables()):
        value = np.random.RandomState(300 + i).uniform(-0.8, 0.8, v.shape.as_list()).astype(np.float32)
        v.load(value, sess)


def build(kind):
    source = tf.placeholder(tf.int32, [batch_size, src_len], name="source")
    embedding = tf.get_variable("embedding", [vocab, emb_dim])
    enc_out, enc_state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(units), tf.nn.embedding_lookup(embedding, source),
                                           sequence_length=src_lengths, dtype=tf.float32, scope="encoder")
    tiled_state = seq2seq.tile_batch(enc_state, multiplier=beam_width)
    start_tokens = tf.fill([batch_size], 1)
    projection = tf.layers.Dense(vocab, use_bias=False, name="output_projection")
    if kind == "plain":
        cell = tf.nn.rnn_cell.LSTMCell(units)
        decoder = seq2seq.BeamSearchDecoder(cell, embedding, start_tokens, 3, tiled_state, beam_width,
                                            output_layer=projection)
    else:
        tiled_memory = seq2seq.tile_batch(enc_out, multiplier=beam_width)
        tiled_lengths = seq2seq.tile_batch(src_lengths, multiplier=beam_width)
        mechanism = seq2seq.BahdanauAttention(units, tiled_memory, memory_sequence_length=tiled_lengths)
        cell = seq2seq.AttentionWrapper(tf.nn.rnn_cell.LSTMCell(units), mechanism, attention_layer_size=units,
                                        alignment_history=True)
        init = cell.zero_state(batch_size * beam_width, tf.float32).clone(cell_state=tiled_state)
        decoder = seq2seq.BeamSearchDecoder(cell, embedding, start_tokens, 2, init, beam_width,
                                            output_layer=projection, length_penalty_weight=0.6,
                                            coverage_penalty_weight=0.2)
    outputs, state, lengths = seq2seq.dynamic_decode(decoder, maximum_iterations=max_iter)
    RESULTS[kind + "_variables"] = [v.name for v in tf.global_variables()]
    RESULTS[kind + "_types"] = [type(outputs).__name__, type(outputs.beam_search_decoder_output).__name__,
                                type(state).__name__]
    RESULTS[kind + "_tiled_shape"] = tiled_state.c.shape.as_list()
    fetch = {"predicted_ids": outputs.predicted_ids, "scores": outputs.beam_search_decoder_output.scores,
             "step_ids": outputs.beam_search_decoder_output.predicted_ids,
             "parent_ids": outputs.beam_search_decoder_output.parent_ids,
             "state_lengths": state.lengths, "log_probs": state.log_probs, "finished": state.finished,
             "lengths": lengths, "tiled_c": tiled_state.c}
    if kind == "attention":
        fetch["alignment_history"] = state.cell_state.alignment_history
        fetch["accumulated_attention_probs"] = state.accumulated_attention_probs
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        set_all_trainables(sess)
        RESULTS[kind] = sess.run(fetch, {source: src})


for kind in ("plain", "attention"):
    with tf.Graph().as_default():
        build(kind)

with tf.Graph().as_default():
    step_ids = np.array([[[2, 5, 3], [4, 6, 7]], [[1, 2, 8], [3, 2, 0]], [[0, 4, 6], [5, 5, 5]],
                         [[7, 7, 7], [1, 0, 2]]], np.int32)  # [time 4, batch 2, beam 3]
    parent_ids = np.array([[[0, 0, 0], [0, 0, 0]], [[2, 1, 0], [1, 1, 2]], [[1, 2, 0], [0, 2, 1]],
                           [[0, 1, 2], [2, 0, 1]]], np.int32)
    tree = seq2seq.gather_tree(tf.constant(step_ids), tf.constant(parent_ids), tf.constant([4, 3], tf.int32),
                               tf.constant(0, tf.int32))
    with tf.Session() as sess:
        RESULTS["gather_tree"] = sess.run(tree)
