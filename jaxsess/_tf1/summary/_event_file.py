"""The event file writer: TensorBoard's, opened through TensorBoard's TensorFlow stub.

TensorBoard's ``EventFileWriter`` creates its directory and file with
``tensorboard.compat.tf.io.gfile``, and ``tensorboard.compat.tf`` *is the real
``tensorflow``* whenever it is installed (43 s to import, and its C++ record
code). :class:`EventFileWriter` here is TensorBoard's class with the two
file-system calls made by ``tensorboard.compat.tensorflow_stub.io.gfile``
(local paths, and the other file systems the stub knows); the asynchronous
writer, the record framing and the file's name and first event are
TensorBoard's own. ``tensorflow`` is never imported.
"""

from __future__ import annotations

import os
import socket
import time
from typing import Any

from tensorboard.compat.proto import event_pb2
from tensorboard.compat.tensorflow_stub.io import gfile as _stub_gfile
from tensorboard.summary.writer import event_file_writer as _tb_writer
from tensorboard.summary.writer.record_writer import RecordWriter

__all__ = ["EventFileWriter"]


class EventFileWriter(_tb_writer.EventFileWriter):
    """TensorBoard's ``EventFileWriter`` (``events.out.tfevents.<time>.<host>.<pid>.<n><suffix>``
    in ``logdir``; events queued, written by a background thread, flushed every ``flush_secs``
    seconds or when ``max_queue_size`` are pending), without ``tensorflow``.

    Raises:
      OSError: the directory or the file cannot be made.
    """

    def __init__(self, logdir: str, max_queue_size: int = 10, flush_secs: float = 120,
                 filename_suffix: str = "") -> None:
        # TensorBoard's __init__ with the stub's gfile in place of ``tensorboard.compat.tf.io.gfile``
        self._logdir = logdir
        _stub_gfile.makedirs(logdir)
        stamp = f"{int(time.time()):010d}.{socket.gethostname()}.{os.getpid()}.{_tb_writer._global_uid.get()}"
        self._file_name = os.path.join(logdir, "events.out.tfevents." + stamp) + filename_suffix
        self._general_file_writer: Any = _stub_gfile.GFile(self._file_name, "wb")
        self._async_writer = _tb_writer._AsyncWriter(RecordWriter(self._general_file_writer), max_queue_size,
                                                     flush_secs)
        self.add_event(event_pb2.Event(wall_time=time.time(), file_version="brain.Event:2",
                                       source_metadata=event_pb2.SourceMetadata(
                                           writer="tensorboard.summary.writer.event_file_writer")))
        self.flush()
