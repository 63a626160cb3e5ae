"""TensorShape / Dimension idioms of TF1 tutorials (get_shape, dims, as_list, set_shape, errors)."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

x = tf.placeholder(tf.float32, [None, 28, 28, 1], name="x")
flat_size = np.prod(x.get_shape().as_list()[1:])
flat = tf.reshape(x, [-1, int(flat_size)])
dims = [d.value for d in flat.get_shape().dims]
s = x.shape
RESULTS["flat_size"] = int(flat_size)
RESULTS["dims"] = dims
RESULTS["dim_strs"] = [str(d) for d in s.dims]
RESULTS["index"] = [s[1], s[0], s[-1]]
RESULTS["slice"] = s[1:3].as_list()
RESULTS["ndims"] = [s.ndims, s.rank, len(s)]
RESULTS["defined"] = [s.is_fully_defined(), s[1:].is_fully_defined(), s[1:].num_elements()]
RESULTS["merge"] = s.merge_with([8, None, None, 1]).as_list()
RESULTS["concat"] = s.concatenate([3]).as_list()
RESULTS["compatible"] = [s.is_compatible_with([5, 28, 28, 1]), s.is_compatible_with([5, 28, 28, 3])]
RESULTS["with_rank"] = [s.with_rank(4).as_list(), s.with_rank_at_least(2).as_list()]
RESULTS["dimension_math"] = [str(tf.Dimension(3) + 1), str(tf.Dimension(None) + 1), tf.Dimension(6).value,
                             tf.dimension_value(s[1])]
RESULTS["unknown"] = [str(tf.TensorShape(None)), tf.TensorShape(None).ndims, str(tf.TensorShape([None]))]

errors = {}
for key, make in {
    "with_rank": lambda: s.with_rank(2),
    "at_least": lambda: s.with_rank_at_least(5),
    "incompatible": lambda: s.assert_is_compatible_with([2, 3, 5, 1]),
    "as_list_unknown": lambda: tf.TensorShape(None).as_list(),
    "index": lambda: s[7],
}.items():
    try:
        make()
        errors[key] = None
    except Exception as e:  # noqa: BLE001
        errors[key] = type(e).__name__
RESULTS["errors"] = errors

y = tf.placeholder(tf.float32, name="y")
y.set_shape([None, 3])
z = tf.placeholder(tf.float32, [None, 3])
z.set_shape([4, 3])
RESULTS["set_shape"] = [y.shape.as_list(), z.shape.as_list()]
try:
    z.set_shape([5, 3])
    RESULTS["set_shape_error"] = None
except ValueError as e:
    RESULTS["set_shape_error"] = type(e).__name__
RESULTS["consumers"] = [op.name for op in flat.consumers()]
with tf.Session() as sess:
    RESULTS["value"] = sess.run(tf.shape(flat), {x: np.zeros([2, 28, 28, 1], np.float32)})
