# tf.metrics.* streaming with local_variables_initializer and confusion matrices (Hvass style).
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
rng = np.random.RandomState(3)
labels_np = rng.randint(0, 3, size=(3, 8))
preds_np = rng.randint(0, 3, size=(3, 8))
scores_np = rng.rand(3, 8).astype(np.float32)
bin_np = rng.randint(0, 2, size=(3, 8))

labels = tf.placeholder(tf.int64, [None])
preds = tf.placeholder(tf.int64, [None])
scores = tf.placeholder(tf.float32, [None])
blab = tf.placeholder(tf.bool, [None])
acc, acc_up = tf.metrics.accuracy(labels, preds)
miou, miou_up = tf.metrics.mean_iou(labels, preds, num_classes=3)
auc, auc_up = tf.metrics.auc(blab, scores, num_thresholds=50)
auc_pr, auc_pr_up = tf.metrics.auc(blab, scores, curve="PR", num_thresholds=50)
prec, prec_up = tf.metrics.precision(blab, scores > 0.5)
rec, rec_up = tf.metrics.recall(blab, scores > 0.5)
mean, mean_up = tf.metrics.mean(scores)
mae, mae_up = tf.metrics.mean_absolute_error(tf.cast(labels, tf.float32), tf.cast(preds, tf.float32))
rmse, rmse_up = tf.metrics.root_mean_squared_error(tf.cast(labels, tf.float32), tf.cast(preds, tf.float32))
mpca, mpca_up = tf.metrics.mean_per_class_accuracy(labels, preds, 3)
tp, tp_up = tf.metrics.true_positives(blab, scores > 0.5)
fn, fn_up = tf.metrics.false_negatives(blab, scores > 0.5)
pat, pat_up = tf.metrics.precision_at_thresholds(blab, scores, [0.25, 0.5, 0.75])
cm = tf.confusion_matrix(labels, preds, num_classes=3)
cm2 = tf.math.confusion_matrix(labels, preds, num_classes=4, weights=tf.ones_like(labels) * 2, dtype=tf.int64)
cm3 = tf.confusion_matrix(labels, preds)
correct = tf.equal(tf.argmax(tf.one_hot(preds, 3), 1), labels)
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
ups = [acc_up, miou_up, auc_up, auc_pr_up, prec_up, rec_up, mean_up, mae_up, rmse_up, mpca_up, tp_up, fn_up, pat_up]
vals = [acc, miou, auc, auc_pr, prec, rec, mean, mae, rmse, mpca, tp, fn, pat]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(tf.local_variables_initializer())
    step_vals = []
    for i in range(3):
        fd = {labels: labels_np[i], preds: preds_np[i], scores: scores_np[i], blab: bin_np[i].astype(bool)}
        step_vals.append(sess.run(ups, fd))
        RESULTS["cm_%d" % i] = sess.run(cm, fd)
        RESULTS["accuracy_%d" % i] = sess.run(accuracy, fd)
    RESULTS["cm2"] = sess.run(cm2, fd)
    RESULTS["cm3"] = sess.run(cm3, fd)
    RESULTS["final"] = sess.run(vals)
    RESULTS["updates"] = step_vals
RESULTS["n_local"] = len(tf.local_variables())
RESULTS["local_names"] = [v.name for v in tf.local_variables()]
RESULTS["metric_vars"] = len(tf.get_collection(tf.GraphKeys.METRIC_VARIABLES))
RESULTS["cm_dtype"] = [cm.dtype.name, cm2.dtype.name, cm.shape.as_list(), cm3.shape.as_list()]
RESULTS["names"] = [acc.name, acc_up.name, miou.name, auc.name, cm.name]
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
