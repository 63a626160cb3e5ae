"""Keras 2 backend functions in graph mode, as tutorials' custom losses and layers use them."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
K = tf.keras.backend

RESULTS = {}
rng = np.random.RandomState(0)
a = K.constant(rng.randn(2, 3, 4).astype(np.float32))
m = K.constant(rng.randn(3, 4).astype(np.float32))
b2 = K.constant(rng.randn(3, 5).astype(np.float32))
ints = K.constant(np.array([[1, 0, 2], [0, 0, 3]], np.int32))

exprs = {
    "all": K.all(ints, axis=1),
    "any": K.any(ints),
    "arange": K.arange(2, 9, 3),
    "arange_float": K.arange(4, dtype="float32"),
    "arange_neg": K.arange(-3),
    "argmin": K.argmin(m),
    "batch_dot_2d": K.batch_dot(m, K.constant(rng.randn(3, 4).astype(np.float32)), axes=1),
    "batch_dot_3d": K.batch_dot(a, K.constant(rng.randn(2, 4, 5).astype(np.float32))),
    "batch_dot_axes": K.batch_dot(a, K.constant(rng.randn(2, 3, 6).astype(np.float32)), axes=(1, 1)),
    "batch_dot_3d_2d": K.batch_dot(a, K.constant(rng.randn(2, 4).astype(np.float32))),
    "batch_flatten": K.batch_flatten(a),
    "flatten": K.flatten(m),
    "bias_add": K.bias_add(a, K.constant(np.arange(4, dtype=np.float32))),
    "bias_add_cf": K.bias_add(a, K.constant(np.arange(3, dtype=np.float32)), data_format="channels_first"),
    "cos": K.cos(m),
    "sin": K.sin(m),
    "cumsum": K.cumsum(m),
    "cumprod": K.cumprod(m, axis=1),
    "elu": K.elu(m),
    "elu_alpha": K.elu(m, alpha=0.5),
    "expand_dims": K.expand_dims(m, 1),
    "greater": K.greater(m, 0.0),
    "greater_equal": K.greater_equal(m, 0.1),
    "less": K.less(m, 0.0),
    "less_equal": K.less_equal(m, 0.1),
    "not_equal": K.not_equal(ints, 0),
    "hard_sigmoid": K.hard_sigmoid(m * 4.0),
    "gather": K.gather(m, [2, 0]),
    "in_top_k": K.in_top_k(m, K.constant([1, 2, 3], tf.int32), 2),
    "l2_normalize": K.l2_normalize(m, axis=1),
    "one_hot": K.one_hot(K.constant([0, 2, 1], tf.int32), 4),
    "ones_like": K.ones_like(m),
    "zeros_like": K.zeros_like(ints),
    "permute": K.permute_dimensions(a, (2, 0, 1)),
    "transpose": K.transpose(m),
    "prod": K.prod(m, axis=0),
    "repeat": K.repeat(m, 2),
    "repeat_elements": K.repeat_elements(m, 2, axis=1),
    "reverse": K.reverse(m, 1),
    "round": K.round(m * 3.0),
    "sign": K.sign(m),
    "softplus": K.softplus(m),
    "softsign": K.softsign(m),
    "temporal_padding": K.temporal_padding(a, (1, 2)),
    "spatial_2d_padding": K.spatial_2d_padding(K.reshape(a, (2, 3, 2, 2))),
    "squeeze": K.squeeze(K.expand_dims(m, 0), 0),
    "stack": K.stack([m, m * 2.0], axis=1),
    "std": K.std(m, axis=1),
    "var": K.var(m, axis=0, keepdims=True),
    "std_bool": K.std(K.greater(m, 0.0)),
    "tile": K.tile(m, (2, 1)),
    "switch_tensor": K.switch(K.greater(m, 0.0), m, -m),
    "switch_scalar": K.switch(K.constant(True), lambda: m * 2.0, lambda: m),
    "in_train_phase_false": K.in_train_phase(m, -m, training=0),
    "in_test_phase": K.in_test_phase(m, -m, training=1),
    "map_fn": K.map_fn(lambda r: r * 2.0, m),
    "foldl": K.foldl(lambda acc, r: acc + r, m),
    "pool2d_max": K.pool2d(K.reshape(a, (2, 2, 3, 2)), (2, 2), strides=(1, 1), padding="same"),
    "pool2d_avg": K.pool2d(K.reshape(a, (2, 2, 3, 2)), (2, 2), pool_mode="avg", padding="valid"),
    "conv1d_causal": K.conv1d(a, K.constant(rng.randn(2, 4, 3).astype(np.float32)), padding="causal"),
    "conv2d": K.conv2d(K.reshape(a, (2, 2, 3, 2)), K.constant(rng.randn(2, 2, 2, 5).astype(np.float32)),
                       padding="same"),
    "resize_images": K.resize_images(K.reshape(a, (2, 2, 3, 2)), 2, 3, "channels_last"),
    "batch_normalization": K.batch_normalization(m, K.constant(0.1), K.constant(2.0), K.constant(0.5),
                                                 K.constant(1.5)),
    "cast_to_floatx_tensor": K.cast_to_floatx(ints),
}
RESULTS["cast_to_floatx_np"] = K.cast_to_floatx([1, 2])
RESULTS["names"] = {"arange": exprs["arange"].op.name}
for k, v in exprs.items():
    RESULTS[k + "/shape"] = v.shape.as_list() if v.shape.dims is not None else None
values = K.get_session().run(exprs)
for k, v in values.items():
    RESULTS[k] = v

x = K.placeholder(shape=(None, 3))
y = K.placeholder(shape=(None, None, 2))
RESULTS["repeat_elements_unknown/shape"] = K.repeat_elements(y, 2, axis=1).shape.as_list()
RESULTS["batch_flatten_unknown/shape"] = K.batch_flatten(y).shape.as_list()
RESULTS["is_keras_tensor_input"] = K.is_keras_tensor(tf.keras.layers.Input((3,)))
RESULTS["is_keras_tensor_placeholder"] = K.is_keras_tensor(x)
RESULTS["is_sparse"] = K.is_sparse(x)
try:
    K.batch_dot(m, a, axes=0)
except ValueError as e:
    RESULTS["batch_dot_axis0"] = str(e)
try:
    K.is_keras_tensor(np.zeros(2))
except ValueError as e:
    RESULTS["is_keras_tensor_error"] = type(e).__name__

v = K.variable(np.ones((2, 2), np.float32))
e = K.eye(3)
sess = K.get_session()
sess.run(tf.variables_initializer([v, e]))
sess.run(K.update_add(v, np.full((2, 2), 2.0, np.float32)))
sess.run(K.update_sub(v, np.ones((2, 2), np.float32)))
RESULTS["updated"] = sess.run(v)
sess.run(K.moving_average_update(v, np.zeros((2, 2), np.float32), 0.9))
RESULTS["moving_average"] = sess.run(v)
sess.run(K.update(v, np.eye(2, dtype=np.float32)))
RESULTS["update"] = sess.run(v)
RESULTS["eye"] = sess.run(e)
RESULTS["eye/dtype"] = e.dtype.base_dtype.name
RESULTS["bern/shape"] = K.random_bernoulli((3, 4), p=0.5).shape.as_list()
RESULTS["bern/values"] = sorted(set(np.unique(sess.run(K.random_bernoulli((50,), p=0.5, seed=1))).tolist()))
u = sess.run(K.random_uniform((200,), 2.0, 3.0, seed=3))
RESULTS["uniform/range"] = [bool(u.min() >= 2.0), bool(u.max() < 3.0)]
n = K.random_normal((4, 2), seed=2)
RESULTS["normal/shape"] = n.shape.as_list()
RESULTS["normal/dtype"] = n.dtype.name
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
