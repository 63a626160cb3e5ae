"""Neural-network ops, as ``tf.compat.v1.nn``: activations, softmax and
cross-entropies, ``bias_add``, ``conv2d``, pooling, ``moments``, ...

Images are ``NHWC`` by default (``NCHW`` with ``data_format='NCHW'``);
convolution filters are ``HWIO`` (``[height, width, in_channels,
out_channels]``), as TensorFlow. Convolutions and pools lower to
``jax.lax.conv_general_dilated`` and ``jax.lax.reduce_window``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import _context as _context
from jaxsess._core.graph._builder import apply_op, convert_to_tensor, dtype_of, identity, stop_gradient
from jaxsess._core.graph._graph import get_default_graph
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops
from jaxsess._tf1.ops._args import (
    data_format_arg,
    float_input,
    op_scope,
    padding_arg,
    same_dtype,
    spatial_arg,
    static_int,
    static_ints,
)
from jaxsess._tf1.ops.partitioned_variables import PartitionedVariable, sharded_table

__all__ = [
    "relu", "relu6", "elu", "selu", "leaky_relu", "softplus", "softsign", "sigmoid", "tanh",
    "softmax", "log_softmax", "softmax_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits_v2", "sparse_softmax_cross_entropy_with_logits",
    "sigmoid_cross_entropy_with_logits", "l2_loss", "bias_add", "conv2d", "max_pool", "avg_pool",
    "moments", "l2_normalize", "in_top_k", "top_k", "embedding_lookup", "xw_plus_b",
]

sigmoid = math_ops.sigmoid
tanh = math_ops.tanh


# -- activations ------------------------------------------------------------------


@jax.custom_jvp
def _relu6(x: Any) -> Any:
    return jnp.clip(x, 0, 6)


@_relu6.defjvp
def _relu6_jvp(primals: Any, tangents: Any) -> Any:
    (x,), (tx,) = primals, tangents  # as TF's Relu6Grad: 0 at both kinks
    return jnp.clip(x, 0, 6), jnp.where((x > 0) & (x < 6), tx, jnp.zeros_like(tx))


def _selu(x: Any) -> Any:
    # as TF's SeluGrad: the slope at 0 is `scale` (JAX's selu takes the negative side's)
    scale, alpha = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
    neg = alpha * jnp.expm1(jnp.where(x >= 0, jnp.zeros_like(x), x))
    return (scale * jnp.where(x >= 0, x, neg)).astype(x.dtype)


def _softsign(x: Any) -> Any:
    return x / (1 + jnp.abs(x))


_ACTIVATIONS: list[tuple[str, Callable[..., Any]]] = [
    ("Relu", jax.nn.relu),
    ("Relu6", _relu6),
    ("Elu", jax.nn.elu),
    ("Selu", _selu),
    ("Softplus", jax.nn.softplus),
    ("Softsign", _softsign),
]
for _t, _f in _ACTIVATIONS:
    register_op(_t, default_name=_t)(_f)


def relu(features: Any, name: str | None = None) -> Any:
    """``max(features, 0)``, as ``tf.nn.relu``."""
    return apply_op("Relu", (convert_to_tensor(features),), name=name)


def relu6(features: Any, name: str | None = None) -> Any:
    """``min(max(features, 0), 6)``, as ``tf.nn.relu6``."""
    return apply_op("Relu6", (convert_to_tensor(features),), name=name)


def elu(features: Any, name: str | None = None) -> Any:
    """``features`` if positive else ``exp(features) - 1``, as ``tf.nn.elu``."""
    return apply_op("Elu", (float_input(features, "elu"),), name=name)


def selu(features: Any, name: str | None = None) -> Any:
    """Scaled ELU (``scale=1.0507...``, ``alpha=1.6732...``), as ``tf.nn.selu``."""
    return apply_op("Selu", (float_input(features, "selu"),), name=name)


def softplus(features: Any, name: str | None = None) -> Any:
    """``log(exp(features) + 1)``, computed stably, as ``tf.nn.softplus``."""
    return apply_op("Softplus", (float_input(features, "softplus"),), name=name)


def softsign(features: Any, name: str | None = None) -> Any:
    """``features / (abs(features) + 1)``, as ``tf.nn.softsign``."""
    return apply_op("Softsign", (float_input(features, "softsign"),), name=name)


@register_op("LeakyRelu", default_name="LeakyRelu")
def _leaky_relu(x: Any, *, alpha: float) -> Any:
    return jnp.where(x > 0, x, x * jnp.asarray(alpha, x.dtype))


def leaky_relu(features: Any, alpha: float = 0.2, name: str | None = None) -> Any:
    """``features`` if positive else ``alpha * features``, as ``tf.nn.leaky_relu``."""
    return apply_op("LeakyRelu", (float_input(features, "leaky_relu"),), {"alpha": float(alpha)}, name=name)


# -- softmax, cross-entropy -----------------------------------------------------------


def _softmax_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    if a["axis"] != -1:
        raise ValueError("TF's Softmax works on the last axis")
    return {}, []


# TF: Softmax/LogSoftmax over the last axis, no attributes
_SOFTMAX_TF = TFOp(to_tf=_softmax_to_tf, from_tf=lambda a, c: {"axis": -1})


@register_op("Softmax", default_name="Softmax", tf=_SOFTMAX_TF)
def _softmax(x: Any, *, axis: int) -> Any:
    return jax.nn.softmax(x, axis=axis)


@register_op("LogSoftmax", default_name="LogSoftmax", tf=_SOFTMAX_TF)
def _log_softmax(x: Any, *, axis: int) -> Any:
    return jax.nn.log_softmax(x, axis=axis)


def _axis(axis: Any, dim: Any, fn: str, default: int = -1) -> int:
    if axis is None:
        axis = dim
    return default if axis is None else static_int(axis, fn, "axis")


def softmax(logits: Any, axis: Any = None, name: str | None = None, dim: Any = None) -> Any:
    """``exp(logits) / sum(exp(logits), axis)``, computed stably, as ``tf.nn.softmax``.

    Args:
      logits: a floating-point tensor.
      axis: the class dimension (default -1).
    """
    x = float_input(logits, "softmax")
    return apply_op("Softmax", (x,), {"axis": _axis(axis, dim, "softmax")}, name=name)


def log_softmax(logits: Any, axis: Any = None, name: str | None = None, dim: Any = None) -> Any:
    """``logits - log(sum(exp(logits), axis))``, as ``tf.nn.log_softmax``."""
    x = float_input(logits, "log_softmax")
    return apply_op("LogSoftmax", (x,), {"axis": _axis(axis, dim, "log_softmax")}, name=name)


@register_op("SoftmaxCrossEntropyWithLogits", default_name="softmax_cross_entropy_with_logits")
def _softmax_xent(labels: Any, logits: Any, *, axis: int) -> Any:
    # Broadcasts as TF's kernel; the wrapper checks the static shapes, so labels of unknown dims
    # (Keras' target placeholders ``[?, ?, ?, ?]``) infer with logits ``[?, 8, 8, 3]``.
    if labels.ndim != logits.ndim:  # (the wrapper flattens labels of another rank, as TF)
        raise ValueError(
            f"logits and labels must be broadcastable: logits_size={list(logits.shape)} "
            f"labels_size={list(labels.shape)}"
        )
    return -jnp.sum(labels * jax.nn.log_softmax(logits, axis=axis), axis=axis)


def _shape_error(message: str, name: str | None, default_name: str) -> ValueError:
    """``message`` naming the node the op would get (graph mode), as ``apply_op``'s errors."""
    if _context.current_eager_session() is not None:
        return ValueError(message)
    node = get_default_graph().unique_name(name or default_name, mark_as_used=False)
    return ValueError(f"{message} (node '{node}')")


