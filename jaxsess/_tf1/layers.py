"""``jaxsess._tf1.layers``: TF1's functional and object layers, as ``tf.compat.v1.layers``.

Each layer owns a variable scope, made the first time it is called: a
layer named ``name`` uses the scope ``name`` (so two layers given the same
name without ``reuse`` collide, as TF1); an unnamed one uses a unique
default (``dense``, ``dense_1``, …). Its variables are created with
:func:`~jaxsess._tf1.ops.variable_scope.get_variable` in that scope
(``dense/kernel``, ``dense/bias``), its ops in the scope's name scope
(``dense/MatMul``, ``dense/BiasAdd``). Calling a layer object again reuses
its variables; ``reuse=True`` (or an enclosing reusing scope) makes a new
layer share an existing layer's variables by name.

The layers are composites of the graph ops (``matmul``, ``nn.conv2d``,
``nn.bias_add``, ``nn.max_pool``, ``reshape``, ``nn.dropout``, ``cond``).
Inside an ``EagerSession`` they run at once; a layer object keeps its
variables, while each functional call (``dense(x, 3)``) makes new ones, as
TF1's layers do when executing eagerly.

Limits: a layer (or ``get_variable``) that creates variables inside a
``cond`` branch or ``while_loop`` body raises ``NotImplementedError`` (its
initializer is an assignment inside control flow); create the layer first and
call it inside.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import constant_value, convert_to_tensor, identity
from jaxsess._core.graph._graph import GraphKeys, get_default_graph
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import (
    array_ops as _array_ops,
    control_flow as _control_flow,
    conv3d_ops as _conv3d_ops,
    conv_ops as _conv_ops,
    init_ops as init_ops,
    math_ops as _math_ops,
    nn_ops as _nn_ops,
    normalization as _normalization,
    random_ops as _random_ops,
    variable_scope as vs,
)

__all__ = [
    "Layer",
    "Dense",
    "Conv2D",
    "MaxPooling2D",
    "AveragePooling2D",
    "Flatten",
    "Dropout",
    "dense",
    "conv2d",
    "max_pooling2d",
    "average_pooling2d",
    "flatten",
    "dropout",
    "BatchNormalization",
    "Conv1D",
    "Conv2DTranspose",
    "SeparableConv2D",
    "batch_normalization",
    "conv1d",
    "conv2d_transpose",
    "separable_conv2d",
    "MaxPooling1D",
    "AveragePooling1D",
    "max_pooling1d",
    "average_pooling1d",
    "Conv3D",
    "MaxPooling3D",
    "AveragePooling3D",
    "conv3d",
    "max_pooling3d",
    "average_pooling3d",
]


# -- argument normalisation (Keras' conv_utils) ------------------------------------


def _normalize_tuple(value: Any, n: int, name: str) -> tuple[int, ...]:
    if isinstance(value, int | np.integer):
        return (int(value),) * n
    try:
        t = tuple(value)
    except TypeError:
        raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. Received: {value!r}") from None
    if len(t) != n or not all(isinstance(v, int | np.integer) for v in t):
        raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. Received: {value!r}")
    return tuple(int(v) for v in t)


def _normalize_padding(value: Any) -> str:
    p = str(value).lower() if isinstance(value, str) else value
    if p not in ("valid", "same"):
        raise ValueError(f'The `padding` argument must be one of "valid", "same". Received: {value!r}')
    return p  # type: ignore[no-any-return]


def _normalize_data_format(value: Any) -> str:
    f = "channels_last" if value is None else str(value).lower()
    if f not in ("channels_first", "channels_last"):
        raise ValueError(
            f'The `data_format` argument must be one of "channels_first", "channels_last". Received: {value!r}'
        )
    return f


def _activation(activation: Any) -> Callable[..., Any] | None:
    """A callable activation from ``None``, a callable or a Keras name ('relu')."""
    if activation is None or callable(activation):
        return activation
    table: dict[str, Callable[..., Any] | None] = {
        "linear": None,
        "relu": _nn_ops.relu,
        "relu6": _nn_ops.relu6,
        "elu": _nn_ops.elu,
        "selu": _nn_ops.selu,
        "softplus": _nn_ops.softplus,
        "softsign": _nn_ops.softsign,
        "softmax": _nn_ops.softmax,
        "sigmoid": _math_ops.sigmoid,
        "tanh": _math_ops.tanh,
    }
    if activation not in table:
        raise ValueError(f"Unknown activation function: {activation!r}; pass a callable or one of {sorted(table)}.")
    return table[activation]


def _shape(x: Any) -> TensorShape:
    """The static shape of a graph tensor, or the shape of an eager array."""
    return TensorShape(x.shape)


def _to_snake_case(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


# -- the base layer ------------------------------------------------------------------


class Layer:
    """The base of TF1's graph layers, as ``tf.compat.v1.layers.Layer``.

    Subclasses implement ``build(input_shape)`` (creating variables with
    :meth:`add_weight`) and ``call(inputs, **kwargs)``.

    Args:
      trainable: add the layer's variables to ``TRAINABLE_VARIABLES``.
      name: the layer's variable scope name (default: the snake-case class
        name, made unique).
      dtype: the variables' dtype (default: the first input's).

    Attributes:
      name: the layer name.
      built: whether the variables exist.
      variables / weights: the layer's variables, trainable first.
      trainable_variables / trainable_weights, non_trainable_variables /
        non_trainable_weights.
    """

    def __init__(self, trainable: bool = True, name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        scope = kwargs.pop("_scope", None)
        self._reuse = kwargs.pop("_reuse", None)
        self._activity_regularizer = kwargs.pop("activity_regularizer", None)
        if kwargs:
            raise TypeError(f"Keyword argument not understood: {sorted(kwargs)[0]!r}")
        self.trainable = bool(trainable)
        self.built = False
        self.dtype = None if dtype is None else _dtypes.as_dtype(dtype)
        self._trainable_weights: list[Any] = []
        self._non_trainable_weights: list[Any] = []
        self._base_name = name or _to_snake_case(type(self).__name__)
        self._name = name or self._base_name
        self._name_given = bool(name)
        self._scope: vs.VariableScope | None = None
        if scope:
            with vs.variable_scope(scope) as captured:
                self._scope = captured

    @property
    def name(self) -> str:
        """The given name, else the layer's unique scope name once it has one (``dense_1``)."""
        if self._name_given or self._scope is None:
            return self._name
        return self._scope.name.split("/")[-1]

    @property
    def scope_name(self) -> str:
        if self._scope is None:
            raise ValueError("No name available for layer scope because the layer has not been used yet.")
        return self._scope.name

    @property
    def trainable_weights(self) -> list[Any]:
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self) -> list[Any]:
        if self.trainable:
            return list(self._non_trainable_weights)
        return self._trainable_weights + self._non_trainable_weights

    @property
    def weights(self) -> list[Any]:
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    def build(self, input_shape: TensorShape) -> None:
        """Creates the variables (default: none)."""
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """The layer's computation (default: the identity)."""
        return inputs

    def add_weight(
        self,
        name: str,
        shape: Any,
        dtype: Any = None,
        initializer: Any = None,
        regularizer: Any = None,
        trainable: bool = True,
        constraint: Any = None,
    ) -> Any:
        """Gets or creates the variable ``name`` in the layer's scope (see
        :func:`~jaxsess._tf1.ops.variable_scope.get_variable`) and tracks it."""
        dtype = dtype or self.dtype or _dtypes.float32
        trainable = trainable and self.trainable
        # As TF's legacy layers: always in the layer's own scope, also when ``build``
        # is called directly (``cell.build(shape)`` names ``<scope>/basic_rnn_cell/kernel``).
        self._set_scope()
        reuse = True if self.built else self._reuse
        with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            if initializer is None and scope.initializer is None and _dtypes.as_dtype(dtype).is_floating:
                # TF 2.x's legacy layers: Keras' glorot uniform, from fresh random seeds
                initializer = init_ops.FreshSeeds(init_ops.glorot_uniform_initializer())
            # A reused variable keeps the regularization loss made when it was created.
            v = vs.get_variable(
                name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                trainable=trainable, constraint=constraint,
            )
        bucket = self._trainable_weights if trainable else self._non_trainable_weights
        if all(v is not w for w in bucket):
            bucket.append(v)
        return v

    def _set_scope(self) -> None:
        if self._scope is None:
            if self._reuse:
                with vs.variable_scope(self._base_name) as captured:
                    self._scope = captured
            else:
                with vs.variable_scope(None, default_name=self._base_name) as captured:
                    self._scope = captured

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """Builds the layer on first use, then applies ``call`` in its scopes."""
        self._set_scope()
        assert self._scope is not None
        reuse = True if self.built else self._reuse
        graph = get_default_graph()
        with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            with graph.name_scope(scope.original_name_scope):
                if not self.built:
                    first = inputs[0] if isinstance(inputs, list | tuple) else inputs
                    first = convert_to_tensor(first)
                    if self.dtype is None:
                        self.dtype = _dtypes.as_dtype(first.dtype)
                    self.build(_shape(first))
                    self.built = True
                outputs = self.call(inputs, *args, **kwargs)
                if self._activity_regularizer is not None:
                    self._add_activity_loss(outputs)
        return outputs

    def apply(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """``self(inputs, *args, **kwargs)``, as ``tf.compat.v1.layers.Layer.apply``."""
        return self(inputs, *args, **kwargs)

    def _add_activity_loss(self, outputs: Any) -> None:
        graph = get_default_graph()
        for out in outputs if isinstance(outputs, list | tuple) else [outputs]:
            with graph.name_scope("ActivityRegularizer"):
                loss = self._activity_regularizer(out)  # type: ignore[misc]
                if loss is None:
                    continue
                batch = _shape(out)[0] if _shape(out).ndims else None
                if batch is not None:
                    n: Any = float(batch)
                else:
                    n = _math_ops.cast(_array_ops.shape(out)[0], loss.dtype)
                loss = _math_ops.truediv(loss, n)
            graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)


