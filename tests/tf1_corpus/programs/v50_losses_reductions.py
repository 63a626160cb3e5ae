# tf.losses.* with weights and reductions, collections, get_total_loss (tf.losses guide style).
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
rng = np.random.RandomState(0)
labels = rng.rand(4, 3).astype(np.float32)
preds = rng.rand(4, 3).astype(np.float32)
w = np.array([[1.0], [0.0], [2.0], [0.5]], np.float32)
onehot = np.eye(3, dtype=np.float32)[[0, 2, 1, 1]]
logits = rng.randn(4, 3).astype(np.float32)

y = tf.placeholder(tf.float32, [None, 3], name="y")
p = tf.placeholder(tf.float32, [None, 3], name="p")
mse = tf.losses.mean_squared_error(y, p)
mse_w = tf.losses.mean_squared_error(y, p, weights=w)
mse_sum = tf.losses.mean_squared_error(y, p, weights=w, reduction=tf.losses.Reduction.SUM)
mse_none = tf.losses.mean_squared_error(y, p, weights=2.0, reduction=tf.losses.Reduction.NONE, loss_collection=None)
mse_mean = tf.losses.mean_squared_error(y, p, weights=w, reduction=tf.losses.Reduction.MEAN)
mse_nz = tf.losses.mean_squared_error(y, p, weights=w, reduction=tf.losses.Reduction.SUM_OVER_NONZERO_WEIGHTS)
mse_bs = tf.losses.mean_squared_error(y, p, weights=w, reduction=tf.losses.Reduction.SUM_OVER_BATCH_SIZE)
absd = tf.losses.absolute_difference(y, p, weights=w)
hub = tf.losses.huber_loss(y, p * 3.0, delta=0.5)
logl = tf.losses.log_loss(y, p, epsilon=1e-6)
hinge = tf.losses.hinge_loss(tf.round(y), p)
cos = tf.losses.cosine_distance(tf.nn.l2_normalize(y, 1), tf.nn.l2_normalize(p, 1), axis=1)
mpse = tf.losses.mean_pairwise_squared_error(y, p)
sce = tf.losses.sigmoid_cross_entropy(tf.round(y), logits, label_smoothing=0.1)
smce = tf.losses.softmax_cross_entropy(onehot, logits, label_smoothing=0.2)
smce_w = tf.losses.softmax_cross_entropy(onehot, logits, weights=tf.constant([1.0, 2.0, 0.0, 1.0]))
ssce = tf.losses.sparse_softmax_cross_entropy(tf.constant([0, 2, 1, 1]), logits)
v = tf.get_variable("v", [3], initializer=tf.constant_initializer(0.5),
                    regularizer=tf.contrib.layers.l2_regularizer(0.1) if False else None)
tf.losses.add_loss(tf.reduce_sum(v) * 0.01)
reg = tf.nn.l2_loss(v) * 0.1
tf.add_to_collection(tf.GraphKeys.REGULARIZATION_LOSSES, reg)
total = tf.losses.get_total_loss()
total_noreg = tf.losses.get_total_loss(add_regularization_losses=False)
reg_loss = tf.losses.get_regularization_loss()

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    fd = {y: labels, p: preds}
    out = sess.run({"mse": mse, "mse_w": mse_w, "mse_sum": mse_sum, "mse_none": mse_none,
                    "mse_mean": mse_mean, "mse_nz": mse_nz, "mse_bs": mse_bs, "absd": absd,
                    "hub": hub, "logl": logl, "hinge": hinge, "cos": cos, "mpse": mpse,
                    "sce": sce, "smce": smce, "smce_w": smce_w, "ssce": ssce,
                    "total": total, "total_noreg": total_noreg, "reg_loss": reg_loss}, fd)
    RESULTS.update(out)
RESULTS["n_losses"] = len(tf.losses.get_losses())
RESULTS["loss_names"] = [t.name for t in tf.losses.get_losses()]
RESULTS["names"] = [mse.name, mse_none.name, hub.name, total.name, reg_loss.name]
RESULTS["shapes"] = [mse_none.shape.as_list(), cos.shape.as_list(), mse.shape.as_list()]
RESULTS["reductions"] = [tf.losses.Reduction.MEAN, tf.losses.Reduction.SUM_BY_NONZERO_WEIGHTS]
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