def _check_broadcastable(logits: Any, labels: Any, name: str | None) -> None:
    """TF's shape check of the softmax cross-entropy on the static shapes (unknown dims pass)."""
    lg, lab = TensorShape(_shape_of(logits)), TensorShape(_shape_of(labels))
    if lg.ndims is None or lab.ndims is None:
        return
    if lg.ndims != lab.ndims and lg.ndims and lab.ndims:  # TF compares them as [rows, classes]
        lg, lab = _flat_rows(lg), _flat_rows(lab)
    bad = lg.ndims != lab.ndims or any(
        a is not None and b is not None and a != b and 1 not in (a, b) for a, b in zip(lg.as_list(), lab.as_list()))
    if bad:
        raise _shape_error(f"logits and labels must be broadcastable: logits_size={lg.as_list()} "
                           f"labels_size={lab.as_list()}", name, "softmax_cross_entropy_with_logits")


def _flat_rows(shape: TensorShape) -> TensorShape:
    """``shape`` flattened to ``[rows, classes]`` (rows unknown when an outer dim is)."""
    dims = shape.as_list()
    rows: int | None = 1
    for d in dims[:-1]:
        rows = None if rows is None or d is None else rows * d
    return TensorShape([rows, dims[-1]])


def _check_sentinel(sentinel: Any, fn: str) -> None:
    if sentinel is not None:
        raise ValueError(f"Only call `{fn}` with named arguments (labels=..., logits=..., ...).")


