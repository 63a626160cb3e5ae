"""Keras optimizers (Adagrad, Adadelta, Adamax, and by name) training a small model with fit."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
rng = np.random.RandomState(4)
x = rng.randn(12, 3).astype(np.float32)
y = (x @ np.array([[0.5], [-1.0], [2.0]], np.float32)).astype(np.float32)
const = tf.keras.initializers.Constant
optimizers = {
    "adagrad": tf.keras.optimizers.Adagrad(0.1),
    "adagrad_init": tf.keras.optimizers.Adagrad(learning_rate=0.05, initial_accumulator_value=0.5, epsilon=1e-3),
    "adadelta": tf.keras.optimizers.Adadelta(1.0),
    "adadelta_rho": tf.keras.optimizers.Adadelta(learning_rate=0.5, rho=0.8),
    "adamax": tf.keras.optimizers.Adamax(0.05),
    "adamax_betas": tf.keras.optimizers.Adamax(learning_rate=0.02, beta_1=0.5, beta_2=0.9),
    "name_adagrad": "adagrad",
    "name_adadelta": "adadelta",
    "name_adamax": "adamax",
}
for key, opt in optimizers.items():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(4, input_shape=(3,), activation="tanh", kernel_initializer=const(0.2),
                              bias_initializer=const(0.1)),
        tf.keras.layers.Dense(1, kernel_initializer=const(-0.3)),
    ])
    model.compile(optimizer=opt, loss="mse")
    hist = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    RESULTS[key + "/loss"] = np.array(hist.history["loss"], np.float32)
    RESULTS[key + "/weights"] = model.get_weights()
TOLERANCE = {"rtol": 2e-4, "atol": 1e-5}
