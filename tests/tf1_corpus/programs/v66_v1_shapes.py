"""After tf.disable_v2_behavior(), indexing a shape gives Dimensions (TF1's `x.get_shape()[1].value`),
and every API takes them back."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

RESULTS = {}

x = tf.placeholder(tf.float32, [None, 4, 3], name="x")
shape = x.get_shape()
RESULTS["reprs"] = [repr(shape[0]), repr(shape[1]), repr(x.shape[-1]), str(shape[1]), str(shape[0])]
RESULTS["values"] = [shape[0].value, shape[1].value, int(shape[2]), tf.dimension_value(shape[1])]
RESULTS["types"] = [isinstance(shape[1], tf.Dimension), isinstance(shape[0], tf.Dimension)]
RESULTS["arith"] = [repr(shape[1] * shape[2]), (shape[1] * shape[2]).value, repr(shape[1] + 1), repr(shape[0] * 2),
                    repr(shape[1] // 2), repr(shape[1] - shape[2])]
RESULTS["compare"] = [shape[1] == 4, shape[1] == shape[2], shape[0] == 4, shape[1] != 3, shape[1] < 5]
RESULTS["iter"] = [repr(d) for d in shape]
RESULTS["list"] = shape.as_list()
RESULTS["range"] = list(range(shape[1]))
RESULTS["np_zeros"] = np.zeros(shape[2]).shape

flat = tf.reshape(x, [-1, shape[1].value * shape[2].value])
flat2 = tf.reshape(x, [-1, shape[1] * shape[2]])
w = tf.get_variable("w", [flat.get_shape()[1], 5], initializer=tf.constant_initializer(0.1))
b = tf.Variable(tf.zeros([w.get_shape()[1]]))
h = tf.matmul(flat, w) + b
z = tf.zeros([shape[2], x.shape[1]])
t = tf.truncated_normal([flat.get_shape()[1].value, 2], seed=1)
p = tf.placeholder(tf.float32, [None, h.shape[1]])
dense = tf.layers.dense(h, h.shape[1], kernel_initializer=tf.ones_initializer())
RESULTS["static"] = [flat.shape.as_list(), flat2.shape.as_list(), h.shape.as_list(), z.shape.as_list(),
                     p.shape.as_list(), dense.shape.as_list(), repr(dense.shape[1])]
batch = tf.shape(x)[0]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: np.arange(24, dtype=np.float32).reshape(2, 4, 3)}
    RESULTS["run"] = sess.run([h, flat2, z, batch, dense], feed)
    RESULTS["t_shape"] = sess.run(t).shape
