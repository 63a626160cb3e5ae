"""Between-graph replication as the distributed-TF how-to writes it: a
ClusterSpec, in-process ps/worker servers, replica_device_setter, and a
worker session on the server's target."""
import socket

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


ps_hosts = ["localhost:%d" % free_port()]
worker_hosts = ["localhost:%d" % free_port()]
cluster = tf.train.ClusterSpec({"ps": ps_hosts, "worker": worker_hosts})
RESULTS["jobs"] = cluster.jobs
RESULTS["num_workers"] = cluster.num_tasks("worker")
RESULTS["ps_indices"] = cluster.task_indices("ps")
RESULTS["same_spec"] = cluster == tf.train.ClusterSpec(cluster.as_dict())
RESULTS["cluster_def_jobs"] = [job.name for job in cluster.as_cluster_def().job]
try:
    cluster.num_tasks("chief")
except ValueError as e:
    RESULTS["no_job"] = str(e)
try:
    cluster.task_address("worker", 5)
except ValueError as e:
    RESULTS["no_task"] = str(e)
sparse = tf.train.ClusterSpec({"worker": {1: "w1:2222", 3: "w3:2222"}})
RESULTS["sparse_dict"] = {str(k): v for k, v in sparse.as_dict()["worker"].items()}
RESULTS["sparse_tasks"] = sparse.job_tasks("worker")
RESULTS["repr"] = repr(tf.train.ClusterSpec({"worker": ["a:1"], "ps": ["b:1"]}))

ps_server = tf.train.Server(cluster, job_name="ps", task_index=0)
server = tf.train.Server(cluster, job_name="worker", task_index=0)
RESULTS["target_prefix"] = server.target.split("://")[0]

task_index = 0
with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:%d" % task_index,
                                              cluster=cluster)):
    global_step = tf.train.get_or_create_global_step()
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    W = tf.Variable(np.array([[0.5], [-0.5]], np.float32), name="W")
    b = tf.Variable(np.zeros([1], np.float32), name="b")
    pred = tf.matmul(x, W) + b
    loss = tf.reduce_mean(tf.square(pred - y))
    opt = tf.train.GradientDescentOptimizer(0.1)
    train_op = opt.minimize(loss, global_step=global_step)

RESULTS["devices"] = {
    "global_step": global_step.device,
    "W": W.device,
    "b": b.device,
    "W_op": W.op.device,
    "W_init": W.initializer.device,
    "x": x.device,
    "pred": pred.device,
    "loss": loss.op.device,
    "train_op": train_op.device,
}

# Three ps tasks: variables go round robin.
with tf.Graph().as_default():
    with tf.device(tf.train.replica_device_setter(ps_tasks=3)):
        vs = [tf.Variable(float(i), name="v%d" % i) for i in range(4)]
        total = tf.add_n(vs)
        with tf.device("/job:worker/task:2/cpu:0"):
            inner = total * 2.0
    RESULTS["round_robin"] = [v.device for v in vs]
    RESULTS["total_dev"] = total.device
    RESULTS["inner_dev"] = inner.device
    RESULTS["no_ps"] = tf.train.replica_device_setter(ps_tasks=0) is None

    def by_type(op):
        return "/cpu:0" if op.type == "MatMul" else ""

    with tf.device("/job:worker"):
        with tf.device(by_type):
            m = tf.matmul(tf.ones([2, 2]), tf.ones([2, 2]))
            n = m + 1.0
    RESULTS["fn_devices"] = [m.device, n.device]
    with tf.device(tf.DeviceSpec(job="ps", task=1)):
        c = tf.constant(1.0)
    RESULTS["spec_device"] = c.device
    with tf.device("/cpu:0"):
        with tf.device(""):
            d = tf.constant(1.0)
        with tf.device(None):
            e = tf.constant(1.0)
    RESULTS["null_scopes"] = [d.device, e.device]
    with tf.device("/job:worker/task:1"):
        with tf.colocate_with(vs[1]):
            f = tf.identity(total, name="f")
    RESULTS["colocated"] = f.device

data_x = np.array([[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5], [0.0, -2.0]], np.float32)
data_y = data_x @ np.array([[2.0], [1.0]], np.float32) + 0.5
config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % task_index])
losses = []
with tf.Session(server.target, config=config) as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(5):
        _, l, step = sess.run([train_op, loss, global_step], {x: data_x, y: data_y})
        losses.append(l)
    RESULTS["W"] = sess.run(W)
    RESULTS["step"] = tf.train.global_step(sess, global_step)
RESULTS["losses"] = losses

local = tf.train.Server.create_local_server()
RESULTS["local_target"] = local.target.startswith("grpc://localhost:")
with tf.Graph().as_default():
    with tf.Session(local.target) as sess:
        RESULTS["local_run"] = sess.run(tf.constant([1, 2]) * 3)
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
