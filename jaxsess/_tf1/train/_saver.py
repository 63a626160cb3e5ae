"""Checkpoints, as ``tf.compat.v1.train.Saver``, in TF's own files.

Format (TF's, read and written both ways with real TensorFlow):

* ``<prefix>.index`` + ``<prefix>.data-00000-of-00001`` — a V2 checkpoint
  (tensor bundle, see :mod:`jaxsess._tf1.train._checkpoint`): one tensor per
  variable, keyed by its checkpoint name (the variable's op name,
  ``'dense/kernel'``, or the key of a ``var_list`` dict).
* ``<prefix>.meta`` — the ``MetaGraphDef`` (graph, collections, saver def),
  when ``save(write_meta_graph=True)``.
* ``checkpoint`` — the ``CheckpointState`` text proto in the checkpoint
  directory (``model_checkpoint_path: "model-3"``...), paths relative to the
  directory unless it was given as an absolute path, as TF1; read by
  :func:`latest_checkpoint`.

Older jaxsess checkpoints (``<prefix>.npz``: a NumPy archive with a
``'__jaxsess_meta__'`` JSON entry, and a JSON ``checkpoint`` index) are still
read. Every file is written atomically (temporary file, ``fsync``,
``os.replace``). Loading never executes code from the files (no pickle).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import time
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO, Any

import jax.numpy as jnp
import numpy as np
from google.protobuf import text_format

from jaxsess._core import (
    _signals as _signals,
    _tfproto as _tfproto,
    distributed as _distributed,
    dtypes as _dtypes,
    errors as errors,
)
from jaxsess._core._context import VariableStore
from jaxsess._core.graph._graph import Graph, GraphKeys, get_default_graph
from jaxsess._tf1.ops.state_ops import Variable, _as_variable
from jaxsess._tf1.train import _atomic_files as _atomic_files, _checkpoint as _checkpoint
from jaxsess._tf1.train._global_step import global_step as _global_step_value
from jaxsess._tf1.train._meta_graph import export_meta_graph, import_meta_graph_def, read_meta_graph_file

__all__ = [
    "Saver",
    "CheckpointState",
    "latest_checkpoint",
    "checkpoint_exists",
    "get_checkpoint_state",
    "remove_checkpoint",
    "update_checkpoint_state",
    "generate_checkpoint_state_proto",
    "get_checkpoint_mtimes",
    "import_meta_graph",
]

_log = logging.getLogger("jaxsess")
META_KEY = "__jaxsess_meta__"
FORMAT = "jaxsess-npz"
VERSION = 1
INDEX_NAME = "checkpoint"
SUFFIX = ".npz"


# -- atomic files -------------------------------------------------------------------


def _write_atomic(path: str, write: Callable[[IO[bytes]], None]) -> None:
    """Writes ``path`` through a temporary file in its directory and ``os.replace`` (see
    :func:`jaxsess._tf1.train._atomic_files.write_files`)."""
    buf = io.BytesIO()
    write(buf)
    _atomic_files.write_files([(path, buf.getvalue())])


def _npz_path(prefix: str) -> str:
    return prefix if prefix.endswith(SUFFIX) else prefix + SUFFIX


# -- checkpoint state (the index file) ---------------------------------------------------


@dataclass
class CheckpointState:
    """The contents of a ``checkpoint`` index file, as TF1's ``CheckpointState`` proto.

    Attributes:
      model_checkpoint_path: the latest checkpoint prefix.
      all_model_checkpoint_paths: the prefixes kept, oldest first.
      all_model_checkpoint_timestamps: their save times (seconds since the epoch).
    """

    model_checkpoint_path: str
    all_model_checkpoint_paths: list[str] = field(default_factory=list)
    all_model_checkpoint_timestamps: list[float] = field(default_factory=list)
    last_preserved_timestamp: float = 0.0


def get_checkpoint_state(checkpoint_dir: str, latest_filename: str | None = None) -> CheckpointState | None:
    """The index of ``checkpoint_dir``, or ``None`` when it is missing or unreadable.

    As ``tf.compat.v1.train.get_checkpoint_state``: relative paths in the
    index are returned joined to ``checkpoint_dir``.
    """
    path = os.path.join(checkpoint_dir, latest_filename or INDEX_NAME)
    try:
        held = _signals.defer()  # an interrupt inside open() would leak the half-made file object
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read(1 << 24)
        finally:
            _signals.deliver(held)
        if text.lstrip().startswith("{"):  # the JSON index of older jaxsess versions
            data = json.loads(text)
            model = data["model_checkpoint_path"]
            paths = list(data.get("all_model_checkpoint_paths", []))
            stamps = [float(t) for t in data.get("all_model_checkpoint_timestamps", [])]
            preserved = float(data.get("last_preserved_timestamp", 0.0))
        else:
            proto = text_format.Parse(text, _tfproto.CheckpointStateProto())
            model = proto.model_checkpoint_path
            paths = list(proto.all_model_checkpoint_paths)
            stamps = list(proto.all_model_checkpoint_timestamps)
            preserved = proto.last_preserved_timestamp
        if not isinstance(model, str) or not all(isinstance(p, str) for p in paths):
            return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError, text_format.ParseError):
        return None

    def full(p: str) -> str:
        return p if os.path.isabs(p) else os.path.join(checkpoint_dir, p)

    return CheckpointState(full(model), [full(p) for p in paths], stamps, preserved)


def update_checkpoint_state(
    save_dir: str,
    model_checkpoint_path: str,
    all_model_checkpoint_paths: list[str] | None = None,
    latest_filename: str | None = None,
    all_model_checkpoint_timestamps: list[float] | None = None,
    last_preserved_timestamp: float | None = None,
    save_relative_paths: bool = False,
) -> None:
    """Writes the ``checkpoint`` index of ``save_dir`` (atomically), as
    ``tf.compat.v1.train.update_checkpoint_state``.

    Paths are stored relative to ``save_dir`` when ``save_dir`` is relative
    or ``save_relative_paths`` is set, else as given (as TF1).
    """
    if save_relative_paths:
        def rel(p: str) -> str:
            return os.path.relpath(p, save_dir) if os.path.isabs(p) else p

        model_checkpoint_path = rel(model_checkpoint_path)
        all_model_checkpoint_paths = [rel(p) for p in all_model_checkpoint_paths or []]
    proto = generate_checkpoint_state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths,
                                            all_model_checkpoint_timestamps, last_preserved_timestamp)
    text = text_format.MessageToString(proto).encode("utf-8")

    def write(f: IO[bytes]) -> None:
        f.write(text)

    _write_atomic(os.path.join(save_dir, latest_filename or INDEX_NAME), write)


def generate_checkpoint_state_proto(
    save_dir: str,
    model_checkpoint_path: str,
    all_model_checkpoint_paths: list[str] | None = None,
    all_model_checkpoint_timestamps: list[float] | None = None,
    last_preserved_timestamp: float | None = None,
) -> Any:
    """The ``CheckpointState`` proto of a ``checkpoint`` index, as
    ``tf.compat.v1.train.generate_checkpoint_state_proto``: ``model_checkpoint_path``
    is appended to ``all_model_checkpoint_paths`` unless it is the last one;
    with a relative ``save_dir``, relative paths become relative to it.

    Raises:
      ValueError: timestamps given that do not match the paths one to one.
    """
    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    stamps = list(all_model_checkpoint_timestamps or [])
    if stamps and len(stamps) != len(paths):
        raise ValueError(f"Checkpoint timestamps, if provided, must match checkpoint paths (got paths {paths} "
                         f"and timestamps {stamps})")
    if not os.path.isabs(save_dir):
        if not os.path.isabs(model_checkpoint_path):
            model_checkpoint_path = os.path.relpath(model_checkpoint_path, save_dir)
        paths = [p if os.path.isabs(p) else os.path.relpath(p, save_dir) for p in paths]
    return _tfproto.CheckpointStateProto(
        model_checkpoint_path=model_checkpoint_path, all_model_checkpoint_paths=paths,
        all_model_checkpoint_timestamps=stamps, last_preserved_timestamp=float(last_preserved_timestamp or 0.0))


def get_checkpoint_mtimes(checkpoint_prefixes: list[str]) -> list[float]:
    """The modification times (seconds since the epoch) of the checkpoints that
    exist among ``checkpoint_prefixes`` (their ``.index``, or older ``.npz``), as
    ``tf.compat.v1.train.get_checkpoint_mtimes``."""
    times = []
    for prefix in checkpoint_prefixes:
        for path in (prefix + ".index", _npz_path(prefix)):
            if os.path.isfile(path):
                times.append(os.stat(path).st_mtime_ns / 1e9)
                break
    return times


def latest_checkpoint(checkpoint_dir: str, latest_filename: str | None = None) -> str | None:
    """The prefix of the latest checkpoint in ``checkpoint_dir``, or ``None``.

    As ``tf.compat.v1.train.latest_checkpoint``: ``None`` when the index is
    missing or unreadable, or names a checkpoint whose file is gone.
    """
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is None or not state.model_checkpoint_path:
        return None
    if checkpoint_exists(state.model_checkpoint_path):
        return state.model_checkpoint_path
    return None


def checkpoint_exists(checkpoint_prefix: str) -> bool:
    """Whether a checkpoint with this prefix exists (``<prefix>.index``, or an older
    ``<prefix>.npz``), as ``tf.compat.v1.train.checkpoint_exists``."""
    return _checkpoint.is_bundle(checkpoint_prefix) or os.path.isfile(_npz_path(checkpoint_prefix))


def remove_checkpoint(checkpoint_prefix: str, checkpoint_format_version: Any = None, meta_graph_suffix: str = "meta") -> None:
    """Deletes the checkpoint's files (``.index``, every ``.data-?????-of-?????``, ``.meta``, ``.npz``) that exist,
    as ``tf.compat.v1.train.remove_checkpoint``."""
    for path in (
        _checkpoint.index_path(checkpoint_prefix),  # first: the checkpoint stops existing at once
        *(p for p, _ in _checkpoint.data_files(checkpoint_prefix)),
        f"{checkpoint_prefix}.{meta_graph_suffix}",
        _npz_path(checkpoint_prefix),
    ):
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)


# -- reading ------------------------------------------------------------------------------


def _read_checkpoint(path: str) -> dict[str, np.ndarray]:
    """All arrays of the checkpoint file ``path``, dtypes restored.

    Raises:
      DataLossError: the file is not a readable jaxsess ``.npz`` checkpoint
        (names the file and the reason).
    """

    def loss(reason: str) -> errors.OpError:
        return errors.DataLossError(
            None, None, f"Unable to read checkpoint file {path}: not a valid jaxsess checkpoint ({reason})."
        )

    with open(path, "rb") as f:  # we own the handle: closed even when np.load fails
        try:
            npz = np.load(f, allow_pickle=False)
        except (ValueError, OSError, EOFError, zipfile.BadZipFile, NotImplementedError) as e:  # zip version
            raise loss(f"{type(e).__name__}: {e}") from None
        if not isinstance(npz, np.lib.npyio.NpzFile):
            raise loss("a single .npy array, not an .npz archive")
        try:
            with npz:
                arrays = {k: npz[k] for k in npz.files}
        except Exception as e:  # bad CRC, truncated member, pickled (object) data, ...
            raise loss(f"{type(e).__name__}: {e}") from None
    meta_arr = arrays.pop(META_KEY, None)
    if meta_arr is None:
        raise loss(f"no '{META_KEY}' entry")
    try:
        meta = json.loads(str(meta_arr[()]))
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ValueError(f"format {meta.get('format') if isinstance(meta, dict) else meta!r:.60}")
        dtype_names = meta["dtypes"]
        if not isinstance(dtype_names, dict):
            raise ValueError(f"'dtypes' must be an object, got {type(dtype_names).__name__}")
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as e:
        raise loss(f"unreadable metadata: {e}") from None
    out = {}
    for k, a in arrays.items():
        if not isinstance(a, np.ndarray):
            raise loss(f"entry {k!r} is not an array")
        name = dtype_names.get(k)
        if name is not None:
            try:
                want = _dtypes.as_dtype(name).np_dtype
            except TypeError:
                raise loss(f"unknown dtype {name!r} for {k!r}") from None
            if a.dtype != want and a.dtype.itemsize == want.itemsize and a.dtype.kind == "u":
                a = a.view(want)
        out[k] = a
    return out


# -- the Saver -------------------------------------------------------------------------------


class Saver:
    """Saves and restores variables, as ``tf.compat.v1.train.Saver``.

    Args:
      var_list: the variables: a list (saved under their op names) or a
        dict ``{checkpoint name: variable}``. Default: every variable in
        ``GraphKeys.GLOBAL_VARIABLES`` when the saver is built (at creation,
        or at first use with ``defer_build=True``).
      max_to_keep: how many recent checkpoints this saver keeps; older ones
        are deleted as new ones are written. ``None`` or ``0``: keep all.
      keep_checkpoint_every_n_hours: additionally keep one checkpoint per
        this many hours.
      allow_empty: with no variables, build anyway (``save`` returns None).
      defer_build: collect the default ``var_list`` at first use.
      pad_step_number: format the step of ``save`` as 8 digits.
      save_relative_paths: store paths in the index relative to its
        directory even when the directory is absolute (the directory can
        then be moved). As TF1, paths are stored relative only when
        ``save_path``'s directory is relative, by default.
      saver_def: kept as :attr:`saver_def` (names of TF's saver sub-graph).
      reshape, sharded, name, restore_sequentially, builder,
      write_version, filename: accepted for compatibility.

    Raises:
      ValueError: no variables (without ``allow_empty``), or two variables
        with the same checkpoint name.
      TypeError: a ``var_list`` entry is not a variable.
    """

    def __init__(
        self,
        var_list: Any = None,
        reshape: bool = False,
        sharded: bool = False,
        max_to_keep: int | None = 5,
        keep_checkpoint_every_n_hours: float = 10000.0,
        name: str | None = None,
        restore_sequentially: bool = False,
        saver_def: Any = None,
        builder: Any = None,
        defer_build: bool = False,
        allow_empty: bool = False,
        write_version: Any = None,
        pad_step_number: bool = False,
        save_relative_paths: bool = False,
        filename: str | None = None,
    ) -> None:
        self._var_list = var_list
        self._max_to_keep = max_to_keep
        self._keep_every_s = float(keep_checkpoint_every_n_hours) * 3600.0
        self._next_keep_time = time.time() + self._keep_every_s
        self._allow_empty = allow_empty
        self._pad_step_number = pad_step_number
        self._filename = filename
        self._save_relative_paths = save_relative_paths
        self._vars: dict[str, Variable] | None = None
        self._graph: Any = None
        self._last_checkpoints: list[tuple[str, float]] = []
        self._to_delete: list[str] = []  # past max_to_keep; deleted once a state file no longer names them
        self._saver_def = saver_def
        if not defer_build:
            self.build()

    # -- building ------------------------------------------------------------------------------

    def build(self) -> None:
        """Collects the variables (idempotent)."""
        if self._vars is not None:
            return
        var_list = self._var_list
        if var_list is None:
            var_list = get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES)
        named: dict[str, Variable] = {}
        if isinstance(var_list, dict):
            items = [(str(k), _to_var(v)) for k, v in var_list.items()]
        else:
            if isinstance(var_list, Variable) or not isinstance(var_list, Iterable):
                var_list = [var_list]  # one variable
            else:
                var_list = list(var_list)  # any iterable: list, tuple, set, generator, dict.values()
            items = [(v.op.name, v) for v in (_to_var(x) for x in var_list)]
        for k, v in items:
            if k == META_KEY:
                raise ValueError(f"{META_KEY!r} is reserved and cannot name a variable in a checkpoint.")
            if k in named:
                if named[k] is v:
                    continue
                raise ValueError(f"At least two variables have the same name: {k}")
            named[k] = v
        if not named and not self._allow_empty:
            raise ValueError("No variables to save")
        graphs = {id(v.graph): v.graph for v in named.values()}
        if len(graphs) > 1:
            raise ValueError("All variables of a Saver must be in the same graph.")
        self._graph = next(iter(graphs.values()), None)
        self._vars = named

    @property
    def saver_def(self) -> Any:
        """The ``SaverDef`` this saver was given: from :func:`import_meta_graph`, the one naming TF's
        imported saver sub-graph (``restore_op_name``, ``filename_tensor_name``,
        ``save_tensor_name``; run them with ``Session.run``). Else a ``SaverDef`` without op
        names: jaxsess's ``Saver`` reads and writes the files itself, with no graph nodes."""
        if self._saver_def is not None:
            return self._saver_def
        return _tfproto.SaverDef(max_to_keep=self._max_to_keep or 0,
                                 keep_checkpoint_every_n_hours=self._keep_every_s / 3600.0,
                                 version=_tfproto.SaverDef.V2)

    def as_saver_def(self) -> Any:
        """:attr:`saver_def`, as TF's ``Saver.as_saver_def``."""
        return self.saver_def

    @property
    def last_checkpoints(self) -> list[str]:
        """The prefixes this saver keeps, oldest first."""
        return [p for p, _ in self._last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time: list[tuple[str, float]]) -> None:
        """Sets the list of (prefix, timestamp) this saver manages."""
        self._last_checkpoints = [(str(p), float(t)) for p, t in last_checkpoints_with_time]

    def recover_last_checkpoints(self, checkpoint_paths: list[str]) -> None:
        """Adopts existing checkpoints (e.g. from ``get_checkpoint_state``) so
        that ``max_to_keep`` also deletes them."""
        now = time.time()
        self._last_checkpoints = [(p, now) for p in checkpoint_paths if checkpoint_exists(p)]

    # -- save ---------------------------------------------------------------------------------

    def save(
        self,
        sess: Any,
        save_path: str,
        global_step: Any = None,
        latest_filename: str | None = None,
        meta_graph_suffix: str = "meta",
        write_meta_graph: bool = True,
        write_state: bool = True,
        strip_default_attrs: bool = False,
        save_debug_info: bool = False,
    ) -> str | None:
        """Writes the variables' values in ``sess`` as the TF V2 checkpoint
        ``<prefix>.index`` + ``<prefix>.data-00000-of-00001``, as
        ``tf.compat.v1.train.Saver.save``.

        Args:
          sess: the ``Session`` holding the values.
          save_path: the checkpoint prefix (``'/tmp/run/model'``).
          global_step: optional int, or variable/tensor evaluated in
            ``sess``; the prefix becomes ``'<save_path>-<step>'``.
          latest_filename: name of the index file (default ``'checkpoint'``).
          write_state: update the index file and apply ``max_to_keep``.
          write_meta_graph: also write the ``MetaGraphDef`` to
            ``<prefix>.<meta_graph_suffix>`` (``.meta``), as TF1.
          strip_default_attrs, save_debug_info: accepted for compatibility.

        The save is atomic, as a ``Session.run`` is: Ctrl-C, ``SIGTERM`` and
        the other signals with a Python handler wait until it has finished
        (then raise); the new checkpoint appears with one rename (over an
        existing prefix too: a reader finds the old checkpoint or the new
        one, never a mix); the state file names it before checkpoints past
        ``max_to_keep`` are deleted; an error (``OSError``: disk full) leaves
        the previous checkpoint and state intact and no temporary file.

        Returns:
          The prefix written (``None`` for an empty saver).

        Raises:
          TypeError: ``sess`` is not a ``Session``.
          RuntimeError: ``sess`` is closed.
          ValueError: the parent directory of ``save_path`` does not exist
            and cannot be made (as TF, only the last level is made), or
            ``sess`` runs another graph.
          FailedPreconditionError: a variable is not initialised in ``sess``.
          OSError: the file cannot be written (no partial file is left).
        """
        self.build()
        assert self._vars is not None
        _check_session(sess, self._graph)
        if not self._vars:
            return None
        if global_step is not None:
            if not isinstance(global_step, int | np.integer):
                global_step = _global_step_value(sess, global_step)
            step = int(global_step)
            prefix = f"{save_path}-{step:08d}" if self._pad_step_number else f"{save_path}-{step}"
        else:
            prefix = save_path
        save_dir = os.path.dirname(save_path)
        if save_dir and not os.path.isdir(save_dir):
            # as TF's SaveV2: the missing parent directory is made when its own parent exists
            with contextlib.suppress(OSError):
                os.mkdir(save_dir)
            if not os.path.isdir(save_dir):
                raise ValueError(f"Parent directory of {save_path} doesn't exist, can't save.")
        held = _signals.defer()  # Ctrl-C/SIGTERM wait until the save is complete (or failed cleanly)
        try:
            self._save(sess, prefix, save_dir, latest_filename, meta_graph_suffix, write_meta_graph, write_state)
        finally:
            _signals.deliver(held)
        return prefix

    def _save(
        self, sess: Any, prefix: str, save_dir: str, latest_filename: str | None, meta_graph_suffix: str,
        write_meta_graph: bool, write_state: bool,
    ) -> None:
        """The body of :meth:`save`, run with the signals held: the bundle (one
        rename switches to it), the ``.meta``, then the state file, and only
        then the deletion of checkpoints past ``max_to_keep`` (as TF1)."""
        assert self._vars is not None
        # in the variables' declared dtypes (an int64 variable is int64 in the file, as TF's);
        # over several processes, every process gathers the global values and process 0 writes
        arrays = {
            name: _host_value(sess, var).astype(var.dtype.np_dtype, copy=False)
            for name, var in self._vars.items()
        }
        writer = _writes_files(sess)
        extra: list[tuple[str, bytes]] = []
        if writer and write_meta_graph and self._graph is not None:
            try:
                extra.append((f"{prefix}.{meta_graph_suffix}", export_meta_graph(None, graph=self._graph).SerializeToString()))
            except ValueError as e:  # host-only nodes (tf.data iterators, Print) have no GraphDef form
                _log.warning("Saver.save: writing the checkpoint %s but no %s file: %s", prefix, meta_graph_suffix, e)
        if writer:
            _checkpoint.write_bundle(prefix, arrays, extra)
        if write_state:
            self._to_delete.extend(self._record(prefix))
        if write_state and writer:
            update_checkpoint_state(
                save_dir or ".",
                prefix,
                self.last_checkpoints,
                latest_filename,
                [t for _, t in self._last_checkpoints],
                save_relative_paths=self._save_relative_paths,
            )
            while self._to_delete:  # after the state file names the new checkpoint, as TF1
                remove_checkpoint(self._to_delete[0], meta_graph_suffix=meta_graph_suffix)
                del self._to_delete[0]
        if getattr(sess, "_multiprocess", False):
            _distributed.barrier("jaxsess.Saver.save " + prefix)  # the files exist for every process

    def export_meta_graph(
        self,
        filename: str | None = None,
        collection_list: Any = None,
        as_text: bool = False,
        export_scope: str | None = None,
        clear_devices: bool = False,
        clear_extraneous_savers: bool = False,
        strip_default_attrs: bool = False,
        save_debug_info: bool = False,
    ) -> Any:
        """The ``MetaGraphDef`` of this saver's graph, written to ``filename`` when given,
        as ``tf.compat.v1.train.Saver.export_meta_graph`` (see :func:`export_meta_graph`)."""
        self.build()
        return export_meta_graph(
            filename, collection_list=collection_list, as_text=as_text, graph=self._graph or get_default_graph(),
            clear_devices=clear_devices,
        )

    def _record(self, prefix: str) -> list[str]:
        """Adds ``prefix`` to the checkpoints kept; returns those now past
        ``max_to_keep`` (to delete once the state file is written)."""
        now = time.time()
        self._last_checkpoints = [(p, t) for p, t in self._last_checkpoints if p != prefix]
        self._last_checkpoints.append((prefix, now))
        keep = self._max_to_keep
        doomed: list[str] = []
        if not keep:
            return doomed
        while len(self._last_checkpoints) > keep:
            old, stamp = self._last_checkpoints.pop(0)
            if stamp > self._next_keep_time:  # keep_checkpoint_every_n_hours
                self._next_keep_time += self._keep_every_s
                continue
            doomed.append(old)
        return doomed

    # -- restore --------------------------------------------------------------------------------

    def restore(self, sess: Any, save_path: str) -> None:
        """Loads the variables' values from the checkpoint ``save_path`` (TF V2
        ``.index``/``.data``, or an older jaxsess ``.npz``) into ``sess``, as
        ``tf.compat.v1.train.Saver.restore``.

        Every variable is checked before any is written, and signals (Ctrl-C)
        wait until the restore has finished, as they wait for TF1's restore
        op: the restore is all or nothing. The restored values are owned by
        ``sess``.

        Raises:
          ValueError: ``save_path`` is None or no checkpoint file exists there.
          DataLossError: the files are corrupted or not a checkpoint (names the file).
          NotFoundError: a variable is missing from the checkpoint (names it).
          InvalidArgumentError: a stored value has another shape or dtype
            than its variable (names the variable, expected and found).
        """
        self.build()
        assert self._vars is not None
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        _check_session(sess, self._graph)
        held = _signals.defer()  # as TF1's restore op: a Ctrl-C waits until the restore has finished
        try:
            self._restore(sess, save_path)
        finally:
            _signals.deliver(held)

    def _restore(self, sess: Any, save_path: str) -> None:
        assert self._vars is not None
        stored = _open_checkpoint(save_path)
        values = []
        for name, var in self._vars.items():
            arr = stored.get(name)
            if arr is None:
                raise errors.NotFoundError(
                    None, None,
                    f"Key {name} not found in checkpoint {save_path} (variable '{var.op.name}' with shape "
                    f"{var.shape.as_list() if var.shape.ndims is not None else None} and dtype {var.dtype.name}).",
                )
            want = var.dtype
            if arr.dtype != want.np_dtype:
                try:
                    found = _dtypes.as_dtype(arr.dtype).name
                except TypeError:
                    found = str(arr.dtype)
                raise errors.InvalidArgumentError(
                    None, None,
                    f"tensor_name = {name}; expected dtype {want.name} does not equal original dtype "
                    f"{found} (variable '{var.op.name}', checkpoint {save_path}).",
                )
            expected = var.shape.as_tuple()
            if expected is not None and all(d is not None for d in expected) and tuple(arr.shape) != expected:
                raise errors.InvalidArgumentError(
                    None, None,
                    f"Restoring from checkpoint failed: variable '{name}' has shape {list(expected)} in the "
                    f"graph but shape {list(arr.shape)} in checkpoint {save_path} (dtype {want.name}).",
                )
            values.append((var, arr))
        store: VariableStore = sess
        for var, arr in values:
            with _dtypes.x64_scope(var.dtype):
                store.assign(var.op, jnp.array(arr, dtype=var.dtype.np_dtype, copy=True))


class _Stored:
    """The tensors of a checkpoint by name: a V2 bundle, read lazily, or an older ``.npz``."""

    def __init__(self, reader: _checkpoint.BundleReader | None, arrays: dict[str, np.ndarray] | None) -> None:
        self._reader = reader
        self._arrays = arrays

    def get(self, name: str) -> np.ndarray | None:
        if self._reader is not None:
            return self._reader.get_tensor(name) if self._reader.has_tensor(name) else None
        assert self._arrays is not None
        return self._arrays.get(name)


def _open_checkpoint(save_path: str) -> _Stored:
    """The checkpoint at ``save_path``: ``<save_path>.index`` (TF V2) or ``<save_path>.npz``.

    Raises:
      ValueError: neither exists.
      DataLossError: the files are not a valid checkpoint (names the file).
    """
    if _checkpoint.is_bundle(save_path):
        return _Stored(_checkpoint.BundleReader(save_path), None)
    path = _npz_path(save_path)
    if os.path.isfile(path):
        return _Stored(None, _read_checkpoint(path))
    raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path}")


