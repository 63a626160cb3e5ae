"""The rest of ``tf.compat.v1.image`` (:mod:`~jaxsess._tf1.ops.image_ops` holds
resizing, flips, crops and pads), as TF's ``image_ops_impl``: colour spaces
(HSV, hue, saturation, gamma), rotations, ``crop_and_resize``, bounding boxes
(``sample_distorted_bounding_box``, ``draw_bounding_boxes``,
``non_max_suppression``) and image metrics (``total_variation``, ``psnr``,
``ssim``, ``image_gradients``, ``sobel_edges``).

Kernels follow TF's CPU kernels (``colorspace_op.h``, ``crop_and_resize_op.cc``,
``draw_bounding_box_op.cc``, ``sample_distorted_bounding_box_op.cc``,
``non_max_suppression_op.cc``); the composite ops follow ``image_ops_impl.py``.
Random ops draw other numbers than TF for the same seed.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, constant_value, convert_to_tensor, dtype_of, identity
from jaxsess._core.graph._graph import Operation, Tensor
from jaxsess._core.graph._host import device_lowering, register_host, require_no_assign_before
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import (
    array_ops as array_ops,
    conv_ops as conv_ops,
    linalg_ops as linalg_ops,
    math_ops as math_ops,
    nn_ops as nn_ops,
    random_ops as random_ops,
)
from jaxsess._tf1.ops._args import op_scope, static_int, static_ints
from jaxsess._tf1.ops.image_ops import (
    ResizeMethod,
    _image_dims,
    convert_image_dtype,
    pad_to_bounding_box,
    resize_images,
)

__all__ = [
    "rgb_to_hsv", "hsv_to_rgb", "rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb", "adjust_hue", "adjust_saturation", "random_hue", "random_saturation",
    "adjust_gamma", "resize_image_with_pad", "rot90", "transpose_image", "grayscale_to_rgb", "crop_and_resize",
    "sample_distorted_bounding_box", "draw_bounding_boxes", "non_max_suppression", "non_max_suppression_padded",
    "total_variation", "psnr", "ssim", "ssim_multiscale", "image_gradients", "sobel_edges",
]

def _shape(x: Any) -> tuple[int | None, ...] | None:
    # static shape of a graph tensor, or the shape of an eager array
    return x.shape.as_tuple() if isinstance(x, Tensor) else tuple(x.shape)


def _dims(x: Any) -> list[Any]:
    # the known dims of a tensor of known rank (an eager array's shape)
    shape = _shape(x)
    assert shape is not None
    return list(shape)


_FLOATS = (_dtypes.float16, _dtypes.float32, _dtypes.float64, _dtypes.bfloat16)


# -- colour spaces --------------------------------------------------------------------------------------


def _rgb_to_hsv(x: Any) -> Any:
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = jnp.max(x, axis=-1)
    rng = v - jnp.min(x, axis=-1)
    s = jnp.where(v > 0, rng / jnp.where(v > 0, v, 1), 0).astype(x.dtype)
    norm = (1 / jnp.where(rng > 0, rng, 1)) * (1 / 6)
    h = jnp.where(r == v, norm * (g - b), jnp.where(g == v, norm * (b - r) + 2 / 6, norm * (r - g) + 4 / 6))
    h = jnp.where(rng > 0, h, 0)
    h = jnp.where(h < 0, h + 1, h)
    return jnp.stack([h.astype(x.dtype), s, v], axis=-1)


def _hsv_to_rgb(x: Any) -> Any:
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    dh = h * 6
    dr = jnp.clip(jnp.abs(dh - 3) - 1, 0, 1)
    dg = jnp.clip(-jnp.abs(dh - 2) + 2, 0, 1)
    db = jnp.clip(-jnp.abs(dh - 4) + 2, 0, 1)
    one_s = 1 - s
    return jnp.stack([(one_s + s * dr) * v, (one_s + s * dg) * v, (one_s + s * db) * v], axis=-1).astype(x.dtype)


register_op("RGBToHSV", default_name="RGBToHSV")(_rgb_to_hsv)
register_op("HSVToRGB", default_name="HSVToRGB")(_hsv_to_rgb)


def _rgb_tensor(images: Any, fn: str, floats_only: bool = True) -> Tensor:
    x = convert_to_tensor(images, name="images")
    shape = _shape(x)
    if shape is None or not shape or (shape[-1] is not None and shape[-1] != 3):
        raise ValueError(f"{fn}: the last dimension of 'images' ({getattr(x, 'name', '')}) must be 3 (RGB/HSV), got shape "
                         f"{None if shape is None else list(shape)}.")
    if floats_only and dtype_of(x) not in _FLOATS:
        raise TypeError(f"{fn}: 'images' ({getattr(x, 'name', '')}) must be a floating tensor (half, bfloat16, float32, "
                        f"float64), got {dtype_of(x).name}.")  # type: ignore[union-attr]
    return x


def rgb_to_hsv(images: Any, name: str | None = None) -> Any:
    """``[..., 3]`` RGB in ``[0, 1]`` -> ``[..., 3]`` HSV (hue in ``[0, 1)``), as ``tf.image.rgb_to_hsv``.

    Raises:
      TypeError: ``images`` is not floating. ValueError: the last dimension is not 3.
    """
    x = _rgb_tensor(images, "rgb_to_hsv")
    return apply_op("RGBToHSV", (x,), {}, name=name)


def hsv_to_rgb(images: Any, name: str | None = None) -> Any:
    """``[..., 3]`` HSV (each in ``[0, 1]``) -> ``[..., 3]`` RGB, as ``tf.image.hsv_to_rgb``.

    Raises:
      TypeError: ``images`` is not floating. ValueError: the last dimension is not 3.
    """
    x = _rgb_tensor(images, "hsv_to_rgb")
    return apply_op("HSVToRGB", (x,), {}, name=name)


# TF's colour matrices (image_ops_impl.py): ``out[..., j] = sum_i in[..., i] * kernel[i][j]``.
_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512], [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _colour_matrix(images: Any, kernel: Any, fn: str) -> Any:
    x = _rgb_tensor(images, fn)
    with op_scope(None, fn, [x]):
        k = convert_to_tensor(np.asarray(kernel, np.float64).astype(dtype_of(x).np_dtype),  # type: ignore[union-attr]
                              name="kernel")
        return linalg_ops.tensordot(x, k, [[-1], [0]])


def rgb_to_yiq(images: Any) -> Any:
    """``[..., 3]`` RGB -> YIQ by TF's matrix, in the input's float dtype, as ``tf.image.rgb_to_yiq``."""
    return _colour_matrix(images, _RGB_TO_YIQ, "rgb_to_yiq")


def yiq_to_rgb(images: Any) -> Any:
    """``[..., 3]`` YIQ -> RGB by TF's matrix, as ``tf.image.yiq_to_rgb``."""
    return _colour_matrix(images, _YIQ_TO_RGB, "yiq_to_rgb")


