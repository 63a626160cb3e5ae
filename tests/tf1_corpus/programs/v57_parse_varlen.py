"""TFRecord-style parsing with VarLenFeature, as the TF1 input-pipeline tutorials do:
tf.train.Example protos parsed into SparseTensors, densified with tf.sparse_tensor_to_dense."""
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}


def make_example(label, tokens, weights, name=None):
    feature = {
        "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
        "tokens": tf.train.Feature(int64_list=tf.train.Int64List(value=tokens)),
        "weights": tf.train.Feature(float_list=tf.train.FloatList(value=weights)),
    }
    if name is not None:
        feature["name"] = tf.train.Feature(bytes_list=tf.train.BytesList(value=[name]))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


records = [make_example(1, [3, 5, 7], [0.5, 1.5], b"a"), make_example(0, [2], [], None),
           make_example(1, [], [2.0, 3.0, 4.0], b"c")]

serialized = tf.placeholder(tf.string, [None])
features = {
    "label": tf.FixedLenFeature([], tf.int64),
    "tokens": tf.VarLenFeature(tf.int64),
    "weights": tf.io.VarLenFeature(tf.float32),
    "name": tf.VarLenFeature(tf.string),
}
parsed = tf.parse_example(serialized, features)
dense_tokens = tf.sparse_tensor_to_dense(parsed["tokens"], default_value=-1)
dense_weights = tf.sparse.to_dense(parsed["weights"])
names = parsed["name"].values
token_sum = tf.reduce_sum(parsed["tokens"].values)

single = tf.parse_single_example(records[0], {"tokens": tf.VarLenFeature(tf.int64),
                                              "label": tf.FixedLenFeature([1], tf.int64)})

with tf.Session() as sess:
    feed = {serialized: records}
    tokens, weights = sess.run([parsed["tokens"], parsed["weights"]], feed_dict=feed)
    RESULTS["tokens_indices"] = tokens.indices
    RESULTS["tokens_values"] = tokens.values
    RESULTS["tokens_shape"] = tokens.dense_shape
    RESULTS["weights_indices"] = weights.indices
    RESULTS["weights_values"] = weights.values
    RESULTS["weights_shape"] = weights.dense_shape
    RESULTS["dense_tokens"], RESULTS["dense_weights"], RESULTS["names"], RESULTS["token_sum"], \
        RESULTS["label"] = sess.run([dense_tokens, dense_weights, names, token_sum, parsed["label"]], feed_dict=feed)
    one = sess.run(single)
    RESULTS["single_indices"] = one["tokens"].indices
    RESULTS["single_values"] = one["tokens"].values
    RESULTS["single_shape"] = one["tokens"].dense_shape
    RESULTS["single_label"] = one["label"]
    empty = sess.run(parsed["tokens"], feed_dict={serialized: [records[2]]})
    RESULTS["empty_indices"] = empty.indices
    RESULTS["empty_shape"] = empty.dense_shape
    try:
        sess.run(parsed["weights"], feed_dict={serialized: [make_example(1, [1], [1.0])[:0] + b"\x0a\x05junk!"]})
    except tf.errors.OpError as e:
        RESULTS["bad_record"] = type(e).__name__

RESULTS["types"] = [type(parsed["tokens"]).__name__, parsed["tokens"].dtype.name, parsed["name"].dtype.name,
                    parsed["tokens"].indices.dtype.name, parsed["tokens"].dense_shape.dtype.name]
RESULTS["static"] = [parsed["tokens"].indices.shape.as_list(), single["tokens"].indices.shape.as_list(),
                     parsed["label"].shape.as_list()]