def import_meta_graph(
    meta_graph_or_file: Any, clear_devices: bool = False, import_scope: str | None = None, **kwargs: Any
) -> Saver | None:
    """Imports a meta graph into the default graph, as ``tf.compat.v1.train.import_meta_graph``.

    Rebuilds the graph, its ``tf.Variable`` objects and its collections
    (see :mod:`jaxsess._tf1.train._meta_graph`); then ``saver.restore(sess,
    prefix)`` resumes from the checkpoint.

    Args:
      meta_graph_or_file: a ``MetaGraphDef`` or the path of a ``.meta`` file.
      clear_devices: ignore the nodes' device fields.
      import_scope: a name scope to import under (default: none).

    Returns:
      A :class:`Saver` of the imported global variables (keeping the
      ``SaverDef``'s ``max_to_keep``), or ``None`` when there are none.

    Raises:
      ValueError: a malformed file or graph, an op type jaxsess does not
        know (names it and the node).
      OSError: the file cannot be read.
    """
    meta = read_meta_graph_file(meta_graph_or_file) if isinstance(meta_graph_or_file, str) else meta_graph_or_file
    if not isinstance(meta, _tfproto.MetaGraphDef):
        raise TypeError(f"import_meta_graph needs a MetaGraphDef or a file name, got {type(meta).__name__}.")
    if not import_meta_graph_def(meta, clear_devices=clear_devices, import_scope=import_scope):
        return None
    sd = meta.saver_def
    kept = None
    if meta.HasField("saver_def") and sd.restore_op_name:
        kept = _tfproto.SaverDef()
        kept.CopyFrom(sd)
        if import_scope:
            for field in ("filename_tensor_name", "save_tensor_name", "restore_op_name"):
                if getattr(kept, field):
                    setattr(kept, field, f"{import_scope}/{getattr(kept, field)}")
        try:
            get_default_graph().as_graph_element(kept.restore_op_name)
        except (KeyError, ValueError):
            kept = None  # TF's saver sub-graph was left out (op types jaxsess does not import)
    return Saver(max_to_keep=sd.max_to_keep or 5, keep_checkpoint_every_n_hours=sd.keep_checkpoint_every_n_hours or 10000.0,
                 saver_def=kept)