def rgb_to_yuv(images: Any) -> Any:
    """``[..., 3]`` RGB -> YUV by TF's matrix, as ``tf.image.rgb_to_yuv``."""
    return _colour_matrix(images, _RGB_TO_YUV, "rgb_to_yuv")


def yuv_to_rgb(images: Any) -> Any:
    """``[..., 3]`` YUV -> RGB by TF's matrix, as ``tf.image.yuv_to_rgb``."""
    return _colour_matrix(images, _YUV_TO_RGB, "yuv_to_rgb")


@register_op("AdjustHue", default_name="AdjustHue")
def _adjust_hue(x: Any, delta: Any) -> Any:
    hsv = _rgb_to_hsv(x)
    h = jnp.mod(hsv[..., 0] + delta, 1.0)
    return _hsv_to_rgb(jnp.stack([h, hsv[..., 1], hsv[..., 2]], axis=-1))


@register_op("AdjustSaturation", default_name="AdjustSaturation")
def _adjust_saturation(x: Any, scale: Any) -> Any:
    hsv = _rgb_to_hsv(x)
    s = jnp.clip(hsv[..., 1] * scale, 0, 1)
    return _hsv_to_rgb(jnp.stack([hsv[..., 0], s, hsv[..., 2]], axis=-1))


def _adjust_in_float(op: str, fn: str, image: Any, value: Any, arg: str, name: str | None) -> Any:
    with op_scope(name, fn, [image, value]) as scope:
        x = _rgb_tensor(image, fn, floats_only=False)
        orig = dtype_of(x)
        assert orig is not None
        flt = x if orig in (_dtypes.float16, _dtypes.float32) else convert_image_dtype(x, _dtypes.float32)
        v = convert_to_tensor(value, _dtypes.float32, name=arg)
        out = apply_op(op, (math_ops.cast(flt, _dtypes.float32), v), {})
        return convert_image_dtype(out, orig, name=scope)


def adjust_hue(image: Any, delta: Any, name: str | None = None) -> Any:
    """``image`` (``[..., 3]`` RGB) with ``delta`` (in ``[-1, 1]``, turns of the colour wheel) added
    to its hue, computed in float32 and converted back, as ``tf.image.adjust_hue``."""
    return _adjust_in_float("AdjustHue", "adjust_hue", image, delta, "delta", name)


def adjust_saturation(image: Any, saturation_factor: Any, name: str | None = None) -> Any:
    """``image`` (``[..., 3]`` RGB) with its HSV saturation multiplied by ``saturation_factor``
    (clipped to ``[0, 1]``), computed in float32 and converted back, as ``tf.image.adjust_saturation``."""
    return _adjust_in_float("AdjustSaturation", "adjust_saturation", image, saturation_factor,
                            "saturation_factor", name)


def random_hue(image: Any, max_delta: float, seed: int | None = None) -> Any:
    """``adjust_hue`` by a delta drawn from ``[-max_delta, max_delta)``, as ``tf.image.random_hue``.

    Raises:
      ValueError: ``max_delta`` above 0.5 or negative (as TF).
    """
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = random_ops.random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_hue(image, delta)


def random_saturation(image: Any, lower: float, upper: float, seed: int | None = None) -> Any:
    """``adjust_saturation`` by a factor drawn from ``[lower, upper)``, as ``tf.image.random_saturation``.

    Raises:
      ValueError: ``upper <= lower`` or ``lower < 0`` (as TF).
    """
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    factor = random_ops.random_uniform([], lower, upper, seed=seed)
    return adjust_saturation(image, factor)


def adjust_gamma(image: Any, gamma: Any = 1, gain: Any = 1) -> Any:
    """``gain * image ** gamma`` computed in float (integer images scaled to ``[0, 1]`` first) and
    converted back with saturation, as ``tf.image.adjust_gamma``.

    Raises:
      ValueError: a Python ``gamma`` below 0 (as TF).
    """
    with op_scope(None, "adjust_gamma", [image, gamma, gain]) as scope:
        x = convert_to_tensor(image, name="image")
        orig = dtype_of(x)
        assert orig is not None
        flt = x if orig in (_dtypes.float16, _dtypes.float32) else convert_image_dtype(x, _dtypes.float32)
        known = gamma if not isinstance(gamma, Tensor) else constant_value(gamma)
        if known is not None and float(np.asarray(known)) < 0:
            raise ValueError("Gamma should be a non-negative real number.")
        fd = dtype_of(flt)
        adjusted = math_ops.multiply(convert_to_tensor(gain, fd), math_ops.pow(flt, convert_to_tensor(gamma, fd)))
        return convert_image_dtype(adjusted, orig, saturate=True, name=scope)


def resize_image_with_pad(image: Any, target_height: Any, target_width: Any,
                          method: Any = ResizeMethod.BILINEAR, align_corners: bool = False) -> Any:
    """Each image resized to fit ``[target_height, target_width]`` keeping its aspect ratio
    (``resize_images`` with ``method``), then zero-padded centrally to that size, as
    ``tf.compat.v1.image.resize_image_with_pad`` (sizes computed in float32 as TF).

    Raises:
      ValueError: non-positive targets, a bad rank, or an image size not known when the graph is built.
    """
    th = static_int(target_height, "resize_image_with_pad", "target_height")
    tw = static_int(target_width, "resize_image_with_pad", "target_width")
    if th <= 0 or tw <= 0:
        raise ValueError("target_height and target_width must be > 0.")
    with op_scope(None, "resize_image_with_pad", [image]):
        x = convert_to_tensor(image, name="image")
        shape = _image_dims(x, "resize_image_with_pad")
        h, w = shape[-3], shape[-2]
        if h is None or w is None:
            raise ValueError(f"resize_image_with_pad: the image height and width must be known when the graph "
                             f"is built, got shape {list(shape)}.")
        f32 = np.float32
        ratio = max(f32(w) / f32(tw), f32(h) / f32(th))
        rh_f, rw_f = f32(h) / ratio, f32(w) / ratio
        rh, rw = int(np.floor(rh_f)), int(np.floor(rw_f))
        ph = max(0, int(np.floor((f32(th) - rh_f) / f32(2))))
        pw = max(0, int(np.floor((f32(tw) - rw_f) / f32(2))))
        resized = resize_images(x, [rh, rw], method, align_corners=align_corners)
        return pad_to_bounding_box(resized, ph, pw, th, tw)


# -- rotations, transposes, grayscale -------------------------------------------------------------------


