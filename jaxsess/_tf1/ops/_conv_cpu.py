"""Convolution formulations that XLA:CPU runs faster than ``lax.conv_general_dilated``.

XLA:CPU (jax 0.10) runs a grouped convolution with one channel per group — TF's
``DepthwiseConv2dNative`` — as a generic convolution: one 3×3 depthwise layer on
``[8, 112, 112, 96]`` float32 takes 220–450 ms there, where TF's own kernel takes
about 7 ms. Written as a sum of ``kh·kw`` shifted element-wise products
(``out = Σ_ij x[:, i·dh + s·h, j·dw + s·w, :] · w[i, j]``) the same layer is one
fused loop XLA:CPU runs in 12–25 ms (on an idle 2-core machine; ``benchmarks/bench_convs.py``
compares them, and TF, interleaved). The sums are the same products added in another
order: results equal the direct convolution within a few float32 ulps (1.2e-7 relative on the
layer above).

The choice is made where the backend is known: :func:`depthwise` stages both
formulations with :func:`jax.lax.platform_dependent`, so a CPU lowering gets the
shifted products and GPU/TPU lowerings (and the non-CPU branches of a
multi-platform ``jax.export``) keep ``conv_general_dilated``. Gradients are
JAX's own derivatives of the chosen formulation.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
from jax import lax

__all__ = ["depthwise", "depthwise_direct", "depthwise_shifted", "use_shifted_depthwise"]

# The largest kernel (kh·kw taps) written as shifted products on CPU: the products are
# unrolled, so compile time grows with the taps. Measured on 2 cores (jax 0.10.2, float32,
# SAME, stride 1): [8, 56, 56, 144]
# 3×3 31× faster than the direct convolution, 5×5 19×, 7×7 15×, 9×9 12×; [8, 14, 14, 576]
# 3×3 19×, 9×9 21×.
MAX_SHIFTED_TAPS = 81


def _spatial_axes(data_format: str) -> tuple[int, int, int]:
    """(height axis, width axis, channel axis) of ``data_format``."""
    return (1, 2, 3) if data_format == "NHWC" else (2, 3, 1)


def _pads(size: int, k: int, stride: int, dilation: int, padding: Any, axis: int) -> tuple[int, int, int]:
    """(pad_lo, pad_hi, out_size) of one spatial axis, TF's rules (``SAME``: extra at the end)."""
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        out = -(-size // stride)
        total = max((out - 1) * stride + eff - size, 0)
        return total // 2, total - total // 2, out
    if padding == "VALID":
        lo = hi = 0
    else:
        lo, hi = padding[axis]
    out = (size + lo + hi - eff) // stride + 1
    return lo, hi, out


def depthwise_direct(x: Any, w: Any, strides: tuple[int, int], padding: Any, dilations: tuple[int, int],
                     data_format: str) -> Any:
    """``DepthwiseConv2dNative`` as one grouped ``lax.conv_general_dilated`` (``feature_group_count=C``)."""
    kh, kw, c, m = w.shape
    return lax.conv_general_dilated(
        x, jnp.reshape(w, (kh, kw, 1, c * m)), window_strides=strides, padding=padding, rhs_dilation=dilations,
        dimension_numbers=(data_format, "HWIO", data_format), feature_group_count=c,
    )


def depthwise_shifted(x: Any, w: Any, strides: tuple[int, int], padding: Any, dilations: tuple[int, int],
                      data_format: str) -> Any:
    """``DepthwiseConv2dNative`` as ``kh·kw`` shifted element-wise products, summed.

    Args:
      x: ``[N, H, W, C]`` (NHWC) or ``[N, C, H, W]`` (NCHW), a float dtype.
      w: ``[kh, kw, C, M]``, ``x``'s dtype.
      strides, dilations: ``(sh, sw)``, ``(dh, dw)``.
      padding: ``'SAME'``, ``'VALID'`` or ``((top, bottom), (left, right))``.

    Returns:
      ``[N, H', W', C·M]`` (or NCHW), ``x``'s dtype; output channel ``c·M + k`` is input
      channel ``c`` filtered by ``w[:, :, c, k]``, as TF. 16-bit floats accumulate in float32.
    """
    kh, kw, c, m = w.shape
    ah, aw, ac = _spatial_axes(data_format)
    n = x.shape[0]
    lo_h, hi_h, oh = _pads(x.shape[ah], kh, strides[0], dilations[0], padding, 0)
    lo_w, hi_w, ow = _pads(x.shape[aw], kw, strides[1], dilations[1], padding, 1)
    acc_dtype = jnp.float32 if jnp.dtype(x.dtype).itemsize < 4 else x.dtype
    xa = x.astype(acc_dtype)
    wa = w.astype(acc_dtype)
    if lo_h or hi_h or lo_w or hi_w:
        cfg = [(0, 0, 0)] * 4
        cfg[ah] = (lo_h, hi_h, 0)
        cfg[aw] = (lo_w, hi_w, 0)
        xa = lax.pad(xa, jnp.zeros((), acc_dtype), cfg)
    sh, sw = strides
    # lax primitives only (no jnp indexing or promotion): the taps are traced once per layer
    # per lowering (a 5x5 layer [8, 56, 56, 144]: 7.8 ms with jnp indexing, 3.2 ms so).
    out_shape: tuple[int, ...]
    if m == 1:
        out_shape = (n, oh, ow, c) if ac == 3 else (n, c, oh, ow)
    else:
        out_shape = (n, oh, ow, c, m) if ac == 3 else (n, c, m, oh, ow)
    w_dims = (ac,) if m == 1 else ((3, 4) if ac == 3 else (1, 2))
    tap_dims = tuple(range(4)) if (m == 1 or ac == 3) else (0, 1, 3, 4)
    out: Any = None
    for i in range(kh):
        for j in range(kw):
            start = [0, 0, 0, 0]
            start[ah], start[aw] = i * dilations[0], j * dilations[1]
            limit = list(xa.shape)
            limit[ah] = start[ah] + (oh - 1) * sh + 1
            limit[aw] = start[aw] + (ow - 1) * sw + 1
            step = [1, 1, 1, 1]
            step[ah], step[aw] = sh, sw
            tap = lax.slice(xa, start, limit, step)
            wij = lax.reshape(lax.slice(wa, (i, j, 0, 0), (i + 1, j + 1, c, m)), (c,) if m == 1 else (c, m))
            if m > 1:
                tap = lax.broadcast_in_dim(tap, out_shape, tap_dims)
            term = lax.mul(tap, lax.broadcast_in_dim(wij, out_shape, w_dims))
            out = term if out is None else lax.add(out, term)
    if m > 1:
        out = lax.reshape(out, (n, oh, ow, c * m) if ac == 3 else (n, c * m, oh, ow))
    return _end_of_loop(out.astype(x.dtype))


def _end_of_loop(y: Any) -> Any:
    """``y`` unchanged, as a value XLA:CPU's library fusions do not take in.

    ``reduce_precision`` to ``y``'s own exponent and mantissa widths is the identity (every
    value, NaN and infinities included, is already representable), and XLA keeps it. Without
    it, a consumer's reduction (``reduce_sum`` of the layer) becomes a YNNPACK reduce fusion
    that swallows the products and materialises each of the ``kh·kw`` shifted slices as its
    own array: 5–8× slower than the one fused loop.
    """
    info = jnp.finfo(y.dtype)
    return lax.reduce_precision(y, exponent_bits=info.nexp, mantissa_bits=info.nmant)


def use_shifted_depthwise(w_shape: tuple[int, ...]) -> bool:
    """Whether :func:`depthwise` writes a kernel of ``w_shape`` as shifted products on CPU."""
    return int(w_shape[0]) * int(w_shape[1]) <= MAX_SHIFTED_TAPS


def depthwise(x: Any, w: Any, strides: tuple[int, int], padding: Any, dilations: tuple[int, int],
              data_format: str) -> Any:
    """``DepthwiseConv2dNative``: shifted products on CPU for small kernels, the grouped
    convolution elsewhere (chosen at lowering, per platform)."""
    args = (strides, padding, dilations, data_format)
    if not use_shifted_depthwise(w.shape):
        return depthwise_direct(x, w, *args)
    return lax.platform_dependent(
        x, w,
        cpu=lambda a, b: depthwise_shifted(a, b, *args),
        default=lambda a, b: depthwise_direct(a, b, *args),
    )

