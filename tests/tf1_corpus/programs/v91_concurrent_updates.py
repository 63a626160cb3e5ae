"""Read-modify-write updates of one variable that no edge orders, in one run: TF applies each atomically
to the variable's current value (assign_add/assign_sub/scatter_add, resource and ref variables), so all
of them land. (Updates whose delta reads the variable itself, as batch norm's moving averages do, race in
TF: the read is unordered with the other update's write, and TF's own results vary from run to run.)"""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
v = tf.Variable(0.0)
u1 = tf.assign_add(v, 1.0)
u2 = tf.assign_add(v, 10.0)
r = tf.Variable(0.0, use_resource=False)
r1 = tf.assign_add(r, 1.0)
r2 = tf.assign_add(r, 10.0)
c = tf.Variable(tf.zeros([3]))
s1 = tf.scatter_add(c, [0, 1], [1.0, 1.0])
s2 = tf.scatter_add(c, [1, 2], [5.0, 5.0])
counter = tf.Variable(0, dtype=tf.int64)
incs = [tf.assign_add(counter, tf.constant(k, tf.int64)) for k in range(1, 6)]

a = tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2))
b = tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2) * 10)


def bn(x):
    with tf.variable_scope("D", reuse=tf.AUTO_REUSE):
        return tf.layers.batch_normalization(x, training=True)


ya, yb = bn(a), bn(b)
ups = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
RESULTS["n_updates"] = len(ups)
stats = [x for x in tf.global_variables() if "moving_" in x.name]
RESULTS["stat_names"] = [x.name for x in stats]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run([u1, u2])
    RESULTS["v"] = sess.run(v)
    sess.run([r1, r2])
    RESULTS["r"] = sess.run(r)
    sess.run([s1, s2])
    RESULTS["c"] = sess.run(c)
    sess.run(tf.group(*incs))
    sess.run(incs[:2])
    RESULTS["counter"] = sess.run(counter)
    RESULTS["outputs"] = sess.run([ya, yb])
