"""Lecture-style linear regression under disable_v2_behavior(): the variables are reference variables, so
fetching W and b in the same run as the train op shows them after the step (the cost before it); tf.layers
weights are reference variables too, Keras weights stay resource variables (read before the step)."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

RESULTS = {}
tf.set_random_seed(777)
x_train = [1.0, 2.0, 3.0]
y_train = [1.0, 2.0, 3.0]
W = tf.Variable(tf.random_normal([1]), name="weight")
b = tf.Variable(tf.random_normal([1]), name="bias")
hypothesis = x_train * W + b
cost = tf.reduce_mean(tf.square(hypothesis - y_train))
train = tf.train.GradientDescentOptimizer(learning_rate=0.01).minimize(cost)

counter = tf.Variable(0, name="counter")
bump = tf.assign_add(counter, 1)
with tf.control_dependencies([bump]):
    doubled = counter * 2
    seen = tf.identity(counter)
    snapshot = counter.value()

X = tf.placeholder(tf.float32, [None, 2])
Y = tf.placeholder(tf.float32, [None, 1])
dense_out = tf.layers.dense(X, 1, kernel_initializer=tf.constant_initializer([0.5, -0.5]), name="fc")
keras_layer = tf.keras.layers.Dense(1, kernel_initializer="ones", name="kd")
keras_out = keras_layer(X)
mse = tf.reduce_mean(tf.square(dense_out - Y)) + tf.reduce_mean(tf.square(keras_out - Y))
fit = tf.train.AdamOptimizer(0.1).minimize(mse)
fc_kernel = [v for v in tf.global_variables() if v.name == "fc/kernel:0"][0]
xs = np.random.RandomState(0).rand(8, 2).astype(np.float32)
ys = xs.sum(axis=1, keepdims=True) * 0.5

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["start"] = sess.run([W, b])
    steps = []
    for step in range(41):
        _, cost_val, W_val, b_val = sess.run([train, cost, W, b])
        if step % 10 == 0:
            steps.append([cost_val, W_val, b_val])
    RESULTS["steps"] = steps
    RESULTS["end"] = sess.run([W, b])
    RESULTS["counter"] = sess.run([bump, counter])
    RESULTS["ordered"] = sess.run([doubled, seen])
    RESULTS["snapshot"] = sess.run(snapshot)
    RESULTS["counter_plus"] = sess.run([counter + 0, bump])
    fc_k0 = sess.run(fc_kernel)
    _, fc_k1, kd_k1, loss1 = sess.run([fit, fc_kernel, keras_layer.kernel, mse], {X: xs, Y: ys})
    RESULTS["fc_moved"] = bool(np.any(fc_k0 != fc_k1))
    RESULTS["keras_kernel_before_step"] = kd_k1
    RESULTS["fit"] = [fc_k1, loss1, sess.run(keras_layer.kernel)]
