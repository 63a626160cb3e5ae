"""Seeded random ops draw TF's values: initializers, dropout masks, a second run, and training from them."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-5, "atol": 2e-6}

tf.set_random_seed(42)
x = tf.placeholder(tf.float32, [None, 4], name="x")
y = tf.placeholder(tf.float32, [None, 1], name="y")
keep_prob = tf.placeholder(tf.float32, [], name="keep_prob")

w1 = tf.Variable(tf.random_normal([4, 8], stddev=0.5), name="w1")
b1 = tf.Variable(tf.zeros([8]), name="b1")
w2 = tf.Variable(tf.truncated_normal([8, 1], stddev=0.1), name="w2")
w3 = tf.get_variable("w3", [8, 3], initializer=tf.glorot_uniform_initializer())
w4 = tf.get_variable("w4", [3, 5], initializer=tf.variance_scaling_initializer())
w5 = tf.get_variable("w5", [6], initializer=tf.random_uniform_initializer(-2.0, 3.0))
w6 = tf.get_variable("w6", [2, 3], initializer=tf.truncated_normal_initializer(mean=1.0, stddev=2.0, seed=7))
h = tf.nn.relu(tf.matmul(x, w1) + b1)
h_drop = tf.nn.dropout(h, keep_prob)
h_fixed = tf.nn.dropout(h, rate=0.25)
pred = tf.matmul(h_drop, w2)
loss = tf.reduce_mean(tf.square(pred - y))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

u = tf.random_uniform([7], seed=3)
ui = tf.random_uniform([2, 5], minval=-4, maxval=9, dtype=tf.int32)
n = tf.random_normal([3, 3], mean=2.0, stddev=0.5, seed=11)
t = tf.truncated_normal([9])

rng = np.random.RandomState(0)
xs = rng.rand(16, 4).astype(np.float32)
ys = xs.sum(axis=1, keepdims=True).astype(np.float32)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["w1"], RESULTS["w2"], RESULTS["w3"], RESULTS["w4"], RESULTS["w5"], RESULTS["w6"] = sess.run(
        [w1, w2, w3, w4, w5, w6])
    RESULTS["u_runs"] = [sess.run(u) for _ in range(3)]
    RESULTS["ui_runs"] = [sess.run(ui) for _ in range(2)]
    RESULTS["n"] = sess.run(n)
    RESULTS["t_runs"] = [sess.run(t) for _ in range(2)]
    RESULTS["drop_fixed"] = sess.run(h_fixed, {x: xs[:3]})
    RESULTS["drop_fed"] = sess.run(h_drop, {x: xs[:3], keep_prob: 0.6})  # another batch size than the steps below
    losses = []
    for step in range(5):
        _, l = sess.run([train, loss], {x: xs, y: ys, keep_prob: 0.8})
        losses.append(l)
    RESULTS["losses"] = losses
    RESULTS["w2_trained"] = sess.run(w2)
    RESULTS["eval_full"] = sess.run(loss, {x: xs, y: ys, keep_prob: 1.0})  # still draws, as TF
    RESULTS["after_eval"] = sess.run(h_drop, {x: xs[:5], keep_prob: 0.5})

with tf.Session() as sess:  # a new session repeats the sequence
    RESULTS["u_new_session"] = sess.run(u)
