"""Which gradients are None (argmax, casts, comparisons, rounding, stop_gradient), as TF; slots and keys."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

x = tf.placeholder(tf.float32, [None, 3], name="x")
labels = tf.placeholder(tf.int64, [None], name="labels")
W = tf.Variable(np.array([[0.1, -0.2], [0.3, 0.1], [-0.1, 0.2]], np.float32), name="W")
b = tf.Variable(np.zeros([2], np.float32), name="b")
unused = tf.Variable(1.0, name="unused")
logits = tf.matmul(x, W) + b
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
correct = tf.equal(tf.argmax(logits, 1), labels)
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
rounded = tf.reduce_sum(tf.round(logits))
floored = tf.reduce_sum(tf.floor(logits) * 2.0)
stopped = tf.reduce_sum(tf.stop_gradient(logits))
straight = tf.reduce_sum(logits + tf.stop_gradient(tf.round(logits) - logits))
as_int = tf.reduce_sum(tf.cast(tf.cast(logits, tf.int32), tf.float32))
mixed = accuracy + tf.reduce_sum(b)
signed = tf.reduce_sum(tf.sign(logits))

cases = {"loss": loss, "accuracy": accuracy, "rounded": rounded, "floored": floored, "stopped": stopped,
         "straight": straight, "as_int": as_int, "mixed": mixed, "signed": signed}
grads = {k: tf.gradients(v, [W, b, unused, x]) for k, v in cases.items()}
RESULTS["is_none"] = {k: [g is None for g in gs] for k, gs in grads.items()}

opt = tf.train.GradientDescentOptimizer(0.5)
gvs = opt.compute_gradients(mixed)
RESULTS["computed"] = [(v.op.name, g is None) for g, v in gvs]
try:
    opt.minimize(accuracy)
    RESULTS["minimize_accuracy"] = None
except ValueError as e:
    RESULTS["minimize_accuracy"] = type(e).__name__
clipped = [(tf.clip_by_norm(g, 1.0), v) for g, v in gvs if g is not None]
train = opt.apply_gradients(clipped)

xv = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0], [-1.0, 0.0, 1.0]], np.float32)
yv = np.array([0, 1, 1], np.int64)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    fetch = {k: [g for g in gs if g is not None] for k, gs in grads.items()}
    RESULTS["values"] = sess.run(fetch, {x: xv, labels: yv})
    for _ in range(3):
        sess.run(train, {x: xv, labels: yv})
    RESULTS["after"] = sess.run([W, b, accuracy], {x: xv, labels: yv})
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