def softmax_cross_entropy_with_logits_v2(labels: Any, logits: Any, axis: Any = None, name: str | None = None,
                                         dim: Any = None) -> Any:
    """``-sum(labels * log_softmax(logits), axis)``, as ``tf.nn.softmax_cross_entropy_with_logits_v2``.

    Gradients flow into both ``labels`` and ``logits``.

    Args:
      labels: a probability distribution per row, of ``logits``'s shape (or, as
        TF, another rank with the same ``[rows, classes]`` once the outer dims
        are flattened: ``[y_one_hot]`` for ``[n, k]``); cast to ``logits``'s
        dtype when it has another (float64 one-hot labels, int labels), as TF.
      logits: unscaled log-probabilities, ``[..., num_classes]`` (classes on
        ``axis``, default -1).

    Returns:
      The per-example loss: ``logits``'s shape without ``axis``.

    Raises:
      ValueError: the shapes differ (names the node).
    """
    lg = float_input(logits, "softmax_cross_entropy_with_logits")
    lab = convert_to_tensor(labels)
    if dtype_of(lab) != dtype_of(lg):
        lab = math_ops.cast(lab, dtype_of(lg))
    ax = _axis(axis, dim, "softmax_cross_entropy_with_logits")
    _check_broadcastable(lg, lab, name)
    lg_rank, lab_rank = _rank_of(lg), _rank_of(lab)
    if lg_rank and lab_rank and lg_rank != lab_rank and ax in (-1, lg_rank - 1):
        # As TF: both flattened to [rows, classes] (``labels=[y_one_hot]`` for logits [n, k]),
        # the loss reshaped to logits' outer dims.
        classes = -1 if _shape_of(lg)[-1] is None else _shape_of(lg)[-1]
        lab2 = array_ops.reshape(lab, [-1, classes])
        lg2 = array_ops.reshape(lg, [-1, classes])
        loss = apply_op("SoftmaxCrossEntropyWithLogits", (lab2, lg2), {"axis": -1}, name=name)
        outer = _shape_of(lg)[:-1]
        return array_ops.reshape(loss, outer if None not in outer else array_ops.shape(lg)[:-1])
    return apply_op("SoftmaxCrossEntropyWithLogits", (lab, lg), {"axis": ax}, name=name)


def softmax_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None, logits: Any = None,
                                      dim: Any = -1, name: str | None = None, axis: Any = None) -> Any:
    """As :func:`softmax_cross_entropy_with_logits_v2`, but with no gradient
    into ``labels`` (TF1's deprecated ``tf.nn.softmax_cross_entropy_with_logits``).

    Raises:
      ValueError: called with positional arguments, or the shapes differ.
    """
    _check_sentinel(_sentinel, "softmax_cross_entropy_with_logits")
    if axis is None:
        axis = dim
    with op_scope(name, "softmax_cross_entropy_with_logits_sg", [labels, logits]) as scope:
        labels = stop_gradient(labels, name="labels_stop_gradient")
        return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, axis=axis, name=scope)


@register_op("SparseSoftmaxCrossEntropyWithLogits", default_name="SparseSoftmaxCrossEntropyWithLogits")
def _sparse_softmax_xent(labels: Any, logits: Any) -> Any:
    if labels.shape != logits.shape[:-1]:
        raise ValueError(
            f"labels shape must equal logits shape without the last dimension: labels "
            f"{list(labels.shape)}, logits {list(logits.shape)}"
        )
    logp = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(logp, labels[..., None].astype(jnp.int32), axis=-1, mode="fill",
                                 fill_value=jnp.nan)
    return -picked[..., 0]


def sparse_softmax_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None, logits: Any = None,
                                             name: str | None = None) -> Any:
    """``-log_softmax(logits)[..., labels]``, as ``tf.nn.sparse_softmax_cross_entropy_with_logits``.

    Args:
      labels: int32/int64 class indices, ``[d0, ..., dn-1]``; an index
        outside ``[0, num_classes)`` gives a NaN loss (as TF on GPU).
      logits: ``[d0, ..., dn-1, num_classes]`` floats.

    Returns:
      The per-example loss, ``labels``'s shape, ``logits``'s dtype.

    Raises:
      ValueError: ranks or shapes do not fit (TF's message).
      TypeError: non-integer labels.
    """
    _check_sentinel(_sentinel, "sparse_softmax_cross_entropy_with_logits")
    lab = convert_to_tensor(labels)
    lg = float_input(logits, "sparse_softmax_cross_entropy_with_logits")
    ld = dtype_of(lab)
    if ld is not None and not ld.is_integer:
        raise TypeError(f"sparse_softmax_cross_entropy_with_logits: labels must be int32 or int64, got {ld.name}.")
    lr, gr = _rank_of(lab), _rank_of(lg)
    if gr == 0:
        raise ValueError(f"Logits cannot be scalars - received shape {_shape_of(lg)}.")
    if lr is not None and gr is not None and lr != gr - 1:
        raise ValueError(
            f"Rank mismatch: Rank of labels (received {lr}) should equal rank of logits minus 1 "
            f"(received {gr})."
        )
    return apply_op("SparseSoftmaxCrossEntropyWithLogits", (lab, lg), name=name)


