"""Hashing strings into buckets (feature hashing as in the TF1 wide-and-deep tutorials):
the legacy string_to_hash_bucket (Hash64), the keyed SipHash variant and the fast one."""
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

words = tf.placeholder(tf.string, [None, 2])
batch = [["the", "quick"], ["brown", "fox"], ["", "caf\u00e9 \u00fc jumps over the lazy dog"]]
legacy = tf.string_to_hash_bucket(words, 1000)
legacy2 = tf.strings.to_hash_bucket(words, num_buckets=2 ** 40)
strong = tf.strings.to_hash_bucket_strong(words, 97, key=[123456789, 987654321])
strong2 = tf.string_to_hash_bucket_strong(words, 2 ** 50, [0, 2 ** 62])
fast = tf.string_to_hash_bucket_fast(words, 50)

with tf.Session() as sess:
    RESULTS["legacy"], RESULTS["legacy2"], RESULTS["strong"], RESULTS["strong2"], RESULTS["fast"] = sess.run(
        [legacy, legacy2, strong, strong2, fast], feed_dict={words: batch})
    RESULTS["scalar"] = sess.run(tf.string_to_hash_bucket("hello", 7))

RESULTS["meta"] = [legacy.dtype.name, legacy.shape.as_list(), strong.dtype.name, strong.shape.as_list(),
                   legacy.op.type, strong.op.type]
