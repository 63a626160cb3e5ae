import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

x = tf.Variable(np.array([[1.4, -2.6], [0.3, 3.5], [2.2, 0.1]], np.float32))
# straight-through rounding (quantisation-aware tutorials)
rounded = tf.grad_pass_through(tf.round)(x)
g_st = tf.gradients(tf.reduce_sum(rounded * tf.constant([1.0, 2.0])), x)[0]


@tf.recompute_grad
def block(h):
    return tf.nn.relu(h * 2.0 - 1.0)


g_rc = tf.gradients(tf.reduce_sum(block(x) ** 2), x)[0]
norms = tf.vectorized_map(lambda row: tf.reduce_sum(row * row), x)
pairs = tf.vectorized_map(lambda e: (e[0] + e[1], tf.cast(e[0] > 0, tf.int32)), x)
eye = tf.sparse.eye(3, 4)
expanded = tf.sparse.expand_dims(tf.SparseTensor([[0, 1], [1, 2]], [5.0, 6.0], [2, 3]), axis=1)
ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 2]], tf.constant([0, 3, 2, 3], tf.int64), [3, 4])
indicator = tf.sparse.to_indicator(ids, 5)
indicator_v1 = tf.sparse_to_indicator(tf.SparseTensor([[0, 1, 0], [1, 0, 1]], [2, 1], [2, 2, 2]), 3)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["indicator"], RESULTS["indicator_v1"] = sess.run([indicator, indicator_v1])
    RESULTS["rounded"], RESULTS["g_st"], RESULTS["g_rc"], RESULTS["norms"] = sess.run([rounded, g_st, g_rc, norms])
    RESULTS["pair_sum"], RESULTS["pair_pos"] = sess.run(list(pairs))
    RESULTS["eye"] = sess.run(tf.sparse.to_dense(eye))
    ev = sess.run(expanded)
    RESULTS["expanded_indices"], RESULTS["expanded_values"], RESULTS["expanded_shape"] = (
        ev.indices, ev.values, ev.dense_shape)
RESULTS["norms/shape"] = norms.shape.as_list()
RESULTS["pair_pos/dtype"] = pairs[1].dtype.name
RESULTS["eye/dtype"] = eye.dtype.name
RESULTS["indicator/name"] = indicator.name
RESULTS["indicator/shape"] = indicator.shape.as_list()
