"""Sizes computed from a fed tensor's shape (tf.shape(x)[0]) where a tutorial needs one: slicing with such
bounds, tf.eye, tf.one_hot depth, tf.linspace num, tf.pad to a maximum length, tf.fill/zeros/range/tile,
an RNN zero state, tf.reshape and tf.sequence_mask; run with two batch sizes."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
x = tf.placeholder(tf.float32, [None, 3], name="x")
n = tf.shape(x)[0]
outs = {
    "head": x[: n - 1],
    "tail_cols": x[1:, : tf.shape(x)[1] - 1],
    "stride": x[:: tf.maximum(n // 2, 1)],
    "eye": tf.eye(n),
    "eye_rect": tf.eye(n, 2),
    "eye_batch": tf.eye(2, batch_shape=[n]),
    "one_hot": tf.one_hot(tf.range(n) % 2, depth=n),
    "linspace": tf.linspace(0.0, 1.0, n + 1),
    "pad": tf.pad(x, [[0, 6 - n], [0, 0]]),
    "pad_reflect": tf.pad(x, [[1, 1], [0, n - 3]], mode="REFLECT"),
    "fill": tf.fill([n, 2], 7.0),
    "zeros": tf.zeros([n, n]),
    "range": tf.range(n * 2),
    "tile": tf.tile(tf.reduce_sum(x, 0, keepdims=True), [n, 1]),
    "zero_state": tf.nn.rnn_cell.BasicRNNCell(4).zero_state(n, tf.float32),
    "reshape": tf.reshape(x, [n * 3, 1]),
    "mask": tf.sequence_mask(tf.range(n), n),
}
with tf.Session() as sess:
    for rows in (4, 5):
        xv = np.arange(rows * 3, dtype=np.float32).reshape(rows, 3)
        vals = sess.run(outs, {x: xv})
        for k, v in vals.items():
            RESULTS[f"{k}_{rows}"] = v
RESULTS["static_shapes"] = {k: str(t.shape) for k, t in outs.items()}
