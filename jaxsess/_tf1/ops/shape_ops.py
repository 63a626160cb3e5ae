"""Shape and layout ops, as ``tf.compat.v1``: shape, size, rank, reshape,
transpose, reverse, concat, stack, unstack, split, squeeze, expand_dims, tile,
pad, broadcast_to, slice.

Shape-like arguments are static attributes (see :mod:`jaxsess._tf1.ops._args`);
``reshape``, ``tile``, ``slice`` and ``broadcast_to`` also take one computed
from tensor shapes, as a ``Dynamic<Op>`` node (:mod:`jaxsess._core.graph._dynamic`).
"""

from __future__ import annotations

import math
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import (
    apply_op,
    convert_all,
    convert_to_tensor,
    dtype_of,
    executing_eagerly,
    pack,
)
from jaxsess._core.graph._dynamic import Deferred, first_dtype, register_dynamic, trace_computable
from jaxsess._core.graph._graph import Tensor, TensorShape
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._tf1.ops._args import (
    apply,
    as_pairs,
    as_vector,
    ints,
    partial_vector,
    shape_arg,
    single_int,
    static,
    static_int,
    static_ints,
)

__all__ = ["shape", "size", "rank", "reshape", "transpose", "reverse", "concat", "stack", "unstack", "split", "squeeze", "expand_dims", "tile", "pad", "broadcast_to", "slice"]

_builtin_range = range


# -- reshape --------------------------------------------------------------------


def _reshape_shape(in_shape: tuple[int | None, ...] | None, target: Any) -> TensorShape:
    """The static result of reshaping ``in_shape`` to ``target``.

    ``target`` holds ints, ``-1``, ``None`` (unknown) and ``("in", i)``
    (unknown, equal to input dimension ``i``): such matching unknown pairs
    cancel, so ``[tf.shape(x)[0], -1]`` on ``x: [None, 4, 4]`` gives
    ``[None, 16]``, as TF.

    Raises:
      ValueError: more than one ``-1``, a negative size, or an element count
        that cannot match (TF's messages).
    """
    if target is None:
        return TensorShape(None)
    in_dims: list[Any] | None = None if in_shape is None else list(in_shape)
    out: list[Any] = []
    for d in target:
        if isinstance(d, tuple):  # ("in", i)
            i = d[1]
            if in_dims is not None and i < len(in_dims) and in_dims[i] is None:
                in_dims[i] = "matched"
                out.append("matched")
            else:
                out.append(None)
        else:
            out.append(d)
    shown = "[" + ",".join("?" if d is None or d == "matched" else str(d) for d in out) + "]"
    if out.count(-1) > 1:
        raise ValueError(f"Cannot infer multiple unknown dimensions in shape {shown}.")
    if any(isinstance(d, int) and d < -1 for d in out):
        raise ValueError(f"Size of a reshape dimension must be >= -1, got shape {shown}.")
    n_in = None
    if in_dims is not None and None not in in_dims:
        n_in = math.prod(d for d in in_dims if d != "matched")
    rest = [d for d in out if d != "matched"]
    known = [d for d in rest if d is not None and d != -1]
    all_known = None not in rest
    result = [None if d == "matched" else d for d in out]
    shared = " besides the unknown dimensions they share" if "matched" in out else ""
    if -1 in rest:
        fill = None
        if n_in is not None and all_known:
            k = math.prod(known)
            if (k == 0 and n_in != 0) or (k != 0 and n_in % k):
                raise ValueError(
                    f"Cannot reshape a tensor with {n_in} elements{shared} to shape {shown} "
                    f"(the other dimensions hold {k} elements)."
                )
            fill = n_in // k if k else 0
        return TensorShape([fill if d == -1 else d for d in result])
    if n_in is not None and all_known and math.prod(known) != n_in:
        raise ValueError(
            f"Cannot reshape a tensor with {n_in} elements{shared} to shape {shown} "
            f"({math.prod(known)} elements)."
        )
    return TensorShape(result)


