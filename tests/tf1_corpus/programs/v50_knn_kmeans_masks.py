# k-NN with top_k + unique_with_counts majority vote, k-means by hand, boolean_mask / where on fed data.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
rng = np.random.RandomState(11)
centers = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 5.0]], np.float32)
X = np.concatenate([c + rng.randn(10, 2).astype(np.float32) * 0.5 for c in centers])
Y = np.repeat(np.arange(3), 10).astype(np.int32)
Xq = centers + 0.3

# --- k-NN ---
train_x = tf.placeholder(tf.float32, [None, 2])
train_y = tf.placeholder(tf.int32, [None])
query = tf.placeholder(tf.float32, [2])
K = 5
dist = tf.reduce_sum(tf.abs(tf.subtract(train_x, query)), axis=1)
_, nn_idx = tf.nn.top_k(tf.negative(dist), k=K)
nn_labels = tf.gather(train_y, nn_idx)
y, idx, count = tf.unique_with_counts(nn_labels)
pred = tf.slice(y, begin=[tf.argmax(count, 0)], size=tf.constant([1], dtype=tf.int64))
pred2 = tf.gather(y, tf.argmax(count))
votes = tf.bincount(nn_labels, minlength=3)

# --- k-means by hand ---
points = tf.constant(X)
init_c = tf.constant(X[[0, 10, 20]] + 1.0)
centroids = tf.Variable(init_c, name="centroids")
expanded_vectors = tf.expand_dims(points, 0)
expanded_centroids = tf.expand_dims(centroids, 1)
distances = tf.reduce_sum(tf.square(tf.subtract(expanded_vectors, expanded_centroids)), 2)
assignments = tf.argmin(distances, 0)
sums = tf.unsorted_segment_sum(points, assignments, 3)
cnts = tf.unsorted_segment_sum(tf.ones_like(points), assignments, 3)
means = sums / cnts
update_centroids = tf.assign(centroids, means)
cluster_sizes = tf.bincount(tf.cast(assignments, tf.int32), minlength=3, maxlength=3)
parts = tf.dynamic_partition(points, tf.cast(assignments, tf.int32), 3)

# --- masks on fed data ---
scores = tf.placeholder(tf.float32, [None])
labels = tf.placeholder(tf.float32, [None])
w = tf.Variable(1.5)
valid = tf.not_equal(labels, -1.0)
masked_scores = tf.boolean_mask(scores * w, valid)
masked_labels = tf.boolean_mask(labels, valid)
masked_loss = tf.reduce_mean(tf.square(masked_scores - masked_labels))
grad_w = tf.gradients(masked_loss, w)[0]
pos_idx = tf.where(scores > 0.5)
n_pos = tf.shape(pos_idx)[0]
uniq, uidx = tf.unique(tf.cast(tf.round(scores * 2), tf.int32))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    preds = []
    for q in Xq:
        fd = {train_x: X, train_y: Y, query: q}
        preds.append(sess.run([pred, pred2, votes, count], fd))
    RESULTS["knn"] = preds
    for step in range(4):
        _, a = sess.run([update_centroids, assignments])
    RESULTS["centroids"] = sess.run(centroids)
    RESULTS["assign"] = a
    RESULTS["sizes"] = sess.run(cluster_sizes)
    RESULTS["parts"] = sess.run(parts)
    sv = np.array([0.2, 0.9, 0.7, 0.1, 0.6], np.float32)
    lv = np.array([0.0, 1.0, -1.0, 0.0, -1.0], np.float32)
    RESULTS["masked"] = sess.run([masked_scores, masked_labels, masked_loss, grad_w, pos_idx, n_pos],
                                 {scores: sv, labels: lv})
    RESULTS["uniq"] = sess.run([uniq, uidx], {scores: sv})
RESULTS["shapes"] = [t.shape.as_list() for t in (pred, pred2, y, count, votes, masked_scores, pos_idx, uniq, parts[0])]
RESULTS["dtypes"] = [t.dtype.name for t in (pred, count, votes, pos_idx, assignments, uidx)]
RESULTS["names"] = [t.name for t in (y, count, votes, masked_scores, pos_idx, uniq, means)]
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