def rot90(image: Any, k: Any = 1, name: str | None = None) -> Any:
    """``image`` (``[h, w, c]`` or ``[batch, h, w, c]``) rotated ``k`` quarter turns counter-clockwise,
    as ``tf.image.rot90``.

    ``k`` is a Python int or a constant; a ``k`` known only at run time needs a
    square image (``h == w``). Our static shape is exact (TF's has ``None``
    for height and width).

    Raises:
      ValueError: a bad rank, or a run-time ``k`` with a non-square or unknown-size image.
    """
    with op_scope(name, "rot90", [image, k]) as scope:
        x = convert_to_tensor(image, name="image")
        rank = len(_image_dims(x, "rot90"))
        hw = [rank - 3, rank - 2]
        perm = list(range(rank))
        perm[hw[0]], perm[hw[1]] = hw[1], hw[0]

        def turn(kk: int) -> Any:
            kk %= 4
            if kk == 0:
                return x
            if kk == 1:
                return array_ops.transpose(array_ops.reverse(x, [hw[1]]), perm)
            if kk == 2:
                return array_ops.reverse(x, hw)
            return array_ops.reverse(array_ops.transpose(x, perm), [hw[1]])

        kv = k if not isinstance(k, Tensor) else constant_value(k)
        if kv is not None:
            return identity(turn(int(np.asarray(kv))), name=scope)
        shape = _shape(x)
        assert shape is not None
        if shape[hw[0]] is None or shape[hw[0]] != shape[hw[1]]:
            raise ValueError(f"rot90: a 'k' known only at run time needs a square image of known size, got "
                             f"shape {list(shape)}; pass a Python int k.")
        kk = math_ops.mod(math_ops.cast(k, _dtypes.int32), 4)
        out = turn(0)
        for i in (1, 2, 3):
            out = math_ops.where(math_ops.equal(kk, i), turn(i), out)
        return identity(out, name=scope)


def transpose_image(image: Any) -> Any:
    """``image`` with height and width swapped (``[h, w, c]`` -> ``[w, h, c]``, batched too), as
    ``tf.image.transpose_image``."""
    with op_scope(None, "transpose", [image]):
        x = convert_to_tensor(image, name="image")
        rank = len(_image_dims(x, "transpose_image"))
        return array_ops.transpose(x, [1, 0, 2] if rank == 3 else [0, 2, 1, 3])


def grayscale_to_rgb(images: Any, name: str | None = None) -> Any:
    """``[..., 1]`` -> ``[..., 3]`` (the channel repeated), as ``tf.image.grayscale_to_rgb``.

    Raises:
      ValueError: rank below 2 or a last dimension other than 1 (as TF).
    """
    with op_scope(name, "grayscale_to_rgb", [images]) as scope:
        x = convert_to_tensor(images, name="images")
        shape = _shape(x)
        if shape is None or len(shape) < 2:
            raise ValueError(f"A grayscale image (shape {shape}) must be at least two-dimensional.")
        if shape[-1] is not None and shape[-1] != 1:
            raise ValueError("Last dimension of a grayscale image should be size 1.")
        return array_ops.tile(x, [1] * (len(shape) - 1) + [3], name=scope)


# -- crop_and_resize ---------------------------------------------------------------------------------------


def _crop_and_resize_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    return {k: v for k, v in a.items() if k != "crop_size"}, [np.asarray(a["crop_size"], np.int32)]


def _crop_and_resize_from_tf(a: dict[str, Any], consts: list[np.ndarray]) -> dict[str, Any]:
    return {"crop_size": tuple(int(v) for v in np.ravel(consts[0])), "method": a.get("method", "bilinear"),
            "extrapolation_value": float(a.get("extrapolation_value", 0.0))}


def _crop_coords(lo: Any, hi: Any, n_in: int, n_out: int) -> Any:
    # [boxes, n_out] input coordinates, as crop_and_resize_op.cc
    if n_out > 1:
        scale = (hi - lo) * (n_in - 1) / (n_out - 1)
        return lo[:, None] * (n_in - 1) + jnp.arange(n_out, dtype=jnp.float32)[None, :] * scale[:, None]
    return jnp.broadcast_to((0.5 * (lo + hi) * (n_in - 1))[:, None], (lo.shape[0], n_out))


@register_op("CropAndResize", default_name="CropAndResize",
             tf=TFOp(types={"T": 0}, to_tf=_crop_and_resize_to_tf, from_tf=_crop_and_resize_from_tf, n_const=1))
def _crop_and_resize(image: Any, boxes: Any, box_ind: Any, *, crop_size: tuple[int, int], method: str,
                     extrapolation_value: float) -> Any:
    _, h, w, _ = image.shape
    img = image.astype(jnp.float32)
    boxes = boxes.astype(jnp.float32)
    ys = _crop_coords(boxes[:, 0], boxes[:, 2], h, crop_size[0])  # [n, ch]
    xs = _crop_coords(boxes[:, 1], boxes[:, 3], w, crop_size[1])  # [n, cw]
    valid = ((ys >= 0) & (ys <= h - 1))[:, :, None] & ((xs >= 0) & (xs <= w - 1))[:, None, :]
    src = img[box_ind]  # [n, h, w, c]
    bi = jnp.arange(src.shape[0])[:, None, None]
    if method == "nearest":
        yi = jnp.clip(jnp.round(ys), 0, h - 1).astype(jnp.int32)  # round half away from zero, as roundf
        xi = jnp.clip(jnp.round(xs), 0, w - 1).astype(jnp.int32)
        yi = jnp.where(ys - jnp.floor(ys) == 0.5, jnp.clip(jnp.ceil(ys), 0, h - 1).astype(jnp.int32), yi)
        xi = jnp.where(xs - jnp.floor(xs) == 0.5, jnp.clip(jnp.ceil(xs), 0, w - 1).astype(jnp.int32), xi)
        out = src[bi, yi[:, :, None], xi[:, None, :]]
    else:
        y0 = jnp.clip(jnp.floor(ys), 0, h - 1).astype(jnp.int32)
        y1 = jnp.clip(jnp.ceil(ys), 0, h - 1).astype(jnp.int32)
        x0 = jnp.clip(jnp.floor(xs), 0, w - 1).astype(jnp.int32)
        x1 = jnp.clip(jnp.ceil(xs), 0, w - 1).astype(jnp.int32)
        yl = (ys - jnp.floor(ys))[:, :, None, None]
        xl = (xs - jnp.floor(xs))[:, None, :, None]
        tl = src[bi, y0[:, :, None], x0[:, None, :]]
        tr = src[bi, y0[:, :, None], x1[:, None, :]]
        bl = src[bi, y1[:, :, None], x0[:, None, :]]
        br = src[bi, y1[:, :, None], x1[:, None, :]]
        top = tl + (tr - tl) * xl
        bottom = bl + (br - bl) * xl
        out = top + (bottom - top) * yl
    return jnp.where(valid[..., None], out, jnp.float32(extrapolation_value))