def _reshape_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (shape, dtype), = specs
    return [(_reshape_shape(shape, attrs["shape"]), dtype)]


def _reshape_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    return {}, [np.asarray(a["shape"], np.int32).reshape(-1)]


@register_op("Reshape", infer=_reshape_infer, default_name="Reshape", tf=TFOp(
    types={"T": 0, "Tshape": 1}, to_tf=_reshape_to_tf, from_tf=lambda a, c: {"shape": as_vector(c[0])}, n_const=1))
def _reshape(x: Any, *, shape: tuple[int, ...]) -> Any:
    return jnp.reshape(x, shape)


register_dynamic("Reshape", lambda shapes, a: _reshape_shape(shapes[0], a["shape"]), first_dtype)


def reshape(tensor: Any, shape: Any, name: str | None = None) -> Any:
    """``tensor`` with the same elements in a new shape, as ``tf.reshape``.

    Args:
      tensor: any tensor.
      shape: 1-D ints; one entry may be ``-1`` (inferred from the element
        count). A list, a constant tensor, or a tensor computed from shapes
        (``[tf.shape(x)[0], -1]``).

    Returns:
      A tensor of ``tensor``'s dtype and shape ``shape``.

    Raises:
      ValueError: the element counts cannot match, or ``shape`` depends on
        fed data (the message names the node or the argument).
    """
    x = convert_to_tensor(tensor)
    ref = x if isinstance(x, Tensor) else None
    return apply("Reshape", (x,), {"shape": shape_arg(shape, "reshape", "shape", ref=ref)}, name)


# -- transpose, reverse ------------------------------------------------------------


def _transpose_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    perm = a["perm"]
    if perm is None:
        rank = specs[0][0].ndims
        if rank is None:
            raise ValueError("the default permutation of a tensor of unknown rank")
        perm = tuple(reversed(_builtin_range(rank)))
    if a.get("conjugate"):
        raise ValueError("a conjugate transpose")
    return {}, [np.asarray(perm, np.int32)]


@register_op("Transpose", default_name="transpose", tf=TFOp(
    types={"T": 0, "Tperm": 1}, to_tf=_transpose_to_tf,
    from_tf=lambda a, c: {"perm": as_vector(c[0]), "conjugate": False}, n_const=1))
def _transpose(x: Any, *, perm: tuple[int, ...] | None, conjugate: bool = False) -> Any:
    out = jnp.transpose(x, perm)
    return jnp.conj(out) if conjugate and jnp.iscomplexobj(out) else out


def transpose(a: Any, perm: Any = None, name: str = "transpose", conjugate: bool = False) -> Any:
    """``a`` with its dimensions permuted by ``perm``, as ``tf.transpose``.

    Args:
      perm: a permutation of ``range(rank)``; default reverses the dimensions
        (``rank - 1 ... 0``).
      conjugate: also conjugate complex values.

    Raises:
      ValueError: ``perm`` is not a permutation of the dimensions.
    """
    x = convert_to_tensor(a)
    p = None if perm is None else static_ints(perm, "transpose", "perm")
    if p is not None and sorted(p) != list(_builtin_range(len(p))):
        raise ValueError(f"transpose: perm {list(p)} is not a permutation of 0..{len(p) - 1}.")
    return apply_op("Transpose", (x,), {"perm": p, "conjugate": bool(conjugate)}, name=name)


@register_op("ReverseV2", default_name="ReverseV2", tf=TFOp(
    types={"T": 0, "Tidx": 1}, to_tf=lambda a, s: ({}, [np.asarray(a["axis"], np.int32)]),
    from_tf=lambda a, c: {"axis": as_vector(c[0])}, n_const=1))
def _reverse(x: Any, *, axis: tuple[int, ...]) -> Any:
    return jnp.flip(x, axis) if axis else x


def reverse(tensor: Any, axis: Any, name: str | None = None) -> Any:
    """``tensor`` with the dimensions in ``axis`` (a list of ints) reversed, as ``tf.reverse``."""
    x = convert_to_tensor(tensor)
    return apply_op("ReverseV2", (x,), {"axis": static_ints(axis, "reverse", "axis")}, name=name)


