"""tf.logging, tf.app.flags, Coordinator and MonitoredTrainingSession (issue 13, item 6)."""

from __future__ import annotations

import os
import threading

import numpy as np
import pytest

import jaxsess as tf


def test_logging_levels_and_format(capsys: pytest.CaptureFixture[str]) -> None:
    old = tf.logging.get_verbosity()
    try:
        tf.logging.set_verbosity(tf.logging.WARN)
        tf.logging.info("hidden")
        tf.logging.warn("careful %d", 1)
        tf.logging.set_verbosity(tf.logging.INFO)
        assert tf.logging.get_verbosity() == tf.logging.INFO
        tf.logging.info("step %d", 2)
        for _ in range(3):
            tf.logging.log_first_n(tf.logging.INFO, "once", 1)
    finally:
        tf.logging.set_verbosity(old)
    assert capsys.readouterr().err == "WARNING:tensorflow:careful 1\nINFO:tensorflow:step 2\nINFO:tensorflow:once\n"


def test_flags_parse_on_first_read_and_app_run(monkeypatch: pytest.MonkeyPatch) -> None:
    tf.app.flags.DEFINE_integer("jaxsess_test_epochs", 3, "epochs")
    tf.flags.DEFINE_string("jaxsess_test_name", "a", "name")
    seen = []

    def main(argv: list[str]) -> int:
        seen.append((tf.app.flags.FLAGS.jaxsess_test_epochs, tf.flags.FLAGS.jaxsess_test_name, argv[1:]))
        return 0

    with pytest.raises(SystemExit) as e:
        tf.app.run(main, argv=["prog", "--jaxsess_test_epochs=7", "extra"])
    assert e.value.code == 0
    assert seen == [(7, "a", ["extra"])]


def test_coordinator_join_reraises_and_reports_live_threads() -> None:
    coord = tf.train.Coordinator()

    def bad() -> None:
        with coord.stop_on_exception():
            raise KeyError("boom")

    t = threading.Thread(target=bad)
    t.start()
    with pytest.raises(KeyError, match="boom"):
        coord.join([t])
    assert coord.should_stop() and coord.joined

    coord = tf.train.Coordinator()
    release = threading.Event()
    stuck = threading.Thread(target=release.wait, name="stuck-thread")
    stuck.start()
    coord.request_stop()
    with pytest.raises(RuntimeError, match="stuck-thread"):
        coord.join([stuck], stop_grace_period_secs=0.01)
    release.set()
    stuck.join()
    coord.clear_stop()
    assert not coord.should_stop()


class _Recorder(tf.train.SessionRunHook):
    def __init__(self) -> None:
        self.calls: list[str] = []

    def begin(self) -> None:
        self.calls.append("begin")

    def after_create_session(self, session: object, coord: object) -> None:
        self.calls.append("created")

    def before_run(self, run_context: tf.train.SessionRunContext) -> tf.train.SessionRunArgs:
        self.calls.append("before")
        return tf.train.SessionRunArgs({"two": tf.get_default_graph().get_tensor_by_name("two:0")})

    def after_run(self, run_context: tf.train.SessionRunContext, run_values: tf.train.SessionRunValues) -> None:
        self.calls.append(f"after{int(np.asarray(run_values.results['two']))}")

    def end(self, session: object) -> None:
        self.calls.append("end")


def test_monitored_session_hooks_and_input_end(tmp_path: os.PathLike[str]) -> None:
    tf.constant(2, name="two")
    nxt = tf.data.Dataset.range(2).make_one_shot_iterator().get_next()
    step = tf.train.get_or_create_global_step()
    inc = step.assign_add(1)
    rec = _Recorder()
    got = []
    with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), hooks=[rec], save_checkpoint_steps=1,
                                           log_step_count_steps=0) as sess:
        while not sess.should_stop():
            got.append(int(np.asarray(sess.run([nxt, inc])[0])))
    assert got == [0, 1]
    assert rec.calls == ["begin", "created", "before", "after2", "before", "after2", "before", "end"]
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-2")


def test_stop_at_step_hook_needs_a_global_step() -> None:
    with pytest.raises(RuntimeError, match="Global step"):
        tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(num_steps=1)])
    with pytest.raises(ValueError, match="num_steps or last_step"):
        tf.train.StopAtStepHook()


def test_flags_reexport_all_of_absl_flags() -> None:
    from absl import flags as absl_flags

    public = [n for n in dir(absl_flags) if not n.startswith("_")]
    for module in (tf.flags, tf.app.flags):
        missing = [n for n in public if getattr(module, n, None) is not getattr(absl_flags, n)]
        assert missing == [] or missing == ["FLAGS"], missing  # FLAGS: TF's parse-on-first-read wrapper
        assert set(public) <= set(dir(module))
    with pytest.raises(AttributeError, match="no attribute '_private'"):
        tf.flags._private  # noqa: B018