def _rank_of(x: Any) -> int | None:
    return x.ndim if isinstance(x, jax.Array) else x.shape.ndims


def _shape_of(x: Any) -> Any:
    return list(x.shape) if isinstance(x, jax.Array) else x.shape


@register_op("SigmoidCrossEntropyWithLogits", default_name="logistic_loss")
def _sigmoid_xent(labels: Any, logits: Any) -> Any:
    # The shapes are checked statically by the wrapper (TF: ``assert_is_compatible_with``); like
    # TF's composite of element-wise ops, this broadcasts, so labels of unknown dims (Keras'
    # target placeholders ``[?, ?, ?, ?]``) infer with logits ``[?, 8, 8, 1]``.
    # Written as TF's composite (two selects on ``logits >= 0``), so the gradient at 0 is TF's ``0.5 - labels``.
    positive = logits >= 0
    relu_logits = jnp.where(positive, logits, jnp.zeros_like(logits))
    neg_abs_logits = jnp.where(positive, -logits, logits)
    return relu_logits - logits * labels + jnp.log1p(jnp.exp(neg_abs_logits))


def sigmoid_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None, logits: Any = None,
                                      name: str | None = None) -> Any:
    """Element-wise logistic loss ``max(x, 0) - x * z + log(1 + exp(-|x|))``,
    as ``tf.nn.sigmoid_cross_entropy_with_logits`` (``x`` logits, ``z`` labels).

    Returns:
      A tensor of ``logits``'s shape and dtype.

    Raises:
      ValueError: the shapes differ.
      TypeError: the dtypes differ.
    """
    _check_sentinel(_sentinel, "sigmoid_cross_entropy_with_logits")
    lg, lab = same_dtype("sigmoid_cross_entropy_with_logits", ("logits", logits), ("labels", labels))
    lg = float_input(lg, "sigmoid_cross_entropy_with_logits")
    lg_shape, lab_shape = TensorShape(_shape_of(lg)), TensorShape(_shape_of(lab))
    if not lg_shape.is_compatible_with(lab_shape):
        raise _shape_error(f"`logits` and `labels` must have the same shape, received ({tuple(lg_shape.as_list())} "
                           f"vs {tuple(lab_shape.as_list())}).", name, "logistic_loss")
    return apply_op("SigmoidCrossEntropyWithLogits", (lab, lg), name=name)


# -- l2_loss, bias_add ---------------------------------------------------------------------


@register_op("L2Loss", default_name="L2Loss")
def _l2_loss(x: Any) -> Any:
    return jnp.sum(x * x) / 2


def l2_loss(t: Any, name: str | None = None) -> Any:
    """``sum(t ** 2) / 2`` (a scalar of ``t``'s dtype), as ``tf.nn.l2_loss``."""
    return apply_op("L2Loss", (float_input(t, "l2_loss"),), name=name)


@register_op("BiasAdd", default_name="BiasAdd")
def _bias_add(x: Any, b: Any, *, data_format: str) -> Any:
    if b.ndim != 1:
        raise ValueError(f"bias must be 1-D, got shape {list(b.shape)}")
    if x.ndim < 2:
        raise ValueError(f"value must be at least 2-D, got shape {list(x.shape)}")
    c = 1 if data_format.startswith("NC") else x.ndim - 1
    xc, bc = x.shape[c], b.shape[0]
    if isinstance(xc, int) and isinstance(bc, int) and xc != bc:
        raise ValueError(f"Must provide as many biases as the channel dimension of the input ({bc} vs. {xc})")
    shape = [1] * x.ndim
    shape[c] = bc
    return x + jnp.reshape(b, shape)


def bias_add(value: Any, bias: Any, data_format: str | None = None, name: str | None = None) -> Any:
    """``value + bias`` with ``bias`` on the channel dimension, as ``tf.nn.bias_add``.

    Args:
      value: ``[..., C]`` (NHWC, default) or ``[N, C, ...]`` (``'NCHW'``).
      bias: ``[C]``, ``value``'s dtype.

    Raises:
      ValueError: ``bias`` is not 1-D or does not match ``C``.
      TypeError: the dtypes differ.
    """
    x, b = same_dtype("bias_add", ("value", value), ("bias", bias))
    fmt = (data_format or "NHWC").upper()
    return apply_op("BiasAdd", (x, b), {"data_format": fmt}, name=name)