# -- concat, stack, unstack, split ---------------------------------------------------


@register_op("ConcatV2", default_name="concat", tf=TFOp(
    to_tf=lambda a, s: ({"N": len(s), "Tidx": _dtypes.int32}, [np.asarray(a["axis"], np.int32)]),
    from_tf=lambda a, c: {"axis": int(c[0])}, n_const=1))
def _concat(*xs: Any, axis: int) -> Any:
    return jnp.concatenate(xs, axis=axis)


def concat(values: Any, axis: Any, name: str = "concat") -> Any:
    """``values`` joined along ``axis``, as ``tf.concat``.

    Args:
      values: a list of tensors of one dtype and rank, equal in all
        dimensions but ``axis``. A single tensor is returned through an
        ``Identity`` op.
      axis: an int (negative counts from the end) or a constant tensor.

    Raises:
      ValueError: the shapes do not fit (names the node).
      TypeError: the dtypes differ.
    """
    if not isinstance(values, list | tuple):
        values = [values]
    xs = convert_all(values, "concat")
    ax = static_int(axis, "concat", "axis")
    if len(xs) == 1:
        return apply_op("Identity", (xs[0],), name=name)
    return apply_op("ConcatV2", xs, {"axis": ax}, name=name)


def stack(values: Any, axis: int = 0, name: str = "stack") -> Any:
    """Same-shape tensors stacked along a new dimension ``axis``, as ``tf.stack``.

    Python scalars in ``values`` take the dtype of the tensors among them.

    Raises:
      ValueError: the shapes differ, or ``axis`` is out of range.
      TypeError: the dtypes differ.
    """
    xs = convert_all(list(values), "stack")
    return pack(xs, static_int(axis, "stack", "axis"), name=name)


def _unpack_outputs(attrs: dict[str, Any]) -> int:
    return attrs["num"]


@register_op("Unpack", num_outputs=_unpack_outputs, default_name="unstack")
def _unstack(x: Any, *, num: int, axis: int) -> Any:
    moved = jnp.moveaxis(x, axis, 0)
    if moved.shape[0] != num:
        raise ValueError(f"Dimension {axis} has size {moved.shape[0]}, not num={num}.")
    parts = tuple(moved[i] for i in _builtin_range(num))
    return parts[0] if num == 1 else parts


def unstack(value: Any, num: int | None = None, axis: int = 0, name: str = "unstack") -> list[Any]:
    """The slices of ``value`` along ``axis``, as ``tf.unstack``.

    Args:
      num: the size of dimension ``axis``; inferred from the static shape
        when ``None``.

    Returns:
      A list of ``num`` tensors of rank ``rank(value) - 1``.

    Raises:
      ValueError: ``num`` is ``None`` and the dimension is unknown.
    """
    x = convert_to_tensor(value)
    ax = static_int(axis, "unstack", "axis")
    if num is None:
        shape = tuple(x.shape) if isinstance(x, jax.Array) else x.shape.as_tuple()
        if shape is None or not -len(shape) <= ax < len(shape) or shape[ax] is None:
            raise ValueError(f"Cannot infer argument `num` from shape {TensorShape(shape)} (axis {ax}).")
        num = shape[ax]
    if num == 0:
        return []
    out = apply_op("Unpack", (x,), {"num": int(num), "axis": ax}, name=name)
    return out if isinstance(out, list) else [out]


def _split_outputs(attrs: dict[str, Any]) -> int:
    return attrs["num"]


