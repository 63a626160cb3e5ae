"""Static shapes of slices on tensors with unknown dimensions (and their values)."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

x = tf.placeholder(tf.float32, [None, None], name="x")
seq = tf.placeholder(tf.float32, [None, 5, 4], name="seq")
u = tf.placeholder(tf.float32, name="u")
i = tf.placeholder(tf.int32, [], name="i")

sliced = {
    "first_row": x[0:1],
    "cols": x[:, 1:3],
    "row": x[0],
    "last_row": x[-1],
    "last_two_cols": x[:, -2:],
    "reversed": x[::-1],
    "every_other": x[::2],
    "seq_first": seq[0:1],
    "seq_steps": seq[:, 1:3],
    "seq_tail": seq[:, -2:],
    "seq_rev": seq[:, ::-1],
    "seq_stride": seq[:, ::2],
    "seq_last_feature": seq[..., 0],
    "seq_features": seq[..., 1:3],
    "seq_newaxis": seq[:, tf.newaxis],
    "seq_newaxis2": seq[tf.newaxis, ..., tf.newaxis],
    "seq_clamped": seq[:, 2:100],
    "seq_neg_start": seq[:, -100:2],
    "seq_backwards": seq[:, 3:0:-1],
    "seq_backwards2": seq[:, -1:-6:-2],
    "seq_t_index": seq[:, i],
    "seq_t_bounds": seq[:, i:i + 2],
    "slice_rest": tf.slice(seq, [0, 1, 0], [-1, -1, 2]),
    "slice_2d": tf.slice(x, [1, 1], [-1, 2]),
    "u_index": u[0],
    "u_range": u[0:1],
    "u_ellipsis": u[..., 0],
    "strided_masks": tf.strided_slice(seq, [0, 1], [0, 3], [1, 1], begin_mask=1, end_mask=1),
    "strided_shrink": tf.strided_slice(seq, [0, 1], [2, 3], [1, 1], shrink_axis_mask=1),
    "strided_newaxis": tf.strided_slice(seq, [0, 1], [2, 3], [1, 1], new_axis_mask=2),
    "strided_ellipsis": tf.strided_slice(seq, [0, 0], [2, 3], [1, 1], ellipsis_mask=1),
}
RESULTS["shapes"] = {k: (t.shape.as_list() if t.shape.ndims is not None else None) for k, t in sliced.items()}
RESULTS["names"] = {k: t.name for k, t in sliced.items()}

errors = {}
for key, make in {
    "too_many": lambda: seq[0, 1, 2, 3],
    "out_of_range": lambda: seq[:, 7],
    "two_ellipses": lambda: seq[..., 0, ...],
    "float_index": lambda: x[tf.constant(1.0)],
}.items():
    try:
        make()
        errors[key] = None
    except Exception as e:  # noqa: BLE001
        errors[key] = type(e).__name__
RESULTS["errors"] = errors

xv = np.arange(12, dtype=np.float32).reshape(3, 4)
sv = np.arange(40, dtype=np.float32).reshape(2, 5, 4)
static_ones = [k for k in sliced if k not in ("seq_t_bounds", "u_index", "u_range", "u_ellipsis")]
with tf.Session() as sess:
    values = sess.run({k: sliced[k] for k in static_ones}, {x: xv, seq: sv, i: 1})
    RESULTS["values"] = values
    RESULTS["u"] = sess.run([sliced["u_index"], sliced["u_range"]], {u: [5.0, 6.0]})
