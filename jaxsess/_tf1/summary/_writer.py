"""``tf.compat.v1.summary.FileWriter``: TensorBoard event files, written by TensorBoard's own
``EventFileWriter`` (``events.out.tfevents.<time>.<host>`` in ``logdir``, TFRecord framing,
masked CRC32C) through TensorBoard's TensorFlow stub (:mod:`._event_file`: ``tensorflow`` is
never imported), read by TensorBoard and by TF's ``summary_iterator``; read back by
:func:`summary_iterator` with jaxsess's bounded TFRecord reader."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from jaxsess._core import _tfproto as _tfproto, errors as errors
from jaxsess._core.graph._graph import Graph
from jaxsess._core.graph._graph_def import graph_to_graph_def
from jaxsess._tf1 import python_io as _python_io
from jaxsess._tf1.summary._event_file import EventFileWriter

__all__ = ["FileWriter", "FileWriterCache", "summary_iterator"]


def summary_iterator(path: str) -> Iterator[Any]:
    """The ``Event`` protos of the event file ``path``, in order, as
    ``tf.compat.v1.train.summary_iterator`` (TF reads it as a TFRecord file:
    :func:`jaxsess._tf1.python_io.tf_record_iterator`, which checks every
    record's length against the bytes left in the file before reading it).

    Raises:
      NotFoundError: ``path`` does not exist.
      DataLossError: a checksum mismatch, a truncated record (as TF: also the
        last one, ``truncated record``), a length beyond the end of the file,
        or a record that is not an ``Event`` (names the file).
    """
    if not os.path.isfile(path):
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory")
    for record in _python_io.tf_record_iterator(path):
        try:
            event = _tfproto.Event.FromString(record)
        except Exception:  # noqa: BLE001 - protobuf's DecodeError (its class differs between backends)
            raise errors.DataLossError(None, None, f"{path}: a record that is not an Event proto") from None
        yield event


class FileWriter:
    """Writes summaries, graphs and events to an event file, as ``tf.compat.v1.summary.FileWriter``.

    Args:
      logdir: the directory (created if missing).
      graph: a :class:`Graph` (or ``GraphDef``) to write at once, shown in
        TensorBoard's graph tab.
      max_queue: how many events to buffer before writing.
      flush_secs: flush at least this often (seconds).
      filename_suffix: appended to the event file's name.
      graph_def, session: accepted for compatibility (``graph_def`` is
        written like ``graph``).
    """

    def __init__(
        self,
        logdir: str,
        graph: Any = None,
        max_queue: int = 10,
        flush_secs: float = 120,
        graph_def: Any = None,
        filename_suffix: str | None = None,
        session: Any = None,
    ) -> None:
        self._writer = EventFileWriter(str(logdir), max_queue, flush_secs, filename_suffix or "")
        self._closed = False
        self._run_metadata_tags: set[str] = set()
        self._seen_summary_tags: set[str] = set()
        g = graph if graph is not None else graph_def
        if g is not None:
            self.add_graph(g)

    def get_logdir(self) -> str:
        """The directory of the event file."""
        return str(self._writer.get_logdir())

    def add_event(self, event: Any) -> None:
        """Writes an ``Event`` proto (its ``wall_time`` set to now when 0).

        Raises:
          RuntimeError: the writer is closed.
        """
        if self._closed:
            raise RuntimeError("The FileWriter is closed; call reopen() first.")
        if not event.wall_time:
            event.wall_time = time.time()
        self._writer.add_event(event)

    def add_summary(self, summary: Any, global_step: int | None = None) -> None:
        """Writes a summary at step ``global_step``, as TF1.

        Args:
          summary: a serialized ``Summary`` (``bytes``, what ``sess.run`` of a
            summary op gives) or a ``Summary`` proto.

        Raises:
          TypeError: neither.
        """
        if isinstance(summary, bytes | bytearray):
            proto = _tfproto.Summary.FromString(bytes(summary))
        elif isinstance(summary, np.ndarray) and summary.dtype == object and summary.shape == ():
            proto = _tfproto.Summary.FromString(bytes(summary[()]))
        elif isinstance(summary, _tfproto.Summary):
            proto = _tfproto.Summary()
            proto.CopyFrom(summary)
        else:
            raise TypeError(f"add_summary takes a serialized Summary (bytes) or a Summary proto, got {type(summary).__name__}.")
        # As TF: a tag's metadata (plugin data) is written with its first value only.
        for value in proto.value:
            if not value.HasField("metadata"):
                continue
            if value.tag in self._seen_summary_tags:
                value.ClearField("metadata")
                continue
            self._seen_summary_tags.add(value.tag)
        event = _tfproto.Event(summary=proto)
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def add_graph(self, graph: Any, global_step: int | None = None, graph_def: Any = None) -> None:
        """Writes a graph (a :class:`Graph` or ``GraphDef``) for TensorBoard's graph tab.

        Raises:
          TypeError: neither a ``Graph`` nor a ``GraphDef``.
        """
        g = graph if graph is not None else graph_def
        if isinstance(g, Graph):
            gd = graph_to_graph_def(g, lenient=True)  # host objects (iterators) are left out, as a picture
        elif isinstance(g, _tfproto.GraphDef):
            gd = g
        else:
            raise TypeError(f"add_graph takes a Graph or a GraphDef, got {type(g).__name__}.")
        event = _tfproto.Event(graph_def=gd.SerializeToString())
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def add_run_metadata(self, run_metadata: Any, tag: str, global_step: int | None = None) -> None:
        """Writes a ``RunMetadata`` proto under ``tag`` (TensorBoard's per-run
        metadata), as TF1's ``FileWriter.add_run_metadata``. jaxsess's
        ``Session.run`` leaves ``run_metadata`` empty (no step stats).

        Raises:
          ValueError: ``tag`` was already used by this writer.
        """
        if tag in self._run_metadata_tags:
            raise ValueError("The provided tag was already used for this event type")
        self._run_metadata_tags.add(tag)
        tagged = _tfproto.TaggedRunMetadata(tag=tag, run_metadata=run_metadata.SerializeToString())
        event = _tfproto.Event(tagged_run_metadata=tagged)
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def add_meta_graph(self, meta_graph_def: Any, global_step: int | None = None) -> None:
        """Writes a ``MetaGraphDef``."""
        event = _tfproto.Event(meta_graph_def=meta_graph_def.SerializeToString())
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def add_session_log(self, session_log: Any, global_step: int | None = None) -> None:
        """Writes a ``SessionLog`` proto."""
        event = _tfproto.Event(session_log=session_log)
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def flush(self) -> None:
        """Writes the buffered events to disk."""
        if not self._closed:
            self._writer.flush()

    def close(self) -> None:
        """Flushes and closes the file (idempotent)."""
        if not self._closed:
            self._writer.close()
            self._closed = True

    def reopen(self) -> None:
        """Reopens a closed writer: later events go to a new event file."""
        if self._closed:
            self._writer = EventFileWriter(self.get_logdir())
            self._closed = False

    def __enter__(self) -> FileWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class FileWriterCache:
    """One :class:`FileWriter` per log directory, shared by its users, as
    ``tf.compat.v1.summary.FileWriterCache`` (so repeated ``Estimator.train``
    calls append to one event file)."""

    _cache: dict[str, FileWriter] = {}

    @staticmethod
    def get(logdir: str) -> FileWriter:
        """The writer of ``logdir`` (created on first use, reopened if closed)."""
        key = os.path.abspath(str(logdir))
        writer = FileWriterCache._cache.get(key)
        if writer is None:
            writer = FileWriterCache._cache[key] = FileWriter(key)
        writer.reopen()
        return writer

    @staticmethod
    def clear() -> None:
        """Closes and forgets every cached writer."""
        for writer in FileWriterCache._cache.values():
            writer.close()
        FileWriterCache._cache.clear()
