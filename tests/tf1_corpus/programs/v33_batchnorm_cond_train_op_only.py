# A batch-norm helper updating its moving averages inside the true branch of a tf.cond, trained by
# running the train op alone (its loss not fetched): the gradient needs the cond's forward pass,
# so the updates run with every step.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-4, "atol": 1e-5}


def batch_norm(x, is_training, decay=0.9):
    n = x.get_shape()[-1]
    scale = tf.Variable(tf.ones([n]))
    beta = tf.Variable(tf.zeros([n]))
    pop_mean = tf.Variable(tf.zeros([n]), trainable=False)
    pop_var = tf.Variable(tf.ones([n]), trainable=False)

    def train():
        batch_mean, batch_var = tf.nn.moments(x, [0])
        train_mean = tf.assign(pop_mean, pop_mean * decay + batch_mean * (1 - decay))
        train_var = tf.assign(pop_var, pop_var * decay + batch_var * (1 - decay))
        with tf.control_dependencies([train_mean, train_var]):
            return tf.nn.batch_normalization(x, batch_mean, batch_var, beta, scale, 1e-3)

    def test():
        return tf.nn.batch_normalization(x, pop_mean, pop_var, beta, scale, 1e-3)

    return tf.cond(is_training, train, test), pop_mean, pop_var


rng = np.random.RandomState(3)
x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
is_training = tf.placeholder(tf.bool, [])
h = x
stats = []
for i in range(3):
    with tf.variable_scope(f"bn{i + 1}"):
        w = tf.Variable(rng.normal(0, 0.5, (int(h.get_shape()[-1]), 5)).astype(np.float32), name="w")
        out, m, v = batch_norm(tf.matmul(h, w), is_training)
        h = tf.nn.sigmoid(out)
        stats += [m, v]
loss = tf.reduce_mean(tf.square(tf.reduce_sum(h, 1, keepdims=True) - y))
train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
xs = rng.normal(size=(8, 4)).astype(np.float32)
ys = rng.normal(size=(8, 1)).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(train_op, {x: xs, y: ys, is_training: True})
    RESULTS["moving_stats_after_train_op_only"] = sess.run(stats)
    RESULTS["eval_loss"] = float(sess.run(loss, {x: xs, y: ys, is_training: False}))
    _, RESULTS["train_loss"] = sess.run([train_op, loss], {x: xs, y: ys, is_training: True})
    RESULTS["moving_stats_after"] = sess.run(stats)
