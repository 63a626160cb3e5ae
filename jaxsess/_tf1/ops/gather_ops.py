"""Indexing ops, as ``tf.compat.v1``: gather, gather_nd, one_hot.

Out-of-range indices give zeros (gather) or all-off rows (one_hot), as TF on
GPU.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, convert_to_tensor, dtype_of
from jaxsess._core.graph._dynamic import Deferred, register_dynamic
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops._args import apply, op_scope, shape_arg, static_int

__all__ = ["gather", "gather_nd", "one_hot"]

_builtin_range = range


# -- gather, one_hot ------------------------------------------------------------------


def _batched(fn: Callable[..., Any], batch_dims: int) -> Callable[..., Any]:
    for _ in _builtin_range(batch_dims):
        fn = jax.vmap(fn)
    return fn


@register_op("GatherV2", default_name="GatherV2", tf=TFOp(
    types={"Tparams": 0, "Tindices": 1, "Taxis": 2},
    to_tf=lambda a, s: ({"batch_dims": a["batch_dims"]}, [np.asarray(a["axis"], np.int32)]),
    from_tf=lambda a, c: {"axis": int(c[0]), "batch_dims": int(a.get("batch_dims", 0))}, n_const=1))
def _gather(params: Any, indices: Any, *, axis: int, batch_dims: int) -> Any:
    axis %= params.ndim

    def take(p: Any, i: Any) -> Any:
        return jnp.take(p, i, axis=axis - batch_dims, mode="fill", fill_value=0)

    return _batched(take, batch_dims)(params, indices)


def _check_int_indices(idx: Any, fn: str) -> None:
    d = dtype_of(idx)
    if d is not None and not d.is_integer:
        raise TypeError(f"{fn}: indices must be int32 or int64, got {d.name}.")


def gather(params: Any, indices: Any, validate_indices: Any = None, name: str | None = None,
           axis: Any = None, batch_dims: int = 0) -> Any:
    """Slices of ``params`` along ``axis`` at ``indices``, as ``tf.gather``.

    Args:
      params: ``[d0, ..., dn]``.
      indices: int tensor; the result has shape
        ``params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]``.
      axis: default ``batch_dims`` (0); an int or constant tensor.
      batch_dims: leading dimensions shared by ``params`` and ``indices``.

    Out-of-range indices give zeros (as TF on GPU; TF on CPU raises).

    Raises:
      TypeError: non-integer indices.
    """
    p = convert_to_tensor(params)
    i = convert_to_tensor(indices)
    _check_int_indices(i, "gather")
    bd = int(batch_dims)
    if bd < 0:
        r = i.ndim if isinstance(i, jax.Array) else i.shape.ndims
        if r is None:
            raise ValueError("gather: negative batch_dims needs indices of known rank.")
        bd += r
    ax = bd if axis is None else static_int(axis, "gather", "axis")  # as TF: the axis defaults to batch_dims
    if ax < 0:
        r = p.ndim if isinstance(p, jax.Array) else p.shape.ndims
        if r is None:
            raise ValueError("gather: a negative axis needs params of known rank.")
        ax += r
    pr = p.ndim if isinstance(p, jax.Array) else p.shape.ndims
    if pr is not None and not 0 <= ax < max(pr, 1):
        raise ValueError(f"gather: axis {axis} is out of range for params of rank {pr}.")
    if ax < bd:
        raise ValueError(f"gather: batch_dims ({bd}) must be less than or equal to axis ({ax}).")
    return apply_op("GatherV2", (p, i), {"axis": ax, "batch_dims": bd}, name=name)


@register_op("GatherNd", default_name="GatherNd", tf=TFOp(
    types={"Tparams": 0, "Tindices": 1}, from_tf=lambda a, c: {"batch_dims": int(a.get("batch_dims", 0))}))
def _gather_nd(params: Any, indices: Any, *, batch_dims: int) -> Any:
    def take(p: Any, i: Any) -> Any:
        return p.at[tuple(jnp.moveaxis(i, -1, 0))].get(mode="fill", fill_value=0)

    return _batched(take, batch_dims)(params, indices)


def gather_nd(params: Any, indices: Any, name: str | None = None, batch_dims: int = 0) -> Any:
    """Elements or slices of ``params`` at the index vectors in ``indices``'s
    last dimension, as ``tf.gather_nd``. Out-of-range indices give zeros."""
    p = convert_to_tensor(params)
    i = convert_to_tensor(indices)
    _check_int_indices(i, "gather_nd")
    return apply_op("GatherNd", (p, i), {"batch_dims": int(batch_dims)}, name=name)


# TF: OneHot(indices, depth, on_value, off_value) with axis
@register_op("OneHot", default_name="one_hot", tf=TFOp(
    types={"TI": 0, "T": 2}, to_tf=lambda a, s: ({"axis": a["axis"]}, [np.asarray(a["depth"], np.int32)]),
    from_tf=lambda a, c: {"depth": int(c[0]), "axis": int(a.get("axis", -1))}, n_const=1, const_pos=1))
def _one_hot(indices: Any, on: Any, off: Any, *, depth: int, axis: int) -> Any:
    hot = jax.nn.one_hot(indices, depth, axis=axis, dtype=jnp.bool_)
    return jnp.where(hot, on, off)


def one_hot(indices: Any, depth: Any, on_value: Any = None, off_value: Any = None, axis: Any = None,
            dtype: Any = None, name: str | None = None) -> Any:
    """One-hot vectors of length ``depth`` at ``indices``, as ``tf.one_hot``.

    Args:
      indices: int tensor; indices outside ``[0, depth)`` give all-off rows.
      depth: an int (or constant tensor).
      on_value, off_value: scalars (default 1 and 0).
      axis: where the new dimension goes (default -1, last).
      dtype: the result dtype; default the dtype of ``on_value`` (else
        ``off_value``) as converted (Python ints: int32), else float32.

    Returns:
      A tensor of rank ``rank(indices) + 1``.

    Raises:
      TypeError: ``dtype`` disagrees with ``on_value``/``off_value``, or they disagree (TF's messages).
    """
    d = shape_arg(depth, "one_hot", "depth", kind="scalar")  # or computed from shapes (``DynamicOneHot``)
    if not isinstance(d, Deferred) and d < 0:
        raise ValueError(f"one_hot: depth must be non-negative, got {d}.")
    ax = -1 if axis is None else static_int(axis, "one_hot", "axis")
    with op_scope(name, "one_hot", [indices]) as scope:  # as TF: the dtype of on/off_value, else float32
        idx = convert_to_tensor(indices, name="indices")
        _check_int_indices(idx, "one_hot")
        want = None if dtype is None else _dtypes.canonical(dtype)
        on = None if on_value is None else convert_to_tensor(on_value, dtype_hint=want)
        off = None if off_value is None else convert_to_tensor(off_value, dtype_hint=want)
        given = [(t, what) for t, what in ((on, "on_value"), (off, "off_value")) if t is not None]
        for t, what in given:
            if want is not None and dtype_of(t) != want:
                raise TypeError(f"dtype {dtype_of(t)} of {what} does not match dtype parameter {want}")
        dt = want or (dtype_of(given[0][0]) if given else _dtypes.float32)
        on = convert_to_tensor(1, dt, name="on_value") if on is None else on
        off = convert_to_tensor(0, dt, name="off_value") if off is None else off
        if dtype_of(on) != dtype_of(off):
            raise TypeError(f"dtype {dtype_of(on)} of on_value does not match dtype {dtype_of(off)} of "
                            "off_value")
        return apply("OneHot", (idx, on, off), {"depth": d, "axis": ax}, scope)


def _one_hot_shape(shapes: Any, attrs: dict[str, Any]) -> TensorShape:
    if shapes[0] is None:
        return TensorShape(None)
    dims: list[int | None] = list(shapes[0])
    depth = attrs["depth"]
    dims.insert(len(dims) if attrs["axis"] == -1 else attrs["axis"], depth if isinstance(depth, int) else None)
    return TensorShape(dims)


register_dynamic("OneHot", _one_hot_shape, lambda dtypes, attrs: dtypes[1])

