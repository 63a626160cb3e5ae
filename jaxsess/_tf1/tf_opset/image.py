"""TF's image ops, as TF's ``OpDef``\\ s list them: ``ResizeBilinear(images,
size)``, ``ResizeNearestNeighbor``, ``ResizeBicubic``, ``ResizeArea`` (with
``align_corners``/``half_pixel_centers``), ``CropAndResize``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._tf1.tf_opset._common import host_ints, impl, lowering, node_error

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


@lowering("ResizeBilinearGrad")
def _resize_bilinear_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """The gradient of ``ResizeBilinear`` with respect to ``original_image``: its transpose."""
    grads, original = inputs
    size = tuple(int(d) for d in np.shape(grads)[1:3])
    x0 = jnp.zeros(np.shape(original), jnp.result_type(grads))
    _, vjp = jax.vjp(lambda x: impl("ResizeBilinear")(x, size=size, align_corners=attrs["align_corners"],
                                                      half_pixel_centers=attrs["half_pixel_centers"]), x0)
    return vjp(jnp.asarray(grads))[0].astype(jnp.result_type(original))
