"""Bounded record readers and no TensorFlow (issue 33 items 4 and 6, issue 32 item 6).

A TFRecord or event file whose record header (with a valid checksum) claims more bytes than
the file holds raises ``DataLossError`` naming the file, allocating no more than the file's
size (real TF's C++ reader crashes on 2**40 and 2**62: recorded by hand with TF 2.21, a
segfault in both ``tf_record_iterator`` and ``summary_iterator``; for an ordinary truncated
record TF raises ``DataLossError``, as here). ``summary.FileWriter`` and the readers never
import ``tensorflow``: checked in a process where importing it raises.
"""

from __future__ import annotations

import gzip
import os
import struct
import subprocess
import sys
import textwrap
import tracemalloc
import zlib
from pathlib import Path

import pytest

import jaxsess as tf
from jaxsess import errors
from jaxsess._tf1.train._checkpoint import _crc, mask_crc

ROOT = Path(__file__).resolve().parents[1]
HUGE = (2**62, 2**64 - 1, 2**40, 2**33)


def _crafted(length: int, tail: bytes = b"abc") -> bytes:
    header = struct.pack("<Q", length)
    return header + struct.pack("<I", mask_crc(_crc(header))) + tail


def _record(data: bytes) -> bytes:
    return _crafted(len(data), data + struct.pack("<I", mask_crc(_crc(data))))


@pytest.mark.parametrize("length", HUGE)
@pytest.mark.parametrize("kind", ["", "GZIP", "ZLIB"])
def test_huge_record_length_is_data_loss_naming_the_file(tmp_path: Path, length: int, kind: str) -> None:
    raw = _record(b"first record") + _crafted(length)
    path = str(tmp_path / f"r.{kind or 'plain'}.tfrecord")
    Path(path).write_bytes(gzip.compress(raw) if kind == "GZIP" else zlib.compress(raw) if kind == "ZLIB" else raw)
    tracemalloc.start()
    try:
        got = []
        with pytest.raises(errors.DataLossError, match="truncated data") as info:
            for r in tf.python_io.tf_record_iterator(path, kind or None):
                got.append(r)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == [b"first record"]  # the records before the bad one are read
    assert path in str(info.value)
    assert peak < (1 << 22)  # no allocation near the claimed length (a few KiB of file)


def test_crafted_event_files_are_data_loss_not_a_crash(tmp_path: Path) -> None:
    """Reproducer 05, in a child process (a crash would kill it): every huge length."""
    paths = []
    for length in HUGE:
        path = tmp_path / f"events.out.tfevents.crafted{length}"
        path.write_bytes(_crafted(length))
        paths.append(str(path))
    code = textwrap.dedent("""
        import sys
        import jaxsess as tf
        for path in sys.argv[1:]:
            try:
                list(tf.train.summary_iterator(path))
            except tf.errors.DataLossError as e:
                print("DataLossError", path in str(e))
    """)
    r = subprocess.run([sys.executable, "-c", code, *paths], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["DataLossError", "True"] * len(HUGE)


def test_truncated_last_event_is_data_loss_as_tf(tmp_path: Path) -> None:
    with tf.summary.FileWriter(str(tmp_path)) as w:
        w.add_summary(tf.Summary(value=[tf.Summary.Value(tag="loss", simple_value=1.5)]), 3)
    (path,) = tmp_path.iterdir()
    events = list(tf.train.summary_iterator(str(path)))
    assert [e.step for e in events] == [0, 3] and events[0].file_version == "brain.Event:2"
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(errors.DataLossError, match="truncated"):
        list(tf.train.summary_iterator(str(path)))


_NO_TF = """
import os, sys, tempfile
import numpy as np
import jaxsess as tf
d = tempfile.mkdtemp()
with tf.Graph().as_default() as g:
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    v = tf.Variable(np.ones((2, 1), np.float32), name="v")
    y = tf.matmul(x, v, name="y")
    s = tf.summary.scalar("loss", tf.reduce_sum(y))
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        w = tf.summary.FileWriter(d, g)
        w.add_summary(sess.run(s, {x: np.ones((1, 2))}), 1)
        w.flush(); w.close(); w.reopen(); w.close()
        saver.restore(sess, saver.save(sess, os.path.join(d, "m")))
        tf.train.write_graph(g, d, "g.pbtxt")
events = [e for f in sorted(os.listdir(d)) if f.startswith("events.") for e in tf.train.summary_iterator(os.path.join(d, f))]
with tf.python_io.TFRecordWriter(os.path.join(d, "r.tfrecord")) as rw:
    rw.write(b"abc")
assert list(tf.python_io.tf_record_iterator(os.path.join(d, "r.tfrecord"))) == [b"abc"]
with tf.Graph().as_default():
    tf.import_graph_def(tf.train.import_meta_graph(os.path.join(d, "m.meta")).export_meta_graph().graph_def, name="again")
with tf.Graph().as_default():
    K = tf.keras
    m = K.Sequential([K.layers.Dense(1, input_shape=(2,))])
    m.save(os.path.join(d, "k.h5"))
    K.models.load_model(os.path.join(d, "k.h5"))
print(len(events), "tensorflow" in sys.modules)
"""


def test_file_apis_never_import_tensorflow(tmp_path: Path) -> None:
    """A ``tensorflow`` package that raises on import (not ``ImportError``: TensorBoard falls back
    to its stub on that) is first on the path; jaxsess's file APIs run without touching it."""
    fake = tmp_path / "fake" / "tensorflow"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise RuntimeError('tensorflow was imported')\n")
    env = {**os.environ, "JAX_PLATFORMS": "cpu",
           "PYTHONPATH": os.pathsep.join([str(tmp_path / "fake"), str(ROOT)])}
    r = subprocess.run([sys.executable, "-c", _NO_TF], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    n, imported = r.stdout.split()[-2:]
    assert int(n) >= 4 and imported == "False"
