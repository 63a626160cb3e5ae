"""A production-style training loop: MonitoredTrainingSession with custom and
built-in hooks, summaries and checkpoints in checkpoint_dir, then a resume."""
import glob
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
ckpt_dir = tempfile.mkdtemp()
rng = np.random.RandomState(0)
data_x = rng.randn(16, 3).astype(np.float32)
data_y = (data_x @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)


class RecorderHook(tf.train.SessionRunHook):
    """Records the calls the session makes, as a tutorial's custom hook."""

    def __init__(self, calls):
        self.calls = calls

    def begin(self):
        self.calls.append("begin")
        self._gs = tf.train.get_global_step()

    def after_create_session(self, session, coord):
        self.calls.append("after_create_session:%d" % session.run(self._gs))

    def before_run(self, run_context):
        self.calls.append("before_run")
        return tf.train.SessionRunArgs({"step": self._gs, "loss": "loss:0"})

    def after_run(self, run_context, run_values):
        self.calls.append("after_run:%d" % run_values.results["step"])
        if run_values.results["loss"] < 0:
            run_context.request_stop()

    def end(self, session):
        self.calls.append("end:%d" % session.run(self._gs))


def build():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
    pred = tf.matmul(x, w)
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    tf.summary.scalar("loss", loss)
    tf.summary.histogram("w", w)
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=global_step)
    return x, y, w, loss, global_step, train_op


x, y, w, loss, global_step, train_op = build()
calls = []
batches = iter(range(100))


def feed_fn():
    i = next(batches) % 4
    return {x: data_x[i * 4:(i + 1) * 4], y: data_y[i * 4:(i + 1) * 4]}


final_hook = tf.train.FinalOpsHook(final_ops={"w": w, "loss": loss},
                                   final_ops_feed_dict={x: data_x, y: data_y})
hooks = [
    tf.train.StopAtStepHook(last_step=7),
    tf.train.NanTensorHook(loss),
    tf.train.LoggingTensorHook({"loss": loss, "step": global_step}, every_n_iter=3),
    tf.train.FeedFnHook(feed_fn),
    RecorderHook(calls),
    final_hook,
]
losses = []
with tf.train.MonitoredTrainingSession(checkpoint_dir=ckpt_dir, hooks=hooks, save_checkpoint_steps=3,
                                       save_summaries_steps=2, log_step_count_steps=4) as sess:
    while not sess.should_stop():
        _, l = sess.run([train_op, loss])
        losses.append(l)
RESULTS["losses"] = losses
RESULTS["calls"] = calls
RESULTS["final_w"] = final_hook.final_ops_values["w"]
RESULTS["final_loss"] = final_hook.final_ops_values["loss"]
RESULTS["checkpoints"] = sorted(os.path.basename(p) for p in glob.glob(os.path.join(ckpt_dir, "model.ckpt-*.index")))
RESULTS["latest"] = os.path.basename(tf.train.latest_checkpoint(ckpt_dir))
state = tf.train.get_checkpoint_state(ckpt_dir)
RESULTS["all_paths"] = [os.path.basename(p) for p in state.all_model_checkpoint_paths]
RESULTS["has_graph"] = os.path.exists(os.path.join(ckpt_dir, "graph.pbtxt"))
events = glob.glob(os.path.join(ckpt_dir, "events.out.tfevents.*"))
RESULTS["n_event_files"] = len(events)
summary_steps = {}
for path in events:
    for event in tf.train.summary_iterator(path):
        for value in event.summary.value:
            summary_steps.setdefault(value.tag, []).append(int(event.step))
RESULTS["summary_steps"] = {k: sorted(v) for k, v in summary_steps.items()}

# Resume: the restored session continues from the last checkpoint.
tf.reset_default_graph()
x, y, w, loss, global_step, train_op = build()
with tf.train.MonitoredTrainingSession(checkpoint_dir=ckpt_dir, save_checkpoint_secs=None,
                                       save_summaries_steps=None, log_step_count_steps=None,
                                       hooks=[tf.train.StopAtStepHook(num_steps=2)]) as sess:
    RESULTS["resumed_step"] = sess.run(global_step)
    RESULTS["resumed_w"] = sess.run(w)
    steps = []
    while not sess.should_stop():
        _, s = sess.run([train_op, global_step], feed_dict={x: data_x, y: data_y})
        steps.append(s)
RESULTS["steps_after_resume"] = steps

# run_step_fn and step_context.request_stop
tf.reset_default_graph()
counter = tf.train.get_or_create_global_step()
inc = tf.assign_add(counter, 1)
seen = []


def step_fn(step_context):
    value = step_context.session.run(inc)
    seen.append(value)
    if value >= 3:
        step_context.request_stop()
    return value


with tf.train.SingularMonitoredSession() as sess:
    RESULTS["raw_session_is_session"] = isinstance(sess.raw_session(), tf.Session)
    while not sess.should_stop():
        last = sess.run_step_fn(step_fn)
RESULTS["step_fn_seen"] = seen
RESULTS["step_fn_last"] = last
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
