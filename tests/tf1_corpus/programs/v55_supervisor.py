"""The tf.train.Supervisor training loop of TF1-era tutorials: managed_session,
should_stop, an explicit save to sv.save_path, a restart that resumes from
logdir, summary_computed, and errors inside the managed block."""
import glob
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
logdir = tempfile.mkdtemp()
data_x = np.linspace(-1, 1, 12).reshape(6, 2).astype(np.float32)
data_y = data_x @ np.array([[1.5], [-0.5]], np.float32) + 0.25


def build():
    x = tf.constant(data_x)
    y = tf.constant(data_y)
    w = tf.Variable(tf.zeros([2, 1]), name="weights")
    b = tf.Variable(tf.zeros([1]), name="bias")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    tf.summary.scalar("mse", loss)
    global_step = tf.Variable(0, name="global_step", trainable=False)
    train_op = tf.train.GradientDescentOptimizer(0.2).minimize(loss, global_step=global_step)
    return w, b, loss, global_step, train_op


w, b, loss, global_step, train_op = build()
merged = tf.summary.merge_all()
sv = tf.train.Supervisor(logdir=logdir, global_step=global_step, save_model_secs=0, save_summaries_secs=0)
RESULTS["finalized"] = tf.get_default_graph().finalized
RESULTS["save_path"] = os.path.relpath(sv.save_path, logdir)
RESULTS["is_chief"] = sv.is_chief
RESULTS["saver_type"] = type(sv.saver).__name__
RESULTS["summary_op_is_merged"] = sv.summary_op is not None
RESULTS["gs_is_var"] = sv.global_step.name
try:
    tf.constant(1.0)
except RuntimeError as e:
    RESULTS["finalized_error"] = str(e)

losses = []
with sv.managed_session() as sess:
    RESULTS["initial_step"] = sess.run(global_step)
    for step in range(6):
        if sv.should_stop():
            break
        _, l = sess.run([train_op, loss])
        losses.append(l)
    sv.summary_computed(sess, sess.run(merged))
    RESULTS["saved"] = os.path.basename(sv.saver.save(sess, sv.save_path, global_step=global_step))
    RESULTS["w"] = sess.run(w)
RESULTS["losses"] = losses
RESULTS["stopped"] = sv.should_stop()
RESULTS["has_graph_pbtxt"] = os.path.exists(os.path.join(logdir, "graph.pbtxt"))
RESULTS["latest"] = os.path.basename(tf.train.latest_checkpoint(logdir))
steps = {}
for path in glob.glob(os.path.join(logdir, "events.out.tfevents.*")):
    for event in tf.train.summary_iterator(path):
        for value in event.summary.value:
            steps.setdefault(value.tag, []).append(int(event.step))
RESULTS["summary_steps"] = steps

# A new process (here: a new graph) resumes from logdir.
tf.reset_default_graph()
w, b, loss, global_step, train_op = build()
sv = tf.train.Supervisor(logdir=logdir, save_model_secs=0, save_summaries_secs=0)
with sv.managed_session() as sess:
    RESULTS["resumed_step"] = sess.run(global_step)
    RESULTS["resumed_w"] = sess.run(w)
    sess.run(train_op)
    RESULTS["after_one_more"] = tf.train.global_step(sess, global_step)

# An error inside the block stops the supervisor and is re-raised.
tf.reset_default_graph()
v = tf.Variable(1.0, name="v")
bad = tf.placeholder(tf.float32, name="bad")
total = v + bad
sv = tf.train.Supervisor(logdir=None, summary_op=None)
try:
    with sv.managed_session() as sess:
        sess.run(total)
except tf.errors.InvalidArgumentError as e:
    RESULTS["error_class"] = type(e).__name__
RESULTS["stopped_after_error"] = sv.should_stop()

# Input exhaustion ends the block quietly.
tf.reset_default_graph()
it = tf.data.make_one_shot_iterator(tf.data.Dataset.range(4)).get_next()
sv = tf.train.Supervisor(logdir=None)
seen = []
with sv.managed_session() as sess:
    while not sv.should_stop():
        seen.append(sess.run(it))
RESULTS["seen"] = seen

# prepare_or_wait_for_session + stop, the older spelling.
tf.reset_default_graph()
u = tf.Variable(np.array([1, 2, 3], np.int32), name="u")
doubled = u * 2
sv = tf.train.Supervisor(logdir=None, init_op=tf.global_variables_initializer())
sess = sv.prepare_or_wait_for_session()
RESULTS["prepared"] = sess.run(doubled)
sv.stop()
sess.close()
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
