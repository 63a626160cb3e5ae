"""tf.summary.tensor_summary: the Summary bytes (tag, metadata, the tensor's TensorProto), family and
name scopes, summary_metadata, merge with other summaries, and the argument error."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
x = tf.placeholder(tf.float32, [2, 3], name="x")
meta = tf.SummaryMetadata()
meta.plugin_data.plugin_name = "my_plugin"
meta.plugin_data.content = b"\x01\x02"
with tf.name_scope("layer"):
    s1 = tf.summary.tensor_summary("activations", x * 2.0, summary_description="doubled", display_name="Act")
s2 = tf.summary.tensor_summary("counts", tf.constant([[1, 2], [3, 4]], tf.int32), family="stats")
s3 = tf.summary.tensor_summary("scalar", tf.reduce_sum(x), summary_metadata=meta)
s4 = tf.summary.tensor_summary("bad name!", tf.constant(7, tf.int64), collections=["mine"])
merged = tf.summary.merge([s1, s2, tf.summary.scalar("loss", tf.reduce_mean(x))])
RESULTS["names"] = [s.name for s in (s1, s2, s3, s4, merged)]
RESULTS["collections"] = [len(tf.get_collection(tf.GraphKeys.SUMMARIES)), len(tf.get_collection("mine"))]
feed = {x: np.arange(6, dtype=np.float32).reshape(2, 3) / 4}
with tf.Session() as sess:
    raw = sess.run([s1, s2, s3, s4, merged], feed)
RESULTS["bytes"] = raw[:4]
for i, b in enumerate(raw):
    summary = tf.Summary.FromString(b)
    for v in summary.value:
        kind = v.WhichOneof("value")
        out = [v.tag, kind, v.metadata.plugin_data.plugin_name, v.metadata.plugin_data.content,
               v.metadata.display_name, v.metadata.summary_description]
        if kind == "tensor":
            out.append(tf.make_ndarray(v.tensor))
        else:
            out.append(v.simple_value)
        RESULTS[f"summary_{i}/{v.tag}"] = out
try:
    tf.summary.tensor_summary("x", x, summary_description="d", summary_metadata=meta)
    RESULTS["both"] = "no error"
except Exception as e:  # noqa: BLE001
    RESULTS["both"] = type(e).__name__
