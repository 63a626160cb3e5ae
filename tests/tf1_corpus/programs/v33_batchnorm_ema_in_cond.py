# The batch-norm helper of a much-copied TF1 answer: an ExponentialMovingAverage applied
# inside the true branch of a tf.cond (phase_train), its averages read in the false branch.
# Three such layers in a small CNN, trained a few steps, then evaluated.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-4, "atol": 1e-5}


def batch_norm(x, n_out, phase_train, scope):
    with tf.variable_scope(scope):
        beta = tf.Variable(tf.constant(0.0, shape=[n_out]), name="beta", trainable=True)
        gamma = tf.Variable(tf.constant(1.0, shape=[n_out]), name="gamma", trainable=True)
        batch_mean, batch_var = tf.nn.moments(x, [0, 1, 2], name="moments")
        ema = tf.train.ExponentialMovingAverage(decay=0.5)

        def mean_var_with_update():
            ema_apply_op = ema.apply([batch_mean, batch_var])
            with tf.control_dependencies([ema_apply_op]):
                return tf.identity(batch_mean), tf.identity(batch_var)

        mean, var = tf.cond(phase_train, mean_var_with_update,
                            lambda: (ema.average(batch_mean), ema.average(batch_var)))
        return tf.nn.batch_normalization(x, mean, var, beta, gamma, 1e-3)


rng = np.random.RandomState(1)
images = tf.placeholder(tf.float32, [None, 6, 6, 2])
labels = tf.placeholder(tf.float32, [None, 1])
phase_train = tf.placeholder(tf.bool, name="phase_train")
h = images
for i, ch in enumerate([4, 4, 3]):
    k = tf.Variable(rng.normal(0, 0.3, (3, 3, int(h.get_shape()[-1]), ch)).astype(np.float32), name=f"k{i + 1}")
    h = tf.nn.relu(batch_norm(tf.nn.conv2d(h, k, [1, 1, 1, 1], "SAME"), ch, phase_train, f"bn{i + 1}"))
w = tf.Variable(rng.normal(0, 0.3, (6 * 6 * 3, 1)).astype(np.float32), name="w")
pred = tf.matmul(tf.reshape(h, [-1, 6 * 6 * 3]), w)
loss = tf.reduce_mean(tf.square(pred - labels))
train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)

xs = rng.normal(size=(8, 6, 6, 2)).astype(np.float32)
ys = rng.normal(size=(8, 1)).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    losses = []
    for _ in range(4):
        _, l = sess.run([train, loss], {images: xs, labels: ys, phase_train: True})
        losses.append(float(l))
    RESULTS["train_losses"] = losses
    RESULTS["eval_loss"] = float(sess.run(loss, {images: xs, labels: ys, phase_train: False}))
    RESULTS["ema_names"] = sorted(v.op.name for v in tf.global_variables() if "ExponentialMovingAverage" in v.op.name)
