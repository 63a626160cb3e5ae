"""CTC for speech/OCR (igormq/ctc_tensorflow_example style): bidirectional LSTM
over padded frames, time-major logits, ctc_loss on a SparseTensor of labels,
ctc_greedy_decoder, label error rate via edit_distance, and a training step."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
FEAT, H, CLASSES, B, T = 3, 4, 5, 2, 7  # classes include the blank (last)
inputs = tf.placeholder(tf.float32, [None, None, FEAT], name="inputs")
targets = tf.sparse_placeholder(tf.int32, name="targets")
seq_len = tf.placeholder(tf.int32, [None], name="seq_len")
fw = tf.nn.rnn_cell.LSTMCell(H, state_is_tuple=True)
bw = tf.nn.rnn_cell.LSTMCell(H, state_is_tuple=True)
(out_fw, out_bw), _ = tf.nn.bidirectional_dynamic_rnn(fw, bw, inputs, seq_len, dtype=tf.float32)
outputs = tf.concat([out_fw, out_bw], 2)
shape = tf.shape(inputs)
batch_s, max_timesteps = shape[0], shape[1]
outputs = tf.reshape(outputs, [-1, 2 * H])
W = tf.Variable(np.sin(np.arange(2 * H * CLASSES)).reshape(2 * H, CLASSES).astype(np.float32) * 0.5, name="W")
b = tf.Variable(tf.constant(0.1, shape=[CLASSES]), name="b")
logits = tf.matmul(outputs, W) + b
logits = tf.reshape(logits, [batch_s, -1, CLASSES])
logits = tf.transpose(logits, (1, 0, 2))
loss = tf.nn.ctc_loss(targets, logits, seq_len)
cost = tf.reduce_mean(loss)
optimizer = tf.train.MomentumOptimizer(0.05, 0.9).minimize(cost)
decoded, log_prob = tf.nn.ctc_greedy_decoder(logits, seq_len)
ler = tf.reduce_mean(tf.edit_distance(tf.cast(decoded[0], tf.int32), targets))
dense_decoded = tf.sparse_tensor_to_dense(decoded[0], default_value=-1)
RESULTS["meta"] = [loss.shape.as_list(), logits.shape.as_list(), decoded[0].values.dtype.name,
                   log_prob.shape.as_list(), ler.dtype.name]


def sparse_tuple_from(sequences, dtype=np.int32):
    indices, values = [], []
    for n, seq in enumerate(sequences):
        indices.extend(zip([n] * len(seq), range(len(seq))))
        values.extend(seq)
    indices = np.asarray(indices, dtype=np.int64)
    values = np.asarray(values, dtype=dtype)
    shape = np.asarray([len(sequences), np.asarray(indices).max(0)[1] + 1], dtype=np.int64)
    return indices, values, shape


x = np.cos(np.arange(B * T * FEAT) * 0.45).reshape(B, T, FEAT).astype(np.float32)
lens = np.array([7, 5], np.int32)
labels = sparse_tuple_from([[0, 1, 2], [3, 1]])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i, v in enumerate(tf.trainable_variables()):
        if "kernel" in v.name:
            s = v.shape.as_list()
            sess.run(v.assign((0.3 * np.sin(np.arange(np.prod(s)) * 0.6 + i)).reshape(s).astype(np.float32)))
    feed = {inputs: x, targets: labels, seq_len: lens}
    costs = []
    for _ in range(3):
        c, _ = sess.run([cost, optimizer], feed)
        costs.append(c)
    RESULTS["costs"] = np.array(costs)
    RESULTS["loss"], RESULTS["ler"] = sess.run([loss, ler], feed)
    RESULTS["decoded"], RESULTS["log_prob"] = sess.run([dense_decoded, log_prob], feed)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-4}
