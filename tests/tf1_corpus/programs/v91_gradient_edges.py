"""Gradients where TF's and other frameworks' conventions differ: ties in max/min/maximum/minimum and
max-pooling, relu/abs/sign at zero, clip_by_value at its bounds, sqrt and norm at zero, tf.where with a
NaN in the unused branch, integer-valued ops, and unconnected inputs (None)."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
x = tf.constant([1.0, 3.0, 3.0, -2.0, 0.0])
y = tf.constant([1.0, 2.0, 4.0, -2.0, 0.0])
m = tf.constant([[1.0, 5.0], [5.0, 2.0]])
img = tf.constant(np.array([1, 2, 2, 1, 3, 3, 0, 3, 1, 1, 1, 1, 2, 0, 0, 2], np.float32).reshape(1, 4, 4, 1))
cases = {
    "reduce_max_ties": (tf.reduce_max(x), x),
    "reduce_min_ties": (tf.reduce_min(y), y),
    "reduce_max_axis": (tf.reduce_sum(tf.reduce_max(m, axis=1)), m),
    "maximum_ties_x": (tf.reduce_sum(tf.maximum(x, y)), x),
    "maximum_ties_y": (tf.reduce_sum(tf.maximum(x, y)), y),
    "minimum_ties_x": (tf.reduce_sum(tf.minimum(x, y)), x),
    "minimum_ties_y": (tf.reduce_sum(tf.minimum(x, y)), y),
    "relu_zero": (tf.reduce_sum(tf.nn.relu(x)), x),
    "relu6": (tf.reduce_sum(tf.nn.relu6(tf.constant([0.0, 6.0, 3.0, 7.0]))), None),
    "leaky_relu_zero": (tf.reduce_sum(tf.nn.leaky_relu(x, 0.1)), x),
    "elu_zero": (tf.reduce_sum(tf.nn.elu(x)), x),
    "abs_zero": (tf.reduce_sum(tf.abs(x)), x),
    "clip_bounds": (tf.reduce_sum(tf.clip_by_value(x, -2.0, 1.0)), x),
    "sqrt_zero": (tf.reduce_sum(tf.sqrt(tf.abs(x))), x),
    "norm_zero": (tf.norm(tf.zeros([3])), None),
    "where_nan": (tf.reduce_sum(tf.where(x > 0, tf.log(x), tf.zeros_like(x))), x),
    "max_pool_ties": (tf.reduce_sum(tf.nn.max_pool(img, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")), img),
    "max_pool_overlap": (tf.reduce_sum(tf.nn.max_pool(img, [1, 3, 3, 1], [1, 1, 1, 1], "VALID")), img),
    "floor": (tf.reduce_sum(tf.floor(x) + x), x),
    "round": (tf.reduce_sum(tf.round(x) * 2.0 + x), x),
    "argmax_path": (tf.reduce_sum(tf.gather(x, tf.argmax(x))), x),
    "sign": (tf.reduce_sum(tf.sign(x) + x * x), x),
    "softmax_xent": (tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits_v2(
        labels=tf.constant([[0.0, 1.0], [0.5, 0.5]]), logits=m)), m),
    "pow_zero_base": (tf.reduce_sum(tf.pow(x, 2.0)), x),
    "pow_zero_exp": (tf.reduce_sum(tf.pow(tf.constant([0.0, 2.0]), tf.constant([0.0, 0.5]))), None),
    "div_no_nan": (tf.reduce_sum(tf.div_no_nan(x, y)), y),
    "log1p": (tf.reduce_sum(tf.log1p(tf.abs(x))), x),
    "segment_max_ties": (tf.reduce_sum(tf.segment_max(x, tf.constant([0, 0, 0, 1, 1]))), x),
}
grads = {}
for k, (out, wrt) in cases.items():
    if wrt is None:
        wrt = out.op.inputs[0]
    g = tf.gradients(out, wrt)[0]
    if isinstance(g, tf.IndexedSlices):  # TF's gather gradient (densified here)
        g = tf.convert_to_tensor(g)
    grads[k] = g
unconnected = tf.gradients(tf.reduce_sum(x), [x, y])
stopped = tf.gradients(tf.reduce_sum(tf.stop_gradient(x) * x), x)[0]
cast_int = tf.gradients(tf.reduce_sum(tf.cast(tf.cast(x, tf.int32), tf.float32) + x), x)[0]
with tf.Session() as sess:
    for k, g in grads.items():
        RESULTS[k] = sess.run(g) if g is not None else None
    RESULTS["unconnected"] = [None if g is None else sess.run(g) for g in unconnected]
    RESULTS["stopped"] = sess.run(stopped)
    RESULTS["cast_int"] = sess.run(cast_int)
