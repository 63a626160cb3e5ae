"""Monitored sessions, Supervisor, device functions, clusters (the ``monitored`` slice).

The corpus programs ``v55_*`` compare these with real TensorFlow; the tests
here pin the pieces the programs do not reach.
"""

from __future__ import annotations

import numpy as np
import pytest

import jaxsess as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_device_function_sees_op_and_inner_device():
    seen = []

    def fn(op):
        seen.append((op.type, op.device))
        return "/job:ps/task:1"

    with tf.device("/device:CPU:0"):
        with tf.device(fn):
            c = tf.constant(1.0, name="c")
    assert seen == [("Const", "")]
    assert c.device == "/job:ps/task:1/device:CPU:0"  # the outer string fills in the device


def test_device_function_returning_none_is_a_type_error():
    with tf.device(lambda op: None), pytest.raises(TypeError, match="Expected binary or unicode string"):
        tf.constant(1.0)


def test_colocate_with_sets_aside_device_scopes():
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0, name="v")
    with tf.device("/job:worker"), tf.colocate_with(v):
        a = tf.identity(v.value())
    with tf.device("/job:worker"):
        b = tf.identity(v.value())
    assert a.device == "/job:ps/task:0"
    assert b.device == "/job:worker"
    with pytest.raises(ValueError, match="ignore_existing"):
        with tf.colocate_with(None):
            pass


def test_replica_device_setter_custom_strategy_and_ps_ops():
    chooser = tf.train.replica_device_setter(ps_tasks=4, ps_strategy=lambda op: 3, ps_ops=["VariableV2", "Const"])
    with tf.device(chooser):
        v = tf.Variable(1.0, name="v")
        x = tf.placeholder(tf.float32, name="x")
    assert v.device == "/job:ps/task:3"
    assert x.device == "/job:worker"
    with pytest.raises(TypeError, match="ps_strategy must be callable"):
        tf.train.replica_device_setter(ps_tasks=1, ps_strategy=3)


def test_variables_on_cluster_devices_run_in_process():
    cluster = tf.train.ClusterSpec({"ps": ["localhost:1"], "worker": ["localhost:2"]})
    server = tf.train.Server(cluster, job_name="worker", task_index=0)
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        v = tf.Variable(np.float32(2.0), name="v")
        out = v * 3.0
    with tf.Session(server.target) as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(out) == np.float32(6.0)


def test_session_rejects_unknown_targets():
    with pytest.raises(ValueError, match="not supported"):
        tf.Session("grpc://nowhere.example:2222")


def test_server_needs_job_and_task_when_ambiguous():
    cluster = {"ps": ["a:1"], "worker": ["b:1", "c:1"]}
    with pytest.raises(ValueError, match="explicit `job_name`"):
        tf.train.Server(cluster)
    with pytest.raises(ValueError, match="explicit `task_index`"):
        tf.train.Server(cluster, job_name="worker")
    with pytest.raises(TypeError, match="Could not convert"):
        tf.train.Server(42)


def test_feed_fn_hook_and_final_ops_hook():
    x = tf.placeholder(tf.float32, [], name="x")
    gs = tf.train.get_or_create_global_step()
    total = tf.Variable(0.0, name="total")
    step = tf.group(tf.assign_add(total, x), tf.assign_add(gs, 1))
    values = iter([1.0, 2.0, 3.0])
    final = tf.train.FinalOpsHook(total)
    hooks = [tf.train.FeedFnHook(lambda: {x: next(values)}), tf.train.StopAtStepHook(last_step=3), final]
    with tf.train.MonitoredSession(hooks=hooks) as sess:
        while not sess.should_stop():
            sess.run(step)
    assert final.final_ops_values == np.float32(6.0)


def test_run_step_fn_request_stop_ends_the_with_block():
    gs = tf.train.get_or_create_global_step()
    inc = tf.assign_add(gs, 1)
    ended = []

    class End(tf.train.SessionRunHook):
        def end(self, session):
            ended.append(int(session.run(gs)))

    calls = 0
    with tf.train.MonitoredSession(hooks=[End()]) as sess:
        while not sess.should_stop():
            calls += 1

            def step_fn(ctx):
                if ctx.session.run(inc) >= 2:
                    ctx.request_stop()

            sess.run_step_fn(step_fn)
    assert calls == 2 and ended == [2]


def test_monitored_training_session_hook_order():
    order = []

    class Named(tf.train.SessionRunHook):
        def __init__(self, name):
            self.name = name

        def begin(self):
            order.append(self.name)

    tf.train.get_or_create_global_step()
    with tf.train.MonitoredTrainingSession(hooks=[Named("user")], chief_only_hooks=[Named("chief")]):
        pass
    assert order == ["chief", "user"]


def test_looper_thread_runs_until_stop():
    coord = tf.train.Coordinator()
    calls = []

    def target():
        calls.append(1)
        if len(calls) == 3:
            coord.request_stop()

    looper = tf.train.LooperThread.loop(coord, None, target)
    coord.join([looper])
    assert len(calls) == 3
    with pytest.raises(ValueError, match="must be a Coordinator"):
        tf.train.LooperThread(object(), 1.0)


def test_session_manager_restores_or_initializes(tmp_path):
    v = tf.Variable(np.float32(1.0), name="v")
    bump = tf.assign_add(v, 1.0)
    saver = tf.train.Saver()
    manager = tf.train.SessionManager()
    with manager.prepare_session("", init_op=tf.global_variables_initializer(), saver=saver,
                                 checkpoint_dir=str(tmp_path)) as sess:
        sess.run(bump)
        saver.save(sess, str(tmp_path / "m"), global_step=1)
    with manager.prepare_session("", saver=saver, checkpoint_dir=str(tmp_path)) as sess:
        assert sess.run(v) == np.float32(2.0)
    with pytest.raises(RuntimeError, match="no init_op"):
        manager.prepare_session("", saver=saver, checkpoint_dir=str(tmp_path / "empty"))


def test_supervisor_not_ready_and_non_chief():
    tf.Variable(1.0, name="v")
    sv = tf.train.Supervisor(logdir=None, init_op=tf.no_op())
    with pytest.raises(RuntimeError, match="did not make model ready"):
        sv.prepare_or_wait_for_session()
    tf.reset_default_graph()
    with pytest.raises(NotImplementedError):
        tf.train.Supervisor(is_chief=False)


def test_summary_saver_hook_needs_exactly_one_op_source(tmp_path):
    with pytest.raises(ValueError, match="Exactly one of scaffold or summary_op"):
        tf.train.SummarySaverHook(save_steps=1, output_dir=str(tmp_path))


def test_sync_replicas_optimizer_one_replica_is_the_wrapped_update():
    gs = tf.train.get_or_create_global_step()
    w = tf.Variable(np.float32(1.0), name="w")
    loss = tf.square(w)
    opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.25), replicas_to_aggregate=1)
    train_op = opt.minimize(loss, global_step=gs)
    hook = opt.make_session_run_hook(is_chief=True)
    with tf.train.MonitoredSession(hooks=[hook]) as sess:
        tokens = [sess.run(train_op) for _ in range(3)]
        assert sess.run(w) == np.float32(0.125)  # 1 -> 0.5 -> 0.25 -> 0.125
        assert sess.run(gs) == 3
    assert tokens == [0, 1, 2]  # the global step before each update, as TF's tokens
    assert opt.get_chief_queue_runner().create_threads(None) == []
    with pytest.raises(NotImplementedError, match="one replica"):
        tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1), replicas_to_aggregate=2)
    with pytest.raises(ValueError, match="Global step is required"):
        tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1), 1).minimize(loss)
