# Depthwise and separable convolutions over the cases a lowering can get wrong:
# strides, SAME/VALID/explicit padding, rates, channel multipliers, 3x3..7x7 kernels,
# float64, and the gradients with respect to both the input and the filter.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
rng = np.random.RandomState(7)
image = rng.uniform(-1.0, 1.0, size=(2, 9, 11, 4)).astype(np.float32)

cases = [
    ("k3_s1_same", 3, 1, [1, 1, 1, 1], "SAME", None),
    ("k3_s2_same", 3, 1, [1, 2, 2, 1], "SAME", None),
    ("k3_s2_valid", 3, 1, [1, 2, 2, 1], "VALID", None),
    ("k3_m2_same", 3, 2, [1, 1, 1, 1], "SAME", None),
    ("k5_s1_same", 5, 1, [1, 1, 1, 1], "SAME", None),
    ("k5_s2_valid", 5, 1, [1, 2, 2, 1], "VALID", None),
    ("k7_m3_same", 7, 3, [1, 1, 1, 1], "SAME", None),
    ("k3_rate2_same", 3, 1, [1, 1, 1, 1], "SAME", [2, 2]),
    ("k3_rate2_valid", 3, 2, [1, 1, 1, 1], "VALID", [2, 3]),
    ("k3_explicit", 3, 1, [1, 1, 1, 1], [[0, 0], [1, 2], [0, 3], [0, 0]], None),
    ("k1_s2", 1, 1, [1, 2, 2, 1], "SAME", None),
]

fetches = {}
for name, k, mult, strides, padding, rate in cases:
    x = tf.constant(image)
    w = tf.constant(rng.uniform(-1.0, 1.0, size=(k, k, 4, mult)).astype(np.float32))
    y = tf.nn.depthwise_conv2d(x, w, strides, padding, rate=rate)
    loss = tf.reduce_sum(tf.sin(y) * tf.cos(y * 0.5))
    gx, gw = tf.gradients(loss, [x, w])
    fetches[name] = y
    fetches[name + "_dx"] = gx
    fetches[name + "_dw"] = gw
    RESULTS[name + "_shape"] = y.shape.as_list()

native_x = tf.constant(image)
native_w = tf.constant(rng.uniform(-1.0, 1.0, size=(3, 3, 4, 2)).astype(np.float32))
fetches["native_s2"] = tf.nn.depthwise_conv2d_native(native_x, native_w, [1, 2, 2, 1], "SAME")

x64 = tf.constant(image.astype(np.float64))
w64 = tf.constant(rng.uniform(-1.0, 1.0, size=(3, 3, 4, 1)))
y64 = tf.nn.depthwise_conv2d(x64, w64, [1, 1, 1, 1], "SAME")
fetches["float64"] = y64
fetches["float64_dx"] = tf.gradients(tf.reduce_sum(y64 * y64), x64)[0]

sx = tf.constant(image)
dwf = tf.constant(rng.uniform(-1.0, 1.0, size=(3, 3, 4, 2)).astype(np.float32))
pwf = tf.constant(rng.uniform(-1.0, 1.0, size=(1, 1, 8, 5)).astype(np.float32))
sep = tf.nn.separable_conv2d(sx, dwf, pwf, [1, 2, 2, 1], "SAME")
fetches["separable"] = sep
fetches["separable_ddw"] = tf.gradients(tf.reduce_sum(sep * sep), dwf)[0]

with tf.Session() as sess:
    RESULTS.update(sess.run(fetches))
RESULTS["float64_dtype"] = y64.dtype.name
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
