import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

x = np.linspace(0, 1, 20, dtype=np.float32).reshape(10, 2)
y = (x[:, :1] * 2.0 - x[:, 1:]).astype(np.float32)

inputs = tf.keras.Input(shape=(2,), name="features")
hidden = tf.keras.layers.Dense(4, activation="tanh", kernel_initializer=tf.keras.initializers.Constant(0.3),
                               name="hidden")(inputs)
outputs = tf.keras.layers.Dense(1, kernel_initializer="zeros", name="prediction")(hidden)
model = tf.keras.Model(inputs=inputs, outputs=outputs)
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"])

folder = tempfile.mkdtemp()
best = os.path.join(folder, "best_model.h5")
checkpoint = tf.keras.callbacks.ModelCheckpoint(best, monitor="val_loss", save_best_only=True)
stop = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=2)
hist = model.fit(x, y, epochs=4, batch_size=5, verbose=0, shuffle=False, validation_data=(x[::2], y[::2]),
                 callbacks=[checkpoint, stop])
RESULTS["history"] = {k: [float(v) for v in vals] for k, vals in sorted(hist.history.items())}
best_epoch = int(np.argmin(hist.history["val_loss"]))
RESULTS["best_epoch"] = best_epoch

restored = tf.keras.models.load_model(best)
RESULTS["restored_val"] = [float(v) for v in restored.evaluate(x[::2], y[::2], verbose=0)]
RESULTS["restored_names"] = [layer.name for layer in restored.layers]
RESULTS["restored_input"] = restored.input.name
RESULTS["restored_config_layers"] = [c["class_name"] for c in restored.get_config()["layers"]]
RESULTS["restored_lr"] = float(tf.keras.backend.get_value(restored.optimizer.lr))
RESULTS["restored_prediction"] = restored.predict(x[:3])
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