# -- dense ------------------------------------------------------------------------------


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``, as ``tf.compat.v1.layers.Dense``.

    Variables: ``kernel [in_features, units]`` and ``bias [units]``. Inputs
    of rank > 2 are multiplied on their last dimension.

    Raises (when called):
      ValueError: the last dimension of the inputs is unknown.
    """

    def __init__(
        self,
        units: int,
        activation: Any = None,
        use_bias: bool = True,
        kernel_initializer: Any = None,
        bias_initializer: Any = init_ops.zeros_initializer(),
        kernel_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        kernel_constraint: Any = None,
        bias_constraint: Any = None,
        trainable: bool = True,
        name: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units)
        self.activation = _activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.kernel: Any = None
        self.bias: Any = None

    def build(self, input_shape: TensorShape) -> None:
        input_shape = TensorShape(input_shape)
        if input_shape.ndims is None or input_shape[-1] is None:
            raise ValueError("The last dimension of the inputs to `Dense` should be defined. Found `None`.")
        self.kernel = self.add_weight(
            "kernel", [input_shape[-1], self.units], initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
        )
        if self.use_bias:
            self.bias = self.add_weight(
                "bias", [self.units], initializer=self.bias_initializer,
                regularizer=self.bias_regularizer, constraint=self.bias_constraint,
            )
        self.built = True

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        """``input_shape`` with its last dimension ``units``, as ``tf.layers.Dense.compute_output_shape``.

        Raises:
          ValueError: the last dimension of ``input_shape`` is unknown.
        """
        input_shape = TensorShape(input_shape)
        if input_shape.ndims is None or input_shape[-1] is None:
            raise ValueError(f"The innermost dimension of input_shape must be defined, but saw: {input_shape}")
        return input_shape[:-1].concatenate([self.units])

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        if _shape(x).ndims is not None and _shape(x).ndims < 2:  # type: ignore[operator]
            raise ValueError(f"Input 0 of layer {self.name} must have rank >= 2, got shape {_shape(x)}.")
        out = _math_ops.matmul(x, self.kernel)
        if self.use_bias:
            out = _nn_ops.bias_add(out, self.bias)
        if self.activation is not None:
            out = self.activation(out)
        return out


def dense(
    inputs: Any,
    units: int,
    activation: Any = None,
    use_bias: bool = True,
    kernel_initializer: Any = None,
    bias_initializer: Any = init_ops.zeros_initializer(),
    kernel_regularizer: Any = None,
    bias_regularizer: Any = None,
    activity_regularizer: Any = None,
    kernel_constraint: Any = None,
    bias_constraint: Any = None,
    trainable: bool = True,
    name: str | None = None,
    reuse: Any = None,
) -> Any:
    """A densely connected layer, as ``tf.compat.v1.layers.dense``.

    Args:
      inputs: ``[..., in_features]`` floats (``in_features`` known).
      units: the output size.
      activation: a function (``tf.nn.relu``) or None (linear).
      kernel_initializer: default: the scope's initializer, else glorot uniform.
      bias_initializer: default zeros.
      kernel_regularizer, bias_regularizer: ``fn(variable) -> loss``, added to
        ``GraphKeys.REGULARIZATION_LOSSES``.
      name: the scope name (default ``dense``, ``dense_1``, …).
      reuse: reuse the variables of an earlier layer of the same name.

    Returns:
      ``[..., units]``, the inputs' dtype.

    Raises:
      ValueError: the last input dimension is unknown; the variables exist
        already (same ``name`` without ``reuse``) or not (``reuse=True``).
    """
    layer = Dense(
        units, activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
        bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
        bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
        kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, trainable=trainable,
        name=name, _scope=name, _reuse=reuse,
    )
    return layer.apply(inputs)


# -- convolution ------------------------------------------------------------------------


class Conv2D(Layer):
    """2-D convolution with a ``kernel [kh, kw, in_channels, filters]`` and a
    ``bias [filters]``, as ``tf.compat.v1.layers.Conv2D``.

    Raises (when called):
      ValueError: the channel dimension of the inputs is unknown.
    """

    def __init__(
        self,
        filters: int,
        kernel_size: Any,
        strides: Any = (1, 1),
        padding: str = "valid",
        data_format: str = "channels_last",
        dilation_rate: Any = (1, 1),
        activation: Any = None,
        use_bias: bool = True,
        kernel_initializer: Any = None,
        bias_initializer: Any = init_ops.zeros_initializer(),
        kernel_regularizer: Any = None,
        bias_regularizer: Any = None,
        activity_regularizer: Any = None,
        kernel_constraint: Any = None,
        bias_constraint: Any = None,
        trainable: bool = True,
        name: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.filters = int(filters)
        self.kernel_size = _normalize_tuple(kernel_size, 2, "kernel_size")
        self.strides = _normalize_tuple(strides, 2, "strides")
        self.padding = _normalize_padding(padding)
        self.data_format = _normalize_data_format(data_format)
        self.dilation_rate = _normalize_tuple(dilation_rate, 2, "dilation_rate")
        self.activation = _activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.kernel: Any = None
        self.bias: Any = None

    def _channel_axis(self) -> int:
        return 1 if self.data_format == "channels_first" else -1

    #: Spatial dimensions of the inputs (``[N, *spatial, C]``).
    _rank = 2

    def _kernel_shape(self, channels: int) -> list[int]:
        return [*self.kernel_size, channels, self.filters]

    def build(self, input_shape: TensorShape) -> None:
        input_shape = TensorShape(input_shape)
        ndim = self._rank + 2
        if input_shape.ndims != ndim:
            raise ValueError(
                f"Input 0 of layer {self.name} is incompatible: expected ndim={ndim}, found shape {input_shape}"
            )
        channels = input_shape[self._channel_axis()]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        self.kernel = self.add_weight(
            "kernel", self._kernel_shape(channels), initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
        )
        if self.use_bias:
            self.bias = self.add_weight(
                "bias", [self.filters], initializer=self.bias_initializer,
                regularizer=self.bias_regularizer, constraint=self.bias_constraint,
            )
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        fmt = "NCHW" if self.data_format == "channels_first" else "NHWC"
        out = _nn_ops.conv2d(
            inputs, self.kernel, strides=list(self.strides), padding=self.padding.upper(),
            data_format=fmt, dilations=list(self.dilation_rate),
        )
        if self.use_bias:
            out = _nn_ops.bias_add(out, self.bias, data_format=fmt)
        if self.activation is not None:
            out = self.activation(out)
        return out


def conv2d(
    inputs: Any,
    filters: int,
    kernel_size: Any,
    strides: Any = (1, 1),
    padding: str = "valid",
    data_format: str = "channels_last",
    dilation_rate: Any = (1, 1),
    activation: Any = None,
    use_bias: bool = True,
    kernel_initializer: Any = None,
    bias_initializer: Any = init_ops.zeros_initializer(),
    kernel_regularizer: Any = None,
    bias_regularizer: Any = None,
    activity_regularizer: Any = None,
    kernel_constraint: Any = None,
    bias_constraint: Any = None,
    trainable: bool = True,
    name: str | None = None,
    reuse: Any = None,
) -> Any:
    """A 2-D convolution layer, as ``tf.compat.v1.layers.conv2d``.

    Args:
      inputs: ``[N, H, W, C]`` (``channels_last``) or ``[N, C, H, W]``.
      filters: the number of output channels.
      kernel_size, strides, dilation_rate: an int or a pair.
      padding: ``'valid'`` or ``'same'`` (case-insensitive).
      name, reuse: as :func:`dense` (default name ``conv2d``).

    Returns:
      ``[N, H', W', filters]`` (or ``channels_first``).

    Raises:
      ValueError: bad ``kernel_size``/``strides``/``padding``/``data_format``,
        or an unknown channel dimension.
    """
    layer = Conv2D(
        filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
        dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
        kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
        kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
        activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
        bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name, _reuse=reuse,
    )
    return layer.apply(inputs)


# -- pooling ------------------------------------------------------------------------------


class _Pooling2D(Layer):
    _op = ""
    _rank = 2

    def __init__(self, pool_size: Any, strides: Any, padding: str = "valid",
                 data_format: str = "channels_last", name: str | None = None, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self.pool_size = _normalize_tuple(pool_size, self._rank, "pool_size")
        self.strides = _normalize_tuple(self.pool_size if strides is None else strides, self._rank, "strides")
        self.padding = _normalize_padding(padding)
        self.data_format = _normalize_data_format(data_format)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        fmt = "NCHW" if self.data_format == "channels_first" else "NHWC"
        fn = _nn_ops.max_pool if self._op == "max" else _nn_ops.avg_pool
        if self._rank == 1:  # as TF: pooled as [N, L, 1, C] (a unit width), then squeezed
            axis = 2 if self.data_format == "channels_last" else 3
            x = _array_ops.expand_dims(inputs, axis)
            out = fn(x, ksize=[self.pool_size[0], 1], strides=[self.strides[0], 1],
                     padding=self.padding.upper(), data_format=fmt)
            return _array_ops.squeeze(out, [axis])
        return fn(inputs, ksize=list(self.pool_size), strides=list(self.strides),
                  padding=self.padding.upper(), data_format=fmt)


class MaxPooling2D(_Pooling2D):
    """Max pooling, as ``tf.compat.v1.layers.MaxPooling2D``."""

    _op = "max"


class AveragePooling2D(_Pooling2D):
    """Average pooling, as ``tf.compat.v1.layers.AveragePooling2D`` (with
    ``'same'`` padding, padded cells do not count in the mean)."""

    _op = "avg"


def max_pooling2d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                  data_format: str = "channels_last", name: str | None = None) -> Any:
    """Max pooling over ``pool_size`` windows, as ``tf.compat.v1.layers.max_pooling2d``.

    Args:
      inputs: ``[N, H, W, C]`` (or ``channels_first``).
      pool_size, strides: an int or a pair.
      padding: ``'valid'`` or ``'same'``.

    Returns:
      ``[N, H', W', C]``.
    """
    return MaxPooling2D(pool_size, strides, padding=padding, data_format=data_format, name=name).apply(inputs)


def average_pooling2d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                      data_format: str = "channels_last", name: str | None = None) -> Any:
    """Average pooling, as ``tf.compat.v1.layers.average_pooling2d`` (arguments as
    :func:`max_pooling2d`)."""
    return AveragePooling2D(pool_size, strides, padding=padding, data_format=data_format, name=name).apply(inputs)


class MaxPooling1D(_Pooling2D):
    """Max pooling over steps of ``[N, L, C]``, as ``tf.compat.v1.layers.MaxPooling1D``."""

    _op = "max"
    _rank = 1


class AveragePooling1D(_Pooling2D):
    """Average pooling over steps of ``[N, L, C]``, as ``tf.compat.v1.layers.AveragePooling1D``."""

    _op = "avg"
    _rank = 1


def max_pooling1d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                  data_format: str = "channels_last", name: str | None = None) -> Any:
    """Max pooling over ``pool_size`` steps, as ``tf.compat.v1.layers.max_pooling1d``.

    Args:
      inputs: ``[N, L, C]`` (or ``channels_first``: ``[N, C, L]``).
      pool_size, strides: an int.
      padding: ``'valid'`` or ``'same'``.

    Returns:
      ``[N, L', C]``.
    """
    return MaxPooling1D(pool_size, strides, padding=padding, data_format=data_format, name=name).apply(inputs)


def average_pooling1d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                      data_format: str = "channels_last", name: str | None = None) -> Any:
    """Average pooling over steps, as ``tf.compat.v1.layers.average_pooling1d`` (arguments as
    :func:`max_pooling1d`)."""
    return AveragePooling1D(pool_size, strides, padding=padding, data_format=data_format, name=name).apply(inputs)


# -- flatten -------------------------------------------------------------------------------


class Flatten(Layer):
    """``[N, d1, d2, …] -> [N, d1·d2·…]``, as ``tf.compat.v1.layers.Flatten``
    (``channels_first`` inputs are moved to channels-last first)."""

    def __init__(self, data_format: str | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self.data_format = _normalize_data_format(data_format)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        rank = _shape(x).ndims
        if rank is None:
            raise ValueError(f"flatten needs inputs of known rank, got {x}.")
        if self.data_format == "channels_first" and rank > 2:
            x = _array_ops.transpose(x, [0, *range(2, rank), 1])
        if rank == 1:
            return _array_ops.expand_dims(x, 1)
        rest = _shape(x).as_list()[1:]
        if all(d is not None for d in rest):
            return _array_ops.reshape(x, [-1, math.prod(d for d in rest if d is not None)])
        return _array_ops.reshape(x, [_array_ops.shape(x)[0], -1])


def flatten(inputs: Any, name: str | None = None, data_format: str = "channels_last") -> Any:
    """Flattens all but the first dimension, as ``tf.compat.v1.layers.flatten``.

    Returns:
      ``[N, prod(other dims)]``.
    """
    return Flatten(data_format=data_format, name=name).apply(inputs)


# -- dropout -------------------------------------------------------------------------------


class Dropout(Layer):
    """Dropout applied only when training, as ``tf.compat.v1.layers.Dropout``.

    Args:
      rate: the fraction of elements dropped (kept ones are scaled by
        ``1 / (1 - rate)``).
      noise_shape: a shape broadcastable to the inputs' (``None`` entries are
        taken from the inputs' static shape).
      seed: the op seed.
    """

    def __init__(self, rate: float = 0.5, noise_shape: Any = None, seed: int | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def _noise_shape(self, x: Any) -> Any:
        if self.noise_shape is None:
            return None
        dims = list(self.noise_shape)
        xs = _shape(x)
        shape = xs.as_list() if xs.ndims is not None else [None] * len(dims)
        out = []
        for i, d in enumerate(dims):
            if d is None:
                d = shape[i]
                if d is None:
                    raise ValueError(
                        f"Dropout: noise_shape {self.noise_shape} has None at dimension {i}, and the "
                        f"inputs' dimension {i} is not known when the graph is built ({xs})."
                    )
            out.append(int(d))
        return out

    def call(self, inputs: Any, training: Any = False, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        x = convert_to_tensor(inputs)

        def dropped() -> Any:
            return _random_ops.dropout(x, noise_shape=self._noise_shape(x), seed=self.seed, rate=self.rate)

        def kept() -> Any:
            return identity(x)

        static = training if isinstance(training, bool | np.bool_) else constant_value(training)
        if static is not None:
            return dropped() if bool(static) else kept()
        return _control_flow.cond(training, dropped, kept)


def dropout(inputs: Any, rate: float = 0.5, noise_shape: Any = None, seed: int | None = None,
            training: Any = False, name: str | None = None) -> Any:
    """Dropout when ``training``, the identity otherwise, as ``tf.compat.v1.layers.dropout``.

    Args:
      inputs: a floating tensor.
      rate: the fraction dropped, in ``[0, 1)``.
      noise_shape: optional shape broadcastable to the inputs'.
      seed: the op seed.
      training: a Python bool, or a scalar bool tensor (a placeholder: the
        choice is made at run time with ``cond``).

    Returns:
      A tensor like ``inputs``.
    """
    return Dropout(rate, noise_shape=noise_shape, seed=seed, name=name).apply(inputs, training=training)


# -- convolutions beyond conv2d ----------------------------------------------------------


def _conv_output_length(n: int | None, k: int, padding: str, stride: int, dilation: int = 1) -> int | None:
    if n is None:
        return None
    k = k + (k - 1) * (dilation - 1)
    if padding == "same":
        out = n
    else:
        out = n - k + 1
    return (out + stride - 1) // stride


def _deconv_output_length(n: int | None, k: int, padding: str, stride: int) -> int | None:
    if n is None:
        return None
    return n * stride if padding == "same" else n * stride + max(k - stride, 0)


class Conv1D(Conv2D):
    """1-D convolution with a ``kernel [k, in_channels, filters]`` and a
    ``bias [filters]``, as ``tf.compat.v1.layers.Conv1D`` (inputs ``[N, W, C]``)."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = 1, **kwargs: Any) -> None:
        super().__init__(filters, 1, padding=padding, data_format=data_format, **kwargs)
        self.kernel_size = _normalize_tuple(kernel_size, 1, "kernel_size")
        self.strides = _normalize_tuple(strides, 1, "strides")
        self.dilation_rate = _normalize_tuple(dilation_rate, 1, "dilation_rate")

    _rank = 1

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        fmt = "NCW" if self.data_format == "channels_first" else "NWC"
        out = _conv_ops.conv1d(inputs, self.kernel, stride=self.strides[0], padding=self.padding.upper(),
                               data_format=fmt, dilations=self.dilation_rate[0])
        if self.use_bias:
            out = _nn_ops.bias_add(out, self.bias, data_format="NCHW" if fmt == "NCW" else "NHWC")
        if self.activation is not None:
            out = self.activation(out)
        return out


def conv1d(inputs: Any, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
           data_format: str = "channels_last", dilation_rate: Any = 1, activation: Any = None,
           use_bias: bool = True, kernel_initializer: Any = None,
           bias_initializer: Any = init_ops.zeros_initializer(), kernel_regularizer: Any = None,
           bias_regularizer: Any = None, activity_regularizer: Any = None, kernel_constraint: Any = None,
           bias_constraint: Any = None, trainable: bool = True, name: str | None = None, reuse: Any = None) -> Any:
    """A 1-D convolution layer, as ``tf.compat.v1.layers.conv1d``.

    Args:
      inputs: ``[N, W, C]`` (``channels_last``) or ``[N, C, W]``.
      filters, kernel_size, strides, padding, dilation_rate: as :func:`conv2d`
        with ints.

    Returns:
      ``[N, W', filters]`` (or ``channels_first``).
    """
    layer = Conv1D(
        filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
        dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
        kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
        kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
        activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
        bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name, _reuse=reuse,
    )
    return layer.apply(inputs)


class Conv2DTranspose(Conv2D):
    """The transpose of a 2-D convolution with a ``kernel [kh, kw, filters,
    in_channels]`` and a ``bias [filters]``, as ``tf.compat.v1.layers.Conv2DTranspose``.

    Output size per spatial dimension: ``n * stride`` (``'same'``) or
    ``n * stride + max(k - stride, 0)`` (``'valid'``), as TF.
    """

    def _kernel_shape(self, channels: int) -> list[int]:
        return [*self.kernel_size, self.filters, channels]

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        shape = _shape(x).as_list()
        first = self.data_format == "channels_first"
        h, w = (shape[2], shape[3]) if first else (shape[1], shape[2])
        oh = _deconv_output_length(h, self.kernel_size[0], self.padding, self.strides[0])
        ow = _deconv_output_length(w, self.kernel_size[1], self.padding, self.strides[1])
        if oh is None or ow is None:
            raise ValueError(f"{self.name}: the spatial dimensions of the inputs must be known, got {_shape(x)}.")
        batch: Any = shape[0] if shape[0] is not None else _array_ops.shape(x)[0]
        out_shape = [batch, self.filters, oh, ow] if first else [batch, oh, ow, self.filters]
        fmt = "NCHW" if first else "NHWC"
        out = _conv_ops.conv2d_transpose(x, self.kernel, out_shape, strides=list(self.strides),
                                         padding=self.padding.upper(), data_format=fmt)
        if self.use_bias:
            out = _nn_ops.bias_add(out, self.bias, data_format=fmt)
        if self.activation is not None:
            out = self.activation(out)
        return out


def conv2d_transpose(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                     data_format: str = "channels_last", activation: Any = None, use_bias: bool = True,
                     kernel_initializer: Any = None, bias_initializer: Any = init_ops.zeros_initializer(),
                     kernel_regularizer: Any = None, bias_regularizer: Any = None,
                     activity_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
                     trainable: bool = True, name: str | None = None, reuse: Any = None) -> Any:
    """A transposed 2-D convolution ("deconvolution") layer, as
    ``tf.compat.v1.layers.conv2d_transpose``.

    Args:
      inputs: ``[N, H, W, C]`` with ``H``, ``W``, ``C`` known (or ``channels_first``).
      filters: output channels; kernel_size, strides: an int or a pair.

    Returns:
      ``[N, H * sh, W * sw, filters]`` for ``'same'`` padding.

    Raises:
      ValueError: unknown spatial or channel dimensions.
    """
    layer = Conv2DTranspose(
        filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
        activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
        bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
        bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
        kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, trainable=trainable,
        name=name, _scope=name, _reuse=reuse,
    )
    return layer.apply(inputs)


class SeparableConv2D(Conv2D):
    """A depthwise then pointwise 2-D convolution, as ``tf.compat.v1.layers.SeparableConv2D``.

    Variables: ``depthwise_kernel [kh, kw, in_channels, depth_multiplier]``,
    ``pointwise_kernel [1, 1, in_channels * depth_multiplier, filters]``,
    ``bias [filters]``.
    """

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = (1, 1), depth_multiplier: int = 1,
                 depthwise_initializer: Any = None, pointwise_initializer: Any = None,
                 depthwise_regularizer: Any = None, pointwise_regularizer: Any = None,
                 depthwise_constraint: Any = None, pointwise_constraint: Any = None, **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, **kwargs)
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer = depthwise_initializer
        self.pointwise_initializer = pointwise_initializer
        self.depthwise_regularizer = depthwise_regularizer
        self.pointwise_regularizer = pointwise_regularizer
        self.depthwise_constraint = depthwise_constraint
        self.pointwise_constraint = pointwise_constraint
        self.depthwise_kernel: Any = None
        self.pointwise_kernel: Any = None

    def build(self, input_shape: TensorShape) -> None:
        input_shape = TensorShape(input_shape)
        if input_shape.ndims != 4:
            raise ValueError(f"Input 0 of layer {self.name} is incompatible: expected ndim=4, found shape {input_shape}")
        channels = input_shape[self._channel_axis()]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", [*self.kernel_size, channels, self.depth_multiplier],
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint,
        )
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", [1, 1, channels * self.depth_multiplier, self.filters],
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint,
        )
        if self.use_bias:
            self.bias = self.add_weight(
                "bias", [self.filters], initializer=self.bias_initializer,
                regularizer=self.bias_regularizer, constraint=self.bias_constraint,
            )
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        fmt = "NCHW" if self.data_format == "channels_first" else "NHWC"
        s = [1, *self.strides, 1] if fmt == "NHWC" else [1, 1, *self.strides]
        out = _conv_ops.separable_conv2d(inputs, self.depthwise_kernel, self.pointwise_kernel, s,
                                         self.padding.upper(), rate=list(self.dilation_rate), data_format=fmt)
        if self.use_bias:
            out = _nn_ops.bias_add(out, self.bias, data_format=fmt)
        if self.activation is not None:
            out = self.activation(out)
        return out


