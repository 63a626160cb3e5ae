import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
pad_sequences = tf.keras.preprocessing.sequence.pad_sequences
Tokenizer = tf.keras.preprocessing.text.Tokenizer

RESULTS = {}

texts = ["the movie was great", "awful plot and bad acting", "great acting, great movie",
         "bad movie", "i loved the plot", "worst film ever, bad", "what a great film", "boring and bad"]
labels = np.array([1, 0, 1, 0, 1, 0, 1, 0])

tok = Tokenizer(num_words=20, oov_token="<OOV>")
tok.fit_on_texts(texts)
seqs = tok.texts_to_sequences(texts)
data = pad_sequences(seqs, maxlen=6, padding="post", truncating="post")
RESULTS["word_index_size"] = len(tok.word_index)
RESULTS["data"] = data
RESULTS["matrix"] = tok.texts_to_matrix(texts[:2], mode="binary")
RESULTS["sequences_to_texts"] = tok.sequences_to_texts(seqs[:2])

model = tf.keras.models.Sequential()
model.add(tf.keras.layers.Embedding(20, 4, input_length=6,
                                    embeddings_initializer=tf.keras.initializers.RandomUniform(seed=1)))
model.add(tf.keras.layers.Conv1D(3, 2, activation="relu", kernel_initializer=tf.keras.initializers.Constant(0.1)))
model.add(tf.keras.layers.GlobalMaxPooling1D())
model.add(tf.keras.layers.BatchNormalization())
model.add(tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones"))
model.compile(loss="binary_crossentropy", optimizer=tf.keras.optimizers.SGD(0.5), metrics=["accuracy"])
emb = np.random.RandomState(0).uniform(-0.05, 0.05, (20, 4)).astype(np.float32)
model.layers[0].set_weights([emb])
hist = model.fit(data, labels, epochs=3, batch_size=4, validation_split=0.25, verbose=0, shuffle=False)
RESULTS["history"] = {k: [float(v) for v in vals] for k, vals in sorted(hist.history.items())}
RESULTS["predict"] = model.predict(data)
RESULTS["predict_classes"] = (model.predict(data) > 0.5).astype("int32")
RESULTS["bn_moving_mean"] = model.layers[3].get_weights()[2]
RESULTS["output_shapes"] = [list(layer.output_shape) for layer in model.layers]
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
