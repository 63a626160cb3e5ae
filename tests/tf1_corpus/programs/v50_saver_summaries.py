# Saver save/restore with global_step and max_to_keep, summaries written then read back.
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
tmp = tempfile.mkdtemp()
ckpt_dir = os.path.join(tmp, "ckpt")
log_dir = os.path.join(tmp, "logs")

W = tf.Variable(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), name="weights")
b = tf.Variable(np.zeros(2, np.float32), name="biases")
gs = tf.Variable(0, name="global_step", trainable=False)
x = tf.placeholder(tf.float32, [None, 2])
y = tf.matmul(x, W) + b
loss = tf.reduce_mean(tf.square(y - 1.0))
train = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=gs)
with tf.name_scope("summaries"):
    tf.summary.scalar("loss", loss)
    tf.summary.histogram("weights", W)
    tf.summary.scalar("bias0", b[0])
merged = tf.summary.merge_all()
saver = tf.train.Saver(max_to_keep=2)
xv = np.array([[1.0, 0.5], [0.2, 0.3]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    writer = tf.summary.FileWriter(log_dir, sess.graph)
    paths = []
    for i in range(4):
        _, summ, step = sess.run([train, merged, gs], {x: xv})
        writer.add_summary(summ, step)
        paths.append(os.path.basename(saver.save(sess, os.path.join(ckpt_dir, "model.ckpt"), global_step=gs)))
    writer.close()
    RESULTS["paths"] = paths
    RESULTS["trained"] = sess.run([W, b, gs])
    RESULTS["latest"] = os.path.basename(tf.train.latest_checkpoint(ckpt_dir))
    RESULTS["kept"] = [os.path.basename(p) for p in saver.last_checkpoints]
    RESULTS["files"] = sorted(f for f in os.listdir(ckpt_dir) if not f.startswith("events"))

tf.reset_default_graph()
W2 = tf.Variable(tf.zeros([2, 2]), name="weights")
b2 = tf.Variable(tf.zeros([2]), name="biases")
restorer = tf.train.Saver({"weights": W2})
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    restorer.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    RESULTS["restored"] = sess.run([W2, b2])
    try:
        tf.train.Saver().restore(sess, os.path.join(ckpt_dir, "model.ckpt-1"))
    except Exception as e:
        RESULTS["restore_missing"] = type(e).__name__

reader = tf.train.NewCheckpointReader(tf.train.latest_checkpoint(ckpt_dir))
RESULTS["ckpt_vars"] = sorted(reader.get_variable_to_shape_map().items())
RESULTS["ckpt_W"] = reader.get_tensor("weights")

events = []
for f in sorted(os.listdir(log_dir)):
    for e in tf.train.summary_iterator(os.path.join(log_dir, f)):
        for v in e.summary.value:
            if v.HasField("simple_value"):
                events.append((e.step, v.tag, round(v.simple_value, 5)))
            elif v.HasField("histo"):
                events.append((e.step, v.tag, v.histo.num, round(v.histo.sum, 4), v.histo.min, v.histo.max))
RESULTS["events"] = events
