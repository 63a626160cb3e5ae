"""Text preprocessing in the graph: string_split / strings.split, lower-casing,
regex cleanup, vocabulary lookup tables, hashing OOV buckets, py_func
tokenization, padding to a fixed length and bag-of-words by sparse ops."""
import re
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
sentences = tf.placeholder(tf.string, [None], name="sentences")
clean = tf.strings.regex_replace(tf.strings.lower(sentences), "[^a-z ]", "")
clean = tf.strings.strip(clean)
sp = tf.string_split(clean, delimiter=" ")
vocab = ["<pad>", "<unk>", "the", "cat", "sat", "on", "mat", "dog"]
table = tf.lookup.StaticVocabularyTable(
    tf.lookup.KeyValueTensorInitializer(tf.constant(vocab), tf.range(len(vocab), dtype=tf.int64)), num_oov_buckets=2)
ids_sp = table.lookup(sp)
dense_ids = tf.sparse.to_dense(ids_sp, default_value=0)
lengths = tf.reduce_sum(tf.cast(tf.not_equal(dense_ids, 0), tf.int32), axis=1)
hashed = tf.strings.to_hash_bucket_fast(sp.values, 5)
n_words = tf.size(sp.values)
word_len = tf.strings.length(sp.values)
first3 = tf.strings.substr(sp.values, 0, 3)
joined = tf.strings.reduce_join(sp.values, separator="|")
inv = tf.lookup.StaticHashTable(
    tf.lookup.KeyValueTensorInitializer(tf.range(len(vocab), dtype=tf.int64), tf.constant(vocab)), "<unk>")
back = inv.lookup(tf.constant([2, 3, 42], tf.int64))


def tokenize(batch):
    out = np.zeros([len(batch), 6], np.int32)
    for i, s in enumerate(batch):
        words = re.findall(r"[a-z]+", s.decode("utf-8").lower())[:6]
        out[i, :len(words)] = [vocab.index(w) if w in vocab else 1 for w in words]
    return out


py_ids = tf.py_func(tokenize, [sentences], tf.int32, stateful=False, name="tokenize")
py_ids.set_shape([None, 6])
emb = tf.Variable(np.arange(10 * 2).reshape(10, 2).astype(np.float32) * 0.1, name="emb")
bow = tf.reduce_mean(tf.nn.embedding_lookup(emb, py_ids), axis=1)
counts = tf.sparse.reduce_sum(tf.SparseTensor(ids_sp.indices, tf.ones_like(ids_sp.values, tf.float32),
                                              ids_sp.dense_shape), axis=1)
RESULTS["static"] = [dense_ids.dtype.name, dense_ids.shape.as_list(), py_ids.shape.as_list(),
                     sp.values.dtype.name, ids_sp.values.dtype.name]

data = ["The cat sat on the mat!", "A dog, a CAT.", "  the   dog sat  "]
with tf.Session() as sess:
    sess.run(tf.tables_initializer())
    sess.run(tf.global_variables_initializer())
    feed = {sentences: data}
    RESULTS["clean"] = sess.run(clean, feed)
    RESULTS["sp"] = sess.run(sp, feed)
    RESULTS["dense_ids"], RESULTS["lengths"] = sess.run([dense_ids, lengths], feed)
    RESULTS["hashed"], RESULTS["n_words"] = sess.run([hashed, n_words], feed)
    RESULTS["word_len"], RESULTS["first3"], RESULTS["joined"] = sess.run([word_len, first3, joined], feed)
    RESULTS["back"] = sess.run(back)
    RESULTS["py_ids"], RESULTS["bow"] = sess.run([py_ids, bow], feed)
    RESULTS["counts"] = sess.run(counts, feed)