def xw_plus_b(x: Any, weights: Any, biases: Any, name: str | None = None) -> Any:
    """``matmul(x, weights) + biases``, as ``tf.compat.v1.nn.xw_plus_b``."""
    with op_scope(name, "xw_plus_b", [x, weights, biases]) as scope:
        mm = math_ops.matmul(x, weights)
        return bias_add(mm, biases, name=scope)


# -- convolution and pooling ------------------------------------------------------------------


def _conv_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    fmt = a["data_format"]
    out: dict[str, Any] = {
        "strides": _window(fmt, a["strides"]), "dilations": _window(fmt, a["dilations"]), "data_format": fmt,
    }
    pad = a["padding"]
    if isinstance(pad, str):
        out["padding"] = pad
    else:
        (t, b), (left, r) = pad
        out["padding"] = "EXPLICIT"
        out["explicit_paddings"] = [0, 0, t, b, left, r, 0, 0] if fmt == "NHWC" else [0, 0, 0, 0, t, b, left, r]
    return out, []


def _conv_from_tf(a: dict[str, Any], consts: Any) -> dict[str, Any]:
    fmt = a.get("data_format", "NHWC")
    hw = (1, 2) if fmt == "NHWC" else (2, 3)
    dil = a.get("dilations") or (1, 1, 1, 1)
    pad = a["padding"]
    if pad == "EXPLICIT":
        ep = a["explicit_paddings"]
        pad = tuple((int(ep[2 * i]), int(ep[2 * i + 1])) for i in hw)
    strides = a["strides"]
    if len(strides) == 2:  # a depthwise node written by an earlier jaxsess (2-lists, which real TF refuses)
        return {"strides": tuple(strides), "padding": pad, "dilations": tuple(dil), "data_format": fmt}
    return {"strides": tuple(strides[i] for i in hw), "padding": pad,
            "dilations": tuple(dil[i] for i in hw), "data_format": fmt}


