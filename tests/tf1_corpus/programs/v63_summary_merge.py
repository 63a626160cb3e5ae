"""Summaries: scalar/histogram/text with family and collections, merge, merge_all."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

x = tf.placeholder(tf.float32, [None])
loss = tf.reduce_mean(tf.square(x))
s1 = tf.summary.scalar("loss", loss, family="train")
s2 = tf.summary.histogram("x", x)
s3 = tf.summary.text("note", tf.constant("hello"), collections=["extra"])
merged = tf.summary.merge_all()
extra = tf.summary.merge_all(key="extra")
both = tf.summary.merge([s1, s3])

RESULTS["names"] = [s1.name, s2.name, s3.name, merged.name, extra.name, both.name]
RESULTS["dtype"] = merged.dtype.name
RESULTS["shape"] = merged.shape.as_list()
RESULTS["n_default"] = len(tf.get_collection(tf.GraphKeys.SUMMARIES))

with tf.Session() as sess:
    raw = sess.run(merged, {x: np.array([1.0, 2.0, 3.0], np.float32)})
    summ = tf.Summary()
    summ.ParseFromString(raw)
    RESULTS["tags"] = [v.tag for v in summ.value]
    RESULTS["scalar"] = float(summ.value[0].simple_value)
    RESULTS["hist_num"] = float(summ.value[1].histo.num)
    RESULTS["hist_sum"] = float(summ.value[1].histo.sum)
    raw2 = sess.run(both, {x: np.array([0.5], np.float32)})
    s = tf.Summary.FromString(raw2)
    RESULTS["both_tags"] = [v.tag for v in s.value]
    RESULTS["text_plugin"] = s.value[1].metadata.plugin_data.plugin_name
