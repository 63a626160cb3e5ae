"""Keras 2 loss functions and loss objects (reductions, sample weights) in graph mode, and a model compiled
with them."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
K = tf.keras.backend
losses = tf.keras.losses

RESULTS = {}
rng = np.random.RandomState(1)
yt = K.constant(rng.rand(4, 3).astype(np.float32))
yp = K.constant(rng.rand(4, 3).astype(np.float32) + 0.05)
labels01 = K.constant(np.array([[0, 1, 1], [1, 0, 0], [0, 0, 1], [1, 1, 0]], np.float32))
logits = K.constant(rng.randn(4, 3).astype(np.float32))
w = K.constant(np.array([1.0, 0.5, 0.0, 2.0], np.float32))

exprs = {
    "mape": losses.mean_absolute_percentage_error(yt, yp),
    "msle": losses.mean_squared_logarithmic_error(yt, yp),
    "hinge01": losses.hinge(labels01, logits),
    "hinge_pm": losses.hinge(2.0 * labels01 - 1.5, logits),
    "squared_hinge": losses.squared_hinge(labels01, logits),
    "categorical_hinge": losses.categorical_hinge(labels01, logits),
    "log_cosh": losses.log_cosh(yt, yp * 4.0),
    "kld": losses.kld(yt, yp),
    "poisson": losses.poisson(yt, yp),
    "cosine_similarity": losses.cosine_similarity(yt, yp),
    "obj_huber": losses.Huber(delta=0.3)(yt, yp * 2.0),
    "obj_huber_w": losses.Huber()(yt, yp * 2.0, sample_weight=w),
    "obj_mse_sum": losses.MeanSquaredError(reduction="sum")(yt, yp),
    "obj_mse_none": losses.MeanSquaredError(reduction="none")(yt, yp),
    "obj_mse_w2d": losses.MeanSquaredError()(yt, yp, sample_weight=K.constant(np.ones((4, 1), np.float32) * 0.5)),
    "obj_cce_logits_w": losses.CategoricalCrossentropy(from_logits=True)(labels01 / 2.0, logits, sample_weight=w),
    "obj_scce": losses.SparseCategoricalCrossentropy(from_logits=True)(K.constant([0, 2, 1, 1]), logits),
    "obj_bce": losses.BinaryCrossentropy()(labels01, K.sigmoid(logits)),
    "obj_hinge": losses.Hinge()(labels01, logits),
    "obj_sq_hinge": losses.SquaredHinge()(labels01, logits),
    "obj_cat_hinge": losses.CategoricalHinge()(labels01, logits),
    "obj_logcosh": losses.LogCosh()(yt, yp),
    "obj_kld": losses.KLDivergence()(yt, yp),
    "obj_poisson": losses.Poisson()(yt, yp),
    "obj_cos": losses.CosineSimilarity(axis=1)(yt, yp),
    "obj_mape": losses.MeanAbsolutePercentageError()(yt, yp),
    "obj_msle": losses.MeanSquaredLogarithmicError()(yt, yp),
    "obj_mae_1d": losses.MeanAbsoluteError()(K.constant([1.0, 2.0, 3.0]), K.constant([[1.5], [2.0], [2.0]])),
}
for k, v in exprs.items():
    RESULTS[k + "/shape"] = v.shape.as_list()
RESULTS.update(K.get_session().run(exprs))
RESULTS["names"] = [exprs["obj_huber"].op.name.split("/")[0], exprs["obj_mse_sum"].op.name.split("/")[0]]
try:
    losses.MeanSquaredError(reduction="mean")
except ValueError as e:
    RESULTS["bad_reduction"] = type(e).__name__

# A small regression model compiled with Keras loss names and objects, trained from fixed weights.
x = rng.rand(16, 3).astype(np.float32)
y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.1).astype(np.float32)
for i, loss in enumerate(["mape", "msle", "logcosh", losses.Huber(delta=0.2), "kld", "poisson", "squared_hinge"]):
    model = tf.keras.Sequential([tf.keras.layers.Dense(
        1, input_shape=(3,), kernel_initializer=tf.keras.initializers.Constant(0.3),
        bias_initializer=tf.keras.initializers.Constant(0.2), activation="softplus")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss=loss, metrics=["mae"])
    hist = model.fit(x, np.abs(y), batch_size=8, epochs=2, shuffle=False, verbose=0)
    RESULTS[f"fit{i}/loss"] = np.array(hist.history["loss"], np.float32)
    RESULTS[f"fit{i}/mae"] = np.array(hist.history["mae"], np.float32)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
