"""Shared embeddings as in TF1 recommendation tutorials: two id features (watched and
recommended items) looked up in one embedding table with shared_embedding_columns."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

fc = tf.feature_column
watched = fc.categorical_column_with_identity("watched", num_buckets=5)
candidate = fc.categorical_column_with_identity("candidate", num_buckets=5)
table = np.arange(15, dtype=np.float32).reshape(5, 3) / 10.0
shared = fc.shared_embedding_columns([watched, candidate], dimension=3, combiner="sum",
                                     initializer=tf.constant_initializer(table))
features = {"watched": tf.constant([[0, 1], [4, -1]], dtype=tf.int64),
            "candidate": tf.constant([[2], [3]], dtype=tf.int64)}
dense = fc.input_layer(features, shared)
loss = tf.reduce_sum(tf.square(dense))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    RESULTS["dense"] = sess.run(dense)
    sess.run(train)
    RESULTS["after"] = sess.run(dense)

RESULTS["names"] = [c.name for c in shared]
RESULTS["variables"] = [(v.name, v.shape.as_list()) for v in tf.global_variables()]
RESULTS["trainable"] = len(tf.trainable_variables())
try:
    fc.shared_embedding_columns([watched, fc.categorical_column_with_identity("other", 7)], 2)
except ValueError as e:
    RESULTS["bad_buckets"] = "num_buckets" in str(e)
