"""keras.utils normalize/pad_sequences/custom_object_scope/get_custom_objects, and the layers
ActivityRegularization, Conv1DTranspose and Convolution2DTranspose trained with fit, as TF's Keras 2."""
import json

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-5, "atol": 1e-6}

U = tf.keras.utils
a = np.array([[3.0, 4.0], [0.0, 0.0], [1.0, -1.0]], np.float32)
RESULTS["normalize_l2"] = U.normalize(a)
RESULTS["normalize_l1_axis0"] = U.normalize(a, axis=0, order=1)
RESULTS["normalize_1d"] = U.normalize(np.array([1.0, 2.0, 2.0]))
RESULTS["pad_sequences"] = U.pad_sequences([[1, 2, 3], [4], [5, 6]], maxlen=2, padding="post", truncating="pre")
RESULTS["pad_sequences_default"] = U.pad_sequences([[1, 2, 3], [4]])

rng = np.random.RandomState(9)

# ActivityRegularization adds its penalty to the loss
x = rng.randn(12, 3).astype(np.float32)
y = rng.randn(12, 2).astype(np.float32)
m = tf.keras.Sequential([
    tf.keras.layers.Dense(2, input_shape=(3,), kernel_initializer=tf.keras.initializers.Constant(0.3)),
    tf.keras.layers.ActivityRegularization(l1=0.01, l2=0.1),
])
m.compile(tf.keras.optimizers.SGD(0.05), "mse")
h = m.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
RESULTS["actreg_loss"] = [float(v) for v in h.history["loss"]]
RESULTS["actreg_weights"] = m.get_weights()
RESULTS["actreg_n_losses"] = len(m.losses)
RESULTS["actreg_config_l1_l2"] = [m.layers[1].get_config()["l1"], m.layers[1].get_config()["l2"]]

# Conv1DTranspose (valid and same, strides 2) and Convolution2DTranspose
seq = rng.randn(4, 5, 3).astype(np.float32)
for padding in ("valid", "same"):
    inp = tf.keras.Input((5, 3))
    out = tf.keras.layers.Conv1DTranspose(2, 3, strides=2, padding=padding, activation="tanh")(inp)
    model = tf.keras.Model(inp, out)
    model.set_weights([rng.randn(3, 2, 3).astype(np.float32) * 0.3, np.array([0.1, -0.1], np.float32)])
    RESULTS["conv1dt_shape_" + padding] = list(model.output_shape)
    RESULTS["conv1dt_kernel_shape_" + padding] = list(model.layers[1].kernel.shape.as_list())
    pred = model.predict(seq)
    RESULTS["conv1dt_predict_" + padding] = pred
    model.compile(tf.keras.optimizers.Adam(0.01), "mse")
    model.fit(seq, np.zeros_like(pred), batch_size=2, epochs=2, verbose=0, shuffle=False)
    RESULTS["conv1dt_weights_" + padding] = model.get_weights()

img = rng.rand(2, 4, 4, 1).astype(np.float32)
c2 = tf.keras.Sequential([tf.keras.layers.Convolution2DTranspose(
    2, 3, strides=2, padding="same", input_shape=(4, 4, 1), kernel_initializer=tf.keras.initializers.Constant(0.2))])
RESULTS["conv2dt_alias_predict"] = c2.predict(img)
RESULTS["conv2dt_alias_class"] = type(c2.layers[0]).__name__


# custom objects when loading a model config
class Scale(tf.keras.layers.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, inputs):
        return inputs * self.factor

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config


sm = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,), kernel_initializer="ones"), Scale(3.0)])
text = sm.to_json()
try:
    tf.keras.models.model_from_json(text)
except (ValueError, TypeError):  # tf_keras 2.21: TypeError (older Keras: ValueError "Unknown layer")
    RESULTS["unknown_layer_raises"] = True
with U.custom_object_scope({"Scale": Scale}):
    loaded = tf.keras.models.model_from_json(text)
RESULTS["scope_loaded_factor"] = loaded.layers[-1].factor
RESULTS["scope_loaded_predict"] = loaded.predict(np.ones((1, 2), np.float32))
with U.CustomObjectScope({"Scale": Scale}):
    RESULTS["scope_class_loaded"] = type(tf.keras.models.model_from_json(text).layers[-1]).__name__
U.get_custom_objects()["Scale"] = Scale
RESULTS["global_loaded"] = type(tf.keras.models.model_from_json(text).layers[-1]).__name__
del U.get_custom_objects()["Scale"]
RESULTS["config_json_keys"] = sorted(json.loads(text)["config"]["layers"][-1]["config"])
