import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

sp = tf.SparseTensor([[0, 1], [0, 3], [2, 0], [4, 2]], tf.constant([1.0, 2.0, 3.0, 4.0]), [5, 4])
filled, empty_rows = tf.sparse.fill_empty_rows(sp, -1.0)
filled2, _ = tf.sparse_fill_empty_rows(sp, 9.0)
filled_dense = tf.sparse.to_dense(filled)

parts = tf.sparse.split(sp_input=sp, num_split=3, axis=1)
parts_dense = [tf.sparse.to_dense(p) for p in parts]
rows = tf.sparse_split(sp_input=sp, num_split=2, axis=0)

a = tf.SparseTensor([[0, 0], [1, 1]], tf.constant([-1.0, 5.0]), [2, 3])
b = tf.SparseTensor([[0, 0], [0, 2]], tf.constant([-3.0, -2.0]), [2, 3])
mx = tf.sparse.maximum(a, b)
mn = tf.sparse_minimum(a, b)
mx_dense = tf.sparse.to_dense(mx)

logits = np.log(np.array(
    [[[0.1, 0.6, 0.3], [0.5, 0.2, 0.3]], [[0.1, 0.6, 0.3], [0.2, 0.2, 0.6]],
     [[0.7, 0.2, 0.1], [0.2, 0.6, 0.2]], [[0.1, 0.1, 0.8], [0.2, 0.6, 0.2]]], np.float32))
inputs = tf.placeholder(tf.float32, [None, 2, 3])
decoded, neg_sum = tf.nn.ctc_greedy_decoder(inputs, [4, 3])
decoded_all, _ = tf.nn.ctc_greedy_decoder(inputs, [4, 3], merge_repeated=False)
decoded_dense = tf.sparse.to_dense(decoded[0], default_value=-1)

hyp = tf.SparseTensor([[0, 0, 0], [1, 0, 0], [1, 0, 1]], ["a", "b", "c"], [2, 1, 2])
truth = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 0, 0]], ["a", "x", "b"], [2, 1, 3])
dist = tf.edit_distance(hyp, truth)
dist_raw = tf.edit_distance(hyp, truth, normalize=False)
empty_truth = tf.SparseTensor(np.zeros((0, 2), np.int64), tf.constant([], tf.string), [2, 1])
dist_inf = tf.edit_distance(tf.SparseTensor([[0, 0]], ["a"], [2, 1]), empty_truth)
ids = tf.sparse_placeholder(tf.int64)
dist_fed = tf.edit_distance(ids, tf.SparseTensor([[0, 0], [0, 1]], tf.constant([1, 2], tf.int64), [1, 2]))

RESULTS = {
    "static": [filled.indices.shape.as_list(), parts[0].indices.shape.as_list(), mx.indices.shape.as_list(),
               decoded[0].indices.shape.as_list(), neg_sum.shape.as_list(), dist.shape.as_list(), dist.dtype.name],
    "op_types": [filled.indices.op.type, parts[0].indices.op.type, mx.indices.op.type, mn.indices.op.type,
                 decoded[0].indices.op.type, dist.op.type],
    "names": [dist.op.name, decoded[0].indices.op.name],
}
with tf.Session() as sess:
    f, e, f2 = sess.run([filled, empty_rows, filled2])
    RESULTS["filled"] = [f.indices, f.values, f.dense_shape]
    RESULTS["empty_rows"] = e
    RESULTS["filled2_values"] = f2.values
    RESULTS["filled_dense"] = sess.run(filled_dense)
    RESULTS["parts"] = [[p.indices, p.values, p.dense_shape] for p in sess.run(parts)]
    RESULTS["parts_dense"] = sess.run(parts_dense)
    RESULTS["rows"] = [[p.indices, p.values, p.dense_shape] for p in sess.run(rows)]
    m1, m2 = sess.run([mx, mn])
    RESULTS["max"] = [m1.indices, m1.values, m1.dense_shape]
    RESULTS["min"] = [m2.indices, m2.values, m2.dense_shape]
    RESULTS["max_dense"] = sess.run(mx_dense)
    d, n, d2, dd = sess.run([decoded, neg_sum, decoded_all, decoded_dense], {inputs: logits})
    RESULTS["decoded"] = [d[0].indices, d[0].values, d[0].dense_shape]
    RESULTS["neg_sum"] = n
    RESULTS["decoded_all"] = [d2[0].indices, d2[0].values, d2[0].dense_shape]
    RESULTS["decoded_dense"] = dd
    RESULTS["dist"] = sess.run([dist, dist_raw, dist_inf])
    RESULTS["dist_fed"] = sess.run(dist_fed, {ids: tf.SparseTensorValue([[0, 0], [0, 1], [0, 2]], [1, 3, 2], [1, 3])})
