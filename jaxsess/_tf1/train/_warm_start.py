"""Warm-starting variables from a checkpoint, as ``tf.compat.v1.train.warm_start`` and
``tf.compat.v1.train.VocabInfo`` (TF's ``warm_starting_util``).

``warm_start`` changes the initializers of the chosen variables, so it is called
after the model is built and before ``global_variables_initializer()`` runs:
a variable without vocabulary information starts from the checkpoint tensor of
its name (or its ``var_name_to_prev_var_name`` entry), as ``init_from_checkpoint``;
a 2-D variable with a :class:`VocabInfo` starts from the checkpoint rows (or
columns, ``axis=1``) of its new vocabulary's words in the old vocabulary, and its
other rows (words not in the old vocabulary, OOV buckets) from
``backup_initializer`` (default zeros; TF draws a random backup initializer for
the missing rows only, so a random one gives other numbers than TF's).
"""

from __future__ import annotations

import collections
from typing import Any

import numpy as np

from jaxsess._core.graph._builder import constant
from jaxsess._core.graph._graph import GraphKeys, get_default_graph
from jaxsess._tf1.gfile import GFile
from jaxsess._tf1.ops import math_ops
from jaxsess._tf1.ops.state_ops import Variable
from jaxsess._tf1.train._checkpoint_utils import init_from_checkpoint, load_checkpoint

__all__ = ["VocabInfo", "warm_start"]


class VocabInfo(collections.namedtuple("VocabInfo", [
        "new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab", "old_vocab_size", "backup_initializer",
        "axis"])):
    """How a variable's rows (``axis=0``) or columns (``axis=1``) map between vocabularies, as
    ``tf.compat.v1.train.VocabInfo``: ``new_vocab``/``old_vocab`` are vocabulary files (one word
    a line), ``new_vocab_size`` the words used of the new one, ``old_vocab_size`` of the old one
    (``-1``: all; ignored for ``axis=1``, as TF), ``num_oov_buckets`` the extra rows after them.

    Raises:
      ValueError: ``axis`` not 0 or 1.
    """

    def __new__(cls, new_vocab: Any, new_vocab_size: int, num_oov_buckets: int, old_vocab: Any,
                old_vocab_size: int = -1, backup_initializer: Any = None, axis: int = 0) -> VocabInfo:
        if axis not in (0, 1):
            raise ValueError(f"The only supported values for the axis argument are 0 and 1.  Provided axis: {axis}")
        return super().__new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size,
                               backup_initializer, axis)


def _vocab(path: Any, size: int) -> list[str]:
    with GFile(str(path), "r") as f:
        words = [line.rstrip("\n") for line in f]
    return words if size < 0 else words[:size]


def _grouped(vars_to_warm_start: Any) -> dict[str, Variable]:
    graph = get_default_graph()
    if isinstance(vars_to_warm_start, str) or vars_to_warm_start is None:
        found = graph.get_collection(GraphKeys.TRAINABLE_VARIABLES, scope=vars_to_warm_start)
    elif isinstance(vars_to_warm_start, list):
        if all(isinstance(v, str) for v in vars_to_warm_start):
            found = []
            for pattern in vars_to_warm_start:
                found += graph.get_collection(GraphKeys.GLOBAL_VARIABLES, scope=pattern)
        elif all(isinstance(v, Variable) for v in vars_to_warm_start):
            found = list(vars_to_warm_start)
        else:
            raise ValueError(f"If `vars_to_warm_start` is a list, it must be all `Variable` or all `str`.  Given "
                             f"types are {[type(v) for v in vars_to_warm_start]}")
    else:
        raise ValueError(f"`vars_to_warm_start must be a `list` or `str`.  Given type is {type(vars_to_warm_start)}")
    return {v.op.name: v for v in found if isinstance(v, Variable)}


