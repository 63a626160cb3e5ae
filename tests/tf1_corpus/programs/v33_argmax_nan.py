# argmax/argmin over values holding NaN (and infinities), as TF1's CPU kernels give them.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
nan, inf = np.nan, np.inf
cases = {
    "middle": [0.5, nan, -1.25],
    "first": [nan, 0.5, -1.25],
    "last": [0.5, -1.25, nan],
    "all": [nan, nan, nan],
    "two": [1.0, nan, 3.0, nan, -2.0],
    "inf": [-inf, nan, inf, 2.0],
    "plain": [3.0, -1.0, 3.0, -1.0],
}
x = tf.placeholder(tf.float64, [None])
amax, amin = tf.argmax(x), tf.argmin(x)
m = tf.placeholder(tf.float32, [3, 4])
m_val = np.array([[1, nan, 2, 0], [nan, nan, -1, 5], [7, 3, nan, 7]], np.float32)
with tf.Session() as sess:
    for name, values in cases.items():
        RESULTS[f"argmax_{name}"], RESULTS[f"argmin_{name}"] = sess.run([amax, amin], {x: np.array(values)})
    RESULTS["argmax_rows"], RESULTS["argmin_rows"], RESULTS["argmax_cols"], RESULTS["argmin_cols"] = sess.run(
        [tf.argmax(m, 1), tf.argmin(m, 1), tf.argmax(m, 0, output_type=tf.int32), tf.argmin(m, 0)], {m: m_val})
    RESULTS["argmax_half"] = sess.run(tf.argmax(tf.constant([1.0, nan, 4.0], tf.float16)))
