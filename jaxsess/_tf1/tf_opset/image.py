"""TF's image ops, as TF's ``OpDef``\\ s list them: ``ResizeBilinear(images,
size)``, ``ResizeNearestNeighbor``, ``ResizeBicubic``, ``ResizeArea`` (with
``align_corners``/``half_pixel_centers``), ``CropAndResize``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._tf1.tf_opset._common import host_ints, impl, lowering, node_error, np_dtype

__all__: list[str] = []

for _t in ("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic"):
    def _resize(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        images, size = inputs
        hw = host_ints(ctx, size, "size")
        if len(hw) != 2 or min(hw) <= 0:
            raise node_error(ctx, f"size must be 2 positive integers [height, width], got {list(hw)}")
        if np.ndim(images) != 4:
            raise node_error(ctx, f"images must be 4-D [batch, height, width, channels], got shape "
                                  f"{list(np.shape(images))}")
        return impl(_t)(images, size=hw, align_corners=attrs["align_corners"],
                        half_pixel_centers=attrs["half_pixel_centers"])
    lowering(_t, static_inputs=(1,))(_resize)


for _t in ("ResizeBilinear", "ResizeBicubic"):
    def _resize_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        """The gradient of the resize with respect to ``original_image``: its transpose."""
        grads, original = inputs
        size = tuple(int(d) for d in np.shape(grads)[1:3])
        x0 = jnp.zeros(np.shape(original), jnp.result_type(grads))
        _, vjp = jax.vjp(lambda x: impl(_t)(x, size=size, align_corners=attrs["align_corners"],
                                            half_pixel_centers=attrs["half_pixel_centers"]), x0)
        return vjp(jnp.asarray(grads))[0].astype(jnp.result_type(original))
    lowering(_t + "Grad")(_resize_grad)


@lowering("CropAndResizeGradImage", static_inputs=(3,))
def _crop_and_resize_grad_image(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    grads, boxes, box_ind, image_size = inputs
    x0 = jnp.zeros(host_ints(ctx, image_size, "image_size"), np_dtype(attrs["T"]))
    crop = tuple(int(d) for d in np.shape(grads)[1:3])
    _, vjp = jax.vjp(lambda x: impl("CropAndResize")(x, jnp.asarray(boxes), jnp.asarray(box_ind), crop_size=crop,
                                                     method=attrs["method"], extrapolation_value=0.0), x0)
    return vjp(jnp.asarray(grads).astype(x0.dtype))[0]


@lowering("ResizeArea", static_inputs=(1,))
def _resize_area(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("ResizeArea")(inputs[0], size=host_ints(ctx, inputs[1], "size"), align_corners=attrs["align_corners"])


@lowering("CropAndResize", static_inputs=(3,))
def _crop_and_resize(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    image, boxes, box_ind, size = inputs
    hw = host_ints(ctx, size, "crop_size")
    return impl("CropAndResize")(jnp.asarray(image), jnp.asarray(boxes), jnp.asarray(box_ind), crop_size=hw,
                                 method=attrs["method"], extrapolation_value=attrs["extrapolation_value"])


for _t in ("RGBToHSV", "HSVToRGB"):
    def _color(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        return impl(_t)(jnp.asarray(inputs[0]))
    lowering(_t)(_color)

for _t in ("AdjustContrastv2", "AdjustHue", "AdjustSaturation"):
    def _adjust(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        return impl(_t)(jnp.asarray(inputs[0]), jnp.asarray(inputs[1]))
    lowering(_t)(_adjust)


@lowering("CropAndResizeGradBoxes")
def _crop_and_resize_grad_boxes(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    grads, image, boxes, box_ind = inputs
    crop = tuple(int(d) for d in np.shape(grads)[1:3])
    _, vjp = jax.vjp(lambda b: impl("CropAndResize")(jnp.asarray(image), b, jnp.asarray(box_ind), crop_size=crop,
                                                     method=attrs["method"], extrapolation_value=0.0),
                     jnp.asarray(boxes))
    return vjp(jnp.asarray(grads))[0]
