"""Keras' preprocessing helpers of word2vec and time-series tutorials: skipgrams with a sampling table,
hashing_trick (md5), Tokenizer JSON round trip, TimeseriesGenerator feeding fit_generator."""
import random

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
seq = tf.keras.preprocessing.sequence
text = tf.keras.preprocessing.text

RESULTS["sampling_table"] = seq.make_sampling_table(12)
random.seed(7)
couples, labels = seq.skipgrams([1, 2, 3, 0, 4, 5, 2], vocabulary_size=8, window_size=2, seed=11)
RESULTS["skipgrams"] = [couples, labels]
random.seed(3)
c2, l2 = seq.skipgrams([3, 1, 4, 1, 5, 9, 2, 6], 10, window_size=1, negative_samples=0.5, categorical=True,
                       shuffle=False, sampling_table=seq.make_sampling_table(10, sampling_factor=0.05))
RESULTS["skipgrams_categorical"] = [c2, l2]
RESULTS["hashing_md5"] = text.hashing_trick("The quick brown fox, the lazy dog.", 20, hash_function="md5")

tok = text.Tokenizer(num_words=6, oov_token="<unk>")
tok.fit_on_texts(["the cat sat", "the dog sat down", "a cat"])
back = text.tokenizer_from_json(tok.to_json())
RESULTS["tokenizer"] = [back.word_index, back.index_word, back.texts_to_sequences(["the cat ran down"]),
                        back.document_count, back.num_words]

series = np.arange(40, dtype=np.float32).reshape(20, 2)
targets = np.arange(20, dtype=np.float32) * 0.5
gen = seq.TimeseriesGenerator(series, targets, length=4, sampling_rate=2, stride=1, batch_size=5)
RESULTS["ts_len"] = len(gen)
RESULTS["ts_first"] = list(gen[0])
RESULTS["ts_last"] = list(gen[len(gen) - 1])
rev = seq.TimeseriesGenerator(series, targets, length=3, start_index=2, end_index=15, stride=3, reverse=True,
                              batch_size=2)
RESULTS["ts_rev"] = [len(rev)] + list(rev[1])

model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(2, 2)),
                             tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant(0.01))])
model.compile(optimizer=tf.keras.optimizers.SGD(0.001), loss="mse")
hist = model.fit_generator(gen, epochs=2, verbose=0, shuffle=False)
RESULTS["fit_loss"] = hist.history["loss"]
RESULTS["weights"] = model.get_weights()
