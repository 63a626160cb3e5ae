"""Seeded multinomial / random.categorical draw TF's samples (small batches, which TF's CPU kernel runs as one
shard): run after run, with -inf logits, int32 and int64 ids, and a char-RNN style sampling loop."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

tf.set_random_seed(12)
probs = np.array([[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1], [0.25, 0.25, 0.25, 0.25]], np.float32)
draws = tf.multinomial(tf.log(probs), 5)
masked = tf.random.categorical(tf.constant([[1.0, 2.0, 3.0, -np.inf, 0.5] * 13]), 1, seed=3)
as_int32 = tf.random.categorical(tf.constant([[0.0, 1.0, 2.0]]), 4, dtype=tf.int32)

vocab = 7
embedding = tf.constant(np.linspace(-1.0, 1.0, vocab * 3, dtype=np.float32).reshape(vocab, 3))
weights = tf.constant(np.linspace(-2.0, 2.0, 3 * vocab, dtype=np.float32).reshape(3, vocab))
char = tf.placeholder(tf.int32, [1])
next_logits = tf.matmul(tf.nn.embedding_lookup(embedding, char), weights) / 0.7
next_char = tf.squeeze(tf.multinomial(next_logits, 1), axis=1)

RESULTS["dtypes"] = [draws.dtype.name, masked.dtype.name, as_int32.dtype.name]
with tf.Session() as sess:
    RESULTS["runs"] = [sess.run([draws, masked, as_int32]) for _ in range(3)]
    text = [2]
    for _ in range(12):
        text.append(int(sess.run(next_char, {char: [text[-1]]})[0]))
    RESULTS["sampled_text"] = text
