"""tf.metrics.average_precision_at_k / sparse_average_precision_at_k: streaming mean average
precision over fed batches, with weights, [batch] and [batch, num_labels] labels."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
rng = np.random.RandomState(11)
preds = tf.placeholder(tf.float32, [None, 6])
labels = tf.placeholder(tf.int64, [None, 3])
labels1 = tf.placeholder(tf.int64, [None])
weights = tf.placeholder(tf.float32, [None])
m3, u3 = tf.metrics.average_precision_at_k(labels, preds, 3)
m1, u1 = tf.metrics.average_precision_at_k(labels1, preds, 2, name="ap_single")
mw, uw = tf.metrics.sparse_average_precision_at_k(labels, preds, 5, weights=weights)
m6, u6 = tf.metrics.average_precision_at_k(labels, preds, 6)
RESULTS["names"] = sorted(v.name for v in tf.local_variables())
RESULTS["tensors"] = [m3.name, u3.name, m1.name, mw.name, uw.name]
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    RESULTS["before"] = sess.run([m3, mw])
    for step in range(3):
        p = rng.permutation(np.linspace(0, 1, 4 * 6)).reshape(4, 6).astype(np.float32)
        lab = np.stack([rng.choice(6, 3, replace=False) for _ in range(4)])
        lab[0, 2] = lab[0, 1]  # a repeated label: TF's dense labels count columns
        feed = {preds: p, labels: lab, labels1: lab[:, 0], weights: rng.uniform(0, 2, 4).astype(np.float32)}
        RESULTS[f"update_{step}"] = sess.run([u3, u1, uw, u6], feed)
    RESULTS["final"] = sess.run([m3, m1, mw, m6])
for name, fn in [("k0", lambda: tf.metrics.average_precision_at_k(labels, preds, 0))]:
    try:
        fn()
        RESULTS[name] = "no error"
    except Exception as e:  # noqa: BLE001
        RESULTS[name] = type(e).__name__
