"""What print() shows of tensors, shapes and variables in a TF1 program on TF 2 (eager disabled, v2 shapes):
a tensor of unknown rank prints without a shape, unknown dimensions print as None."""
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
x = tf.placeholder(tf.float32)
y = tf.placeholder(tf.float32, shape=[None, 3], name="y")
total = tf.add(x, 2.0)
s = tf.reduce_sum(y, axis=1)
w = tf.get_variable("w", [3, 1])
layer = tf.layers.Dense(2)
out = layer(y)
RESULTS["printed"] = [str(t) for t in (x, y, total, s, y.shape, x.shape, w, layer.kernel, out)]
RESULTS["repr"] = [repr(t) for t in (x, y, s, y.shape, x.shape, y.shape[0], w)]
RESULTS["weights"] = str(layer.weights)
RESULTS["dims"] = [str(tf.Dimension(None)), repr(tf.Dimension(4)), str(tf.TensorShape([None, 2]))]
