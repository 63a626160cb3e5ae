"""keras.models.clone_model of Sequential and functional models (a DQN target network): the clone has new
weights from the layers' initializers, copies weights with set_weights(get_weights()), trains apart."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

rng = np.random.RandomState(11)
states = rng.randn(16, 4).astype(np.float32)
q_targets = rng.randn(16, 2).astype(np.float32)


def q_network():
    return tf.keras.Sequential([
        tf.keras.layers.Dense(8, activation="relu", input_shape=(4,),
                              kernel_initializer=tf.keras.initializers.Constant(0.1), bias_initializer="ones"),
        tf.keras.layers.Dense(2, kernel_initializer=tf.keras.initializers.Constant(-0.05)),
    ])


model = q_network()
model.set_weights([w + 0.01 * rng.randn(*w.shape).astype(np.float32) for w in model.get_weights()])
model.compile(tf.keras.optimizers.Adam(0.01), "mse")
target = tf.keras.models.clone_model(model)
RESULTS["clone_type"] = type(target).__name__
RESULTS["clone_layer_types"] = [type(layer).__name__ for layer in target.layers]
RESULTS["clone_fresh_weights"] = target.get_weights()  # the initializers' values, not the model's
RESULTS["clone_shares_no_variables"] = not set(v.name for v in target.weights) & set(v.name for v in model.weights)
target.set_weights(model.get_weights())
RESULTS["target_q_after_copy"] = target.predict(states[:4])
for step in range(3):
    # DQN: fit the online network toward targets from the frozen target network, then sync
    q_next = target.predict(states)
    y = q_targets + 0.9 * q_next.max(axis=1, keepdims=True)
    h = model.fit(states, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    RESULTS[f"loss_{step}"] = [float(v) for v in h.history["loss"]]
    RESULTS[f"target_before_sync_{step}"] = target.get_weights()[3]
    if step == 1:
        target.set_weights(model.get_weights())
RESULTS["online_weights"] = model.get_weights()
RESULTS["target_weights"] = target.get_weights()
target.compile(tf.keras.optimizers.SGD(0.1), "mse")
RESULTS["target_fit_loss"] = target.fit(states, q_targets, batch_size=16, verbose=0).history["loss"]

# a functional model with two inputs, a shared layer and a merge
a = tf.keras.Input((3,))
b = tf.keras.Input((3,))
shared = tf.keras.layers.Dense(4, activation="tanh", kernel_initializer=tf.keras.initializers.Constant(0.2))
merged = tf.keras.layers.concatenate([shared(a), shared(b)])
out = tf.keras.layers.Dense(1, kernel_initializer="ones")(merged)
fm = tf.keras.Model([a, b], out)
fm.set_weights([w * 1.5 + 0.1 for w in fm.get_weights()])
fc = tf.keras.models.clone_model(fm)
xa = rng.randn(5, 3).astype(np.float32)
xb = rng.randn(5, 3).astype(np.float32)
RESULTS["functional_clone_layers"] = [type(layer).__name__ for layer in fc.layers]
RESULTS["functional_clone_n_weights"] = len(fc.weights)
RESULTS["functional_clone_fresh"] = fc.predict([xa, xb])
fc.set_weights(fm.get_weights())
RESULTS["functional_clone_copied"] = fc.predict([xa, xb])
RESULTS["functional_original"] = fm.predict([xa, xb])

# a clone built on a given input tensor and with a clone_function
x_in = tf.keras.Input((4,))
on_input = tf.keras.models.clone_model(model, input_tensors=x_in)
RESULTS["on_input_n_layers"] = len(on_input.layers)
on_input.set_weights(model.get_weights())
RESULTS["on_input_predict"] = on_input.predict(states[:3])


def widen(layer):
    config = layer.get_config()
    if isinstance(layer, tf.keras.layers.Dense) and config["units"] == 8:
        config["units"] = 5
    return layer.__class__.from_config(config)


wide = tf.keras.models.clone_model(model, clone_function=widen)
RESULTS["clone_function_shapes"] = [list(w.shape) for w in wide.get_weights()]
