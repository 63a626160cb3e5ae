"""The Keras 2 base :class:`Layer` and the core layers (``InputLayer``/``Input``,
``Dense``, ``Activation``, ``Embedding``, ``Lambda``, ``Masking``) in TF1 graph
mode, as ``tf.compat.v1.keras.layers``; the other layers live in the modules
named as tf_keras' (``_layers_convolutional``, ``_layers_pooling``,
``_layers_merging``, ``_layers_activation``, ``_layers_normalization``,
``_layers_reshaping``, ``_layers_regularization``) and in :mod:`jaxsess._tf1.keras.recurrent`.

A Keras layer differs from a ``tf.compat.v1.layers`` one in its naming and
bookkeeping, not its math, so each Keras class that has a ``tf.layers`` twin is the
:mod:`jaxsess._tf1.layers` class with the Keras base :class:`Layer` in front:

- its name is given at construction, unique per graph (``dense``,
  ``dense_1``, ...), independent of variable scopes;
- calling it opens the name scope ``<name>`` (under the current one) and
  creates its variables there with plain :class:`Variable` (``dense/kernel:0``,
  in ``GLOBAL_VARIABLES``/``TRAINABLE_VARIABLES``); variable scopes and
  ``reuse`` play no part;
- regularizer losses go to ``layer.losses`` and batch-norm updates to
  ``layer.updates`` (not to the graph collections), as TF's Keras;
- ``Dropout`` and ``BatchNormalization`` called without ``training`` follow
  :func:`~jaxsess._tf1.keras.backend.learning_phase`;
- each call records a node (inputs, outputs), so that :class:`~jaxsess.keras.Model`
  can find the layers between its inputs and outputs.
"""

from __future__ import annotations

import inspect
import math
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor, identity
from jaxsess._core.graph._graph import GraphKeys, Tensor, get_default_graph
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1 import layers as _tf_layers
from jaxsess._tf1.keras import (
    _custom_objects as _custom_objects,
    _serialization as _serialization,
    activations as activations,
    backend as K,
    constraints as constraints,
    initializers as initializers,
    regularizers as regularizers,
)
from jaxsess._tf1.ops import math_ops as _math, nn_ops as _nn
from jaxsess._tf1.ops.init_ops import FreshSeeds
from jaxsess._tf1.ops.state_ops import Variable

__all__ = [
    "Layer", "InputLayer", "Input", "Dense", "Activation", "Embedding", "Lambda", "Masking",
]


class Node:
    """One call of a layer: its input and output tensors."""

    def __init__(self, layer: Layer, inputs: list[Any], outputs: list[Any]) -> None:
        self.layer = layer
        self.input_tensors = inputs
        self.output_tensors = outputs


def _flat(x: Any) -> list[Any]:
    return list(x) if isinstance(x, list | tuple) else [x]


def keras_history(t: Any) -> Node | None:
    """The node that made the tensor ``t``, or None (not made by a Keras layer)."""
    if not isinstance(t, Tensor):
        return None
    return K._state(t.graph).history.get(t)  # type: ignore[no-any-return]


def input_mask(inputs: Any) -> Any:
    """The Keras mask of ``inputs`` (a tensor or a list: then a list of masks), or None when none has one."""
    masks = K._state().masks
    found = [masks.get(t) if isinstance(t, Tensor) else None for t in _flat(inputs)]
    if all(m is None for m in found):
        return None
    return found if isinstance(inputs, list | tuple) else found[0]


#: Keys of configs written by TF's Keras that jaxsess' layers do not take (dropped when None/False).
_CONFIG_ONLY_KEYS = ("activity_regularizer", "ragged", "sparse", "optional", "time_major", "unroll")


def _copy_passed_through(inputs: Any, outputs: Any) -> Any:
    """``outputs`` with each tensor that is also an input replaced by its ``identity``, as Keras does:
    the history maps a tensor to the one layer call that made it (a layer that returns its input,
    such as ``Dropout`` in the inference phase or ``Lambda(lambda x: x)``, must not take it over)."""
    given = {id(t) for t in _flat(inputs) if isinstance(t, Tensor)}
    if not any(isinstance(t, Tensor) and id(t) in given for t in _flat(outputs)):
        return outputs

    def copy(t: Any) -> Any:
        return identity(t) if isinstance(t, Tensor) and id(t) in given else t

    if isinstance(outputs, list | tuple):
        return type(outputs)(copy(t) for t in outputs)
    return copy(outputs)


