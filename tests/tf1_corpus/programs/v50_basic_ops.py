# Getting-started tutorials: constants, InteractiveSession, eval/run, Print, string formatting, reductions.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
a = tf.constant(2, name="a")
b = tf.constant(3, name="b")
x = tf.add(a, b, name="add")
y = tf.multiply(a, b)
z = tf.pow(x, y)
hello = tf.constant("Hello, TensorFlow!")
m1 = tf.constant([[3., 3.]])
m2 = tf.constant([[2.], [2.]])
product = tf.matmul(m1, m2)
sess = tf.InteractiveSession()
RESULTS["hello"] = sess.run(hello)
RESULTS["xyz"] = sess.run([x, y, z])
RESULTS["product"] = product.eval()
state = tf.Variable(0, name="counter")
one = tf.constant(1)
new_value = tf.add(state, one)
update = tf.assign(state, new_value)
tf.global_variables_initializer().run()
vals = []
for _ in range(3):
    sess.run(update)
    vals.append(sess.run(state))
RESULTS["counter"] = vals
inp = tf.placeholder(tf.float32, shape=(3,))
RESULTS["fed"] = sess.run(tf.reduce_sum(inp * 2), feed_dict={inp: [1, 2, 3]})
t = tf.constant([[1, 2, 3], [4, 5, 6]])
RESULTS["reductions"] = sess.run([tf.reduce_sum(t), tf.reduce_sum(t, 0), tf.reduce_sum(t, 1, keep_dims=True),
                                  tf.reduce_mean(t), tf.reduce_mean(tf.cast(t, tf.float32), axis=[0, 1]),
                                  tf.reduce_prod(t, 1), tf.reduce_max(t, reduction_indices=[1]),
                                  tf.argmax(t, 1), tf.cumsum(t, axis=1, exclusive=True), tf.count_nonzero(t > 2)])
RESULTS["shape_ops"] = sess.run([tf.shape(t), tf.size(t), tf.rank(t), tf.transpose(t), tf.reshape(t, [-1]),
                                 tf.tile(t, [1, 2]), tf.concat([t, t], 0), tf.stack([t, t], axis=2),
                                 tf.unstack(t, axis=1), tf.split(t, 3, axis=1), tf.pad(t, [[1, 0], [0, 1]]),
                                 tf.reverse(t, [1]), tf.one_hot([0, 2], 3), tf.range(0, 10, 3),
                                 tf.fill([2, 2], 7), tf.zeros_like(t), tf.ones([2], tf.int64), tf.eye(2)])
RESULTS["math"] = sess.run([tf.sqrt(4.0), tf.exp(1.0), tf.log(10.0), tf.square([2, 3]), tf.abs([-1.5, 2.0]),
                            tf.floor(2.7), tf.ceil(2.2), tf.round([2.5, 3.5, -0.5]), tf.sign([-2, 0, 3]),
                            tf.mod(7, 3), tf.floordiv(-7, 2), tf.truediv(7, 2), tf.div(7, 2), tf.div(7., 2.),
                            tf.maximum(3, 5), tf.sigmoid(0.0), tf.tanh(0.5), tf.reciprocal(4.0), 7 // 2 * a,
                            tf.scalar_mul(3, tf.constant([1., 2.]))])
r = tf.random_normal([2, 3], mean=1.0, stddev=2.0, seed=1)
u = tf.random_uniform([4], minval=0, maxval=10, dtype=tf.int32, seed=2)
tn = tf.truncated_normal([100], stddev=0.5, seed=3)
rv = sess.run([r, u, tn])
RESULTS["random_shapes"] = [v.shape for v in rv]
RESULTS["random_dtypes"] = [v.dtype.name for v in rv]
RESULTS["truncated_in_range"] = bool(np.all(np.abs(rv[2]) <= 1.0))
RESULTS["uniform_in_range"] = bool(np.all((rv[1] >= 0) & (rv[1] < 10)))
printed = tf.Print(x, [x, y], message="values: ")
RESULTS["printed"] = sess.run(printed)
RESULTS["names"] = [t.name for t in (x, y, z, hello, product, new_value, printed)]
RESULTS["dtypes"] = [t.dtype.name for t in (x, hello, product, state, r, u)]
RESULTS["graph_ops"] = len(tf.get_default_graph().get_operations()) > 20
RESULTS["var_repr"] = [state.name, state.shape.as_list(), state.dtype.name]
sess.close()
