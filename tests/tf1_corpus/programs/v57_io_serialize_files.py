"""tf.io utilities as TFRecord/data-prep tutorials use them: tensors stored as serialized
TensorProtos, zlib/gzip-compressed strings, and file globbing for input pipelines."""
import gzip
import os
import tempfile
import zlib

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

data_dir = tempfile.mkdtemp()
for name in ("part-2.csv", "part-1.csv", "notes.txt"):
    with open(os.path.join(data_dir, name), "w") as f:
        f.write("1,2\n3,4\n")

image = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
serialized = tf.io.serialize_tensor(image)
restored = tf.io.parse_tensor(serialized, out_type=tf.float32)
restored_sum = tf.reduce_sum(restored * 2.0)
ints = tf.serialize_tensor(tf.constant([7, 8], dtype=tf.int64))
scalar = tf.io.serialize_tensor(tf.constant(3))
words = tf.io.serialize_tensor(tf.constant([["ab", "c"]]))
words_back = tf.io.parse_tensor(words, tf.string)
wrong_type = tf.io.parse_tensor(serialized, tf.int32)

blobs = tf.placeholder(tf.string, [None])
inflated = tf.io.decode_compressed(blobs, compression_type="ZLIB")
gunzipped = tf.decode_compressed(tf.constant(gzip.compress(b"gzip payload")), "GZIP")
plain = tf.io.decode_compressed(tf.constant("as is"))

csv_files = tf.io.matching_files(os.path.join(data_dir, "*.csv"))
all_files = tf.matching_files([os.path.join(data_dir, "notes*"), os.path.join(data_dir, "part-1*")])
none = tf.io.matching_files(os.path.join(data_dir, "*.json"))
once = tf.train.match_filenames_once(os.path.join(data_dir, "part-*"))

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    out = sess.run({"serialized": serialized, "restored": restored, "restored_sum": restored_sum, "ints": ints,
                    "scalar": scalar, "words": words, "words_back": words_back,
                    "gunzipped": gunzipped, "plain": plain})
    RESULTS.update(out)
    RESULTS["inflated"] = sess.run(inflated, feed_dict={blobs: [zlib.compress(b"hello"), zlib.compress(b"")]})
    files = sess.run([csv_files, all_files, none, once])
    RESULTS["files"] = [[os.path.basename(p.decode()) for p in group] for group in files]
    for t, feed, text in ((wrong_type, None, "Type mismatch between parsed tensor (float) and dtype (int32)"),
                          (inflated, {blobs: [b"not zlib"]}, "inflate() failed with error -3: incorrect header check")):
        try:
            sess.run(t, feed_dict=feed)
        except tf.errors.OpError as e:
            RESULTS.setdefault("errors", []).append([type(e).__name__, text in e.message])

RESULTS["static"] = [serialized.shape.as_list(), restored.shape.ndims, restored.dtype.name, inflated.shape.as_list(),
                     csv_files.shape.as_list(), csv_files.dtype.name]
