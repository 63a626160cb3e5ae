import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
L = tf.keras.layers
c = tf.keras.initializers.Constant

seq = tf.placeholder(tf.float32, [None, 8, 3], name="seq")
img = tf.placeholder(tf.float32, [None, 4, 4, 2], name="img")

conv1 = L.Conv1D(4, 3, padding="same", activation="relu", kernel_initializer=c(0.1))
s1 = conv1(seq)
outs = {
    "conv1d": s1,
    "maxpool1d": L.MaxPooling1D()(s1),
    "avgpool1d": L.AveragePooling1D(pool_size=3, strides=2)(s1),
    "gap1d": L.GlobalAveragePooling1D()(s1),
    "gmp1d": L.GlobalMaxPooling1D()(s1),
    "deconv": L.Conv2DTranspose(3, 2, strides=2, kernel_initializer=c(0.05))(img),
    "sep": L.SeparableConv2D(3, 3, padding="same", depthwise_initializer=c(0.1), pointwise_initializer=c(0.2))(img),
    "lambda": L.Lambda(lambda t, k: t * k, arguments={"k": 3.0})(img),
    "leaky": L.LeakyReLU()(img - 0.5),
    "relu6": L.ReLU(max_value=6.0)(img * 10.0),
    "softmax": L.Softmax()(img),
    "zeropad": L.ZeroPadding2D(padding=((1, 0), (2, 1)))(img),
}
RESULTS["names"] = sorted(v.name for v in tf.global_variables())
RESULTS["shapes"] = {k: v.shape.as_list() for k, v in outs.items()}
sv = (np.arange(48, dtype=np.float32).reshape(2, 8, 3) % 7) / 7.0
iv = (np.arange(64, dtype=np.float32).reshape(2, 4, 4, 2) % 5) / 5.0
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["values"] = sess.run(outs, {seq: sv, img: iv})
