import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

labels = tf.placeholder(tf.int64, [None], name="labels")
preds = tf.placeholder(tf.int64, [None], name="preds")
scores = tf.placeholder(tf.float32, [None], name="scores")
vecs = tf.placeholder(tf.float32, [None, 2], name="vecs")
w = tf.placeholder(tf.float32, [None], name="w")
row = tf.placeholder(tf.float32, [2], name="row")

thresholds = [0.25, 0.5, 0.75]
is_pos = tf.equal(labels, 1)
metrics = {
    "mpca": tf.metrics.mean_per_class_accuracy(labels, preds, 3),
    "mpca_w": tf.metrics.mean_per_class_accuracy(labels, preds, 3, weights=w),
    "mean_tensor": tf.metrics.mean_tensor(row),
    "mre": tf.metrics.mean_relative_error(tf.cast(labels, tf.float32), scores, normalizer=tf.cast(preds, tf.float32)),
    "cos": tf.metrics.mean_cosine_distance(vecs, vecs * 0.5, dim=1),
    "tp_t": tf.metrics.true_positives_at_thresholds(is_pos, scores, thresholds),
    "fp_t": tf.metrics.false_positives_at_thresholds(is_pos, scores, thresholds),
    "tn_t": tf.metrics.true_negatives_at_thresholds(is_pos, scores, thresholds),
    "fn_t": tf.metrics.false_negatives_at_thresholds(is_pos, scores, thresholds, weights=w),
    "prec_t": tf.metrics.precision_at_thresholds(is_pos, scores, thresholds),
    "rec_t": tf.metrics.recall_at_thresholds(is_pos, scores, thresholds),
}
names = sorted(metrics)
RESULTS["local_variables"] = [v.name for v in tf.local_variables()]
RESULTS["local_shapes"] = [v.shape.as_list() for v in tf.local_variables()]
RESULTS["value_names"] = [metrics[k][0].name for k in ("mean_tensor", "prec_t", "rec_t")]
RESULTS["shapes"] = {k: [metrics[k][0].shape.as_list(), metrics[k][1].shape.as_list()] for k in names}

feeds = [
    {labels: [0, 1, 1, 2], preds: [0, 1, 2, 2], scores: [0.1, 0.8, 0.4, 0.6], w: [1.0, 2.0, 0.5, 1.0],
     vecs: [[0.6, 0.8], [1.0, 0.0], [0.0, 1.0], [0.8, 0.6]], row: [1.0, 2.0]},
    {labels: [1, 0, 2], preds: [1, 1, 0], scores: [0.9, 0.3, 0.2], w: [1.0, 1.0, 3.0],
     vecs: [[0.0, 1.0], [0.6, 0.8], [1.0, 0.0]], row: [3.0, -1.0]},
]
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    for i, feed in enumerate(feeds):
        RESULTS[f"update_{i}"] = sess.run({k: metrics[k][1] for k in names}, feed)
    RESULTS["values"] = sess.run({k: metrics[k][0] for k in names})

TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