def crop_and_resize(image: Any, boxes: Any, box_ind: Any = None, crop_size: Any = None, method: str = "bilinear",
                    extrapolation_value: float = 0.0, name: str | None = None, box_indices: Any = None) -> Any:
    """Crops of ``image`` resized to ``crop_size``, as ``tf.compat.v1.image.crop_and_resize``.

    Args:
      image: ``[batch, height, width, depth]``, height and width known when the graph is built.
      boxes: float ``[num_boxes, 4]`` of normalised ``[y1, x1, y2, x2]`` (``y1 > y2`` flips).
      box_ind: int32 ``[num_boxes]``, the image of each box (``box_indices`` is its TF2 name).
      crop_size: ``[crop_height, crop_width]``, known when the graph is built.
      method: ``'bilinear'`` or ``'nearest'``.
      extrapolation_value: the value of samples outside the image.

    Returns:
      float32 ``[num_boxes, crop_height, crop_width, depth]``; differentiable w.r.t. ``image`` and ``boxes``.

    Raises:
      ValueError: a bad rank, method or crop size.
    """
    if box_ind is None:
        box_ind = box_indices
    if box_ind is None or crop_size is None:
        raise ValueError("crop_and_resize: 'box_ind' and 'crop_size' are required.")
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"crop_and_resize: method must be 'bilinear' or 'nearest', got {method!r}.")
    with op_scope(name, "CropAndResize", [image, boxes, box_ind]) as scope:
        x = convert_to_tensor(image, name="image")
        shape = _image_dims(x, "crop_and_resize", (4,))
        if None in shape[1:3]:
            raise ValueError(f"crop_and_resize: the image height and width must be known when the graph is "
                             f"built, got shape {list(shape)}.")
        b = convert_to_tensor(boxes, _dtypes.float32, name="boxes")
        bshape = _shape(b)
        if bshape is None or len(bshape) != 2 or bshape[1] not in (None, 4):
            raise ValueError(f"crop_and_resize: 'boxes' must be [num_boxes, 4], got {bshape}.")
        ind = convert_to_tensor(box_ind, _dtypes.int32, name="box_ind")
        size = static_ints(crop_size, "crop_and_resize", "crop_size")
        if len(size) != 2 or min(size) <= 0:
            raise ValueError(f"crop_and_resize: crop_size must be two positive ints, got {list(size)}.")
        return apply_op("CropAndResize", (x, b, ind), {"crop_size": (size[0], size[1]), "method": method,
                                                      "extrapolation_value": float(extrapolation_value)},
                        name=scope)


# -- bounding boxes ---------------------------------------------------------------------------------------


def _lrint(v: Any) -> Any:
    return jnp.round(v).astype(jnp.int32)  # round half to even, as lrintf


@register_op("SampleDistortedBoundingBoxV2", num_outputs=3, stateful=True, random=True,
             default_name="SampleDistortedBoundingBoxV2")
def _sample_distorted_bounding_box(ctx: Any, image_size: Any, boxes: Any, min_object_covered: Any, *,
                                   aspect_ratio_range: tuple[float, float], area_range: tuple[float, float],
                                   max_attempts: int, use_image_if_no_bounding_boxes: bool,
                                   seed: int, seed2: int, seeded: bool) -> Any:
    key = ctx.rng_key(seed, seed2)
    k_ar, k_h, k_y, k_x = jax.random.split(key, 4)
    height = image_size[0].astype(jnp.int32)
    width = image_size[1].astype(jnp.int32)
    hf, wf = height.astype(jnp.float32), width.astype(jnp.float32)
    bx = boxes.reshape(-1, 4).astype(jnp.float32)
    if bx.shape[0] == 0:
        bx = jnp.asarray([[0.0, 0.0, 1.0, 1.0]], jnp.float32)
    rect = jnp.stack([(bx[:, 1] * wf).astype(jnp.int32), (bx[:, 0] * hf).astype(jnp.int32),
                      (bx[:, 3] * wf).astype(jnp.int32), (bx[:, 2] * hf).astype(jnp.int32)], axis=-1)
    n = max_attempts
    ar = jax.random.uniform(k_ar, (n,), jnp.float32, aspect_ratio_range[0], aspect_ratio_range[1])
    min_area = area_range[0] * wf * hf
    max_area = area_range[1] * wf * hf
    h = _lrint(jnp.sqrt(min_area / ar))
    max_h = _lrint(jnp.sqrt(max_area / ar))
    over = _lrint(max_h * ar) > width
    alt = ((wf + 0.5 - 1e-7) / ar).astype(jnp.int32)
    alt = jnp.where(_lrint(alt * ar) > width, alt - 1, alt)
    max_h = jnp.where(over, alt, max_h)
    max_h = jnp.minimum(max_h, height)
    h = jnp.minimum(h, max_h)
    h = h + jax.random.randint(k_h, (n,), 0, jnp.maximum(max_h - h + 1, 1))
    w = _lrint(h * ar)
    area = (w * h).astype(jnp.float32)
    grow = area < min_area
    h = jnp.where(grow, h + 1, h)
    w = jnp.where(grow, _lrint(h * ar), w)
    area = (w * h).astype(jnp.float32)
    shrink = area > max_area
    h = jnp.where(shrink, h - 1, h)
    w = jnp.where(shrink, _lrint(h * ar), w)
    area = (w * h).astype(jnp.float32)
    ok = (area >= min_area) & (area <= max_area) & (w <= width) & (h <= height) & (w > 0) & (h > 0)
    y = jax.random.randint(k_y, (n,), 0, jnp.maximum(height - h, 1))
    x = jax.random.randint(k_x, (n,), 0, jnp.maximum(width - w, 1))
    # coverage of each object box by each crop: [attempts, boxes]
    ix = jnp.maximum(jnp.minimum((x + w)[:, None], rect[None, :, 2]) - jnp.maximum(x[:, None], rect[None, :, 0]), 0)
    iy = jnp.maximum(jnp.minimum((y + h)[:, None], rect[None, :, 3]) - jnp.maximum(y[:, None], rect[None, :, 1]), 0)
    obj_area = ((rect[:, 2] - rect[:, 0]) * (rect[:, 3] - rect[:, 1])).astype(jnp.float32)
    frac = (ix * iy).astype(jnp.float32) / jnp.where(obj_area >= 1, obj_area, 1)
    covered = jnp.any((obj_area[None, :] >= 1) & (frac >= min_object_covered), axis=1)
    good = ok & covered & (area >= 1)
    first = jnp.argmax(good)
    found = jnp.any(good)
    cy = jnp.where(found, y[first], 0)
    cx = jnp.where(found, x[first], 0)
    ch = jnp.where(found, h[first], height)
    cw = jnp.where(found, w[first], width)
    dt = image_size.dtype
    begin = jnp.stack([cy, cx, 0]).astype(dt)
    size = jnp.stack([ch, cw, -1]).astype(dt)
    out_box = jnp.stack([cy / hf, cx / wf, (cy + ch) / hf, (cx + cw) / wf]).astype(jnp.float32)
    return begin, size, out_box.reshape(1, 1, 4)


