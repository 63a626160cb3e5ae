"""Image ops, as ``tf.compat.v1.image``: resizing, flips, crops and pads,
dtype conversion, standardisation, grayscale, brightness.

Images are ``[height, width, channels]`` or batches ``[batch, height, width,
channels]``; sizes, offsets and crop fractions must be known when the graph
is built. Resizing follows TF1's kernels exactly: ``align_corners=False``
maps output pixel ``i`` to input coordinate ``i * in / out`` (the legacy
corner-aligned grid of ``tf.compat.v1.image.resize_images``), ``True`` to
``i * (in - 1) / (out - 1)``; ``half_pixel_centers`` (``resize_bilinear``,
``resize_nearest_neighbor``, ``resize_bicubic``) uses pixel centres as TF2.
"""

from __future__ import annotations

import math
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, convert_to_tensor, dtype_of, identity
from jaxsess._core.graph._graph import Tensor
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._tf1.ops import (
    array_ops as array_ops,
    linalg_ops as linalg_ops,
    math_ops as math_ops,
    random_ops as random_ops,
)
from jaxsess._tf1.ops._args import op_scope, static_int, static_ints

__all__ = [
    "adjust_contrast",
    "random_brightness",
    "random_contrast",
    "random_crop",
    "ResizeMethod", "resize_images", "resize", "resize_bilinear", "resize_nearest_neighbor", "resize_bicubic",
    "resize_area", "flip_left_right", "flip_up_down", "random_flip_left_right", "random_flip_up_down",
    "per_image_standardization", "convert_image_dtype", "rgb_to_grayscale", "central_crop",
    "crop_to_bounding_box", "pad_to_bounding_box", "resize_image_with_crop_or_pad", "adjust_brightness",
]


class ResizeMethod:
    """TF1's resize methods (``tf.compat.v1.image.ResizeMethod``)."""

    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


_METHOD_NAMES = {"bilinear": 0, "nearest": 1, "bicubic": 2, "area": 3}


# -- resize kernels: static coordinates, as TF's CPU kernels ------------------------------------------


def _scale(n_in: int, n_out: int, align_corners: bool) -> np.float32:
    if align_corners and n_out > 1:
        return np.float32(n_in - 1) / np.float32(n_out - 1)
    return np.float32(n_in) / np.float32(n_out)


def _coords(n_in: int, n_out: int, align_corners: bool, half_pixel: bool, nn: bool = False) -> np.ndarray:
    s = _scale(n_in, n_out, align_corners)
    o = np.arange(n_out, dtype=np.float32)
    if half_pixel:
        return ((o + np.float32(0.5)) * s - (np.float32(0) if nn else np.float32(0.5))).astype(np.float32)
    return (o * s).astype(np.float32)


