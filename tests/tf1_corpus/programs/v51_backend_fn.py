import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
K = tf.keras.backend

x = np.arange(12, dtype=np.float32).reshape(4, 3) / 12.0
model = tf.keras.Sequential([
    tf.keras.layers.Dense(4, activation="relu", input_shape=(3,), kernel_initializer="ones", name="h"),
    tf.keras.layers.Dropout(0.5),
    tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant(0.5), name="o"),
])
# Intermediate activations with K.function, in the test phase (learning phase 0).
get_hidden = K.function([model.input, K.learning_phase()], [model.layers[0].output, model.output])
hidden, out = get_hidden([x, 0])
RESULTS["hidden"] = hidden
RESULTS["out"] = out
get_h = K.function([model.input], [model.get_layer("h").output])
RESULTS["hidden2"] = get_h([x])[0]

# Gradients of the output with respect to the input (saliency), as K.gradients.
grads = K.gradients(K.sum(model.output), model.input)
RESULTS["n_grads"] = len(grads)
fn = K.function([model.input, K.learning_phase()], grads)
RESULTS["saliency"] = fn([x, 0])[0]

# An intermediate model, the usual "feature extractor".
feat = tf.keras.Model(inputs=model.input, outputs=model.get_layer("h").output)
RESULTS["feat"] = feat.predict(x)
RESULTS["feat_layers"] = [layer.name for layer in feat.layers]

# Backend math.
v = K.variable(np.array([[1.0, -2.0], [3.0, 4.0]]), name="v")
RESULTS["v_dtype"] = K.dtype(v)
RESULTS["int_shape"] = list(K.int_shape(v))
RESULTS["ops"] = K.eval(K.concatenate([K.abs(v), K.square(v), K.clip(v, -1.0, 1.0)], axis=-1))
RESULTS["mean"] = K.eval(K.mean(v, axis=0))
RESULTS["argmax"] = K.eval(K.argmax(v, axis=-1))
RESULTS["softmax"] = K.eval(K.softmax(v))
RESULTS["cce"] = K.eval(K.categorical_crossentropy(K.constant([[0.0, 1.0], [1.0, 0.0]]), K.softmax(v)))
RESULTS["ones_like"] = K.eval(K.ones_like(v))
RESULTS["stack"] = K.eval(K.stack([v, v], axis=0)).shape
RESULTS["expand"] = list(K.int_shape(K.expand_dims(v, 1)))
RESULTS["transpose"] = K.eval(K.transpose(v))
RESULTS["batch_dot"] = K.eval(K.batch_dot(K.constant(np.ones((2, 3, 4))), K.constant(np.ones((2, 4, 5)))))
RESULTS["l2n"] = K.eval(K.l2_normalize(v, axis=1))
