import csv
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
K = tf.keras.backend

x = np.linspace(-1, 1, 12).reshape(12, 1).astype(np.float32)
y = 3 * x + 0.5

model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,), kernel_initializer="zeros")])
model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss="mse", metrics=["mae"])


def schedule(epoch, lr):
    return lr * 0.5 if epoch > 0 else lr


seen = []
sched = tf.keras.callbacks.LearningRateScheduler(schedule)
log_lr = tf.keras.callbacks.LambdaCallback(
    on_epoch_end=lambda epoch, logs: seen.append(float(K.get_value(model.optimizer.lr))))
folder = tempfile.mkdtemp()
csv_path = os.path.join(folder, "log.csv")
hist = model.fit(x, y, epochs=3, batch_size=4, verbose=0, shuffle=False,
                 callbacks=[sched, log_lr, tf.keras.callbacks.CSVLogger(csv_path)])
RESULTS["lr_seen"] = seen
RESULTS["history_keys"] = sorted(hist.history)
RESULTS["lr_history"] = [float(v) for v in hist.history["lr"]]
RESULTS["loss"] = [float(v) for v in hist.history["loss"]]
with open(csv_path) as f:
    rows = list(csv.reader(f))
RESULTS["csv_header"] = rows[0]
RESULTS["csv_epochs"] = [r[0] for r in rows[1:]]
RESULTS["csv_loss"] = [float(r[rows[0].index("loss")]) for r in rows[1:]]

# ReduceLROnPlateau: a huge learning rate makes the loss grow, so the rate is cut.
model2 = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,), kernel_initializer="ones")])
model2.compile(optimizer=tf.keras.optimizers.Adam(0.5), loss="mse")
plateau = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.2, patience=1, min_lr=0.001)
h2 = model2.fit(x, y, epochs=6, batch_size=12, verbose=0, shuffle=False, callbacks=[plateau])
RESULTS["plateau_lr"] = [float(v) for v in h2.history["lr"]]
RESULTS["plateau_loss"] = [float(v) for v in h2.history["loss"]]
RESULTS["final_lr"] = float(K.get_value(model2.optimizer.lr))

# Setting the learning rate by hand, and TerminateOnNaN.
K.set_value(model2.optimizer.learning_rate, 0.01)
RESULTS["set_lr"] = float(K.get_value(model2.optimizer.lr))
bad = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,), kernel_initializer="ones")])
bad.compile(optimizer=tf.keras.optimizers.SGD(1e30), loss="mse")
h3 = bad.fit(x * 1e10, y, epochs=5, batch_size=12, verbose=0, callbacks=[tf.keras.callbacks.TerminateOnNaN()])
RESULTS["nan_epochs"] = len(h3.history["loss"])
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
