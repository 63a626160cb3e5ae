# Optimizers with fixed init, compute_gradients + clip_by_global_norm + apply_gradients.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
rng = np.random.RandomState(1)
X = rng.randn(16, 4).astype(np.float32)
Y = (X @ np.array([[1.0], [-2.0], [0.5], [3.0]], np.float32) + 0.3).astype(np.float32)


def model(name):
    with tf.variable_scope(name):
        W = tf.get_variable("W", [4, 1], initializer=tf.constant_initializer(0.1))
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        pred = tf.matmul(xp, W) + b
        return tf.reduce_mean(tf.square(pred - yp)), [W, b]


xp = tf.placeholder(tf.float32, [None, 4])
yp = tf.placeholder(tf.float32, [None, 1])
opts = {
    "momentum_nesterov": tf.train.MomentumOptimizer(0.01, 0.9, use_nesterov=True),
    "momentum": tf.train.MomentumOptimizer(0.01, 0.9),
    "adam": tf.train.AdamOptimizer(0.05, beta1=0.8, epsilon=1e-7),
    "adagrad": tf.train.AdagradOptimizer(0.1, initial_accumulator_value=0.2),
    "rmsprop": tf.train.RMSPropOptimizer(0.01, decay=0.8, momentum=0.5, centered=True),
    "rmsprop_plain": tf.train.RMSPropOptimizer(0.01),
    "adadelta": tf.train.AdadeltaOptimizer(1.0, rho=0.9),
    "ftrl": tf.train.FtrlOptimizer(0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.01),
    "adagrad_da": tf.train.AdagradDAOptimizer(0.1, tf.train.get_or_create_global_step()),
    "prox_gd": tf.train.ProximalGradientDescentOptimizer(0.05, l1_regularization_strength=0.01),
}
train_ops = {}
losses = {}
norms = {}
vars_ = {}
for name, opt in opts.items():
    loss, var_list = model(name)
    grads_and_vars = opt.compute_gradients(loss, var_list=var_list)
    grads, variables = zip(*grads_and_vars)
    clipped, gnorm = tf.clip_by_global_norm(grads, 1.5)
    train_ops[name] = opt.apply_gradients(zip(clipped, variables))
    losses[name] = loss
    norms[name] = gnorm
    vars_[name] = var_list[0]
# clip variants
g = tf.constant([[3.0, -4.0], [1.0, 2.0]])
clips = {
    "by_value": tf.clip_by_value(g, -1.0, 1.5),
    "by_norm": tf.clip_by_norm(g, 2.0),
    "by_norm_axis": tf.clip_by_norm(g, 2.0, axes=[1]),
    "by_avg_norm": tf.clip_by_average_norm(g, 0.5),
    "global_norm": tf.global_norm([g, tf.ones([3])]),
}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    fd = {xp: X, yp: Y}
    hist = {k: [] for k in opts}
    for _ in range(5):
        for name in opts:
            _, l, n = sess.run([train_ops[name], losses[name], norms[name]], fd)
            hist[name].append([l, n])
    RESULTS.update({"hist_" + k: v for k, v in hist.items()})
    RESULTS.update({"W_" + k: sess.run(vars_[k]) for k in opts})
    RESULTS.update(sess.run(clips))
    RESULTS["slot_names"] = sorted(opts["momentum_nesterov"].get_slot_names())
    RESULTS["adam_slots"] = sorted(opts["adam"].get_slot_names())
    RESULTS["n_globals"] = len(tf.global_variables())
    RESULTS["global_names"] = sorted(v.name for v in tf.global_variables())
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