@register_op("SplitV", num_outputs=_split_outputs, default_name="split")
def _split(x: Any, *, num: int, sizes: tuple[int, ...] | None, axis: int) -> Any:
    d = x.shape[axis]
    if sizes is None:
        if isinstance(d, int) and d % num:
            raise ValueError(
                f"Number of ways to split should evenly divide the split dimension, but got "
                f"split_dim {axis} (size = {d}) and num_split {num}."
            )
        step = d // num
        bounds = [(i * step, (i + 1) * step) for i in _builtin_range(num)]
    else:
        if -1 in sizes:
            rest = d - sum(s for s in sizes if s != -1)
            sizes = tuple(rest if s == -1 else s for s in sizes)
        if isinstance(d, int) and sum(sizes) != d:
            raise ValueError(
                f"Determined shape must either match input shape along split_dim exactly if fully "
                f"specified, or be less than the size of the input along split_dim if not fully "
                f"specified. Got: {sum(sizes)} vs. {d} (sizes {list(sizes)})."
            )
        bounds, start = [], 0
        for s in sizes:
            bounds.append((start, start + s))
            start = start + s
    if all(isinstance(n, int) for n in x.shape):
        # lax.split, not slices: its gradient is one concatenate (slices' is a sum of pads).
        parts = tuple(jax.lax.split(x, [hi - lo for lo, hi in bounds], axis=axis))
    else:  # symbolic dims while inferring shapes
        parts = tuple(jax.lax.slice_in_dim(x, lo, hi, axis=axis) for lo, hi in bounds)
    return parts[0] if num == 1 else parts


def split(value: Any, num_or_size_splits: Any, axis: Any = 0, num: int | None = None,
          name: str = "split") -> list[Any]:
    """``value`` cut along ``axis``, as ``tf.split``.

    Args:
      num_or_size_splits: an int ``n`` (``n`` equal parts; must divide the
        dimension) or a list of sizes summing to the dimension (one may be
        ``-1``: the rest).
      axis: an int or a constant tensor.

    Returns:
      A list of tensors.

    Raises:
      ValueError: the sizes do not fit the dimension (names the node).
    """
    x = convert_to_tensor(value)
    ax = static_int(axis, "split", "axis")
    val = static(num_or_size_splits, "split", "num_or_size_splits")
    attrs: dict[str, Any]
    if val.ndim == 0:
        n = single_int(val, "split", "num_or_size_splits")
        if n <= 0:
            raise ValueError(f"split: num_or_size_splits must be positive, got {n}.")
        attrs = {"num": n, "sizes": None, "axis": ax}
    else:
        sizes = ints(val, "split", "num_or_size_splits")
        if sum(s == -1 for s in sizes) > 1:
            raise ValueError(f"split: at most one size may be -1, got {list(sizes)}.")
        attrs = {"num": len(sizes), "sizes": sizes, "axis": ax}
    out = apply_op("SplitV", (x,), attrs, name=name)
    return out if isinstance(out, list) else [out]


# -- squeeze, expand_dims ---------------------------------------------------------


def _squeeze_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (shape, dtype), = specs
    axis = attrs["axis"]
    if shape is None or (axis is None and None in shape):
        return [(TensorShape(None), dtype)]
    r = len(shape)
    if axis is None:
        return [(TensorShape([d for d in shape if d != 1]), dtype)]
    drop = set()
    for a in axis:
        if not -r <= a < r:
            raise ValueError(f"Tried to squeeze dim index {a} for tensor with {r} dimensions.")
        a %= r
        if shape[a] not in (None, 1):
            raise ValueError(f"Can not squeeze dim[{a}], expected a dimension of 1, got {shape[a]}.")
        drop.add(a)
    return [(TensorShape([d for i, d in enumerate(shape) if i not in drop]), dtype)]


@register_op("Squeeze", infer=_squeeze_infer, default_name="Squeeze", tf=TFOp(
    to_tf=lambda a, s: ({"squeeze_dims": list(a["axis"] or ())}, []),
    from_tf=lambda a, c: {"axis": tuple(a.get("squeeze_dims", ())) or None}))
def _squeeze(x: Any, *, axis: tuple[int, ...] | None) -> Any:
    if axis is None:
        axis = tuple(i for i, d in enumerate(x.shape) if d == 1)
    return jnp.squeeze(x, axis)


