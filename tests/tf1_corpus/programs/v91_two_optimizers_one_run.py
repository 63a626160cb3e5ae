"""Two train ops updating the same variables in one session.run: TF's optimizer kernels update each
variable in place, so both steps land (their gradients come from the same forward pass); with a shared
global_step, it counts both."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
x = tf.constant(np.array([[1.0, 2.0], [3.0, -1.0]], np.float32))
y = tf.constant(np.array([[1.0], [0.0]], np.float32))
w = tf.Variable(np.array([[0.5], [-0.25]], np.float32), name="w")
b = tf.Variable(np.zeros([1], np.float32), name="b")
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
step = tf.train.get_or_create_global_step()
sgd = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
adam = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=step)
mom = tf.train.MomentumOptimizer(0.02, 0.9).minimize(loss, var_list=[w])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    history = []
    for i in range(4):
        _, _, l = sess.run([sgd, adam, loss])
        history.append([l, sess.run(w), sess.run(b), sess.run(step)])
    for i in range(3):
        sess.run([sgd, mom])
        history.append([sess.run(loss), sess.run(w)])
    RESULTS["history"] = history
