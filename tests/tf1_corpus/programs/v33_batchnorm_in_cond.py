# A batch-norm helper of TF1 tutorials: the moving averages are assigned inside the true
# branch of a tf.cond (is_training), the batch statistics normalise there; the false branch
# reads the moving averages. Three such layers, trained a few steps, then evaluated.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(7)

RESULTS = {}
TOLERANCE = {"rtol": 2e-4, "atol": 1e-5}


moving = {}


def batch_norm(x, is_training, scope, decay=0.9):
    with tf.variable_scope(scope):
        size = x.get_shape()[-1]
        beta = tf.Variable(tf.zeros([size]), name="beta")
        gamma = tf.Variable(tf.ones([size]), name="gamma")
        pop_mean = tf.Variable(tf.zeros([size]), trainable=False, name="pop_mean")
        pop_var = tf.Variable(tf.ones([size]), trainable=False, name="pop_var")

        def training():
            mean, var = tf.nn.moments(x, [0])
            update_mean = tf.assign(pop_mean, pop_mean * decay + mean * (1 - decay))
            update_var = tf.assign(pop_var, pop_var * decay + var * (1 - decay))
            with tf.control_dependencies([update_mean, update_var]):
                return tf.nn.batch_normalization(x, mean, var, beta, gamma, 1e-3)

        def inference():
            return tf.nn.batch_normalization(x, pop_mean, pop_var, beta, gamma, 1e-3)

        moving[scope] = (pop_mean, pop_var)
        return tf.cond(is_training, training, inference)


x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
is_training = tf.placeholder(tf.bool, [])
rng = np.random.RandomState(0)
h = x
for i, width in enumerate([8, 8, 6]):
    w = tf.Variable(rng.normal(0, 0.5, (int(h.get_shape()[-1]), width)).astype(np.float32), name=f"w{i + 1}")
    h = tf.nn.relu(batch_norm(tf.matmul(h, w), is_training, f"bn{i + 1}"))
w_out = tf.Variable(rng.normal(0, 0.5, (6, 1)).astype(np.float32), name="w_out")
pred = tf.matmul(h, w_out)
loss = tf.reduce_mean(tf.square(pred - y))
train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)

xs = rng.normal(size=(16, 4)).astype(np.float32)
ys = (xs.sum(1, keepdims=True) > 0).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    losses = []
    for _ in range(5):
        _, l = sess.run([train, loss], {x: xs, y: ys, is_training: True})
        losses.append(float(l))
    RESULTS["train_losses"] = losses
    RESULTS["eval_loss"] = float(sess.run(loss, {x: xs, y: ys, is_training: False}))
    RESULTS["moving_mean_bn3"] = sess.run(moving["bn3"][0])
    RESULTS["moving_var_bn1"] = sess.run(moving["bn1"][1])
