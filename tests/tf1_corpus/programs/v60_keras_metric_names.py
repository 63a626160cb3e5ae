"""Keras metrics given by name or function in compile: accuracies, top-k accuracies and loss-named metrics
(mae, mse, msle, crossentropies), with their History keys, metrics_names and evaluate values as TF's."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

np.random.seed(1)
x = np.random.rand(12, 4).astype(np.float32)
labels = np.random.randint(0, 3, 12)
y = np.eye(3, dtype=np.float32)[labels]


def model():
    m = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="softmax", input_shape=(4,),
                                                   kernel_initializer=tf.keras.initializers.Constant(0.2))])
    return m


m = model()
m.compile(optimizer="sgd", loss="categorical_crossentropy",
          metrics=["accuracy", "mae", "mse", "top_k_categorical_accuracy", "categorical_accuracy",
                   "binary_accuracy", "categorical_crossentropy", "msle", "binary_crossentropy",
                   tf.keras.metrics.top_k_categorical_accuracy, tf.keras.metrics.mean_absolute_percentage_error])
h = m.fit(x, y, batch_size=5, epochs=2, verbose=0, shuffle=False)
RESULTS["names"] = m.metrics_names
RESULTS["history"] = {k: [float(v) for v in vals] for k, vals in h.history.items()}
RESULTS["evaluate"] = m.evaluate(x, y, verbose=0)

s = model()
s.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
          metrics=["sparse_categorical_accuracy", "sparse_top_k_categorical_accuracy",
                   tf.keras.metrics.sparse_top_k_categorical_accuracy])
hs = s.fit(x, labels.reshape(-1, 1), batch_size=4, epochs=2, verbose=0, shuffle=False)
RESULTS["sparse_names"] = s.metrics_names
RESULTS["sparse_history"] = {k: [float(v) for v in vals] for k, vals in hs.history.items()}
