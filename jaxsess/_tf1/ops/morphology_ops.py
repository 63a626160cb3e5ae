"""Grayscale morphology, as ``tf.compat.v1.nn.dilation2d`` / ``erosion2d``.

TF's ``Dilation2D`` (``NHWC`` only): ``out[b, y, x, c] = max over (i, j) of
input[b, y·sh + i·rh - top, x·sw + j·rw - left, c] + filter[i, j, c]``, the
windows padded with ``-inf`` (``SAME``: TF's windowed sizes of the effective
filter ``f + (f - 1)(r - 1)``). The maximum is the first one met in row-major
``(i, j)`` order, so the gradient goes to that tap alone, as TF's
``Dilation2DBackpropInput``/``Filter`` do. ``erosion2d`` is
``-dilation2d(-value, reverse(kernel))``, as TF writes it.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxsess._core.graph._builder import apply_op
from jaxsess._core.graph._registry import register_op
from jaxsess._tf1.ops import math_ops, shape_ops
from jaxsess._tf1.ops._args import float_input, op_scope, same_dtype, static_ints

__all__ = ["dilation2d", "erosion2d"]


def _pads(size: int, k: int, stride: int, rate: int, padding: str) -> tuple[int, int, int]:
    """``(before, after, out)`` of one spatial dimension, as TF's ``GetWindowedOutputSize``."""
    eff = k + (k - 1) * (rate - 1)
    if padding == "VALID":
        out = max(-(-(size - eff + 1) // stride), 0)
        return 0, 0, out
    out = -(-size // stride)
    total = max((out - 1) * stride + eff - size, 0)
    return total // 2, total - total // 2, out


@register_op("Dilation2D", default_name="Dilation2D")
def _dilation2d(x: Any, w: Any, *, strides: tuple[int, ...], rates: tuple[int, ...], padding: str) -> Any:
    if x.ndim != 4 or w.ndim != 3:
        raise ValueError(f"input must be 4-dimensional and filter 3-dimensional, got shapes {list(x.shape)} and "
                         f"{list(w.shape)}")
    if x.shape[3] != w.shape[2]:
        raise ValueError(f"input and filter must have the same depth: {x.shape[3]} vs {w.shape[2]}")
    (sh, sw), (rh, rw) = strides[1:3], rates[1:3]
    kh, kw = w.shape[0], w.shape[1]
    top, bottom, oh = _pads(x.shape[1], kh, sh, rh, padding)
    left, right, ow = _pads(x.shape[2], kw, sw, rw, padding)
    low = jnp.asarray(-np.inf, x.dtype)
    xp = lax.pad(x, low, [(0, 0, 0), (top, bottom, 0), (left, right, 0), (0, 0, 0)])
    taps = []
    for i in range(kh):
        for j in range(kw):
            win = lax.slice(xp, (0, i * rh, j * rw, 0),
                            (x.shape[0], i * rh + (oh - 1) * sh + 1, j * rw + (ow - 1) * sw + 1, x.shape[3]),
                            (1, sh, sw, 1))
            taps.append(win + w[i, j])
    stacked = jnp.stack(taps)
    first = jnp.argmax(stacked, axis=0)  # the first maximum, as TF's kernel (strict >)
    return jnp.take_along_axis(stacked, first[None], axis=0)[0]


def _four(value: Any, fn: str, arg: str) -> tuple[int, ...]:
    vals = static_ints(value, fn, arg)
    if len(vals) != 4 or vals[0] != 1 or vals[3] != 1:
        raise ValueError(f"{fn}: {arg} must be 4 ints [1, h, w, 1], got {list(vals)}.")
    return tuple(vals)


def _padding(padding: Any, fn: str) -> str:
    p = str(padding).upper() if padding is not None else ""
    if p not in ("SAME", "VALID"):
        raise ValueError(f"{fn}: padding must be 'SAME' or 'VALID', got {padding!r}.")
    return p


def _apply(x: Any, w: Any, strides: Any, rates: Any, padding: Any, fn: str, name: str | None) -> Any:
    attrs = {"strides": _four(strides, fn, "strides"), "rates": _four(rates, fn, "rates"),
             "padding": _padding(padding, fn)}
    return apply_op("Dilation2D", (x, w), attrs, name=name)


def dilation2d(input: Any, filter: Any = None, strides: Any = None, rates: Any = None,  # noqa: A002
               padding: Any = None, name: str | None = None, filters: Any = None, dilations: Any = None) -> Any:
    """Grayscale dilation of ``input`` ``[N, H, W, C]`` by ``filter`` ``[fh, fw, C]``, as
    ``tf.compat.v1.nn.dilation2d`` (TF's ``Dilation2D``; ``filters``/``dilations`` alias
    ``filter``/``rates``).

    Args:
      strides, rates: 4 ints ``[1, h, w, 1]``.
      padding: ``'SAME'`` or ``'VALID'``.

    Returns:
      ``[N, H', W', C]``, ``input``'s (float) dtype.

    Raises:
      ValueError: bad strides/rates/padding, or depths that differ.
    """
    fn = "dilation2d"
    x, w = same_dtype(fn, ("input", input), ("filter", filters if filter is None else filter))
    x = float_input(x, fn)
    return _apply(x, w, strides, dilations if rates is None else rates, padding, fn, name)


def erosion2d(value: Any, kernel: Any, strides: Any, rates: Any, padding: Any, name: str | None = None) -> Any:
    """Grayscale erosion of ``value`` ``[N, H, W, C]`` by ``kernel`` ``[fh, fw, C]``, as
    ``tf.compat.v1.nn.erosion2d``: ``-dilation2d(-value, reverse(kernel, [0, 1]))``, TF's ops.

    Returns:
      ``[N, H', W', C]``, ``value``'s (float) dtype.
    """
    fn = "erosion2d"
    with op_scope(name, fn, [value, kernel]) as scope:
        x, w = same_dtype(fn, ("value", value), ("kernel", kernel))
        x = float_input(x, fn)
        d = _apply(math_ops.negative(x), shape_ops.reverse(w, [0, 1]), strides, rates, padding, fn, scope)
        return math_ops.negative(d)