def squeeze(input: Any, axis: Any = None, name: str | None = None, squeeze_dims: Any = None) -> Any:
    """``input`` without size-1 dimensions, as ``tf.compat.v1.squeeze``.

    Args:
      axis: the dimensions to remove (each must have size 1); all size-1
        dimensions when ``None`` (the result shape is then unknown at build
        time if any dimension is).

    Raises:
      ValueError: a listed dimension does not have size 1.
    """
    if axis is None:
        axis = squeeze_dims
    x = convert_to_tensor(input)
    ax = None if axis is None else static_ints(axis, "squeeze", "axis")
    return apply_op("Squeeze", (x,), {"axis": ax}, name=name)


@register_op("ExpandDims", default_name="ExpandDims", tf=TFOp(
    types={"T": 0, "Tdim": 1}, to_tf=lambda a, s: ({}, [np.asarray(a["axis"], np.int32)]),
    from_tf=lambda a, c: {"axis": int(c[0])}, n_const=1))
def _expand_dims(x: Any, *, axis: int) -> Any:
    return jnp.expand_dims(x, axis)


def expand_dims(input: Any, axis: Any = None, name: str | None = None, dim: Any = None) -> Any:
    """``input`` with a size-1 dimension inserted at ``axis``, as ``tf.compat.v1.expand_dims``.

    Args:
      axis: in ``[-rank - 1, rank]``.

    Raises:
      ValueError: ``axis`` missing or out of range.
    """
    if axis is None:
        axis = dim
    if axis is None:
        raise ValueError("expand_dims: Must specify an axis argument.")
    x = convert_to_tensor(input)
    return apply_op("ExpandDims", (x,), {"axis": static_int(axis, "expand_dims", "axis")}, name=name)


# -- tile, pad, broadcast_to ----------------------------------------------------------


@register_op("Tile", default_name="Tile", tf=TFOp(
    types={"T": 0, "Tmultiples": 1}, to_tf=lambda a, s: ({}, [np.asarray(a["multiples"], np.int32)]),
    from_tf=lambda a, c: {"multiples": as_vector(c[0])}, n_const=1))
def _tile(x: Any, *, multiples: tuple[int, ...]) -> Any:
    if len(multiples) != x.ndim:
        raise ValueError(
            f"Expected multiples argument to be a vector of length {x.ndim} but got length {len(multiples)}."
        )
    return jnp.tile(x, multiples)


def _tile_shape(shapes: Any, attrs: dict[str, Any]) -> TensorShape:
    shape, mult = shapes[0], attrs["multiples"]
    if mult is None:
        return TensorShape(None if shape is None else [None] * len(shape))
    if shape is None:
        return TensorShape([None] * len(mult))
    return TensorShape([None if d is None or m is None else d * m for d, m in zip(shape, mult, strict=False)])


register_dynamic("Tile", _tile_shape, first_dtype)


def tile(input: Any, multiples: Any, name: str | None = None) -> Any:
    """``input`` repeated ``multiples[i]`` times along dimension ``i``, as ``tf.tile``.

    Raises:
      ValueError: ``len(multiples)`` differs from the rank.
    """
    x = convert_to_tensor(input)
    return apply("Tile", (x,), {"multiples": shape_arg(multiples, "tile", "multiples")}, name)


# TF: PadV2(input, paddings, constant_values), MirrorPad(input, paddings) with mode
@register_op("PadV2", default_name="Pad", tf=TFOp(
    types={"T": 0, "Tpaddings": 1}, to_tf=lambda a, s: ({}, [np.asarray(a["paddings"], np.int32).reshape(-1, 2)]),
    from_tf=lambda a, c: {"paddings": as_pairs(c[0])}, n_const=1, const_pos=1))
def _pad(x: Any, value: Any, *, paddings: tuple[tuple[int, int], ...]) -> Any:
    if len(paddings) != x.ndim:
        raise ValueError(f"The first dimension of paddings must be the rank of inputs ({x.ndim}), got {len(paddings)}.")
    return jax.lax.pad(x, value.astype(x.dtype), [(lo, hi, 0) for lo, hi in paddings])