def sample_distorted_bounding_box(image_size: Any, bounding_boxes: Any, seed: int | None = None,
                                  seed2: int | None = None, min_object_covered: Any = 0.1,
                                  aspect_ratio_range: Any = None, area_range: Any = None,
                                  max_attempts: int | None = None,
                                  use_image_if_no_bounding_boxes: bool | None = None,
                                  name: str | None = None) -> tuple[Any, Any, Any]:
    """A random crop covering part of the given boxes, as
    ``tf.compat.v1.image.sample_distorted_bounding_box`` (the draws differ from TF's).

    Up to ``max_attempts`` (default 100) candidate crops of aspect ratio in
    ``aspect_ratio_range`` (default ``[0.75, 1.33]``) and area fraction in
    ``area_range`` (default ``[0.05, 1]``) are drawn; the first covering at
    least ``min_object_covered`` of one box is returned, else the whole image.

    Args:
      image_size: ``[height, width, channels]`` (uint8/int8/int16/int32/int64).
      bounding_boxes: float ``[batch, N, 4]`` normalised ``[y1, x1, y2, x2]``; ``N = 0`` with
        ``use_image_if_no_bounding_boxes`` uses the whole image.

    Returns:
      ``(begin, size, bboxes)``: ``begin = [y, x, 0]`` and ``size = [h, w, -1]`` in
      ``image_size``'s dtype, ``bboxes`` float32 ``[1, 1, 4]``. ``tf.slice(image, begin,
      size)`` has a data-dependent shape, which XLA cannot compile (its ``size``
      must be known when the graph is built); crop and resize in one op instead:
      ``crop_and_resize(image[None], bboxes[0], [0], [height, width])``.

    Raises:
      ValueError: ranges that are not two numbers, or no boxes without
        ``use_image_if_no_bounding_boxes``.
    """
    ar = tuple(float(v) for v in (aspect_ratio_range if aspect_ratio_range is not None else (0.75, 1.33)))
    area = tuple(float(v) for v in (area_range if area_range is not None else (0.05, 1.0)))
    if len(ar) != 2 or len(area) != 2:
        raise ValueError("sample_distorted_bounding_box: aspect_ratio_range and area_range must have 2 values.")
    attempts = 100 if max_attempts is None else int(max_attempts)
    if attempts <= 0:
        raise ValueError(f"max_attempts must be positive: {attempts}")
    with op_scope(name, "SampleDistortedBoundingBox", [image_size, bounding_boxes]) as scope:
        size_t = convert_to_tensor(image_size, name="image_size")
        boxes = convert_to_tensor(bounding_boxes, _dtypes.float32, name="bounding_boxes")
        bshape = _shape(boxes)
        if bshape is None or len(bshape) != 3 or bshape[-1] not in (None, 4):
            raise ValueError(f"sample_distorted_bounding_box: 'bounding_boxes' must be [batch, N, 4], got {bshape}.")
        if bshape[1] == 0 and not use_image_if_no_bounding_boxes:
            raise ValueError("sample_distorted_bounding_box: no bounding boxes provided as input; pass "
                             "use_image_if_no_bounding_boxes=True to use the whole image.")
        moc = convert_to_tensor(min_object_covered, _dtypes.float32, name="min_object_covered")
        attrs = {"aspect_ratio_range": ar, "area_range": area, "max_attempts": attempts,
                 "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes),
                 **random_ops.seed_attrs(seed)}
        out = apply_op("SampleDistortedBoundingBoxV2", (size_t, boxes, moc), attrs, name=scope)
        return out[0], out[1], out[2]


