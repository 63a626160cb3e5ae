"""TF's shape, slicing, joining, gathering and scattering ops, as TF's
``OpDef``\\ s list them: ``Reshape(tensor, shape)``, ``Transpose(x, perm)``,
``ConcatV2(values..., axis)``, ``StridedSlice(input, begin, end, strides)``
with its five masks, ``Split(axis, value)``, ``Range(start, limit, delta)``...

Inputs that fix output shapes (shapes, perms, axes, paddings, sizes) are
``static_inputs``: host values the import engine resolves by constant
folding. Ops whose outputs are shapes (``Shape``, ``Size``, ``Rank``,
``BroadcastGradientArgs``) give NumPy values, so what they feed folds too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._tf1.tf_opset._common import axes, host_int, host_ints, impl, lowering, node_error, np_dtype

__all__: list[str] = []


def _shape(x: Any) -> tuple[Any, ...]:
    """``x``'s shape: ints, or JAX's symbolic dimensions when the import engine infers shapes for
    an unknown batch size."""
    return tuple(int(d) if isinstance(d, int | np.integer) else d for d in np.shape(x))


def _static(shape: tuple[Any, ...]) -> bool:
    return all(isinstance(d, int) for d in shape)


def _shape_value(shape: tuple[Any, ...], dtype: Any) -> Any:
    """A shape as a value: NumPy when static (it folds), else a JAX array of symbolic dimensions."""
    if _static(shape):
        return np.asarray(shape, dtype)
    return jnp.array(shape, dtype)


@lowering("Reshape", static_inputs=(1,))
def _reshape(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x, shape = inputs[0], host_ints(ctx, inputs[1], "shape")
    if not _static(_shape(x)):
        return jnp.reshape(x, shape)
    n = int(np.prod(_shape(x)))
    known = int(np.prod([d for d in shape if d != -1]))
    if shape.count(-1) > 1 or (-1 not in shape and known != n) or (-1 in shape and (known == 0 or n % known)):
        raise node_error(ctx, f"cannot reshape a tensor of shape {list(_shape(x))} ({n} elements) "
                              f"into shape {list(shape)}")
    return jnp.reshape(x, shape)


@lowering("Transpose", static_inputs=(1,))
def _transpose(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x = inputs[0]
    perm = host_ints(ctx, inputs[1], "perm")
    if sorted(a % max(x.ndim, 1) for a in perm) != list(range(np.ndim(x))):
        raise node_error(ctx, f"perm {list(perm)} is not a permutation of the {np.ndim(x)} dimensions")
    return jnp.transpose(x, perm)


@lowering("ConjugateTranspose", static_inputs=(1,))
def _conj_transpose(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return jnp.conj(_transpose(ctx, inputs, attrs))


def _concat_spec(shapes: Sequence[Any], attrs: Mapping[str, Any], statics: Mapping[int, Any]) -> Any:
    """``TFLowering.spec`` of ``ConcatV2``: fully known inputs of one rank that agree off ``axis``."""
    *xs, _ = shapes
    axis = statics[len(shapes) - 1]
    if not xs or any(x is None or None in x or len(x) != len(xs[0]) for x in xs) or np.ndim(axis) != 0:
        return None
    r = len(xs[0])
    a = int(axis)
    if not -r <= a < r:
        return None
    a %= r
    if any(x[:a] + x[a + 1:] != xs[0][:a] + xs[0][a + 1:] for x in xs):
        return None
    return [xs[0][:a] + (sum(x[a] for x in xs),) + xs[0][a + 1:]]


@lowering("ConcatV2", static_inputs=(-1,), spec=_concat_spec)
def _concat_v2(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    *xs, axis = inputs
    return jnp.concatenate(xs, axis=axes(ctx, axis, np.ndim(xs[0]))[0])


@lowering("ConcatOffset", static_inputs=(0,), multi=True)
def _concat_offset(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """Where each input starts in the concatenation (what ``ConcatV2``'s gradient slices)."""
    dim, *shapes = inputs
    a = axes(ctx, dim, int(np.shape(shapes[0])[0]))[0]
    host = all(isinstance(s, np.ndarray) for s in shapes)
    xp: Any = np if host else jnp
    out, at = [], xp.zeros((), xp.asarray(shapes[0]).dtype)
    for s in shapes:
        s = xp.asarray(s)
        out.append(xp.where(xp.arange(s.shape[0]) == a, at, xp.zeros_like(s)).astype(s.dtype))
        at = at + s[a]
    return tuple(out)


@lowering("ListDiff", static_inputs=(0, 1), multi=True)
def _list_diff(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """The values of ``x`` not in ``y`` and their indices, in ``x``'s order."""
    x, y = np.asarray(inputs[0]), np.asarray(inputs[1])
    keep = ~np.isin(x, y)
    return x[keep], np.nonzero(keep)[0].astype(np_dtype(attrs["out_idx"]))


@lowering("Concat", static_inputs=(0,))
def _concat(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    axis, *xs = inputs
    return jnp.concatenate(xs, axis=axes(ctx, axis, np.ndim(xs[0]))[0])


@lowering("Pack")
def _pack(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return jnp.stack(inputs, axis=attrs["axis"])


@lowering("Unpack", multi=True)
def _unpack(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("Unpack")(inputs[0], num=attrs["num"], axis=attrs["axis"])


@lowering("Split", static_inputs=(0,), multi=True)
def _split(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    axis, x = inputs
    a = axes(ctx, axis, np.ndim(x))[0]
    n = attrs["num_split"]
    if _shape(x)[a] % n:
        raise node_error(ctx, f"dimension {a} of size {_shape(x)[a]} does not split into {n} equal parts")
    return tuple(jnp.split(x, n, axis=a))


@lowering("SplitV", static_inputs=(1, 2), multi=True)
def _split_v(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x, sizes_in, axis = inputs
    a = axes(ctx, axis, np.ndim(x))[0]
    sizes = list(host_ints(ctx, sizes_in, "size_splits"))
    dim = _shape(x)[a]
    if sizes.count(-1) == 1:
        sizes[sizes.index(-1)] = dim - (sum(sizes) + 1)
    if sum(sizes) != dim or any(s < 0 for s in sizes) or len(sizes) != attrs["num_split"]:
        raise node_error(ctx, f"size_splits {list(host_ints(ctx, sizes_in, 'size_splits'))} do not split "
                              f"dimension {a} of size {dim} into {attrs['num_split']} parts")
    return tuple(jnp.split(x, np.cumsum(sizes)[:-1].tolist(), axis=a))


@lowering("Slice", static_inputs=(1, 2))
def _slice(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x = inputs[0]
    begin, size = host_ints(ctx, inputs[1], "begin"), host_ints(ctx, inputs[2], "size")
    shape = _shape(x)
    if len(begin) != len(shape) or len(size) != len(shape):
        raise node_error(ctx, f"begin {list(begin)} and size {list(size)} must have one entry per dimension "
                              f"of a tensor of shape {list(shape)}")
    size = tuple(d - b if s == -1 else s for b, s, d in zip(begin, size, shape, strict=True))
    if any(b < 0 or s < 0 or b + s > d for b, s, d in zip(begin, size, shape, strict=True)):
        raise node_error(ctx, f"slice begin {list(begin)} size {list(size)} is out of bounds for shape {list(shape)}")
    return jax.lax.slice(x, begin, tuple(b + s for b, s in zip(begin, size, strict=True)))


def _strided_index(ctx: Any, begin: tuple[int, ...], end: tuple[int, ...], strides: tuple[int, ...],
                   attrs: Mapping[str, Any]) -> tuple[Any, ...]:
    """TF's ``StridedSlice`` spec as a NumPy index (what ``Tensor.__getitem__`` encoded)."""
    if not len(begin) == len(end) == len(strides):
        raise node_error(ctx, f"begin, end and strides must have the same length, got {len(begin)}, "
                              f"{len(end)}, {len(strides)}")
    idx: list[Any] = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides, strict=True)):
        bit = 1 << i
        if attrs["ellipsis_mask"] & bit:
            idx.append(Ellipsis)
        elif attrs["new_axis_mask"] & bit:
            idx.append(None)
        elif attrs["shrink_axis_mask"] & bit:
            idx.append(b)
        else:
            if s == 0:
                raise node_error(ctx, "strides must be non-zero")
            idx.append(slice(None if attrs["begin_mask"] & bit else b, None if attrs["end_mask"] & bit else e, s))
    return tuple(idx)


@lowering("StridedSlice", static_inputs=(1, 2, 3))
def _strided_slice(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x = inputs[0]
    idx = _strided_index(ctx, host_ints(ctx, inputs[1], "begin"), host_ints(ctx, inputs[2], "end"),
                         host_ints(ctx, inputs[3], "strides"), attrs)
    if isinstance(x, np.ndarray):  # a shape being sliced (Keras' Reshape(Pack(shape[0], ...))): stays on the host
        return x[idx]
    return jnp.asarray(x)[idx]


@lowering("StridedSliceGrad", static_inputs=(0, 1, 2, 3))
def _strided_slice_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    shape = host_ints(ctx, inputs[0], "shape")
    dy = inputs[4]
    idx = _strided_index(ctx, host_ints(ctx, inputs[1], "begin"), host_ints(ctx, inputs[2], "end"),
                         host_ints(ctx, inputs[3], "strides"), attrs)
    zeros = jnp.zeros(shape, jnp.result_type(dy))
    _, vjp = jax.vjp(lambda z: z[idx], zeros)
    return vjp(dy)[0]


@lowering("Shape")
def _shape_op(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return _shape_value(_shape(inputs[0]), np_dtype(attrs["out_type"]))


@lowering("ShapeN", multi=True)
def _shape_n(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return tuple(_shape_value(_shape(x), np_dtype(attrs["out_type"])) for x in inputs)


@lowering("Size")
def _size(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    shape = _shape(inputs[0])
    if not _static(shape):
        return jnp.asarray(np.prod(shape), np_dtype(attrs["out_type"]))
    return np.asarray(int(np.prod(shape)), np_dtype(attrs["out_type"]))


@lowering("Rank")
def _rank(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return np.asarray(np.ndim(inputs[0]), np.int32)


@lowering("ExpandDims", static_inputs=(1,))
def _expand_dims(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x = inputs[0]
    a = axes(ctx, inputs[1], np.ndim(x) + 1)[0]
    return x[(slice(None),) * a + (None,)] if isinstance(x, np.ndarray) else jnp.expand_dims(x, a)


@lowering("Squeeze")
def _squeeze(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x = inputs[0]
    dims = attrs.get("squeeze_dims") or ()
    shape = _shape(x)
    if dims:
        a = axes(ctx, np.asarray(dims), len(shape), "squeeze_dims")
        if any(shape[i] != 1 for i in a):
            raise node_error(ctx, f"cannot squeeze dimensions {list(dims)} of shape {list(shape)}: not of size 1")
    else:
        a = tuple(i for i, d in enumerate(shape) if d == 1)
    return jnp.squeeze(x, a) if not isinstance(x, np.ndarray) else np.squeeze(x, a)


def _paddings(ctx: Any, value: Any, rank: int) -> tuple[tuple[int, int], ...]:
    p = np.asarray(value)
    if p.shape != (rank, 2):
        raise node_error(ctx, f"paddings must have shape [{rank}, 2], got {list(p.shape)}")
    if (p < 0).any():
        raise node_error(ctx, f"paddings must be non-negative, got {p.tolist()}")
    return tuple((int(a), int(b)) for a, b in p)


@lowering("Pad", static_inputs=(1,))
def _pad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x = inputs[0]
    return impl("PadV2")(x, jnp.zeros((), jnp.result_type(x)), paddings=_paddings(ctx, inputs[1], np.ndim(x)))


@lowering("PadV2", static_inputs=(1,))
def _pad_v2(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x, p, value = inputs
    return impl("PadV2")(x, value, paddings=_paddings(ctx, p, np.ndim(x)))


@lowering("MirrorPad", static_inputs=(1,))
def _mirror_pad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x = inputs[0]
    return impl("MirrorPad")(x, paddings=_paddings(ctx, inputs[1], np.ndim(x)), mode=attrs["mode"])


@lowering("MirrorPadGrad", static_inputs=(1,))
def _mirror_pad_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    dy, p = inputs
    pads = tuple((int(a), int(b)) for a, b in np.asarray(p))
    shape = tuple(d - a - b for d, (a, b) in zip(_shape(dy), pads, strict=True))
    _, vjp = jax.vjp(lambda x: impl("MirrorPad")(x, paddings=pads, mode=attrs["mode"]),
                     jnp.zeros(shape, jnp.result_type(dy)))
    return vjp(dy)[0]


@lowering("Tile", static_inputs=(1,))
def _tile(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return jnp.tile(inputs[0], host_ints(ctx, inputs[1], "multiples"))


@lowering("Fill", static_inputs=(0,))
def _fill(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    dims, value = inputs
    if isinstance(value, np.ndarray):
        return np.full(host_ints(ctx, dims, "dims"), value)
    return jnp.full(host_ints(ctx, dims, "dims"), value)


@lowering("Range", static_inputs=(0, 1, 2))
def _range(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    start, limit, delta = (np.asarray(v).item() for v in inputs)
    if delta == 0:
        raise node_error(ctx, "delta must be non-zero")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        raise node_error(ctx, f"start {start} and limit {limit} do not fit delta {delta}")
    return np.arange(start, limit, delta).astype(np_dtype(attrs["Tidx"]))


@lowering("LinSpace", static_inputs=(2,))
def _linspace(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("LinSpace")(inputs[0], inputs[1], num=host_int(ctx, inputs[2], "num"))


@lowering("BroadcastTo", static_inputs=(1,))
def _broadcast_to(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    shape = host_ints(ctx, inputs[1], "shape")
    try:
        np.broadcast_shapes(_shape(inputs[0]), shape)
    except ValueError:
        raise node_error(ctx, f"cannot broadcast shape {list(_shape(inputs[0]))} to {list(shape)}") from None
    return jnp.broadcast_to(inputs[0], shape)


@lowering("BroadcastArgs", static_inputs=(0, 1))
def _broadcast_args(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    s0, s1 = host_ints(ctx, inputs[0], "s0"), host_ints(ctx, inputs[1], "s1")
    try:
        out = np.broadcast_shapes(s0, s1)
    except ValueError:
        raise node_error(ctx, f"shapes {list(s0)} and {list(s1)} do not broadcast") from None
    return np.asarray(out, np_dtype(attrs["T"]))


@lowering("BroadcastGradientArgs", static_inputs=(0, 1), multi=True)
def _broadcast_gradient_args(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """The axes each side's gradient sums over (TF's ``BCast::GradReduce``)."""
    s0, s1 = host_ints(ctx, inputs[0], "s0"), host_ints(ctx, inputs[1], "s1")
    n = max(len(s0), len(s1))
    a = (1,) * (n - len(s0)) + s0
    b = (1,) * (n - len(s1)) + s1
    r0, r1 = [], []
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y and x != 1 and y != 1:
            raise node_error(ctx, f"incompatible shapes {list(s0)} and {list(s1)}")
        if x == 1 and not (y == 1):
            r0.append(i)
        if y == 1 and not (x == 1):
            r1.append(i)
        if x == 1 and y == 1:  # TF reduces both over dimensions where both are 1
            r0.append(i)
            r1.append(i)
    dt = np_dtype(attrs["T"])
    return np.asarray(r0, dt), np.asarray(r1, dt)


@lowering("ReverseV2", static_inputs=(1,))
def _reverse_v2(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x = inputs[0]
    return jnp.flip(x, axes(ctx, inputs[1], np.ndim(x)))


@lowering("InvertPermutation")
def _invert_permutation(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    p = inputs[0]
    if isinstance(p, np.ndarray):
        return np.argsort(p).astype(p.dtype)
    return impl("InvertPermutation")(p)


@lowering("GatherV2", static_inputs=(2,))
def _gather_v2(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    params, indices, axis = inputs
    return impl("GatherV2")(params, indices, axis=axes(ctx, axis, np.ndim(params))[0],
                            batch_dims=attrs["batch_dims"])


@lowering("Gather")
def _gather(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("GatherV2")(inputs[0], inputs[1], axis=0, batch_dims=0)


@lowering("GatherNd")
def _gather_nd(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("GatherNd")(jnp.asarray(inputs[0]), jnp.asarray(inputs[1]), batch_dims=0)


@lowering("ScatterNd", static_inputs=(2,))
def _scatter_nd(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("ScatterNd")(jnp.asarray(inputs[0]), jnp.asarray(inputs[1]), shape=host_ints(ctx, inputs[2], "shape"))


for _t in ("TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMax", "TensorScatterMin"):
    def _scatter(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        return impl(_t)(*(jnp.asarray(v) for v in inputs))
    lowering(_t)(_scatter)


for _t in ("UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd"):
    def _segment(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        return impl(_t)(inputs[0], inputs[1], num_segments=host_int(ctx, inputs[2], "num_segments"))
    lowering(_t, static_inputs=(2,))(_segment)

for _t in ("SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd"):
    def _sorted_segment(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        return impl(_t)(inputs[0], np.asarray(inputs[1]))
    lowering(_t, static_inputs=(1,))(_sorted_segment)


@lowering("OneHot", static_inputs=(1,))
def _one_hot(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    indices, depth, on, off = inputs
    return impl("OneHot")(indices, on, off, depth=host_int(ctx, depth, "depth"), axis=attrs["axis"])


@lowering("Where", static_inputs=(0,))
def _where(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """TF's ``Where(condition)``: the coordinates of true elements, ``[n, rank]`` int64.
    Its shape depends on the values, so ``condition`` must be a host value."""
    return np.argwhere(np.asarray(inputs[0])).astype(np.int64)


@lowering("MatrixBandPart", static_inputs=(1, 2))
def _band_part(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("MatrixBandPart")(inputs[0], num_lower=host_int(ctx, inputs[1], "num_lower"),
                                  num_upper=host_int(ctx, inputs[2], "num_upper"))


@lowering("DepthToSpace")
def _depth_to_space(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("DepthToSpace")(inputs[0], block_size=attrs["block_size"], data_format=attrs["data_format"])


@lowering("SpaceToDepth")
def _space_to_depth(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("SpaceToDepth")(inputs[0], block_size=attrs["block_size"], data_format=attrs["data_format"])


@lowering("SpaceToBatchND", static_inputs=(1, 2))
def _space_to_batch(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    block = host_ints(ctx, inputs[1], "block_shape")
    return impl("SpaceToBatchND")(inputs[0], block_shape=block, paddings=_paddings(ctx, inputs[2], len(block)))


@lowering("BatchToSpaceND", static_inputs=(1, 2))
def _batch_to_space(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    block = host_ints(ctx, inputs[1], "block_shape")
    return impl("BatchToSpaceND")(inputs[0], block_shape=block, crops=_paddings(ctx, inputs[2], len(block)))


@lowering("ReverseSequence")
def _reverse_sequence(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("ReverseSequence")(inputs[0], inputs[1], seq_axis=attrs["seq_dim"], batch_axis=attrs["batch_dim"])


@lowering("Roll", static_inputs=(1, 2))
def _roll(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x = inputs[0]
    shift = host_ints(ctx, inputs[1], "shift")
    ax = axes(ctx, inputs[2], np.ndim(x))
    if len(shift) != len(ax):
        raise node_error(ctx, f"shift {list(shift)} and axis {list(ax)} must have the same length")
    return jnp.roll(x, shift, ax)


@lowering("Bucketize")
def _bucketize(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("Bucketize")(jnp.asarray(inputs[0]), boundaries=tuple(attrs["boundaries"]))


@lowering("SparseToDense", static_inputs=(1,))
def _sparse_to_dense(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    indices, shape, values, default = inputs
    return impl("SparseToDense")(jnp.asarray(indices), jnp.asarray(values), jnp.asarray(default),
                                 shape=host_ints(ctx, shape, "output_shape"),
                                 validate_indices=attrs["validate_indices"])


@lowering("Unique", static_inputs=(0,), multi=True)
def _unique(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """``y`` (the distinct values in order of first appearance) and ``idx``; their size depends on
    the values, so ``x`` must be a host value."""
    x = np.asarray(inputs[0])
    _, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return x[np.sort(first)], rank[inverse.reshape(-1)].astype(np_dtype(attrs["out_idx"]))


@lowering("Empty", static_inputs=(0,))
def _empty(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return jnp.zeros(host_ints(ctx, inputs[0], "shape"), np_dtype(attrs["dtype"]))


@lowering("ExtractImagePatches")
def _extract_patches(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    k, s, r = (tuple(attrs[a]) for a in ("ksizes", "strides", "rates"))
    return impl("ExtractImagePatches")(inputs[0], ksizes=k[1:3], strides=s[1:3], rates=r[1:3],
                                       padding=attrs["padding"])
