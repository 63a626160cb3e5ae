"""Hooks and session creators used by estimator-free training scripts:
Scaffold(init_fn, saver), ChiefSessionCreator with a checkpoint file,
CheckpointSaverListener, LoggingTensorHook(at_end, formatter), NanTensorHook,
SecondOrStepTimer, GlobalStepWaiterHook, global step helpers."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
ckpt_dir = tempfile.mkdtemp()

gs = tf.train.create_global_step()
RESULTS["gs_name"] = gs.name
RESULTS["gs_dtype"] = gs.dtype.name
RESULTS["gs_collection"] = [v.name for v in tf.get_collection(tf.GraphKeys.GLOBAL_STEP)]
RESULTS["get_global_step_same"] = tf.train.get_global_step() is gs
try:
    tf.train.create_global_step()
except ValueError as e:
    RESULTS["create_twice"] = str(e)
try:
    tf.train.assert_global_step(tf.Variable(1.5, name="not_a_step"))
except TypeError as e:
    RESULTS["assert_bad"] = str(e)

w = tf.Variable(np.array([1.0, -1.0], np.float32), name="w")
x = tf.placeholder(tf.float32, [2], name="x")
loss = tf.reduce_sum(tf.square(w - x), name="loss")
train_op = tf.train.GradientDescentOptimizer(0.25).minimize(loss, global_step=gs)
set_w = w.assign([3.0, 4.0])
nan_loss = loss * tf.constant(float("nan"))


class Listener(tf.train.CheckpointSaverListener):
    def __init__(self):
        self.events = []

    def begin(self):
        self.events.append("begin")

    def before_save(self, session, global_step_value):
        self.events.append("before_save:%d" % global_step_value)

    def after_save(self, session, global_step_value):
        self.events.append("after_save:%d" % global_step_value)

    def end(self, session, global_step_value):
        self.events.append("end:%d" % global_step_value)


init_calls = []


def init_fn(scaffold, session):
    init_calls.append(type(scaffold).__name__)
    session.run(set_w)


listener = Listener()
logged = []
scaffold = tf.train.Scaffold(init_fn=init_fn, saver=tf.train.Saver(max_to_keep=1))
hooks = [
    tf.train.CheckpointSaverHook(ckpt_dir, save_steps=2, scaffold=scaffold, listeners=[listener]),
    tf.train.LoggingTensorHook({"w": w}, at_end=True, formatter=lambda d: logged.append(d["w"].tolist()) or "x"),
    tf.train.StopAtStepHook(num_steps=5),
]
creator = tf.train.ChiefSessionCreator(scaffold=scaffold)
with tf.train.MonitoredSession(session_creator=creator, hooks=hooks) as sess:
    RESULTS["after_init_fn"] = sess.run(w)
    while not sess.should_stop():
        sess.run(train_op, feed_dict={x: [0.0, 0.0]})
RESULTS["init_calls"] = init_calls
RESULTS["listener"] = listener.events
RESULTS["logged_at_end"] = logged
RESULTS["kept"] = sorted(f for f in os.listdir(ckpt_dir) if f.endswith(".index"))
RESULTS["scaffold_saver_type"] = type(scaffold.saver).__name__
RESULTS["scaffold_init_op_type"] = type(scaffold.init_op).__name__

# Restore from an explicit checkpoint file.
path = tf.train.latest_checkpoint(ckpt_dir)
creator2 = tf.train.ChiefSessionCreator(checkpoint_filename_with_path=path)
with tf.train.MonitoredSession(session_creator=creator2) as sess:
    RESULTS["restored"] = sess.run([w, gs])
    RESULTS["global_step_fn"] = tf.train.global_step(sess, gs)
    RESULTS["global_step_type"] = type(tf.train.global_step(sess, gs)).__name__

# NaN loss: fail_on_nan_loss=False stops quietly, True raises.
RESULTS["finalized"] = tf.get_default_graph().finalized
with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(nan_loss, fail_on_nan_loss=False)]) as sess:
    sess.run(train_op, feed_dict={x: [0.0, 0.0]})
    RESULTS["nan_should_stop"] = sess.should_stop()
try:
    with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(nan_loss)]) as sess:
        sess.run(train_op, feed_dict={x: [0.0, 0.0]})
except tf.train.NanLossDuringTrainingError as e:
    RESULTS["nan_error"] = str(e)

# The timer that hooks use.
timer = tf.train.SecondOrStepTimer(every_steps=3)
fired = []
for step in range(8):
    if timer.should_trigger_for_step(step):
        timer.update_last_triggered_step(step)
        fired.append(step)
RESULTS["timer_fired"] = fired
RESULTS["timer_last"] = timer.last_triggered_step()
try:
    tf.train.SecondOrStepTimer(every_secs=1, every_steps=1)
except ValueError as e:
    RESULTS["timer_both"] = str(e)

# Hook argument errors.
for label, make in [("stop_both", lambda: tf.train.StopAtStepHook(num_steps=1, last_step=2)),
                    ("stop_none", lambda: tf.train.StopAtStepHook()),
                    ("log_none", lambda: tf.train.LoggingTensorHook({"w": w})),
                    ("ckpt_none", lambda: tf.train.CheckpointSaverHook(ckpt_dir)),
                    ("summary_none", lambda: tf.train.SummarySaverHook(save_steps=1, output_dir=ckpt_dir))]:
    try:
        make()
        RESULTS[label] = "ok"
    except ValueError as e:
        RESULTS[label] = str(e)

# GlobalStepWaiterHook returns at once when the step is already reached.
with tf.train.MonitoredSession(hooks=[tf.train.GlobalStepWaiterHook(0)]) as sess:
    RESULTS["waiter_ran"] = sess.run(gs)
