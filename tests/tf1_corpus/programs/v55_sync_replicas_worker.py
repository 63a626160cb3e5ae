"""The classic distributed trainer (one worker, one ps) written with flags-like
settings: in-process servers, replica_device_setter, SyncReplicasOptimizer with
its hook, and MonitoredTrainingSession on the worker's target."""
import os
import socket
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}


def free_port():
    s = socket.socket()
    s.bind(("localhost", 0))
    port = s.getsockname()[1]
    s.close()
    return port


job_name, task_index = "worker", 0
cluster = tf.train.ClusterSpec({"ps": ["localhost:%d" % free_port()],
                                "worker": ["localhost:%d" % free_port()]})
ps = tf.train.Server(cluster, job_name="ps", task_index=0)
server = tf.train.Server(cluster, job_name=job_name, task_index=task_index)
is_chief = task_index == 0
num_workers = len(cluster.as_dict()["worker"])

rng = np.random.RandomState(3)
images = rng.rand(32, 8).astype(np.float32)
labels = (images.sum(axis=1) > 4).astype(np.int64)

with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:%d" % task_index, cluster=cluster)):
    global_step = tf.train.get_or_create_global_step()
    x = tf.placeholder(tf.float32, [None, 8], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    hidden = tf.layers.dense(x, 4, activation=tf.nn.relu, name="hidden",
                             kernel_initializer=tf.constant_initializer(0.1))
    logits = tf.layers.dense(hidden, 2, name="logits", kernel_initializer=tf.constant_initializer(0.05))
    loss = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
    opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.5),
                                         replicas_to_aggregate=num_workers, total_num_replicas=num_workers)
    train_op = opt.minimize(loss, global_step=global_step)

RESULTS["devices"] = [global_step.device, tf.trainable_variables()[0].device, tf.trainable_variables()[1].device,
                      loss.device]
RESULTS["train_op_dtype"] = train_op.dtype.name
RESULTS["local_vars"] = [v.op.name for v in tf.local_variables()]
sync_hook = opt.make_session_run_hook(is_chief)
ckpt_dir = tempfile.mkdtemp()
steps = []
with tf.train.MonitoredTrainingSession(master=server.target, is_chief=is_chief, checkpoint_dir=ckpt_dir,
                                       hooks=[sync_hook, tf.train.StopAtStepHook(last_step=40)],
                                       save_checkpoint_steps=20, save_summaries_steps=None,
                                       log_step_count_steps=None) as sess:
    RESULTS["first_loss"] = sess.run(loss, {x: images, y: labels})
    while not sess.should_stop():
        i = len(steps) % 4
        feed = {x: images[i * 8:(i + 1) * 8], y: labels[i * 8:(i + 1) * 8]}
        _, local_step = sess.run([train_op, opt._local_step], feed)
        steps.append(local_step)
RESULTS["at_least_40_steps"] = len(steps) >= 40
RESULTS["checkpoints_kept"] = len(tf.train.get_checkpoint_state(ckpt_dir).all_model_checkpoint_paths) >= 2
with tf.Session(server.target) as sess:
    tf.train.Saver().restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    # (TF applies the aggregated update in the chief queue runner's thread and drops
    # stale gradients by timing, so only coarse properties are compared.)
    RESULTS["final_loss_below_first"] = bool(sess.run(loss, {x: images, y: labels}) < RESULTS["first_loss"])
    RESULTS["final_step_at_least_40"] = bool(sess.run(global_step) >= 40)
try:
    tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1), replicas_to_aggregate=1).get_chief_queue_runner()
except ValueError as e:
    RESULTS["qr_before_apply"] = str(e)
