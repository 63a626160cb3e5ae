"""tf.sparse.reduce_sum_sparse / reduce_max_sparse (SparseTensor results), tf.sparse.reset_shape,
tf.sparse.mask (IndexedSlices) and their tf.sparse_* aliases, with fed values."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}

vals = tf.placeholder(tf.float32, [6], name="vals")
sp = tf.SparseTensor([[0, 0, 1], [0, 2, 0], [1, 0, 0], [1, 0, 2], [1, 3, 1], [2, 1, 1]], vals, [3, 4, 3])
feed = {vals: np.array([1.0, -2.0, 3.0, 5.0, -7.0, 0.5], np.float32)}


def dense(st):
    return [st.indices, st.values, st.dense_shape]


outs = {
    "sum_axis1": dense(tf.sparse.reduce_sum_sparse(sp, axis=1)),
    "sum_axis_m1_keep": dense(tf.sparse.reduce_sum_sparse(sp, axis=-1, keepdims=True)),
    "sum_axes_02": dense(tf.sparse.reduce_sum_sparse(sp, axis=[0, 2])),
    "max_axis0": dense(tf.sparse.reduce_max_sparse(sp, 0)),
    "max_axis2": dense(tf.sparse_reduce_max_sparse(sp, axis=2)),
    "sum_all": dense(tf.sparse_reduce_sum_sparse(sp)),
    "reset_tight": dense(tf.sparse.reset_shape(sp)),
    "reset_bigger": dense(tf.sparse.reset_shape(sp, [4, 5, 3])),
    "reset_alias": dense(tf.sparse_reset_shape(sp, np.array([3, 4, 6]))),
}
a = tf.IndexedSlices(tf.reshape(tf.range(10.0), [5, 2]) * vals[0], tf.constant([0, 3, 5, 7, 9]), tf.constant([10, 2]))
m = tf.sparse.mask(a, [3, 9, 4])
m2 = tf.sparse_mask(a, tf.constant([0]), name="masked")
outs["mask"] = [m.indices, m.values, m.dense_shape]
outs["mask2"] = [m2.indices, m2.values]
with tf.Session() as sess:
    got = sess.run(outs, feed)
for k, v in got.items():
    RESULTS[k] = v
RESULTS["types"] = [type(m).__name__, m.values.name, m2.values.name]
for name, fn in [("reset_smaller", lambda: tf.sparse.reset_shape(sp, [2, 4, 3])),
                 ("reset_rank", lambda: tf.sparse.reset_shape(sp, [4, 5]))]:
    try:
        fn()
        RESULTS[name] = "no error"
    except Exception as e:  # noqa: BLE001
        RESULTS[name] = type(e).__name__
