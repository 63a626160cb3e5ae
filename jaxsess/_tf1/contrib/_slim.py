"""``tf.contrib.layers`` (TF 1.x; today's ``tf_slim``): layer functions over
:mod:`jaxsess._tf1.layers`, and the regularizers.

As contrib, each layer function opens a variable scope (``fully_connected``,
``Conv``, ``BatchNorm``, ``Dropout``; made unique) whose custom getter names
the layer's ``kernel``/``bias`` ``weights``/``biases`` and puts every
variable in ``model_variables`` too; then applies ``normalizer_fn`` (with
``normalizer_params``; the biases are then left out) and ``activation_fn``
(default ``tf.nn.relu``) inside that scope. ``weights_regularizer`` losses
go to ``regularization_losses`` (``tf.losses.get_regularization_loss()`` sums
them). Every layer function takes defaults from ``arg_scope``
(:mod:`jaxsess._tf1.contrib._arg_scope`).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import constant, convert_to_tensor, identity
from jaxsess._core.graph._graph import (
    GraphKeys,
    add_to_collection,
    get_collection,
    get_collection_ref,
    name_scope,
)
from jaxsess._tf1 import layers as _layers
from jaxsess._tf1.contrib._arg_scope import add_arg_scope
from jaxsess._tf1.ops import math_ops as math_ops, nn_ops as nn_ops
from jaxsess._tf1.ops.array_ops import one_hot
from jaxsess._tf1.ops.init_ops import VarianceScaling, ones_initializer, zeros_initializer
from jaxsess._tf1.ops.normalization import batch_normalization
from jaxsess._tf1.ops.variable_scope import get_variable, variable_scope

__all__ = [
    "fully_connected",
    "conv2d",
    "max_pool2d",
    "avg_pool2d",
    "batch_norm",
    "dropout",
    "layer_norm",
    "flatten",
    "one_hot_encoding",
    "l1_regularizer",
    "l2_regularizer",
    "l1_l2_regularizer",
    "sum_regularizer",
    "apply_regularization",
    "variance_scaling_initializer",
]

Regularizer = Callable[[Any], Any]


def variance_scaling_initializer(factor: float = 2.0, mode: str = "FAN_IN", uniform: bool = False,
                                 seed: int | None = None, dtype: Any = _dtypes.float32) -> VarianceScaling:
    """He-style initialization, as ``tf.contrib.layers.variance_scaling_initializer``:
    ``VarianceScaling(factor, mode.lower(), 'uniform' if uniform else 'truncated_normal')``.

    Raises:
      TypeError: ``mode`` is not ``FAN_IN``, ``FAN_OUT`` or ``FAN_AVG``.
    """
    if mode not in ("FAN_IN", "FAN_OUT", "FAN_AVG"):
        raise TypeError(f"Unknown mode {mode} [FAN_IN, FAN_OUT, FAN_AVG]")
    return VarianceScaling(factor, mode.lower(), "uniform" if uniform else "truncated_normal", seed=seed,
                           dtype=dtype)


def _check_scale(scale: Any, what: str = "scale") -> bool:
    """Validates a regularizer scale as contrib does; False when it is 0 (no regularizer)."""
    if isinstance(scale, numbers.Integral):
        raise ValueError(f"{what} cannot be an integer: {scale}")
    if isinstance(scale, numbers.Real):
        if scale < 0.0:
            raise ValueError(f"Setting a scale less than 0 on a regularizer: {scale:g}")
        if scale == 0.0:
            return False
    return True


def l1_regularizer(scale: float, scope: str | None = None) -> Regularizer:
    """``weights -> scale * sum(|weights|)`` (op ``l1_regularizer``), as
    ``tf.contrib.layers.l1_regularizer``; a scale of 0 gives a function returning ``None``.

    Raises:
      ValueError: ``scale`` is an integer or negative.
    """
    if not _check_scale(scale):
        return lambda _: None

    def l1(weights: Any, name: str | None = None) -> Any:
        with name_scope(scope, "l1_regularizer") as scope_name:
            my_scale = convert_to_tensor(scale, dtype=weights.dtype, name="scale")
            return math_ops.multiply(my_scale, math_ops.reduce_sum(math_ops.abs(weights)), name=scope_name)

    return l1


def l2_regularizer(scale: float, scope: str | None = None) -> Regularizer:
    """``weights -> scale * sum(weights**2) / 2`` (op ``l2_regularizer``), as
    ``tf.contrib.layers.l2_regularizer``; a scale of 0 gives a function returning ``None``.

    Raises:
      ValueError: ``scale`` is an integer or negative.
    """
    if not _check_scale(scale):
        return lambda _: None

    def l2(weights: Any) -> Any:
        with name_scope(scope, "l2_regularizer") as scope_name:
            my_scale = convert_to_tensor(scale, dtype=weights.dtype, name="scale")
            return math_ops.multiply(my_scale, nn_ops.l2_loss(weights), name=scope_name)

    return l2


def sum_regularizer(regularizer_list: Sequence[Regularizer | None], scope: str | None = None) -> Regularizer | None:
    """The sum of several regularizers (op ``sum_regularizer``), as
    ``tf.contrib.layers.sum_regularizer``; ``None`` when the list holds none."""
    regs = [r for r in regularizer_list if r is not None]
    if not regs:
        return None

    def sum_reg(weights: Any) -> Any:
        with name_scope(scope, "sum_regularizer") as scope_name:
            tensors = [t for t in (r(weights) for r in regs) if t is not None]
            return math_ops.add_n(tensors, name=scope_name) if tensors else None

    return sum_reg


def l1_l2_regularizer(scale_l1: float = 1.0, scale_l2: float = 1.0, scope: str | None = None) -> Regularizer | None:
    """``l1_regularizer(scale_l1) + l2_regularizer(scale_l2)``, as ``tf.contrib.layers.l1_l2_regularizer``."""
    _check_scale(scale_l1, "scale_l1")
    _check_scale(scale_l2, "scale_l2")
    scope = scope or "l1_l2_regularizer"
    if scale_l1 == 0.0:
        return l2_regularizer(scale_l2, scope)
    if scale_l2 == 0.0:
        return l1_regularizer(scale_l1, scope)
    return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)], scope=scope)


def apply_regularization(regularizer: Regularizer, weights_list: Sequence[Any] | None = None) -> Any:
    """The summed penalty of ``regularizer`` over ``weights_list`` (default: the
    ``weights`` collection), added to ``regularization_losses``, as
    ``tf.contrib.layers.apply_regularization`` (op ``get_regularization_penalty``).

    Raises:
      ValueError: no weights, or a penalty that is not a scalar.
    """
    if not weights_list:
        weights_list = get_collection(GraphKeys.WEIGHTS)
    if not weights_list:
        raise ValueError("No weights to regularize.")
    with name_scope("get_regularization_penalty") as scope:
        penalties = [regularizer(w) for w in weights_list]
        penalties = [p if p is not None else constant(0.0) for p in penalties]
        for p in penalties:
            if p.shape.ndims != 0:
                raise ValueError(f"regularizer must return a scalar Tensor instead of a Tensor with rank "
                                 f"{p.shape.ndims}.")
        summed = math_ops.add_n(penalties, name=scope)
    add_to_collection(GraphKeys.REGULARIZATION_LOSSES, summed)
    return summed


def _model_variable_getter(rename: dict[str, str] | None = None) -> Callable[..., Any]:
    """contrib's custom getter: renames the last name component and adds the
    variable to ``model_variables`` (and the global variables)."""

    def getter(true_getter: Callable[..., Any], name: str, *args: Any, **kwargs: Any) -> Any:
        parts = name.split("/")
        if rename and parts[-1] in rename:
            parts[-1] = rename[parts[-1]]
        collections = list(kwargs.pop("collections", None) or [GraphKeys.GLOBAL_VARIABLES])
        for c in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES):
            if c not in collections:
                collections.append(c)
        return true_getter("/".join(parts), *args, collections=collections, **kwargs)

    return getter


_WEIGHTS_BIASES = {"kernel": "weights", "bias": "biases"}


def _add_to_collections(variable: Any, collections: Any, key: str) -> None:
    if isinstance(collections, dict):
        collections = collections.get(key)
    for c in [collections] if isinstance(collections, str) else list(collections or []):
        if variable not in get_collection(c):
            add_to_collection(c, variable)


def _finish(outputs: Any, normalizer_fn: Any, normalizer_params: Any, activation_fn: Any,
            outputs_collections: Any, scope_name: str) -> Any:
    if normalizer_fn is not None:
        outputs = normalizer_fn(outputs, **(normalizer_params or {}))
    if activation_fn is not None:
        outputs = activation_fn(outputs)
    for c in [outputs_collections] if isinstance(outputs_collections, str) else list(outputs_collections or []):
        add_to_collection(c, outputs)
    return outputs


@add_arg_scope
def fully_connected(inputs: Any, num_outputs: int, activation_fn: Any = nn_ops.relu, normalizer_fn: Any = None,
                    normalizer_params: dict[str, Any] | None = None,
                    weights_initializer: Any = VarianceScaling(1.0, "fan_avg", "uniform"),
                    weights_regularizer: Regularizer | None = None, biases_initializer: Any = zeros_initializer(),
                    biases_regularizer: Regularizer | None = None, reuse: Any = None, variables_collections: Any = None,
                    outputs_collections: Any = None, trainable: bool = True, scope: str | None = None) -> Any:
    """``activation_fn(inputs @ weights + biases)``, as ``tf.contrib.layers.fully_connected``.

    Variables ``<scope>/weights [in, num_outputs]`` and ``<scope>/biases
    [num_outputs]`` (no biases with a ``normalizer_fn`` or without
    ``biases_initializer``); scope default ``fully_connected``.

    Raises:
      ValueError: ``num_outputs`` is not an int; the last input dimension is unknown.
    """
    if not isinstance(num_outputs, int):
        raise ValueError(f"num_outputs type should be one of [<class 'int'>], got {type(num_outputs)}.")
    with variable_scope(scope, "fully_connected", [inputs], reuse=reuse,
                        custom_getter=_model_variable_getter(_WEIGHTS_BIASES)) as sc:
        inputs = convert_to_tensor(inputs)
        layer = _layers.Dense(units=num_outputs, activation=None,
                              use_bias=bool(not normalizer_fn and biases_initializer),
                              kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
                              kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
                              trainable=trainable, name=sc.name, dtype=inputs.dtype, _scope=sc, _reuse=reuse)
        outputs = layer.apply(inputs)
        _add_to_collections(layer.kernel, variables_collections, "weights")
        if layer.bias is not None:
            _add_to_collections(layer.bias, variables_collections, "biases")
        return _finish(outputs, normalizer_fn, normalizer_params, activation_fn, outputs_collections, sc.name)


@add_arg_scope
def conv2d(inputs: Any, num_outputs: int, kernel_size: Any, stride: Any = 1, padding: str = "SAME",
           data_format: str | None = None, rate: Any = 1, activation_fn: Any = nn_ops.relu,
           normalizer_fn: Any = None, normalizer_params: dict[str, Any] | None = None,
           weights_initializer: Any = VarianceScaling(1.0, "fan_avg", "uniform"),
           weights_regularizer: Regularizer | None = None, biases_initializer: Any = zeros_initializer(),
           biases_regularizer: Regularizer | None = None, reuse: Any = None, variables_collections: Any = None,
           outputs_collections: Any = None, trainable: bool = True, scope: str | None = None) -> Any:
    """A 2-D convolution, as ``tf.contrib.layers.conv2d`` (``convolution``) for 4-D inputs.

    Variables ``<scope>/weights [kh, kw, in, num_outputs]`` and
    ``<scope>/biases [num_outputs]``; scope default ``Conv``; ``padding``
    ``'SAME'`` by default; ``data_format`` ``'NHWC'`` or ``'NCHW'``.

    Raises:
      ValueError: an invalid ``data_format``, or inputs that are not 4-D.
    """
    if data_format not in (None, "NHWC", "NCHW"):
        raise ValueError(f"Invalid data_format: {data_format!r}")
    with variable_scope(scope, "Conv", [inputs], reuse=reuse,
                        custom_getter=_model_variable_getter(_WEIGHTS_BIASES)) as sc:
        inputs = convert_to_tensor(inputs)
        if inputs.shape.ndims != 4:
            raise ValueError("Convolution not supported for input with rank", inputs.shape.ndims)
        df = "channels_first" if data_format and data_format.startswith("NC") else "channels_last"
        layer = _layers.Conv2D(filters=num_outputs, kernel_size=kernel_size, strides=stride, padding=padding,
                               data_format=df, dilation_rate=rate, activation=None,
                               use_bias=bool(not normalizer_fn and biases_initializer),
                               kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
                               kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
                               trainable=trainable, name=sc.name, dtype=inputs.dtype, _scope=sc, _reuse=reuse)
        outputs = layer.apply(inputs)
        _add_to_collections(layer.kernel, variables_collections, "weights")
        if layer.bias is not None:
            _add_to_collections(layer.bias, variables_collections, "biases")
        return _finish(outputs, normalizer_fn, normalizer_params, activation_fn, outputs_collections, sc.name)


def _pair(v: Any) -> list[int]:
    return [int(v), int(v)] if isinstance(v, int) else [int(x) for x in v]


def _pool2d(pool: Callable[..., Any], default: str, op_name: str, inputs: Any, kernel_size: Any, stride: Any,
            padding: str, data_format: str, outputs_collections: Any, scope: str | None) -> Any:
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with name_scope(scope, default) as sc:
        inputs = convert_to_tensor(inputs)
        k, s = _pair(kernel_size), _pair(stride)
        if data_format == "NHWC":
            ksize, strides = [1, *k, 1], [1, *s, 1]
        else:
            ksize, strides = [1, 1, *k], [1, 1, *s]
        outputs = pool(inputs, ksize, strides, padding.upper(), data_format=data_format, name=op_name)
        return _finish(outputs, None, None, None, outputs_collections, sc)


@add_arg_scope
def max_pool2d(inputs: Any, kernel_size: Any, stride: Any = 2, padding: str = "VALID", data_format: str = "NHWC",
               outputs_collections: Any = None, scope: str | None = None) -> Any:
    """2-D max pooling, as ``tf.contrib.layers.max_pool2d`` (stride 2, ``'VALID'`` by default).

    Raises:
      ValueError: ``data_format`` is not ``'NHWC'`` or ``'NCHW'``.
    """
    return _pool2d(nn_ops.max_pool, "MaxPool2D", "MaxPool", inputs, kernel_size, stride, padding, data_format,
                   outputs_collections, scope)


@add_arg_scope
def avg_pool2d(inputs: Any, kernel_size: Any, stride: Any = 2, padding: str = "VALID", data_format: str = "NHWC",
               outputs_collections: Any = None, scope: str | None = None) -> Any:
    """2-D average pooling, as ``tf.contrib.layers.avg_pool2d``."""
    return _pool2d(nn_ops.avg_pool, "AvgPool2D", "AvgPool", inputs, kernel_size, stride, padding, data_format,
                   outputs_collections, scope)


@add_arg_scope
def batch_norm(inputs: Any, decay: float = 0.999, center: bool = True, scale: bool = False, epsilon: float = 0.001,
               activation_fn: Any = None, param_initializers: dict[str, Any] | None = None,
               param_regularizers: dict[str, Any] | None = None,
               updates_collections: Any = GraphKeys.UPDATE_OPS, is_training: Any = True, reuse: Any = None,
               variables_collections: Any = None, outputs_collections: Any = None, trainable: bool = True,
               data_format: str = "NHWC", zero_debias_moving_mean: bool = False, scope: str | None = None,
               fused: Any = None, renorm: bool = False) -> Any:
    """Batch normalization, as ``tf.contrib.layers.batch_norm`` (over
    :class:`jaxsess._tf1.layers.BatchNormalization`, ``momentum=decay``).

    Variables ``<scope>/beta`` (``center``), ``<scope>/gamma`` (``scale``,
    off by default as contrib), ``<scope>/moving_mean``,
    ``<scope>/moving_variance``; scope default ``BatchNorm``. In training
    (``is_training``, a bool or a scalar bool tensor) the moving statistics'
    updates go to ``updates_collections`` (default ``UPDATE_OPS``: run them
    with the train op); ``updates_collections=None`` runs them with the output.

    Raises:
      NotImplementedError: ``zero_debias_moving_mean`` or ``renorm``.
    """
    if zero_debias_moving_mean or renorm:
        raise NotImplementedError("batch_norm: zero_debias_moving_mean and renorm are not supported by jaxsess.")
    params = dict(param_initializers or {})
    regs = dict(param_regularizers or {})
    init_kwargs = {f"{k}_initializer": params[k] for k in ("beta", "gamma", "moving_mean", "moving_variance")
                   if k in params}
    with variable_scope(scope, "BatchNorm", [inputs], reuse=reuse,
                        custom_getter=_model_variable_getter()) as sc:
        inputs = convert_to_tensor(inputs)
        axis = 1 if data_format == "NCHW" else -1
        updates = get_collection_ref(GraphKeys.UPDATE_OPS)
        n_before = len(updates)
        layer = _layers.BatchNormalization(axis=axis, momentum=decay, epsilon=epsilon, center=center, scale=scale,
                                           beta_regularizer=regs.get("beta"), gamma_regularizer=regs.get("gamma"),
                                           trainable=trainable, fused=fused, name=sc.name, _scope=sc, _reuse=reuse,
                                           **init_kwargs)
        outputs = layer.apply(inputs, training=is_training)
        new_updates = updates[n_before:]
        if updates_collections != GraphKeys.UPDATE_OPS and new_updates:
            del updates[n_before:]
            if updates_collections is None:
                with outputs.graph.control_dependencies(new_updates):
                    outputs = identity(outputs)
            else:
                for c in [updates_collections] if isinstance(updates_collections, str) else updates_collections:
                    for u in new_updates:
                        add_to_collection(c, u)
        for v in layer.variables:
            _add_to_collections(v, variables_collections, v.op.name.split("/")[-1])
        return _finish(outputs, None, None, activation_fn, outputs_collections, sc.name)


@add_arg_scope
def layer_norm(inputs: Any, center: bool = True, scale: bool = True, activation_fn: Any = None, reuse: Any = None,
               variables_collections: Any = None, outputs_collections: Any = None, trainable: bool = True,
               begin_norm_axis: int = 1, begin_params_axis: int = -1, scope: str | None = None) -> Any:
    """Layer normalization, as ``tf.contrib.layers.layer_norm``: moments over the
    axes from ``begin_norm_axis`` on, then ``gamma * (x - mean) / sqrt(var + 1e-12)
    + beta`` (``1e-3`` for ``float16``) with ``<scope>/beta`` (zeros) and
    ``<scope>/gamma`` (ones) of shape ``inputs.shape[begin_params_axis:]``;
    scope default ``LayerNorm``.

    Raises:
      ValueError: unknown rank, axes out of range, or parameter dimensions unknown.
    """
    with variable_scope(scope, "LayerNorm", [inputs], reuse=reuse, custom_getter=_model_variable_getter()) as sc:
        inputs = convert_to_tensor(inputs)
        rank = inputs.shape.ndims
        if rank is None:
            raise ValueError(f"Inputs {inputs.name} has undefined rank.")
        if begin_norm_axis < 0:
            begin_norm_axis = rank + begin_norm_axis
        if begin_params_axis >= rank or begin_norm_axis >= rank:
            raise ValueError(f"begin_params_axis ({begin_params_axis}) and begin_norm_axis ({begin_norm_axis}) "
                             f"must be < rank(inputs) ({rank})")
        params_shape = inputs.shape.as_list()[begin_params_axis:]
        if any(d is None for d in params_shape):
            raise ValueError(f"Inputs {inputs.name}: shape(inputs)[{begin_params_axis}:] is not fully defined: "
                             f"{inputs.shape}")
        beta = gamma = None
        if center:
            beta = get_variable("beta", shape=params_shape, dtype=inputs.dtype, initializer=zeros_initializer(),
                                trainable=trainable)
            _add_to_collections(beta, variables_collections, "beta")
        if scale:
            gamma = get_variable("gamma", shape=params_shape, dtype=inputs.dtype, initializer=ones_initializer(),
                                 trainable=trainable)
            _add_to_collections(gamma, variables_collections, "gamma")
        mean, variance = nn_ops.moments(inputs, list(range(begin_norm_axis, rank)), keep_dims=True)
        epsilon = 1e-3 if inputs.dtype == _dtypes.float16 else 1e-12
        outputs = batch_normalization(inputs, mean, variance, offset=beta, scale=gamma, variance_epsilon=epsilon)
        outputs.set_shape(inputs.shape)
        return _finish(outputs, None, None, activation_fn, outputs_collections, sc.name)


@add_arg_scope
def dropout(inputs: Any, keep_prob: float = 0.5, noise_shape: Any = None, is_training: Any = True,
            outputs_collections: Any = None, scope: str | None = None, seed: int | None = None) -> Any:
    """Dropout keeping each element with probability ``keep_prob`` (scaled by
    ``1/keep_prob``) when ``is_training``, as ``tf.contrib.layers.dropout`` (scope ``Dropout``)."""
    with variable_scope(scope, "Dropout", [inputs]) as sc:
        inputs = convert_to_tensor(inputs)
        layer = _layers.Dropout(rate=1 - keep_prob, noise_shape=noise_shape, seed=seed, name=sc.name, _scope=sc)
        outputs = layer.apply(inputs, training=is_training)
        return _finish(outputs, None, None, None, outputs_collections, sc.name)


@add_arg_scope
def flatten(inputs: Any, outputs_collections: Any = None, scope: str | None = None) -> Any:
    """``inputs`` reshaped to ``[batch, -1]`` (scope ``Flatten``), as ``tf.contrib.layers.flatten``."""
    with name_scope(scope, "Flatten") as sc:
        outputs = _layers.flatten(convert_to_tensor(inputs))
        return _finish(outputs, None, None, None, outputs_collections, sc)


@add_arg_scope
def one_hot_encoding(labels: Any, num_classes: int, on_value: float = 1.0, off_value: float = 0.0,
                     outputs_collections: Any = None, scope: str | None = None) -> Any:
    """``float32`` one-hot vectors of ``labels`` (scope ``OneHotEncoding``), as
    ``tf.contrib.layers.one_hot_encoding``."""
    with name_scope(scope, "OneHotEncoding") as sc:
        labels = convert_to_tensor(labels)
        if labels.dtype == _dtypes.int32:
            labels = math_ops.cast(labels, _dtypes.int64)
        outputs = one_hot(labels, num_classes, on_value=on_value, off_value=off_value)
        return _finish(outputs, None, None, None, outputs_collections, sc)
