"""auc variants (PR, summation methods), mean_relative_error, mean_cosine_distance, shape errors."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
y = tf.constant([0, 1, 1, 0, 1, 0, 1, 1])
p = tf.constant([0.2, 0.7, 0.6, 0.4, 0.9, 0.1, 0.3, 0.8])
ops = {}
for curve in ["ROC", "PR"]:
    for method in ["trapezoidal", "minoring", "majoring", "careful_interpolation"]:
        ops[curve + "_" + method] = tf.metrics.auc(y, p, num_thresholds=20, curve=curve,
                                                   summation_method=method)
mre = tf.metrics.mean_relative_error(tf.constant([1.0, 2.0, 4.0]), tf.constant([1.5, 2.0, 3.0]),
                                     normalizer=tf.constant([1.0, 2.0, 4.0]))
cos = tf.metrics.mean_cosine_distance(tf.constant([[1.0, 0.0], [0.0, 1.0]]),
                                      tf.constant([[0.6, 0.8], [0.0, 1.0]]), dim=1)
try:
    tf.metrics.accuracy(tf.constant([1, 2, 3]), tf.constant([1, 2]))
except Exception as e:
    RESULTS["shape_error"] = type(e).__name__
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    sess.run([u for _, u in ops.values()] + [mre[1], cos[1]])
    for k, (v, _) in sorted(ops.items()):
        RESULTS[k] = float(sess.run(v))
    RESULTS["mre"] = float(sess.run(mre[0]))
    RESULTS["cos"] = float(sess.run(cos[0]))

TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
