"""MonitoredTrainingSession fed by tf.data until the input ends: default
checkpoint timing (start and end), a Scaffold with its own Saver, a separate
summary_dir, chief-only hooks and tensor names in hooks."""
import glob
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
ckpt_dir = tempfile.mkdtemp()
summary_dir = tempfile.mkdtemp()
features = np.linspace(0.0, 1.0, 20, dtype=np.float32).reshape(10, 2)
targets = (features @ np.array([[2.0], [-1.0]], np.float32)).astype(np.float32)

with tf.device("/cpu:0"):
    dataset = tf.data.Dataset.from_tensor_slices((features, targets)).batch(3).repeat(2)
    x, y = tf.data.make_one_shot_iterator(dataset).get_next()
    with tf.variable_scope("model"):
        w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.1))
    pred = tf.matmul(x, w)
    loss = tf.losses.mean_squared_error(y, pred)
    tf.summary.scalar("train_loss", loss)
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.RMSPropOptimizer(0.05).minimize(loss, global_step=global_step)

scaffold = tf.train.Scaffold(saver=tf.train.Saver(max_to_keep=2))
after_create = []


class ChiefHook(tf.train.SessionRunHook):
    def after_create_session(self, session, coord):
        after_create.append(session.run(global_step))


losses = []
config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=False)
with tf.train.MonitoredTrainingSession(checkpoint_dir=ckpt_dir, summary_dir=summary_dir, scaffold=scaffold,
                                       chief_only_hooks=[ChiefHook()], save_summaries_steps=3,
                                       hooks=[tf.train.LoggingTensorHook(["loss_1:0" if False else loss.name],
                                                                         every_n_iter=2)],
                                       log_step_count_steps=None, config=config) as sess:
    while not sess.should_stop():
        _, l = sess.run([train_op, loss])
        losses.append(l)
RESULTS["steps_run"] = len(losses)
RESULTS["losses"] = losses
RESULTS["after_create"] = after_create
RESULTS["checkpoints"] = sorted(os.path.basename(p)[:-len(".index")]
                                for p in glob.glob(os.path.join(ckpt_dir, "*.index")))
RESULTS["ckpt_dir_events"] = len(glob.glob(os.path.join(ckpt_dir, "events.out.tfevents.*")))
summary_steps = []
for path in glob.glob(os.path.join(summary_dir, "events.out.tfevents.*")):
    for event in tf.train.summary_iterator(path):
        for value in event.summary.value:
            if value.tag == "train_loss":
                summary_steps.append(int(event.step))
RESULTS["summary_steps"] = sorted(summary_steps)
RESULTS["scaffold_saver_kept"] = [os.path.basename(p) for p in scaffold.saver.last_checkpoints]
RESULTS["final_w"] = tf.train.load_variable(ckpt_dir, "model/w")
RESULTS["loss_name"] = loss.name
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
