"""Keras weight constraints (kernel/bias, by object, name and config) are applied after each
optimizer update in fit, survive get_config/from_config, and TF1 optimizers apply a get_variable constraint."""
import json

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}

rng = np.random.RandomState(3)
x = rng.randn(24, 4).astype(np.float32)
y = x @ np.array([[3.0], [-2.0], [1.0], [0.5]], np.float32) + 0.2
k0 = rng.randn(4, 3).astype(np.float32)
k1 = rng.randn(3, 1).astype(np.float32)

m = tf.keras.Sequential([
    tf.keras.layers.Dense(3, input_shape=(4,), kernel_constraint="max_norm", bias_constraint=tf.keras.constraints.NonNeg()),
    tf.keras.layers.Dense(1, kernel_constraint=tf.keras.constraints.MinMaxNorm(0.5, 1.5, rate=0.5)),
])
m.set_weights([k0, np.array([-0.1, 0.0, 0.2], np.float32), k1, np.array([0.1], np.float32)])
m.compile(tf.keras.optimizers.SGD(0.05, momentum=0.5), "mse")
h = m.fit(x, y, epochs=3, batch_size=8, verbose=0, shuffle=False)
RESULTS["seq_loss"] = [float(v) for v in h.history["loss"]]
RESULTS["seq_weights"] = m.get_weights()
RESULTS["seq_norms"] = np.linalg.norm(m.get_weights()[0], axis=0)

# config round trip: the constraints come back and train the clone the same way
cfg = json.loads(m.to_json())
RESULTS["config_constraints"] = [
    (layer["config"]["kernel_constraint"]["class_name"], layer["config"]["kernel_constraint"]["config"])
    for layer in cfg["config"]["layers"] if "kernel_constraint" in layer["config"]]
m2 = tf.keras.models.model_from_json(m.to_json())
RESULTS["clone_constraint_types"] = [type(layer.kernel_constraint).__name__ for layer in m2.layers]
m2.set_weights([k0, np.array([-0.1, 0.0, 0.2], np.float32), k1, np.array([0.1], np.float32)])
m2.compile(tf.keras.optimizers.SGD(0.05, momentum=0.5), "mse")
m2.fit(x, y, epochs=3, batch_size=8, verbose=0, shuffle=False)
RESULTS["json_weights"] = m2.get_weights()


# functional model: Conv2D with a filter max-norm over [0, 1, 2], unit norm, a user constraint, Adam
class ClipTo(tf.keras.constraints.Constraint):
    def __init__(self, limit):
        self.limit = limit

    def __call__(self, w):
        return tf.clip_by_value(w, -self.limit, self.limit)

    def get_config(self):
        return {"limit": self.limit}


img = rng.rand(6, 5, 5, 2).astype(np.float32)
target = rng.rand(6, 1).astype(np.float32)
inp = tf.keras.Input((5, 5, 2))
c = tf.keras.layers.Conv2D(3, 3, kernel_initializer=tf.keras.initializers.Constant(0.4),
                           kernel_constraint=tf.keras.constraints.MaxNorm(1.0, axis=[0, 1, 2]),
                           bias_constraint=ClipTo(0.01))(inp)
f = tf.keras.layers.Flatten()(c)
out = tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant(0.05),
                            kernel_constraint=tf.keras.constraints.UnitNorm(axis=0))(f)
fm = tf.keras.Model(inp, out)
fm.set_weights([rng.randn(3, 3, 2, 3).astype(np.float32) * 0.3, np.array([0.02, -0.02, 0.0], np.float32),
                rng.randn(27, 1).astype(np.float32) * 0.2, np.zeros(1, np.float32)])
fm.compile(tf.keras.optimizers.Adam(0.01), "mse")
h = fm.fit(img, target, epochs=2, batch_size=3, verbose=0, shuffle=False)
RESULTS["functional_loss"] = [float(v) for v in h.history["loss"]]
RESULTS["functional_weights"] = fm.get_weights()

# constraint objects on tensors, and get/serialize
with tf.Graph().as_default(), tf.Session() as sess:
    w = tf.constant([[3.0, -0.1], [4.0, 0.2]])
    RESULTS["max_norm"] = sess.run(tf.keras.constraints.max_norm(2.0)(w))
    RESULTS["non_neg"] = sess.run(tf.keras.constraints.non_neg()(w))
    RESULTS["unit_norm_axis1"] = sess.run(tf.keras.constraints.unit_norm(axis=1)(w))
    RESULTS["min_max_norm"] = sess.run(tf.keras.constraints.MinMaxNorm(1.0, 2.0, rate=0.7)(w))
    kernel3 = tf.constant(np.arange(3 * 3 * 1 * 2, dtype=np.float32).reshape(3, 3, 1, 2))
    RESULTS["radial_3"] = sess.run(tf.keras.constraints.RadialConstraint()(kernel3))
# (tf_keras' RadialConstraint makes a Keras variable for an even kernel: evaluated in the Keras session)
kernel = tf.constant(np.arange(4 * 4 * 2 * 1, dtype=np.float32).reshape(4, 4, 2, 1))
RESULTS["radial_4"] = tf.keras.backend.eval(tf.keras.constraints.RadialConstraint()(kernel))
RESULTS["get_config"] = tf.keras.constraints.get("max_norm").get_config()
RESULTS["get_dict"] = tf.keras.constraints.get({"class_name": "MinMaxNorm", "config": {"max_value": 3.0}}).get_config()
RESULTS["serialize_class"] = tf.keras.constraints.serialize(tf.keras.constraints.UnitNorm(1))["class_name"]

# a TF1 optimizer applies the constraint of a get_variable after its update
with tf.Graph().as_default(), tf.Session() as sess:
    v = tf.get_variable("v", initializer=tf.constant([3.0, -4.0]), constraint=lambda t: tf.clip_by_value(t, -1.0, 1.0))
    op = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(v * v))
    sess.run(tf.global_variables_initializer())
    sess.run(op)
    RESULTS["tf1_optimizer_constraint"] = sess.run(v)
