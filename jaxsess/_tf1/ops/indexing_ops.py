"""Indexing and rearranging ops, as ``tf.compat.v1``: ``strided_slice``,
``scatter_nd``, ``roll``, ``sequence_mask``, ``meshgrid``, ``dimension_value``
(``reverse_sequence`` lives in :mod:`jaxsess._tf1.ops.rnn`).

Arguments that shape the result (slice bounds, ``scatter_nd``'s ``shape``,
``roll``'s axes, ``sequence_mask``'s ``maxlen``) must be known when the graph
is built (XLA compiles static shapes); values may be fed.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, constant_value, convert_to_tensor, dtype_of
from jaxsess._core.graph._dynamic import Deferred
from jaxsess._core.graph._graph import Tensor
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops
from jaxsess._tf1.ops._args import op_scope, shape_arg, static_int, static_ints
from jaxsess._tf1.ops._operators import _slice_from_tf

__all__ = [
    "strided_slice", "scatter_nd", "roll", "sequence_mask", "meshgrid", "dimension_value", "scattered",
    "tensor_scatter_nd_update", "tensor_scatter_nd_add", "tensor_scatter_nd_sub", "tensor_scatter_nd_max",
    "tensor_scatter_nd_min",
]


def strided_slice(input_: Any, begin: Any, end: Any, strides: Any = None, begin_mask: int = 0, end_mask: int = 0,
                  ellipsis_mask: int = 0, new_axis_mask: int = 0, shrink_axis_mask: int = 0, var: Any = None,
                  name: str | None = None) -> Any:
    """A strided slice of ``input_``, as ``tf.strided_slice`` (the op behind ``t[a:b:c]``).

    Args:
      begin, end, strides: int vectors of one length, known when the graph
        is built (``strides`` defaults to ones).
      begin_mask, end_mask: bit ``i`` set: ignore ``begin[i]`` / ``end[i]``
        (the full range in that direction).
      ellipsis_mask: bit ``i`` set: entry ``i`` is ``...``.
      new_axis_mask: bit ``i`` set: entry ``i`` inserts a size-1 axis.
      shrink_axis_mask: bit ``i`` set: entry ``i`` is the single index ``begin[i]``.

    Raises:
      ValueError: ``begin``, ``end`` or ``strides`` depends on fed or
        variable values, or their lengths differ.
    """
    b = static_ints(begin, "strided_slice", "begin")
    e = static_ints(end, "strided_slice", "end")
    s = (1,) * len(b) if strides is None else static_ints(strides, "strided_slice", "strides")
    if not len(b) == len(e) == len(s):
        raise ValueError(f"strided_slice: begin, end and strides must have one length, got {len(b)}, "
                         f"{len(e)} and {len(s)}.")
    if 0 in s:
        raise ValueError("strided_slice: strides must be non-zero.")
    masks = {"begin_mask": begin_mask, "end_mask": end_mask, "ellipsis_mask": ellipsis_mask,
             "new_axis_mask": new_axis_mask, "shrink_axis_mask": shrink_axis_mask}
    attrs = _slice_from_tf(masks, [np.asarray(v, np.int64) for v in (b, e, s)])
    return apply_op("StridedSlice", (convert_to_tensor(input_),), attrs, name=name or "StridedSlice")


# -- scatter_nd -------------------------------------------------------------------------------


def _scatter_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    return {}, [np.asarray(a["shape"], specs[0][1].np_dtype)]


@register_op("ScatterNd", default_name="ScatterNd", tf=TFOp(
    types={"Tindices": 0, "T": 1}, to_tf=_scatter_to_tf,
    from_tf=lambda a, c: {"shape": tuple(int(v) for v in np.ravel(c[0]))}, n_const=1))
def _scatter_nd(indices: Any, updates: Any, *, shape: tuple[int, ...]) -> Any:
    idx = tuple(jnp.moveaxis(indices, -1, 0))
    return jnp.zeros(shape, updates.dtype).at[idx].add(updates, mode="drop")


def scatter_nd(indices: Any, updates: Any, shape: Any, name: str | None = None) -> Any:
    """A zero tensor of ``shape`` with ``updates`` added at ``indices``, as ``tf.scatter_nd``.

    Args:
      indices: int32/int64 ``[..., K]``, indices into the first ``K`` dims.
      updates: ``indices.shape[:-1] + shape[K:]``; duplicates are summed.
      shape: known when the graph is built.

    Out-of-range indices are dropped (TF on CPU raises ``InvalidArgumentError``).

    Raises:
      TypeError: non-integer indices.
      ValueError: ``updates``' shape does not fit ``indices`` and ``shape``.
    """
    i = convert_to_tensor(indices)
    d = dtype_of(i)
    if d not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"scatter_nd: 'indices' must be int32 or int64, got {d.name if d else d}.")
    u = convert_to_tensor(updates)
    dims = static_ints(shape, "scatter_nd", "shape")
    ishape = i.shape.as_tuple() if isinstance(i, Tensor) else tuple(i.shape)
    ushape = u.shape.as_tuple() if isinstance(u, Tensor) else tuple(u.shape)
    if ishape is not None and ushape is not None and ishape[-1] is not None:
        want = (*ishape[:-1], *dims[ishape[-1]:])
        if len(want) != len(ushape) or any(a is not None and b is not None and a != b for a, b in zip(want, ushape)):
            raise ValueError(f"scatter_nd: the shape of 'updates' {list(ushape)} must be indices.shape[:-1] + "
                             f"shape[{ishape[-1]}:] = {list(want)}.")
    return apply_op("ScatterNd", (i, u), {"shape": dims}, name=name)


def scattered(value: Any, indices: Any, updates: Any, *, how: str, nd: bool) -> Any:
    """``value`` with ``updates`` combined (``how``: ``set``, ``add``, ``sub``, ``multiply``,
    ``divide``, ``max``, ``min``) into its rows at ``indices`` (``nd``: into the slices at the
    index vectors ``indices[..., :]``); out-of-range indices are dropped."""
    where: Any = tuple(jnp.moveaxis(indices, -1, 0)) if nd else indices
    at = value.at[where]
    if how == "sub":
        return at.add(-updates, mode="drop")
    return getattr(at, how)(updates, mode="drop")


_TENSOR_SCATTER = {"TensorScatterUpdate": "set", "TensorScatterAdd": "add", "TensorScatterSub": "sub",
                   "TensorScatterMax": "max", "TensorScatterMin": "min"}
for _t, _how in _TENSOR_SCATTER.items():
    register_op(_t, default_name=_t)(
        lambda x, i, u, _how=_how: scattered(x, i, u, how=_how, nd=True))  # type: ignore[misc]


def _tensor_scatter(op_type: str, fn: str, tensor: Any, indices: Any, updates: Any, name: str | None) -> Any:
    x = convert_to_tensor(tensor)
    i = convert_to_tensor(indices)
    d = dtype_of(i)
    if d not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"{fn}: 'indices' must be int32 or int64, got {d.name if d else d}.")
    u = convert_to_tensor(updates, dtype=dtype_of(x))
    xs = x.shape.as_tuple() if isinstance(x, Tensor) else tuple(x.shape)
    ishape = i.shape.as_tuple() if isinstance(i, Tensor) else tuple(i.shape)
    ushape = u.shape.as_tuple() if isinstance(u, Tensor) else tuple(u.shape)
    if xs is not None and ishape is not None and ushape is not None and ishape and ishape[-1] is not None:
        want = (*ishape[:-1], *xs[ishape[-1]:])
        if len(want) != len(ushape) or any(a is not None and b is not None and a != b for a, b in zip(want, ushape)):
            raise ValueError(f"{fn}: the shape of 'updates' {list(ushape)} must be indices.shape[:-1] + "
                             f"tensor.shape[{ishape[-1]}:] = {list(want)}.")
    return apply_op(op_type, (x, i, u), name=name)


def tensor_scatter_nd_update(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Any:
    """A copy of ``tensor`` with the slices at ``indices`` (int ``[..., K]``) set to ``updates``
    (``indices.shape[:-1] + tensor.shape[K:]``), as ``tf.tensor_scatter_nd_update``.

    Out-of-range indices are dropped (TF on CPU raises ``InvalidArgumentError``).

    Raises:
      TypeError: non-integer indices. ValueError: ``updates``' shape does not fit.
    """
    return _tensor_scatter("TensorScatterUpdate", "tensor_scatter_nd_update", tensor, indices, updates, name)


def tensor_scatter_nd_add(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Any:
    """A copy of ``tensor`` with ``updates`` added at ``indices`` (duplicates add up), as
    ``tf.tensor_scatter_nd_add``."""
    return _tensor_scatter("TensorScatterAdd", "tensor_scatter_nd_add", tensor, indices, updates, name)


def tensor_scatter_nd_sub(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Any:
    """A copy of ``tensor`` with ``updates`` subtracted at ``indices``, as ``tf.tensor_scatter_nd_sub``."""
    return _tensor_scatter("TensorScatterSub", "tensor_scatter_nd_sub", tensor, indices, updates, name)


def tensor_scatter_nd_max(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Any:
    """A copy of ``tensor`` with the maximum of it and ``updates`` at ``indices``, as
    ``tf.tensor_scatter_nd_max``."""
    return _tensor_scatter("TensorScatterMax", "tensor_scatter_nd_max", tensor, indices, updates, name)


def tensor_scatter_nd_min(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Any:
    """A copy of ``tensor`` with the minimum of it and ``updates`` at ``indices``, as
    ``tf.tensor_scatter_nd_min``."""
    return _tensor_scatter("TensorScatterMin", "tensor_scatter_nd_min", tensor, indices, updates, name)


# -- roll --------------------------------------------------------------------


def _roll_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    return {}, [np.asarray(a["axis"], np.int32)]


@register_op("Roll", default_name="Roll", tf=TFOp(
    types={"T": 0, "Tshift": 1, "Taxis": 2}, to_tf=_roll_to_tf,
    from_tf=lambda a, c: {"axis": tuple(int(v) for v in np.ravel(c[0]))}, n_const=1))
def _roll(x: Any, shift: Any, *, axis: tuple[int, ...]) -> Any:
    shifts = jnp.broadcast_to(jnp.reshape(shift, (-1,)), (len(axis),))
    for k, ax in enumerate(axis):
        x = jnp.roll(x, shifts[k], axis=ax)
    return x


def roll(input: Any, shift: Any, axis: Any, name: str | None = None) -> Any:
    """``input`` rotated by ``shift`` places along ``axis``, as ``tf.roll``.

    Args:
      shift: int scalar or vector (may be fed); one per ``axis`` entry.
      axis: int or int vector known when the graph is built.

    Raises:
      ValueError: ``shift`` and ``axis`` have different lengths.
    """
    x = convert_to_tensor(input)
    ax = static_ints(axis, "roll", "axis")
    s = convert_to_tensor(shift)
    sshape = s.shape.as_tuple() if isinstance(s, Tensor) else tuple(s.shape)
    n_shift = sshape[0] if sshape else 1
    if sshape is not None and (len(sshape) > 1 or (n_shift is not None and n_shift != len(ax))):
        raise ValueError(f"roll: 'shift' and 'axis' must have the same size, got shift of shape {list(sshape)} "
                         f"and {len(ax)} axes.")
    return apply_op("Roll", (x, s), {"axis": ax}, name=name)


# -- sequence_mask, meshgrid -------------------------------------------------------------------


def sequence_mask(lengths: Any, maxlen: Any = None, dtype: Any = _dtypes.bool, name: str | None = None) -> Any:
    """``mask[i..., j] = j < lengths[i...]``, shape ``lengths.shape + [maxlen]``, as ``tf.sequence_mask``.

    Args:
      lengths: int tensor (may be fed when ``maxlen`` is given).
      maxlen: int known when the graph is built, or a scalar computed from
        shapes (``tf.shape(x)[1]``); default ``max(lengths)``, which then
        needs ``lengths`` constant.
      dtype: the result's dtype (bool by default; 1/0 otherwise).

    Raises:
      ValueError: ``maxlen`` not given and ``lengths`` not known when the
        graph is built (the result's shape would depend on the data).
    """
    with op_scope(name, "SequenceMask", [lengths, maxlen]):
        lengths = convert_to_tensor(lengths)
        if maxlen is None:
            val = constant_value(lengths)
            if val is None:
                raise ValueError(
                    f"sequence_mask: without 'maxlen' the result's shape depends on the values of "
                    f"{getattr(lengths, 'name', 'lengths')!r}, which XLA cannot compile; pass maxlen.")
            n = int(np.max(val)) if val.size else 0
        else:
            # a constant, or a scalar computed from shapes (``tf.shape(x)[1]``)
            limit = shape_arg(maxlen, "sequence_mask", "maxlen", kind="scalar")
            n = maxlen if isinstance(limit, Deferred) else static_int(maxlen, "sequence_mask", "maxlen")
        row = array_ops.range(0, n, 1)
        matrix = math_ops.cast(array_ops.expand_dims(lengths, -1), _dtypes.int32)
        result = math_ops.less(row, matrix, name="Less")
        d = _dtypes.as_dtype(dtype)
        return result if d == _dtypes.bool else math_ops.cast(result, d)


def meshgrid(*args: Any, **kwargs: Any) -> list[Any]:
    """N-D coordinate grids from N 1-D tensors, as ``tf.meshgrid``.

    Args:
      *args: 1-D tensors of one dtype, sizes known when the graph is built.
      indexing: ``'xy'`` (default: the first two outputs' axes swapped,
        Cartesian) or ``'ij'`` (matrix).
      name: the name scope (default ``'meshgrid'``).

    Raises:
      TypeError: an unknown keyword argument.
      ValueError: ``indexing`` is not ``'xy'`` or ``'ij'``.
    """
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError("indexing parameter must be either 'xy' or 'ij'")
    with op_scope(name, "meshgrid", list(args)):
        ndim = len(args)
        s0 = (1,) * ndim
        if not ndim:
            return []
        xs = [convert_to_tensor(a) for a in args]
        output = [array_ops.reshape(x, (*s0[:i], -1, *s0[i + 1:])) for i, x in enumerate(xs)]
        sizes: list[Any] = []
        for x in xs:
            n = x.shape.num_elements() if isinstance(x, Tensor) else int(np.size(x))
            sizes.append(n if n is not None else array_ops.size(x))
        if indexing == "xy" and ndim > 1:
            output[0] = array_ops.reshape(xs[0], (1, -1, *(1,) * (ndim - 2)))
            output[1] = array_ops.reshape(xs[1], (-1, 1, *(1,) * (ndim - 2)))
            sizes[0], sizes[1] = sizes[1], sizes[0]
        mult_fact = array_ops.ones(sizes, xs[0].dtype)
        return [x * mult_fact for x in output]


def dimension_value(dimension: Any) -> int | None:
    """The value of a shape entry as a Python int, ``None`` if unknown, as
    ``tf.compat.v1.dimension_value`` (shapes here hold ints or ``None`` already)."""
    value = getattr(dimension, "value", dimension)
    return None if value is None else int(value)
