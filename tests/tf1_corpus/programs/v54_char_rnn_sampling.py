"""Char-RNN (karpathy/sherjilozair style): GRU stack over one-hot chars, loss by
sequence_loss-by-hand, gradient clipping, then a sampling loop that feeds the
state tuple back and draws with tf.multinomial / tf.random.categorical
(shapes and dtypes only: random streams differ), top_k, in_top_k."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
text = "hello world, hello tensorflow"
chars = sorted(set(text))
vocab = {c: i for i, c in enumerate(chars)}
V, H, B, T = len(chars), 8, 2, 6
data = np.array([vocab[c] for c in text], np.int32)

input_data = tf.placeholder(tf.int32, [None, None], name="input_data")
targets = tf.placeholder(tf.int32, [None, None], name="targets")
cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(H) for _ in range(2)])
batch_size = tf.shape(input_data)[0]
initial_state = cell.zero_state(batch_size, tf.float32)
with tf.variable_scope("rnnlm"):
    softmax_w = tf.get_variable("softmax_w", [H, V], initializer=tf.constant_initializer(
        np.cos(np.arange(H * V)).reshape(H, V) * 0.3))
    softmax_b = tf.get_variable("softmax_b", [V], initializer=tf.zeros_initializer())
    embedding = tf.get_variable("embedding", [V, H], initializer=tf.constant_initializer(
        np.sin(np.arange(V * H)).reshape(V, H) * 0.5))
inputs = tf.nn.embedding_lookup(embedding, input_data)
outputs, last_state = tf.nn.dynamic_rnn(cell, inputs, initial_state=initial_state, scope="rnnlm")
output = tf.reshape(outputs, [-1, H])
logits = tf.matmul(output, softmax_w) + softmax_b
probs = tf.nn.softmax(logits)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
    labels=tf.reshape(targets, [-1]), logits=logits))
tvars = tf.trainable_variables()
grads, _ = tf.clip_by_global_norm(tf.gradients(loss, tvars), 1.0)
train_op = tf.train.AdamOptimizer(0.01).apply_gradients(zip(grads, tvars))

temperature = tf.placeholder_with_default(1.0, [], name="temperature")
sample_mn = tf.multinomial(logits / temperature, num_samples=1)
sample_cat = tf.random.categorical(logits, 3, dtype=tf.int32, seed=7)
top_vals, top_idx = tf.nn.top_k(probs, k=3)
in_top = tf.nn.in_top_k(logits, tf.reshape(targets, [-1]), 2)
argmax_pred = tf.argmax(probs, 1)

RESULTS["vars"] = [(v.name, v.shape.as_list()) for v in tvars]
RESULTS["state_shapes"] = [s.shape.as_list() for s in last_state]
RESULTS["init_state_shapes"] = [s.shape.as_list() for s in initial_state]
RESULTS["sample_meta"] = [sample_mn.dtype.name, sample_mn.shape.as_list(), sample_cat.dtype.name,
                          sample_cat.shape.as_list(), top_idx.dtype.name, in_top.dtype.name]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for v in tvars:
        if "gates/kernel" in v.name or "candidate/kernel" in v.name:
            shape = v.shape.as_list()
            sess.run(v.assign(0.1 * np.cos(np.arange(np.prod(shape)) * 0.7).reshape(shape).astype(np.float32)))
    hist = []
    state = sess.run(initial_state, {input_data: np.zeros([B, T], np.int32)})
    for step in range(3):
        x = np.stack([data[step + i * 7: step + i * 7 + T] for i in range(B)])
        y = np.stack([data[step + i * 7 + 1: step + i * 7 + T + 1] for i in range(B)])
        feed = {input_data: x, targets: y}
        for i, s in enumerate(initial_state):
            feed[s] = state[i]
        l, state, _ = sess.run([loss, last_state, train_op], feed)
        hist.append(l)
    RESULTS["losses"] = np.array(hist)
    RESULTS["state_type"] = type(state).__name__
    RESULTS["state"] = state
    tv, ti, it = sess.run([top_vals, top_idx, in_top], {input_data: x, targets: y})
    RESULTS["top_vals"], RESULTS["top_idx"], RESULTS["in_top"] = tv, ti, it
    # sampling: one char at a time, state fed back
    st = sess.run(cell.zero_state(1, tf.float32))
    ch = np.array([[vocab["h"]]], np.int32)
    drawn = []
    for n in range(5):
        feed = {input_data: ch, temperature: 0.5}
        for i, s in enumerate(initial_state):
            feed[s] = st[i]
        p, st, mn, cat, am = sess.run([probs, last_state, sample_mn, sample_cat, argmax_pred], feed)
        drawn.append(int(mn[0, 0]))
        ch = np.array([[am[0]]], np.int32)
        if n == 0:
            RESULTS["first_probs"] = p
            RESULTS["mn_shape_dtype"] = [list(mn.shape), mn.dtype.name, list(cat.shape), cat.dtype.name]
    RESULTS["drawn_in_range"] = all(0 <= d < V for d in drawn)
    RESULTS["greedy_last"] = ch
    RESULTS["argmax_dtype"] = am.dtype.name
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
