"""Reading checkpoints outside a ``Saver``, as ``tf.compat.v1.train``'s checkpoint utilities:
``load_checkpoint`` / ``NewCheckpointReader``, ``list_variables``, ``init_from_checkpoint``."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import constant
from jaxsess._core.graph._graph import GraphKeys, get_default_graph
from jaxsess._tf1.ops.state_ops import Variable
from jaxsess._tf1.train import _checkpoint as _checkpoint
from jaxsess._tf1.train._saver import _read_checkpoint, get_checkpoint_state, latest_checkpoint

__all__ = ["CheckpointReader", "NewCheckpointReader", "load_checkpoint", "list_variables", "init_from_checkpoint",
           "wait_for_new_checkpoint", "checkpoints_iterator"]


class CheckpointReader:
    """The tensors of one checkpoint, as TF's ``CheckpointReader`` (``py_checkpoint_reader``).

    Reads a TF V2 checkpoint (``<prefix>.index`` + ``.data-*``) or an older
    jaxsess ``<prefix>.npz``.

    Raises:
      NotFoundError: no checkpoint with that prefix.
      DataLossError: the files are not a valid checkpoint (names the file).
    """

    def __init__(self, prefix: str) -> None:
        self._prefix = prefix
        self._bundle: _checkpoint.BundleReader | None = None
        self._arrays: dict[str, np.ndarray] = {}
        if _checkpoint.is_bundle(prefix):
            self._bundle = _checkpoint.BundleReader(prefix)
        elif os.path.isfile(prefix + ".npz") or (prefix.endswith(".npz") and os.path.isfile(prefix)):
            self._arrays = _read_checkpoint(prefix if prefix.endswith(".npz") else prefix + ".npz")
        else:
            raise errors.NotFoundError(
                None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find any matching files for {prefix}"
            )

    def has_tensor(self, name: str) -> bool:
        """Whether the checkpoint holds ``name``."""
        if self._bundle is not None:
            return self._bundle.has_tensor(name)
        return name in self._arrays

    def get_tensor(self, name: str) -> Any:
        """The value of ``name``: a new NumPy array, a NumPy scalar for shape ``[]`` (as TF's).

        Raises:
          NotFoundError: no tensor of that name (names it and the checkpoint).
          DataLossError: its bytes are corrupted.
        """
        if self._bundle is not None:
            out = self._bundle.get_tensor(name)
        elif name not in self._arrays:
            raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint {self._prefix}")
        else:
            out = np.array(self._arrays[name])
        return out[()] if out.ndim == 0 else out

    def get_variable_to_shape_map(self) -> dict[str, list[int]]:
        """``{name: shape as a list of ints}`` of every tensor."""
        if self._bundle is not None:
            return {k: self._bundle.shape(k) for k in self._bundle.keys()}
        return {k: list(a.shape) for k, a in self._arrays.items()}

    def get_variable_to_dtype_map(self) -> dict[str, _dtypes.DType]:
        """``{name: DType}`` of every tensor."""
        if self._bundle is not None:
            return {k: self._bundle.dtype(k) for k in self._bundle.keys()}
        return {k: _dtypes.as_dtype(a.dtype) for k, a in self._arrays.items()}

    def debug_string(self) -> bytes:
        """One line per tensor: ``name (DT) [shape]``, as TF's."""
        shapes = self.get_variable_to_shape_map()
        dts = self.get_variable_to_dtype_map()
        return "".join(f"{k} ({dts[k].name}) {shapes[k]}\n" for k in sorted(shapes)).encode()


def NewCheckpointReader(filepattern: str) -> CheckpointReader:  # noqa: N802 - TF's name
    """A :class:`CheckpointReader` of the checkpoint prefix ``filepattern``, as ``tf.compat.v1.train.NewCheckpointReader``."""
    return CheckpointReader(filepattern)


def _resolve(ckpt_dir_or_file: str) -> str:
    if os.path.isdir(ckpt_dir_or_file):
        state = get_checkpoint_state(ckpt_dir_or_file)
        if state is None or not state.model_checkpoint_path:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {ckpt_dir_or_file}")
        return state.model_checkpoint_path
    return ckpt_dir_or_file


def load_checkpoint(ckpt_dir_or_file: str) -> CheckpointReader:
    """The reader of a checkpoint prefix, or of the latest checkpoint in a directory,
    as ``tf.compat.v1.train.load_checkpoint``.

    Raises:
      ValueError: a directory without a readable ``checkpoint`` state file.
      NotFoundError, DataLossError: as :class:`CheckpointReader`.
    """
    return CheckpointReader(_resolve(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file: str) -> list[tuple[str, list[int]]]:
    """``[(name, shape), ...]`` sorted by name, as ``tf.compat.v1.train.list_variables``."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return sorted(shapes.items())


def load_variable(ckpt_dir_or_file: str, name: str) -> Any:
    """The value of the tensor ``name`` in a checkpoint prefix, or in the latest
    checkpoint of a directory, as ``tf.compat.v1.train.load_variable``
    (a ``name`` ending in ``:0`` is accepted).

    Raises:
      NotFoundError: no such tensor (TF's message), or no such checkpoint.
      ValueError: a directory without a readable ``checkpoint`` state file.
    """
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def init_from_checkpoint(ckpt_dir_or_file: str, assignment_map: Mapping[str, Any]) -> None:
    """Makes variables' initializers load their values from a checkpoint, as
    ``tf.compat.v1.train.init_from_checkpoint``.

    Call it before ``global_variables_initializer()`` (which then runs the
    new initializers). ``assignment_map`` maps checkpoint names to variables:

    * ``{'old_scope/': 'new_scope/'}`` — every variable under ``new_scope/``
      from the tensor of the same name under ``old_scope/`` (``'/'`` is the
      root scope);
    * ``{'old_scope/w': 'new_scope/w'}`` or ``{'old_scope/w': variable}``.

    Raises:
      ValueError: a tensor or variable named in the map does not exist, or
        their shapes differ (names both).
    """
    reader = load_checkpoint(ckpt_dir_or_file)
    shapes = reader.get_variable_to_shape_map()
    graph = get_default_graph()
    variables: dict[str, Variable] = {}
    for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES) + graph.get_collection(GraphKeys.LOCAL_VARIABLES):
        if isinstance(v, Variable):
            variables.setdefault(v.op.name, v)
    pairs: list[tuple[str, Variable]] = []
    for ckpt_name, target in assignment_map.items():
        if isinstance(target, Variable):
            pairs.append((ckpt_name, target))
            continue
        if not isinstance(target, str):
            raise TypeError(f"assignment_map values must be variable names or Variables, got {target!r:.60}")
        if ckpt_name.endswith("/") or ckpt_name == "/":
            src = "" if ckpt_name == "/" else ckpt_name
            dst = "" if target == "/" else target
            for vname, v in sorted(variables.items()):
                if vname.startswith(dst):
                    full = src + vname[len(dst):]
                    if full in shapes:
                        pairs.append((full, v))
            continue
        v = variables.get(target)
        if v is None:
            raise ValueError(f"Tensor {target} is not found in the default graph (assignment_map {ckpt_name!r}).")
        pairs.append((ckpt_name, v))
    for ckpt_name, v in pairs:
        if ckpt_name not in shapes:
            raise ValueError(f"Tensor {ckpt_name} is not found in {ckpt_dir_or_file} checkpoint")
        if v.shape.is_fully_defined() and list(shapes[ckpt_name]) != v.shape.as_list():
            raise ValueError(
                f"Shape of variable {v.op.name} ({v.shape.as_list()}) doesn't match with shape of tensor "
                f"{ckpt_name} ({shapes[ckpt_name]}) from checkpoint reader."
            )
        value = reader.get_tensor(ckpt_name).astype(v.dtype.np_dtype)
        with graph.control_dependencies(None), graph.name_scope(v.op.name + "/"):
            init_value = constant(value, dtype=v.dtype, name="checkpoint_initializer")
            v._initializer = v.assign(init_value, name="init_from_checkpoint").op


def wait_for_new_checkpoint(checkpoint_dir: str, last_checkpoint: str | None = None, seconds_to_sleep: float = 1,
                            timeout: float | None = None) -> str | None:
    """Polls ``checkpoint_dir`` every ``seconds_to_sleep`` seconds until its
    latest checkpoint differs from ``last_checkpoint``; ``None`` after
    ``timeout`` seconds, as ``tf.compat.v1.train.wait_for_new_checkpoint``."""
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last_checkpoint:
            return path
        if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir: str, min_interval_secs: float = 0, timeout: float | None = None,
                         timeout_fn: Any = None) -> Iterator[str]:
    """Yields each new latest checkpoint of ``checkpoint_dir`` (at most one per
    ``min_interval_secs``), ending after ``timeout`` seconds without one unless
    ``timeout_fn()`` is false, as ``tf.compat.v1.train.checkpoints_iterator``."""
    path = None
    while True:
        new_path = wait_for_new_checkpoint(checkpoint_dir, path, timeout=timeout)
        if new_path:
            start = time.time()
            path = new_path
            yield path
            wait = start + min_interval_secs - time.time()
            if wait > 0:
                time.sleep(wait)
        elif timeout_fn is None:
            return
        if timeout_fn is not None and timeout_fn():
            return
