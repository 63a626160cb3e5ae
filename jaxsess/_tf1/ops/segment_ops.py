"""Segment reductions and ops whose output shape depends on the data, as ``tf.compat.v1``.

``unsorted_segment_*`` take ``num_segments`` known when the graph is built.
``segment_*`` (sorted ids), ``boolean_mask``, ``unique``,
``dynamic_partition`` and ``bincount`` have output shapes that TF computes
from the *values* of an input; XLA compiles static shapes only, so jaxsess
supports them when that input is known when the graph is built (a constant,
or a value folded from constants and shapes) and otherwise raises
:class:`DataDependentShapeError` at graph construction, naming the op and
the way around it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, constant, constant_value, convert_to_tensor, dtype_of
from jaxsess._core.graph._graph import Operation, Tensor, TensorShape
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._tf1.ops import array_ops as array_ops, indexing_ops as indexing_ops, math_ops as math_ops
from jaxsess._tf1.ops._args import op_scope, static_int
from jaxsess._tf1.ops.check_ops import require_no_assign_before

__all__ = [
    "DataDependentShapeError", "unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min",
    "unsorted_segment_prod", "unsorted_segment_mean", "segment_sum", "segment_mean", "segment_max",
    "segment_min", "segment_prod", "boolean_mask", "unique", "dynamic_partition", "bincount", "setdiff1d",
    "ListDiff", "dynamic_stitch", "confusion_matrix", "unique_with_counts", "UniqueWithCounts",
]


class DataDependentShapeError(errors.UnimplementedError, NotImplementedError):  # type: ignore[misc, valid-type]
    """An op whose output shape depends on the values of a tensor not known when the graph is built.

    Raised at graph construction (TF builds the op and computes the shape
    at run time; XLA cannot compile such a shape). Both an
    ``errors.UnimplementedError`` and a ``NotImplementedError``.
    """

    def __init__(self, op: str, arg: Any, fix: str) -> None:
        shown = getattr(arg, "name", None) or "an input"
        super().__init__(None, None, (
            f"{op}: the output shape depends on the values of {shown!r}, which are not known when the "
            f"graph is built; XLA compiles static shapes only. {fix}"
        ))


def _known(value: Any) -> np.ndarray | None:
    """The build-time value of ``value`` (a Python/NumPy value or a foldable tensor), else ``None``."""
    if isinstance(value, Tensor):
        return constant_value(value)
    if isinstance(value, jax.Array | np.ndarray | list | tuple | int | float | bool | np.generic):
        return np.asarray(value)
    return None


def _ids_check(ids: Any, op: str) -> Any:
    t = convert_to_tensor(ids)
    d = dtype_of(t)
    if d not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"{op}: 'segment_ids' must be int32 or int64, got {d.name if d else d}.")
    return t


# -- the segment op: one implementation for sorted and unsorted ids ---------------------------------

def _segment_impl(kind: str, sorted_ids: bool) -> Any:
    def impl(data: Any, ids: Any, *, num_segments: int) -> Any:
        n = num_segments
        ids = jnp.where(ids < 0, n, ids)  # negative ids are dropped, as TF's unsorted ops
        out_shape = (n, *data.shape[ids.ndim:])
        if kind == "sum":
            return jnp.zeros(out_shape, data.dtype).at[ids].add(data, mode="drop")
        if kind == "prod":
            return jnp.ones(out_shape, data.dtype).at[ids].multiply(data, mode="drop")
        counts = jnp.zeros((n,), jnp.int32).at[ids].add(1, mode="drop")
        counts = jnp.reshape(counts, (n,) + (1,) * (len(out_shape) - 1))
        if kind == "mean":
            total = jnp.zeros(out_shape, data.dtype).at[ids].add(data, mode="drop")
            return total / jnp.maximum(counts, 1).astype(data.dtype)
        dt = data.dtype
        info = jnp.finfo(dt) if jnp.issubdtype(dt, jnp.floating) else jnp.iinfo(dt)
        if kind == "max":
            res = jnp.full(out_shape, info.min, dt).at[ids].max(data, mode="drop")
            empty = jnp.zeros((), dt) if sorted_ids else jnp.asarray(info.min, dt)
        else:
            res = jnp.full(out_shape, info.max, dt).at[ids].min(data, mode="drop")
            empty = jnp.zeros((), dt) if sorted_ids else jnp.asarray(info.max, dt)
        return jnp.where(counts > 0, res, empty)

    return impl


def _unsorted_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    return {}, [np.asarray(a["num_segments"], np.int32)]


_UNSORTED_TF = TFOp(types={"T": 0, "Tindices": 1, "Tnumsegments": 2}, to_tf=_unsorted_to_tf,
                    from_tf=lambda a, c: {"num_segments": int(c[0])}, n_const=1)


def _sorted_impl(kind: str) -> Any:
    base = _segment_impl(kind, True)

    def impl(data: Any, *, segment_ids: np.ndarray) -> Any:
        n = int(segment_ids.max()) + 1 if segment_ids.size else 0
        return base(data, jnp.asarray(segment_ids), num_segments=n)

    return impl


# TF: Segment<Kind>(data, segment_ids); the ids are known when the graph is built
# (they give the output's shape), so they are a constant input folded into an attribute.
_SORTED_TF = TFOp(types={"T": 0, "Tindices": 1}, to_tf=lambda a, s: ({}, [a["segment_ids"]]),
                  from_tf=lambda a, c: {"segment_ids": np.asarray(c[0])}, n_const=1)

for _kind in ("sum", "max", "min", "prod"):
    _t = "UnsortedSegment" + _kind.capitalize()
    register_op(_t, default_name=_t, tf=_UNSORTED_TF)(_segment_impl(_kind, False))
for _kind in ("sum", "mean", "max", "min", "prod"):
    _t = "Segment" + _kind.capitalize()
    register_op(_t, default_name=_t, tf=_SORTED_TF)(_sorted_impl(_kind))


def _unsorted(kind: str, data: Any, segment_ids: Any, num_segments: Any, name: str | None) -> Any:
    op = "UnsortedSegment" + kind.capitalize()
    ids = _ids_check(segment_ids, op)
    n = static_int(num_segments, f"unsorted_segment_{kind}", "num_segments")
    return apply_op(op, (convert_to_tensor(data), ids), {"num_segments": n}, name=name)


def unsorted_segment_sum(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Any:
    """``out[i] = sum(data[j] for segment_ids[j] == i)``, as ``tf.math.unsorted_segment_sum``.

    Args:
      data: ``[*ids_shape, ...]``.
      segment_ids: int32/int64 of shape ``ids_shape`` (a prefix of
        ``data``'s); may be fed. Negative ids are dropped.
      num_segments: the output's first dimension, known when the graph is built.

    Returns:
      ``[num_segments, *data.shape[ids.ndim:]]`` of ``data``'s dtype; empty segments are 0.
    """
    return _unsorted("sum", data, segment_ids, num_segments, name)


def unsorted_segment_max(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Any:
    """The maximum per segment, as ``tf.math.unsorted_segment_max``; empty segments hold
    the dtype's lowest value (as TF). See :func:`unsorted_segment_sum`."""
    return _unsorted("max", data, segment_ids, num_segments, name)


def unsorted_segment_min(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Any:
    """The minimum per segment, as ``tf.math.unsorted_segment_min``; empty segments hold
    the dtype's largest value (as TF)."""
    return _unsorted("min", data, segment_ids, num_segments, name)


def unsorted_segment_prod(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Any:
    """The product per segment, as ``tf.math.unsorted_segment_prod``; empty segments are 1."""
    return _unsorted("prod", data, segment_ids, num_segments, name)


def unsorted_segment_mean(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Any:
    """The mean per segment, as ``tf.math.unsorted_segment_mean`` (sum / max(count, 1);
    empty segments are 0)."""
    with op_scope(name, "UnsortedSegmentMean", [data, segment_ids]):
        x = convert_to_tensor(data)
        ones = array_ops.ones_like(x)
        count = unsorted_segment_sum(ones, segment_ids, num_segments)
        total = unsorted_segment_sum(x, segment_ids, num_segments)
        return math_ops.truediv(total, math_ops.maximum(count, 1))


def _sorted(kind: str, data: Any, segment_ids: Any, name: str | None) -> Any:
    op = "Segment" + kind.capitalize()
    ids = _ids_check(segment_ids, op)
    val = _known(ids)
    if val is None:
        raise DataDependentShapeError(
            op, ids, f"Use tf.math.unsorted_segment_{kind}(data, segment_ids, num_segments) with a "
            "num_segments known when the graph is built.")
    flat = np.ravel(val)
    if flat.size and (np.any(flat < 0) or np.any(np.diff(flat) < 0)):
        raise errors.InvalidArgumentError(None, None, f"{op}: segment ids must be sorted and non-negative, "
                                                      f"got {flat.tolist()!r:.200}.")
    return apply_op(op, (convert_to_tensor(data),), {"segment_ids": np.asarray(val)}, name=name)


def segment_sum(data: Any, segment_ids: Any, name: str | None = None) -> Any:
    """The sum per segment of sorted ``segment_ids``, as ``tf.math.segment_sum``.

    The number of segments, ``max(segment_ids) + 1``, shapes the output, so
    ``segment_ids`` must be known when the graph is built.

    Raises:
      DataDependentShapeError: ``segment_ids`` depends on fed or variable
        values (use :func:`unsorted_segment_sum` with ``num_segments``).
      errors.InvalidArgumentError: ids not sorted or negative (as TF at run time).
    """
    return _sorted("sum", data, segment_ids, name)


def segment_mean(data: Any, segment_ids: Any, name: str | None = None) -> Any:
    """The mean per segment of sorted ``segment_ids`` (empty segments 0), as
    ``tf.math.segment_mean``. See :func:`segment_sum` for the limits."""
    return _sorted("mean", data, segment_ids, name)


def segment_max(data: Any, segment_ids: Any, name: str | None = None) -> Any:
    """The maximum per segment (empty segments 0), as ``tf.math.segment_max``."""
    return _sorted("max", data, segment_ids, name)


def segment_min(data: Any, segment_ids: Any, name: str | None = None) -> Any:
    """The minimum per segment (empty segments 0), as ``tf.math.segment_min``."""
    return _sorted("min", data, segment_ids, name)


def segment_prod(data: Any, segment_ids: Any, name: str | None = None) -> Any:
    """The product per segment (empty segments 1), as ``tf.math.segment_prod``."""
    return _sorted("prod", data, segment_ids, name)


# -- data-dependent shapes -------------------------------------------------------------------------


def boolean_mask(tensor: Any, mask: Any, name: str = "boolean_mask", axis: Any = None) -> Any:
    """The entries of ``tensor`` where ``mask`` is true, as ``tf.compat.v1.boolean_mask``.

    Args:
      tensor: ``[*A, *M, *B]`` with ``len(A) == axis``.
      mask: bool ``M`` (its rank known when the graph is built).
      axis: where ``mask``'s dims start (default 0).

    Returns:
      ``[*A, count_nonzero(mask), *B]``: a ``GatherV2`` of the kept indices
      (gradients flow to ``tensor``). A constant mask gives constant indices
      and a known static shape (TF's has ``None`` for the kept dimension);
      any other mask gives the indices of ``tf.where(mask)``, a host op (see
      :func:`~jaxsess._tf1.ops.math_ops.where`), and ``None`` there as TF.

    Raises:
      NotImplementedError: ``mask`` depends on a variable assignment.
      ValueError: ``mask``'s shape does not match ``tensor``'s.
    """
    with op_scope(name, "boolean_mask", [tensor, mask]):
        x = convert_to_tensor(tensor, name="tensor")
        m = _known(mask)
        mt = None
        if m is None:
            mt = convert_to_tensor(mask, name="mask")
            if mt.shape.ndims is None:
                raise ValueError("Number of mask dimensions must be specified, even if some dimensions "
                                 "are None. E.g. shape=[None] is ok, but shape=None is not.")
            mshape = tuple(mt.shape.as_list())
        else:
            m = m.astype(bool)
            mshape = m.shape
        ax = 0 if axis is None else static_int(axis, "boolean_mask", "axis")
        shape = x.shape.as_tuple() if isinstance(x, Tensor) else tuple(x.shape)
        if shape is None:
            raise ValueError("boolean_mask: the tensor must have a known rank.")
        ax %= max(len(shape), 1)
        k = len(mshape)
        if k == 0:
            raise ValueError("mask cannot be scalar.")
        got = shape[ax:ax + k]
        if len(got) != k or any(d is not None and e is not None and d != e for d, e in zip(got, mshape)):
            raise ValueError(f"Shapes {list(got)} and {list(mshape)} are incompatible "
                             f"(boolean_mask: tensor dims {ax}..{ax + k - 1} vs mask).")
        lead = list(shape[:ax])
        flat: Any = x
        if k != 1:
            dims = [d if d is not None else e for d, e in zip(got, mshape)]
            size = -1 if None in dims else int(np.prod(dims))
            new_shape = [-1 if d is None else d for d in lead] + [size] + \
                        [-1 if d is None else d for d in shape[ax + k:]]
            if new_shape.count(-1) > 1:
                raise ValueError("boolean_mask: at most one unknown dimension besides the mask's.")
            flat = array_ops.reshape(x, new_shape)
        if m is not None:
            indices = constant(np.flatnonzero(m).astype(np.int64), name="indices")
        else:
            flat_mask = mt if k == 1 else array_ops.reshape(mt, [-1])
            indices = array_ops.squeeze(math_ops.where(flat_mask), axis=[1])
        return array_ops.gather(flat, indices, axis=ax)


class Unique(NamedTuple):
    """The result of :func:`unique`: ``y`` and ``idx`` (TF's namedtuple ``Unique``)."""

    y: Any
    idx: Any


class UniqueWithCounts(NamedTuple):
    """The result of :func:`unique_with_counts`: ``y``, ``idx`` and ``count``."""

    y: Any
    idx: Any
    count: Any


def _unique(x: Any, out_idx: Any, op: str, name: str | None) -> tuple[Any, Any, Any]:
    """The constants ``(y, idx, count)`` of :func:`unique`/:func:`unique_with_counts` under scope ``op``."""
    t = convert_to_tensor(x)
    val = _known(t)
    if val is None:
        if t.shape.ndims not in (1, None):
            raise ValueError(f"unique expects a 1-D vector, got shape {t.shape}.")
        require_no_assign_before([t], f"tf.{_snake_unique[op]}")
        outs = apply_op(op, (t,), {"out_idx": _dtypes.as_dtype(out_idx)}, name=name)
        return outs[0], outs[1], (outs[2] if op == "UniqueWithCounts" else None)
    if val.ndim != 1:
        raise ValueError(f"unique expects a 1-D vector, got shape {list(val.shape)}.")
    _, first, inverse, counts = np.unique(val, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    d = _dtypes.as_dtype(out_idx)
    with op_scope(name, op, [t]):
        y = constant(val[np.sort(first)], dtype=dtype_of(t), name="y")
        idx = constant(rank[np.ravel(inverse)], dtype=d, name="idx")
        count = constant(counts[order], dtype=d, name="count") if op == "UniqueWithCounts" else None
    return y, idx, count


_snake_unique = {"Unique": "unique", "UniqueWithCounts": "unique_with_counts"}


def _unique_infer(n: int) -> Any:
    def infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
        (shape, dtype), d = specs[0], attrs["out_idx"]
        return [(TensorShape([None]), dtype), (TensorShape(shape), d), (TensorShape([None]), d)][:n]

    return infer


def _unique_device(x: Any, *, out_idx: Any) -> Any:
    raise AssertionError("Unique runs on the host")  # pragma: no cover


def _host_unique(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    val = np.asarray(inputs[0])
    if val.ndim != 1:
        raise errors.InvalidArgumentError(op.name, op, f"unique expects a 1D vector, got shape {list(val.shape)}.")
    _, first, inverse, counts = np.unique(val, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    d = op.attrs["out_idx"].np_dtype
    outs = (val[np.sort(first)], rank[np.ravel(inverse)].astype(d), counts[order].astype(d))
    return outs[:len(op.outputs)]


# Unique values of run-time data: host ops (their number shapes the outputs), as tf.py_func.
for _t, _n in (("Unique", 2), ("UniqueWithCounts", 3)):
    register_op(_t, num_outputs=_n, infer=_unique_infer(_n), lowering=device_lowering, default_name=_t,
                tf=TFOp(types={"T": 0}))(_unique_device)
    register_host(_t, always=True, infer=_unique_infer(_n))(_host_unique)


def unique(x: Any, out_idx: Any = _dtypes.int32, name: str | None = None) -> Unique:
    """``Unique(y, idx)``: the distinct values of the 1-D ``x`` in order of first
    appearance and, for each entry of ``x``, its index in ``y``, as ``tf.unique``.

    Both results are constants when ``x`` is known when the graph is built;
    otherwise they come from a host op ``Unique`` (as ``tf.py_func``: ``x``
    is computed by a device run of its own), ``y`` of static shape ``[?]``.

    Raises:
      NotImplementedError: ``x`` depends on a variable assignment.
      ValueError: ``x`` is not 1-D.
    """
    y, idx, _ = _unique(x, out_idx, "Unique", name)
    return Unique(y, idx)


def unique_with_counts(x: Any, out_idx: Any = _dtypes.int32, name: str | None = None) -> UniqueWithCounts:
    """:func:`unique` and how often each distinct value occurs (``out_idx`` dtype), as
    ``tf.unique_with_counts``; the same rules and errors."""
    return UniqueWithCounts(*_unique(x, out_idx, "UniqueWithCounts", name))


def dynamic_partition(data: Any, partitions: Any, num_partitions: int, name: str | None = None) -> list[Any]:
    """``outputs[i] = data[partitions == i]`` for ``i < num_partitions``, as ``tf.dynamic_partition``.

    Each output is a ``GatherV2`` of ``data`` (gradients flow to ``data``):
    of constant indices when ``partitions`` is known when the graph is built,
    else of the indices ``tf.where(partitions == i)`` (a host op, see
    :func:`~jaxsess._tf1.ops.math_ops.where`; outputs of static shape ``[?, ...]``
    as TF's).

    Raises:
      NotImplementedError: ``partitions`` depends on a variable assignment.
      errors.InvalidArgumentError: a partition index outside ``[0, num_partitions)``
        (known partitions: when the graph is built; else indices outside are dropped).
    """
    with op_scope(name, "DynamicPartition", [data, partitions]):
        x = convert_to_tensor(data)
        p = _known(partitions)
        if p is None:
            pt = convert_to_tensor(partitions, name="partitions")
            if pt.shape.ndims is None:
                raise ValueError("dynamic_partition: partitions must have a known rank.")
            flat_p = pt if pt.shape.ndims == 1 else array_ops.reshape(pt, [-1])
            shape = x.shape.as_tuple() if isinstance(x, Tensor) else tuple(x.shape)
            flat_x: Any = x
            if pt.shape.ndims != 1:
                if shape is None:
                    raise ValueError("dynamic_partition: data must have a known rank.")
                flat_x = array_ops.reshape(x, [-1, *[-1 if d is None else d for d in shape[pt.shape.ndims:]]])
            outs = []
            for i in range(int(num_partitions)):
                idx = array_ops.squeeze(math_ops.where(math_ops.equal(flat_p, i)), axis=[1])
                outs.append(array_ops.gather(flat_x, idx))
            return outs
        p = np.asarray(p)
        if p.size and (p.min() < 0 or p.max() >= num_partitions):
            raise errors.InvalidArgumentError(None, None, f"partitions must be in [0, {num_partitions}), got "
                                                          f"{p.ravel().tolist()!r:.200}.")
        shape = x.shape.as_tuple() if isinstance(x, Tensor) else tuple(x.shape)
        flat: Any = x
        if p.ndim != 1:
            if shape is None:
                raise ValueError("dynamic_partition: data must have a known rank.")
            rest = [-1 if d is None else d for d in shape[p.ndim:]]
            flat = array_ops.reshape(x, [p.size, *rest])
        out = []
        for i in range(int(num_partitions)):
            idx = constant(np.flatnonzero(np.ravel(p) == i).astype(np.int32), name=f"indices_{i}")
            out.append(array_ops.gather(flat, idx))
        return out


def bincount(arr: Any, weights: Any = None, minlength: Any = None, maxlength: Any = None,
             dtype: Any = _dtypes.int32, name: str | None = None) -> Any:
    """How often each value ``0..n-1`` occurs in the int32 ``arr`` (or the sum of
    its ``weights``), as ``tf.math.bincount``.

    ``n = max(max(arr) + 1, minlength)``, capped at ``maxlength``; values at
    or above ``maxlength`` are dropped. ``n`` shapes the output: when it is
    known when the graph is built (``arr`` known, or ``minlength ==
    maxlength``) the counts are an ``UnsortedSegmentSum``; otherwise, as TF,
    a ``DenseBincount`` of size ``n`` computed in the run, a host op (as
    ``tf.py_func``: its inputs are computed by a device run of their own),
    of static shape ``[?]``.

    Raises:
      NotImplementedError: a host ``DenseBincount`` whose inputs depend on a
        variable assignment.
      InvalidArgumentError: (at run time, host op) a negative value in ``arr``.
    """
    with op_scope(name, "bincount", [arr, weights]):
        a = convert_to_tensor(arr)
        lo = None if minlength is None else static_int(minlength, "bincount", "minlength")
        hi = None if maxlength is None else static_int(maxlength, "bincount", "maxlength")
        if lo is not None and lo == hi:
            n = lo
        else:
            val = _known(a)
            if val is None:
                return _host_bincount(a, weights, minlength, maxlength, dtype)
            n = int(val.max()) + 1 if val.size else 0
            if lo is not None:
                n = max(n, lo)
            if hi is not None:
                n = min(n, hi)
        w: Any = array_ops.ones_like(a, dtype=dtype) if weights is None else convert_to_tensor(weights)
        return unsorted_segment_sum(w, a, n)


def _host_bincount(arr: Any, weights: Any, minlength: Any, maxlength: Any, dtype: Any) -> Any:
    """TF's graph of ``bincount`` when the size is known only in the run (inside its scope)."""
    if not arr.dtype.is_integer:
        arr = math_ops.cast(arr, _dtypes.int32)
    nonempty = math_ops.cast(math_ops.greater(array_ops.size(arr), 0), arr.dtype)
    size = math_ops.multiply(nonempty, math_ops.add(math_ops.reduce_max(arr), 1))
    if minlength is not None:
        size = math_ops.maximum(convert_to_tensor(minlength, dtype=arr.dtype, name="minlength"), size)
    if maxlength is not None:
        size = math_ops.minimum(convert_to_tensor(maxlength, dtype=arr.dtype, name="maxlength"), size)
    if weights is not None:
        weights = array_ops.reshape(convert_to_tensor(weights, name="weights"), [-1])
    arr = array_ops.reshape(arr, [-1])
    if weights is None:
        weights = constant(np.zeros([0], _dtypes.as_dtype(dtype).np_dtype))
    require_no_assign_before([arr, size, weights], "tf.math.bincount")
    return apply_op("DenseBincount", (arr, size, weights), {"binary_output": False})


def _dense_bincount_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(TensorShape([None]), specs[2][1])]


@register_op("DenseBincount", infer=_dense_bincount_infer, lowering=device_lowering, default_name="DenseBincount",
             tf=TFOp(types={"Tidx": 0, "T": 2}))
def _dense_bincount_device(arr: Any, size: Any, weights: Any, *, binary_output: bool) -> Any:
    raise AssertionError("DenseBincount runs on the host")  # pragma: no cover


@register_host("DenseBincount", always=True, infer=_dense_bincount_infer)
def _dense_bincount(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    arr, size, w = (np.asarray(x) for x in inputs)
    n = int(size)
    if arr.size and arr.min() < 0:
        raise errors.InvalidArgumentError(op.name, op, f"Input arr must be non-negative! (node {op.name})")
    keep = arr < n
    if w.size:
        out = np.zeros([n], w.dtype)
        np.add.at(out, arr[keep], w.ravel()[keep])
    else:
        out = np.bincount(arr[keep], minlength=n)[:n].astype(w.dtype)
    if op.attrs.get("binary_output"):
        out = (out != 0).astype(w.dtype)
    return (out,)


class ListDiff(NamedTuple):
    """The result of :func:`setdiff1d`: ``out`` and ``idx``."""

    out: Any
    idx: Any


def setdiff1d(x: Any, y: Any, index_dtype: Any = _dtypes.int32, name: str | None = None) -> ListDiff:
    """The values of the 1-D ``x`` not in ``y`` (in ``x``'s order, duplicates kept) and their
    positions in ``x``, as ``tf.setdiff1d``.

    ``x`` and ``y`` must be known when the graph is built; both results are constants.

    Returns:
      ``ListDiff(out, idx)``: ``out`` of ``x``'s dtype, ``idx`` of ``index_dtype`` (int32/int64).

    Raises:
      DataDependentShapeError: ``x`` or ``y`` depends on fed or variable values.
      ValueError: ``x`` or ``y`` is not 1-D.
    """
    tx, ty = convert_to_tensor(x), convert_to_tensor(y)
    if tx.dtype != ty.dtype:
        raise TypeError(f"setdiff1d: x has dtype {tx.dtype.name} but y has dtype {ty.dtype.name}.")
    vx, vy = _known(tx), _known(ty)
    for arg, t, v in (("x", tx, vx), ("y", ty, vy)):
        if v is None:
            raise DataDependentShapeError("ListDiff", t, "Compute the difference on the host, or mask with "
                                                         "a fixed-size boolean vector.")
        if v.ndim != 1:
            raise ValueError(f"setdiff1d: {arg} must be 1-D, got shape {list(v.shape)}.")
    assert vx is not None and vy is not None
    keep = np.flatnonzero(~np.isin(vx, vy))
    with op_scope(name, "ListDiff", [tx, ty]):
        out = constant(vx[keep], dtype=tx.dtype, name="out")
        idx = constant(keep, dtype=_dtypes.as_dtype(index_dtype), name="idx")
    return ListDiff(out, idx)


@register_op("DynamicStitch", default_name="DynamicStitch")
def _dynamic_stitch(*data: Any, source: tuple[int, ...], inner: tuple[int, ...], targets: tuple[int, ...]) -> Any:
    @jax.custom_vjp
    def stitch(*ds: Any) -> Any:
        flat = jnp.concatenate([jnp.reshape(d, (-1, *inner)) for d in ds] + [jnp.zeros((1, *inner), ds[0].dtype)])
        return jnp.take(flat, np.asarray(source, np.int32), axis=0)

    def fwd(*ds: Any) -> Any:
        return stitch(*ds), None

    def bwd(_: Any, g: Any) -> Any:
        # As TF's gradient: each data entry gets the output gradient at its index,
        # also where a later entry overwrote it.
        picked = jnp.take(g, np.asarray(targets, np.int32), axis=0)
        out, start = [], 0
        for d in data:
            n = int(np.prod(d.shape[:d.ndim - len(inner)], dtype=np.int64))
            out.append(jnp.reshape(picked[start:start + n], d.shape))
            start += n
        return tuple(out)

    stitch.defvjp(fwd, bwd)
    return stitch(*data)


def dynamic_stitch(indices: Any, data: Any, name: str | None = None) -> Any:
    """Interleaves the tensors of ``data`` into one: ``merged[indices[m][i]] = data[m][i]``, as
    ``tf.dynamic_stitch`` (a later ``(m, i)`` wins a repeated index; unset rows are zeros; the
    gradient of an overwritten entry is that of its index, as TF's).

    ``indices`` (int32 tensors) must be known when the graph is built; ``data``
    may be fed. ``data[m]`` has shape ``indices[m].shape + inner``.

    Returns:
      ``[max(indices) + 1, *inner]`` of ``data``'s dtype.

    Raises:
      DataDependentShapeError: an ``indices`` tensor depends on fed or variable values.
      ValueError: the lists differ in length, or shapes do not fit.
    """
    if len(indices) != len(data) or not data:
        raise ValueError(f"dynamic_stitch: indices and data must be non-empty lists of one length, got "
                         f"{len(indices)} and {len(data)}.")
    vals = []
    for i in indices:
        v = _known(i)
        if v is None:
            raise DataDependentShapeError("DynamicStitch", i, "Pass indices known when the graph is built "
                                                              "(the output size is max(indices) + 1).")
        vals.append(np.asarray(v, np.int64))
    ds = [convert_to_tensor(d) for d in data]
    for d in ds[1:]:
        if d.dtype != ds[0].dtype:
            raise TypeError(f"dynamic_stitch: data must have one dtype, got {[t.dtype.name for t in ds]}.")
    inner: tuple[int, ...] | None = None
    for v, d in zip(vals, ds, strict=True):
        dims = tuple(d.shape) if isinstance(d, jax.Array) else d.shape.as_tuple()
        if dims is None or any(k is None for k in dims) or tuple(dims[:v.ndim]) != v.shape:
            raise ValueError(f"dynamic_stitch: data of shape {d.shape} must be fully known and start with its "
                             f"indices' shape {list(v.shape)}.")
        rest = tuple(int(k) for k in dims[v.ndim:])  # type: ignore[arg-type]
        if inner is not None and rest != inner:
            raise ValueError(f"dynamic_stitch: the inner shapes of data differ: {list(inner)} and {list(rest)}.")
        inner = rest
    flat_idx = np.concatenate([v.ravel() for v in vals])
    if flat_idx.size and flat_idx.min() < 0:
        raise errors.InvalidArgumentError(None, None, f"dynamic_stitch: indices must be >= 0, got "
                                                      f"{flat_idx.tolist()!r:.200}.")
    n = int(flat_idx.max()) + 1 if flat_idx.size else 0
    source = np.full([n], flat_idx.size, np.int64)  # the zero row
    source[flat_idx] = np.arange(flat_idx.size)  # later entries win, as TF
    attrs = {"source": tuple(int(s) for s in source), "inner": inner or (),
             "targets": tuple(int(t) for t in flat_idx)}
    return apply_op("DynamicStitch", ds, attrs, name=name)


def confusion_matrix(labels: Any, predictions: Any, num_classes: Any = None, weights: Any = None,
                     dtype: Any = _dtypes.int32, name: str | None = None) -> Any:
    """``[num_classes, num_classes]`` counts (or summed ``weights``) of (label, prediction) pairs,
    rows labels, as ``tf.math.confusion_matrix``.

    Args:
      labels, predictions: 1-D integer tensors of one length.
      num_classes: known when the graph is built; default ``max(labels, predictions) + 1``:
        when the values are not known when the graph is built, the matrix is
        computed on the host (a host op, as ``tf.py_func``: its inputs are
        computed by a device run of their own and may not depend on a
        variable assignment), of static shape ``[?, ?]`` as TF.
      weights: optional, ``predictions``' shape.
      dtype: of the result.

    Raises:
      NotImplementedError: no ``num_classes``, and the inputs depend on a variable assignment.
      ValueError: the shapes of ``labels`` and ``predictions`` differ.
      InvalidArgumentError: (at run time, host matrix) a negative label or prediction.

    Labels or predictions outside ``[0, num_classes)`` are dropped (TF raises
    ``InvalidArgumentError`` at run time).
    """
    with op_scope(name, "confusion_matrix", [predictions, labels, num_classes, weights]):
        lab = math_ops.cast(convert_to_tensor(labels, name="labels"), _dtypes.int64)
        pred = math_ops.cast(convert_to_tensor(predictions, name="predictions"), _dtypes.int64)
        if not TensorShape(lab.shape).is_compatible_with(TensorShape(pred.shape)):
            raise ValueError(f"confusion_matrix: labels of shape {lab.shape} and predictions of shape "
                             f"{pred.shape} must have one shape.")
        d = _dtypes.as_dtype(dtype)
        values = array_ops.ones_like(pred, dtype=d) if weights is None else math_ops.cast(weights, d)
        if num_classes is None:
            vl, vp = _known(lab), _known(pred)
            if vl is None or vp is None:
                require_no_assign_before([lab, pred, values], "confusion_matrix without num_classes")
                return apply_op("HostConfusionMatrix", (lab, pred, values), name="ScatterNd")
            n = int(max(vl.max(initial=-1), vp.max(initial=-1))) + 1
        else:
            n = static_int(num_classes, "confusion_matrix", "num_classes")
        indices = array_ops.stack([lab, pred], axis=1)
        return indexing_ops.scatter_nd(indices, values, [n, n])


def _host_cm_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(TensorShape([None, None]), specs[2][1])]


@register_op("HostConfusionMatrix", infer=_host_cm_infer, lowering=device_lowering,
             default_name="ScatterNd")
def _host_confusion_matrix(labels: Any, predictions: Any, weights: Any) -> Any:
    raise AssertionError("HostConfusionMatrix runs on the host")  # pragma: no cover


@register_host("HostConfusionMatrix", always=True, infer=_host_cm_infer)
def _host_cm(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    """``confusion_matrix`` whose size ``max(labels, predictions) + 1`` is known only at run time."""
    lab, pred, w = (np.asarray(x) for x in inputs)
    if lab.size and min(lab.min(), pred.min()) < 0:
        what = "labels" if lab.min() < 0 else "predictions"
        raise errors.InvalidArgumentError(
            op.name, op, f"confusion_matrix: `{what}` contains negative values: "
                         f"{(lab if what == 'labels' else pred).tolist()!r:.200}")
    n = int(max(lab.max(initial=-1), pred.max(initial=-1))) + 1
    out = np.zeros([n, n], w.dtype)
    np.add.at(out, (lab.ravel(), pred.ravel()), w.ravel())
    return (out,)
