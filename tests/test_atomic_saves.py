"""Atomic checkpoint saves (issue 33 items 1, 2, 5): nothing lost under interrupts and I/O errors.

``Saver.save`` defers signals as a run does, writes the data files under
names the current index does not read and switches with one rename of the
index, writes the state file before deleting checkpoints past
``max_to_keep``, and deletes its temporaries in a ``finally`` that covers
their creation. The interrupts here are real signals: ``SIGALRM`` timers at
random points (1,000 of them) and ``SIGINT`` raised at the C level (libc
``raise``) inside the system calls of a save (the reproducers 01-03);
a full disk is a real ``RLIMIT_FSIZE`` in a subprocess.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from _alarm import Alarm

import jaxsess as tf
from jaxsess._tf1.train import _atomic_files

pytestmark = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"),
    reason="signal timers need the main thread on a POSIX system",
)

INTERRUPTS = 1000
STEPS_PER_TRIAL = 200  # bounded: a trial whose signal was swallowed ends


class _Model:
    def __init__(self, max_to_keep: int = 3) -> None:
        self.graph = tf.Graph()
        with self.graph.as_default():
            self.w = tf.Variable(np.zeros(16, np.float32), name="w")
            self.c = tf.Variable(0, name="c")
            self.step = tf.group(tf.assign_add(self.w, tf.ones_like(self.w)), tf.assign_add(self.c, 1))
            self.saver = tf.train.Saver(max_to_keep=max_to_keep)
            self.init = tf.global_variables_initializer()

    def restored(self, prefix: str, sess: tf.Session | None = None) -> int:
        """Restores ``prefix`` into ``sess`` (default: a new session); checks it is one checkpoint
        (``w == c``); returns ``c``."""
        with tf.Session(graph=self.graph) if sess is None else contextlib.nullcontext(sess) as s:
            self.saver.restore(s, prefix)
            w, c = s.run([self.w, self.c])
        np.testing.assert_array_equal(w, np.full(16, int(c), np.float32), err_msg=f"a mixed checkpoint at {prefix}")
        return int(c)


def _temporaries(d: str) -> list[str]:
    return sorted(f for f in os.listdir(d) if f.endswith(_atomic_files.TEMP_SUFFIX))


@pytest.fixture
def model() -> Iterator[_Model]:
    yield _Model()


@pytest.mark.parametrize("with_step", [False, True], ids=["same-prefix", "global-step"])
def test_random_interrupts_never_lose_the_latest_checkpoint(model: _Model, tmp_path: Any, with_step: bool) -> None:
    """1,000 interrupts (500 per variant) at random points of ``train; save; restore``: after each,
    ``latest_checkpoint()`` restores a complete checkpoint holding the value of the last save that
    returned or of the one interrupted, and no temporary file is left."""
    # on a tmpfs where there is one (an fsync there is free: 1,000 interrupts take seconds, not minutes)
    d = tempfile.mkdtemp(dir="/dev/shm") if os.path.isdir("/dev/shm") else str(tmp_path)
    try:
        _hammer(model, d, with_step)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _hammer(model: _Model, d: str, with_step: bool) -> None:
    prefix = os.path.join(d, "model")
    rng = random.Random(33 + with_step)
    kinds = ("sigint", "keyboard", "exit")
    with tf.Session(graph=model.graph) as sess, tf.Session(graph=model.graph) as checker:
        sess.run(model.init)
        sess.run(model.step)

        def save(value: int) -> None:
            model.saver.save(sess, prefix, global_step=value if with_step else None)

        save(1)
        model.saver.restore(sess, tf.train.latest_checkpoint(d))  # compiled before the timing
        model.restored(tf.train.latest_checkpoint(d), checker)
        t0 = time.perf_counter()
        for _ in range(5):  # one iteration's time sets the range of the random delays
            sess.run(model.step)
            save(int(sess.run(model.c)))
            model.saver.restore(sess, tf.train.latest_checkpoint(d))
        span = (time.perf_counter() - t0) / 5 * 1.5
        committed = int(sess.run(model.c))  # the value of the last save that returned
        interrupted = 0
        with Alarm() as alarm:
            for trial in range(INTERRUPTS // 2):
                attempt = committed
                try:
                    alarm.arm(rng.random() * span + 1e-6, kinds[trial % 3])
                    for _ in range(STEPS_PER_TRIAL):
                        sess.run(model.step)
                        attempt = int(sess.run(model.c))
                        save(attempt)
                        committed = attempt
                        model.saver.restore(sess, tf.train.latest_checkpoint(d))
                except (KeyboardInterrupt, SystemExit):
                    interrupted += 1
                finally:
                    alarm.disarm()
                latest = tf.train.latest_checkpoint(d)
                assert latest is not None, f"trial {trial}: the checkpoint is lost ({sorted(os.listdir(d))})"
                value = model.restored(latest, checker)
                assert value in (committed, attempt), f"trial {trial}: restored {value}, saved {committed}/{attempt}"
                assert _temporaries(d) == [], f"trial {trial}"
                if with_step:
                    assert latest == f"{prefix}-{value}"
                    kept = [f for f in os.listdir(d) if f.endswith(".index")]
                    assert len(kept) <= 3 + 1, kept  # max_to_keep, plus the one being written
                committed = value
                model.saver.restore(sess, latest)  # the loop continues from what is on disk
        assert interrupted >= INTERRUPTS // 2 * 0.9


def _c_raise() -> Any:
    return ctypes.CDLL(None)["raise"]


def test_ctrl_c_between_the_renames_of_a_save_over_the_same_prefix(model: _Model, tmp_path: Any,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Reproducer 01: SIGINT raised at the C level while the new data file is renamed into place is
    delivered once the save is complete; the checkpoint restores the new values; then the old data
    file is gone."""
    prefix = str(tmp_path / "model")
    raise_ = _c_raise()
    real = os.replace
    renamed: list[str] = []

    def replace(src: str, dst: str) -> None:
        real(src, dst)
        renamed.append(os.path.basename(dst))
        if ".data-" in dst:
            raise_(signal.SIGINT)

    with tf.Session(graph=model.graph) as sess:
        sess.run(model.init)
        for expected in (1, 2, 3):  # over one data file, two, one again
            sess.run(model.step)
            monkeypatch.setattr(os, "replace", replace)
            with pytest.raises(KeyboardInterrupt):
                model.saver.save(sess, prefix)
            monkeypatch.setattr(os, "replace", real)
            assert renamed[-2:] == ["model.index", "checkpoint"]  # the interrupt waited for the whole save
            assert model.restored(tf.train.latest_checkpoint(str(tmp_path))) == expected
            shards = sorted(f for f in os.listdir(tmp_path) if ".data-" in f)
            assert shards in (["model.data-00000-of-00001"], ["model.data-00000-of-00002", "model.data-00001-of-00002"])
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_state_file_is_written_before_old_checkpoints_are_deleted(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reproducer 02: with ``max_to_keep=1``, an error while the state file is written (here
    ``ENOSPC`` from its ``fsync``) leaves the previous checkpoint on disk and named by the state file;
    a Ctrl-C there waits until the save is complete."""
    model = _Model(max_to_keep=1)
    d = str(tmp_path)
    real = os.fsync
    with tf.Session(graph=model.graph) as sess:
        sess.run(model.init)
        model.saver.save(sess, os.path.join(d, "model"), global_step=1)

        def fsync_full(fd: int) -> None:
            if os.path.basename(os.readlink(f"/proc/self/fd/{fd}")).startswith(".checkpoint."):
                raise OSError(errno.ENOSPC, "No space left on device")
            real(fd)

        monkeypatch.setattr(os, "fsync", fsync_full)
        with pytest.raises(OSError, match="No space"):
            model.saver.save(sess, os.path.join(d, "model"), global_step=2)
        monkeypatch.setattr(os, "fsync", real)
        assert tf.train.latest_checkpoint(d) == os.path.join(d, "model-1")  # not deleted
        assert _temporaries(d) == []

        def fsync_sigint(fd: int) -> None:
            real(fd)
            if os.path.basename(os.readlink(f"/proc/self/fd/{fd}")).startswith(".checkpoint."):
                os.kill(os.getpid(), signal.SIGINT)

        monkeypatch.setattr(os, "fsync", fsync_sigint)
        with pytest.raises(KeyboardInterrupt):
            model.saver.save(sess, os.path.join(d, "model"), global_step=3)
        monkeypatch.setattr(os, "fsync", real)
        assert tf.train.latest_checkpoint(d) == os.path.join(d, "model-3")
        assert sorted(f for f in os.listdir(d) if f.endswith(".index")) == ["model-3.index"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/fd")
def test_interrupt_while_a_temporary_is_created_leaves_none(model: _Model, tmp_path: Any,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Reproducer 03: SIGINT raised at the C level inside the ``open`` that creates a temporary; and
    an exception raised there (its file exists) leaves no temporary either."""
    raise_ = _c_raise()
    real = os.open

    def open_sigint(path: Any, flags: int, mode: int = 0o777, *, dir_fd: Any = None) -> int:
        fd = real(path, flags, mode, dir_fd=dir_fd)
        if str(path).endswith(".tmp") and ".data-" in str(path):
            raise_(signal.SIGINT)
        return fd

    def open_fails(path: Any, flags: int, mode: int = 0o777, *, dir_fd: Any = None) -> int:
        fd = real(path, flags, mode, dir_fd=dir_fd)
        if str(path).endswith(".tmp") and ".index" in str(path):
            os.close(fd)
            raise KeyboardInterrupt  # after the file exists, before the caller has its descriptor
        return fd

    with tf.Session(graph=model.graph) as sess:
        sess.run(model.init)
        monkeypatch.setattr(os, "open", open_sigint)
        with pytest.raises(KeyboardInterrupt):
            model.saver.save(sess, str(tmp_path / "model"))
        monkeypatch.setattr(os, "open", open_fails)
        sess.run(model.step)
        with pytest.raises(KeyboardInterrupt):
            model.saver.save(sess, str(tmp_path / "model"))
        monkeypatch.setattr(os, "open", real)
    assert _temporaries(str(tmp_path)) == []
    assert model.restored(str(tmp_path / "model")) == 0  # the first save; the second never switched


def test_sigterm_raising_systemexit_waits_for_the_save(model: _Model, tmp_path: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``SIGTERM`` handler that raises ``SystemExit`` (as services install) fires after the save."""
    prev = signal.signal(signal.SIGTERM, lambda s, f: sys.exit(7))
    real = os.replace
    try:
        def replace(src: str, dst: str) -> None:
            real(src, dst)
            if ".data-" in dst:
                os.kill(os.getpid(), signal.SIGTERM)

        monkeypatch.setattr(os, "replace", replace)
        with tf.Session(graph=model.graph) as sess:
            sess.run(model.init)
            sess.run(model.step)
            with pytest.raises(SystemExit):
                model.saver.save(sess, str(tmp_path / "model"))
        monkeypatch.setattr(os, "replace", real)
    finally:
        signal.signal(signal.SIGTERM, prev)
    assert model.restored(tf.train.latest_checkpoint(str(tmp_path))) == 1


_FULL_DISK = textwrap.dedent("""
    import os, resource, signal, sys
    import numpy as np, jaxsess as tf
    d = sys.argv[1]
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.zeros(4096, np.float32), name="v")  # 16 KiB of data
        bump = tf.assign_add(v, tf.ones_like(v))
        saver = tf.train.Saver(max_to_keep=2)
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        saver.save(sess, os.path.join(d, "model"), global_step=0)
        saver.save(sess, os.path.join(d, "same"))
        sess.run(bump)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))
        for args in ((os.path.join(d, "model"), 1), (os.path.join(d, "same"), None)):
            try:
                saver.save(sess, args[0], global_step=args[1])
            except OSError as e:
                print("OSError", e.errno)
            else:
                print("saved")
