# Placeholders, math and a feed loop: Newton's method for square roots and a
# running mean/variance, fed batch by batch (TF1 style).
import numpy as np

import jaxsess as tf

tf.reset_default_graph()

a = tf.placeholder(tf.float32, shape=[None], name="a")
guess = tf.placeholder(tf.float32, shape=[None], name="guess")
next_guess = 0.5 * (guess + a / guess)
error = tf.reduce_max(tf.abs(next_guess - guess))

batch = tf.placeholder(tf.float32, shape=[None, 4], name="batch")
batch_mean = tf.reduce_mean(batch, axis=0)
batch_sq = tf.reduce_mean(tf.square(batch), axis=0)

values = np.array([2.0, 9.0, 10.0, 144.0], dtype=np.float32)
with tf.Session() as sess:
    g = np.ones_like(values)
    steps = 0
    while steps < 50:
        g, err = sess.run([next_guess, error], feed_dict={a: values, guess: g})
        steps += 1
        if err < 1e-6:
            break
    print("sqrt:", np.round(np.asarray(g), 4).tolist())
    print("converged in", steps, "steps")

    rng = np.random.RandomState(0)
    data = rng.normal(3.0, 2.0, size=(1000, 4)).astype(np.float32)
    total_mean = np.zeros(4)
    total_sq = np.zeros(4)
    n_batches = 0
    for i in range(0, len(data), 100):
        m, s = sess.run((batch_mean, batch_sq), {batch: data[i:i + 100]})
        total_mean += m
        total_sq += s
        n_batches += 1
    mean = total_mean / n_batches
    var = total_sq / n_batches - mean ** 2
    assert np.allclose(mean, data.mean(axis=0), atol=1e-4)
    assert np.allclose(var, data.var(axis=0), atol=1e-3)
    print("mean ok, var ok")
