"""Large-vocabulary embeddings sharded with partitioners (get_variable +
fixed_size_partitioner), looked up with 'mod' and 'div' strategies, as a
tensor in matmul, trained with SGD and Adagrad; sparse lookups over shards."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
V, D = 11, 3
table = (np.arange(V * D).reshape(V, D) * 0.1 - 1.5).astype(np.float32)

with tf.variable_scope("emb", partitioner=tf.fixed_size_partitioner(3)):
    embeddings = tf.get_variable("embeddings", [V, D], initializer=tf.zeros_initializer())
with tf.variable_scope("emb2"):
    emb_val = tf.get_variable("from_value", initializer=tf.constant(table),
                              partitioner=tf.fixed_size_partitioner(4))
    emb_axis1 = tf.get_variable("axis1", [D, V], initializer=tf.ones_initializer(),
                                partitioner=tf.fixed_size_partitioner(2, axis=1))
    emb_vs = tf.get_variable("vs", [V, D], initializer=tf.ones_initializer(),
                             partitioner=tf.variable_axis_size_partitioner(max_shard_bytes=40))
    emb_mm = tf.get_variable("mm", [V, D], initializer=tf.ones_initializer(),
                             partitioner=tf.min_max_variable_partitioner(max_partitions=3, min_slice_size=32))
with tf.variable_scope("emb", reuse=True, partitioner=tf.fixed_size_partitioner(3)):
    same = tf.get_variable("embeddings", [V, D])

RESULTS["type"] = type(embeddings).__name__
RESULTS["pv_name"] = embeddings.name
RESULTS["pv_shape"] = embeddings.get_shape().as_list()
RESULTS["pv_len"] = len(embeddings)
RESULTS["reused_same"] = same is embeddings
RESULTS["parts"] = [(v.name, v.shape.as_list()) for v in embeddings]
RESULTS["axis1_parts"] = [v.shape.as_list() for v in emb_axis1]
RESULTS["vs_parts"] = [v.shape.as_list() for v in emb_vs]
RESULTS["mm_parts"] = [v.shape.as_list() for v in emb_mm]
RESULTS["trainable"] = [v.name for v in tf.trainable_variables()]

ids = tf.placeholder(tf.int32, [None, 2], name="ids")
mod_rows = tf.nn.embedding_lookup(embeddings, ids)
div_rows = tf.nn.embedding_lookup(embeddings, ids, partition_strategy="div")
val_rows = tf.nn.embedding_lookup(emb_val, ids, partition_strategy="div")
norm_rows = tf.nn.embedding_lookup(emb_val, ids, partition_strategy="div", max_norm=1.0)
shards = [tf.constant(table[i::3]) for i in range(3)]
list_rows = tf.nn.embedding_lookup(shards, ids)  # mod over a list of tensors
whole = tf.convert_to_tensor(emb_val)
proj = tf.matmul(tf.ones([1, D]), emb_axis1)
RESULTS["lookup_shape"] = mod_rows.shape.as_list()
RESULTS["whole_shape"] = whole.shape.as_list()

sp = tf.SparseTensor(indices=[[0, 0], [0, 1], [1, 0], [2, 0], [2, 1], [2, 2]],
                     values=tf.constant([1, 5, 10, 0, 3, 7], tf.int64), dense_shape=[3, 3])
sparse_mean = tf.nn.embedding_lookup_sparse(emb_val, sp, None, partition_strategy="div", combiner="mean")
sparse_sqrtn = tf.nn.embedding_lookup_sparse(embeddings, sp, None, combiner="sqrtn")

labels = tf.placeholder(tf.float32, [None])
logit = tf.reduce_sum(tf.nn.embedding_lookup(embeddings, ids), axis=[1, 2])
loss = tf.reduce_mean(tf.square(logit - labels))
train = tf.train.AdagradOptimizer(0.5).minimize(loss)

feed_ids = np.array([[0, 10], [4, 7], [3, 3]], np.int32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(embeddings.assign(table))
    RESULTS["mod"] = sess.run(mod_rows, {ids: feed_ids})
    RESULTS["div"] = sess.run(div_rows, {ids: feed_ids})
    RESULTS["val"] = sess.run(val_rows, {ids: feed_ids})
    RESULTS["norm"] = sess.run(norm_rows, {ids: feed_ids})
    RESULTS["list_mod"] = sess.run(list_rows, {ids: feed_ids})
    RESULTS["whole"] = sess.run(whole)
    RESULTS["proj"] = sess.run(proj)
    RESULTS["sparse_mean"] = sess.run(sparse_mean)
    RESULTS["sparse_sqrtn"] = sess.run(sparse_sqrtn)
    losses = []
    for _ in range(3):
        l, _ = sess.run([loss, train], {ids: feed_ids, labels: [1.0, -1.0, 0.5]})
        losses.append(l)
    RESULTS["losses"] = np.array(losses)
    RESULTS["part0_after"] = sess.run(list(embeddings)[0])
    RESULTS["slots"] = sorted(v.name for v in tf.global_variables() if "Adagrad" in v.name)
