"""Keras normalization layers, as ``tf.compat.v1.keras.layers`` (tf_keras'
``layers/normalization``): ``BatchNormalization`` (the :mod:`jaxsess._tf1.layers`
class under Keras' bookkeeping; its moving-average updates are in
:attr:`~jaxsess._tf1.keras._layers_core.Layer.updates`) and ``LayerNormalization``.
"""

from __future__ import annotations

from typing import Any

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1 import layers as _tf_layers
from jaxsess._tf1.keras._layers_core import Layer
from jaxsess._tf1.ops import (
    nn_ops as _nn,
    normalization as _normalization,
    shape_ops as _shape_ops,
)

__all__ = [
    "BatchNormalization",
    "LayerNormalization",
]


class BatchNormalization(Layer, _tf_layers.BatchNormalization):
    """Batch normalization, as ``tf.keras.layers.BatchNormalization``: batch statistics
    in the training phase, moving statistics otherwise; the moving-average
    updates are in :attr:`updates` (run by ``fit``), not in ``UPDATE_OPS``."""

    supports_masking = True

    _takes_training = True

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Any:
        """As ``Layer.from_config``; TF Keras writes ``axis`` as a one-element list (``[3]``)."""
        axis = config.get("axis")
        if isinstance(axis, list | tuple):
            if len(axis) != 1:
                raise NotImplementedError(f"BatchNormalization over several axes {list(axis)} is not supported")
            config = {**config, "axis": int(axis[0])}
        return super().from_config(config, custom_objects)


class LayerNormalization(Layer):
    """Normalization of each sample over ``axis`` (mean and variance of that sample),
    then ``* gamma + beta``, as ``tf.keras.layers.LayerNormalization``
    (``epsilon`` 1e-3; weights ``gamma`` and ``beta`` shaped like the
    normalised axes).

    Raises:
      ValueError: an axis out of range, or duplicated.
    """

    supports_masking = True

    def __init__(self, axis: Any = -1, epsilon: float = 1e-3, center: bool = True, scale: bool = True,
                 beta_initializer: Any = "zeros", gamma_initializer: Any = "ones", beta_regularizer: Any = None,
                 gamma_regularizer: Any = None, beta_constraint: Any = None, gamma_constraint: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = [axis] if isinstance(axis, int) else list(axis)
        self.epsilon = float(epsilon)
        self.center, self.scale = bool(center), bool(scale)
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.gamma: Any = None
        self.beta: Any = None

    def build(self, input_shape: Any) -> None:
        dims = TensorShape(input_shape).as_list()
        assert dims is not None
        ndims = len(dims)
        axes = [a + ndims if a < 0 else a for a in self.axis]
        for a in axes:
            if a < 0 or a >= ndims:
                raise ValueError(f"Invalid axis: {a}")
        if len(axes) != len(set(axes)):
            raise ValueError(f"Duplicate axis: {tuple(self.axis)}")
        self.axis = axes
        param_shape = [dims[a] for a in axes]
        if self.scale:
            self.gamma = self.add_weight("gamma", param_shape, initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer, constraint=self.gamma_constraint)
        if self.center:
            self.beta = self.add_weight("beta", param_shape, initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer, constraint=self.beta_constraint)
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        dims = x.shape.as_list()
        ndims = len(dims)
        broadcast = [1] * ndims
        for a in self.axis:
            broadcast[a] = dims[a]

        def _broadcast(v: Any) -> Any:
            if v is not None and len(v.shape.as_list()) != ndims and self.axis != [ndims - 1]:
                return _shape_ops.reshape(v, broadcast)
            return v

        mean, variance = _nn.moments(x, self.axis, keep_dims=True)
        return _normalization.batch_normalization(x, mean, variance, offset=_broadcast(self.beta),
                                                  scale=_broadcast(self.gamma), variance_epsilon=self.epsilon)