def separable_conv2d(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                     data_format: str = "channels_last", dilation_rate: Any = (1, 1), depth_multiplier: int = 1,
                     activation: Any = None, use_bias: bool = True, depthwise_initializer: Any = None,
                     pointwise_initializer: Any = None, bias_initializer: Any = init_ops.zeros_initializer(),
                     depthwise_regularizer: Any = None, pointwise_regularizer: Any = None,
                     bias_regularizer: Any = None, activity_regularizer: Any = None,
                     depthwise_constraint: Any = None, pointwise_constraint: Any = None,
                     bias_constraint: Any = None, trainable: bool = True, name: str | None = None,
                     reuse: Any = None) -> Any:
    """A depthwise-separable 2-D convolution layer, as ``tf.compat.v1.layers.separable_conv2d``.

    Returns:
      ``[N, H', W', filters]`` (or ``channels_first``).
    """
    layer = SeparableConv2D(
        filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
        dilation_rate=dilation_rate, depth_multiplier=depth_multiplier, activation=activation,
        use_bias=use_bias, depthwise_initializer=depthwise_initializer,
        pointwise_initializer=pointwise_initializer, bias_initializer=bias_initializer,
        depthwise_regularizer=depthwise_regularizer, pointwise_regularizer=pointwise_regularizer,
        bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
        depthwise_constraint=depthwise_constraint, pointwise_constraint=pointwise_constraint,
        bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name, _reuse=reuse,
    )
    return layer.apply(inputs)


