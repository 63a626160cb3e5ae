# word2vec (aymericdamien / TF tutorial style): embeddings, nce_loss, sampled_softmax, cosine similarity.
import collections

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
text = "the quick brown fox jumps over the lazy dog the fox is quick and the dog is lazy".split()
count = [("UNK", -1)]
count.extend(collections.Counter(text).most_common(9))
word2id = {w: i for i, (w, _) in enumerate(count)}
data = [word2id.get(w, 0) for w in text]
vocab_size, emb_size, num_sampled = len(count), 4, 3
rng = np.random.RandomState(0)
batch = np.array(data[:8], np.int32)
labels_np = np.array(data[1:9], np.int64).reshape(-1, 1)
emb_init = rng.uniform(-1, 1, (vocab_size, emb_size)).astype(np.float32)

X = tf.placeholder(tf.int32, shape=[None])
Y = tf.placeholder(tf.int64, shape=[None, 1])
embedding = tf.Variable(emb_init, name="embedding")
X_embed = tf.nn.embedding_lookup(embedding, X)
nce_weights = tf.Variable(tf.truncated_normal([vocab_size, emb_size], stddev=1.0 / np.sqrt(emb_size)))
nce_biases = tf.Variable(tf.zeros([vocab_size]))
loss_op = tf.reduce_mean(tf.nn.nce_loss(weights=nce_weights, biases=nce_biases, labels=Y, inputs=X_embed,
                                        num_sampled=num_sampled, num_classes=vocab_size))
sm_loss = tf.nn.sampled_softmax_loss(nce_weights, nce_biases, Y, X_embed, num_sampled, vocab_size)
optimizer = tf.train.GradientDescentOptimizer(0.1)
train_op = optimizer.minimize(loss_op)
X_norm = tf.sqrt(tf.reduce_sum(tf.square(embedding), 1, keepdims=True))
normalized = embedding / X_norm
valid = tf.constant([1, 2], dtype=tf.int32)
val_embed = tf.nn.embedding_lookup(normalized, valid)
similarity = tf.matmul(val_embed, normalized, transpose_b=True)
top = tf.nn.top_k(similarity, k=3)
p1 = tf.Variable(emb_init[:5])
p2 = tf.Variable(emb_init[5:])
ids = tf.constant([0, 3, 6, 9, 1])
mod_lookup = tf.nn.embedding_lookup([p1, p2], ids, partition_strategy="mod")
div_lookup = tf.nn.embedding_lookup([p1, p2], ids, partition_strategy="div")
max_norm = tf.nn.embedding_lookup(embedding, ids, max_norm=0.5)
cand = tf.nn.uniform_candidate_sampler(Y, 1, 4, True, vocab_size)
cand2 = tf.nn.log_uniform_candidate_sampler(Y, 1, 4, True, vocab_size)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    fd = {X: batch, Y: labels_np}
    RESULTS["sm_shape"] = sess.run(sm_loss, fd).shape
    RESULTS["embed"] = sess.run(X_embed, {X: [1, 2]})
    RESULTS["sim"] = sess.run(similarity)
    RESULTS["top"] = sess.run(top)
    RESULTS["lookups"] = sess.run([mod_lookup, div_lookup, max_norm])
    losses = [sess.run([train_op, loss_op], fd)[1] for _ in range(3)]
    RESULTS["loss_finite"] = bool(np.all(np.isfinite(losses)))
    RESULTS["loss_type"] = type(losses[0]).__name__
    c = sess.run(cand, fd)
    RESULTS["cand_shapes"] = [np.shape(a) for a in c]
    RESULTS["cand_dtypes"] = [a.dtype.name for a in c]
    RESULTS["cand_range"] = bool(np.all((c[0] >= 0) & (c[0] < vocab_size)))
    c2 = sess.run(cand2, fd)
    RESULTS["cand2_shapes"] = [np.shape(a) for a in c2]
RESULTS["static"] = [t.shape.as_list() for t in (X_embed, sm_loss, similarity, mod_lookup, cand[0], cand[1])]
RESULTS["names"] = [t.name for t in (X_embed, loss_op, top.indices)]
RESULTS["top_type"] = type(top).__name__
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
