import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

rng = np.random.RandomState(2)
x = rng.rand(12, 3).astype(np.float32)
y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32)


def batches(batch_size):
    while True:
        for i in range(0, len(x), batch_size):
            yield x[i:i + batch_size], y[i:i + batch_size]


class Data(tf.keras.utils.Sequence):
    def __init__(self, batch_size):
        self.batch_size = batch_size

    def __len__(self):
        return int(np.ceil(len(x) / self.batch_size))

    def __getitem__(self, idx):
        s = slice(idx * self.batch_size, (idx + 1) * self.batch_size)
        return x[s], y[s]


model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,), kernel_initializer="zeros")])
model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
h = model.fit_generator(batches(4), steps_per_epoch=3, epochs=2, verbose=0)
RESULTS["gen_history"] = {k: [float(v) for v in vals] for k, vals in sorted(h.history.items())}
RESULTS["gen_evaluate"] = [float(v) for v in model.evaluate_generator(batches(6), steps=2)]
RESULTS["gen_predict"] = model.predict_generator((b[0] for b in batches(5)), steps=2)

model2 = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,), kernel_initializer="zeros")])
model2.compile(tf.keras.optimizers.SGD(0.1), "mse")
h2 = model2.fit(Data(5), epochs=2, verbose=0, shuffle=False, validation_data=Data(6))
RESULTS["seq_history"] = {k: [float(v) for v in vals] for k, vals in sorted(h2.history.items())}
RESULTS["seq_predict"] = model2.predict(Data(4))
RESULTS["seq_len"] = len(Data(5))
h3 = model2.fit(batches(6), steps_per_epoch=2, epochs=1, verbose=0)
RESULTS["fit_gen_history"] = [float(v) for v in h3.history["loss"]]
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
