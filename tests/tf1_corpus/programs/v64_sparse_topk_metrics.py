import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

rng = np.random.RandomState(1)
x = rng.rand(10, 5).astype(np.float32)
y = (np.arange(10) % 7).reshape(10, 1)

inputs = tf.keras.Input(shape=(5,))
hidden = tf.keras.layers.Dense(8, activation="tanh", kernel_initializer=tf.keras.initializers.Constant(0.05))(inputs)
outputs = tf.keras.layers.Dense(7, activation="softmax", kernel_initializer="ones")(hidden)
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
              metrics=["acc", "sparse_top_k_categorical_accuracy", tf.keras.metrics.sparse_categorical_accuracy])
hist = model.fit(x, y, batch_size=5, epochs=2, verbose=0, shuffle=False, validation_split=0.2)
RESULTS["history"] = {k: [float(v) for v in vals] for k, vals in sorted(hist.history.items())}
RESULTS["evaluate"] = [float(v) for v in model.evaluate(x, y, batch_size=5, verbose=0)]
RESULTS["metrics_names"] = list(model.metrics_names)
