"""Old and alias names TF1 programs use: sparse_segment_*, tf.manip, sparse_matmul, initialize_all_tables,
uniform_unit_scaling, Variable aggregation/synchronization enums, gfile.join."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
idx = tf.constant([0, 1, 3, 2])
seg = tf.constant([0, 0, 1, 1])
ops = {
    "seg_sum": tf.sparse_segment_sum(data, idx, seg),
    "seg_mean": tf.sparse_segment_mean(data, idx, seg),
    "seg_sqrt_n": tf.sparse_segment_sqrt_n(data, idx, seg),
    "seg_sum_n": tf.sparse.segment_sum(data, [0, 2], [0, 2], num_segments=4),
    "seg_mean_gap": tf.sparse.segment_mean(data, [1, 2, 3], [0, 0, 2]),
    "roll": tf.manip.roll(tf.range(5), 2, 0),
    "tile": tf.manip.tile([[1, 2]], [2, 2]),
    "gather_nd": tf.manip.gather_nd(data, [[0, 1], [3, 0]]),
    "sparse_matmul": tf.sparse_matmul(data, data, transpose_b=True, a_is_sparse=True),
}
emb = tf.Variable(np.arange(12, dtype=np.float32).reshape(6, 2), name="emb")
ids = tf.placeholder(tf.int32, [None])
segs = tf.placeholder(tf.int32, [None])
pooled = tf.sparse_segment_mean(emb, ids, segs, num_segments=3)
grad = tf.gradients(tf.reduce_sum(pooled * [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), emb)[0]
agg = tf.get_variable("agg", [2], aggregation=tf.VariableAggregation.MEAN,
                      synchronization=tf.VariableSynchronization.AUTO, initializer=tf.zeros_initializer())
unit = tf.get_variable("unit", [3, 2], initializer=tf.initializers.uniform_unit_scaling(seed=3))
table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], [0, 1], tf.string, tf.int64), -1)
looked = table.lookup(tf.constant(["b", "c", "a"]))
RESULTS["enums"] = [tf.VariableAggregation.MEAN.value, tf.VariableSynchronization.ON_READ.value,
                    tf.VariableAggregation.ONLY_FIRST_TOWER == tf.VariableAggregation.ONLY_FIRST_REPLICA]
RESULTS["join"] = tf.io.gfile.join("dir", "sub", "file.txt")
RESULTS["shapes"] = {k: v.shape.as_list() for k, v in ops.items() if v.shape.ndims is not None}
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.initialize_all_tables()])
    RESULTS["ops"] = sess.run(ops)
    RESULTS["pooled"] = sess.run([pooled, grad], {ids: [0, 5, 2, 2], segs: [0, 0, 2, 2]})
    RESULTS["agg"] = sess.run(agg)
    RESULTS["unit_shape"] = sess.run(unit).shape
    RESULTS["lookup"] = sess.run(looked)