def _warm_start_with_vocab(ckpt: Any, var: Variable, prev_name: str, info: VocabInfo) -> None:
    dims = var.shape.as_list() if var.shape.is_fully_defined() else None
    shape: list[int] = [int(d) for d in dims if d is not None] if dims is not None else []
    if len(shape) != 2:
        raise ValueError(f"jaxsess warm-starts with a vocabulary only fully defined 2-D variables; "
                         f"{var.op.name} has shape {var.shape}.")
    old = load_checkpoint(ckpt).get_tensor(prev_name)
    if info.axis == 1:
        old, rows, cols = old.T, shape[1], shape[0]
    else:
        rows, cols = shape
    if rows != info.new_vocab_size + info.num_oov_buckets:
        raise ValueError(f"{var.op.name}: dimension {info.axis} is {rows}, but the new vocabulary has "
                         f"{info.new_vocab_size} words and {info.num_oov_buckets} OOV buckets.")
    if old.shape[1] != cols:
        raise ValueError(f"{var.op.name}: the checkpoint tensor {prev_name} has shape {list(old.shape)}, which does "
                         f"not fit {shape} along the other axis.")
    old_index: dict[str, int] = {}
    # axis 1: TF's warm_starting_util does not pass old_vocab_size on (all of the old vocabulary counts)
    for k, w in enumerate(_vocab(info.old_vocab, info.old_vocab_size if info.axis == 0 else -1)):
        old_index.setdefault(w, k)
    new_words = _vocab(info.new_vocab, info.new_vocab_size)
    values = np.zeros((rows, cols), var.dtype.np_dtype)
    missing = np.ones((rows, 1), np.bool_)
    for i, w in enumerate(new_words):
        j = old_index.get(w)
        if j is not None and j < old.shape[0]:
            values[i] = old[j]
            missing[i] = False
    if info.axis == 1:
        values, missing = values.T, missing.T
    graph = get_default_graph()
    with graph.control_dependencies(None), graph.name_scope(var.op.name + "/"):
        loaded = constant(values, dtype=var.dtype, name="checkpoint_initializer")
        if missing.any():
            init = info.backup_initializer
            backup = (constant(np.zeros(shape, var.dtype.np_dtype), dtype=var.dtype) if init is None
                      else init(shape, dtype=var.dtype))
            loaded = math_ops.where(np.broadcast_to(missing, shape), backup, loaded)
        var._initializer = var.assign(loaded, name="warm_start_with_vocabulary").op


def warm_start(ckpt_to_initialize_from: Any, vars_to_warm_start: Any = ".*", var_name_to_vocab_info: Any = None,
               var_name_to_prev_var_name: Any = None) -> None:
    """Makes the chosen variables' initializers load their values from a checkpoint, as
    ``tf.compat.v1.train.warm_start``.

    Args:
      ckpt_to_initialize_from: a checkpoint file prefix or directory.
      vars_to_warm_start: a regular expression over the *trainable* variables' names (default
        ``'.*'``), a list of them over all global variables, a list of variables, or ``None`` (only
        the variables in ``var_name_to_vocab_info``).
      var_name_to_vocab_info: ``{variable name: VocabInfo}``.
      var_name_to_prev_var_name: ``{variable name: its name in the checkpoint}``.

    Raises:
      ValueError: a bad ``vars_to_warm_start``; names in the two maps that match no chosen
        variable (TF's "Perhaps you misspelled them?"); a checkpoint tensor missing or of
        another shape.
    """
    grouped = _grouped(vars_to_warm_start)
    vocab_infos = dict(var_name_to_vocab_info or {})
    renames = dict(var_name_to_prev_var_name or {})
    prev_used: set[str] = set()
    vocab_used: set[str] = set()
    vocabless: dict[str, Variable] = {}
    for name, var in grouped.items():
        prev = renames.get(name)
        if prev:
            prev_used.add(name)
        info = vocab_infos.get(name)
        if info:
            vocab_used.add(name)
            _warm_start_with_vocab(ckpt_to_initialize_from, var, prev or name, info)
        elif vars_to_warm_start:
            vocabless[prev or name] = var
    if vocabless:
        init_from_checkpoint(ckpt_to_initialize_from, vocabless)
    not_used = set(renames) - prev_used
    if not_used:
        raise ValueError(f"You provided the following variables in var_name_to_prev_var_name that were not used: "
                         f"{not_used}.  Perhaps you misspelled them?  Here is the list of viable variable names: "
                         f"{grouped.keys()}")
    vocab_not_used = set(vocab_infos) - vocab_used
    if vocab_not_used:
        raise ValueError(f"You provided the following variables in var_name_to_vocab_info that were not used: "
                         f"{vocab_not_used}.  Perhaps you misspelled them?  Here is the list of viable variable "
                         f"names: {grouped.keys()}")
