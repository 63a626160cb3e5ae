"""Summary tensors: names, dtypes, shapes, and the Summary protos sess.run returns."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

x = tf.placeholder(tf.float32, [None, 3], name="x")
W = tf.Variable(np.full((3, 1), 0.5, np.float32), name="W")
b = tf.Variable(0.1, name="b")
y = tf.matmul(x, W) + b
loss = tf.reduce_mean(tf.square(y - 1.0))
with tf.name_scope("summaries"):
    s_loss = tf.summary.scalar("loss", loss)
    s_w = tf.summary.histogram("weights", W)
s_b = tf.summary.scalar("bias", b)
s_b2 = tf.summary.scalar("bias", b)
s_odd = tf.summary.scalar("loss (train)", loss)
s_fam = tf.summary.scalar("lr", 0.01, family="train")
s_img = tf.summary.image("input", tf.reshape(x, [-1, 3, 1, 1]), max_outputs=2)
merged = tf.summary.merge_all()
picked = tf.summary.merge([s_loss, s_b])
named = tf.summary.merge([s_b2], name="just_bias")
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

summaries = [s_loss, s_w, s_b, s_b2, s_odd, s_fam, s_img, merged, picked, named]
RESULTS["names"] = [t.name for t in summaries]
RESULTS["op_types"] = [t.op.type for t in summaries]
RESULTS["dtypes"] = [t.dtype.name for t in summaries]
RESULTS["shapes"] = [t.shape.as_list() for t in summaries]
RESULTS["collection"] = [t.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)]

feed = {x: np.arange(6, dtype=np.float32).reshape(2, 3)}
logdir = tempfile.mkdtemp()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    writer = tf.summary.FileWriter(logdir, sess.graph)
    tags = []
    for step in range(3):
        s, _ = sess.run([merged, train], feed)
        RESULTS[f"type_{step}"] = type(s).__name__
        writer.add_summary(s, step)
        proto = tf.Summary.FromString(s)
        tags.append([v.tag for v in proto.value])
        RESULTS[f"simple_{step}"] = [v.simple_value for v in proto.value if v.HasField("simple_value")]
    writer.close()
    RESULTS["tags"] = tags
    one = tf.Summary()
    one.ParseFromString(sess.run(picked, feed))
    RESULTS["picked"] = [(v.tag, v.simple_value) for v in one.value]
    RESULTS["named"] = [v.tag for v in tf.Summary.FromString(sess.run(named)).value]
    histo = tf.Summary.FromString(sess.run(s_w)).value[0].histo
    RESULTS["histo"] = [histo.min, histo.max, histo.num, histo.sum]
    img = tf.Summary.FromString(sess.run(s_img, feed)).value
    RESULTS["images"] = [(v.tag, v.image.height, v.image.width, v.image.colorspace) for v in img]

events = [f for f in os.listdir(logdir) if "tfevents" in f]
steps = []
for e in tf.train.summary_iterator(os.path.join(logdir, events[0])):
    for v in e.summary.value:
        if v.tag == "summaries/loss":
            steps.append(e.step)
RESULTS["event_steps"] = steps
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
