"""Keras 2 stateful metric classes: in compile (AUC ROC/PR, Precision, Recall with thresholds and names,
TruePositives, BinaryAccuracy, MeanSquaredError, RootMeanSquaredError; epoch values, validation, evaluate,
unique names) and standalone in a session (update_state ops, result, variables, reset_states)."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

np.random.seed(3)
x = np.random.rand(20, 4).astype(np.float32)
y = (x.sum(1, keepdims=True) + 0.3 * np.random.randn(20, 1) > 2.0).astype(np.float32)
m = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid", input_shape=(4,),
                                              kernel_initializer=tf.keras.initializers.Constant(0.3),
                                              bias_initializer=tf.keras.initializers.Constant(-0.6))])
m.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy",
          metrics=["accuracy", tf.keras.metrics.AUC(), tf.keras.metrics.Precision(),
                   tf.keras.metrics.Recall(thresholds=0.4, name="rec"),
                   tf.keras.metrics.AUC(curve="PR", num_thresholds=50), tf.keras.metrics.TruePositives(),
                   tf.keras.metrics.BinaryAccuracy(threshold=0.6), tf.keras.metrics.MeanSquaredError(),
                   tf.keras.metrics.RootMeanSquaredError()])
h = m.fit(x, y, batch_size=6, epochs=2, verbose=0, shuffle=False, validation_split=0.25)
RESULTS["names"] = m.metrics_names
RESULTS["history"] = {k: [float(v) for v in vals] for k, vals in h.history.items()}
RESULTS["evaluate"] = m.evaluate(x, y, batch_size=7, verbose=0)

labels = tf.constant([0.0, 1.0, 1.0, 0.0, 1.0, 1.0])
scores = tf.constant([0.2, 0.8, 0.4, 0.6, 0.9, 0.3])
weights = tf.constant([1.0, 2.0, 1.0, 1.0, 0.5, 1.0])
auc = tf.keras.metrics.AUC(num_thresholds=20)
update = auc.update_state(labels, scores, sample_weight=weights)
precision = tf.keras.metrics.Precision(thresholds=[0.3, 0.5, 0.7])
p_update = precision.update_state(labels, scores)
mean = tf.keras.metrics.Mean()
m_update = mean.update_state([1.0, 2.0, 4.0], sample_weight=[1.0, 0.0, 1.0])
RESULTS["standalone_names"] = [auc.name, precision.name, mean.name, [v.name for v in auc.variables],
                               [v.name for v in precision.variables], type(update).__name__]
RESULTS["standalone_local_variables"] = len(tf.local_variables())
with tf.Session() as sess:
    sess.run(tf.variables_initializer(auc.variables + precision.variables + mean.variables))
    sess.run([update, p_update, m_update])
    RESULTS["standalone_once"] = sess.run([auc.result(), precision.result(), mean.result()])
    sess.run([update, p_update, m_update])
    RESULTS["standalone_twice"] = sess.run([auc.result(), precision.result(), mean.result()])
