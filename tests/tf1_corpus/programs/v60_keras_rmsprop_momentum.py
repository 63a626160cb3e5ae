"""Keras' RMSprop with momentum, centered, and both, trains as TF's Keras 2 legacy RMSprop."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

np.random.seed(2)
x = np.random.rand(16, 3).astype(np.float32)
y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3
optimizers = {
    "momentum": tf.keras.optimizers.RMSprop(0.01, momentum=0.9),
    "centered": tf.keras.optimizers.RMSprop(0.01, centered=True),
    "both": tf.keras.optimizers.RMSprop(0.01, momentum=0.5, centered=True),
}
for key, opt in optimizers.items():
    m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,),
                                                   kernel_initializer=tf.keras.initializers.Constant(0.1))])
    m.compile(optimizer=opt, loss="mse")
    h = m.fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False)
    RESULTS[key + "_loss"] = [float(v) for v in h.history["loss"]]
    RESULTS[key + "_weights"] = m.get_weights()
