import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

x = tf.constant([[-1.0, 0.0, 2.0], [3.0, -4.0, 0.5]])
seq = tf.constant(np.sin(np.arange(2 * 7 * 3)).astype(np.float32).reshape(2, 7, 3))
img = tf.constant(np.cos(np.arange(1 * 5 * 5 * 2)).astype(np.float32).reshape(1, 5, 5, 2))
vol = tf.constant(np.cos(np.arange(1 * 3 * 4 * 4 * 2)).astype(np.float32).reshape(1, 3, 4, 4, 2))
ts = {
    "log_sigmoid": tf.math.log_sigmoid(x),
    "euclid": tf.math.reduce_euclidean_norm(x, axis=1),
    "euclid_all": tf.math.reduce_euclidean_norm(x, keepdims=True),
    "euclid_int": tf.math.reduce_euclidean_norm(tf.constant([3, 4])),
    "xlogy": tf.math.xlogy(tf.constant([0.0, 2.0, 0.0]), tf.constant([0.0, 3.0, 5.0])),
    "xdivy": tf.math.xdivy(tf.constant([0.0, 2.0]), tf.constant([0.0, 4.0])),
    "mul_no_nan": tf.math.multiply_no_nan(tf.constant([np.inf, 2.0]), tf.constant([0.0, 3.0])),
    "cross": tf.linalg.cross(tf.constant([[1.0, 2.0, 3.0]]), tf.constant([[0.5, -1.0, 2.0]])),
    "cumlse": tf.math.cumulative_logsumexp(x, axis=1),
    "cumlse_rev_excl": tf.math.cumulative_logsumexp(x, axis=1, reverse=True, exclusive=True),
    "polyval": tf.math.polyval([tf.constant(2.0), tf.constant(1.0), tf.constant(3.0)], tf.constant([1.0, 2.0])),
    "lbeta": tf.math.lbeta(tf.constant([[1.0, 2.0], [3.0, 4.0]])),
    "unravel": tf.unravel_index(tf.constant([5, 7, 0]), [3, 4]),
    "searchsorted": tf.searchsorted(tf.constant([[1.0, 3.0, 5.0], [0.0, 2.0, 4.0]]),
                                    tf.constant([[0.0, 3.0, 6.0, 5.0], [4.0, 1.0, -1.0, 2.0]])),
    "searchsorted_right": tf.searchsorted(tf.constant([1, 3, 5]), tf.constant([3, 4]), side="right"),
    "relu_layer": tf.nn.relu_layer(x, tf.ones([3, 2]), tf.constant([0.5, -10.0])),
    "reverse_v2": tf.reverse_v2(x, [1]),
    "expm": tf.linalg.expm(tf.constant([[0.0, 1.0], [-1.0, 0.0]])),
    "conv_1d": tf.nn.convolution(seq, tf.ones([2, 3, 2]), "VALID", strides=[2]),
    "conv_2d": tf.nn.convolution(img, tf.ones([2, 2, 2, 3]), "SAME", dilation_rate=[2, 2]),
    "conv_3d": tf.nn.convolution(vol, tf.ones([2, 2, 2, 2, 1]), "VALID"),
    "max_pool1d": tf.nn.max_pool1d(seq, 2, 2, "SAME"),
    "avg_pool1d": tf.nn.avg_pool1d(seq, 3, 1, "VALID"),
    "igamma": tf.math.igamma(tf.constant([0.5, 1.0, 2.5]), tf.constant([0.3, 1.5, 2.0])),
    "igammac": tf.igammac(tf.constant([0.5, 1.0, 2.5]), tf.constant([0.3, 1.5, 2.0])),
    "betainc": tf.math.betainc(tf.constant([0.5, 1.0, 2.5]), tf.constant([0.3, 1.5, 2.0]),
                               tf.constant([0.1, 0.5, 0.9])),
    "zeta": tf.math.zeta(tf.constant([2.0, 3.0, 4.5]), tf.constant([1.0, 2.0, 0.5])),
    "polygamma": tf.math.polygamma(tf.constant([1.0, 2.0, 0.0]), tf.constant([0.3, 1.5, 2.0])),
    "bessel_i0e": tf.math.bessel_i0e(x),
    "bessel_i1e": tf.math.bessel_i1e(x),
    "grad_log_sigmoid": tf.gradients(tf.reduce_sum(tf.math.log_sigmoid(x)), x)[0],
    "grad_xlogy": tf.gradients(tf.reduce_sum(tf.math.xlogy(x, tf.abs(x) + 1.0)), x)[0],
}
uwc = tf.unique_with_counts([3, 1, 3, 2, 1, 3])
uwc64 = tf.unique_with_counts(tf.constant([2.5, 2.5, -1.0]), out_idx=tf.int64)
with tf.Session() as sess:
    RESULTS.update(sess.run(ts))
    RESULTS["unique_with_counts"] = list(sess.run(uwc))
    RESULTS["unique_with_counts64"] = list(sess.run(uwc64))
RESULTS["shapes"] = {k: t.shape.as_list() for k, t in ts.items()}
RESULTS["dtypes"] = {k: t.dtype.name for k, t in ts.items()}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
