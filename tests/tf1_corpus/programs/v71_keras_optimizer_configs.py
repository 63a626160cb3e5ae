"""get_config of Keras' optimizers (legacy OptimizerV2 in graph mode), keras.optimizers.serialize/deserialize/get,
and a model compiled with a schedule and RMSprop(centered) saved to HDF5 and loaded back (its optimizer's config;
the optimizer's slot values, which TF's Keras also restores, are not compared)."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-6, "atol": 1e-7}

O = tf.keras.optimizers
optimizers = {
    "sgd": O.SGD(0.1, momentum=0.9, nesterov=True),
    "adam": O.Adam(0.002, beta_1=0.8),
    "rmsprop": O.RMSprop(0.01, momentum=0.5, centered=True),
    "adagrad": O.Adagrad(0.05, initial_accumulator_value=0.2),
    "adadelta": O.Adadelta(),
    "adamax": O.Adamax(),
    "nadam": O.Nadam(),
    "ftrl": O.Ftrl(0.1, l1_regularization_strength=0.01, beta=0.2),
    "sgd_decay": O.SGD(0.1, decay=0.01),
    "adam_schedule": O.Adam(O.schedules.PiecewiseConstantDecay([10], [0.1, 0.01])),
}
for key, opt in optimizers.items():
    config = opt.get_config()
    if isinstance(config["learning_rate"], dict):
        config["learning_rate"] = {k: config["learning_rate"][k] for k in ("class_name", "config")}
    RESULTS["config_" + key] = config
    ser = O.serialize(opt)
    back = O.deserialize(ser)
    RESULTS["roundtrip_" + key] = [type(back).__name__, sorted(back.get_config())]
RESULTS["get_dict"] = type(O.get({"class_name": "RMSprop", "config": {"learning_rate": 0.3}})).__name__
RESULTS["get_name"] = O.get("adagrad").get_config()

rng = np.random.RandomState(4)
x = rng.randn(12, 3).astype(np.float32)
y = rng.randn(12, 1).astype(np.float32)
path = os.path.join(tempfile.mkdtemp(), "m.h5")
for key, make in [("rms_centered", lambda: O.RMSprop(0.01, centered=True)),
                  ("schedule", lambda: O.SGD(O.schedules.ExponentialDecay(0.1, 2, 0.5), momentum=0.5))]:
    m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,), kernel_initializer="ones")])
    m.compile(make(), "mse")
    m.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    m.save(path)
    loaded = tf.keras.models.load_model(path)
    lc = {k: float(v) if isinstance(v, np.floating) else v for k, v in loaded.optimizer.get_config().items()}
    if isinstance(lc["learning_rate"], dict):
        lc["learning_rate"] = {k: lc["learning_rate"][k] for k in ("class_name", "config")}
    RESULTS["loaded_config_" + key] = lc
    RESULTS["loaded_weights_" + key] = loaded.get_weights()