@register_op("MirrorPad", default_name="MirrorPad", tf=TFOp(
    types={"T": 0, "Tpaddings": 1},
    to_tf=lambda a, s: ({"mode": a["mode"]}, [np.asarray(a["paddings"], np.int32).reshape(-1, 2)]),
    from_tf=lambda a, c: {"paddings": as_pairs(c[0]), "mode": a["mode"]}, n_const=1))
def _mirror_pad(x: Any, *, paddings: tuple[tuple[int, int], ...], mode: str) -> Any:
    if len(paddings) != x.ndim:
        raise ValueError(f"The first dimension of paddings must be the rank of inputs ({x.ndim}), got {len(paddings)}.")
    limit = 0 if mode == "REFLECT" else 1
    for i, ((lo, hi), d) in enumerate(zip(paddings, x.shape, strict=True)):
        if isinstance(d, int) and max(lo, hi) > d - 1 + limit:
            raise ValueError(
                f"paddings must be no greater than the dimension size: {lo}, {hi} greater than "
                f"{d - 1 + limit} (dimension {i}, mode {mode})."
            )
    return jnp.pad(x, paddings, mode=mode.lower())


def pad(tensor: Any, paddings: Any, mode: str = "CONSTANT", name: str | None = None,
        constant_values: Any = 0) -> Any:
    """``tensor`` padded by ``paddings``, as ``tf.pad``.

    Args:
      paddings: ``[rank, 2]`` non-negative ints: ``paddings[i] = [before, after]``.
      mode: ``'CONSTANT'`` (fill with ``constant_values``), ``'REFLECT'``
        (mirror without the edge; each padding < the dimension) or
        ``'SYMMETRIC'`` (mirror with the edge; padding <= the dimension),
        case-insensitive.
      constant_values: a scalar of ``tensor``'s dtype (CONSTANT mode).

    Raises:
      ValueError: a bad mode, negative or too large paddings, or a
        ``paddings`` of the wrong shape.
    """
    x = convert_to_tensor(tensor)
    pads: Any
    try:
        val = static(paddings, "pad", "paddings")
    except ValueError:
        # paddings computed from shapes ([[0, max_len - tf.shape(x)[0]], [0, 0]]): known when the run
        # is traced (``DynamicPadV2``); anything else (fed or variable values) cannot be.
        t = convert_to_tensor(paddings, dtype=_dtypes.int32)
        if executing_eagerly() or not trace_computable(t, {}):
            raise
        if t.shape.ndims != 2 or t.shape[1] not in (2, None):
            raise ValueError(f"pad: paddings must be a matrix of shape [rank, 2], got shape {t.shape}.") from None
        pads = Deferred(t, as_pairs, _partial_pairs(t))
    else:
        if val.ndim != 2 or val.shape[1] != 2:
            raise ValueError(f"pad: paddings must be a matrix of shape [rank, 2], got shape {list(val.shape)}.")
        pads = as_pairs(np.asarray(ints(val, "pad", "paddings")))
        if any(p < 0 for pair in pads for p in pair):
            raise ValueError(f"pad: paddings must be non-negative, got {[list(p) for p in pads]}.")
    m = str(mode).upper()
    if m == "CONSTANT":
        cv = convert_to_tensor(constant_values, dtype=dtype_of(x))
        return apply("PadV2", (x, cv), {"paddings": pads}, name)
    if m not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"pad: mode must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC', got {mode!r}.")
    return apply("MirrorPad", (x,), {"paddings": pads, "mode": m}, name)


def _partial_pairs(t: Tensor) -> tuple[tuple[int | None, int | None], ...] | None:
    """What the build time knows of a paddings matrix packed from rows of scalars."""
    if t.op.type != "Pack":
        return None
    rows = [partial_vector(r) for r in t.op.inputs]
    if any(r is None or len(r) != 2 for r in rows):
        return None
    return tuple((r[0], r[1]) for r in rows if r is not None)


