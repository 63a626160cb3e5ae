import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

rng = np.random.RandomState(3)
x = rng.rand(16, 4).astype(np.float32)
y = tf.keras.utils.to_categorical(rng.randint(0, 3, 16), 3)

model = tf.keras.Sequential([
    tf.keras.layers.Dense(6, input_shape=(4,), kernel_initializer=tf.keras.initializers.Constant(0.2)),
    tf.keras.layers.BatchNormalization(momentum=0.9),
    tf.keras.layers.Activation("relu"),
    tf.keras.layers.Dense(3, activation="softmax", kernel_initializer="ones"),
])
model.compile(tf.keras.optimizers.SGD(0.2), "categorical_crossentropy", metrics=["accuracy"])
log_dir = tempfile.mkdtemp()
board = tf.keras.callbacks.TensorBoard(log_dir=log_dir)
hist = model.fit(x, y, epochs=2, batch_size=8, verbose=0, shuffle=False, validation_data=(x[:4], y[:4]),
                 callbacks=[board])
RESULTS["history"] = {k: [float(v) for v in vals] for k, vals in sorted(hist.history.items())}
events = [f for f in os.listdir(log_dir) if f.startswith("events.out.tfevents")]
RESULTS["n_event_files"] = len(events)
tags = set()
steps = set()
for event in tf.train.summary_iterator(os.path.join(log_dir, events[0])):
    for value in event.summary.value:
        tags.add(value.tag)
        steps.add(event.step)
RESULTS["tags"] = sorted(tags)
RESULTS["steps"] = sorted(steps)

# Batch norm: batch statistics when training, moving statistics when predicting.
bn = model.layers[1]
RESULTS["bn_weights"] = [w.name for w in bn.weights]
RESULTS["moving"] = [v for v in bn.get_weights()[2:]]
RESULTS["predict"] = model.predict(x[:4])
RESULTS["evaluate"] = [float(v) for v in model.evaluate(x, y, verbose=0, batch_size=16)]
RESULTS["test_on_batch"] = [float(v) for v in model.test_on_batch(x[:8], y[:8])]
RESULTS["trainable_count"] = int(sum(np.prod(w.shape.as_list()) for w in model.trainable_weights))
RESULTS["non_trainable_count"] = int(sum(np.prod(w.shape.as_list()) for w in model.non_trainable_weights))
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
