"""Sentiment classifier (tutorial style): padded word ids, embedding, LSTM with
sequence_length, masked mean pooling, dropout (rate= and keep_prob=), dense
logits, tf.metrics.accuracy, exponential lr decay with Adam and clip_by_norm."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
V, E, H, T, N = 20, 4, 5, 6, 8
rng = np.random.RandomState(1)
X = rng.randint(1, V, size=(N, T)).astype(np.int32)
L = rng.randint(2, T + 1, size=N).astype(np.int32)
for i, l in enumerate(L):
    X[i, l:] = 0
Y = (X[:, 0] % 2).astype(np.int64)

words = tf.placeholder(tf.int32, [None, T], name="words")
lengths = tf.placeholder(tf.int32, [None], name="lengths")
labels = tf.placeholder(tf.int64, [None], name="labels")
training = tf.placeholder_with_default(False, [], name="training")
keep_prob = tf.placeholder_with_default(1.0, [], name="keep_prob")
embedding = tf.get_variable("embedding", [V, E], initializer=tf.constant_initializer(
    np.cos(np.arange(V * E)).reshape(V, E) * 0.5))
embedded = tf.nn.embedding_lookup(embedding, words)
embedded = tf.nn.dropout(embedded, keep_prob=keep_prob)
cell = tf.nn.rnn_cell.LSTMCell(H, initializer=tf.constant_initializer(0.1))
outputs, (c, h) = tf.nn.dynamic_rnn(cell, embedded, sequence_length=lengths, dtype=tf.float32)
mask = tf.expand_dims(tf.sequence_mask(lengths, T, dtype=tf.float32), -1)
pooled = tf.reduce_sum(outputs * mask, axis=1) / tf.cast(tf.expand_dims(lengths, 1), tf.float32)
pooled = tf.layers.dropout(pooled, rate=0.5, training=training)
features = tf.concat([pooled, h], axis=1)
logits = tf.layers.dense(features, 2, kernel_initializer=tf.constant_initializer(
    np.sin(np.arange(2 * H * 2)).reshape(2 * H, 2)))
loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
global_step = tf.train.get_or_create_global_step()
lr = tf.train.exponential_decay(0.05, global_step, 2, 0.5, staircase=True)
opt = tf.train.AdamOptimizer(lr)
gvs = [(tf.clip_by_norm(g, 1.0), v) for g, v in opt.compute_gradients(loss)]
train_op = opt.apply_gradients(gvs, global_step=global_step)
preds = tf.argmax(logits, 1)
acc, acc_op = tf.metrics.accuracy(labels, preds)
RESULTS["vars"] = [(v.name, v.shape.as_list()) for v in tf.global_variables()]
RESULTS["local"] = [v.name for v in tf.local_variables()]

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    hist = []
    for step in range(4):
        l, r, _ = sess.run([loss, lr, train_op], {words: X, lengths: L, labels: Y})
        hist.append((l, r))
    RESULTS["hist"] = np.array(hist)
    sess.run(acc_op, {words: X, lengths: L, labels: Y})
    RESULTS["acc"] = sess.run(acc)
    RESULTS["preds"] = sess.run(preds, {words: X, lengths: L})
    RESULTS["train_mode_shape"] = list(sess.run(pooled, {words: X, lengths: L, training: True,
                                                         keep_prob: 0.5}).shape)
    RESULTS["step"] = sess.run(global_step)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