def _host_value(sess: Any, var: Variable) -> np.ndarray:
    """The host value of ``var`` in ``sess``; in a session over several
    processes (``jax.distributed``) the global value, gathered from every
    process's devices (so every process calls ``save``)."""
    store: VariableStore = sess
    return np.asarray(_distributed.host_value(store.read(var.op)))


def _writes_files(sess: Any) -> bool:
    """Whether this process writes the checkpoint: always, except in a
    session over several processes, where process 0 writes the one
    checkpoint (readable by a single-process session) and the others only
    gather."""
    return not getattr(sess, "_multiprocess", False) or _distributed.process_index() == 0


def _to_var(v: Any) -> Variable:
    if isinstance(v, Variable):
        return v
    try:
        return _as_variable(v)
    except TypeError:
        raise TypeError(f"Saver var_list entries must be Variables; got {v!r:.80}.") from None


def _check_session(sess: Any, graph: Any) -> None:
    # A graph session, recognised by what the Saver uses of it (train/ sits below the sessions).
    session_graph = getattr(sess, "graph", None)
    if not (isinstance(session_graph, Graph) and isinstance(sess, VariableStore)):
        raise TypeError(f"'sess' must be a jaxsess.Session; got {type(sess).__name__}.")
    if getattr(sess, "closed", False):
        raise RuntimeError("Attempted to use a closed Session.")  # as the sessions
    if graph is not None and session_graph is not graph:
        raise ValueError("The session's graph is not the graph of the Saver's variables.")
