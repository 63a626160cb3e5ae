"""tf.TensorSpec as TF1 code meets it: repr, equality, compatibility, from_tensor, and a tf.function
with an input_signature called in a graph."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
spec = tf.TensorSpec([None, 3], tf.float32, name="x")
RESULTS["repr"] = [repr(spec), repr(tf.TensorSpec(None)), repr(tf.TensorSpec([2], tf.int64))]
RESULTS["fields"] = [str(spec.shape), spec.dtype.name, spec.name]
RESULTS["eq"] = [spec == tf.TensorSpec([None, 3], tf.float32, "x"), spec == tf.TensorSpec([None, 3], tf.float32),
                 spec == tf.TensorSpec([None, 3], tf.float64, "x")]
RESULTS["compatible"] = [spec.is_compatible_with(tf.TensorSpec([2, 3])), spec.is_compatible_with(tf.TensorSpec([2, 4])),
                         spec.is_compatible_with(tf.TensorSpec([2, 3], tf.int32))]
p = tf.placeholder(tf.float32, [4, 3], name="p")
from_t = tf.TensorSpec.from_tensor(p)
RESULTS["from_tensor"] = [str(from_t.shape), from_t.dtype.name, from_t.name]


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def scaled_sum(x):
    return tf.reduce_sum(x * 2.0, axis=1)


out = scaled_sum(p)
with tf.Session() as sess:
    RESULTS["out"] = sess.run(out, {p: np.arange(12, dtype=np.float32).reshape(4, 3)})