def _pad_shape(shapes: Any, attrs: dict[str, Any]) -> TensorShape:
    """A pad's shape when its paddings are known only at trace time: the input's rank, and each
    dimension whose size and paddings the build time knows."""
    if shapes[0] is None:
        return TensorShape(None)
    pairs = attrs["paddings"] or ((None, None),) * len(shapes[0])
    return TensorShape([None if d is None or lo is None or hi is None else d + lo + hi
                        for d, (lo, hi) in zip(shapes[0], pairs, strict=False)])


register_dynamic("PadV2", _pad_shape, first_dtype)
register_dynamic("MirrorPad", _pad_shape, first_dtype)


def _broadcast_shape(in_shape: tuple[int | None, ...] | None, target: Any) -> TensorShape:
    """``target`` (ints or ``None``), checked against ``in_shape`` by NumPy's rules.

    Raises:
      ValueError: a known input dimension is neither 1 nor the target's.
    """
    if target is None:
        return TensorShape(None)
    if in_shape is not None:
        if len(in_shape) > len(target):
            raise ValueError(f"Cannot broadcast a tensor of rank {len(in_shape)} to shape {list(target)}.")
        for d, t in zip(reversed(in_shape), reversed(target), strict=False):
            if d is not None and t is not None and d not in (1, t):
                raise ValueError(
                    f"Incompatible shapes for broadcasting: {TensorShape(in_shape)} and {TensorShape(target)}."
                )
    return TensorShape(target)


def _broadcast_to_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (shape, dtype), = specs
    return [(_broadcast_shape(shape, attrs["shape"]), dtype)]


@register_op("BroadcastTo", infer=_broadcast_to_infer, default_name="BroadcastTo")
def _broadcast_to(x: Any, *, shape: tuple[int, ...]) -> Any:
    return jnp.broadcast_to(x, shape)


register_dynamic("BroadcastTo", lambda shapes, a: _broadcast_shape(shapes[0], a["shape"]), first_dtype)


def broadcast_to(input: Any, shape: Any, name: str | None = None) -> Any:
    """``input`` broadcast (NumPy rules) to ``shape``, as ``tf.broadcast_to``.

    Raises:
      ValueError: the shapes are not broadcast-compatible.
    """
    x = convert_to_tensor(input)
    return apply("BroadcastTo", (x,), {"shape": shape_arg(shape, "broadcast_to", "shape")}, name)


# -- shape, size, rank ----------------------------------------------------------------


def _shape_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (shape, _), = specs
    return [(TensorShape([None if shape is None else len(shape)]), attrs["out_type"])]


@register_op("Shape", infer=_shape_infer, default_name="Shape")
def _shape(x: Any, *, out_type: _dtypes.DType) -> Any:
    return jnp.array(x.shape, dtype=out_type.np_dtype)


def _scalar_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(TensorShape([]), attrs.get("out_type", _dtypes.int32))]


@register_op("Size", infer=_scalar_infer, default_name="Size")
def _size(x: Any, *, out_type: _dtypes.DType) -> Any:
    return jnp.asarray(math.prod(x.shape), dtype=out_type.np_dtype)


@register_op("Rank", infer=_scalar_infer, default_name="Rank")
def _rank(x: Any) -> Any:
    return jnp.asarray(x.ndim, dtype=jnp.int32)


def shape(input: Any, name: str | None = None, out_type: Any = _dtypes.int32) -> Any:
    """The shape of ``input`` as a 1-D int tensor, as ``tf.shape``.

    Known at build time (constant-folded) when ``input``'s shape is fully
    defined; otherwise computed when the run is traced, so dimensions that
    are ``None`` at build time are available at run time.
    """
    x = convert_to_tensor(input)
    return apply_op("Shape", (x,), {"out_type": _dtypes.canonical(out_type)}, name=name)


def size(input: Any, name: str | None = None, out_type: Any = _dtypes.int32) -> Any:
    """The number of elements of ``input`` (a scalar), as ``tf.size``."""
    x = convert_to_tensor(input)
    return apply_op("Size", (x,), {"out_type": _dtypes.canonical(out_type)}, name=name)


