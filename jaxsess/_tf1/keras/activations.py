"""``jaxsess._tf1.keras.activations``: activation functions by name, as ``tf.keras.activations``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxsess._tf1.keras import backend as _K
from jaxsess._tf1.ops import math_ops as _math, nn_ops as _nn

__all__ = ["get", "serialize", "relu", "elu", "selu", "softplus", "softsign", "softmax", "sigmoid", "tanh",
           "linear", "exponential", "hard_sigmoid", "swish"]


def relu(x: Any, alpha: float = 0.0, max_value: float | None = None, threshold: float = 0.0) -> Any:
    """``max(x, 0)``; ``alpha``: slope below ``threshold``; ``max_value``: upper clip (as Keras)."""
    if alpha == 0.0 and threshold == 0.0:
        out = _nn.relu6(x) if max_value == 6 else _nn.relu(x)
        if max_value is not None and max_value != 6:
            out = _math.minimum(out, float(max_value))
        return out
    if threshold != 0.0 or max_value is not None:
        raise NotImplementedError("keras.activations.relu: alpha together with threshold or max_value.")
    return _nn.leaky_relu(x, alpha=alpha)


def elu(x: Any, alpha: float = 1.0) -> Any:
    if alpha != 1.0:
        return _math.where(_math.greater(x, 0.0), _nn.elu(x), _math.multiply(alpha, _nn.elu(x)))
    return _nn.elu(x)


def selu(x: Any) -> Any:
    return _nn.selu(x)


def softplus(x: Any) -> Any:
    return _nn.softplus(x)


def softsign(x: Any) -> Any:
    return _nn.softsign(x)


def softmax(x: Any, axis: int = -1) -> Any:
    """Softmax over ``axis`` (``Softmax`` op, so losses can use its logits, as Keras)."""
    return _K.cache_logits(_nn.softmax(x, axis=axis), x)


def sigmoid(x: Any) -> Any:
    """The logistic function (its logits kept for the cross-entropy losses, as Keras)."""
    return _K.cache_logits(_math.sigmoid(x), x)


def tanh(x: Any) -> Any:
    return _math.tanh(x)


def linear(x: Any) -> Any:
    return x


def exponential(x: Any) -> Any:
    return _math.exp(x)


def hard_sigmoid(x: Any) -> Any:
    """``clip(0.2 x + 0.5, 0, 1)``, as Keras 2."""
    return _math.clip_by_value(_math.add(_math.multiply(x, 0.2), 0.5), 0.0, 1.0)


def swish(x: Any) -> Any:
    return _math.multiply(x, _math.sigmoid(x))


_BY_NAME: dict[str, Callable[..., Any]] = {
    f.__name__: f for f in (relu, elu, selu, softplus, softsign, softmax, sigmoid, tanh, linear, exponential,
                            hard_sigmoid, swish)
}


def get(identifier: Any) -> Callable[..., Any]:
    """The activation named ``identifier`` (``'relu'``), a callable as is, ``None``: :func:`linear`.

    Raises:
      ValueError: an unknown name or a value that is not callable.
    """
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown activation function: {identifier}. Known: {sorted(_BY_NAME)}.")
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier  # type: ignore[no-any-return]
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(activation: Callable[..., Any]) -> str:
    return getattr(activation, "__name__", repr(activation))
