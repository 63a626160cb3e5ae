"""SequenceExample parsing as in the TF1 RNN/text tutorials: a context (length, label) plus
per-time-step token ids and variable-length features, single and batched."""
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}


def make_sequence_example(tokens, label, extras):
    ex = tf.train.SequenceExample()
    ex.context.feature["length"].int64_list.value.append(len(tokens))
    ex.context.feature["label"].float_list.value.append(label)
    ex.context.feature["tags"].bytes_list.value.extend([b"t%d" % i for i in range(label > 0.5 and 2 or 1)])
    fl_tokens = ex.feature_lists.feature_list["tokens"]
    fl_pairs = ex.feature_lists.feature_list["pairs"]
    fl_extras = ex.feature_lists.feature_list["extras"]
    for t in tokens:
        fl_tokens.feature.add().int64_list.value.append(t)
        fl_pairs.feature.add().float_list.value.extend([t * 0.5, t * 1.5])
    for e in extras:
        fl_extras.feature.add().int64_list.value.extend(e)
    return ex.SerializeToString()


records = [make_sequence_example([4, 8, 15], 1.0, [[1], [2, 3], []]),
           make_sequence_example([16, 23], 0.0, [[5, 6, 7]])]

context_features = {
    "length": tf.FixedLenFeature([], dtype=tf.int64),
    "label": tf.FixedLenFeature([], dtype=tf.float32),
    "tags": tf.VarLenFeature(tf.string),
    "weight": tf.FixedLenFeature([], dtype=tf.float32, default_value=2.5),
}
sequence_features = {
    "tokens": tf.FixedLenSequenceFeature([], dtype=tf.int64),
    "pairs": tf.FixedLenSequenceFeature([2], dtype=tf.float32),
    "extras": tf.VarLenFeature(tf.int64),
    "absent": tf.FixedLenSequenceFeature([], dtype=tf.int64, allow_missing=True),
}

serialized = tf.placeholder(tf.string, [])
context, sequence = tf.parse_single_sequence_example(
    serialized, context_features=context_features, sequence_features=sequence_features)
embedded = tf.reduce_sum(tf.cast(sequence["tokens"], tf.float32) * context["label"])

batch = tf.placeholder(tf.string, [None])
b_context, b_sequence, b_lengths = tf.io.parse_sequence_example(
    batch, context_features={"length": tf.FixedLenFeature([], tf.int64)},
    sequence_features={"tokens": tf.FixedLenSequenceFeature([], tf.int64),
                       "extras": tf.VarLenFeature(tf.int64)})

with tf.Session() as sess:
    for i, rec in enumerate(records):
        c, s, e = sess.run([context, sequence, embedded], feed_dict={serialized: rec})
        RESULTS[f"ctx{i}"] = {k: v for k, v in c.items() if k != "tags"}
        RESULTS[f"tags{i}"] = [c["tags"].indices, c["tags"].values, c["tags"].dense_shape]
        RESULTS[f"seq{i}"] = {k: v for k, v in s.items() if k != "extras"}
        RESULTS[f"extras{i}"] = [s["extras"].indices, s["extras"].values, s["extras"].dense_shape]
        RESULTS[f"embedded{i}"] = e
    bc, bs, bl = sess.run([b_context, b_sequence, b_lengths], feed_dict={batch: records})
    RESULTS["batch_length"] = bc["length"]
    RESULTS["batch_tokens"] = bs["tokens"]
    RESULTS["batch_extras"] = [bs["extras"].indices, bs["extras"].values, bs["extras"].dense_shape]
    RESULTS["batch_lengths"] = bl
    try:
        sess.run(sequence["tokens"], feed_dict={serialized: tf.train.SequenceExample().SerializeToString()})
    except tf.errors.InvalidArgumentError as e:
        RESULTS["missing"] = "tokens" in e.message

RESULTS["static"] = {k: v.shape.as_list() for k, v in list(context.items()) + list(sequence.items())
                     if not isinstance(v, tf.SparseTensor)}
RESULTS["static_batch"] = [b_sequence["tokens"].shape.as_list(), sorted(b_lengths),
                           b_sequence["extras"].indices.shape.as_list(), b_lengths["tokens"].shape.as_list()]