# -- batch normalization ------------------------------------------------------------------


class BatchNormalization(Layer):
    """Batch normalization, as ``tf.compat.v1.layers.BatchNormalization``.

    Variables (shape ``[channels]``): ``gamma`` (if ``scale``), ``beta`` (if
    ``center``), and the non-trainable ``moving_mean`` and
    ``moving_variance``. In training, the batch's mean and (biased) variance
    over every axis but ``axis`` normalize the inputs, and two ops in
    ``GraphKeys.UPDATE_OPS`` move the moving statistics:
    ``moving -= (moving - batch) * (1 - momentum)``; for 4-D inputs (TF's
    fused kernel, ``fused`` not False) the variance moved towards is the
    unbiased one (``n / (n - 1)``), as TF. In inference the moving
    statistics normalize. ``training`` may be a scalar bool tensor: both are
    then computed and the update's step is ``0`` when it is false, as TF.
    """

    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer: Any = init_ops.zeros_initializer(),
                 gamma_initializer: Any = init_ops.ones_initializer(),
                 moving_mean_initializer: Any = init_ops.zeros_initializer(),
                 moving_variance_initializer: Any = init_ops.ones_initializer(),
                 beta_regularizer: Any = None, gamma_regularizer: Any = None, beta_constraint: Any = None,
                 gamma_constraint: Any = None, renorm: bool = False, renorm_clipping: Any = None,
                 renorm_momentum: float = 0.99, fused: Any = None, trainable: bool = True,
                 virtual_batch_size: Any = None, adjustment: Any = None, name: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(trainable=trainable, name=name, **kwargs)
        if renorm or virtual_batch_size is not None or adjustment is not None:
            raise NotImplementedError("BatchNormalization: renorm, virtual_batch_size and adjustment are not supported.")
        self.axis = axis
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center = center
        self.scale = scale
        self.beta_initializer = beta_initializer
        self.gamma_initializer = gamma_initializer
        self.moving_mean_initializer = moving_mean_initializer
        self.moving_variance_initializer = moving_variance_initializer
        self.beta_regularizer = beta_regularizer
        self.gamma_regularizer = gamma_regularizer
        self.beta_constraint = beta_constraint
        self.gamma_constraint = gamma_constraint
        self.fused = fused
        self.gamma: Any = None
        self.beta: Any = None
        self.moving_mean: Any = None
        self.moving_variance: Any = None
        self._rank: int = 0

    def build(self, input_shape: TensorShape) -> None:
        input_shape = TensorShape(input_shape)
        if input_shape.ndims is None:
            raise ValueError(f"Input has undefined rank: {input_shape}")
        self._rank = input_shape.ndims
        axis = self.axis if self.axis >= 0 else self.axis + self._rank
        if not 0 <= axis < self._rank:
            raise ValueError(f"Invalid axis: {self.axis} for inputs of rank {self._rank}")
        self.axis = axis
        dim = input_shape[axis]
        if dim is None:
            raise ValueError(f"Input has undefined `axis` dimension. Input shape: {input_shape}")
        param = [dim]
        if self.scale:
            self.gamma = self.add_weight("gamma", param, initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer, constraint=self.gamma_constraint)
        if self.center:
            self.beta = self.add_weight("beta", param, initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer, constraint=self.beta_constraint)
        self.moving_mean = self.add_weight("moving_mean", param, initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight("moving_variance", param,
                                               initializer=self.moving_variance_initializer, trainable=False)
        self.built = True

    def _broadcast(self, v: Any) -> Any:
        if v is None or self.axis == self._rank - 1:
            return v
        shape = [1] * self._rank
        shape[self.axis] = -1
        return _array_ops.reshape(v, shape)

    def call(self, inputs: Any, training: Any = False, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        x = convert_to_tensor(inputs)
        static = training if isinstance(training, bool | np.bool_) else constant_value(training)
        b = self._broadcast
        if static is not None and not bool(static):
            return _normalization.batch_normalization(x, b(self.moving_mean), b(self.moving_variance),
                                                      b(self.beta), b(self.gamma), self.epsilon)
        axes = [i for i in range(self._rank) if i != self.axis]
        mean, variance = _nn_ops.moments(x, axes)
        if static is not None:
            decay: Any = 1.0 - self.momentum
        else:
            flag = _math_ops.cast(training, x.dtype)
            mean = _control_flow.cond(training, lambda: mean, lambda: self.moving_mean.value())
            variance = _control_flow.cond(training, lambda: variance, lambda: self.moving_variance.value())
            decay = _math_ops.multiply(flag, 1.0 - self.momentum)
        out = _normalization.batch_normalization(x, b(mean), b(variance), b(self.beta), b(self.gamma), self.epsilon)
        moving_variance = variance
        if self._rank == 4 and self.axis in (1, 3) and self.fused is not False:
            # TF's fused kernel hands the moving average the unbiased batch variance.
            n = 1
            for a in axes:
                d = _shape(x)[a]
                if d is None:
                    n = 0
                    break
                n *= int(d)
            if n > 1:
                moving_variance = _math_ops.multiply(variance, n / (n - 1))
            elif n == 0:
                count = _math_ops.cast(_math_ops.reduce_prod(_array_ops.gather(_array_ops.shape(x), axes)), x.dtype)
                moving_variance = _math_ops.multiply(
                    variance, _math_ops.truediv(count, _math_ops.maximum(_math_ops.subtract(count, 1.0), 1.0)))
        graph = get_default_graph()
        for var, value, scope in ((self.moving_mean, mean, "AssignMovingAvg"),
                                  (self.moving_variance, moving_variance, "AssignMovingAvg_1")):
            with graph.name_scope(scope):
                delta = _math_ops.multiply(_math_ops.subtract(var.value(), value), decay)
                update = var.assign_sub(delta)
            graph.add_to_collection(GraphKeys.UPDATE_OPS, update.op if hasattr(update, "op") else update)
        return out


def batch_normalization(inputs: Any, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3,
                        center: bool = True, scale: bool = True, beta_initializer: Any = init_ops.zeros_initializer(),
                        gamma_initializer: Any = init_ops.ones_initializer(),
                        moving_mean_initializer: Any = init_ops.zeros_initializer(),
                        moving_variance_initializer: Any = init_ops.ones_initializer(),
                        beta_regularizer: Any = None, gamma_regularizer: Any = None, beta_constraint: Any = None,
                        gamma_constraint: Any = None, training: Any = False, trainable: bool = True,
                        name: str | None = None, reuse: Any = None, renorm: bool = False,
                        renorm_clipping: Any = None, renorm_momentum: float = 0.99, fused: Any = None,
                        virtual_batch_size: Any = None, adjustment: Any = None) -> Any:
    """Batch normalization, as ``tf.compat.v1.layers.batch_normalization``
    (see :class:`BatchNormalization`).

    Run the ops in ``tf.get_collection(tf.GraphKeys.UPDATE_OPS)`` with the
    train step (``tf.control_dependencies``) to update the moving statistics.

    Args:
      inputs: a tensor of known rank whose ``axis`` dimension is known.
      axis: the feature axis (``-1``; ``1`` for ``channels_first``).
      momentum, epsilon: the moving average's momentum (0.99) and the
        variance epsilon (0.001), as TF.
      training: a Python bool, or a scalar bool tensor (e.g. a placeholder).
      name, reuse: as :func:`dense` (default name ``batch_normalization``).

    Returns:
      A tensor like ``inputs``.

    Raises:
      ValueError: unknown rank or ``axis`` dimension.
      NotImplementedError: ``renorm``, ``virtual_batch_size``, ``adjustment``.
    """
    layer = BatchNormalization(
        axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
        beta_initializer=beta_initializer, gamma_initializer=gamma_initializer,
        moving_mean_initializer=moving_mean_initializer, moving_variance_initializer=moving_variance_initializer,
        beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer, beta_constraint=beta_constraint,
        gamma_constraint=gamma_constraint, renorm=renorm, renorm_clipping=renorm_clipping,
        renorm_momentum=renorm_momentum, fused=fused, trainable=trainable, virtual_batch_size=virtual_batch_size,
        adjustment=adjustment, name=name, _scope=name, _reuse=reuse,
    )
    return layer.apply(inputs, training=training)


# -- 3-D convolution and pooling ---------------------------------------------------------


class Conv3D(Conv2D):
    """3-D convolution with a ``kernel [kd, kh, kw, in_channels, filters]`` and a ``bias
    [filters]``, as ``tf.compat.v1.layers.Conv3D`` (inputs ``[N, D, H, W, C]``)."""

    _rank = 3

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = (1, 1, 1), **kwargs: Any) -> None:
        super().__init__(filters, 1, padding=padding, data_format=data_format, **kwargs)
        self.kernel_size = _normalize_tuple(kernel_size, 3, "kernel_size")
        self.strides = _normalize_tuple(strides, 3, "strides")
        self.dilation_rate = _normalize_tuple(dilation_rate, 3, "dilation_rate")

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        fmt = "NCDHW" if self.data_format == "channels_first" else "NDHWC"
        out = _conv3d_ops.conv3d(inputs, self.kernel, strides=list(self.strides), padding=self.padding.upper(),
                                 data_format=fmt, dilations=list(self.dilation_rate))
        if self.use_bias:
            out = _nn_ops.bias_add(out, self.bias, data_format="NCHW" if fmt == "NCDHW" else "NHWC")
        if self.activation is not None:
            out = self.activation(out)
        return out


def conv3d(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
           data_format: str = "channels_last", dilation_rate: Any = (1, 1, 1), activation: Any = None,
           use_bias: bool = True, kernel_initializer: Any = None,
           bias_initializer: Any = init_ops.zeros_initializer(), kernel_regularizer: Any = None,
           bias_regularizer: Any = None, activity_regularizer: Any = None, kernel_constraint: Any = None,
           bias_constraint: Any = None, trainable: bool = True, name: str | None = None, reuse: Any = None) -> Any:
    """A 3-D convolution layer, as ``tf.compat.v1.layers.conv3d``.

    Args:
      inputs: ``[N, D, H, W, C]`` (``channels_last``) or ``[N, C, D, H, W]``.
      filters, kernel_size, strides, padding, dilation_rate: as :func:`conv2d`
        with triples.

    Returns:
      ``[N, D', H', W', filters]`` (or ``channels_first``).
    """
    layer = Conv3D(
        filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
        dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
        kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
        kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
        activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
        bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name, _reuse=reuse,
    )
    return layer.apply(inputs)


class _Pooling3D(_Pooling2D):
    _rank = 3

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        fmt = "NCDHW" if self.data_format == "channels_first" else "NDHWC"
        fn = _conv3d_ops.max_pool3d if self._op == "max" else _conv3d_ops.avg_pool3d
        return fn(inputs, list(self.pool_size), list(self.strides), self.padding.upper(), data_format=fmt)


class MaxPooling3D(_Pooling3D):
    """Max pooling of ``[N, D, H, W, C]``, as ``tf.compat.v1.layers.MaxPooling3D``."""

    _op = "max"


class AveragePooling3D(_Pooling3D):
    """Average pooling of ``[N, D, H, W, C]``, as ``tf.compat.v1.layers.AveragePooling3D``."""

    _op = "avg"


def max_pooling3d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                  data_format: str = "channels_last", name: str | None = None) -> Any:
    """Max pooling over ``pool_size`` (an int or a triple) windows, as ``tf.compat.v1.layers.max_pooling3d``."""
    return MaxPooling3D(pool_size, strides, padding=padding, data_format=data_format, name=name).apply(inputs)


def average_pooling3d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                      data_format: str = "channels_last", name: str | None = None) -> Any:
    """Average pooling, as ``tf.compat.v1.layers.average_pooling3d`` (arguments as :func:`max_pooling3d`)."""
    return AveragePooling3D(pool_size, strides, padding=padding, data_format=data_format, name=name).apply(inputs)
