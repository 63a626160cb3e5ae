"""tf.layers.conv3d_transpose / Conv3DTranspose and tf.layers.separable_conv1d / SeparableConv1D: variables
(names, shapes), outputs, gradients, with explicit constant initializers."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
RESULTS = {}
rng = np.random.RandomState(3)


def init(*shape):
    return tf.constant_initializer(rng.uniform(-0.5, 0.5, shape).astype(np.float32))


vol = tf.constant(rng.uniform(-1, 1, (2, 3, 4, 2, 3)).astype(np.float32))
seq = tf.constant(rng.uniform(-1, 1, (2, 9, 4)).astype(np.float32))
outs = {
    "c3t_same": tf.layers.conv3d_transpose(vol, 5, 3, strides=2, padding="same", kernel_initializer=init(3, 3, 3, 5, 3),
                                           bias_initializer=init(5)),
    "c3t_valid": tf.layers.conv3d_transpose(vol, 2, (2, 3, 1), strides=(1, 2, 3), padding="valid",
                                            kernel_initializer=init(2, 3, 1, 2, 3), activation=tf.nn.relu),
    "sep1_valid": tf.layers.separable_conv1d(seq, 6, 3, depthwise_initializer=init(3, 4, 1),
                                             pointwise_initializer=init(1, 4, 6), bias_initializer=init(6)),
    "sep1_same_mult": tf.layers.separable_conv1d(seq, 3, 2, strides=2, padding="same", depth_multiplier=2,
                                                 depthwise_initializer=init(2, 4, 2),
                                                 pointwise_initializer=init(1, 8, 3), name="sep"),
    "sep1_dilated": tf.layers.separable_conv1d(seq, 2, 3, dilation_rate=2, use_bias=False,
                                               depthwise_initializer=init(3, 4, 1),
                                               pointwise_initializer=init(1, 4, 2)),
}
layer = tf.layers.Conv3DTranspose(4, (1, 2, 2), strides=(1, 2, 2), kernel_initializer=init(1, 2, 2, 4, 3),
                                  name="up")
outs["c3t_object"] = layer(vol)
sep_layer = tf.layers.SeparableConv1D(2, 2, depthwise_initializer=init(2, 4, 1), pointwise_initializer=init(1, 4, 2))
outs["sep1_object"] = sep_layer(seq)
loss = sum(tf.reduce_sum(tf.square(t)) for t in outs.values())
grads = tf.gradients(loss, tf.trainable_variables())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    vals, gvals = sess.run([outs, grads])
for k, t in outs.items():
    RESULTS[k] = vals[k]
    RESULTS[k + "/meta"] = [t.dtype.name, t.shape.as_list()]
RESULTS["variables"] = [[v.name, v.shape.as_list()] for v in tf.trainable_variables()]
for v, g in zip(tf.trainable_variables(), gvals):
    RESULTS["grad/" + v.name] = g
RESULTS["layer_kernels"] = [layer.kernel.name, sep_layer.depthwise_kernel.name, sep_layer.pointwise_kernel.name]
