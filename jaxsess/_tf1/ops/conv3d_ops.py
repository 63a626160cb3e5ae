"""3-D convolutions and pooling, N-D ``pool`` and ``max_pool_with_argmax``, as
``tf.compat.v1.nn``.

``conv3d`` is ``jax.lax.conv_general_dilated`` over ``[N, D, H, W, C]``
(``NDHWC``, or ``NCDHW``) with ``DHWIO`` filters; ``conv3d_transpose`` is its
transpose (TF's ``Conv3DBackpropInputV2``, filters ``[d, h, w,
output_channels, in_channels]``). ``max_pool3d``/``avg_pool3d`` reuse the
rank-generic ``MaxPool``/``AvgPool`` implementations of
:mod:`jaxsess._tf1.ops.nn_ops` under TF's op types. ``max_pool_with_argmax``
returns TF's flattened indices ``((b * H + y) * W + x) * C + c`` (``b`` only
with ``include_batch_in_index``); ties go to the first element of the window
in row-major order, as TF's CPU kernel.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._tf1.ops import array_ops as array_ops
from jaxsess._tf1.ops._args import float_input, op_scope, same_dtype, static_ints
from jaxsess._tf1.ops.conv_ops import _output_shape
from jaxsess._tf1.ops.nn_ops import _avg_pool, _max_pool, avg_pool, max_pool

__all__ = ["conv3d", "conv3d_transpose", "max_pool3d", "avg_pool3d", "pool", "max_pool_with_argmax"]

register_op("MaxPool3D", default_name="MaxPool3D")(_max_pool)
register_op("AvgPool3D", default_name="AvgPool3D")(_avg_pool)


def _fmt3(data_format: Any, fn: str) -> str:
    fmt = (data_format or "NDHWC").upper()
    if fmt not in ("NDHWC", "NCDHW"):
        raise ValueError(f"{fn}: data_format must be 'NDHWC' or 'NCDHW', got {data_format!r}.")
    return fmt


def _spatial3(value: Any, fn: str, arg: str, fmt: str, default: int | None = None) -> tuple[int, int, int]:
    """A 3-D stride/dilation/window argument: an int, 3 ints, or 5 in ``fmt`` order (batch and channel 1)."""
    if value is None:
        if default is None:
            raise ValueError(f"{fn}: argument '{arg}' is required.")
        return (default,) * 3  # type: ignore[return-value]
    vals = static_ints(value, fn, arg)
    if len(vals) == 1:
        return (vals[0],) * 3  # type: ignore[return-value]
    if len(vals) == 3:
        return vals  # type: ignore[return-value]
    if len(vals) == 5:
        n, c = (0, 4) if fmt == "NDHWC" else (0, 1)
        if vals[n] != 1 or vals[c] != 1:
            raise ValueError(f"{fn}: {arg} in the batch and depth dimensions must be 1, got {list(vals)} ({fmt}).")
        return vals[1:4] if fmt == "NDHWC" else vals[2:5]  # type: ignore[return-value]
    raise ValueError(f"{fn}: {arg} must be an int or a list of 1, 3 or 5 ints, got {list(vals)}.")


def _padding(padding: Any, fn: str) -> str:
    p = str(padding).upper() if padding is not None else ""
    if p not in ("SAME", "VALID"):
        raise ValueError(f"{fn}: padding must be 'SAME' or 'VALID', got {padding!r}.")
    return p


def _window5(fmt: str, dhw: tuple[int, ...]) -> tuple[int, ...]:
    return (1, *dhw, 1) if fmt == "NDHWC" else (1, 1, *dhw)


def _conv3d_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    fmt = a["data_format"]
    return {"strides": _window5(fmt, a["strides"]), "dilations": _window5(fmt, a["dilations"]),
            "padding": a["padding"], "data_format": fmt}, []


def _conv3d_from_tf(a: dict[str, Any], consts: Any) -> dict[str, Any]:
    fmt = a.get("data_format", "NDHWC")
    dhw = (1, 2, 3) if fmt == "NDHWC" else (2, 3, 4)
    dil = a.get("dilations") or (1, 1, 1, 1, 1)
    strides = a["strides"]
    if len(strides) == 3:  # written by an earlier jaxsess (3-lists, which real TF refuses)
        return {"strides": tuple(strides), "padding": a["padding"], "dilations": tuple(dil), "data_format": fmt}
    return {"strides": tuple(strides[i] for i in dhw), "padding": a["padding"],
            "dilations": tuple(dil[i] for i in dhw), "data_format": fmt}


# TF: strides/dilations as 5-lists in data_format order
@register_op("Conv3D", default_name="Conv3D", tf=TFOp(to_tf=_conv3d_to_tf, from_tf=_conv3d_from_tf))
def _conv3d(x: Any, w: Any, *, strides: tuple[int, ...], padding: str, dilations: tuple[int, ...],
            data_format: str) -> Any:
    if x.ndim != 5 or w.ndim != 5:
        raise ValueError(f"input and filter must be 5-D, got shapes {list(x.shape)} and {list(w.shape)}")
    c = x.shape[4] if data_format == "NDHWC" else x.shape[1]
    if c != w.shape[3]:
        raise ValueError(f"Depth of input ({c}) is not a multiple of input depth of filter ({w.shape[3]})")
    return jax.lax.conv_general_dilated(x, w, window_strides=strides, padding=padding, rhs_dilation=dilations,
                                        dimension_numbers=(data_format, "DHWIO", data_format))


def conv3d(input: Any, filter: Any = None, strides: Any = None, padding: Any = None,  # noqa: A002
           data_format: str = "NDHWC", dilations: Any = (1, 1, 1, 1, 1), name: str | None = None,
           filters: Any = None) -> Any:
    """3-D convolution (cross-correlation), as ``tf.compat.v1.nn.conv3d``.

    Args:
      input: ``[N, D, H, W, C]`` (NDHWC) or ``[N, C, D, H, W]`` (NCDHW), floats.
      filter: ``[fd, fh, fw, C, out_channels]``, ``input``'s dtype (``filters``: alias).
      strides, dilations: an int, 3 ints, or 5 in ``data_format`` order
        (batch and channel entries 1).
      padding: ``'SAME'`` or ``'VALID'``.

    Returns:
      ``[N, D', H', W', out_channels]`` (or NCDHW), ``input``'s dtype.

    Raises:
      ValueError: bad strides/padding, or channel counts that do not match (names the node).
    """
    w = filters if filter is None else filter
    if w is None:
        raise ValueError("conv3d: argument 'filter' is required.")
    fmt = _fmt3(data_format, "conv3d")
    x, w = same_dtype("conv3d", ("input", input), ("filter", w))
    x = float_input(x, "conv3d")
    attrs = {"strides": _spatial3(strides, "conv3d", "strides", fmt), "padding": _padding(padding, "conv3d"),
             "dilations": _spatial3(dilations, "conv3d", "dilations", fmt, default=1), "data_format": fmt}
    return apply_op("Conv3D", (x, w), attrs, name=name)


@register_op("Conv3DBackpropInputV2", default_name="conv3d_transpose")
def _conv3d_transpose(x: Any, w: Any, *, output_shape: tuple[int, ...], strides: tuple[int, ...], padding: str,
                      data_format: str) -> Any:
    if x.ndim != 5 or w.ndim != 5:
        raise ValueError(f"value and filter must be 5-D, got shapes {list(x.shape)} and {list(w.shape)}")
    if output_shape[0] < 0:
        output_shape = (x.shape[0], *output_shape[1:])
    c_out = output_shape[4] if data_format == "NDHWC" else output_shape[1]
    if c_out != w.shape[3]:
        raise ValueError(f"output_shape's channel dimension {c_out} must equal the filter's output_channels "
                         f"{w.shape[3]}")

    def forward(y: Any) -> Any:
        return jax.lax.conv_general_dilated(y, w, window_strides=strides, padding=padding,
                                            dimension_numbers=(data_format, "DHWIO", data_format))

    y0 = jnp.zeros(output_shape, x.dtype)
    expect = jax.eval_shape(forward, y0).shape
    if tuple(expect) != tuple(x.shape):
        raise ValueError(f"conv3d of output_shape {list(output_shape)} gives shape {list(expect)}, but value has "
                         f"shape {list(x.shape)}")
    (out,) = jax.linear_transpose(forward, y0)(x)
    return out


def conv3d_transpose(value: Any, filter: Any = None, output_shape: Any = None, strides: Any = None,  # noqa: A002
                     padding: str = "SAME", data_format: str = "NDHWC", name: str | None = None,
                     input: Any = None, filters: Any = None, dilations: Any = None) -> Any:  # noqa: A002
    """The transpose of :func:`conv3d` (its gradient with respect to the input), as
    ``tf.compat.v1.nn.conv3d_transpose``.

    Args:
      value: ``[N, D, H, W, in_channels]`` (or NCDHW).
      filter: ``[fd, fh, fw, output_channels, in_channels]``.
      output_shape: the 5 ints of the result, known when the graph is built.
      strides: as :func:`conv3d`.

    Raises:
      ValueError: ``conv3d`` of ``output_shape`` does not give ``value``'s shape,
        or the channel counts do not match (names the node).
    """
    fmt = _fmt3(data_format, "conv3d_transpose")
    if dilations is not None and any(d != 1 for d in _spatial3(dilations, "conv3d_transpose", "dilations", fmt)):
        raise NotImplementedError("conv3d_transpose: dilations other than 1 are not implemented.")
    x, w = same_dtype("conv3d_transpose", ("value", value if value is not None else input),
                      ("filter", filter if filter is not None else filters))
    x = float_input(x, "conv3d_transpose")
    attrs = {"output_shape": _output_shape(output_shape), "padding": _padding(padding, "conv3d_transpose"),
             "strides": _spatial3(strides, "conv3d_transpose", "strides", fmt), "data_format": fmt}
    with op_scope(name, "conv3d_transpose", [x, w]) as scope:
        return apply_op("Conv3DBackpropInputV2", (x, w), attrs, name=scope)


def _pool3d(op_type: str, fn: str, input: Any, ksize: Any, strides: Any, padding: Any,  # noqa: A002
            data_format: Any, name: str | None) -> Any:
    fmt = _fmt3(data_format, fn)
    x = float_input(input, fn) if op_type == "AvgPool3D" else convert_to_tensor(input)
    attrs = {"ksize": _window5(fmt, _spatial3(ksize, fn, "ksize", fmt)),
             "strides": _window5(fmt, _spatial3(strides, fn, "strides", fmt)), "padding": _padding(padding, fn)}
    return apply_op(op_type, (x,), attrs, name=name)


def max_pool3d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NDHWC",  # noqa: A002
               name: str | None = None) -> Any:
    """Max over 3-D windows of ``[N, D, H, W, C]`` (or NCDHW), as ``tf.compat.v1.nn.max_pool3d``
    (``ksize``/``strides``: an int, 3 ints or 5 in ``data_format`` order)."""
    return _pool3d("MaxPool3D", "max_pool3d", input, ksize, strides, padding, data_format, name)


def avg_pool3d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NDHWC",  # noqa: A002
               name: str | None = None) -> Any:
    """Mean over 3-D windows (``'SAME'``: padding not counted), as ``tf.compat.v1.nn.avg_pool3d``."""
    return _pool3d("AvgPool3D", "avg_pool3d", input, ksize, strides, padding, data_format, name)


@register_op("DilatedPool", default_name="pool")
def _dilated_pool(x: Any, *, pooling_type: str, window: tuple[int, ...], strides: tuple[int, ...],
                  dilation: tuple[int, ...]) -> Any:
    if pooling_type == "MAX":
        init = np.array(-np.inf if jnp.issubdtype(x.dtype, jnp.floating) else jnp.iinfo(x.dtype).min, x.dtype)
        return jax.lax.reduce_window(x, init, jax.lax.max, window, strides, "VALID", window_dilation=dilation)
    total = jax.lax.reduce_window(x, np.array(0, x.dtype), jax.lax.add, window, strides, "VALID",
                                  window_dilation=dilation)
    return total / np.array(int(np.prod(window)), x.dtype)


def pool(input: Any, window_shape: Any, pooling_type: str, padding: str, dilation_rate: Any = None,  # noqa: A002
         strides: Any = None, name: str | None = None, data_format: str | None = None) -> Any:
    """N-D max or average pooling (N = 1, 2, 3) over ``[batch, *spatial, channels]``, as
    ``tf.compat.v1.nn.pool``.

    Args:
      window_shape: N ints.
      pooling_type: ``'MAX'`` or ``'AVG'``.
      padding: ``'SAME'`` or ``'VALID'`` (``'SAME'`` only without dilation, as TF).
      dilation_rate, strides: N ints each (default 1); not both above 1, as TF.

    Returns:
      ``[batch, *spatial', channels]``.

    Raises:
      ValueError: as TF for bad combinations.
    """
    x = convert_to_tensor(input)
    window = static_ints(window_shape, "pool", "window_shape")
    n = len(window)
    if n not in (1, 2, 3):
        raise ValueError(f"pool: window_shape must have 1, 2 or 3 elements, got {list(window)}.")
    if data_format is not None and data_format.upper().startswith("NC"):
        raise NotImplementedError("pool: only channels-last data formats are implemented.")
    ptype = str(pooling_type).upper()
    if ptype not in ("MAX", "AVG"):
        raise ValueError(f"pool: pooling_type must be 'MAX' or 'AVG', got {pooling_type!r}.")
    pad = _padding(padding, "pool")
    rate = (1,) * n if dilation_rate is None else static_ints(dilation_rate, "pool", "dilation_rate")
    step = (1,) * n if strides is None else static_ints(strides, "pool", "strides")
    if len(rate) != n or len(step) != n:
        raise ValueError(f"pool: dilation_rate and strides must have {n} elements, got {list(rate)}, {list(step)}.")
    if any(r > 1 for r in rate):
        if any(s > 1 for s in step):
            raise ValueError("strides > window_shape not supported due to inconsistency between CPU and GPU "
                             "implementations")
        if pad == "SAME":
            raise ValueError("pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. "
                             f"Received: padding={pad} and dilation_rate={list(rate)}")
    default = "max_pool" if ptype == "MAX" else "avg_pool"
    with op_scope(name, default, [x]) as scope:
        if any(r > 1 for r in rate):
            attrs = {"pooling_type": ptype, "window": (1, *window, 1), "strides": (1, *step, 1),
                     "dilation": (1, *rate, 1)}
            return apply_op("DilatedPool", (x,), attrs, name=scope)
        if n == 3:
            return _pool3d("MaxPool3D" if ptype == "MAX" else "AvgPool3D", "pool", x, window, step, pad,
                           "NDHWC", scope)
        fn = max_pool if ptype == "MAX" else avg_pool
        if n == 2:
            return fn(x, list(window), list(step), pad, name=scope)
        out = fn(array_ops.expand_dims(x, 1), [1, window[0]], [1, step[0]], pad)
        return array_ops.squeeze(out, [1], name=scope)


@register_op("MaxPoolWithArgmax", num_outputs=2, default_name="MaxPoolWithArgmax")
def _max_pool_with_argmax(x: Any, *, ksize: tuple[int, ...], strides: tuple[int, ...], padding: str,
                          include_batch_in_index: bool, index_dtype: _dtypes.DType) -> Any:
    n, h, w, c = x.shape
    b = np.arange(n)[:, None, None, None] if include_batch_in_index else 0
    flat = ((b * h + np.arange(h)[None, :, None, None]) * w + np.arange(w)[None, None, :, None]) * c \
        + np.arange(c)[None, None, None, :]
    idx = jnp.asarray(np.broadcast_to(flat, x.shape).astype(index_dtype.np_dtype))
    low = np.array(-np.inf if jnp.issubdtype(x.dtype, jnp.floating) else jnp.iinfo(x.dtype).min, x.dtype)

    def pick(a: Any, bb: Any) -> Any:
        (va, ia), (vb, ib) = a, bb
        take_b = (vb > va) | ((vb == va) & (ib < ia))
        return jnp.where(take_b, vb, va), jnp.where(take_b, ib, ia)

    big = np.array(np.iinfo(idx.dtype).max, idx.dtype)
    _, arg = jax.lax.reduce_window((jax.lax.stop_gradient(x), idx), (low, big), pick, ksize, strides, padding)
    return _max_pool(x, ksize=ksize, strides=strides, padding=padding), arg


def max_pool_with_argmax(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",  # noqa: A002
                         Targmax: Any = None, name: str | None = None, output_dtype: Any = None,  # noqa: N803
                         include_batch_in_index: bool = False) -> tuple[Any, Any]:
    """Max pooling of ``[N, H, W, C]`` and the flattened index of each max, as
    ``tf.compat.v1.nn.max_pool_with_argmax``.

    Returns:
      ``(output, argmax)``: ``[N, H', W', C]`` of ``input``'s dtype, and
      int64 (``Targmax``/``output_dtype``: int32 or int64) indices
      ``((b * H + y) * W + x) * C + c`` into the flattened input (``b`` only
      with ``include_batch_in_index``).

    Raises:
      ValueError: a data format other than NHWC, or bad ksize/strides/padding.
    """
    if data_format.upper() != "NHWC":
        raise ValueError(f"max_pool_with_argmax: data_format must be 'NHWC', got {data_format!r}.")
    dt = _dtypes.as_dtype(Targmax or output_dtype or _dtypes.int64)
    if dt not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"max_pool_with_argmax: Targmax must be int32 or int64, got {dt.name}.")
    x = convert_to_tensor(input)
    k = static_ints(ksize, "max_pool_with_argmax", "ksize")
    s = static_ints(strides, "max_pool_with_argmax", "strides")
    k4 = (1, *k, 1) if len(k) == 2 else (1, k[0], k[0], 1) if len(k) == 1 else k
    s4 = (1, *s, 1) if len(s) == 2 else (1, s[0], s[0], 1) if len(s) == 1 else s
    if len(k4) != 4 or len(s4) != 4 or k4[0] != 1 or k4[3] != 1 or s4[0] != 1 or s4[3] != 1:
        raise ValueError(f"max_pool_with_argmax: ksize and strides must be [1, h, w, 1], got {list(k)}, {list(s)}.")
    attrs = {"ksize": tuple(k4), "strides": tuple(s4), "padding": _padding(padding, "max_pool_with_argmax"),
             "include_batch_in_index": bool(include_batch_in_index), "index_dtype": dt}
    out, arg = apply_op("MaxPoolWithArgmax", (x,), attrs, name=name)
    return out, arg