def _default_name(class_name: str) -> str:
    """The snake-case class name, ``private``-prefixed when it starts with ``_`` (Keras' ``to_snake_case``)."""
    name = _tf_layers._to_snake_case(class_name)
    return name if not name.startswith("_") else "private" + name


class Layer(_tf_layers.Layer):
    """The base of Keras layers, as ``tf.compat.v1.keras.layers.Layer``.

    Subclasses implement ``build(input_shape)`` (creating variables with
    :meth:`add_weight`) and ``call(inputs)``.

    Args (besides the layer's own):
      name: the layer name (default: the snake-case class name made unique
        per graph: ``dense``, ``dense_1``).
      trainable, dtype: as ``tf.keras.layers.Layer``.
      input_shape / batch_input_shape / input_dim: the input shape without /
        with the batch dimension, used by ``Sequential`` to make its input.

    Attributes:
      weights, trainable_weights, non_trainable_weights (and ``*_variables``),
      losses, updates, input, output, input_shape, output_shape.
    """

    #: Whether ``call`` takes ``training`` (given the learning phase when not passed).
    _takes_training = False
    #: Whether ``call`` takes ``mask`` (given the inputs' Keras mask when not passed).
    _takes_mask = False
    #: Whether the layer passes its input mask on (when it does not compute its own), as Keras'.
    supports_masking = False

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        obj = super().__new__(cls)
        # The constructor's arguments: get_config of jaxsess' own layers (Keras' config is them).
        obj.__dict__["_init_arguments"] = (args, dict(kwargs))
        return obj

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        input_shape = kwargs.pop("input_shape", None)
        batch_input_shape = kwargs.pop("batch_input_shape", None)
        batch_size = kwargs.pop("batch_size", None)
        input_dim = kwargs.pop("input_dim", None)
        name = kwargs.pop("name", None)
        super().__init__(*args, **kwargs)
        self._name = name or K.unique_object_name(_default_name(type(self).__name__))
        self._name_given = True
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        if batch_input_shape is None and input_shape is not None:
            batch_input_shape = (batch_size, *tuple(input_shape))
        self._batch_input_shape = None if batch_input_shape is None else tuple(batch_input_shape)
        self._losses: list[Any] = []
        self._updates: list[Any] = []
        self._inbound_nodes: list[Node] = []

    # -- config --------------------------------------------------------------------------

    def get_config(self) -> dict[str, Any]:
        """The layer's config, as ``tf.keras.layers.Layer.get_config``: ``name``, ``trainable``,
        ``dtype`` (and ``batch_input_shape`` when given) and, for jaxsess' own layers, the
        constructor's arguments (activations by name, initializers and regularizers as
        ``{"class_name", "config"}``); JSON-compatible.

        Raises:
          NotImplementedError: a subclass whose ``__init__`` takes arguments and that does not
            override ``get_config``, as Keras.
        """
        config: dict[str, Any] = {"name": self.name, "trainable": bool(self.trainable)}
        if self._batch_input_shape is not None:
            config["batch_input_shape"] = list(self._batch_input_shape)
        config["dtype"] = _dtypes.as_dtype(self.dtype).name if self.dtype is not None else K.floatx()
        bases = (Layer.__init__, _tf_layers.Layer.__init__, object.__init__)  # their arguments are the common keys
        init = next((k.__dict__["__init__"] for k in type(self).__mro__
                     if "__init__" in k.__dict__ and k.__dict__["__init__"] not in bases), Layer.__init__)
        params = [p for p in inspect.signature(init).parameters.values()
                  if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        if not type(self).__module__.startswith("jaxsess."):
            if params and type(self).get_config is Layer.get_config:
                raise NotImplementedError(
                    f"Layer {type(self).__name__} has arguments {[p.name for p in params]} in `__init__` and "
                    "therefore must override `get_config()`.")
            return config
        args, kwargs = self.__dict__["_init_arguments"]
        signature = inspect.signature(init)
        bound = signature.bind_partial(self, *args, **kwargs)
        bound.apply_defaults()
        for key, value in bound.arguments.items():
            if key == "self" or signature.parameters[key].kind == inspect.Parameter.VAR_POSITIONAL:
                continue
            if signature.parameters[key].kind == inspect.Parameter.VAR_KEYWORD:
                extra = {k: v for k, v in value.items() if k not in ("name", "trainable", "dtype", "input_shape",
                                                                       "batch_input_shape", "input_dim",
                                                                       "batch_size")}
                config.update({k: _serialization.serialize_value(v, k) for k, v in extra.items()})
                continue
            if key in ("name", "trainable", "dtype"):
                continue
            config[key] = _serialization.serialize_value(value, key)
        return config

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Any:
        """A new layer from :meth:`get_config`'s output, as ``tf.keras.layers.Layer.from_config``."""
        kwargs = {k: _serialization.deserialize_value(v, k, custom_objects) for k, v in config.items()}
        for key in [*_CONFIG_ONLY_KEYS, *(k for k in kwargs if k.endswith("_constraint"))]:
            if kwargs.get(key) in (None, False):  # None constraints: the default of layers that take them
                kwargs.pop(key, None)
        return cls(**kwargs)

    # -- weights -------------------------------------------------------------------------

    def add_weight(  # type: ignore[override]
        self,
        name: str | None = None,
        shape: Any = None,
        dtype: Any = None,
        initializer: Any = None,
        regularizer: Any = None,
        trainable: bool | None = None,
        constraint: Any = None,
        **kwargs: Any,
    ) -> Variable:
        """Creates the variable ``<layer scope>/<name>`` (default initializer:
        glorot uniform for floats, zeros otherwise), as Keras' ``add_weight``.

        A regularizer's loss (``<name>/Regularizer/...``) is added to
        :attr:`losses`; ``constraint`` (a callable, a name such as ``'max_norm'`` or a
        config: :func:`jaxsess._tf1.keras.constraints.get`) becomes the variable's ``constraint``,
        applied by the optimizers after each update.

        Raises:
          ValueError: an unknown constraint name.
        """
        constraint = constraints.get(constraint)
        dtype = _dtypes.as_dtype(dtype or self.dtype or K.floatx())
        init = initializers.get(initializer)
        if init is None:
            init = initializers.GlorotUniform() if dtype.is_floating else initializers.Zeros()
        if initializer is None or isinstance(initializer, str):
            # TF 2.x draws Keras' initializers named by string (and the default) from fresh
            # random seeds: they leave the graph's op seeds to the seeded ops that follow
            init = FreshSeeds(init)
        trainable = self.trainable if trainable is None else (trainable and self.trainable)
        shape_l = [int(d) for d in TensorShape(shape).as_list()]  # type: ignore[union-attr, arg-type]
        v = Variable(
            initial_value=lambda: init(shape_l, dtype=dtype), trainable=trainable, name=name or "Variable",
            dtype=dtype, constraint=constraint, use_resource=True,  # TF: Keras weights are resource variables
        )
        K.track_variable(v)
        (self._trainable_weights if trainable else self._non_trainable_weights).append(v)
        regularizer = regularizers.get(regularizer)
        if regularizer is not None:
            with get_default_graph().name_scope(f"{name}/Regularizer"):
                self._losses.append(regularizer(v))
        return v

    def get_weights(self) -> list[np.ndarray]:
        """The weights' values (NumPy, in :attr:`weights` order) from the Keras session."""
        return K.batch_get_value(self.weights)

    def set_weights(self, weights: Sequence[Any]) -> None:
        """Assigns ``weights`` (NumPy, in :attr:`weights` order) in the Keras session.

        Raises:
          ValueError: wrong number of arrays or a shape that differs from its weight's.
        """
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(
                f"You called `set_weights(weights)` on layer {self.name!r} with a weight list of length "
                f"{len(weights)}, but the layer was expecting {len(params)} weights."
            )
        pairs = []
        for p, w in zip(params, weights, strict=True):
            w = np.asarray(w)
            if tuple(p.shape.as_list()) != w.shape:
                raise ValueError(f"Layer weight shape {tuple(p.shape.as_list())} not compatible with provided "
                                 f"weight shape {w.shape} (weight {p.name}).")
            pairs.append((p, w))
        K.batch_set_value(pairs)

    def count_params(self) -> int:
        return int(sum(math.prod(w.shape.as_list()) for w in self.weights))

    @property
    def losses(self) -> list[Any]:
        """The regularizer losses of this layer (scalar tensors)."""
        return list(self._losses)

    @property
    def updates(self) -> list[Any]:
        """The update ops (batch-norm moving averages) of this layer."""
        return list(self._updates)

    def add_loss(self, loss: Any) -> None:
        self._losses.append(loss)

    def add_update(self, update: Any) -> None:
        self._updates.append(update)

    # -- calling -----------------------------------------------------------------------------

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """Applies the layer in the name scope ``<name>``, building it on the first call."""
        graph = get_default_graph()
        if self._takes_training and kwargs.get("training") is None:
            phase = K.learning_phase()
            kwargs["training"] = bool(phase) if isinstance(phase, int) else phase
        updates = graph.get_collection_ref(GraphKeys.UPDATE_OPS)
        reg_losses = graph.get_collection_ref(GraphKeys.REGULARIZATION_LOSSES)
        n_updates, n_losses = len(updates), len(reg_losses)
        mask = kwargs.pop("mask", None)
        if mask is None:
            mask = input_mask(inputs)
        if self._takes_mask:
            kwargs["mask"] = mask
        with graph.name_scope(self.name):
            if not self.built:
                first = convert_to_tensor(_flat(inputs)[0])
                if self.dtype is None:
                    given = _dtypes.as_dtype(first.dtype)
                    self.dtype = given if given.is_floating else _dtypes.as_dtype(K.floatx())
                self.build(TensorShape(first.shape) if not isinstance(inputs, list | tuple)  # type: ignore[arg-type]
                           else [TensorShape(convert_to_tensor(x).shape) for x in inputs])
                self.built = True
            outputs = _copy_passed_through(inputs, self.call(inputs, *args, **kwargs))
            if self._activity_regularizer is not None:
                self._add_activity_loss(outputs)  # the batch mean of the regularizer of each output
            out_mask = self.compute_mask(inputs, mask)
        # The tf.layers code this reuses puts batch-norm updates in UPDATE_OPS and activity losses in
        # REGULARIZATION_LOSSES; Keras keeps both on the layer.
        self._updates.extend(updates[n_updates:])
        del updates[n_updates:]
        self._losses.extend(reg_losses[n_losses:])
        del reg_losses[n_losses:]
        self._add_node(_flat(inputs), _flat(outputs))
        masks = K._state().masks
        for t, m in zip(_flat(outputs), _flat(out_mask) if isinstance(out_mask, list | tuple)
                        else [out_mask] * len(_flat(outputs))):
            if isinstance(t, Tensor) and m is not None:
                masks[t] = m
        return outputs

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        """The mask of the outputs (a bool tensor ``[batch, time]``, a list of them, or None), as
        ``tf.keras.layers.Layer.compute_mask``: the input mask when :attr:`supports_masking`, else None."""
        return mask if self.supports_masking else None

    def _add_node(self, inputs: list[Any], outputs: list[Any]) -> None:
        node = Node(self, inputs, outputs)
        self._inbound_nodes.append(node)
        history = K._state().history
        for t in outputs:
            if isinstance(t, Tensor):
                history[t] = node

    def _node(self) -> Node:
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} is not connected, no input to return.")
        return self._inbound_nodes[0]

    @property
    def input(self) -> Any:
        """The input tensor(s) of the layer's first call."""
        ins = self._node().input_tensors
        return ins[0] if len(ins) == 1 else ins

    @property
    def output(self) -> Any:
        """The output tensor(s) of the layer's first call."""
        outs = self._node().output_tensors
        return outs[0] if len(outs) == 1 else outs

    @property
    def input_shape(self) -> Any:
        ins = [tuple(TensorShape(t.shape).as_list()) for t in self._node().input_tensors]
        return ins[0] if len(ins) == 1 else ins

    @property
    def output_shape(self) -> Any:
        outs = [tuple(TensorShape(t.shape).as_list()) for t in self._node().output_tensors]
        return outs[0] if len(outs) == 1 else outs


