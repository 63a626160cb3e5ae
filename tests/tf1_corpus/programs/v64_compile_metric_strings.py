import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

rng = np.random.RandomState(0)
x = rng.rand(12, 4).astype(np.float32)
y = np.eye(6, dtype=np.float32)[np.arange(12) % 6]

model = tf.keras.Sequential([
    tf.keras.layers.Dense(6, activation="softmax", input_shape=(4,),
                          kernel_initializer=tf.keras.initializers.Constant(0.2)),
])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="categorical_crossentropy",
              metrics=["mae", "mse", "top_k_categorical_accuracy", "cosine_proximity"])
hist = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
RESULTS["history"] = {k: [float(v) for v in vals] for k, vals in sorted(hist.history.items())}
RESULTS["evaluate"] = [float(v) for v in model.evaluate(x, y, verbose=0)]
RESULTS["metrics_names"] = list(model.metrics_names)
