import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

lines = []
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(4, (3, 3), activation="relu", input_shape=(8, 8, 1)),
    tf.keras.layers.MaxPooling2D((2, 2)),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dropout(0.25),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.summary(print_fn=lines.append)
RESULTS["sequential"] = lines
RESULTS["count_params"] = model.count_params()

lines2 = []
inp = tf.keras.Input(shape=(5,), name="x")
a = tf.keras.layers.Dense(3, name="a")(inp)
b = tf.keras.layers.Dense(3, name="b")(inp)
s = tf.keras.layers.add([a, b])
model2 = tf.keras.Model(inp, s, name="two_towers")
model2.summary(print_fn=lines2.append)
RESULTS["functional"] = lines2

lines3 = []
emb = tf.keras.Sequential([tf.keras.layers.Embedding(20, 4, input_length=6), tf.keras.layers.LSTM(3),
                           tf.keras.layers.Dense(1, activation="sigmoid")])
emb.summary(line_length=80, print_fn=lines3.append)
RESULTS["rnn"] = lines3
x = np.zeros((2, 6), np.int32)
RESULTS["rnn_predict_shape"] = list(emb.predict(x).shape)
