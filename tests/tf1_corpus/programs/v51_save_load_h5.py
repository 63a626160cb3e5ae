import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

rng = np.random.RandomState(1)
x = rng.rand(10, 4).astype(np.float32)
y = (x.sum(axis=1) > 2).astype(np.int64)

model = tf.keras.Sequential([
    tf.keras.layers.Dense(8, activation="relu", input_shape=(4,), name="hidden",
                          kernel_initializer=tf.keras.initializers.Constant(0.05)),
    tf.keras.layers.Dropout(0.2),
    tf.keras.layers.Dense(2, activation="softmax", name="out", kernel_initializer="ones"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.fit(x, y, epochs=2, batch_size=5, verbose=0, shuffle=False)
before = model.predict(x)

folder = tempfile.mkdtemp()
path = os.path.join(folder, "my_model.h5")
model.save(path)
RESULTS["exists"] = os.path.exists(path)
restored = tf.keras.models.load_model(path)
RESULTS["same_predictions"] = bool(np.allclose(before, restored.predict(x), atol=1e-6))
RESULTS["restored_layers"] = [layer.name for layer in restored.layers]
RESULTS["restored_types"] = [type(layer).__name__ for layer in restored.layers]
# (dropout makes the trained numbers differ from TF's: compare the restored model with the original)
RESULTS["restored_eval"] = bool(np.allclose(restored.evaluate(x, y, verbose=0), model.evaluate(x, y, verbose=0)))
RESULTS["restored_metrics"] = list(restored.metrics_names)
# The restored model keeps training (its optimizer came back with it).
h = restored.fit(x, y, epochs=1, batch_size=5, verbose=0, shuffle=False)
RESULTS["restored_fit_keys"] = sorted(h.history)

# Weights only, HDF5.
wpath = os.path.join(folder, "weights.h5")
model.save_weights(wpath)
fresh = tf.keras.Sequential([
    tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
    tf.keras.layers.Dropout(0.2),
    tf.keras.layers.Dense(2, activation="softmax"),
])
fresh.load_weights(wpath)
RESULTS["weights_loaded"] = bool(np.allclose(before, fresh.predict(x), atol=1e-6))

# Weights only, TF checkpoint format.
cpath = os.path.join(folder, "ckpt")
model.save_weights(cpath)
fresh2 = tf.keras.Sequential([
    tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
    tf.keras.layers.Dropout(0.2),
    tf.keras.layers.Dense(2, activation="softmax"),
])
fresh2.load_weights(cpath)
RESULTS["ckpt_loaded"] = bool(np.allclose(before, fresh2.predict(x), atol=1e-6))

# JSON architecture round trip.
js = model.to_json()
clone = tf.keras.models.model_from_json(js)
clone.set_weights(model.get_weights())
RESULTS["json_same"] = bool(np.allclose(before, clone.predict(x), atol=1e-6))
RESULTS["json_layers"] = [type(layer).__name__ for layer in clone.layers]
cfg = model.get_config()
RESULTS["config_name"] = cfg["name"]
RESULTS["config_layers"] = [c["class_name"] for c in cfg["layers"]]
RESULTS["dense_config"] = {k: v for k, v in model.layers[0].get_config().items()
                           if k in ("units", "activation", "use_bias", "name", "trainable")}