_BOX_COLORS = np.asarray([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
                          [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


@register_op("DrawBoundingBoxes", default_name="DrawBoundingBoxes")
def _draw_bounding_boxes(images: Any, boxes: Any) -> Any:
    _, h, w, depth = images.shape
    colors = _BOX_COLORS.copy()
    if depth == 1:
        colors[:, 0] = 1
    rows = jnp.arange(h)[:, None]
    cols = jnp.arange(w)[None, :]

    def draw(canvas: Any, i: int) -> Any:
        b = boxes[:, i].astype(jnp.float32)  # [batch, 4]
        r0, c0 = (b[:, 0] * (h - 1)).astype(jnp.int32), (b[:, 1] * (w - 1)).astype(jnp.int32)
        r1, c1 = (b[:, 2] * (h - 1)).astype(jnp.int32), (b[:, 3] * (w - 1)).astype(jnp.int32)
        r0c, r1c = jnp.maximum(r0, 0), jnp.minimum(r1, h - 1)
        c0c, c1c = jnp.maximum(c0, 0), jnp.minimum(c1, w - 1)
        e = (slice(None), None, None)
        drawn = (r0 <= r1) & (c0 <= c1) & (r0 < h) & (r1 >= 0) & (c0 < w) & (c1 >= 0)
        in_cols = (cols >= c0c[e]) & (cols <= c1c[e])
        in_rows = (rows >= r0c[e]) & (rows <= r1c[e])
        line = ((rows == r0[e]) & (r0 >= 0)[e] & in_cols) | ((rows == r1[e]) & (r1 < h)[e] & in_cols) | \
               ((cols == c0[e]) & (c0 >= 0)[e] & in_rows) | ((cols == c1[e]) & (c1 < w)[e] & in_rows)
        mask = (line & drawn[e])[..., None]
        color = jnp.asarray(colors[i % len(colors), :depth], canvas.dtype)
        return jnp.where(mask, color, canvas)

    out = images
    for i in range(boxes.shape[1]):
        out = draw(out, i)
    return out


def draw_bounding_boxes(images: Any, boxes: Any, name: str | None = None) -> Any:
    """``images`` with the outline of each box drawn in TF's colour table (box ``i`` in colour
    ``i % 10``; later boxes on top), as ``tf.compat.v1.image.draw_bounding_boxes``.

    Args:
      images: float32/half ``[batch, height, width, depth]``, ``depth`` 1, 3 or 4.
      boxes: float32 ``[batch, num_boxes, 4]`` normalised ``[y_min, x_min, y_max, x_max]``.

    Raises:
      ValueError: a bad rank or depth.
    """
    with op_scope(name, "DrawBoundingBoxes", [images, boxes]) as scope:
        x = convert_to_tensor(images, name="images")
        shape = _image_dims(x, "draw_bounding_boxes", (4,))
        if shape[-1] not in (1, 3, 4):
            raise ValueError(f"draw_bounding_boxes: channel depth should be 1 (GRY), 3 (RGB) or 4 (RGBA), "
                             f"got shape {list(shape)}.")
        b = convert_to_tensor(boxes, _dtypes.float32, name="boxes")
        bshape = _shape(b)
        if bshape is None or len(bshape) != 3 or bshape[-1] != 4 or bshape[1] is None:
            raise ValueError(f"draw_bounding_boxes: 'boxes' must be [batch, num_boxes, 4] with num_boxes known, "
                             f"got {bshape}.")
        return apply_op("DrawBoundingBoxes", (x, b), {}, name=scope)


def _iou(b: Any) -> Any:
    """The IoU matrix of boxes ``[n, 4]`` (corners in either order; 0 for an empty box), as TF's."""
    y1, y2 = jnp.minimum(b[:, 0], b[:, 2]), jnp.maximum(b[:, 0], b[:, 2])
    x1, x2 = jnp.minimum(b[:, 1], b[:, 3]), jnp.maximum(b[:, 1], b[:, 3])
    area = (y2 - y1) * (x2 - x1)
    ih = jnp.maximum(jnp.minimum(y2[:, None], y2[None, :]) - jnp.maximum(y1[:, None], y1[None, :]), 0)
    iw = jnp.maximum(jnp.minimum(x2[:, None], x2[None, :]) - jnp.maximum(x1[:, None], x1[None, :]), 0)
    inter = ih * iw
    union = area[:, None] + area[None, :] - inter
    return jnp.where((area[:, None] > 0) & (area[None, :] > 0), inter / jnp.where(union > 0, union, 1), 0)


def _nms(boxes: Any, scores: Any, max_output_size: int, iou_threshold: Any, score_threshold: Any,
         overlaps: Any = None) -> Any:
    """Greedy NMS: ``(indices int32 [max_output_size], count)``, the kept indices by decreasing
    score then 0s. ``overlaps`` (``[n, n]``, ``overlaps[i, j]`` the similarity of candidate ``i``
    to a kept ``j``) replaces the boxes' IoU (TF's ``NonMaxSuppressionWithOverlaps``)."""
    n = scores.shape[0]
    order = jnp.argsort(-scores, stable=True)
    s = scores[order]
    if overlaps is None:
        iou = _iou(boxes[order].astype(jnp.float32))
    else:
        iou = overlaps[order][:, order].T  # iou[k, i]: candidate i against kept k
    candidate = s > score_threshold

    def body(i: Any, keep: Any) -> Any:
        clash = jnp.any(keep & (iou[:, i] > iou_threshold))
        room = jnp.sum(keep) < max_output_size
        return keep.at[i].set(candidate[i] & ~clash & room)

    keep = jax.lax.fori_loop(0, n, body, jnp.zeros((n,), bool))
    count = jnp.sum(keep).astype(jnp.int32)
    rank = jnp.where(keep, jnp.arange(n), n)
    picked = order[jnp.sort(rank)[:max_output_size] % max(n, 1)]
    pos = jnp.arange(max_output_size)
    if n < max_output_size:
        picked = jnp.concatenate([picked, jnp.zeros((max_output_size - n,), picked.dtype)])
    return jnp.where(pos < count, picked, 0).astype(jnp.int32), count


@register_op("NonMaxSuppressionV4", num_outputs=2, default_name="NonMaxSuppressionV4", tf=TFOp(
    types={"T": 0, "T_threshold": 3}, to_tf=lambda a, specs: ({"pad_to_max_output_size": True},
                                                              [np.asarray(a["max_output_size"], np.int32)]),
    from_tf=lambda a, c: {"max_output_size": int(c[0])}, n_const=1, const_pos=2))
def _non_max_suppression(boxes: Any, scores: Any, iou_threshold: Any, score_threshold: Any, *,
                         max_output_size: int) -> Any:
    return _nms(boxes, scores, max_output_size, iou_threshold, score_threshold)


def _nms_host_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([None]), _dtypes.int32)]


@register_op("NonMaxSuppressionV3", infer=_nms_host_infer, lowering=device_lowering,
             default_name="NonMaxSuppressionV3")
def _nms_v3_device(*inputs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("NonMaxSuppressionV3 runs on the host")


@register_host("NonMaxSuppressionV3", always=True, infer=_nms_host_infer)
def _host_nms_v3(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    boxes, scores, iou, score_threshold = (np.asarray(v, np.float32) for v in inputs)
    if boxes.shape[0] != scores.shape[0]:
        raise errors.InvalidArgumentError(op.name, op, f"scores has incompatible shape: boxes has {boxes.shape[0]} "
                                                       f"boxes, scores {scores.shape[0]}")
    picked, count = _nms(jnp.asarray(boxes), jnp.asarray(scores), op.attrs["max_output_size"], jnp.asarray(iou),
                         jnp.asarray(score_threshold))
    return (np.asarray(picked)[:int(count)],)


def _nms_inputs(fn: str, boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any,
                score_threshold: Any) -> tuple[Tensor, Tensor, int, Tensor, Tensor]:
    b = convert_to_tensor(boxes, _dtypes.float32, name="boxes")
    s = convert_to_tensor(scores, _dtypes.float32, name="scores")
    bshape, sshape = _shape(b), _shape(s)
    if bshape is None or len(bshape) != 2 or bshape[1] not in (None, 4):
        raise ValueError(f"{fn}: 'boxes' must be [num_boxes, 4], got {bshape}.")
    if sshape is None or len(sshape) != 1:
        raise ValueError(f"{fn}: 'scores' must be [num_boxes], got {sshape}.")
    m = static_int(max_output_size, fn, "max_output_size")
    if m < 0:
        raise ValueError(f"{fn}: max_output_size must be non-negative, got {m}.")
    iou_known = iou_threshold if not isinstance(iou_threshold, Tensor) else constant_value(iou_threshold)
    if iou_known is not None and not 0 <= float(np.asarray(iou_known)) <= 1:
        raise ValueError(f"{fn}: iou_threshold must be in [0, 1], got {float(np.asarray(iou_known))}.")
    iou = convert_to_tensor(iou_threshold, _dtypes.float32, name="iou_threshold")
    st = convert_to_tensor(score_threshold, _dtypes.float32, name="score_threshold")
    return b, s, m, iou, st


def non_max_suppression_padded(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                               score_threshold: Any = float("-inf"), pad_to_max_output_size: bool = False,
                               name: str | None = None) -> tuple[Any, Any]:
    """Greedy non-max suppression with a static output size, as TF1's
    ``tf.image.non_max_suppression_padded`` (TF 1.15's ``NonMaxSuppressionV4`` kernel).

    Returns:
      ``(selected_indices, valid_outputs)``: int32 ``[max_output_size]`` (the
      first ``valid_outputs`` entries are the kept boxes' indices by decreasing
      score, the rest 0) and an int32 scalar. With ``pad_to_max_output_size=False``
      the indices are :func:`non_max_suppression`'s (length the valid count);
      TF 2's tiled algorithm (used by TF >= 2.2 for this name) can select
      differently.

    Raises:
      ValueError: bad shapes, ``iou_threshold`` outside ``[0, 1]``.
    """
    if not pad_to_max_output_size:
        idx = non_max_suppression(boxes, scores, max_output_size, iou_threshold, score_threshold, name)
        return idx, array_ops.size(idx)
    with op_scope(name, "non_max_suppression_padded", [boxes, scores]) as scope:
        b, s, m, iou, st = _nms_inputs("non_max_suppression_padded", boxes, scores, max_output_size,
                                       iou_threshold, score_threshold)
        out = apply_op("NonMaxSuppressionV4", (b, s, iou, st), {"max_output_size": m}, name=scope)
        return out[0], out[1]


def non_max_suppression(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                        score_threshold: Any = float("-inf"), name: str | None = None) -> Any:
    """The indices (int32, by decreasing score) of the boxes kept by greedy non-max suppression,
    as ``tf.image.non_max_suppression``: a box is dropped when its IoU with a kept
    box is above ``iou_threshold`` or its score is not above ``score_threshold``.

    The result's length depends on the data, which XLA cannot compile: with
    boxes or scores computed in the run it is a host op (TF's
    ``NonMaxSuppressionV3``; its inputs come from a device run of their own,
    and ops after it compile once per distinct length). In a jitted loop use
    ``non_max_suppression_padded(..., pad_to_max_output_size=True)`` (fixed
    length and a valid count).

    Raises:
      ValueError: bad shapes, ``iou_threshold`` outside ``[0, 1]``.
      NotImplementedError: the boxes or scores depend on a variable assignment.
      InvalidArgumentError (at run time): boxes and scores of different lengths.
    """
    with op_scope(name, "non_max_suppression", [boxes, scores]) as scope:
        b, s, m, iou, st = _nms_inputs("non_max_suppression", boxes, scores, max_output_size, iou_threshold,
                                       score_threshold)
        known = [constant_value(t) for t in (b, s, iou, st)]
        if any(k is None for k in known):  # run-time boxes: a host op (its length depends on the data)
            require_no_assign_before([b, s, iou, st], "tf.image.non_max_suppression")
            return apply_op("NonMaxSuppressionV3", (b, s, iou, st), {"max_output_size": m}, name=scope)
        _, count = _nms(jnp.asarray(known[0]), jnp.asarray(known[1]), m, jnp.asarray(known[2]),
                           jnp.asarray(known[3]))
        out = apply_op("NonMaxSuppressionV4", (b, s, iou, st), {"max_output_size": m})
        return array_ops.slice(out[0], [0], [int(count)], name=scope)


# -- metrics and gradients --------------------------------------------------------------------------------


def total_variation(images: Any, name: str | None = None) -> Any:
    """The sum of absolute differences of neighbouring pixels: a scalar for ``[h, w, c]``,
    ``[batch]`` for ``[batch, h, w, c]``, in the image's dtype, as ``tf.image.total_variation``."""
    with op_scope(name, "total_variation", [images]) as scope:
        x = convert_to_tensor(images, name="images")
        rank = len(_image_dims(x, "total_variation"))
        if rank == 3:
            d1 = x[1:, :, :] - x[:-1, :, :]
            d2 = x[:, 1:, :] - x[:, :-1, :]
            axis: Any = None
        else:
            d1 = x[:, 1:, :, :] - x[:, :-1, :, :]
            d2 = x[:, :, 1:, :] - x[:, :, :-1, :]
            axis = [1, 2, 3]
        return math_ops.add(math_ops.reduce_sum(math_ops.abs(d1), axis=axis),
                            math_ops.reduce_sum(math_ops.abs(d2), axis=axis), name=scope)


def _float_pair(a: Any, b: Any, max_val: Any, fn: str) -> tuple[Any, Any, Any]:
    x = convert_to_tensor(a, name="a")
    y = convert_to_tensor(b, name="b")
    if dtype_of(x) != dtype_of(y):
        raise TypeError(f"{fn}: the images must have the same dtype, got {dtype_of(x).name} and "  # type: ignore[union-attr]
                        f"{dtype_of(y).name}.")  # type: ignore[union-attr]
    sx, sy = _shape(x), _shape(y)
    if sx is not None and sy is not None and (len(sx) != len(sy) or any(
            p is not None and q is not None and p != q for p, q in zip(sx, sy, strict=True))):
        raise ValueError(f"{fn}: the images must have the same shape, got {list(sx)} and {list(sy)}.")
    mv = convert_image_dtype(math_ops.cast(max_val, dtype_of(x)), _dtypes.float32)
    return convert_image_dtype(x, _dtypes.float32), convert_image_dtype(y, _dtypes.float32), mv


def psnr(a: Any, b: Any, max_val: Any, name: str | None = None) -> Any:
    """Peak signal-to-noise ratio in dB over the last three dims (float32, ``[...]``), as
    ``tf.image.psnr``: ``20 log10(max_val) - 10 log10(mse)``.

    Raises:
      TypeError: different dtypes. ValueError: different shapes.
    """
    with op_scope(name, "PSNR", [a, b]):
        x, y, mv = _float_pair(a, b, max_val, "psnr")
        mse = math_ops.reduce_mean(math_ops.squared_difference(x, y), [-3, -2, -1])
        return math_ops.subtract(20 * math_ops.log(mv) / np.log(10.0).astype(np.float32),
                                 np.float32(10 / np.log(10)) * math_ops.log(mse), name="psnr")


def _gauss(size: int, sigma: float) -> np.ndarray:
    coords = np.arange(size, dtype=np.float32) - np.float32(size - 1) / 2
    g = np.square(coords) * np.float32(-0.5 / sigma**2)
    g = (g.reshape(1, -1) + g.reshape(-1, 1)).reshape(-1)
    g = np.exp(g - g.max())
    return (g / g.sum()).reshape(size, size, 1, 1).astype(np.float32)


def _ssim_per_channel(x: Any, y: Any, mv: Any, filter_size: int, filter_sigma: float, k1: float,
                      k2: float, fn: str) -> tuple[Any, Any]:
    # (ssim, cs) per channel, [..., channels]: _ssim_per_channel of TF's image_ops_impl.py
    shape: Any = _shape(x)
    if shape is None or len(shape) < 3 or None in shape[-3:]:
        raise ValueError(f"{fn}: images need rank >= 3 and known height, width and channels, got {shape}.")
    if any(d < filter_size for d in shape[-3:-1]):
        raise ValueError(f"{fn}: the images ({list(shape)}) are smaller than filter_size {filter_size}.")
    kernel = np.tile(_gauss(filter_size, filter_sigma), [1, 1, shape[-1], 1])
    lead = [-1 if d is None else d for d in shape[:-3]]

    def reducer(t: Any) -> Any:
        flat = array_ops.reshape(t, [-1, *shape[-3:]])
        out = conv_ops.depthwise_conv2d(flat, kernel, [1, 1, 1, 1], "VALID")
        tail = _dims(out)[1:]
        return array_ops.reshape(out, lead + tail) if lead.count(-1) <= 1 else out

    c1 = (k1 * mv) ** 2
    c2 = (k2 * mv) ** 2
    mean0, mean1 = reducer(x), reducer(y)
    num0 = mean0 * mean1 * 2.0
    den0 = math_ops.square(mean0) + math_ops.square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(x * y) * 2.0
    den1 = reducer(math_ops.square(x) + math_ops.square(y))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    return math_ops.reduce_mean(luminance * cs, [-3, -2]), math_ops.reduce_mean(cs, [-3, -2])


def ssim(img1: Any, img2: Any, max_val: Any, filter_size: int = 11, filter_sigma: float = 1.5,
         k1: float = 0.01, k2: float = 0.03) -> Any:
    """Structural similarity over the last three dims (float32 ``[...]``), Gaussian window
    ``filter_size`` x ``filter_size`` of ``filter_sigma``, ``'VALID'``, averaged over channels,
    as ``tf.image.ssim``.

    Raises:
      TypeError: different dtypes. ValueError: different shapes, unknown image dims, or
      images smaller than the filter.
    """
    with op_scope(None, "SSIM", [img1, img2]):
        x, y, mv = _float_pair(img1, img2, max_val, "ssim")
        per_channel, _ = _ssim_per_channel(x, y, mv, filter_size, filter_sigma, k1, k2, "ssim")
        return math_ops.reduce_mean(per_channel, [-1])


_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def ssim_multiscale(img1: Any, img2: Any, max_val: Any, power_factors: Any = _MSSSIM_WEIGHTS,
                    filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01, k2: float = 0.03) -> Any:
    """Multi-scale SSIM (float32 ``[...]``), as ``tf.image.ssim_multiscale``: ``len(power_factors)``
    scales, each 2x2-average-pooled from the last (odd sizes padded symmetrically first);
    the product of ``relu(cs) ** power`` at the finer scales and ``relu(ssim) ** power``
    at the coarsest, averaged over channels.

    Raises:
      TypeError: different dtypes. ValueError: different shapes, unknown image dims, or a
      scale smaller than the filter.
    """
    with op_scope(None, "MS-SSIM", [img1, img2]):
        x, y, mv = _float_pair(img1, img2, max_val, "ssim_multiscale")
        imgs = [x, y]
        mcs = []
        per_channel: Any = None
        for k in range(len(power_factors)):
            if k > 0:
                shape = _dims(imgs[0])
                lead, (h, w, c) = shape[:-3], shape[-3:]
                flat = [array_ops.reshape(t, [-1, h, w, c]) for t in imgs]
                if h % 2 or w % 2:
                    flat = [array_ops.pad(t, [[0, 0], [0, h % 2], [0, w % 2], [0, 0]], mode="SYMMETRIC") for t in flat]
                down = [nn_ops.avg_pool(t, [1, 2, 2, 1], [1, 2, 2, 1], "VALID") for t in flat]
                tail = _dims(down[0])[1:]
                imgs = [array_ops.reshape(t, [-1 if d is None else d for d in lead] + tail) for t in down]
            per_channel, cs = _ssim_per_channel(imgs[0], imgs[1], mv, filter_size, filter_sigma, k1, k2,
                                                "ssim_multiscale")
            mcs.append(nn_ops.relu(cs))
        mcs.pop()
        stacked = array_ops.stack([*mcs, nn_ops.relu(per_channel)], axis=-1)
        weights = np.asarray(power_factors, np.float32)
        return math_ops.reduce_mean(math_ops.reduce_prod(math_ops.pow(stacked, weights), [-1]), [-1])


def image_gradients(image: Any) -> tuple[Any, Any]:
    """``(dy, dx)``: forward differences along height and width, zero in the last row/column,
    each ``[batch, h, w, d]``, as ``tf.image.image_gradients``.

    Raises:
      ValueError: ``image`` is not 4-D (as TF).
    """
    x = convert_to_tensor(image, name="image")
    shape = _shape(x)
    if shape is None or len(shape) != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {shape}.")
    dy = x[:, 1:, :, :] - x[:, :-1, :, :]
    dx = x[:, :, 1:, :] - x[:, :, :-1, :]
    dy = array_ops.pad(dy, [[0, 0], [0, 1], [0, 0], [0, 0]])
    dx = array_ops.pad(dx, [[0, 0], [0, 0], [0, 1], [0, 0]])
    return dy, dx


def sobel_edges(image: Any) -> Any:
    """Sobel responses ``[batch, h, w, d, 2]`` (``[..., 0]`` vertical ``dy``, ``[..., 1]`` ``dx``)
    with reflect padding, in the image's dtype, as ``tf.image.sobel_edges``.

    Raises:
      ValueError: ``image`` is not 4-D with a known channel count.
    """
    x = convert_to_tensor(image, name="image")
    shape = _shape(x)
    if shape is None or len(shape) != 4 or shape[-1] is None:
        raise ValueError(f"sobel_edges expects a 4D tensor [batch_size, h, w, d] with known d, not {shape}.")
    kernels = np.asarray([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]])
    k = np.expand_dims(np.transpose(kernels, (1, 2, 0)), -2)
    k = np.tile(k, [1, 1, shape[-1], 1]).astype(dtype_of(x).np_dtype)  # type: ignore[union-attr]
    padded = array_ops.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    out = conv_ops.depthwise_conv2d(padded, k, [1, 1, 1, 1], "VALID")
    return array_ops.reshape(out, [-1 if d is None else d for d in shape] + [2])
