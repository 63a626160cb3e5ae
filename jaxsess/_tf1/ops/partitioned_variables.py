"""Partitioned variables, as ``tf.compat.v1``: the partitioners
(``fixed_size_partitioner``, ``variable_axis_size_partitioner``,
``min_max_variable_partitioner``), :class:`PartitionedVariable` (what
``get_variable(..., partitioner=...)`` returns), and the sharded-table
helper that ``embedding_lookup`` and the sampled losses use.

A partitioned variable of shape ``[10, 3]`` split in 3 along axis 0 is the
variables ``name/part_0`` (``[4, 3]``), ``name/part_1`` and ``name/part_2``
(``[3, 3]``), each with a :class:`SaveSliceInfo`; as a tensor it is their
concatenation (``name/ConcatPartitions/concat``). The parts are ordinary
variables: they are what ``tf.trainable_variables()`` lists and optimizers
update.

Semantics and messages from TF's ``variables.PartitionedVariable``,
``variable_scope._get_partitioned_variable`` and ``partitioned_variables.py``.

Imports: ``dtypes``, ``graph/``, ``ops/_core``, ``ops/array_ops``, ``ops/state_ops``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor, identity
from jaxsess._core.graph._graph import Tensor, TensorShape
from jaxsess._tf1.ops import array_ops as array_ops
from jaxsess._tf1.ops.state_ops import Variable, _in_ordered_context

__all__ = [
    "PartitionInfo", "SaveSliceInfo", "PartitionedVariable", "fixed_size_partitioner",
    "variable_axis_size_partitioner", "min_max_variable_partitioner", "call_partitioner", "iter_slices",
    "sharded_table",
]

Partitioner = Callable[..., Sequence[int]]


class PartitionInfo(NamedTuple):
    """What an initializer learns about the part it initializes (TF's ``_PartitionInfo``):
    the whole variable's shape and this part's offset in it."""

    full_shape: list[int]
    var_offset: list[int]


class SaveSliceInfo(NamedTuple):
    """Where a part sits in its partitioned variable, as ``tf.Variable.SaveSliceInfo``."""

    full_name: str
    full_shape: list[int]
    var_offset: list[int]
    var_shape: list[int]


def fixed_size_partitioner(num_shards: int, axis: int = 0) -> Partitioner:
    """A partitioner splitting ``axis`` in ``num_shards`` (fewer when the axis is
    shorter), as ``tf.compat.v1.fixed_size_partitioner``."""

    def _partitioner(shape: TensorShape, **unused_args: Any) -> list[int]:
        partitions = [1] * len(shape)
        partitions[axis] = min(num_shards, int(shape[axis]))
        return partitions

    return _partitioner


def _known_dims(shape: TensorShape) -> list[int]:
    if not shape.is_fully_defined():
        raise ValueError(f"shape is not fully defined: {shape}")
    return [int(d or 0) for d in shape.as_list()]


def _element_size(dtype: Any, bytes_per_string_element: int) -> int:
    d = _dtypes.as_dtype(dtype)
    return bytes_per_string_element if d == _dtypes.string else int(d.np_dtype.itemsize)


def variable_axis_size_partitioner(max_shard_bytes: int, axis: int = 0, bytes_per_string_element: int = 16,
                                   max_shards: int | None = None) -> Partitioner:
    """A partitioner keeping shards under ``max_shard_bytes`` (splitting ``axis``),
    as ``tf.compat.v1.variable_axis_size_partitioner``.

    Raises:
      ValueError: ``max_shard_bytes``, ``bytes_per_string_element`` or
        ``max_shards`` is not positive.
    """
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError(
            "Both max_shard_bytes and bytes_per_string_element must be positive. "
            f"Currently, max_shard_bytes is {max_shard_bytes} and"
            f"bytes_per_string_element is {bytes_per_string_element}")
    if max_shards and max_shards < 1:
        raise ValueError("max_shards must be positive.")

    def _partitioner(shape: TensorShape, dtype: Any) -> list[int]:
        if not isinstance(shape, TensorShape):
            raise ValueError(f"shape is not a TensorShape: {shape}")
        if not shape.is_fully_defined():
            raise ValueError(f"shape is not fully defined: {shape}")
        dims = _known_dims(shape)
        partitions = [1] * len(dims)
        bytes_per_slice = 1.0 * (math.prod(dims) / dims[axis]) * _element_size(dtype, bytes_per_string_element)
        slices_per_shard = max(1, math.floor(max_shard_bytes / bytes_per_slice))
        axis_shards = int(math.ceil(1.0 * dims[axis] / slices_per_shard))
        if max_shards:
            axis_shards = min(max_shards, axis_shards)
        partitions[axis] = axis_shards
        return partitions

    return _partitioner


def min_max_variable_partitioner(max_partitions: int = 1, axis: int = 0, min_slice_size: int = 256 << 10,
                                 bytes_per_string_element: int = 16) -> Partitioner:
    """A partitioner giving each shard at least ``min_slice_size`` bytes and at most
    ``max_partitions`` shards, as ``tf.compat.v1.min_max_variable_partitioner``.

    Raises (when called):
      ValueError: ``axis`` is not an axis of the variable.
    """

    def _partitioner(shape: TensorShape, dtype: Any) -> list[int]:
        if axis >= len(shape):
            raise ValueError(f"Cannot partition variable along axis {axis} when shape is only {shape}")
        dims = _known_dims(shape)
        total_size_bytes = math.prod(dims) * _element_size(dtype, bytes_per_string_element)
        partitions = total_size_bytes / min_slice_size
        partitions_list = [1] * len(dims)
        partitions_list[axis] = max(1, min(dims[axis], max_partitions, int(math.ceil(partitions))))
        return partitions_list

    return _partitioner


def call_partitioner(partitioner: Partitioner, shape: TensorShape, dtype: Any) -> list[int]:
    """``partitioner(shape=shape, dtype=dtype)``, checked as TF's ``_call_partitioner``.

    Raises:
      ValueError: ``shape`` not fully defined or a scalar; the partitioner's
        result is not a sequence of ``rank`` positive ints with at most one
        greater than 1.
    """
    if not shape.is_fully_defined():
        raise ValueError(f"Shape of a new partitioned variable must be fully defined, but instead was {shape}.")
    if not shape.ndims:
        raise ValueError(f"A partitioned Variable must have rank at least 1, shape: {shape}")
    slicing = partitioner(shape=shape, dtype=dtype)
    if not isinstance(slicing, Sequence):
        raise ValueError(f"Partitioner must return a sequence, but saw: {slicing}")
    if len(slicing) != shape.ndims:
        raise ValueError(
            f"Partitioner returned a partition list that does not match the Variable's rank: {slicing} vs. {shape}")
    if any(p < 1 for p in slicing):
        raise ValueError(f"Partitioner returned zero partitions for some axes: {slicing}")
    if sum(p > 1 for p in slicing) > 1:
        raise ValueError(f"Can only slice a variable along one dimension: shape: {shape}, partitioning: {slicing}")
    return [int(p) for p in slicing]


def iter_slices(full_shape: list[int], partitions: Sequence[int]) -> Iterator[tuple[list[int], list[int]]]:
    """``(offset, shape)`` of each part, the first ``full % n`` parts one longer, as TF."""
    slice_dim, num_slices = next(((i, p) for i, p in enumerate(partitions) if p > 1), (0, 1))
    excess = full_shape[slice_dim] % num_slices
    offset = [0] * len(full_shape)
    min_len = full_shape[slice_dim] // num_slices
    for i in range(num_slices):
        shape = full_shape[:]
        shape[slice_dim] = min_len + int(i < excess)
        yield offset[:], shape
        offset[slice_dim] += shape[slice_dim]


class PartitionedVariable:
    """A variable stored as parts along one axis, as ``tf.compat.v1.PartitionedVariable``.

    Iterating gives the part variables in offset order; converting to a tensor
    (any op taking it) concatenates them.

    Raises (constructor):
      TypeError: ``variable_list`` or ``partitions`` is not a list or tuple.
      ValueError: no variables, a non-positive partition count, or a part
        without a matching :class:`SaveSliceInfo`.
    """

    def __init__(self, name: str, shape: Any, dtype: Any, variable_list: Sequence[Variable],
                 partitions: Sequence[int]) -> None:
        if not isinstance(variable_list, list | tuple):
            raise TypeError(f"variable_list is not a list or tuple: {variable_list}")
        if not isinstance(partitions, list | tuple):
            raise TypeError(f"partitions is not a list or tuple: {partitions}")
        if not all(p >= 1 for p in partitions):
            raise ValueError(f"partition values must be positive: {partitions}")
        if not variable_list:
            raise ValueError("variable_list may not be empty")
        full = list(TensorShape(shape).as_list())
        if len(full) != len(partitions):
            raise ValueError(f"len(shape) != len(partitions): {full} vs. {list(partitions)}")
        for v in variable_list:
            info = getattr(v, "_save_slice_info", None)
            if info is None:
                raise ValueError(
                    f"All variables must have a save_slice_info available: {[p.name for p in variable_list]}")
            if list(info.full_shape) != full:
                raise ValueError(
                    f"All variables' full shapes must match shape: {full}; but full shapes were: {[info.full_shape]}")
        self._variable_list = sorted(variable_list, key=lambda v: v._save_slice_info.var_offset)
        self._name = name
        self._shape = TensorShape(full)
        self._dtype = _dtypes.as_dtype(dtype)
        self._partitions = list(partitions)
        self._as_tensor: Tensor | None = None

    def __iter__(self) -> Iterator[Variable]:
        return iter(self._variable_list)

    def __len__(self) -> int:
        axes = self._partition_axes()
        if len(axes) > 1:
            raise ValueError(f"Cannot get a length for {len(axes)} > 1 partition axes")
        return len(self._variable_list)

    def __repr__(self) -> str:
        return (f"<PartitionedVariable {self._name!r} shape={self._shape} dtype={self._dtype.name} "
                f"parts={len(self._variable_list)}>")

    def _partition_axes(self) -> list[int]:
        if all(p == 1 for p in self._partitions):
            return [0]
        return [i for i, p in enumerate(self._partitions) if p > 1]

    def _get_variable_list(self) -> list[Variable]:
        return list(self._variable_list)

    def _get_partitions(self) -> list[int]:
        return list(self._partitions)

    @property
    def name(self) -> str:
        """The whole variable's name (no ``:0``), e.g. ``'scope/w'``."""
        return self._name

    @property
    def dtype(self) -> _dtypes.DType:
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    def get_shape(self) -> TensorShape:
        return self._shape

    def _concat(self) -> Tensor:
        graph = self._variable_list[0].graph
        with graph.name_scope(None):
            if len(self._variable_list) == 1:
                return identity(self._variable_list[0], name=self._name)  # type: ignore[no-any-return]
        with graph.name_scope(self._name + "/ConcatPartitions/"):
            concatenated = array_ops.concat(list(self._variable_list), self._partition_axes()[0])
        with graph.name_scope(None):
            return identity(concatenated, name=self._name)  # type: ignore[no-any-return]

    def as_tensor(self) -> Tensor:
        """The whole value: the parts concatenated, outside the enclosing control dependencies."""
        graph = self._variable_list[0].graph
        with graph.control_dependencies(None):
            if _in_ordered_context(graph):  # a control-flow body: reads ordered there
                return self._concat()
            if self._as_tensor is None:
                self._as_tensor = self._concat()
            return self._as_tensor

    def _as_graph_element(self) -> Tensor:
        return self.as_tensor()

    def _apply_assign_fn(self, assign_fn: Callable[[Variable, Any], Any], value: Any) -> list[Any]:
        axes = self._partition_axes()
        if len(axes) > 1:
            raise NotImplementedError(
                f"Cannot do assign action along more than one dimension: {axes}.  "
                "Multi-axis partition assign action is not supported ")
        if isinstance(value, list):
            if len(value) != len(self._variable_list):
                raise ValueError(f"assign to {self._name}: {len(value)} values for {len(self._variable_list)} parts")
            values = value
        elif isinstance(value, PartitionedVariable):
            values = list(value)
        else:
            sizes = [int(v.shape[axes[0]]) for v in self._variable_list]
            values = array_ops.split(value, sizes, axis=axes[0])
        return [assign_fn(var, values[i]) for i, var in enumerate(self._variable_list)]

    def assign(self, value: Any, use_locking: bool = False, name: str | None = None,
               read_value: bool = True) -> list[Any]:
        """Assigns ``value`` (whole, a list per part, or another partitioned variable) part by part."""
        out = self._apply_assign_fn(lambda v, x: v.assign(x, use_locking=use_locking, name=name), value)
        return out if read_value else [t.op for t in out]

    def assign_add(self, value: Any, use_locking: bool = False, name: str | None = None,
                   read_value: bool = True) -> list[Any]:
        """As :meth:`assign`, adding."""
        out = self._apply_assign_fn(lambda v, x: v.assign_add(x, use_locking=use_locking, name=name), value)
        return out if read_value else [t.op for t in out]

    def assign_sub(self, value: Any, use_locking: bool = False, name: str | None = None,
                   read_value: bool = True) -> list[Any]:
        """As :meth:`assign`, subtracting."""
        out = self._apply_assign_fn(lambda v, x: v.assign_sub(x, use_locking=use_locking, name=name), value)
        return out if read_value else [t.op for t in out]


def _assignments(strategy: str, ids: np.ndarray, sizes: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(shard, row in shard) of each id, as TF's ``embedding_lookup`` ``mod``/``div`` strategies."""
    n = len(sizes)
    if strategy == "mod":
        return ids % n, ids // n
    if strategy == "div":
        total = sum(sizes)
        per, extras = total // n, total % n
        p = np.maximum(ids // (per + 1), (ids - extras) // per) if per else ids // (per + 1)
        return p, np.where(p < extras, ids % (per + 1), (ids - extras) % max(per, 1))
    raise ValueError(f"Unrecognized partition strategy: {strategy}.Must be one of either `mod` or `div`.")


def sharded_table(params: Any, partition_strategy: str, fn: str) -> Any:
    """The one table that the shards ``params`` stand for, row ``i`` being id ``i``
    under ``partition_strategy`` (``'mod'``: id ``i`` is row ``i // n`` of shard
    ``i % n``; ``'div'``: contiguous ranges, the first ``total % n`` shards one
    longer), as TF's ``embedding_lookup`` addresses them.

    ``params``: a tensor, a variable, a :class:`PartitionedVariable`, or a list
    of them (shards whose first dimension is known when the graph is built).
    Returns ``params`` itself when there is one shard.

    Raises:
      ValueError: no shards; an unknown strategy; shard sizes that cannot
        hold the ids the strategy sends them (names ``fn``).
    """
    if isinstance(params, PartitionedVariable):
        params = list(params)
    if not isinstance(params, list | tuple):
        return params
    if not params:
        raise ValueError("Length of params is currently 0. Need at least one param.")
    if len(params) == 1:
        return params[0]
    shards = [convert_to_tensor(p) for p in params]
    sizes = [TensorShape(s.shape).as_list() for s in shards]
    if any(not s or s[0] is None for s in sizes):
        raise ValueError(f"{fn}: the first dimension of every shard must be known when the graph is built, "
                         f"got shapes {sizes}.")
    rows = [int(s[0] or 0) for s in sizes]
    ids = np.arange(sum(rows))
    shard, row = _assignments(partition_strategy, ids, rows)
    if np.any(row >= np.asarray(rows)[shard]):
        raise ValueError(f"{fn}: shards of {rows} rows do not match partition_strategy "
                         f"{partition_strategy!r} for {sum(rows)} ids.")
    table = array_ops.concat(shards, 0)
    position = np.concatenate([[0], np.cumsum(rows)[:-1]])[shard] + row
    if np.array_equal(position, ids):
        return table
    return array_ops.gather(table, position.astype(np.int32))