# -- input ----------------------------------------------------------------------------


class InputLayer(Layer):
    """The layer of a model input: a placeholder ``<name>:0`` of shape
    ``batch_input_shape`` (default name ``input_1``, ``input_2``, ...), as
    ``tf.compat.v1.keras.layers.InputLayer``."""

    def __init__(self, input_shape: Any = None, batch_size: int | None = None, dtype: Any = None,
                 input_tensor: Any = None, sparse: bool = False, name: str | None = None, **kwargs: Any) -> None:
        if sparse:
            raise NotImplementedError("keras.layers.InputLayer(sparse=True) is not supported.")
        if name is None:
            name = K.unique_object_name("input")
            name = "input_1" if name == "input" else f"input_{int(name.rsplit('_', 1)[1]) + 1}"
        super().__init__(name=name, dtype=dtype or K.floatx(), input_shape=input_shape, batch_size=batch_size,
                         **kwargs)
        if input_tensor is None:
            shape = self._batch_input_shape
            with get_default_graph().name_scope(None):
                input_tensor = K.placeholder(shape=shape, dtype=self.dtype, name=self.name)
        self.built = True
        self._add_node([], [input_tensor])

    def get_config(self) -> dict[str, Any]:
        """``batch_input_shape``, ``dtype``, ``sparse``, ``ragged``, ``name``, as Keras."""
        shape = TensorShape(self.output.shape)
        return {"batch_input_shape": shape.as_list() if shape.ndims is not None else None,
                "dtype": _dtypes.as_dtype(self.dtype).name,  # type: ignore[arg-type]  # None: NumPy's float64
                "sparse": False, "ragged": False, "name": self.name}


