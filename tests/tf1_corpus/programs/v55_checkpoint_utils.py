"""Checkpoint utilities as tutorials use them: Saver options, the checkpoint
state file, readers, and warm-starting a new model with init_from_checkpoint."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
ckpt_dir = tempfile.mkdtemp()
prefix = os.path.join(ckpt_dir, "model")

with tf.variable_scope("encoder"):
    w1 = tf.get_variable("w", initializer=np.arange(6, dtype=np.float32).reshape(2, 3))
    b1 = tf.get_variable("b", initializer=np.ones(3, np.float32))
with tf.variable_scope("decoder"):
    w2 = tf.get_variable("w", initializer=np.full((3, 2), 0.5, np.float32))
counter = tf.Variable(0, name="counter", dtype=tf.int64)
global_step = tf.train.get_or_create_global_step()
inc = tf.assign_add(counter, 1)
step_inc = tf.assign_add(global_step, 1)
saver = tf.train.Saver(max_to_keep=2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    paths = []
    for i in range(4):
        sess.run([inc, step_inc])
        paths.append(saver.save(sess, prefix, global_step=global_step))
    RESULTS["save_returns"] = [os.path.basename(p) for p in paths]
    RESULTS["last_checkpoints"] = [os.path.basename(p) for p in saver.last_checkpoints]
    RESULTS["kept_files"] = sorted(f for f in os.listdir(ckpt_dir) if f.startswith("model-") and f.endswith(".index"))
    RESULTS["meta_files"] = sorted(f for f in os.listdir(ckpt_dir) if f.endswith(".meta"))
    no_step = saver.save(sess, os.path.join(ckpt_dir, "plain"), write_meta_graph=False)
    RESULTS["plain"] = os.path.basename(no_step)

latest = tf.train.latest_checkpoint(ckpt_dir)
RESULTS["latest"] = os.path.basename(latest)
RESULTS["exists"] = [tf.train.checkpoint_exists(latest), tf.train.checkpoint_exists(prefix + "-1"),
                     tf.train.checkpoint_exists(prefix + "-4")]
state = tf.train.get_checkpoint_state(ckpt_dir)
RESULTS["state_model"] = os.path.basename(state.model_checkpoint_path)
RESULTS["state_all"] = [os.path.basename(p) for p in state.all_model_checkpoint_paths]
RESULTS["state_missing"] = tf.train.get_checkpoint_state(os.path.join(ckpt_dir, "nothing")) is None
RESULTS["latest_missing"] = tf.train.latest_checkpoint(os.path.join(ckpt_dir, "nothing")) is None

# Readers
variables = tf.train.list_variables(ckpt_dir)
RESULTS["list_variables"] = [[name, shape] for name, shape in variables]
reader = tf.train.load_checkpoint(ckpt_dir)
RESULTS["shape_map"] = {k: v for k, v in sorted(reader.get_variable_to_shape_map().items())}
RESULTS["dtype_map"] = {k: v.name for k, v in sorted(reader.get_variable_to_dtype_map().items())}
RESULTS["encoder_w"] = reader.get_tensor("encoder/w")
RESULTS["counter"] = reader.get_tensor("counter")
RESULTS["has"] = [reader.has_tensor("decoder/w"), reader.has_tensor("decoder/b")]
try:
    reader.get_tensor("decoder/b")
except Exception as e:  # noqa: BLE001
    RESULTS["missing_tensor_error"] = type(e).__name__
old_reader = tf.train.NewCheckpointReader(latest)
RESULTS["new_reader_step"] = old_reader.get_tensor("global_step")
RESULTS["load_variable"] = tf.train.load_variable(ckpt_dir, "encoder/b")

# The state file can be rewritten by hand.
tf.train.update_checkpoint_state(ckpt_dir, os.path.join(ckpt_dir, "plain"), all_model_checkpoint_paths=[prefix + "-4", os.path.join(ckpt_dir, "plain")])
RESULTS["gone_latest"] = tf.train.latest_checkpoint(tempfile.mkdtemp())
RESULTS["after_update"] = os.path.basename(tf.train.latest_checkpoint(ckpt_dir))
with open(os.path.join(ckpt_dir, "checkpoint")) as f:
    RESULTS["state_file_lines"] = [line.split(":")[0] for line in f.read().splitlines()]

# A var_list dict renames variables in the checkpoint.
tf.reset_default_graph()
a = tf.Variable(np.zeros((2, 3), np.float32), name="a")
saver2 = tf.train.Saver({"encoder/w": a})
with tf.Session() as sess:
    saver2.restore(sess, prefix + "-4")
    RESULTS["renamed_restore"] = sess.run(a)

# Warm start with init_from_checkpoint: scope mapping and single variables.
tf.reset_default_graph()
with tf.variable_scope("new_encoder"):
    nw = tf.get_variable("w", shape=[2, 3], initializer=tf.zeros_initializer())
    nb = tf.get_variable("b", shape=[3], initializer=tf.zeros_initializer())
with tf.variable_scope("head"):
    hw = tf.get_variable("kernel", shape=[3, 2], initializer=tf.zeros_initializer())
    untouched = tf.get_variable("bias", shape=[2], initializer=tf.constant_initializer(7.0))
tf.train.init_from_checkpoint(ckpt_dir, {"encoder/": "new_encoder/", "decoder/w": "head/kernel"})
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["warm"] = sess.run([nw, nb, hw, untouched])
try:
    tf.train.init_from_checkpoint(ckpt_dir, {"encoder/missing": "head/bias"})
except Exception as e:  # noqa: BLE001
    RESULTS["bad_map_error"] = type(e).__name__

# Sharded saving keeps one file set per save.
tf.reset_default_graph()
v = tf.Variable(np.arange(4, dtype=np.float32), name="v")
sharded = tf.train.Saver(sharded=True, max_to_keep=1, keep_checkpoint_every_n_hours=10000)
sdir = tempfile.mkdtemp()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    path = sharded.save(sess, os.path.join(sdir, "s"), global_step=1)
    RESULTS["sharded_path"] = os.path.basename(path)
    RESULTS["sharded_restore_ok"] = True
    sharded.restore(sess, path)
RESULTS["sharded_vars"] = tf.train.list_variables(sdir)
