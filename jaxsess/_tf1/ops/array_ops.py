"""Array ops, as ``tf.compat.v1``'s ``array_ops``: one namespace over the
modules that define them by theme.

* :mod:`jaxsess._tf1.ops.shape_ops`: shape, size, rank, reshape, transpose,
  reverse, concat, stack, unstack, split, squeeze, expand_dims, tile, pad,
  broadcast_to, slice;
* :mod:`jaxsess._tf1.ops.gather_ops`: gather, gather_nd, one_hot;
* :mod:`jaxsess._tf1.ops.fill_ops`: fill, zeros, ones, zeros_like, ones_like, range;
* this module: ``repeat``, ``shape_n``, ``parallel_stack``, ``ensure_shape``,
  ``broadcast_static_shape``, ``broadcast_dynamic_shape``,
  ``histogram_fixed_width_bins``, ``unravel_index``, ``searchsorted`` and
  ``invert_permutation``.

XLA compiles static shapes, so shape-like arguments (a reshape ``shape``,
``tile`` multiples, ``pad`` paddings, ``fill`` dims, ``range`` bounds, axes,
permutations, split sizes) become static attributes. They may be Python
values, NumPy arrays, or tensors whose value is known when the graph is built
(constants and shapes of fully defined tensors, folded by
:func:`~jaxsess._core.graph._builder.constant_value`).

A few ops (``reshape``, ``fill``/``zeros``/``ones``, ``tile``, ``slice``,
``broadcast_to``, ``range``) also accept a shape-like tensor that is computed
from *tensor shapes* only, such as ``[tf.shape(x)[0], -1]`` where ``x`` has an
unknown batch dimension: the graph then holds a ``Dynamic<Op>`` node whose
argument is evaluated when the run is traced (when every shape is concrete;
see :mod:`jaxsess._core.graph._dynamic`). A shape-like argument that depends on fed
or variable *values* raises ``ValueError`` naming the argument.
Where TF's graph leaves a static dimension unknown (``repeat`` with
per-element repeats), jaxsess knows it. ``unravel_index`` of an index outside
``prod(dims)`` wraps (TF raises ``InvalidArgumentError``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, constant_value, convert_to_tensor
from jaxsess._core.graph._graph import Tensor, TensorShape
from jaxsess._core.graph._registry import register_op
from jaxsess._tf1.ops import math_ops as math_ops
from jaxsess._tf1.ops._args import label, op_scope, static, static_int, static_ints, tensor_dtype
from jaxsess._tf1.ops.fill_ops import (
    fill as fill,
    ones as ones,
    ones_like as ones_like,
    range as range,
    zeros as zeros,
    zeros_like as zeros_like,
)
from jaxsess._tf1.ops.gather_ops import gather as gather, gather_nd as gather_nd, one_hot as one_hot
from jaxsess._tf1.ops.shape_ops import (
    broadcast_to as broadcast_to,
    concat as concat,
    expand_dims as expand_dims,
    pad as pad,
    rank as rank,
    reshape as reshape,
    reverse as reverse,
    shape as shape,
    size as size,
    slice as slice,
    split as split,
    squeeze as squeeze,
    stack as stack,
    tile as tile,
    transpose as transpose,
    unstack as unstack,
)

__all__ = [
    "reshape", "transpose", "concat", "stack", "unstack", "split", "squeeze", "expand_dims",
    "tile", "pad", "gather", "gather_nd", "one_hot", "zeros", "ones", "fill", "zeros_like",
    "ones_like", "range", "shape", "size", "rank", "reverse", "slice", "broadcast_to",
    "repeat", "shape_n", "parallel_stack", "ensure_shape", "broadcast_static_shape",
    "broadcast_dynamic_shape", "histogram_fixed_width_bins", "unravel_index", "searchsorted",
    "invert_permutation",
]


@register_op("UnravelIndex", default_name="UnravelIndex")
def _unravel_index(indices: Any, *, dims: tuple[int, ...]) -> Any:
    return jnp.stack(jnp.unravel_index(indices, dims), axis=0).astype(indices.dtype)



def unravel_index(indices: Any, dims: Any, name: str | None = None) -> Any:
    """The coordinates in an array of shape ``dims`` of flat ``indices``: ``[len(dims),
    *indices.shape]``, as ``tf.unravel_index`` (int32/int64; ``dims`` known when the graph is built)."""
    i = convert_to_tensor(indices)
    if len(_dims(i)) > 1:
        raise ValueError(f"unravel_index: indices must be a scalar or vector, got shape {_dims(i)} ({label(i)}).")
    d = static_ints(dims, "unravel_index", "dims")
    return apply_op("UnravelIndex", (i,), {"dims": d}, name=name)



@register_op("SearchSorted", default_name="SearchSorted")
def _searchsorted(seq: Any, values: Any, *, side: str, out_type: _dtypes.DType) -> Any:
    lead = seq.shape[:-1]
    flat_s = seq.reshape(-1, seq.shape[-1])
    flat_v = values.reshape(-1, values.shape[-1])
    out = jax.vmap(lambda s, v: jnp.searchsorted(s, v, side=side))(flat_s, flat_v)
    return out.reshape(*lead, values.shape[-1]).astype(out_type.np_dtype)



def searchsorted(sorted_sequence: Any, values: Any, side: str = "left", out_type: Any = _dtypes.int32,
                 name: str | None = None) -> Any:
    """For each of ``values`` ``[..., V]``, its insertion index into the matching row of
    ``sorted_sequence`` ``[..., S]`` (sorted along the last axis), as ``tf.searchsorted``.

    Raises:
      ValueError: ``side`` not ``'left'``/``'right'``, or leading dimensions that differ.
    """
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}.")
    s = convert_to_tensor(sorted_sequence)
    v = convert_to_tensor(values, dtype=tensor_dtype(s))
    ds, dv = _dims(s), _dims(v)
    if not ds or len(ds) != len(dv) or ds[:-1] != dv[:-1]:
        raise ValueError(f"searchsorted: sorted_sequence {ds} and values {dv} must have the same leading "
                         "dimensions.")
    attrs = {"side": side, "out_type": _dtypes.as_dtype(out_type)}
    return apply_op("SearchSorted", (s, v), attrs, name=name)



register_op("InvertPermutation", default_name="InvertPermutation")(
    lambda p: jnp.zeros_like(p).at[p].set(jnp.arange(p.shape[0], dtype=p.dtype)))


def invert_permutation(x: Any, name: str | None = None) -> Any:
    """The inverse permutation ``y[x[i]] = i`` of the int32/int64 vector ``x``, as
    ``tf.math.invert_permutation`` (``x`` must be a permutation; TF checks at run time)."""
    t = convert_to_tensor(x)
    if len(_dims(t)) != 1 or tensor_dtype(t) not in (_dtypes.int32, _dtypes.int64):
        raise ValueError(f"invert_permutation: x must be an int32/int64 vector, got {_dims(t)} "
                         f"{tensor_dtype(t).name} ({label(t)}).")
    return apply_op("InvertPermutation", (t,), name=name)


@register_op("Repeat", default_name="Repeat")
def _repeat(x: Any, *, repeats: tuple[int, ...], axis: int) -> Any:
    return jnp.repeat(x, repeats[0] if len(repeats) == 1 else np.asarray(repeats), axis=axis)



def repeat(input: Any, repeats: Any, axis: int | None = None, name: str | None = None) -> Any:  # noqa: A002
    """Each element of ``input`` repeated ``repeats`` times along ``axis``, as ``tf.repeat``.

    Args:
      input: any tensor; flattened first when ``axis`` is ``None``.
      repeats: an int, or a 1-D int vector of one count per element along
        ``axis``; known when the graph is built.
      axis: the axis (negative counts from the end).

    Raises:
      ValueError: ``repeats`` not known at build time, negative, or of the
        wrong length; ``axis`` out of range.
    """
    with op_scope(name, "Repeat", [input, repeats]) as scope:
        x = convert_to_tensor(input, name="input")
        if axis is None:
            x = reshape(x, [-1])
            axis = 0
        reps = np.ravel(static(repeats, "repeat", "repeats")).astype(np.int64)
        xs = TensorShape(x.shape)
        dims = xs.as_list() if xs.dims is not None else None
        if dims is None:
            raise ValueError(f"repeat: the rank of {label(x)} must be known when the graph is built.")
        if not -len(dims) <= axis < len(dims):
            raise ValueError(f"repeat: axis {axis} is out of range for {label(x)} of rank {len(dims)}.")
        axis %= len(dims)
        if np.any(reps < 0):
            raise ValueError(f"repeat: repeats must be non-negative, got {reps.tolist()}.")
        if reps.size != 1 and dims[axis] is not None and reps.size != dims[axis]:
            raise ValueError(f"repeat: {reps.size} repeats for dimension {axis} of size {dims[axis]} "
                             f"({label(x)}).")
        if reps.size != 1 and dims[axis] is None:
            raise ValueError(f"repeat: dimension {axis} of {label(x)} must be known to repeat per element.")
        return apply_op("Repeat", (x,), {"repeats": tuple(int(r) for r in reps), "axis": axis},
                        name=scope)



def _shape_n_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(TensorShape([None if s is None else len(s)]), attrs["out_type"]) for s, _ in specs]



@register_op("ShapeN", num_outputs=lambda a: int(a["N"]), infer=_shape_n_infer, default_name="ShapeN")
def _shape_n(*xs: Any, N: int, out_type: _dtypes.DType) -> Any:  # noqa: N803
    out = tuple(jnp.array(x.shape, dtype=out_type.np_dtype) for x in xs)
    return out[0] if N == 1 else out



def shape_n(input: Sequence[Any], out_type: Any = _dtypes.int32, name: str | None = None) -> list[Any]:  # noqa: A002
    """The shapes of several tensors of one dtype (one ``ShapeN`` op), as ``tf.shape_n``.

    Returns:
      A list of 1-D ``out_type`` tensors (``ShapeN:0``, ``ShapeN:1``, ...).

    Raises:
      TypeError: the tensors have different dtypes (TF's message).
    """
    xs = [convert_to_tensor(x) for x in input]
    kinds = [tensor_dtype(x).name for x in xs]
    if len(set(kinds)) > 1:
        raise TypeError(f"Tensors in list passed to 'input' of 'ShapeN' Op have types [{', '.join(kinds)}] "
                        "that don't all match.")
    out = apply_op("ShapeN", xs, {"N": len(xs), "out_type": _dtypes.canonical(out_type)}, name=name)
    return list(out) if isinstance(out, list | tuple) else [out]



def parallel_stack(values: Sequence[Any], name: str = "parallel_stack") -> Any:
    """``values`` (same fully known shape) stacked on a new first axis, as ``tf.parallel_stack``.

    Raises:
      ValueError: a shape is not fully known when the graph is built.
    """
    with op_scope(name, "parallel_stack", values):
        xs = [convert_to_tensor(v) for v in values]
        for x in xs:
            if not TensorShape(x.shape).is_fully_defined():
                raise ValueError(f"parallel_stack: the shape of {label(x)} must be fully defined, got "
                                 f"{TensorShape(x.shape)}.")
        return stack(xs, axis=0, name="ParallelConcat")



def _ensure_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (shape, dtype), = specs
    return [(TensorShape(shape).merge_with(attrs["shape"]), dtype)]



@register_op("EnsureShape", infer=_ensure_infer, default_name="EnsureShape")
def _ensure_shape(x: Any, *, shape: TensorShape) -> Any:
    if not TensorShape(list(x.shape)).is_compatible_with(shape):
        raise errors.InvalidArgumentError(
            None, None, f"Shape of tensor {list(x.shape)} is not compatible with expected shape {shape}.")
    return x



def ensure_shape(x: Any, shape: Any, name: str | None = None) -> Any:
    """``x``, its static shape narrowed to ``shape``, as ``tf.ensure_shape``.

    Raises:
      ValueError: ``x``'s static shape is incompatible with ``shape`` (at build time).
      InvalidArgumentError: the fed shape is incompatible (at run time; nothing runs).
    """
    t = convert_to_tensor(x, name="x")
    want = TensorShape(shape)
    if not TensorShape(t.shape).is_compatible_with(want):
        raise ValueError(f"Shapes {want} and {TensorShape(t.shape)} are incompatible: ensure_shape of {label(t)}.")
    return apply_op("EnsureShape", (t,), {"shape": want}, name=name)



def broadcast_static_shape(shape_x: Any, shape_y: Any) -> TensorShape:
    """The broadcast of two static shapes, as ``tf.broadcast_static_shape``.

    Raises:
      ValueError: the shapes are incompatible (TF's message).
    """
    x, y = TensorShape(shape_x), TensorShape(shape_y)
    if x.dims is None or y.dims is None:
        return TensorShape(None)
    a: list[int | None] = list(x.as_list())
    b: list[int | None] = list(y.as_list())
    n = max(len(a), len(b))
    one: list[int | None] = [1]
    a, b = one * (n - len(a)) + a, one * (n - len(b)) + b
    out: list[int | None] = []
    for p, q in zip(a, b, strict=True):
        if p == 1:
            out.append(q)
        elif q == 1:
            out.append(p)
        elif p is None or q is None:
            out.append(p if q is None else q)
        elif p == q:
            out.append(p)
        else:
            raise ValueError(f"Incompatible shapes for broadcasting. Two shapes are compatible if for each "
                             f"dimension pair they are either equal or one of them is 1. Received: {x} and {y}.")
    return TensorShape(out)



@register_op("BroadcastArgs", default_name="BroadcastArgs")
def _broadcast_args(s0: Any, s1: Any) -> Any:
    n = max(s0.shape[0], s1.shape[0])
    a = jnp.concatenate([jnp.ones((n - s0.shape[0],), s0.dtype), s0])
    b = jnp.concatenate([jnp.ones((n - s1.shape[0],), s1.dtype), s1])
    return jnp.where(a == 1, b, a)



def broadcast_dynamic_shape(shape_x: Any, shape_y: Any) -> Any:
    """The broadcast of two 1-D shape tensors (int32/int64), as ``tf.broadcast_dynamic_shape``.

    Incompatible shapes known at build time raise ``ValueError``; at run time
    the result takes the non-1 entry of ``shape_x`` (TF raises
    ``InvalidArgumentError``).
    """
    x = convert_to_tensor(shape_x, name="shape_x")
    y = convert_to_tensor(shape_y, dtype=tensor_dtype(x), name="shape_y")
    for t in (x, y):
        ts = TensorShape(t.shape)
        if ts.dims is None or len(ts.dims) != 1 or ts.as_list()[0] is None:
            raise ValueError(f"broadcast_dynamic_shape: {label(t)} must be a 1-D tensor of known length, got "
                             f"shape {ts}.")
    vx, vy = constant_value(x), constant_value(y)
    if vx is not None and vy is not None:
        broadcast_static_shape(vx.tolist(), vy.tolist())
    return apply_op("BroadcastArgs", (x, y))



def histogram_fixed_width_bins(values: Any, value_range: Any, nbins: Any = 100, dtype: Any = _dtypes.int32,
                               name: str | None = None) -> Any:
    """The bin index of each of ``values`` among ``nbins`` equal bins over ``value_range``
    ``[lo, hi]``; values outside go to the first or last bin, as ``tf.histogram_fixed_width_bins``.

    Returns:
      int32 of ``values``' shape: TF 2.21 casts to int32 whatever ``dtype`` says, and so does jaxsess.
    """
    with op_scope(name, "histogram_fixed_width_bins", [values, value_range, nbins]):
        v = convert_to_tensor(values, name="values")
        v_shape = shape(v)
        v = reshape(v, [-1])
        rng = convert_to_tensor(value_range, dtype=tensor_dtype(v), name="value_range")
        n = static_int(nbins, "histogram_fixed_width_bins", "nbins")
        if n <= 0:
            raise ValueError(f"histogram_fixed_width_bins: nbins must be positive, got {n}.")
        nf = np.asarray(n, tensor_dtype(v).np_dtype)
        scaled = math_ops.truediv(v - rng[0], rng[1] - rng[0])
        idx = math_ops.floor(nf * scaled)
        idx = math_ops.clip_by_value(idx, 0, nf - 1)
        return reshape(math_ops.cast(idx, _dtypes.int32), v_shape)


def _dims(t: Any) -> list[int | None]:
    shape = t.shape.as_tuple() if isinstance(t, Tensor) else tuple(t.shape)
    if shape is None:
        raise ValueError(f"tensordot: {getattr(t, 'name', 'an input')} has unknown rank; jaxsess needs it.")
    return list(shape)