def _bilinear_axis(n_in: int, n_out: int, align: bool, half: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = _coords(n_in, n_out, align, half)
    f = np.floor(x)
    lower = np.maximum(f, 0).astype(np.int32)
    upper = np.minimum(np.ceil(x), n_in - 1).astype(np.int32)
    return lower, upper, (x - f).astype(np.float32)


def _nearest_axis(n_in: int, n_out: int, align: bool, half: bool) -> np.ndarray:
    x = _coords(n_in, n_out, align, half, nn=True)
    idx = np.floor(x + np.float32(0.5)) if align else np.floor(x)
    idx = np.minimum(idx, n_in - 1)
    if half:
        idx = np.maximum(idx, 0)
    return idx.astype(np.int32)


_TABLE = 1 << 10


def _cubic_table(a: float) -> np.ndarray:
    x = np.arange(_TABLE + 1, dtype=np.float64) / _TABLE
    t = np.empty((_TABLE + 1, 2), np.float32)
    t[:, 0] = ((a + 2) * x - (a + 3)) * x * x + 1
    x1 = x + 1.0
    t[:, 1] = ((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a
    return t


def _bicubic_matrix(n_in: int, n_out: int, align: bool, half: bool) -> np.ndarray:
    table = _cubic_table(-0.5 if half else -0.75)
    x = _coords(n_in, n_out, align, half)
    w = np.zeros((n_out, n_in), np.float32)
    for o, xo in enumerate(x):
        loc = int(np.floor(xo))
        off = int(np.rint(np.float32(xo - loc) * _TABLE))
        weights = [table[off, 1], table[off, 0], table[_TABLE - off, 0], table[_TABLE - off, 1]]
        idx = [loc - 1, loc, loc + 1, loc + 2]
        if half:  # keys cubic: out-of-range taps get no weight, the rest renormalised
            weights = [wt if 0 <= i < n_in else np.float32(0) for wt, i in zip(weights, idx, strict=True)]
            total = np.float32(sum(weights))
            if abs(total) >= 1000.0 * np.finfo(np.float32).tiny:
                weights = [np.float32(wt / total) for wt in weights]
        for wt, i in zip(weights, idx, strict=True):
            w[o, min(n_in - 1, max(0, i))] += np.float32(wt)
    return w


def _area_matrix(n_in: int, n_out: int, align: bool) -> np.ndarray:
    s = _scale(n_in, n_out, align)
    w = np.zeros((n_out, n_in), np.float32)
    for o in range(n_out):
        lo, hi = np.float32(o * s), np.float32((o + 1) * s)
        for i in range(int(np.floor(lo)), int(np.ceil(hi))):
            part: Any
            if i < lo:
                part = min(i + 1 - lo, hi - lo)
            elif i + 1 > hi:
                part = hi - i
            else:
                part = 1.0
            w[o, min(i, n_in - 1)] += np.float32(part) / s
    return w


def _apply_matrices(x: Any, wy: np.ndarray, wx: np.ndarray) -> Any:
    hi = jax.lax.Precision.HIGHEST
    x = x.astype(jnp.float32)
    y = jnp.einsum("oh,bhwc->bowc", jnp.asarray(wy), x, precision=hi)
    return jnp.einsum("pw,bowc->bopc", jnp.asarray(wx), y, precision=hi)


def _resize_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    attrs = {k: v for k, v in a.items() if k != "size"}
    return attrs, [np.asarray(a["size"], np.int32)]


def _resize_from_tf(a: dict[str, Any], consts: list[np.ndarray]) -> dict[str, Any]:
    out = {"size": tuple(int(v) for v in np.ravel(consts[0])), "align_corners": bool(a.get("align_corners", False))}
    if "half_pixel_centers" in a:
        out["half_pixel_centers"] = bool(a["half_pixel_centers"])
    return out


_RESIZE_TF = TFOp(types={"T": 0}, to_tf=_resize_to_tf, from_tf=_resize_from_tf, n_const=1)


@register_op("ResizeBilinear", default_name="ResizeBilinear", tf=_RESIZE_TF)
def _resize_bilinear(x: Any, *, size: tuple[int, int], align_corners: bool = False,
                     half_pixel_centers: bool = False) -> Any:
    y0, y1, yl = _bilinear_axis(x.shape[1], size[0], align_corners, half_pixel_centers)
    x0, x1, xl = _bilinear_axis(x.shape[2], size[1], align_corners, half_pixel_centers)
    img = x.astype(jnp.float32)
    top, bottom = img[:, y0], img[:, y1]
    xl_ = jnp.asarray(xl)[None, None, :, None]
    top_v = top[:, :, x0] + (top[:, :, x1] - top[:, :, x0]) * xl_
    bottom_v = bottom[:, :, x0] + (bottom[:, :, x1] - bottom[:, :, x0]) * xl_
    return top_v + (bottom_v - top_v) * jnp.asarray(yl)[None, :, None, None]


@register_op("ResizeNearestNeighbor", default_name="ResizeNearestNeighbor", tf=_RESIZE_TF)
def _resize_nearest(x: Any, *, size: tuple[int, int], align_corners: bool = False,
                    half_pixel_centers: bool = False) -> Any:
    yi = _nearest_axis(x.shape[1], size[0], align_corners, half_pixel_centers)
    xi = _nearest_axis(x.shape[2], size[1], align_corners, half_pixel_centers)
    return x[:, yi][:, :, xi]


@register_op("ResizeBicubic", default_name="ResizeBicubic", tf=_RESIZE_TF)
def _resize_bicubic(x: Any, *, size: tuple[int, int], align_corners: bool = False,
                    half_pixel_centers: bool = False) -> Any:
    wy = _bicubic_matrix(x.shape[1], size[0], align_corners, half_pixel_centers)
    wx = _bicubic_matrix(x.shape[2], size[1], align_corners, half_pixel_centers)
    return _apply_matrices(x, wy, wx)


@register_op("ResizeArea", default_name="ResizeArea", tf=_RESIZE_TF)
def _resize_area(x: Any, *, size: tuple[int, int], align_corners: bool = False) -> Any:
    return _apply_matrices(x, _area_matrix(x.shape[1], size[0], align_corners),
                           _area_matrix(x.shape[2], size[1], align_corners))


# -- helpers ------------------------------------------------------------------------------------------


def _image_dims(x: Any, fn: str, ranks: tuple[int, ...] = (3, 4)) -> tuple[int | None, ...]:
    shape = x.shape.as_tuple() if isinstance(x, Tensor) else tuple(x.shape)
    if shape is None or len(shape) not in ranks:
        want = " or ".join(str(r) for r in ranks)
        raise ValueError(f"{fn}: 'image' ({getattr(x, 'name', '')}) must have rank {want}, "
                         f"got shape {None if shape is None else list(shape)}.")
    return shape


def _size2(size: Any, fn: str) -> tuple[int, int]:
    s = static_ints(size, fn, "size")
    if len(s) != 2:
        raise ValueError(f"{fn}: 'size' must be a 1-D int32 Tensor of 2 elements: new_height, new_width; got {s}.")
    if min(s) <= 0:
        raise ValueError(f"{fn}: 'size' must be positive, got {list(s)}.")
    return s[0], s[1]


def _batched(fn: str, images: Any) -> tuple[Any, bool]:
    x = convert_to_tensor(images, name="images")
    shape = _image_dims(x, fn)
    if len(shape) == 3:
        return array_ops.expand_dims(x, 0), False
    return x, True


def _resize_op(op: str, fn: str, images: Any, size: Any, attrs: dict[str, Any], name: str | None) -> Any:
    with op_scope(name, op, [images]) as scope:
        x = convert_to_tensor(images, name="images")
        shape = _image_dims(x, fn, (4,))
        if None in shape[1:3]:
            raise ValueError(f"{fn}: the image height and width must be known when the graph is built, "
                             f"got shape {list(shape)}.")
        return apply_op(op, (x,), {"size": _size2(size, fn), **attrs}, name=scope)


def resize_bilinear(images: Any, size: Any, align_corners: bool = False, name: str | None = None,
                    half_pixel_centers: bool = False) -> Any:
    """Bilinear resize of ``images`` ``[batch, h, w, c]`` to ``size`` ``(new_h, new_w)``, as
    ``tf.compat.v1.image.resize_bilinear`` (op ``ResizeBilinear``; float32 result)."""
    return _resize_op("ResizeBilinear", "resize_bilinear", images, size,
                      {"align_corners": bool(align_corners), "half_pixel_centers": bool(half_pixel_centers)}, name)


def resize_nearest_neighbor(images: Any, size: Any, align_corners: bool = False, name: str | None = None,
                            half_pixel_centers: bool = False) -> Any:
    """Nearest-neighbour resize of ``[batch, h, w, c]`` to ``size`` (dtype kept), as
    ``tf.compat.v1.image.resize_nearest_neighbor``."""
    return _resize_op("ResizeNearestNeighbor", "resize_nearest_neighbor", images, size,
                      {"align_corners": bool(align_corners), "half_pixel_centers": bool(half_pixel_centers)}, name)


def resize_bicubic(images: Any, size: Any, align_corners: bool = False, name: str | None = None,
                   half_pixel_centers: bool = False) -> Any:
    """Bicubic resize of ``[batch, h, w, c]`` to ``size`` (float32 result), as
    ``tf.compat.v1.image.resize_bicubic``."""
    return _resize_op("ResizeBicubic", "resize_bicubic", images, size,
                      {"align_corners": bool(align_corners), "half_pixel_centers": bool(half_pixel_centers)}, name)


def resize_area(images: Any, size: Any, align_corners: bool = False, name: str | None = None) -> Any:
    """Area-averaging resize of ``[batch, h, w, c]`` to ``size`` (float32 result), as
    ``tf.compat.v1.image.resize_area``."""
    return _resize_op("ResizeArea", "resize_area", images, size, {"align_corners": bool(align_corners)}, name)


_RESIZE_OPS = {
    0: "ResizeBilinear", 1: "ResizeNearestNeighbor", 2: "ResizeBicubic", 3: "ResizeArea",
}


def resize_images(images: Any, size: Any, method: Any = ResizeMethod.BILINEAR, align_corners: bool = False,
                  preserve_aspect_ratio: bool = False, name: str | None = None) -> Any:
    """``images`` resized to ``size``, as ``tf.compat.v1.image.resize_images`` (= ``tf.image.resize`` in TF1).

    Args:
      images: ``[batch, h, w, c]`` or ``[h, w, c]`` (height and width known with
        ``preserve_aspect_ratio``).
      size: ``(new_height, new_width)``, known when the graph is built.
      method: a :class:`ResizeMethod` (``0`` bilinear, ``1`` nearest,
        ``2`` bicubic, ``3`` area) or its name (``'bilinear'``, ...).
      align_corners: TF1's corner-aligned grid (see the module docstring).
      preserve_aspect_ratio: scale to fit inside ``size`` keeping the ratio.

    Returns:
      float32 for every method but nearest neighbour (which keeps the
      dtype); ``images`` itself when the size does not change.

    Raises:
      ValueError: a bad rank, size or method.
    """
    m = _METHOD_NAMES.get(method, method) if isinstance(method, str) else method
    if m not in _RESIZE_OPS:
        raise ValueError(f"Resize method is not implemented: {method}")
    with op_scope(name, "resize", [images, size]):
        x, is_batch = _batched("resize_images", images)
        shape = _image_dims(x, "resize_images", (4,))
        h, w = _size2(size, "resize_images")
        if None in shape[1:3] and preserve_aspect_ratio:
            raise ValueError(f"resize_images: with preserve_aspect_ratio, the image height and width must be "
                             f"known when the graph is built, got shape {list(shape)}.")
        # unknown height/width (a decoded image): resized, as TF does when it cannot tell statically
        ih, iw = (-1, -1) if None in shape[1:3] else (int(shape[1]), int(shape[2]))  # type: ignore[arg-type]
        if preserve_aspect_ratio:
            f = min(np.float32(h) / np.float32(ih), np.float32(w) / np.float32(iw))
            h, w = int(np.rint(f * np.float32(ih))), int(np.rint(f * np.float32(iw)))
        if (h, w) == (ih, iw):
            out = x
        else:
            attrs: dict[str, Any] = {"size": (h, w), "align_corners": bool(align_corners)}
            if m != 3:
                attrs["half_pixel_centers"] = False
            out = apply_op(_RESIZE_OPS[m], (x,), attrs)
        if not is_batch:
            out = array_ops.squeeze(out, [0])
        return out


resize = resize_images


# -- flips ---------------------------------------------------------------------------------------------


def _flip(image: Any, axis: int, default: str, name: str | None = None) -> Any:
    with op_scope(name, default, [image]):
        x = convert_to_tensor(image, name="image")
        rank = len(_image_dims(x, default))
        return array_ops.reverse(x, [axis + rank - 3])


def flip_left_right(image: Any) -> Any:
    """``image`` (``[h, w, c]`` or ``[batch, h, w, c]``) mirrored along the width, as
    ``tf.image.flip_left_right``."""
    return _flip(image, 1, "flip_left_right")


def flip_up_down(image: Any) -> Any:
    """``image`` mirrored along the height, as ``tf.image.flip_up_down``."""
    return _flip(image, 0, "flip_up_down")


def _random_flip(image: Any, axis: int, seed: int | None, default: str) -> Any:
    with op_scope(None, default, [image]):
        x = convert_to_tensor(image, name="image")
        shape = _image_dims(x, default)
        if len(shape) == 3:
            u = random_ops.random_uniform([], 0, 1.0, seed=seed)
            return math_ops.where(math_ops.less(u, 0.5), array_ops.reverse(x, [axis]), x)
        batch: Any = shape[0] if shape[0] is not None else array_ops.shape(x)[:1]
        u = random_ops.random_uniform([batch] if shape[0] is not None else batch, 0, 1.0, seed=seed)
        flips = math_ops.cast(math_ops.round(array_ops.reshape(u, [-1, 1, 1, 1])), dtype_of(x))
        return flips * array_ops.reverse(x, [axis + 1]) + (1 - flips) * x


def random_flip_left_right(image: Any, seed: int | None = None) -> Any:
    """``image`` mirrored along the width with probability 1/2 (per image of a batch), as
    ``tf.image.random_flip_left_right``. The draws differ from TF's for the same seed."""
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image: Any, seed: int | None = None) -> Any:
    """``image`` mirrored along the height with probability 1/2, as ``tf.image.random_flip_up_down``."""
    return _random_flip(image, 0, seed, "random_flip_up_down")


# -- dtype conversion, standardisation, colour ------------------------------------------------------------


def convert_image_dtype(image: Any, dtype: Any, saturate: bool = False, name: str | None = None) -> Any:
    """``image`` converted to ``dtype``, rescaling values, as ``tf.image.convert_image_dtype``.

    Floats are in ``[0, 1]``, integers in ``[0, dtype.max]``: int -> float
    multiplies by ``1 / in.max``; float -> int multiplies by ``out.max + 0.5``
    and casts (clipped first when ``saturate``); int -> int shifts by the
    ratio of the ranges; float -> float casts.

    Raises:
      AttributeError: ``dtype`` or the image's dtype is neither float nor integer (as TF).
    """
    x = convert_to_tensor(image, name="image")
    src = dtype_of(x)
    dst = _dtypes.as_dtype(dtype)
    assert src is not None
    if not (dst.is_floating or dst.is_integer):
        raise AttributeError("dtype must be either floating point or integer")
    if not (src.is_floating or src.is_integer):
        raise AttributeError("image dtype must be either floating point or integer")
    if src == dst:
        return identity(x, name=name)

    def sat(v: Any, to: _dtypes.DType) -> Any:
        return math_ops.clip_by_value(v, np.asarray(to.min).astype(dtype_of(v).np_dtype),  # type: ignore[union-attr]
                                      np.asarray(to.max).astype(dtype_of(v).np_dtype))  # type: ignore[union-attr]

    with op_scope(name, "convert_image", [x]) as scope:
        if src.is_integer and dst.is_integer:
            if src.max > dst.max:
                scaled = math_ops.floordiv(x, (int(src.max) + 1) // (int(dst.max) + 1))
                return math_ops.cast(sat(scaled, dst) if saturate else scaled, dst, name=scope)
            cast = math_ops.cast(sat(x, dst) if saturate else x, dst)
            return math_ops.multiply(cast, (int(dst.max) + 1) // (int(src.max) + 1), name=scope)
        if src.is_floating and dst.is_floating:
            return math_ops.cast(x, dst, name=scope)
        if src.is_integer:
            return math_ops.multiply(math_ops.cast(x, dst), 1.0 / float(src.max), name=scope)
        scaled = math_ops.multiply(x, float(dst.max) + 0.5)
        return math_ops.cast(sat(scaled, dst) if saturate else scaled, dst, name=scope)


def per_image_standardization(image: Any) -> Any:
    """Each image scaled to mean 0 and variance 1: ``(x - mean) / max(stddev, 1 / sqrt(N))``
    over its ``N = h * w * c`` values, as ``tf.image.per_image_standardization`` (float32 result).

    Raises:
      ValueError: ``image`` has rank below 3.
    """
    with op_scope(None, "per_image_standardization", [image]) as scope:
        x = convert_to_tensor(image, name="image")
        shape = _image_dims(x, "per_image_standardization", tuple(range(3, 9)))
        x = math_ops.cast(x, _dtypes.float32)
        dims = shape[-3:]
        num_pixels: Any = math.prod(d for d in dims if d is not None) if None not in dims else math_ops.reduce_prod(array_ops.shape(x)[-3:])
        mean = math_ops.reduce_mean(x, axis=[-1, -2, -3], keepdims=True)
        var = math_ops.reduce_mean(math_ops.square(x - mean), axis=[-1, -2, -3], keepdims=True)
        stddev = math_ops.sqrt(var)
        min_stddev = math_ops.rsqrt(math_ops.cast(num_pixels, _dtypes.float32))
        adjusted = math_ops.maximum(stddev, min_stddev)
        return math_ops.divide(x - mean, adjusted, name=scope)


def rgb_to_grayscale(images: Any, name: str | None = None) -> Any:
    """``[..., 3]`` RGB -> ``[..., 1]`` luma with weights ``[0.2989, 0.5870, 0.1140]``, in the
    input's dtype, as ``tf.image.rgb_to_grayscale``."""
    with op_scope(name, "rgb_to_grayscale", [images]) as scope:
        x = convert_to_tensor(images, name="images")
        orig = dtype_of(x)
        flt = convert_image_dtype(x, _dtypes.float32)
        gray = linalg_ops.tensordot(flt, [0.2989, 0.5870, 0.1140], [-1, -1])
        gray = array_ops.expand_dims(gray, -1)
        return convert_image_dtype(gray, orig, name=scope)


def adjust_brightness(image: Any, delta: Any) -> Any:
    """``image + delta`` computed in float (``delta`` in ``[0, 1]`` units for integer images),
    back in the image's dtype with saturation, as ``tf.image.adjust_brightness``."""
    with op_scope(None, "adjust_brightness", [image, delta]) as scope:
        x = convert_to_tensor(image, name="image")
        orig = dtype_of(x)
        assert orig is not None
        flt = x if orig in (_dtypes.float16, _dtypes.float32) else convert_image_dtype(x, _dtypes.float32)
        adjusted = math_ops.add(flt, math_ops.cast(delta, dtype_of(flt)), name=scope)
        return convert_image_dtype(adjusted, orig, saturate=True)


@register_op("AdjustContrastv2", default_name="AdjustContrastv2", tf=TFOp(types={"T": 0}))
def _adjust_contrast(x: Any, factor: Any) -> Any:
    mean = jnp.mean(x, axis=(-3, -2), keepdims=True)  # per channel, over height and width
    return ((x - mean) * factor + mean).astype(x.dtype)


def adjust_contrast(images: Any, contrast_factor: Any) -> Any:
    """``(x - mean) * contrast_factor + mean`` per channel (means over height and
    width), computed in float and converted back with saturation, as
    ``tf.image.adjust_contrast``.

    Args:
      images: ``[..., height, width, channels]``.
      contrast_factor: a float scalar (tensor or Python).
    """
    with op_scope(None, "adjust_contrast", [images, contrast_factor]):
        x = convert_to_tensor(images, name="images")
        orig = dtype_of(x)
        assert orig is not None
        flt = x if orig in (_dtypes.float16, _dtypes.float32) else convert_image_dtype(x, _dtypes.float32)
        factor = convert_to_tensor(contrast_factor, dtype_of(flt), name="contrast_factor")
        adjusted = apply_op("AdjustContrastv2", (flt, factor), {})
        return convert_image_dtype(adjusted, orig, saturate=True)


def random_brightness(image: Any, max_delta: float, seed: int | None = None) -> Any:
    """``adjust_brightness`` by a delta drawn from ``[-max_delta, max_delta)``, as
    ``tf.image.random_brightness`` (the draws differ from TF's for the same seed).

    Raises:
      ValueError: ``max_delta`` is negative.
    """
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = random_ops.random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_brightness(image, delta)


def random_contrast(image: Any, lower: float, upper: float, seed: int | None = None) -> Any:
    """``adjust_contrast`` by a factor drawn from ``[lower, upper)``, as
    ``tf.image.random_contrast`` (the draws differ from TF's for the same seed).

    Raises:
      ValueError: ``upper <= lower`` or ``lower < 0``.
    """
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    factor = random_ops.random_uniform([], lower, upper, seed=seed)
    return adjust_contrast(image, factor)


def random_crop(value: Any, size: Any, seed: int | None = None, name: str | None = None) -> Any:
    """A block of shape ``size`` at a uniformly drawn offset of ``value``, as
    ``tf.image.random_crop`` / ``tf.random_crop`` (the offsets differ from TF's
    for the same seed).

    Raises:
      ValueError: ``size`` is not static, or larger than ``value``'s known shape.
    """
    with op_scope(name, "random_crop", [value, size]) as scope:
        x = convert_to_tensor(value, name="value")
        sizes = static_ints(size, "random_crop", "size")
        dims = x.shape.as_list() if x.shape.ndims is not None else None
        if dims is None or len(dims) != len(sizes) or any(d is None for d in dims):
            raise ValueError(f"random_crop: value needs a fully known shape of rank {len(sizes)}, got {x.shape}.")
        if any(d < s for d, s in zip(dims, sizes, strict=True)):
            raise ValueError(f"Need value.shape >= size, got {dims} {list(sizes)}")
        limit = np.asarray([d - s + 1 for d, s in zip(dims, sizes, strict=True)], np.int32)
        u = random_ops.random_uniform([len(sizes)], 0, np.iinfo(np.int32).max, dtype=_dtypes.int32, seed=seed)
        offset = math_ops.mod(u, limit)
        return array_ops.slice(x, offset, list(sizes), name=scope)


# -- crops and pads --------------------------------------------------------------------------------------


def _hw(x: Any, fn: str) -> tuple[int, int, int]:
    shape = _image_dims(x, fn)
    h, w = shape[-3], shape[-2]
    if h is None or w is None:
        raise ValueError(f"{fn}: the image height and width must be known when the graph is built, "
                         f"got shape {list(shape)}.")
    return len(shape), h, w


def central_crop(image: Any, central_fraction: float) -> Any:
    """The central ``central_fraction`` of each image (per side), as ``tf.image.central_crop``.

    Raises:
      ValueError: ``central_fraction`` outside ``(0, 1]``, or a bad rank.
    """
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    with op_scope(None, "central_crop", [image]):
        x = convert_to_tensor(image, name="image")
        if central_fraction == 1.0:
            return x
        rank, h, w = _hw(x, "central_crop")
        top = int((float(h) - float(h) * central_fraction) / 2)
        left = int((float(w) - float(w) * central_fraction) / 2)
        begin = [top, left, 0] if rank == 3 else [0, top, left, 0]
        size = [h - 2 * top, w - 2 * left, -1] if rank == 3 else [-1, h - 2 * top, w - 2 * left, -1]
        return array_ops.slice(x, begin, size)


def _box_ints(fn: str, **kw: Any) -> dict[str, int]:
    return {k: static_int(v, fn, k) for k, v in kw.items()}


def crop_to_bounding_box(image: Any, offset_height: Any, offset_width: Any, target_height: Any,
                         target_width: Any) -> Any:
    """The ``[target_height, target_width]`` window of each image at ``(offset_height,
    offset_width)``, as ``tf.image.crop_to_bounding_box``.

    Raises:
      ValueError: negative offsets, non-positive targets, or a window past the image (as TF).
    """
    b = _box_ints("crop_to_bounding_box", offset_height=offset_height, offset_width=offset_width,
                  target_height=target_height, target_width=target_width)
    with op_scope(None, "crop_to_bounding_box", [image]):
        x = convert_to_tensor(image, name="image")
        rank, h, w = _hw(x, "crop_to_bounding_box")
        if b["offset_width"] < 0:
            raise ValueError("offset_width must be >= 0.")
        if b["offset_height"] < 0:
            raise ValueError("offset_height must be >= 0.")
        if b["target_width"] <= 0:
            raise ValueError("target_width must be > 0.")
        if b["target_height"] <= 0:
            raise ValueError("target_height must be > 0.")
        if w < b["target_width"] + b["offset_width"]:
            raise ValueError("width must be >= target + offset.")
        if h < b["target_height"] + b["offset_height"]:
            raise ValueError("height must be >= target + offset.")
        x4 = x if rank == 4 else array_ops.expand_dims(x, 0)
        out = array_ops.slice(x4, [0, b["offset_height"], b["offset_width"], 0],
                              [-1, b["target_height"], b["target_width"], -1])
        return out if rank == 4 else array_ops.squeeze(out, [0])


def pad_to_bounding_box(image: Any, offset_height: Any, offset_width: Any, target_height: Any,
                        target_width: Any) -> Any:
    """Each image zero-padded to ``[target_height, target_width]``, placed at ``(offset_height,
    offset_width)``, as ``tf.image.pad_to_bounding_box``.

    Raises:
      ValueError: negative offsets or a target smaller than image + offset (as TF).
    """
    b = _box_ints("pad_to_bounding_box", offset_height=offset_height, offset_width=offset_width,
                  target_height=target_height, target_width=target_width)
    with op_scope(None, "pad_to_bounding_box", [image]):
        x = convert_to_tensor(image, name="image")
        rank, h, w = _hw(x, "pad_to_bounding_box")
        after_w = b["target_width"] - b["offset_width"] - w
        after_h = b["target_height"] - b["offset_height"] - h
        if b["offset_height"] < 0:
            raise ValueError("offset_height must be >= 0")
        if b["offset_width"] < 0:
            raise ValueError("offset_width must be >= 0")
        if after_w < 0:
            raise ValueError("width must be <= target - offset")
        if after_h < 0:
            raise ValueError("height must be <= target - offset")
        x4 = x if rank == 4 else array_ops.expand_dims(x, 0)
        out = array_ops.pad(x4, [[0, 0], [b["offset_height"], after_h], [b["offset_width"], after_w], [0, 0]])
        return out if rank == 4 else array_ops.squeeze(out, [0])


def resize_image_with_crop_or_pad(image: Any, target_height: Any, target_width: Any) -> Any:
    """Each image centrally cropped and/or zero-padded to ``[target_height, target_width]``, as
    ``tf.image.resize_image_with_crop_or_pad``."""
    b = _box_ints("resize_image_with_crop_or_pad", target_height=target_height, target_width=target_width)
    th, tw = b["target_height"], b["target_width"]
    if th <= 0 or tw <= 0:
        raise ValueError("target_height and target_width must be > 0.")
    with op_scope(None, "resize_image_with_crop_or_pad", [image]):
        x = convert_to_tensor(image, name="image")
        rank, h, w = _hw(x, "resize_image_with_crop_or_pad")
        x4 = x if rank == 4 else array_ops.expand_dims(x, 0)
        dw, dh = tw - w, th - h
        cropped = crop_to_bounding_box(x4, max(-dh // 2, 0), max(-dw // 2, 0), min(th, h), min(tw, w))
        out = pad_to_bounding_box(cropped, max(dh // 2, 0), max(dw // 2, 0), th, tw)
        return out if rank == 4 else array_ops.squeeze(out, [0])
