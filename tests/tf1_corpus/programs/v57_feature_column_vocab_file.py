"""Feature columns as in the TF1 census/wide-and-deep tutorials: a categorical column read from
a vocabulary file, fed through input_layer, and make_parse_example_spec for the input pipeline."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

vocab_dir = tempfile.mkdtemp()
vocab_path = os.path.join(vocab_dir, "occupation.txt")
with open(vocab_path, "w") as f:
    f.write("engineer\nteacher\ndoctor\nartist\n")
ids_path = os.path.join(vocab_dir, "ids.txt")
with open(ids_path, "w") as f:
    f.write("10\n20\n30\n")

fc = tf.feature_column
occupation = fc.categorical_column_with_vocabulary_file("occupation", vocab_path)
occupation_oov = fc.categorical_column_with_vocabulary_file("occupation2", vocab_path, vocabulary_size=3,
                                                            num_oov_buckets=2)
codes = fc.categorical_column_with_vocabulary_file("code", ids_path, dtype=tf.int64, default_value=0)
age = fc.numeric_column("age", default_value=30.0)
columns = [
    fc.indicator_column(occupation),
    fc.indicator_column(occupation_oov),
    fc.embedding_column(codes, 2, initializer=tf.constant_initializer(np.arange(6).reshape(3, 2) / 10.0)),
    age,
]
features = {
    "occupation": tf.constant([["teacher"], ["artist"], ["pilot"]]),
    "occupation2": tf.constant([["artist"], ["engineer"], ["pilot"]]),
    "code": tf.constant([[20], [30], [99]], dtype=tf.int64),
    "age": tf.constant([[25.0], [40.0], [61.0]]),
}
dense = fc.input_layer(features, columns)

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    RESULTS["dense"] = sess.run(dense)

RESULTS["num_buckets"] = [occupation.num_buckets, occupation_oov.num_buckets, codes.num_buckets]
RESULTS["vocabulary_size"] = occupation.vocabulary_size
RESULTS["column_names"] = [c.name for c in columns]

spec = fc.make_parse_example_spec(columns + [
    fc.bucketized_column(fc.numeric_column("hours", shape=[2]), [10.0, 40.0]),
    fc.crossed_column(["education", fc.categorical_column_with_identity("zip", 100)], 50),
    fc.weighted_categorical_column(fc.categorical_column_with_hash_bucket("tags", 10), "tag_weights"),
])
RESULTS["spec"] = {k: [type(v).__name__, v.dtype.name, list(getattr(v, "shape", [])) or None,
                       None if getattr(v, "default_value", None) is None else list(v.default_value)]
                   for k, v in sorted(spec.items())}
for bad in (lambda: fc.categorical_column_with_vocabulary_file("x", os.path.join(vocab_dir, "missing.txt")),
            lambda: fc.categorical_column_with_vocabulary_file("x", vocab_path, num_oov_buckets=1, default_value=0),
            lambda: fc.make_parse_example_spec(["age"])):
    try:
        bad()
    except ValueError as e:
        RESULTS.setdefault("errors", []).append(str(e).replace(vocab_dir, "DIR"))
