"""TF1 evaluation loop with streaming metrics over batches (tf.metrics)."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

labels = tf.placeholder(tf.int64, [None])
preds = tf.placeholder(tf.int64, [None])
probs = tf.placeholder(tf.float32, [None])
w = tf.placeholder(tf.float32, [None])

acc, acc_op = tf.metrics.accuracy(labels, preds, weights=w, name="acc")
prec, prec_op = tf.metrics.precision(labels, preds)
rec, rec_op = tf.metrics.recall(labels, preds)
auc, auc_op = tf.metrics.auc(labels, probs, num_thresholds=50)
mse, mse_op = tf.metrics.mean_squared_error(tf.cast(labels, tf.float32), probs)
mean, mean_op = tf.metrics.mean(probs, weights=w)

RESULTS["acc_dtype"] = acc.dtype.name
RESULTS["acc_op_shape"] = acc_op.shape.as_list()
RESULTS["local_names"] = sorted(v.op.name for v in tf.local_variables())

rng = np.random.RandomState(0)
batches = []
for _ in range(3):
    y = rng.randint(0, 2, 8)
    p = rng.rand(8).astype(np.float32)
    batches.append((y, (p > 0.5).astype(np.int64), p, rng.rand(8).astype(np.float32)))

with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    for i, (y, yp, p, ww) in enumerate(batches):
        out = sess.run([acc_op, prec_op, rec_op, auc_op, mse_op, mean_op],
                       {labels: y, preds: yp, probs: p, w: ww})
        RESULTS["updates_%d" % i] = [float(x) for x in out]
    RESULTS["final"] = [float(x) for x in sess.run([acc, prec, rec, auc, mse, mean])]
    sess.run(tf.local_variables_initializer())
    RESULTS["reset_acc"] = float(sess.run(acc))

TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
