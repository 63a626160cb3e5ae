"""Threshold metrics, mean_iou, mean_per_class_accuracy and metric collections."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

y = tf.constant([False, True, True, False, True, True, False, False])
p = tf.constant([0.1, 0.8, 0.4, 0.6, 0.9, 0.3, 0.2, 0.7])
tp, tp_op = tf.metrics.true_positives_at_thresholds(y, p, [0.25, 0.5, 0.75])
pr, pr_op = tf.metrics.precision_at_thresholds(y, p, [0.25, 0.5, 0.75],
                                               metrics_collections=["mvals"],
                                               updates_collections=["mups"])
fn, fn_op = tf.metrics.false_negatives(y, p > 0.5)
lab = tf.constant([0, 1, 2, 2, 1, 0])
pred = tf.constant([0, 2, 2, 1, 1, 0])
iou, iou_op = tf.metrics.mean_iou(lab, pred, num_classes=3)
pca, pca_op = tf.metrics.mean_per_class_accuracy(lab, pred, num_classes=3)
pb, pb_op = tf.metrics.percentage_below(tf.constant([1.0, 5.0, 3.0, 7.0]), 4.0)
mt, mt_op = tf.metrics.mean_tensor(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
rmse, rmse_op = tf.metrics.root_mean_squared_error(tf.constant([1.0, 2.0]), tf.constant([2.0, 4.0]))

RESULTS["tp_shape"] = tp.shape.as_list()
RESULTS["iou_op_shape"] = iou_op.shape.as_list()
RESULTS["iou_op_dtype"] = iou_op.dtype.name
RESULTS["mvals"] = [t.name for t in tf.get_collection("mvals")]
RESULTS["mups"] = [t.name for t in tf.get_collection("mups")]
RESULTS["n_local"] = len(tf.local_variables())

with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    for _ in range(2):
        sess.run([tp_op, pr_op, fn_op, iou_op, pca_op, pb_op, mt_op, rmse_op])
    r = sess.run([tp, pr, fn, iou, pca, pb, mt, rmse])
    for k, v in zip(["tp", "pr", "fn", "iou", "pca", "pb", "mt", "rmse"], r):
        RESULTS[k] = np.asarray(v).tolist()

TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
