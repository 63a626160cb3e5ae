"""Control flow as tutorials write it: cond (with ops as results), while_loop, map_fn, scan, fold, case."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

x = tf.placeholder(tf.float32, [None, 3], name="x")
is_training = tf.placeholder(tf.bool, [], name="is_training")
n = tf.placeholder(tf.int32, [], name="n")
counter = tf.Variable(0.0, name="counter")

doubled = tf.cond(is_training, lambda: x * 2, lambda: x + 1)
pair = tf.cond(is_training, lambda: (x, tf.constant(1)), lambda: (x * 2, tf.constant(2)))
update = tf.cond(is_training, lambda: tf.assign_add(counter, 1.0).op, lambda: tf.no_op())
both = tf.cond(is_training, lambda: tf.group(tf.assign_add(counter, 10.0)), lambda: tf.assign(counter, -1.0).op)

i_final, total = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + tf.reduce_sum(x)), [0, 0.0])
grown = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, tf.concat([a, a], 0)), [0, tf.ones([1, 2])],
                      shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 2])])[1]
capped = tf.while_loop(lambda i: i < 10, lambda i: i + 1, [tf.constant(0)], maximum_iterations=4)
fib = tf.while_loop(lambda i, a, b: i < n, lambda i, a, b: (i + 1, b, a + b), (0, 0, 1))

row_sums = tf.map_fn(lambda r: tf.reduce_sum(r), x)
arg = tf.map_fn(lambda r: tf.cast(tf.argmax(r), tf.int32), x, dtype=tf.int32)
two = tf.map_fn(lambda r: (r * 2, tf.reduce_sum(r)), x, dtype=(tf.float32, tf.float32))
cum = tf.scan(lambda a, r: a + r, x)
running = tf.scan(lambda a, r: a + tf.reduce_sum(r), x, initializer=0.0)
rev = tf.scan(lambda a, r: a + r, x, reverse=True)
acc = tf.scan(lambda a, r: (a[0] + r, a[1] * 2), x, initializer=(tf.zeros([3]), tf.constant(1.0)))
folded = tf.foldl(lambda a, r: a + r, x)
digits = tf.foldr(lambda a, r: a * 10 + r, tf.constant([1, 2, 3]), initializer=0)
picked = tf.case([(n > 2, lambda: tf.constant(1)), (n > 0, lambda: tf.constant(2))], default=lambda: tf.constant(3))

built = {"doubled": doubled, "pair0": pair[0], "pair1": pair[1], "update": update, "both": both,
         "i_final": i_final, "total": total, "grown": grown, "capped": capped, "row_sums": row_sums, "arg": arg,
         "two0": two[0], "two1": two[1], "cum": cum, "running": running, "rev": rev, "acc0": acc[0],
         "acc1": acc[1], "folded": folded, "digits": digits, "picked": picked}
RESULTS["dtypes"] = {k: t.dtype.name for k, t in built.items()}
RESULTS["shapes"] = {k: t.shape.as_list() for k, t in built.items()}
RESULTS["cond_names"] = [doubled.name, pair[0].name, pair[1].name, update.name, both.name]

errors = {}
for key, make in {
    "cond_dtypes": lambda: tf.cond(is_training, lambda: tf.zeros([2]), lambda: tf.zeros([2], tf.int32)),
    "while_shape": lambda: tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, tf.concat([a, a], 0)),
                                         [0, tf.zeros([1, 3])]),
    "while_structure": lambda: tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1,), [0, 0.0]),
    "case_dtypes": lambda: tf.case([(n > 0, lambda: tf.constant(1.0))], default=lambda: tf.constant(1)),
}.items():
    try:
        make()
        errors[key] = None
    except Exception as e:  # noqa: BLE001
        errors[key] = type(e).__name__
RESULTS["errors"] = errors

xv = np.arange(6, dtype=np.float32).reshape(2, 3)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["train"] = sess.run([doubled, pair, update], {x: xv, is_training: True})
    RESULTS["counter1"] = sess.run(counter)
    RESULTS["eval"] = sess.run([doubled, pair, update], {x: xv, is_training: False})
    RESULTS["counter2"] = sess.run(counter)
    RESULTS["both"] = [sess.run(both, {is_training: True}), sess.run(counter), sess.run(both, {is_training: False}),
                       sess.run(counter)]
    RESULTS["loops"] = sess.run([i_final, total, capped, fib], {x: xv, n: 5})
    RESULTS["maps"] = sess.run([row_sums, arg, two, cum, running, rev, acc, folded, digits], {x: xv})
    RESULTS["case"] = [sess.run(picked, {n: v}) for v in (5, 1, -1)]