""")


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="RLIMIT_FSIZE needs POSIX")
def test_full_disk_leaves_the_previous_checkpoints(tmp_path: Any) -> None:
    """A real write error (``RLIMIT_FSIZE``: ``EFBIG`` from ``write``, as a full disk fails) in a
    subprocess: both saves fail with ``OSError``; the previous checkpoints restore, the state file
    still names them, and no temporary is left."""
    d = str(tmp_path)
    r = subprocess.run([sys.executable, "-c", _FULL_DISK, d], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["OSError", str(errno.EFBIG)] * 2
    assert _temporaries(d) == []
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.ones(4096, np.float32), name="v")
        saver = tf.train.Saver()
    assert tf.train.latest_checkpoint(d) == os.path.join(d, "same")  # the last save that succeeded
    for prefix in ("model-0", "same"):
        with tf.Session(graph=g) as s:
            saver.restore(s, os.path.join(d, prefix))
            np.testing.assert_array_equal(s.run(v), np.zeros(4096, np.float32))


def test_restore_of_a_tf_sharded_checkpoint_after_saving_over_it(model: _Model, tmp_path: Any) -> None:
    """Saving alternates between one data file and two (the second empty); ``remove_checkpoint``
    deletes every shard."""
    prefix = str(tmp_path / "model")
    with tf.Session(graph=model.graph) as sess:
        sess.run(model.init)
        for k in range(1, 5):
            sess.run(model.step)
            model.saver.save(sess, prefix, write_meta_graph=False)
            n = 2 if k % 2 == 0 else 1
            shards = sorted(f for f in os.listdir(tmp_path) if ".data-" in f)
            assert shards == [f"model.data-{i:05d}-of-{n:05d}" for i in range(n)]
            assert model.restored(prefix) == k
    tf.train.remove_checkpoint(prefix)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint"]
