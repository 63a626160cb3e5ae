"""FileWriter.add_summary with global_step, flush, summary_iterator round trip."""
import glob
import os
import tempfile

import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
logdir = tempfile.mkdtemp()
v = tf.Variable(1.0)
step = tf.assign_add(v, 1.0)
summ = tf.summary.scalar("value", v)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    writer = tf.summary.FileWriter(logdir, sess.graph)
    for i in range(3):
        sess.run(step)
        writer.add_summary(sess.run(summ), global_step=i * 10)
    writer.flush()
    writer.close()
files = glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
RESULTS["n_files"] = len(files)
events = list(tf.train.summary_iterator(files[0]))
RESULTS["first_version"] = events[0].file_version
RESULTS["has_graph"] = any(e.HasField("graph_def") for e in events)
RESULTS["scalars"] = [(int(e.step), e.summary.value[0].tag, float(e.summary.value[0].simple_value))
                      for e in events if e.HasField("summary")]
