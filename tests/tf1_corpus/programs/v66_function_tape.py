"""tf.function and tf.GradientTape in a TF1 graph: values, result names, a training loop on tape gradients."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}


@tf.function
def affine(x, w):
    return tf.matmul(x, w) + 1.0


@tf.function(input_signature=None)
def pair(x):
    return {"double": x * 2.0, "square": tf.square(x)}


a = tf.constant([[1.0, 2.0]])
b = tf.constant([[3.0], [4.0]])
c = affine(a, b)
d = pair(tf.constant([1.0, 3.0]))
RESULTS["names"] = [c.name, d["double"].name, d["square"].name, affine(a, b).name]
RESULTS["shapes"] = [c.shape.as_list(), d["square"].shape.as_list()]

v = tf.Variable(2.0, name="v")


@tf.function
def uses_variable(x):
    return v * x


s = uses_variable(tf.constant(3.0))
RESULTS["stateful_name"] = s.name

with tf.GradientTape() as tape:
    y = v * v * 3.0
g = tape.gradient(y, v)
x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as t2:
    t2.watch(x)
    z = x * x
    w = z * x
dz = t2.gradient(z, x)
dw = t2.gradient(w, [x, z])
with tf.GradientTape() as t3:
    q = v * 2.0
unconnected = t3.gradient(q, [v, x])
RESULTS["unconnected_none"] = unconnected[1] is None
with tf.GradientTape() as t4:
    r = tf.stack([v * 1.0, v * v])
weighted = t4.gradient(r, v, output_gradients=tf.constant([2.0, 0.5]))
with tf.GradientTape() as t5:
    e = v * 4.0
zero = t5.gradient(e, {"a": v, "b": x}, unconnected_gradients=tf.UnconnectedGradients.ZERO)

np.random.seed(0)
xs = np.random.rand(32, 3).astype(np.float32)
ys = xs @ np.array([[1.5], [-2.0], [0.5]], np.float32) + 0.25
W = tf.Variable(tf.zeros([3, 1]), name="W")
B = tf.Variable(tf.zeros([1]), name="B")
xp = tf.placeholder(tf.float32, [None, 3])
yp = tf.placeholder(tf.float32, [None, 1])
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(tf.matmul(xp, W) + B - yp))
grads = tape.gradient(loss, [W, B])
train = tf.train.GradientDescentOptimizer(0.3).apply_gradients(zip(grads, [W, B]))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["function_values"] = sess.run([c, d, s])
    RESULTS["tape"] = sess.run([g, dz, dw, unconnected[0], weighted, zero])
    losses = []
    for _ in range(30):
        losses.append(sess.run([loss, train], {xp: xs, yp: ys})[0])
    RESULTS["losses"] = losses
    RESULTS["fit"] = sess.run([W, B])
    RESULTS["identity_n_one"] = sess.run(tf.identity_n([tf.constant([1, 2])]))
