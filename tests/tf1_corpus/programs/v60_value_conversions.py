"""Converting Python and NumPy values to a requested dtype: NumPy values are cast, Python values must suit
the dtype (TF's TypeError names the first one that does not)."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

ok = {
    "np_float_to_bool": lambda: tf.constant(np.array([0.0, 1.5, -2.0]), tf.bool),
    "np_int_to_bool": lambda: tf.convert_to_tensor(np.array([0, 2]), tf.bool),
    "np_float_to_int": lambda: tf.constant(np.array([1.5, -2.7]), tf.int32),
    "np_scalar_to_bool": lambda: tf.constant(np.int32(3), tf.bool),
    "np_float64_scalar_to_int": lambda: tf.constant(np.float64(2.9), tf.int64),
    "py_int_to_float": lambda: tf.constant([1, 2], tf.float32),
    "py_bool_to_int": lambda: tf.constant([True, False], tf.int32),
    "py_big_int_to_int8": lambda: tf.constant(300, tf.int8),
    "py_negative_to_uint8": lambda: tf.constant(-1, tf.uint8),
    "py_int_to_complex": lambda: tf.constant(2, tf.complex64),
    "ones_bool": lambda: tf.ones([2], tf.bool),
    "zeros_bool": lambda: tf.zeros([2, 1], tf.bool),
    "zeros_string": lambda: tf.zeros([2], tf.string),
    "fill_bool": lambda: tf.fill([2], True),
}
bad = {
    "py_int_to_bool": lambda: tf.constant(1, tf.bool),
    "py_list_to_bool": lambda: tf.constant([True, 0], tf.bool),
    "py_float_to_bool": lambda: tf.convert_to_tensor(0.5, tf.bool),
    "py_float_to_int": lambda: tf.constant([1, 2.0], tf.int32),
    "py_complex_to_float": lambda: tf.constant(1j, tf.float32),
    "np_floats_in_list_to_int": lambda: tf.constant([np.float32(1.0)], tf.int32),
}
with tf.Session() as sess:
    for key, make in ok.items():
        t = make()
        RESULTS[key] = sess.run(t)
        RESULTS[key + "_dtype"] = t.dtype.name
    for key, make in bad.items():
        try:
            make()
            RESULTS[key] = "no error"
        except Exception as e:  # noqa: BLE001 - the class and message are what is checked
            RESULTS[key] = [type(e).__name__, str(e)]
