"""Keras' Ftrl (plain, with L1/L2, L2 shrinkage and beta; by name) and the keras.optimizers.legacy classes
train as TF's Keras 2 optimizers in graph mode."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-5, "atol": 1e-6}

rng = np.random.RandomState(5)
x = rng.randn(16, 3).astype(np.float32)
y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3
k0 = rng.randn(3, 1).astype(np.float32) * 0.3

cases = [
    ("ftrl", lambda: tf.keras.optimizers.Ftrl(0.5)),
    ("ftrl_l1_l2", lambda: tf.keras.optimizers.Ftrl(0.3, l1_regularization_strength=0.01,
                                                    l2_regularization_strength=0.05, initial_accumulator_value=0.2)),
    ("ftrl_shrinkage_beta", lambda: tf.keras.optimizers.Ftrl(0.3, learning_rate_power=-0.3, beta=0.5,
                                                             l2_shrinkage_regularization_strength=0.1)),
    ("ftrl_name", lambda: "ftrl"),
    ("legacy_adam", lambda: tf.keras.optimizers.legacy.Adam(0.05)),
    ("legacy_sgd", lambda: tf.keras.optimizers.legacy.SGD(0.05, momentum=0.9, nesterov=True)),
    ("legacy_rmsprop", lambda: tf.keras.optimizers.legacy.RMSprop(0.01)),
    ("legacy_adagrad", lambda: tf.keras.optimizers.legacy.Adagrad(0.1)),
    ("legacy_ftrl", lambda: tf.keras.optimizers.legacy.Ftrl(0.2)),
]
for key, make in cases:
    m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    m.set_weights([k0, np.zeros(1, np.float32)])
    m.compile(make(), "mse")
    h = m.fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False)
    RESULTS[key + "_loss"] = [float(v) for v in h.history["loss"]]
    RESULTS[key + "_weights"] = m.get_weights()

RESULTS["ftrl_slots"] = sorted(tf.keras.optimizers.Ftrl(0.1).get_slot_names() or [])
for bad in [dict(initial_accumulator_value=-1.0), dict(learning_rate_power=0.5), dict(l1_regularization_strength=-0.1),
            dict(l2_regularization_strength=-0.1), dict(l2_shrinkage_regularization_strength=-0.1)]:
    try:
        tf.keras.optimizers.Ftrl(0.1, **bad)
    except ValueError as e:
        RESULTS["error_" + next(iter(bad))] = str(e)
RESULTS["legacy_is_optimizer"] = isinstance(tf.keras.optimizers.legacy.Adam(), tf.keras.optimizers.legacy.Optimizer)
