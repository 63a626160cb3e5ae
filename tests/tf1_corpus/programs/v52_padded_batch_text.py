# Variable-length sequences: from_generator + padded_batch, bucketing, as in NMT/text tutorials.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

sentences = [[3, 1, 4], [1, 5], [9, 2, 6, 5, 3], [5], [8, 9, 7, 9], [3, 2]]
labels = [0, 1, 1, 0, 1, 0]


def gen():
    for s, l in zip(sentences, labels):
        yield s, l


ds = tf.data.Dataset.from_generator(gen, (tf.int32, tf.int32), (tf.TensorShape([None]), tf.TensorShape([])))
ds = ds.map(lambda s, l: (s, tf.size(s), l))
padded = ds.padded_batch(4, padded_shapes=([None], [], []), padding_values=(-1, 0, 0))
fixed = ds.padded_batch(3, padded_shapes=([6], [], []), drop_remainder=True)
default = ds.map(lambda s, n, l: s).padded_batch(2)
RESULTS["padded_shapes"] = [s.as_list() for s in padded.output_shapes]
RESULTS["fixed_shapes"] = [s.as_list() for s in fixed.output_shapes]
RESULTS["default_shapes"] = default.output_shapes.as_list()

bucketed = ds.apply(tf.data.experimental.bucket_by_sequence_length(
    element_length_func=lambda s, n, l: n, bucket_boundaries=[3], bucket_batch_sizes=[2, 2]))
RESULTS["bucket_shapes"] = [s.as_list() for s in bucketed.output_shapes]

# A tiny classifier on the padded batches: mean of embeddings over the real tokens.
tokens, lengths, ys = tf.data.make_one_shot_iterator(fixed.repeat(2)).get_next()
emb = tf.get_variable("emb", [10, 3], initializer=tf.constant_initializer(np.linspace(-1, 1, 30).reshape(10, 3)))
mask = tf.sequence_mask(lengths, 6, dtype=tf.float32)
vectors = tf.nn.embedding_lookup(emb, tokens) * mask[:, :, None]
mean = tf.reduce_sum(vectors, 1) / tf.cast(lengths, tf.float32)[:, None]
logits = tf.layers.dense(mean, 2, kernel_initializer=tf.constant_initializer(0.3))
loss = tf.losses.sparse_softmax_cross_entropy(ys, logits)
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)


def drain(sess, t):
    out = []
    try:
        while True:
            out.append(sess.run(t))
    except tf.errors.OutOfRangeError:
        return out


with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["padded"] = drain(sess, tf.data.make_one_shot_iterator(padded).get_next())
    RESULTS["fixed"] = drain(sess, tf.data.make_one_shot_iterator(fixed).get_next())
    RESULTS["default"] = drain(sess, tf.data.make_one_shot_iterator(default).get_next())
    RESULTS["bucketed"] = drain(sess, tf.data.make_one_shot_iterator(bucketed).get_next())
    RESULTS["losses"] = [sess.run([train, loss])[1] for _ in range(2)]
    too_short = tf.data.make_one_shot_iterator(ds.padded_batch(2, padded_shapes=([2], [], []))).get_next()
    try:
        sess.run(too_short)
    except tf.errors.OpError as e:
        RESULTS["too_short"] = type(e).__name__
