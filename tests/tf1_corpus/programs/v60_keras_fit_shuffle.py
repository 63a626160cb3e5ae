"""Keras fit orders each epoch's samples with NumPy's generator as TF's v1 training loop does (shuffle=True,
'batch', and the validation pass's own shuffle), so a program that seeds NumPy gets TF's losses."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

np.random.seed(0)
x = np.random.rand(11, 3).astype(np.float32)
y = (x.sum(1, keepdims=True) > 1.5).astype(np.float32)


def make_model():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(4, activation="relu", input_shape=(3,),
                              kernel_initializer=tf.keras.initializers.Constant(0.3)),
        tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones"),
    ])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy", metrics=["accuracy"])
    return model


m = make_model()
h = m.fit(x, y, batch_size=4, epochs=3, shuffle=True, verbose=0, validation_split=0.2)
RESULTS["history"] = {k: [float(v) for v in vals] for k, vals in h.history.items()}
RESULTS["predict"] = m.predict(x[:3])
RESULTS["numpy_after_fit"] = np.random.rand(2)

m2 = make_model()
h2 = m2.fit(x, y, batch_size=3, epochs=3, shuffle="batch", verbose=0, validation_data=(x[:5], y[:5]))
RESULTS["history_batch"] = {k: [float(v) for v in vals] for k, vals in h2.history.items()}
RESULTS["numpy_after_batch_fit"] = np.random.rand(2)

m3 = make_model()
h3 = m3.fit(x, y, batch_size=5, epochs=2, shuffle=False, verbose=0, validation_data=(x[:4], y[:4]))
RESULTS["history_unshuffled"] = {k: [float(v) for v in vals] for k, vals in h3.history.items()}
RESULTS["numpy_after_unshuffled_fit"] = np.random.rand(2)
RESULTS["evaluate"] = m3.evaluate(x, y, batch_size=4, verbose=0)
RESULTS["numpy_after_evaluate"] = np.random.rand(2)