# TF: strides/dilations as 4-lists in data_format order, explicit padding as 8 ints
@register_op("Conv2D", default_name="Conv2D", tf=TFOp(to_tf=_conv_to_tf, from_tf=_conv_from_tf))
def _conv2d(x: Any, w: Any, *, strides: tuple[int, int], padding: Any, dilations: tuple[int, int],
            data_format: str) -> Any:
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"input and filter must be 4-D, got shapes {list(x.shape)} and {list(w.shape)}")
    c = x.shape[3] if data_format == "NHWC" else x.shape[1]
    groups = 1
    if isinstance(c, int) and c != w.shape[2]:
        # TF's grouped convolution: the filter's in_channels divide the input's depth,
        # groups = depth / in_channels, and the groups divide out_channels.
        if w.shape[2] == 0 or c % w.shape[2] or w.shape[3] % (c // w.shape[2]):
            raise ValueError(f"input depth {c} must equal the filter's in_channels {w.shape[2]} or be a "
                             f"multiple of it that divides out_channels {w.shape[3]} (a grouped convolution)")
        groups = c // w.shape[2]
    return jax.lax.conv_general_dilated(
        x, w, window_strides=strides, padding=padding, rhs_dilation=dilations,
        dimension_numbers=(data_format, "HWIO", data_format), feature_group_count=groups,
    )


def conv2d(input: Any, filter: Any = None, strides: Any = None, padding: Any = None,
           use_cudnn_on_gpu: bool = True, data_format: str = "NHWC", dilations: Any = (1, 1, 1, 1),
           name: str | None = None, filters: Any = None) -> Any:
    """2-D convolution (cross-correlation), as ``tf.compat.v1.nn.conv2d``.

    Args:
      input: ``[N, H, W, C]`` (NHWC) or ``[N, C, H, W]`` (NCHW), floats.
      filter: ``[fh, fw, C, out_channels]`` (HWIO), ``input``'s dtype
        (``filters`` is an alias).
      strides: an int, ``[sh, sw]`` or a 4-list in ``data_format`` order
        (``[1, sh, sw, 1]`` for NHWC).
      padding: ``'SAME'`` (output ``ceil(H / sh)``; extra padding at the
        bottom/right, as TF), ``'VALID'``, or explicit pairs
        ``[[0, 0], [top, bottom], [left, right], [0, 0]]``.
      dilations: as ``strides``; the filter's dilation rate.

    Returns:
      ``[N, H', W', out_channels]`` (or NCHW), ``input``'s dtype.

    Raises:
      ValueError: bad strides/padding, or channel counts that do not match
        (names the node).
    """
    if filter is None:
        filter = filters
    if filter is None:
        raise ValueError("conv2d: argument 'filter' is required.")
    fmt = data_format_arg(data_format, "conv2d")
    x, w = same_dtype("conv2d", ("input", input), ("filter", filter))
    x = float_input(x, "conv2d")
    attrs = {
        "strides": spatial_arg(strides, "conv2d", "strides", fmt),
        "padding": padding_arg(padding, "conv2d", fmt),
        "dilations": spatial_arg(dilations, "conv2d", "dilations", fmt, default=1),
        "data_format": fmt,
    }
    return apply_op("Conv2D", (x, w), attrs, name=name)


def _window(fmt: str, hw: tuple[int, int]) -> tuple[int, int, int, int]:
    return (1, hw[0], hw[1], 1) if fmt == "NHWC" else (1, 1, hw[0], hw[1])


def _tiles(x: Any, ksize: tuple[int, ...], padding: str, fill: Any) -> Any:
    """``x`` cut into its non-overlapping windows (strides equal to
    ``ksize``): ``[*out_dims, prod(ksize)]``, each window's elements in
    row-major order. ``VALID`` drops the remainder of each dimension; ``SAME``
    pads it with ``fill``, ``total // 2`` before and the rest after, as TF's
    ``SAME`` (``total = -n mod k`` when strides equal the window)."""
    pads = []
    for n, k in zip(x.shape, ksize, strict=True):
        if padding == "VALID":
            pads.append((0, -(n % k), 0))
        else:
            total = -n % k
            pads.append((total // 2, total - total // 2, 0))
    if any(lo or hi for lo, hi, _ in pads):
        x = jax.lax.pad(x, fill, pads)
    split: list[int] = []
    for n, k in zip(x.shape, ksize, strict=True):
        split += [n // k, k]
    rank = x.ndim
    tiles = x.reshape(split).transpose([*range(0, 2 * rank, 2), *range(1, 2 * rank, 2)])
    return tiles.reshape(*tiles.shape[:rank], -1)


@jax.custom_jvp
def _max_of_tiles(tiles: Any) -> Any:
    return jnp.max(tiles, axis=-1)


@_max_of_tiles.defjvp
def _max_of_tiles_jvp(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Any, Any]:
    # The derivative flows to the first maximum of each window (row-major), as
    # TF's MaxPoolGrad routes it; a one-hot mask keeps the reverse pass a fused
    # multiply (XLA:CPU's select-and-scatter for reduce_window's gradient is
    # about 40 % of a small CNN's training step).
    (tiles,), (dt,) = primals, tangents
    first = jax.nn.one_hot(jnp.argmax(tiles, axis=-1), tiles.shape[-1], dtype=tiles.dtype)
    return jnp.max(tiles, axis=-1), jnp.sum(first * dt, axis=-1)


@register_op("MaxPool", default_name="MaxPool")
def _max_pool(x: Any, *, ksize: tuple[int, ...], strides: tuple[int, ...], padding: str) -> Any:
    if jnp.issubdtype(x.dtype, jnp.floating):
        init = np.array(-np.inf, x.dtype)
    else:
        init = np.array(jnp.iinfo(x.dtype).min, x.dtype)
    if tuple(ksize) == tuple(strides) and jnp.issubdtype(x.dtype, jnp.floating):
        # Non-overlapping windows (the usual 2x2 stride 2): a max over
        # reshaped tiles, whose gradient is a mask, not a select-and-scatter.
        return _max_of_tiles(_tiles(x, tuple(ksize), padding, init))
    return jax.lax.reduce_window(x, init, jax.lax.max, ksize, strides, padding)


@register_op("AvgPool", default_name="AvgPool")
def _avg_pool(x: Any, *, ksize: tuple[int, ...], strides: tuple[int, ...], padding: str) -> Any:
    zero = np.array(0, x.dtype)
    total = jax.lax.reduce_window(x, zero, jax.lax.add, ksize, strides, padding)
    if padding == "VALID":
        return total / np.array(int(np.prod(ksize)), x.dtype)
    # SAME: divide by the number of real (unpadded) elements in each window, as TF.
    count = _same_window_counts(tuple(x.shape), ksize, strides)
    if count is not None:
        return total / count.astype(x.dtype)
    ones = jnp.ones((1,) + tuple(x.shape[1:]), x.dtype)
    count = jax.lax.reduce_window(ones, zero, jax.lax.add, ksize, strides, padding)
    return total / count


def _same_window_counts(shape: tuple[Any, ...], ksize: Sequence[int], strides: Sequence[int]) -> np.ndarray | None:
    """How many real (unpadded) elements each ``SAME`` window holds, computed on the host
    (``None`` when a dimension is not a known int), broadcastable to the pooled shape
    (size 1 along the batch and along dimensions of window and stride 1).

    A reduce-window of ones in the program would be the same numbers, but XLA constant-folds
    it when it compiles, 2-5 s for each of InceptionV3's 35x35 pools."""
    out = np.ones((1,) * len(shape))
    for d in range(1, len(shape)):
        n, k, s = shape[d], int(ksize[d]), int(strides[d])
        if k == 1 and s == 1:
            continue
        if not isinstance(n, int):
            return None
        m = -(-n // s)
        lo = max((m - 1) * s + k - n, 0) // 2
        start = np.arange(m) * s - lo
        per = np.minimum(start + k, n) - np.maximum(start, 0)
        out = out * per.reshape([-1 if i == d else 1 for i in range(len(shape))])
    return out


def _pool(op_type: str, fn: str, value: Any, ksize: Any, strides: Any, padding: Any, data_format: Any,
          name: str | None) -> Any:
    fmt = data_format_arg(data_format, fn)
    x = convert_to_tensor(value)
    pad = padding_arg(padding, fn, fmt)
    if not isinstance(pad, str):
        raise ValueError(f"{fn}: padding must be 'SAME' or 'VALID', got {padding!r}.")
    attrs = {
        "ksize": _window(fmt, spatial_arg(ksize, fn, "ksize", fmt)),
        "strides": _window(fmt, spatial_arg(strides, fn, "strides", fmt)),
        "padding": pad,
    }
    return apply_op(op_type, (x,), attrs, name=name)


def max_pool(value: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",
             name: str | None = None, input: Any = None) -> Any:
    """Max over sliding windows, as ``tf.compat.v1.nn.max_pool``.

    Args:
      value: ``[N, H, W, C]`` (or NCHW).
      ksize, strides: an int, ``[h, w]`` or a 4-list in ``data_format``
        order (``[1, kh, kw, 1]``).
      padding: ``'SAME'`` (padding never wins the max) or ``'VALID'``.

    Returns:
      ``[N, H', W', C]``, ``value``'s dtype.
    """
    if value is None:
        value = input
    return _pool("MaxPool", "max_pool", value, ksize, strides, padding, data_format, name)


def avg_pool(value: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",
             name: str | None = None, input: Any = None) -> Any:
    """Mean over sliding windows, as ``tf.compat.v1.nn.avg_pool``.

    With ``'SAME'`` padding each window's mean counts only the elements inside
    the input (padding is excluded from the count), as TF.
    """
    if value is None:
        value = input
    x = float_input(value, "avg_pool")
    return _pool("AvgPool", "avg_pool", x, ksize, strides, padding, data_format, name)


# -- moments, normalisation, top-k -----------------------------------------------------


def moments(x: Any, axes: Any, shift: Any = None, name: str | None = None, keep_dims: Any = None,
            keepdims: Any = None) -> tuple[Any, Any]:
    """Mean and variance of ``x`` over ``axes``, as ``tf.nn.moments``.

    The variance is ``mean((x - stop_gradient(mean)) ** 2)``, as TF.

    Returns:
      ``(mean, variance)``, reduced over ``axes`` (kept as size 1 with
      ``keepdims``).
    """
    keep = bool(keepdims if keepdims is not None else keep_dims)
    with op_scope(name, "moments", [x]):
        y = float_input(x, "moments")
        ax = list(static_ints(axes, "moments", "axes"))
        mean = math_ops.reduce_mean(y, ax, keepdims=True, name="mean")
        var = math_ops.reduce_mean(
            math_ops.squared_difference(y, stop_gradient(mean)), ax, keepdims=True, name="variance"
        )
        if not keep:
            mean = array_ops.squeeze(mean, ax)
            var = array_ops.squeeze(var, ax)
        return mean, var


def l2_normalize(x: Any, axis: Any = None, epsilon: float = 1e-12, name: str | None = None,
                 dim: Any = None) -> Any:
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``, as ``tf.math.l2_normalize``.

    Args:
      axis: int or list of ints (``dim`` is the old alias); all axes when ``None``.
    """
    if axis is None:
        axis = dim
    with op_scope(name, "l2_normalize", [x]) as scope:
        y = float_input(x, "l2_normalize")
        ax = None if axis is None else list(static_ints(axis, "l2_normalize", "axis"))
        square_sum = math_ops.reduce_sum(math_ops.square(y), ax, keepdims=True)
        inv = math_ops.rsqrt(math_ops.maximum(square_sum, epsilon))
        return math_ops.multiply(y, inv, name=scope)


@register_op("InTopKV2", default_name="in_top_k")
def _in_top_k(predictions: Any, targets: Any, *, k: int) -> Any:
    t = jnp.take_along_axis(predictions, targets[:, None].astype(jnp.int32), axis=1, mode="fill",
                            fill_value=jnp.nan)
    higher = jnp.sum(predictions > t, axis=1)
    n = predictions.shape[1]
    valid = (targets >= 0) & (targets < n) & jnp.isfinite(t[:, 0])
    return valid & (higher < k)


def in_top_k(predictions: Any, targets: Any, k: Any, name: str | None = None) -> Any:
    """Whether ``targets[i]`` is among the ``k`` largest ``predictions[i]``, as ``tf.nn.in_top_k``.

    Ties at the boundary count as in the top ``k``; a non-finite prediction
    or an out-of-range target gives ``False`` (as TF).

    Args:
      predictions: ``[batch, classes]`` float32.
      targets: ``[batch]`` int32/int64.
      k: an int.

    Returns:
      ``[batch]`` bool.
    """
    with op_scope(name, "in_top_k", [predictions, targets]):  # as TF: 'in_top_k/InTopKV2'
        p = float_input(predictions, "in_top_k")
        t = convert_to_tensor(targets)
        return apply_op("InTopKV2", (p, t), {"k": static_int(k, "in_top_k", "k")}, name=name or "InTopKV2")


class TopKV2(NamedTuple):
    """The result of :func:`top_k`."""

    values: Any
    indices: Any


@register_op("TopKV2", num_outputs=2, default_name="TopKV2")
def _top_k(x: Any, *, k: int) -> Any:
    values, indices = jax.lax.top_k(x, k)
    return values, indices.astype(jnp.int32)


def top_k(input: Any, k: Any = 1, sorted: bool = True, name: str | None = None) -> TopKV2:  # noqa: A002
    """The ``k`` largest entries of the last dimension and their indices, as ``tf.nn.top_k``.

    Returns:
      ``TopKV2(values, indices)``: ``[..., k]`` of ``input``'s dtype and int32,
      sorted in decreasing order (equal values by increasing index).

    Raises:
      ValueError: ``k`` is negative or larger than the last dimension.
    """
    x = convert_to_tensor(input)
    kk = static_int(k, "top_k", "k")
    if kk < 0:
        raise ValueError(f"top_k: k must be non-negative, got {kk}.")
    values, indices = apply_op("TopKV2", (x,), {"k": kk}, name=name)
    return TopKV2(values, indices)


def embedding_lookup(params: Any, ids: Any, partition_strategy: str = "mod", name: str | None = None,
                     validate_indices: bool = True, max_norm: Any = None) -> Any:
    """Rows of ``params`` at ``ids`` (``gather`` on axis 0), as ``tf.nn.embedding_lookup``.

    Args:
      params: a tensor ``[vocab, ...]``, a ``PartitionedVariable``, or a list
        of shards (tensors or variables) that together hold the rows.
      ids: int tensor; the result is ``ids.shape + params.shape[1:]``.
      partition_strategy: how ids map to several shards: ``'mod'`` (id ``i``
        is row ``i // n`` of shard ``i % n``) or ``'div'`` (contiguous ranges).
      max_norm: when given, rows with a larger L2 norm are scaled down to it.

    Raises:
      ValueError: an empty list; an unknown ``partition_strategy``; shards
        whose sizes do not fit the strategy.
    """
    if params is None:
        raise ValueError("params must be specified")
    shards = list(params) if isinstance(params, list | tuple | PartitionedVariable) else [params]
    with op_scope(name, "embedding_lookup", [*shards, ids]) as scope:
        params = sharded_table(params, partition_strategy, "embedding_lookup")
        rows = array_ops.gather(params, ids, name=scope)
        if max_norm is not None:
            rows = _clip_rows(rows, ids, max_norm)
        # as TF: the result is `<scope>/Identity:0`
        return identity(rows, name=None if scope is None else "Identity")


def _clip_rows(rows: Any, ids: Any, max_norm: Any) -> Any:
    """``rows`` with each embedding's L2 norm clipped to ``max_norm``."""
    axes = list(range(_rank_of(convert_to_tensor(ids)), _rank_of(rows)))  # type: ignore[arg-type]
    norm = math_ops.sqrt(math_ops.reduce_sum(math_ops.square(rows), axes, keepdims=True))
    scale = math_ops.minimum(math_ops.divide(max_norm, math_ops.maximum(norm, 1e-12)), 1.0)
    return math_ops.multiply(rows, scale)
