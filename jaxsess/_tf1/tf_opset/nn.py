"""TF's neural-network ops and their gradient ops, as TF's ``OpDef``\\ s list
them: ``Conv2D`` and ``DepthwiseConv2dNative`` (4-element ``strides`` and
``dilations`` in ``data_format`` order, ``padding`` ``SAME``/``VALID``/
``EXPLICIT`` with ``explicit_paddings``), their ``Backprop*`` ops,
``MaxPool``/``AvgPool`` and ``MaxPoolGrad``/``AvgPoolGrad``, ``BiasAdd``/
``BiasAddGrad``, ``FusedBatchNorm``/``V2``/``V3`` (inference and training)
and ``FusedBatchNormGrad``/``V2``/``V3``, ``Softmax``, the cross entropies
with both outputs (loss, backprop).

Convolutions call the implementations of jaxsess's own ``Conv2D`` and
``DepthwiseConv2dNative``; backprops are their transposes (``jax.vjp``),
which is what TF's backprop kernels compute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._tf1.tf_opset._common import host_ints, impl, lowering, node_error, np_dtype

__all__: list[str] = []


def _spatial(ctx: Any, attrs: Mapping[str, Any], key: str) -> tuple[int, int]:
    v = tuple(attrs.get(key) or (1, 1, 1, 1))
    if len(v) != 4:
        raise node_error(ctx, f"{key} must have 4 elements (in data_format order), got {list(v)}")
    fmt = attrs.get("data_format", "NHWC")
    n, c = (0, 3) if fmt == "NHWC" else (0, 1)
    if v[n] != 1 or v[c] != 1:
        raise node_error(ctx, f"{key} {list(v)}: TF supports no {key} in the batch and depth dimensions")
    return (v[1], v[2]) if fmt == "NHWC" else (v[2], v[3])


def _padding(ctx: Any, attrs: Mapping[str, Any]) -> Any:
    pad = attrs["padding"]
    if pad != "EXPLICIT":
        return pad
    ep = list(attrs.get("explicit_paddings") or ())
    if len(ep) != 8:
        raise node_error(ctx, f"explicit_paddings must have 8 elements, got {ep}")
    hw = (1, 2) if attrs.get("data_format", "NHWC") == "NHWC" else (2, 3)
    return tuple((int(ep[2 * i]), int(ep[2 * i + 1])) for i in hw)


def _conv_args(ctx: Any, attrs: Mapping[str, Any]) -> dict[str, Any]:
    fmt = attrs.get("data_format", "NHWC")
    if fmt not in ("NHWC", "NCHW"):
        raise node_error(ctx, f"data_format must be NHWC or NCHW, got {fmt!r}")
    return {"strides": _spatial(ctx, attrs, "strides"), "padding": _padding(ctx, attrs),
            "dilations": _spatial(ctx, attrs, "dilations"), "data_format": fmt}


def _conv(ctx: Any, x: Any, w: Any, attrs: Mapping[str, Any]) -> Any:
    args = _conv_args(ctx, attrs)
    try:
        return impl("Conv2D")(x, w, **args)
    except (ValueError, TypeError) as e:
        raise node_error(ctx, str(e)) from None


def _depthwise(ctx: Any, x: Any, w: Any, attrs: Mapping[str, Any]) -> Any:
    args = _conv_args(ctx, attrs)
    try:
        return impl("DepthwiseConv2dNative")(x, w, **args)
    except (ValueError, TypeError) as e:
        raise node_error(ctx, str(e)) from None


def _conv_spec(depthwise: bool) -> Any:
    """``TFLowering.spec`` of ``Conv2D`` (ungrouped) / ``DepthwiseConv2dNative``: TF's output
    size per spatial dimension (``SAME``: ``ceil(n / s)``; ``VALID``/``EXPLICIT``:
    ``(n + pads - (k - 1)·d - 1) // s + 1``); an unknown batch passes through."""
    def spec(shapes: Sequence[Any], attrs: Mapping[str, Any], statics: Mapping[int, Any]) -> Any:
        x, w = shapes
        if x is None or w is None or len(x) != 4 or len(w) != 4 or None in x[1:] or None in w:
            return None
        a = _conv_args(None, attrs)
        nhwc = a["data_format"] == "NHWC"
        hw, c = ((x[1], x[2]), x[3]) if nhwc else ((x[2], x[3]), x[1])
        if c != w[2]:
            return None  # grouped, or a mismatch the lowering reports
        pads = a["padding"]
        out = []
        for i in range(2):
            k = (w[i] - 1) * a["dilations"][i] + 1
            if pads == "SAME":
                out.append(-(-hw[i] // a["strides"][i]))
                continue
            if pads == "VALID":
                lo, hi = 0, 0
            elif isinstance(pads, tuple):
                lo, hi = pads[i]
            else:
                return None
            n = hw[i] + lo + hi - k
            if n < 0:
                return None
            out.append(n // a["strides"][i] + 1)
        cout = w[2] * w[3] if depthwise else w[3]
        return [(x[0], out[0], out[1], cout) if nhwc else (x[0], cout, out[0], out[1])]
    return spec


@lowering("Conv2D", spec=_conv_spec(False))
def _conv2d(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return _conv(ctx, inputs[0], inputs[1], attrs)


@lowering("DepthwiseConv2dNative", spec=_conv_spec(True))
def _depthwise_conv2d(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return _depthwise(ctx, inputs[0], inputs[1], attrs)


def _input_backprop(conv: Any) -> Any:
    def lower(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
        sizes, w, dy = inputs
        x0 = jnp.zeros(host_ints(ctx, sizes, "input_sizes"), jnp.result_type(dy))
        out, vjp = jax.vjp(lambda x: conv(ctx, x, w, attrs), x0)
        if out.shape != np.shape(dy):
            raise node_error(ctx, f"out_backprop has shape {list(np.shape(dy))}, but the convolution of an "
                                  f"input of shape {list(x0.shape)} gives {list(out.shape)}")
        return vjp(dy)[0]
    return lower


def _filter_backprop(conv: Any) -> Any:
    def lower(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
        x, sizes, dy = inputs
        w0 = jnp.zeros(host_ints(ctx, sizes, "filter_sizes"), jnp.result_type(dy))
        out, vjp = jax.vjp(lambda w: conv(ctx, x, w, attrs), w0)
        if out.shape != np.shape(dy):
            raise node_error(ctx, f"out_backprop has shape {list(np.shape(dy))}, but the convolution with a "
                                  f"filter of shape {list(w0.shape)} gives {list(out.shape)}")
        return vjp(dy)[0]
    return lower


lowering("Conv2DBackpropInput", static_inputs=(0,))(_input_backprop(_conv))
lowering("Conv2DBackpropFilter", static_inputs=(1,))(_filter_backprop(_conv))
lowering("DepthwiseConv2dNativeBackpropInput", static_inputs=(0,))(_input_backprop(_depthwise))
lowering("DepthwiseConv2dNativeBackpropFilter", static_inputs=(1,))(_filter_backprop(_depthwise))


@lowering("Conv2DBackpropInputV2")
def _conv2d_backprop_input_v2(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x, w, dy = inputs  # V2 takes the input itself (for its shape)
    return _input_backprop(_conv)(ctx, [np.asarray(np.shape(x)), w, dy], attrs)


def _conv3d_impl(ctx: Any, x: Any, w: Any, attrs: Mapping[str, Any]) -> Any:
    fmt = attrs["data_format"]
    sp = slice(1, 4) if fmt == "NDHWC" else slice(2, 5)
    return impl("Conv3D")(x, w, strides=tuple(attrs["strides"][sp]), padding=attrs["padding"],
                          dilations=tuple(attrs["dilations"][sp]), data_format=fmt)


@lowering("Conv3D")
def _conv3d(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return _conv3d_impl(ctx, inputs[0], inputs[1], attrs)


lowering("Conv3DBackpropInputV2", static_inputs=(0,))(_input_backprop(_conv3d_impl))
lowering("Conv3DBackpropFilterV2", static_inputs=(1,))(_filter_backprop(_conv3d_impl))


# -- bias, pooling -----------------------------------------------------------------------------


def _bias_add_spec(shapes: Sequence[Any], attrs: Mapping[str, Any], statics: Mapping[int, Any]) -> Any:
    """``TFLowering.spec`` of ``BiasAdd``: ``value``'s shape when ``bias`` is ``(C,)``."""
    x, b = shapes
    if x is None or len(x) < 2:
        return None
    c = x[1] if attrs.get("data_format", "NHWC").startswith("NC") else x[-1]
    return [x] if c is not None and b == (c,) else None


@lowering("BiasAdd", spec=_bias_add_spec)
def _bias_add(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    try:
        return impl("BiasAdd")(inputs[0], inputs[1], data_format=attrs.get("data_format", "NHWC"))
    except ValueError as e:
        raise node_error(ctx, str(e)) from None


@lowering("BiasAddV1")
def _bias_add_v1(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("BiasAdd")(inputs[0], inputs[1], data_format="NHWC")


@lowering("BiasAddGrad")
def _bias_add_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    dy = inputs[0]
    c = 1 if attrs["data_format"].startswith("NC") else np.ndim(dy) - 1
    return jnp.sum(dy, axis=tuple(i for i in range(np.ndim(dy)) if i != c))


def _window(ctx: Any, v: Any, key: str, rank: int) -> tuple[int, ...]:
    v = tuple(int(i) for i in np.asarray(v).reshape(-1))
    if len(v) != rank:
        raise node_error(ctx, f"{key} must have {rank} elements, got {list(v)}")
    return v


def _pool_args(ctx: Any, attrs: Mapping[str, Any], ksize: Any = None, strides: Any = None, rank: int = 4) -> Any:
    if attrs["padding"] not in ("SAME", "VALID"):
        raise node_error(ctx, f"padding must be SAME or VALID, got {attrs['padding']!r}")
    return {"ksize": _window(ctx, attrs["ksize"] if ksize is None else ksize, "ksize", rank),
            "strides": _window(ctx, attrs["strides"] if strides is None else strides, "strides", rank),
            "padding": attrs["padding"]}


def _pool_spec(shapes: Sequence[Any], attrs: Mapping[str, Any], statics: Mapping[int, Any]) -> Any:
    """``TFLowering.spec`` of ``MaxPool``/``AvgPool``: the window over each of the 4 dimensions
    (``SAME``: ``ceil(n / s)``; ``VALID``: ``(n - k) // s + 1``)."""
    x = shapes[0]
    a = _pool_args(None, attrs)
    if x is None or len(x) != 4:
        return None
    out: list[int | None] = []
    for n, k, st in zip(x, a["ksize"], a["strides"]):
        if n is None:
            if k != 1 or st != 1:
                return None
            out.append(None)
        elif a["padding"] == "SAME":
            out.append(-(-n // st))
        elif n >= k:
            out.append((n - k) // st + 1)
        else:
            return None
    return [tuple(out)]


@lowering("MaxPool", spec=_pool_spec)
def _max_pool(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("MaxPool")(inputs[0], **_pool_args(ctx, attrs))


@lowering("MaxPoolV2", static_inputs=(1, 2))
def _max_pool_v2(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("MaxPool")(inputs[0], **_pool_args(ctx, attrs, inputs[1], inputs[2]))


@lowering("AvgPool", spec=_pool_spec)
def _avg_pool(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("AvgPool")(inputs[0], **_pool_args(ctx, attrs))


@lowering("MaxPool3D")
def _max_pool3d(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("MaxPool")(inputs[0], **_pool_args(ctx, attrs, rank=5))


@lowering("AvgPool3D")
def _avg_pool3d(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("AvgPool")(inputs[0], **_pool_args(ctx, attrs, rank=5))


def _max_pool_grad(ctx: Any, x: Any, dy: Any, args: Mapping[str, Any]) -> Any:
    # the gradient flows to the first maximum of each window, as TF's MaxPoolGrad
    _, vjp = jax.vjp(lambda v: impl("MaxPool")(v, **args), jnp.asarray(x))
    return vjp(jnp.asarray(dy, jnp.result_type(x)))[0]


@lowering("MaxPoolGrad")
def _max_pool_grad_op(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x, _, dy = inputs
    return _max_pool_grad(ctx, x, dy, _pool_args(ctx, attrs))


@lowering("MaxPoolGradV2", static_inputs=(3, 4))
def _max_pool_grad_v2(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x, _, dy, ksize, strides = inputs
    return _max_pool_grad(ctx, x, dy, _pool_args(ctx, attrs, ksize, strides))


@lowering("AvgPoolGrad", "AvgPool3DGrad", static_inputs=(0,))
def _avg_pool_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    shape, dy = inputs
    x0 = jnp.zeros(host_ints(ctx, shape, "orig_input_shape"), jnp.result_type(dy))
    _, vjp = jax.vjp(lambda v: impl("AvgPool")(v, **_pool_args(ctx, attrs, rank=x0.ndim)), x0)
    return vjp(jnp.asarray(dy))[0]


@lowering("MaxPool3DGrad")
def _max_pool3d_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x, _, dy = inputs
    return _max_pool_grad(ctx, x, dy, _pool_args(ctx, attrs, rank=5)).astype(jnp.result_type(dy))


# -- batch normalization ------------------------------------------------------------------------


def _channel_axis(ctx: Any, attrs: Mapping[str, Any], rank: int) -> int:
    fmt = attrs.get("data_format", "NHWC")
    if fmt in ("NHWC", "NDHWC"):
        return rank - 1
    if fmt in ("NCHW", "NCDHW"):
        return 1
    raise node_error(ctx, f"data_format {fmt!r} is not one of NHWC, NCHW, NDHWC, NCDHW")


def _count(x: Any, axes: tuple[int, ...], dtype: Any) -> Any:
    """How many elements each channel has (a ``dtype`` scalar; symbolic dimensions allowed)."""
    n: Any = 1
    for i in axes:
        n = n * np.shape(x)[i]
    return jnp.asarray(n, dtype)


def _fused_batch_norm(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> list[Any]:
    """Outputs ``y, batch_mean, batch_variance, reserve_space_1, reserve_space_2`` (``V3``: and
    ``reserve_space_3``), as TF's CPU kernel: training normalizes with the batch's biased
    variance and returns the running averages (``exponential_avg_factor``) of the mean and of the
    unbiased variance; inference uses ``mean``/``variance`` and returns them."""
    x, scale, offset, mean, var = inputs
    c = _channel_axis(ctx, attrs, np.ndim(x))
    eps = attrs["epsilon"]
    u = np_dtype(attrs.get("U", attrs["T"]))
    xf = jnp.asarray(x).astype(u)
    bshape = [1] * np.ndim(x)
    bshape[c] = -1
    red = tuple(i for i in range(np.ndim(x)) if i != c)
    if attrs["is_training"]:
        bm = jnp.mean(xf, axis=red)
        bv = jnp.mean(jnp.square(xf - bm.reshape(bshape)), axis=red)
        n = _count(x, red, u)  # symbolic when the batch size is (shape inference at import)
        unbiased = bv * (n / jnp.maximum(n - 1, 1))
        f = attrs.get("exponential_avg_factor", 1.0)
        if f == 1.0:
            run_mean, run_var = bm, unbiased
        else:
            run_mean = (1 - f) * jnp.asarray(mean) + f * bm
            run_var = (1 - f) * jnp.asarray(var) + f * unbiased
        use_m, use_v = bm, bv
    else:
        use_m, use_v = jnp.asarray(mean), jnp.asarray(var)
        run_mean, run_var, bm, bv = use_m, use_v, use_m, use_v
    inv = jax.lax.rsqrt(use_v + np.asarray(eps, u))
    y = (xf - use_m.reshape(bshape)) * (inv * scale).reshape(bshape) + jnp.reshape(offset, bshape)
    return [y.astype(np_dtype(attrs["T"])), run_mean, run_var, bm, bv]


def _fbn_spec(v3: bool) -> Any:
    """``TFLowering.spec`` of ``FusedBatchNorm*``: ``y`` as ``x``, the statistics ``(C,)``
    (when every ``(C,)`` input is ``(C,)``), ``reserve_space_3`` empty."""
    def spec(shapes: Sequence[Any], attrs: Mapping[str, Any], statics: Mapping[int, Any]) -> Any:
        x = shapes[0]
        if x is None or len(x) not in (4, 5) or attrs.get("data_format", "NHWC") not in (
                "NHWC", "NCHW", "NDHWC", "NCDHW"):
            return None
        c = x[_channel_axis(None, attrs, len(x))]
        if c is None or any(s != (c,) for s in shapes[1:5]):
            return None
        return [x, (c,), (c,), (c,), (c,)] + ([(0,)] if v3 else [])
    return spec


@lowering("FusedBatchNorm", "FusedBatchNormV2", multi=True, spec=_fbn_spec(False))
def _fbn(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return _fused_batch_norm(ctx, inputs, attrs)[:5]


@lowering("FusedBatchNormV3", multi=True, spec=_fbn_spec(True))
def _fbn_v3(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return [*_fused_batch_norm(ctx, inputs, attrs), jnp.zeros((0,), np_dtype(attrs["U"]))]


def _fused_batch_norm_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> list[Any]:
    """``x_backprop, scale_backprop, offset_backprop`` from the batch statistics TF's forward
    kernel left in ``reserve_space_1``/``2`` (mean, biased variance) when training, or the
    population ``mean``/``variance`` in inference."""
    dy, x, scale, m, v = inputs[:5]
    c = _channel_axis(ctx, attrs, np.ndim(x))
    u = np_dtype(attrs.get("U", attrs["T"]))
    bshape = [1] * np.ndim(x)
    bshape[c] = -1
    red = tuple(i for i in range(np.ndim(x)) if i != c)
    dyf, xf = jnp.asarray(dy).astype(u), jnp.asarray(x).astype(u)
    inv = jax.lax.rsqrt(jnp.asarray(v) + np.asarray(attrs["epsilon"], u))
    xhat = (xf - jnp.reshape(m, bshape)) * inv.reshape(bshape)
    dscale = jnp.sum(dyf * xhat, axis=red)
    doffset = jnp.sum(dyf, axis=red)
    if attrs["is_training"]:
        n = _count(x, red, u)
        dx = (jnp.reshape(scale * inv, bshape) / n) * (n * dyf - doffset.reshape(bshape) - xhat * dscale.reshape(bshape))
    else:
        dx = dyf * jnp.reshape(scale * inv, bshape)
    return [dx.astype(np_dtype(attrs["T"])), dscale, doffset]


@lowering("FusedBatchNormGrad", "FusedBatchNormGradV2", multi=True)
def _fbn_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    u = np_dtype(attrs.get("U", attrs["T"]))
    return [*_fused_batch_norm_grad(ctx, inputs, attrs), jnp.zeros((0,), u), jnp.zeros((0,), u)]


@lowering("FusedBatchNormGradV3", multi=True)
def _fbn_grad_v3(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    u = np_dtype(attrs["U"])
    return [*_fused_batch_norm_grad(ctx, inputs, attrs), jnp.zeros((0,), u), jnp.zeros((0,), u)]


def _channel_window_sum(v: Any, r: int) -> Any:
    """``sum(v[..., c - r : c + r + 1])`` for every channel ``c`` (zeros past the ends)."""
    window = (1,) * (v.ndim - 1) + (2 * r + 1,)
    pads = ((0, 0),) * (v.ndim - 1) + ((r, r),)
    return jax.lax.reduce_window(v, np.asarray(0, v.dtype), jax.lax.add, window, (1,) * v.ndim, pads)


@lowering("LRNGrad")
def _lrn_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """TF's ``LRNGrad(input_grads, input_image, output_image)``: the gradient of
    ``y = x * (bias + alpha * sum_window(x**2)) ** -beta`` over the depth window."""
    dy, x, _ = (jnp.asarray(v) for v in inputs)
    r, beta = attrs["depth_radius"], attrs["beta"]
    dt = x.dtype
    norm = np.asarray(attrs["bias"], dt) + np.asarray(attrs["alpha"], dt) * _channel_window_sum(x * x, r)
    scaled = dy * x * norm ** np.asarray(-beta - 1, dt)
    return (dy * norm ** np.asarray(-beta, dt)
            - np.asarray(2 * attrs["alpha"] * beta, dt) * x * _channel_window_sum(scaled, r))


@lowering("LRN")
def _lrn(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("LRN")(inputs[0], depth_radius=attrs["depth_radius"], bias=attrs["bias"], alpha=attrs["alpha"],
                       beta=attrs["beta"])


# -- softmax, losses --------------------------------------------------------------------------


def _softmax_spec(shapes: Sequence[Any], attrs: Mapping[str, Any], statics: Mapping[int, Any]) -> Any:
    return [shapes[0]] if shapes[0] is not None and len(shapes[0]) >= 1 else None


@lowering("Softmax", spec=_softmax_spec)
def _softmax(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("Softmax")(inputs[0], axis=-1)


@lowering("LogSoftmax", spec=_softmax_spec)
def _log_softmax(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("LogSoftmax")(inputs[0], axis=-1)


@lowering("SoftmaxCrossEntropyWithLogits", multi=True)
def _softmax_xent(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """``loss [batch]`` and ``backprop [batch, classes]`` (``softmax(features) - labels``)."""
    features, labels = inputs
    features, labels = jnp.broadcast_arrays(features, labels)
    loss = impl("SoftmaxCrossEntropyWithLogits")(labels, features, axis=-1)
    return loss, jax.nn.softmax(features, axis=-1) - labels


@lowering("SparseSoftmaxCrossEntropyWithLogits", multi=True)
def _sparse_softmax_xent(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    features, labels = inputs
    loss = impl("SparseSoftmaxCrossEntropyWithLogits")(labels, features)
    onehot = jax.nn.one_hot(labels, np.shape(features)[-1], dtype=jnp.result_type(features))
    return loss, jax.nn.softmax(features, axis=-1) - onehot


@lowering("L2Loss")
def _l2_loss(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("L2Loss")(inputs[0])


@lowering("InTopKV2", static_inputs=(2,))
def _in_top_k(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("InTopKV2")(inputs[0], inputs[1], k=int(np.asarray(inputs[2])))


# -- fake quantization (TF's fake_quant_ops_functor.h) ---------------------------------------------


def _nudged(lo: Any, hi: Any, num_bits: int, narrow_range: bool) -> tuple[Any, Any, Any]:
    """TF's nudged ``(min, max, scale)``: the range moved so that zero is exactly representable."""
    qmin = 1.0 if narrow_range else 0.0
    qmax = float(2 ** num_bits - 1)
    lo, hi = jnp.asarray(lo, jnp.float32), jnp.asarray(hi, jnp.float32)
    scale = (hi - lo) / (qmax - qmin)
    zp_from_min = qmin - lo / scale
    zp = jnp.where(zp_from_min < qmin, qmin, jnp.where(zp_from_min > qmax, qmax, jnp.round(zp_from_min)))
    return (qmin - zp) * scale, (qmax - zp) * scale, scale


def _fake_quant(x: Any, lo: Any, hi: Any, num_bits: int, narrow_range: bool) -> Any:
    nmin, nmax, scale = _nudged(lo, hi, num_bits, narrow_range)
    shifted = jnp.clip(x, nmin, nmax) - nmin
    return jnp.floor(shifted * (1.0 / scale) + 0.5) * scale + nmin


@lowering("FakeQuantWithMinMaxArgs")
def _fake_quant_args(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return _fake_quant(jnp.asarray(inputs[0]), attrs["min"], attrs["max"], attrs["num_bits"], attrs["narrow_range"])


@lowering("FakeQuantWithMinMaxVars")
def _fake_quant_vars(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x, lo, hi = inputs
    return _fake_quant(jnp.asarray(x), lo, hi, attrs["num_bits"], attrs["narrow_range"])


@lowering("FakeQuantWithMinMaxArgsGradient")
def _fake_quant_args_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """The straight-through gradient: ``gradients`` where the input is inside the nudged range."""
    g, x = (jnp.asarray(v) for v in inputs)
    nmin, nmax, _ = _nudged(attrs["min"], attrs["max"], attrs["num_bits"], attrs["narrow_range"])
    return jnp.where((x >= nmin) & (x <= nmax), g, jnp.zeros((), g.dtype))


# -- non-max suppression with a static output size ------------------------------------------------


def _nms(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> tuple[Any, Any]:
    boxes, scores, max_out, iou, score_threshold = inputs[:5]
    if not attrs.get("pad_to_max_output_size", False):
        raise node_error(ctx, "the number of selected boxes depends on the data: jaxsess needs "
                              "pad_to_max_output_size=True (tf.image.non_max_suppression_padded)")
    picked, count = impl("NonMaxSuppressionV4")(jnp.asarray(boxes), jnp.asarray(scores), jnp.asarray(iou),
                                                jnp.asarray(score_threshold),
                                                max_output_size=host_ints(ctx, max_out, "max_output_size")[0])
    return picked, count


@lowering("NonMaxSuppressionV4", static_inputs=(2,), multi=True)
def _nms_v4(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """``selected_indices [max_output_size]`` (padded with 0) and ``valid_outputs``."""
    return _nms(ctx, inputs, attrs)


@lowering("NonMaxSuppressionV5", static_inputs=(2,), multi=True)
def _nms_v5(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """As V4 plus ``selected_scores``; soft-NMS (``soft_nms_sigma`` > 0) is refused."""
    sigma = inputs[5]
    if isinstance(sigma, np.ndarray) and float(sigma) != 0.0:
        raise node_error(ctx, f"soft_nms_sigma {float(sigma)}: soft non-max suppression is not supported")
    picked, count = _nms(ctx, inputs, attrs)
    scores = jnp.asarray(inputs[1])
    valid = jnp.arange(picked.shape[0]) < count
    return picked, jnp.where(valid, scores[picked], jnp.zeros((), scores.dtype)), count
