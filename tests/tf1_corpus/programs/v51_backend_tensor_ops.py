import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
K = tf.keras.backend

a = K.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
b = K.constant(np.arange(6, dtype=np.float32).reshape(2, 3) - 2.0)
x3 = K.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
y3 = K.constant(np.arange(40, dtype=np.float32).reshape(2, 4, 5) / 10.0)

RESULTS["batch_dot_2d"] = K.eval(K.batch_dot(a, b, axes=1))
RESULTS["batch_dot_3d"] = K.eval(K.batch_dot(x3, y3))
RESULTS["batch_dot_axes"] = K.eval(K.batch_dot(x3, x3, axes=[2, 2]))
RESULTS["batch_dot_shape"] = list(K.int_shape(K.batch_dot(x3, y3, axes=(2, 1))))
RESULTS["repeat_elements"] = K.eval(K.repeat_elements(a, 2, axis=1))
RESULTS["repeat"] = K.eval(K.repeat(a, 2))
RESULTS["tile"] = K.eval(K.tile(a, [1, 2]))
RESULTS["batch_flatten"] = K.eval(K.batch_flatten(x3))
RESULTS["flatten"] = K.eval(K.flatten(a))
RESULTS["permute"] = K.eval(K.permute_dimensions(x3, (0, 2, 1)))
RESULTS["switch_scalar"] = K.eval(K.switch(K.constant(True, dtype="bool"), a, b))
RESULTS["switch_tensor"] = K.eval(K.switch(K.greater(a, 2.0), a, b))
RESULTS["in_train_phase"] = K.eval(K.in_train_phase(a, b, training=0))
RESULTS["reductions"] = [K.eval(K.std(a)), K.eval(K.var(a, axis=0)), K.eval(K.prod(a + 1.0, axis=1)),
                         K.eval(K.cumsum(a, axis=1))]
RESULTS["logic"] = [K.eval(K.any(K.greater(a, 4.0))), K.eval(K.all(K.greater_equal(a, 0.0), axis=1)),
                    K.eval(K.not_equal(a, b)), K.eval(K.less_equal(a, 2.0))]
RESULTS["one_hot"] = K.eval(K.one_hot(K.constant([0, 2, 1], dtype="int32"), 3))
RESULTS["gather"] = K.eval(K.gather(a, [1, 0, 1]))
RESULTS["arange"] = K.eval(K.arange(1, 7, 2))
RESULTS["arange_dtype"] = K.dtype(K.arange(3, dtype="float32"))
RESULTS["eye"] = K.eval(K.eye(3))
RESULTS["activations"] = [K.eval(K.elu(b, alpha=0.5)), K.eval(K.softplus(b)), K.eval(K.hard_sigmoid(b))]
RESULTS["reverse"] = K.eval(K.reverse(a, axes=1))
RESULTS["squeeze"] = list(K.int_shape(K.squeeze(K.expand_dims(a, 1), 1)))
RESULTS["sign_round"] = [K.eval(K.sign(b)), K.eval(K.round(a / 4.0))]
RESULTS["random_shapes"] = [list(K.int_shape(K.random_normal((2, 3)))), K.dtype(K.random_uniform((4,))),
                            list(K.eval(K.random_binomial((3, 2), p=1.0)).shape)]
RESULTS["random_binomial_ones"] = K.eval(K.random_binomial((2, 2), p=1.0))
RESULTS["is_keras_tensor"] = [K.is_keras_tensor(tf.keras.Input((2,))), K.is_keras_tensor(a)]
RESULTS["cast_to_floatx"] = K.cast_to_floatx([1, 2])
v = K.variable(np.ones((2,), np.float32))
K.get_session().run(K.update_add(v, [1.0, 2.0]))
RESULTS["update_add"] = K.get_value(v)
img = K.constant(np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2))
kern = K.constant(np.ones((2, 2, 2, 3), np.float32))
RESULTS["conv2d"] = K.eval(K.bias_add(K.conv2d(img, kern, padding="same"), K.constant([0.0, 1.0, 2.0])))
RESULTS["pool2d"] = K.eval(K.pool2d(img, (2, 2), strides=(2, 2), pool_mode="avg"))
RESULTS["l2_normalize"] = K.eval(K.l2_normalize(b, axis=-1))
RESULTS["map_fn"] = K.eval(K.map_fn(lambda r: r * 2.0, a))
RESULTS["zeros_like"] = K.eval(K.zeros_like(a))
