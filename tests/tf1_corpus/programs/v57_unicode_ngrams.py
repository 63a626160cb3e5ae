"""Text preprocessing with tf.strings: transcoding, code points, characters, bytes and
word n-grams of dense token tensors."""
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

words = tf.constant(["h\u00e9llo", "ab", "\u4f60\u597d"])
utf16 = tf.strings.unicode_transcode(words, "UTF-8", "UTF-16-BE")
back = tf.strings.unicode_transcode(utf16, "UTF-16-BE", "UTF-8")
bad = tf.strings.unicode_transcode(tf.constant([b"ok\xff!"]), "UTF-8", "UTF-8", replacement_char=63)
dropped = tf.strings.unicode_transcode(tf.constant([b"ok\xff!"]), "UTF-8", "UTF-8", errors="ignore")
encoded = tf.strings.unicode_encode(tf.constant([[104, 233, 0x1F600], [97, 98, 99]]), "UTF-8")
encoded32 = tf.strings.unicode_encode(tf.constant([72, 105]), "UTF-32-BE")
sentence = tf.placeholder(tf.string, [])
code_points = tf.strings.unicode_decode(sentence, "UTF-8")
chars = tf.strings.unicode_split(sentence, "UTF-8")
raw_bytes = tf.strings.bytes_split(sentence)
tokens = tf.constant([["the", "quick", "brown", "fox"], ["a", "lazy", "dog", "sleeps"]])
bigrams = tf.strings.ngrams(tokens, 2)
uni_tri = tf.strings.ngrams(tf.constant(["the", "quick", "brown", "fox"]), [1, 3], separator="_")

with tf.Session() as sess:
    out = sess.run({"utf16": utf16, "back": back, "bad": bad, "dropped": dropped, "encoded": encoded,
                    "encoded32": encoded32, "bigrams": bigrams, "uni_tri": uni_tri})
    RESULTS.update(out)
    RESULTS["code_points"], RESULTS["chars"], RESULTS["raw_bytes"] = sess.run(
        [code_points, chars, raw_bytes], feed_dict={sentence: "d\u00e9j\u00e0 vu"})
    try:
        sess.run(tf.strings.unicode_transcode(tf.constant([b"\xff"]), "UTF-8", "UTF-16-BE", errors="strict"))
    except tf.errors.InvalidArgumentError as e:
        RESULTS["strict"] = type(e).__name__

RESULTS["static"] = [utf16.shape.as_list(), encoded.shape.as_list(), code_points.dtype.name,
                     bigrams.shape.as_list(), uni_tri.shape.as_list()]

points, offsets = tf.strings.unicode_decode_with_offsets(tf.constant("h\u00e9\u4f60!"), "UTF-8")
joined = tf.strings.unsorted_segment_join(tf.constant([["a", "b"], ["c", "d"], ["e", "f"]]),
                                          tf.constant([1, 0, 1]), 3, separator="-")
flat = tf.strings.unsorted_segment_join(tf.constant(["x", "y", "z"]), tf.constant([2, 2, 0]), num_segments=4)
bad_ids = tf.strings.unsorted_segment_join(tf.constant(["x", "y"]), tf.constant([0, -1]), 2)
with tf.Session() as sess:
    RESULTS["points"], RESULTS["offsets"], RESULTS["joined"], RESULTS["flat"] = sess.run(
        [points, offsets, joined, flat])
    try:
        sess.run(bad_ids)
    except tf.errors.InvalidArgumentError as e:
        RESULTS["bad_ids"] = "not allowed to exceed num_segments" in e.message
RESULTS["static2"] = [offsets.dtype.name, joined.shape.as_list(), flat.shape.as_list()]
