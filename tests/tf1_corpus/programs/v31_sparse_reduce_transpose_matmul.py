import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

a = tf.SparseTensor(indices=[[0, 0], [0, 2], [1, 1], [2, 3]], values=[-1.0, -2.0, 3.0, 5.0], dense_shape=[3, 4])
row = tf.constant([[1.0, 2.0, 3.0, 4.0]])
col = tf.constant([[2.0], [4.0], [8.0]])
scaled = a * row
halved = a / tf.constant(2.0)
by_col = tf.sparse.to_dense(a * col)
RESULTS["scaled_type"] = type(scaled).__name__
RESULTS["scaled_shape"] = scaled.shape.as_list()
t = tf.sparse.transpose(a)
t3 = tf.sparse_transpose(tf.SparseTensor([[0, 1, 2], [1, 0, 0]], [1, 2], [2, 3, 4]), [2, 0, 1])
RESULTS["t_shape"] = t.shape.as_list()

sp = tf.sparse_placeholder(tf.float32)
m_rows = tf.sparse.reduce_max(sp, axis=1)
m_keep = tf.sparse_reduce_max(sp, axis=0, keepdims=True)
m_all = tf.sparse.reduce_max(sp)
weighted = tf.sparse.reduce_sum(sp * tf.constant([10.0, 1.0, 0.1]), axis=1)

x = tf.sparse_placeholder(tf.float32, shape=[2, 3], name="x")
w = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
out = tf.sparse_tensor_dense_matmul(x, w)

with tf.Session() as sess:
    RESULTS["cwise"] = sess.run([scaled, halved, by_col])
    RESULTS["transpose"] = sess.run([t, t3])
    RESULTS["max"] = sess.run([m_rows, m_keep, m_all, weighted],
                              {sp: ([[0, 0], [0, 2], [2, 1]], [-3.0, -1.0, 2.0], [3, 3])})
    f = sess.make_callable(out, feed_list=[x])
    RESULTS["callable"] = [f(tf.SparseTensorValue([[0, 1], [1, 2]], [1.0, 2.0], [2, 3])),
                           f(([[0, 0]], [3.0], [2, 3]))]
    g = sess.make_callable([x, m_rows], feed_list=[sp, x])
    RESULTS["callable_two"] = g(([[1, 1]], [4.0], [2, 2]), ([[1, 0]], [7.0], [2, 3]))