def Input(shape: Any = None, batch_size: int | None = None, name: str | None = None, dtype: Any = None,  # noqa: N802
          sparse: bool = False, tensor: Any = None, batch_shape: Any = None, **kwargs: Any) -> Any:
    """A model input: the placeholder of a new :class:`InputLayer`, as ``tf.keras.Input``.

    Args:
      shape: the shape without the batch dimension, e.g. ``(784,)``.
      batch_size: the fixed batch size (default unknown).
      batch_shape: the full shape instead of ``shape``/``batch_size``.
      name, dtype (default ``floatx()``), tensor: an existing tensor to use.

    Returns:
      A ``Tensor`` (a placeholder named ``input_1:0``...).
    """
    if batch_shape is not None:
        layer = InputLayer(batch_input_shape=tuple(batch_shape), name=name, dtype=dtype, input_tensor=tensor,
                           sparse=sparse, **kwargs)
    else:
        layer = InputLayer(input_shape=shape, batch_size=batch_size, name=name, dtype=dtype, input_tensor=tensor,
                           sparse=sparse, **kwargs)
    return layer.output


# -- the tf.layers classes under Keras' bookkeeping ----------------------------------------


class Dense(Layer, _tf_layers.Dense):
    """``activation(inputs @ kernel + bias)``, as ``tf.keras.layers.Dense``
    (variables ``<name>/kernel [in, units]``, ``<name>/bias [units]``)."""

    supports_masking = True

    def __init__(self, units: int, activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros", **kwargs: Any) -> None:
        super().__init__(units, activation=_activation(activation), use_bias=use_bias,
                         kernel_initializer=kernel_initializer, bias_initializer=bias_initializer, **kwargs)


def _activation(activation: Any) -> Any:
    fn = activations.get(activation)
    return None if fn is activations.linear else fn


# -- layers of their own -------------------------------------------------------------------


class Lambda(Layer):
    """``function(inputs, **arguments)`` as a layer, as ``tf.keras.layers.Lambda``."""

    def __init__(self, function: Any, output_shape: Any = None, mask: Any = None, arguments: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.function = function
        self.arguments = dict(arguments or {})

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return self.function(inputs, **self.arguments)

    def get_config(self) -> dict[str, Any]:
        """The function by name (``function_type='function'``, a module-level function) or as
        Keras' ``func_dump`` of its bytecode (``'lambda'``), as ``tf.keras.layers.Lambda``."""
        config = {k: v for k, v in super().get_config().items() if k in ("name", "trainable", "dtype")}
        fn: Any = self.function
        module = getattr(fn, "__module__", None)
        name = getattr(fn, "__name__", "<lambda>")
        if name != "<lambda>" and getattr(sys.modules.get(module or ""), name, None) is fn:
            config.update(function=name, function_type="function")
        else:
            config.update(function=list(_serialization.func_dump(fn)), function_type="lambda")
        config.update(module=module, output_shape=None, output_shape_type="raw", output_shape_module=None,
                      arguments=_serialization.serialize_value(self.arguments))
        return config

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Any:
        config = dict(config)
        custom = {**_custom_objects.active_custom_objects(), **(custom_objects or {})}
        globs = dict(sys.modules[config["module"]].__dict__) if config.get("module") in sys.modules else {}
        globs.update(custom)
        if config.get("function_type") == "function":
            name = config["function"]
            if name not in globs:
                raise ValueError(f"Unknown function: {name}. Please ensure it is in `custom_objects`.")
            function = globs[name]
        else:
            function = _serialization.func_load(config["function"], globs=globs)
        return cls(function, arguments=config.get("arguments"), name=config.get("name"),
                   trainable=config.get("trainable", True), dtype=config.get("dtype"))


class Activation(Layer):
    """``activation(inputs)``, as ``tf.keras.layers.Activation``."""

    supports_masking = True

    def __init__(self, activation: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return self.activation(inputs)


class Embedding(Layer):
    """Rows of ``embeddings [input_dim, output_dim]`` at integer ids, as ``tf.keras.layers.Embedding``.

    Inputs: ids of any shape; outputs ``ids.shape + [output_dim]`` floats. With
    ``mask_zero`` the output's Keras mask is ``ids != 0`` (read by the recurrent layers).
    """

    def __init__(self, input_dim: int, output_dim: int, embeddings_initializer: Any = "uniform",
                 embeddings_regularizer: Any = None, embeddings_constraint: Any = None, mask_zero: bool = False,
                 input_length: int | None = None, **kwargs: Any) -> None:
        if input_length is not None and "input_shape" not in kwargs:
            kwargs["input_shape"] = (input_length,)
        kwargs.setdefault("dtype", K.floatx())
        super().__init__(**kwargs)
        self.input_dim = int(input_dim)
        self.output_dim = int(output_dim)
        self.embeddings_initializer = embeddings_initializer
        self.embeddings_regularizer = embeddings_regularizer
        self.embeddings_constraint = embeddings_constraint
        self.mask_zero = bool(mask_zero)
        self.embeddings: Any = None

    def build(self, input_shape: Any) -> None:
        self.embeddings = self.add_weight(
            "embeddings", [self.input_dim, self.output_dim], initializer=self.embeddings_initializer,
            regularizer=self.embeddings_regularizer, constraint=self.embeddings_constraint,
        )
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        ids = convert_to_tensor(inputs)
        if ids.dtype not in (_dtypes.int32, _dtypes.int64):
            ids = _math.cast(ids, _dtypes.int32)
        return _nn.embedding_lookup(self.embeddings, ids)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        """``ids != 0`` when ``mask_zero``, else None."""
        if not self.mask_zero:
            return None
        return _math.not_equal(inputs, 0)


def _tuple(value: Any, n: int) -> tuple[int, ...]:
    return (int(value),) * n if isinstance(value, int) else tuple(int(v) for v in value)


class Masking(Layer):
    """Masks the steps whose features all equal ``mask_value``, as ``tf.keras.layers.Masking``:
    outputs ``inputs * keep`` (masked steps become zeros) and the Keras mask
    ``keep = any(inputs != mask_value, axis=-1)`` (bool ``[batch, time]``)."""

    supports_masking = True

    def __init__(self, mask_value: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def _keep(self, x: Any) -> Any:
        return _math.reduce_any(_math.not_equal(x, self.mask_value), axis=-1, keepdims=True)

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        return x * _math.cast(self._keep(x), x.dtype)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        return _math.reduce_any(_math.not_equal(inputs, self.mask_value), axis=-1)
