"""tf.nn.dilation2d / erosion2d (v1 signatures, with gradients), conv3d_backprop_filter(_v2),
depthwise_conv2d_native_backprop_input / _filter, atrous_conv2d_transpose and with_space_to_batch."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
RESULTS = {}
rng = np.random.RandomState(0)

img = tf.constant(rng.uniform(-1, 1, (2, 7, 6, 3)).astype(np.float32))
ker = tf.constant(rng.uniform(-0.5, 0.5, (3, 2, 3)).astype(np.float32))
outs = {
    "dilation_same": tf.nn.dilation2d(img, ker, [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
    "dilation_valid_strided": tf.nn.dilation2d(img, ker, [1, 2, 1, 1], [1, 1, 1, 1], "VALID"),
    "dilation_rates": tf.nn.dilation2d(img, ker, strides=[1, 1, 2, 1], rates=[1, 2, 2, 1], padding="SAME"),
    "erosion_same": tf.nn.erosion2d(img, ker, [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
    "erosion_valid": tf.nn.erosion2d(img, ker, [1, 2, 2, 1], [1, 1, 2, 1], "VALID", name="ero"),
}
loss = tf.reduce_sum(tf.square(outs["dilation_rates"])) + tf.reduce_sum(outs["erosion_same"])
outs["grad_img"], outs["grad_ker"] = tf.gradients(loss, [img, ker])

vol = tf.constant(rng.uniform(-1, 1, (1, 5, 6, 4, 2)).astype(np.float32))
dy3 = tf.constant(rng.uniform(-1, 1, (1, 3, 3, 2, 4)).astype(np.float32))
outs["conv3d_bp_filter"] = tf.nn.conv3d_backprop_filter(vol, [3, 2, 3, 2, 4], dy3, [1, 2, 2, 2, 1], "SAME")
dy3v = tf.constant(rng.uniform(-1, 1, (1, 3, 5, 2, 4)).astype(np.float32))
outs["conv3d_bp_filter_v2"] = tf.nn.conv3d_backprop_filter_v2(vol, [3, 2, 3, 2, 4], dy3v, [1, 1, 1, 1, 1], "VALID")

dw = tf.constant(rng.uniform(-1, 1, (3, 3, 3, 2)).astype(np.float32))
dy_dw = tf.constant(rng.uniform(-1, 1, (2, 4, 3, 6)).astype(np.float32))
outs["dw_bp_input"] = tf.nn.depthwise_conv2d_native_backprop_input([2, 7, 6, 3], dw, dy_dw, [1, 2, 2, 1], "SAME")
outs["dw_bp_filter"] = tf.nn.depthwise_conv2d_native_backprop_filter(img, [3, 3, 3, 2], dy_dw, [1, 2, 2, 1], "SAME")
# (dilated: TF's CPU kernel (oneDNN) fails to build its primitive, so no golden)

val = tf.constant(rng.uniform(-1, 1, (2, 7, 6, 4)).astype(np.float32))
filt = tf.constant(rng.uniform(-1, 1, (3, 3, 5, 4)).astype(np.float32))
outs["atrous_t_same"] = tf.nn.atrous_conv2d_transpose(val, filt, [2, 7, 6, 5], 2, "SAME")
outs["atrous_t_rate1"] = tf.nn.atrous_conv2d_transpose(val, filt, [2, 9, 8, 5], 1, "VALID")
vval = tf.constant(rng.uniform(-1, 1, (2, 3, 2, 4)).astype(np.float32))
outs["atrous_t_valid"] = tf.nn.atrous_conv2d_transpose(vval, filt, [2, 7, 6, 5], 2, "VALID")

w2 = tf.constant(rng.uniform(-1, 1, (3, 2, 3, 4)).astype(np.float32))


def conv_op(x, num_spatial_dims, padding):
    return tf.nn.conv2d(x, w2, [1, 1, 1, 1], padding)


outs["wstb_same"] = tf.nn.with_space_to_batch(img, [2, 3], "SAME", conv_op, filter_shape=[3, 2])
outs["wstb_valid"] = tf.nn.with_space_to_batch(img, [2, 1], "VALID", conv_op)
outs["wstb_rate1"] = tf.nn.with_space_to_batch(img, [1, 1], "SAME", conv_op)
outs["wstb_pool"] = tf.nn.with_space_to_batch(
    img, [2, 2], "SAME", lambda x, n, p: tf.nn.max_pool(x, [1, 2, 2, 1], [1, 1, 1, 1], p), filter_shape=[2, 2])

with tf.Session() as sess:
    vals = sess.run(outs)
for k, t in outs.items():
    RESULTS[k] = vals[k]
    RESULTS[k + "/meta"] = [t.dtype.name, t.shape.as_list()]
for k in ("dilation_same", "erosion_valid", "conv3d_bp_filter", "dw_bp_input", "dw_bp_filter"):
    RESULTS[k + "/op"] = outs[k].op.type

for name, fn in [("dilation_bad_depth", lambda: tf.nn.dilation2d(img, tf.zeros([2, 2, 4]), [1, 1, 1, 1],
                                                                   [1, 1, 1, 1], "SAME")),
                 ("atrous_t_rate0", lambda: tf.nn.atrous_conv2d_transpose(val, filt, [2, 7, 6, 5], 0, "SAME")),
                 ("atrous_t_bad_padding", lambda: tf.nn.atrous_conv2d_transpose(val, filt, [2, 7, 6, 5], 2, "FULL")),
                 ("wstb_same_no_filter", lambda: tf.nn.with_space_to_batch(img, [2, 2], "SAME", conv_op)),
                 ("wstb_rate0", lambda: tf.nn.with_space_to_batch(img, [0, 2], "VALID", conv_op))]:
    try:
        fn()
        RESULTS[name] = "no error"
    except Exception as e:  # noqa: BLE001
        RESULTS[name] = type(e).__name__
