"""Keras fit/evaluate/predict on tf.data datasets in graph mode: batches of known cardinality (the iterator
re-initialized each epoch), a seeded shuffle, a repeated dataset with steps_per_epoch, a mapped dataset read
until it runs out, and a validation dataset."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
tf.set_random_seed(3)
np.random.seed(1)
x = np.random.rand(20, 3).astype(np.float32)
y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)


def model():
    m = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu", input_shape=(3,),
                                                   kernel_initializer=tf.keras.initializers.Constant(0.2)),
                             tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant(-0.1))])
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    return m


m1 = model()
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
h1 = m1.fit(ds, epochs=3, verbose=0)
RESULTS["plain"] = [h1.history["loss"], h1.history["mean_absolute_error"] if "mean_absolute_error" in h1.history
                    else h1.history["mae"], m1.get_weights()]

m2 = model()
shuffled = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(20, seed=5).batch(5)
h2 = m2.fit(shuffled, epochs=3, verbose=0, validation_data=tf.data.Dataset.from_tensor_slices((x[:6], y[:6])).batch(3))
RESULTS["shuffled"] = [h2.history["loss"], h2.history["val_loss"], m2.get_weights()]

m3 = model()
repeated = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(6)
h3 = m3.fit(repeated, epochs=2, steps_per_epoch=4, verbose=0)
RESULTS["repeated"] = [h3.history["loss"], m3.get_weights()]

m4 = model()
mapped = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda a, b: (a * 2.0, b)).batch(7)
h4 = m4.fit(mapped, epochs=2, verbose=0)
RESULTS["mapped"] = [h4.history["loss"], m4.get_weights()]
RESULTS["evaluate"] = m4.evaluate(tf.data.Dataset.from_tensor_slices((x, y)).batch(10), verbose=0)
RESULTS["predict"] = m4.predict(tf.data.Dataset.from_tensor_slices(x[:5]).batch(2))
try:
    m4.fit(tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(4), epochs=1, verbose=0)
    RESULTS["infinite_error"] = "no error"
except ValueError as e:
    RESULTS["infinite_error"] = str(e)
