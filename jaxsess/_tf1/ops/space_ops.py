"""Moving blocks of spatial positions into depth or batch and back, and image
patches, as ``tf.compat.v1``: ``space_to_depth``, ``depth_to_space``,
``space_to_batch_nd``, ``batch_to_space_nd``, ``space_to_batch``,
``batch_to_space``, ``extract_image_patches`` (``tf.image.extract_patches``).

Block sizes, paddings and crops must be known when the graph is built; the
element orders are TF's (``space_to_depth``: depth index ``(dy * b + dx) * C +
c``; ``space_to_batch_nd``: batch index ``(offsets) * B + b``; patches:
``(ky * kw + kx) * C + c``).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._registry import register_op
from jaxsess._tf1.ops._args import label, static, static_int, static_ints
from jaxsess._tf1.ops.linalg_ops import _dims

__all__ = [
    "space_to_depth", "depth_to_space", "space_to_batch_nd", "batch_to_space_nd", "space_to_batch",
    "batch_to_space", "extract_image_patches", "extract_patches",
]


def _nchw(data_format: Any, fn: str) -> bool:
    fmt = (data_format or "NHWC").upper()
    if fmt not in ("NHWC", "NCHW"):
        raise ValueError(f"{fn}: data_format must be 'NHWC' or 'NCHW', got {data_format!r}.")
    return fmt == "NCHW"


@register_op("SpaceToDepth", default_name="SpaceToDepth")
def _space_to_depth(x: Any, *, block_size: int, data_format: str) -> Any:
    b = block_size
    if data_format == "NCHW":
        x = jnp.transpose(x, (0, 2, 3, 1))
    n, h, w, c = x.shape
    if h % b or w % b:
        raise ValueError(f"Dimension size must be evenly divisible by {b} but is {h if h % b else w}")
    y = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5).reshape(n, h // b, w // b, b * b * c)
    return jnp.transpose(y, (0, 3, 1, 2)) if data_format == "NCHW" else y


@register_op("DepthToSpace", default_name="DepthToSpace")
def _depth_to_space(x: Any, *, block_size: int, data_format: str) -> Any:
    b = block_size
    if data_format == "NCHW":
        x = jnp.transpose(x, (0, 2, 3, 1))
    n, h, w, c = x.shape
    if c % (b * b):
        raise ValueError(f"Dimension size must be evenly divisible by {b * b} but is {c}")
    d = c // (b * b)
    y = x.reshape(n, h, w, b, b, d).transpose(0, 1, 3, 2, 4, 5).reshape(n, h * b, w * b, d)
    return jnp.transpose(y, (0, 3, 1, 2)) if data_format == "NCHW" else y


def _block_op(op_type: str, fn: str, input: Any, block_size: Any, data_format: Any,  # noqa: A002
              name: str | None) -> Any:
    x = convert_to_tensor(input)
    if len(_dims(x)) != 4:
        raise ValueError(f"{fn}: input must be 4-D, got shape {_dims(x)} ({label(x)}).")
    b = static_int(block_size, fn, "block_size")
    if b < 2:
        raise ValueError(f"{fn}: block_size must be at least 2, got {b}.")
    fmt = "NCHW" if _nchw(data_format, fn) else "NHWC"
    return apply_op(op_type, (x,), {"block_size": b, "data_format": fmt}, name=name)


def space_to_depth(input: Any, block_size: Any, name: str | None = None, data_format: str = "NHWC") -> Any:  # noqa: A002
    """``[N, H, W, C] -> [N, H/b, W/b, b*b*C]``: each ``b x b`` block becomes depth, as
    ``tf.compat.v1.space_to_depth``.

    Raises:
      ValueError: not 4-D, ``block_size < 2``, or ``H``/``W`` not divisible by it.
    """
    return _block_op("SpaceToDepth", "space_to_depth", input, block_size, data_format, name)


def depth_to_space(input: Any, block_size: Any, name: str | None = None, data_format: str = "NHWC") -> Any:  # noqa: A002
    """``[N, H, W, b*b*D] -> [N, H*b, W*b, D]``, the inverse of :func:`space_to_depth`, as
    ``tf.compat.v1.depth_to_space``.

    Raises:
      ValueError: not 4-D, or the depth is not divisible by ``b*b``.
    """
    return _block_op("DepthToSpace", "depth_to_space", input, block_size, data_format, name)


@register_op("SpaceToBatchND", default_name="SpaceToBatchND")
def _space_to_batch_nd(x: Any, *, block_shape: tuple[int, ...], paddings: tuple[tuple[int, int], ...]) -> Any:
    m = len(block_shape)
    x = jnp.pad(x, [(0, 0), *paddings, *[(0, 0)] * (x.ndim - 1 - m)])
    batch, spatial, rest = x.shape[0], x.shape[1:1 + m], x.shape[1 + m:]
    for s, bs in zip(spatial, block_shape, strict=True):
        if s % bs:
            raise ValueError(f"Dimension size must be evenly divisible by {bs} but is {s}")
    split: list[int] = [batch]
    for s, bs in zip(spatial, block_shape, strict=True):
        split += [s // bs, bs]
    y = x.reshape(*split, *rest)
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(1 + 2 * m, y.ndim))
    y = jnp.transpose(y, perm)
    return y.reshape(batch * int(np.prod(block_shape)), *[s // bs for s, bs in zip(spatial, block_shape,
                                                                                      strict=True)], *rest)


@register_op("BatchToSpaceND", default_name="BatchToSpaceND")
def _batch_to_space_nd(x: Any, *, block_shape: tuple[int, ...], crops: tuple[tuple[int, int], ...]) -> Any:
    m = len(block_shape)
    prod = int(np.prod(block_shape))
    if x.shape[0] % prod:
        raise ValueError(f"Dimension size must be evenly divisible by {prod} but is {x.shape[0]}")
    batch = x.shape[0] // prod
    spatial, rest = x.shape[1:1 + m], x.shape[1 + m:]
    y = x.reshape(*block_shape, batch, *spatial, *rest)
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, y.ndim))
    y = jnp.transpose(y, perm).reshape(batch, *[s * bs for s, bs in zip(spatial, block_shape, strict=True)],
                                       *rest)
    index = tuple(slice(lo, y.shape[1 + i] - hi) for i, (lo, hi) in enumerate(crops))
    return y[(slice(None), *index)]


def _pairs(value: Any, fn: str, arg: str, m: int) -> tuple[tuple[int, int], ...]:
    arr = static(value, fn, arg)
    if arr.size == 0 and m == 0:
        return ()
    if arr.shape != (m, 2) or arr.dtype.kind not in "iu":
        raise ValueError(f"{fn}: {arg} must be an int [{m}, 2] array, got {arr.tolist()!r}.")
    if (arr < 0).any():
        raise ValueError(f"{fn}: {arg} must be non-negative, got {arr.tolist()!r}.")
    return tuple((int(a), int(b)) for a, b in arr)


def space_to_batch_nd(input: Any, block_shape: Any, paddings: Any, name: str | None = None) -> Any:  # noqa: A002
    """Zero-pads the ``M`` spatial dims of ``[B, *spatial, *rest]`` by ``paddings`` and moves
    ``block_shape`` blocks into the batch: ``[B * prod(block_shape), *(padded / block), *rest]``,
    as ``tf.compat.v1.space_to_batch_nd``.

    Raises:
      ValueError: a padded size not divisible by its block size, or bad
        ``block_shape``/``paddings`` (must be known when the graph is built).
    """
    x = convert_to_tensor(input)
    block = static_ints(block_shape, "space_to_batch_nd", "block_shape")
    if any(b < 1 for b in block):
        raise ValueError(f"space_to_batch_nd: block_shape must be positive, got {list(block)}.")
    pads = _pairs(paddings, "space_to_batch_nd", "paddings", len(block))
    if len(_dims(x)) < 1 + len(block):
        raise ValueError(f"space_to_batch_nd: input must have rank >= {1 + len(block)}, got shape {_dims(x)}.")
    return apply_op("SpaceToBatchND", (x,), {"block_shape": block, "paddings": pads}, name=name)


def batch_to_space_nd(input: Any, block_shape: Any, crops: Any, name: str | None = None) -> Any:  # noqa: A002
    """The inverse of :func:`space_to_batch_nd`: ``[B * prod(block_shape), *spatial, *rest] ->
    [B, *(spatial * block - crops), *rest]``, as ``tf.compat.v1.batch_to_space_nd``."""
    x = convert_to_tensor(input)
    block = static_ints(block_shape, "batch_to_space_nd", "block_shape")
    if any(b < 1 for b in block):
        raise ValueError(f"batch_to_space_nd: block_shape must be positive, got {list(block)}.")
    crop = _pairs(crops, "batch_to_space_nd", "crops", len(block))
    if len(_dims(x)) < 1 + len(block):
        raise ValueError(f"batch_to_space_nd: input must have rank >= {1 + len(block)}, got shape {_dims(x)}.")
    return apply_op("BatchToSpaceND", (x,), {"block_shape": block, "crops": crop}, name=name)


def space_to_batch(input: Any, paddings: Any, block_size: Any = None, name: str | None = None,  # noqa: A002
                   block_shape: Any = None) -> Any:
    """:func:`space_to_batch_nd` of a 4-D ``input`` with square blocks ``[block_size, block_size]``,
    as ``tf.compat.v1.space_to_batch``."""
    b = static_int(block_size if block_size is not None else block_shape, "space_to_batch", "block_size")
    return space_to_batch_nd(input, [b, b], paddings, name=name)


def batch_to_space(input: Any, crops: Any, block_size: Any, name: str | None = None,  # noqa: A002
                   block_shape: Any = None) -> Any:
    """:func:`batch_to_space_nd` of a 4-D ``input`` with square blocks, as ``tf.compat.v1.batch_to_space``."""
    b = static_int(block_size if block_size is not None else block_shape, "batch_to_space", "block_size")
    return batch_to_space_nd(input, [b, b], crops, name=name)


@register_op("ExtractImagePatches", default_name="ExtractImagePatches")
def _extract_patches(x: Any, *, ksizes: tuple[int, int], strides: tuple[int, int], rates: tuple[int, int],
                     padding: str) -> Any:
    n, _, _, c = x.shape
    kh, kw = ksizes
    p = jax.lax.conv_general_dilated_patches(
        x, (kh, kw), strides, padding, rhs_dilation=rates, dimension_numbers=("NHWC", "HWIO", "NHWC"),
        precision=jax.lax.Precision.HIGHEST,
    )  # [N, H', W', C * kh * kw], channel-major
    oh, ow = p.shape[1], p.shape[2]
    return p.reshape(n, oh, ow, c, kh * kw).swapaxes(-1, -2).reshape(n, oh, ow, kh * kw * c)


def _four(value: Any, fn: str, arg: str) -> tuple[int, int]:
    vals = static_ints(value, fn, arg)
    if len(vals) != 4 or vals[0] != 1 or vals[3] != 1:
        raise ValueError(f"{fn}: {arg} must be [1, rows, cols, 1], got {list(vals)}.")
    return vals[1], vals[2]


def extract_image_patches(images: Any, ksizes: Any = None, strides: Any = None, rates: Any = None,
                          padding: Any = None, name: str | None = None, sizes: Any = None) -> Any:
    """The ``ksizes`` patches of ``images`` ``[N, H, W, C]`` placed in depth:
    ``[N, H', W', kh * kw * C]`` (patch-major, then channels), as
    ``tf.compat.v1.extract_image_patches`` / ``tf.image.extract_patches``.

    Args:
      ksizes (``sizes``), strides, rates: ``[1, rows, cols, 1]``.
      padding: ``'SAME'`` or ``'VALID'``.

    Raises:
      ValueError: not 4-D, or malformed arguments.
    """
    x = convert_to_tensor(images)
    if len(_dims(x)) != 4:
        raise ValueError(f"extract_image_patches: images must be 4-D, got shape {_dims(x)} ({label(x)}).")
    pad = str(padding).upper() if padding is not None else ""
    if pad not in ("SAME", "VALID"):
        raise ValueError(f"extract_image_patches: padding must be 'SAME' or 'VALID', got {padding!r}.")
    attrs = {"ksizes": _four(ksizes if ksizes is not None else sizes, "extract_image_patches", "ksizes"),
             "strides": _four(strides, "extract_image_patches", "strides"),
             "rates": _four(rates, "extract_image_patches", "rates"), "padding": pad}
    return apply_op("ExtractImagePatches", (x,), attrs, name=name)


def extract_patches(images: Any, sizes: Any, strides: Any, rates: Any, padding: Any,
                    name: str | None = None) -> Any:
    """As :func:`extract_image_patches`, TF 2's argument names (``tf.image.extract_patches``)."""
    return extract_image_patches(images, sizes, strides, rates, padding, name=name)
