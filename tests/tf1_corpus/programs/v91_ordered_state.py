"""Reads ordered after updates by control dependencies, updates inside tf.cond and tf.while_loop bodies,
an update chain built with tf.control_dependencies, and tf.tuple / tf.group barriers."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
v = tf.Variable(1.0, name="v")
inc = tf.assign_add(v, 1.0)
with tf.control_dependencies([inc]):
    doubled = v * 2.0
    ident = tf.identity(v)
    rv = v.read_value() + 0.5

acc = tf.Variable(tf.zeros([3]), name="acc")
x = tf.placeholder(tf.float32, [3])
flag = tf.placeholder(tf.bool, [])
upd = tf.cond(flag, lambda: tf.assign_add(acc, x), lambda: tf.assign_sub(acc, x))

counter = tf.Variable(0, name="counter")


def body(i, total):
    with tf.control_dependencies([tf.assign_add(counter, 1)]):
        return i + 1, total + tf.cast(i, tf.float32)


n_iter, total = tf.while_loop(lambda i, t: i < 4, body, [tf.constant(0), tf.constant(0.0)])

chain_var = tf.Variable(2.0, name="chain")
step1 = tf.assign(chain_var, chain_var * 3.0)
with tf.control_dependencies([step1]):
    step2 = tf.assign_add(chain_var, 1.0)
with tf.control_dependencies([step2]):
    step3 = tf.assign(chain_var, chain_var.read_value() * 2.0)

a = tf.Variable(5.0, name="a")
t1, t2 = tf.tuple([tf.assign_add(a, 1.0), tf.constant(7.0)])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["doubled"] = [sess.run(doubled) for _ in range(3)]
    RESULTS["ident"] = sess.run(ident)
    RESULTS["rv"] = sess.run(rv)
    RESULTS["v"] = sess.run(v)
    RESULTS["cond"] = [sess.run(upd, {x: [1.0, 2.0, 3.0], flag: f}) for f in (True, True, False)]
    RESULTS["acc"] = sess.run(acc)
    RESULTS["loop"] = sess.run([n_iter, total])
    RESULTS["counter"] = sess.run(counter)
    RESULTS["loop_again"] = sess.run(total)
    RESULTS["counter_again"] = sess.run(counter)
    RESULTS["chain"] = sess.run(step3)
    RESULTS["chain_var"] = sess.run(chain_var)
    RESULTS["tuple"] = sess.run([t1, t2])
    RESULTS["a"] = sess.run(a)
