import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

# A two-head functional model (as the Keras functional API guide): named outputs,
# losses and loss weights given as dicts and lists.
rng = np.random.RandomState(0)
x_main = rng.rand(8, 5).astype(np.float32)
x_aux = rng.rand(8, 2).astype(np.float32)
y_cls = np.array([0, 1, 2, 1, 0, 2, 1, 0])
y_reg = rng.rand(8, 1).astype(np.float32)

main_input = tf.keras.Input(shape=(5,), name="main_input")
aux_input = tf.keras.Input(shape=(2,), name="aux_input")
h = tf.keras.layers.Dense(4, activation="relu", kernel_initializer=tf.keras.initializers.Constant(0.3))(main_input)
merged = tf.keras.layers.concatenate([h, aux_input])
cls_out = tf.keras.layers.Dense(3, activation="softmax", name="cls",
                                kernel_initializer=tf.keras.initializers.Constant(0.1))(merged)
reg_out = tf.keras.layers.Dense(1, name="reg", kernel_initializer="ones")(h)
model = tf.keras.Model(inputs=[main_input, aux_input], outputs=[cls_out, reg_out])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
              loss={"cls": "sparse_categorical_crossentropy", "reg": "mse"},
              loss_weights={"cls": 1.0, "reg": 0.5},
              metrics={"cls": "accuracy"})
RESULTS["metrics_names"] = list(model.metrics_names)
hist = model.fit([x_main, x_aux], [y_cls, y_reg], epochs=2, batch_size=4, verbose=0, shuffle=False)
RESULTS["history"] = {k: [float(v) for v in vals] for k, vals in sorted(hist.history.items())}
RESULTS["evaluate"] = [float(v) for v in model.evaluate([x_main, x_aux], [y_cls, y_reg], verbose=0)]
pred = model.predict([x_main, x_aux])
RESULTS["n_pred"] = len(pred)
RESULTS["pred_cls"] = pred[0]
RESULTS["pred_reg"] = pred[1]
RESULTS["output_names"] = list(model.output_names)
RESULTS["input_names"] = list(model.input_names)

# Dict inputs and dict targets, list losses and loss weights.
model2 = tf.keras.Model(inputs=[main_input, aux_input], outputs=[cls_out, reg_out])
model2.compile(optimizer="sgd", loss=["sparse_categorical_crossentropy", "mae"], loss_weights=[0.2, 1.0])
h2 = model2.fit({"main_input": x_main, "aux_input": x_aux}, {"cls": y_cls, "reg": y_reg},
                epochs=2, batch_size=8, verbose=0, shuffle=False)
RESULTS["history2"] = {k: [float(v) for v in vals] for k, vals in sorted(h2.history.items())}
RESULTS["train_on_batch"] = [float(v) for v in model2.train_on_batch([x_main, x_aux], [y_cls, y_reg])]

# One loss for all outputs.
model3 = tf.keras.Model(inputs=main_input, outputs=[reg_out, tf.keras.layers.Dense(1, name="reg2")(h)])
model3.compile("sgd", "mse")
h3 = model3.fit(x_main, [y_reg, y_reg * 2], epochs=1, batch_size=8, verbose=0, shuffle=False)
RESULTS["history3_keys"] = sorted(h3.history)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
