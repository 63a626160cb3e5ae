import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}

rng = np.random.RandomState(0)
x1 = tf.constant(rng.randn(2, 6, 3).astype(np.float32))
x2 = tf.constant(rng.randn(2, 4, 4, 3).astype(np.float32))
x3 = tf.constant(rng.randn(1, 4, 4, 4, 2).astype(np.float32))
w1 = tf.Variable(rng.randn(3, 4, 3).astype(np.float32))
per_example = tf.constant([1.0, 2.0, 3.0, 6.0])
mean, var = tf.constant([0.5, -0.5, 0.0]), tf.constant([1.0, 4.0, 0.25])
beta, gamma = tf.constant([0.1, 0.2, 0.3]), tf.constant([2.0, 1.0, 0.5])

outs = {
    "mp1": tf.nn.max_pool_v2(x1, 2, 2, "VALID"), "mp2": tf.nn.max_pool_v2(x2, [2, 2], [1, 1], "SAME"),
    "mp3": tf.nn.max_pool_v2(x3, 2, 2, "VALID"), "ap1": tf.nn.avg_pool_v2(x1, 3, 1, "SAME"),
    "ap2": tf.nn.avg_pool_v2(x2, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
    "c1t": tf.nn.conv1d_transpose(x1, w1, [2, 12, 4], 2, "SAME"),
    "c1t_valid": tf.nn.conv1d_transpose(x1, w1, [2, 8, 4], 1, "VALID"),
    "ct2": tf.nn.conv_transpose(x2, tf.ones([2, 2, 5, 3]), [2, 8, 8, 5], [1, 2, 2, 1], "SAME"),
    "bn_scaled": tf.nn.batch_norm_with_global_normalization(x2, mean, var, beta, gamma, 0.001, True),
    "bn_unscaled": tf.nn.batch_norm_with_global_normalization(x2, mean, var, beta, gamma, 0.001, False),
    "avg_loss": tf.nn.compute_average_loss(per_example),
    "avg_loss_w": tf.nn.compute_average_loss(per_example, sample_weight=[1.0, 0.0, 1.0, 0.5], global_batch_size=8),
    "reg_loss": tf.nn.scale_regularization_loss(tf.constant([0.5, 0.25])),
}
grad = tf.gradients(tf.reduce_sum(outs["c1t"] ** 2), w1)[0]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    vals, g = sess.run([outs, grad])
    for k, v in vals.items():
        RESULTS[k] = v
        RESULTS[k + "/shape"] = outs[k].shape.as_list()
        RESULTS[k + "/dtype"] = outs[k].dtype.name
    RESULTS["c1t_grad"] = g
for k in ["avg_loss", "reg_loss"]:
    RESULTS[k + "/name"] = outs[k].name
for name, fn in [("mp_rank2", lambda: tf.nn.max_pool_v2(tf.zeros([2, 3]), 2, 2, "VALID"))]:
    try:
        fn()
        RESULTS[name] = "no error"
    except Exception as e:  # noqa: BLE001
        RESULTS[name] = type(e).__name__
