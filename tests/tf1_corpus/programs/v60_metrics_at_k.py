"""tf.metrics at k (recall/precision of the top-k classes, as sets) and sensitivity/specificity at an operating
point, streamed over batches, with weights, class ids, names and collections."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

labels = tf.placeholder(tf.int64, [None], name="labels")
multi = tf.placeholder(tf.int64, [None, 2], name="multi")
scores = tf.placeholder(tf.float32, [None, 5], name="scores")
weights = tf.placeholder(tf.float32, [None], name="weights")
binary = tf.placeholder(tf.bool, [None], name="binary")
probs = tf.placeholder(tf.float32, [None], name="probs")

r2, r2_up = tf.metrics.recall_at_k(labels, scores, 2)
p2, p2_up = tf.metrics.precision_at_k(labels, scores, 2)
r3c, r3c_up = tf.metrics.recall_at_k(multi, scores, 3, class_id=1)
p1w, p1w_up = tf.metrics.precision_at_k(labels, scores, 1, weights=weights, name="weighted_p1")
_, top_idx = tf.nn.top_k(scores, 3)
rt, rt_up = tf.metrics.recall_at_top_k(multi, top_idx, k=3, metrics_collections=["my_metrics"])
pt, pt_up = tf.metrics.precision_at_top_k(multi, top_idx, updates_collections=["my_updates"])
sp, sp_up = tf.metrics.sparse_precision_at_k(multi, scores, 2)
ss, ss_up = tf.metrics.sensitivity_at_specificity(binary, probs, 0.6, num_thresholds=11)
sps, sps_up = tf.metrics.specificity_at_sensitivity(binary, probs, 0.5)
ssw, ssw_up = tf.metrics.sensitivity_at_specificity(binary, probs, 0.4, weights=weights[:6])

RESULTS["names"] = [t.name for t in (r2, r2_up, r3c, r3c_up, p1w, rt, pt, pt_up, sp, ss, ss_up, sps_up)]
RESULTS["dtypes"] = [t.dtype.name for t in (r2, p2, ss, sps)]
RESULTS["local_variables"] = sorted(v.name for v in tf.local_variables())
RESULTS["collections"] = [[t.name for t in tf.get_collection("my_metrics")],
                          [t.name for t in tf.get_collection("my_updates")]]
for bad in (lambda: tf.metrics.sensitivity_at_specificity(binary, probs, 1.5),
            lambda: tf.metrics.specificity_at_sensitivity(binary, probs, -0.1)):
    try:
        bad()
    except ValueError as e:
        RESULTS.setdefault("errors", []).append(str(e))

rng = np.random.RandomState(0)
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    RESULTS["before"] = sess.run([r2, p2])
    for step in range(3):
        feed = {labels: rng.randint(0, 5, 8), multi: rng.randint(0, 5, (8, 2)),
                scores: rng.rand(8, 5).astype(np.float32), weights: rng.rand(8).astype(np.float32),
                binary: rng.rand(6) > 0.5, probs: rng.rand(6).astype(np.float32)}
        RESULTS[f"updates_{step}"] = sess.run(
            [r2_up, p2_up, r3c_up, p1w_up, rt_up, pt_up, sp_up, ss_up, sps_up, ssw_up], feed)
    RESULTS["values"] = sess.run([r2, p2, r3c, p1w, rt, pt, sp, ss, sps, ssw])
