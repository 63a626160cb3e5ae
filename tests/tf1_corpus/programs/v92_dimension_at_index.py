"""tf.dimension_at_index / tf.compat.dimension_at_index give a Dimension (Dimension(None) for an unknown
entry or rank), which tf.dimension_value turns into an int or None."""
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
shape = tf.placeholder(tf.float32, [4, None, 3]).shape
for f, key in [(tf.dimension_at_index, "top"), (tf.compat.dimension_at_index, "compat")]:
    dims = [f(shape, 0), f(shape, 1), f(shape, -1), f(tf.TensorShape(None), 5)]
    RESULTS[key] = [[type(d).__name__, repr(d), tf.dimension_value(d)] for d in dims]
    RESULTS[key + "/eq"] = [dims[0] == 4, dims[2] == 3, dims[0] + 1 == 5]
try:
    tf.dimension_at_index(shape, 3)
    RESULTS["out_of_range"] = "no error"
except Exception as e:  # noqa: BLE001
    RESULTS["out_of_range"] = type(e).__name__
