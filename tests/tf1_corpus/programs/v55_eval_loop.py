"""A train/eval split as old tutorials wrote it: a trainer with a Supervisor
and basic_train_loop, then an evaluator that walks the checkpoints with
checkpoints_iterator; checkpoint state protos by hand."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
logdir = tempfile.mkdtemp()
xs = np.arange(8, dtype=np.float32).reshape(8, 1) / 8.0
ys = 3.0 * xs - 1.0

w = tf.Variable([[0.0]], name="w")
b = tf.Variable([0.0], name="b")
global_step = tf.train.get_or_create_global_step()
loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(xs), w) + b - tf.constant(ys)))
train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, global_step=global_step)
saver = tf.train.Saver(max_to_keep=10)
sv = tf.train.Supervisor(logdir=logdir, saver=saver, save_model_secs=0, save_summaries_secs=0)
trained = []


def train_step(sess, every):
    _, step, l = sess.run([train_op, global_step, loss])
    trained.append(l)
    if step % every == 0:
        saver.save(sess, sv.save_path, global_step=step)
    if step >= 9:
        sv.request_stop()


tf.train.basic_train_loop(sv, train_step, args=(3,))
RESULTS["train_losses"] = trained
RESULTS["mtimes_count"] = len(tf.train.get_checkpoint_mtimes(saver.last_checkpoints))
RESULTS["mtimes_type"] = type(tf.train.get_checkpoint_mtimes(saver.last_checkpoints)[0]).__name__

# The evaluator: a fresh graph restoring every checkpoint in order.
tf.reset_default_graph()
w = tf.Variable([[0.0]], name="w")
b = tf.Variable([0.0], name="b")
global_step = tf.train.get_or_create_global_step()
loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(xs), w) + b - tf.constant(ys)))
saver = tf.train.Saver()
evaluated = []
state = tf.train.get_checkpoint_state(logdir)
for path in state.all_model_checkpoint_paths:
    with tf.Session() as sess:
        saver.restore(sess, path)
        evaluated.append([os.path.basename(path), sess.run(global_step), sess.run(loss)])
RESULTS["evaluated"] = evaluated
latest = [os.path.basename(p) for p in tf.train.checkpoints_iterator(logdir, timeout=0)]
RESULTS["iterator"] = latest

proto = tf.train.generate_checkpoint_state_proto("rel_dir", "rel_dir/model-9",
                                                 all_model_checkpoint_paths=["rel_dir/model-3", "/abs/model-6"])
RESULTS["proto_text"] = str(proto)
proto2 = tf.train.generate_checkpoint_state_proto(logdir, os.path.join(logdir, "x"))
RESULTS["proto2_paths"] = [os.path.basename(p) for p in proto2.all_model_checkpoint_paths]
try:
    tf.train.generate_checkpoint_state_proto(logdir, "a", ["a"], all_model_checkpoint_timestamps=[1.0, 2.0])
except ValueError as e:
    RESULTS["proto_bad_timestamps"] = type(e).__name__
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
