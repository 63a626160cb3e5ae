"""A first linear-regression tutorial prints its shapeless placeholders and a device-pinned op: TF's str() of a
tensor leaves out the shape when the rank is unknown and names the requested device."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
x_data = [1, 2, 3]
y_data = [1, 2, 3]
W = tf.Variable(tf.random_uniform([1], -1.0, 1.0, seed=3))
b = tf.Variable(tf.random_uniform([1], -1.0, 1.0, seed=4))
X = tf.placeholder(tf.float32, name="X")
Y = tf.placeholder(tf.float32, name="Y")
with tf.device("/cpu:0"):
    hypothesis = W * X + b
    scale = tf.constant(2.0, name="scale")
cost = tf.reduce_mean(tf.square(hypothesis - Y))
RESULTS["printed"] = [str(X), str(Y), str(hypothesis), str(scale), str(cost), str(W.initial_value)]
RESULTS["repr"] = [repr(X), repr(hypothesis)]
RESULTS["in_list"] = str([X, cost])
train_op = tf.train.GradientDescentOptimizer(learning_rate=0.1).minimize(cost)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(20):
        _, cost_val = sess.run([train_op, cost], feed_dict={X: x_data, Y: y_data})
    RESULTS["cost"] = cost_val
    RESULTS["predict"] = sess.run(hypothesis, feed_dict={X: np.array([5.0, 2.5], np.float32)})
