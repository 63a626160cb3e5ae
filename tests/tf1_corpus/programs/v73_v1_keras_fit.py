"""A Keras tutorial model after disable_v2_behavior() with a graph seed: TF1's Keras draws the default
initializers and the Dropout mask from the graph's op seeds, so the weights, the losses of fit and the
predictions are TF's; metrics are named as TF1's Keras names them ('acc', 'mean_absolute_error')."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

RESULTS = {}
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}

tf.set_random_seed(5)
np.random.seed(5)
x = np.random.rand(32, 6, 6, 1).astype(np.float32)
y = np.random.randint(0, 3, 32)
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(4, 3, activation="relu", input_shape=(6, 6, 1)),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dropout(0.3),
    tf.keras.layers.Dense(3, activation="softmax")])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy", "mae"])
RESULTS["initial"] = model.get_weights()
history = model.fit(x, y, epochs=2, batch_size=16, verbose=0)
RESULTS["history"] = history.history
RESULTS["metrics_names"] = model.metrics_names
RESULTS["predict"] = model.predict(x[:2])
seq = np.random.rand(8, 4, 3).astype(np.float32)
rnn = tf.keras.Sequential([tf.keras.layers.LSTM(3, input_shape=(4, 3)), tf.keras.layers.Dense(1)])
rnn.compile("sgd", "mse")
RESULTS["lstm_history"] = rnn.fit(seq, np.ones((8, 1)), epochs=2, verbose=0).history
RESULTS["lstm_predict"] = rnn.predict(seq[:2])
