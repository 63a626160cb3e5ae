"""tf.random_shuffle with seeds draws TF's permutations, run after run and for fed sizes."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

tf.set_random_seed(3)
a = tf.random_shuffle(tf.range(10))
b = tf.random.shuffle(tf.reshape(tf.range(14), [7, 2]), seed=5)
one = tf.random_shuffle(tf.range(1))
p = tf.placeholder(tf.int32, [None])
d = tf.random_shuffle(p, seed=9)
x = tf.constant(np.arange(24, dtype=np.float32).reshape(8, 3))
idx = tf.random_shuffle(tf.range(8))
batch = tf.gather(x, idx[:4])
with tf.Session() as sess:
    RESULTS["a"] = [sess.run(a) for _ in range(3)]
    RESULTS["b"] = [sess.run(b) for _ in range(2)]
    RESULTS["one"] = sess.run(one)
    RESULTS["fed"] = [sess.run(d, {p: np.arange(n)}) for n in (6, 9, 5, 2)]
    RESULTS["batches"] = [sess.run(batch) for _ in range(2)]