def rank(input: Any, name: str | None = None) -> Any:
    """The number of dimensions of ``input`` (an int32 scalar), as ``tf.rank``."""
    return apply_op("Rank", (convert_to_tensor(input),), name=name)


# -- slice ------------------------------------------------------------------------------


@register_op("Slice", default_name="Slice", tf=TFOp(
    types={"T": 0, "Index": 1},
    to_tf=lambda a, s: ({}, [np.asarray(a["begin"], np.int32), np.asarray(a["size"], np.int32)]),
    from_tf=lambda a, c: {"begin": as_vector(c[0]), "size": as_vector(c[1])}, n_const=2))
def _slice(x: Any, *, begin: tuple[int, ...], size: tuple[int, ...]) -> Any:
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise ValueError(
            f"Expected begin and size arguments to be 1-D tensors of size {x.ndim}, but got "
            f"shapes [{len(begin)}] and [{len(size)}] instead."
        )
    limits = tuple(d if s == -1 else b + s for b, s, d in zip(begin, size, x.shape, strict=True))
    return jax.lax.slice(x, begin, limits)


def _slice_shape(shapes: Any, attrs: dict[str, Any]) -> TensorShape:
    begin, size_ = attrs["begin"], attrs["size"]
    if size_ is None:
        return TensorShape(None if shapes[0] is None else [None] * len(shapes[0]))
    dims = shapes[0] or (None,) * len(size_)
    begin = begin or (None,) * len(size_)
    out = []
    for b, s, d in zip(begin, size_, dims, strict=False):
        if s is not None and s != -1:
            out.append(s)
        elif s == -1 and b is not None and d is not None:
            out.append(d - b)
        else:
            out.append(None)
    return TensorShape(out)


register_dynamic("Slice", _slice_shape, first_dtype)


def slice(input_: Any, begin: Any, size: Any, name: str | None = None) -> Any:  # noqa: A001
    """The block of ``input_`` starting at ``begin`` with extent ``size``, as ``tf.slice``.

    Args:
      begin: 1-D ints, one per dimension.
      size: 1-D ints; ``-1`` takes the rest of the dimension.

    Raises:
      ValueError: the block leaves the tensor (names the node), or the
        lengths differ from the rank.
    """
    x = convert_to_tensor(input_)
    s = shape_arg(size, "slice", "size")
    try:
        b = shape_arg(begin, "slice", "begin")
    except ValueError:
        # begin computed at run time (a fed or random offset): XLA's dynamic_slice, whose
        # block size must be static
        if not isinstance(s, tuple) or any(v < 0 for v in s):
            raise ValueError(
                f"slice: a 'begin' computed at run time ({begin!r:.60}) needs a 'size' of non-negative "
                f"ints known when the graph is built, got {size!r:.60}."
            ) from None
        return apply_op("SliceDynamicBegin", (x, convert_to_tensor(begin)), {"size": s}, name=name)
    return apply("Slice", (x,), {"begin": b, "size": s}, name)


@register_op("SliceDynamicBegin", default_name="Slice", tf=TFOp(
    op="Slice", types={"T": 0, "Index": 1},
    to_tf=lambda a, s: ({}, [np.asarray(a["size"], np.int32)]),
    from_tf=lambda a, c: {"size": as_vector(c[0])}, n_const=1))
def _slice_dynamic_begin(x: Any, begin: Any, *, size: tuple[int, ...]) -> Any:
    """``tf.slice`` with a run-time ``begin``: ``lax.dynamic_slice``, which clamps
    the block into the tensor where TF raises ``InvalidArgumentError``."""
    if len(size) != x.ndim or begin.shape != (x.ndim,):
        raise ValueError(
            f"Expected begin and size arguments to be 1-D tensors of size {x.ndim}, but got "
            f"shapes {list(begin.shape)} and [{len(size)}] instead."
        )
    return jax.lax.dynamic_slice(x, [begin[i] for i in range(x.ndim)], size)
