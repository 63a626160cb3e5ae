"""Numeric edge cases a tutorial meets: integer means and divisions, negative floordiv/mod, casts that
truncate, rounding half to even, ties in argmax/top_k, unique's order, segment ops, clip and norms."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
i = tf.constant([7, -7, 5, -5, 0], tf.int32)
j = tf.constant([2, 2, -3, -3, 4], tf.int32)
f = tf.constant([2.5, -2.5, 0.5, 1.5, -0.5, 3.7, -3.7], tf.float32)
ops = {
    "int_mean": tf.reduce_mean(i),
    "int_mean_axis": tf.reduce_mean(tf.reshape(tf.constant([1, 2, 3, 4, 5, 7]), [2, 3]), axis=1),
    "floordiv": i // j,
    "truncatediv": tf.truncatediv(i, j),
    "mod": i % j,
    "truncatemod": tf.truncatemod(i, j),
    "div_int": tf.div(i, j),
    "truediv_int": i / j,
    "realdiv": tf.realdiv(tf.cast(i, tf.float32), tf.cast(j, tf.float32)),
    "cast_trunc": tf.cast(f, tf.int32),
    "cast_uint8": tf.cast(tf.constant([-1.0, 255.5, 256.0, 3.9]), tf.uint8),
    "round": tf.round(f),
    "rint": tf.rint(f),
    "floor_ceil": tf.stack([tf.floor(f), tf.ceil(f)]),
    "argmax_ties": tf.argmax(tf.constant([[1.0, 3.0, 3.0], [2.0, 2.0, 1.0]]), axis=1),
    "argmin_ties": tf.argmin(tf.constant([[1.0, 1.0, 3.0], [2.0, 0.0, 0.0]]), axis=1),
    "top_k": tf.nn.top_k(tf.constant([1.0, 3.0, 3.0, 2.0, 3.0]), k=3),
    "unique": tf.unique(tf.constant([4, 1, 4, 2, 1, 9])),
    "unique_with_counts": tf.unique_with_counts(tf.constant([4, 1, 4, 2, 1, 9])),
    "segment_sum": tf.segment_sum(tf.constant([1.0, 2.0, 3.0, 4.0]), tf.constant([0, 0, 2, 2])),
    "unsorted_segment_max": tf.unsorted_segment_max(tf.constant([1.0, 5.0, 3.0]), tf.constant([2, 0, 2]), 4),
    "clip_by_norm": tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0),
    "global_norm": tf.global_norm([tf.constant([3.0, 4.0]), tf.constant([12.0])]),
    "l2_normalize": tf.nn.l2_normalize(tf.constant([[0.0, 0.0], [3.0, 4.0]]), axis=1),
    "log_softmax": tf.nn.log_softmax(tf.constant([1000.0, 0.0, -1000.0])),
    "softplus": tf.nn.softplus(tf.constant([-100.0, 0.0, 100.0])),
    "sigmoid_xent": tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1.0, 0.0]), logits=tf.constant([-200.0, 200.0])),
    "pow_int": tf.pow(tf.constant([2, 3, -2]), tf.constant([3, 0, 3])),
    "square_diff": tf.squared_difference(tf.constant([1, 5]), tf.constant([4, 2])),
    "bincount": tf.bincount(tf.constant([1, 1, 3, 0, 5])),
    "cumsum_excl_rev": tf.cumsum(tf.constant([1, 2, 3, 4]), exclusive=True, reverse=True),
    "cumprod": tf.cumprod(tf.constant([1.0, 2.0, 3.0, 4.0]), exclusive=True),
    "reduce_prod_empty": tf.reduce_prod(tf.zeros([0])),
    "reduce_max_empty": tf.reduce_max(tf.zeros([0, 3]), axis=0),
    "range_float": tf.range(0.0, 1.0, 0.3),
    "linspace": tf.linspace(0.0, 1.0, 4),
    "sign": tf.sign(tf.constant([-0.0, 2.0, -3.0, 0.0])),
    "maximum_nan": tf.maximum(tf.constant([np.nan, 1.0]), tf.constant([0.0, np.nan])),
    "is_nan": tf.is_nan(tf.constant([np.nan, np.inf, 0.0])),
    "accumulate_n": tf.accumulate_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])]),
    "count_nonzero": tf.count_nonzero(tf.constant([[0, 1, 2], [0, 0, 3]]), axis=1),
    "matrix_band": tf.matrix_band_part(tf.reshape(tf.range(1.0, 10.0), [3, 3]), 0, 1),
    "reverse_sequence": tf.reverse_sequence(tf.reshape(tf.range(8), [2, 4]), [2, 3], seq_axis=1, batch_axis=0),
    "sequence_mask": tf.sequence_mask([1, 3, 0], 4),
    "one_hot_neg": tf.one_hot([0, -1, 2], 3, on_value=5.0, off_value=-1.0),
}
with tf.Session() as sess:
    for k, t in ops.items():
        RESULTS[k] = sess.run(t)
    RESULTS["dtypes"] = {k: t.dtype.name for k, t in ops.items() if isinstance(t, tf.Tensor)}
