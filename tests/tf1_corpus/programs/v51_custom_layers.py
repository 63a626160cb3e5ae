import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
K = tf.keras.backend


class Linear(tf.keras.layers.Layer):
    """A dense layer written by hand, as the Keras guide's custom layer."""

    def __init__(self, units=2, **kwargs):
        super(Linear, self).__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=(int(input_shape[-1]), self.units),
                                 initializer=tf.keras.initializers.Constant(0.5), trainable=True)
        self.b = self.add_weight(name="b", shape=(self.units,), initializer="zeros", trainable=True)
        super(Linear, self).build(input_shape)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.units)

    def get_config(self):
        config = super(Linear, self).get_config()
        config.update({"units": self.units})
        return config


class Residual(tf.keras.Model):
    def __init__(self):
        super(Residual, self).__init__(name="residual")
        self.dense1 = tf.keras.layers.Dense(3, activation="relu", kernel_initializer="ones")
        self.dense2 = tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant(0.1))

    def call(self, inputs):
        h = self.dense1(inputs)
        return self.dense2(h + inputs)


x = np.arange(12, dtype=np.float32).reshape(4, 3) / 12.0
y = np.array([[0.5], [1.0], [1.5], [2.0]], np.float32)

inp = tf.keras.Input(shape=(3,))
lin = Linear(4, name="linear")
out = tf.keras.layers.Dense(1, kernel_initializer="ones")(lin(inp))
model = tf.keras.Model(inp, out)
model.compile(tf.keras.optimizers.SGD(0.01), "mse")
RESULTS["weights_names"] = [w.name for w in model.weights]
RESULTS["linear_config"] = lin.get_config()
h = model.fit(x, y, epochs=2, batch_size=2, verbose=0, shuffle=False)
RESULTS["loss"] = [float(v) for v in h.history["loss"]]
RESULTS["linear_output_shape"] = list(lin.output_shape)
RESULTS["linear_weights"] = lin.get_weights()
clone = tf.keras.models.model_from_json(model.to_json(), custom_objects={"Linear": Linear})
RESULTS["clone_layers"] = [type(layer).__name__ for layer in clone.layers]

sub = Residual()
sub.compile(tf.keras.optimizers.Adam(0.01), "mae")
h2 = sub.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
RESULTS["sub_loss"] = [float(v) for v in h2.history["loss"]]
RESULTS["sub_predict"] = sub.predict(x)
RESULTS["sub_n_weights"] = len(sub.weights)
RESULTS["sub_layers"] = [layer.name for layer in sub.layers]

# Keras layers in a plain TF1 graph and session.
tf.keras.backend.clear_session()
ph = tf.placeholder(tf.float32, [None, 3])
dense = tf.keras.layers.Dense(2, kernel_initializer="ones", activation="relu")
out = dense(ph)
loss = tf.reduce_mean(tf.square(out - 1.0))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(train, {ph: x})
    RESULTS["session_out"] = sess.run(out, {ph: x})
    RESULTS["session_kernel"] = sess.run(dense.kernel)
RESULTS["out_name"] = out.name
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
