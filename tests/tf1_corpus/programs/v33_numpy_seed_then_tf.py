# A TF1 tutorial's order: imports, then NumPy seeded, then the first tf. attribute; the NumPy
# draws that follow must be those of the seed (TensorFlow draws nothing from NumPy's generator).
import numpy as np
import tensorflow as tf

np.random.seed(101)
tf.compat.v1.disable_eager_execution()

RESULTS = {}
W = tf.compat.v1.Variable(np.random.randn(), name="weight")
b = tf.compat.v1.Variable(np.random.randn(), name="bias")
RESULTS["numpy_draws_after_tf"] = np.random.rand(3)
with tf.compat.v1.Session() as sess:
    sess.run(tf.compat.v1.global_variables_initializer())
    RESULTS["W"], RESULTS["b"] = sess.run([W, b])
