"""``jaxsess._tf1.keras.losses``: Keras 2 losses, as ``tf.keras.losses``.

The functions return one loss per sample (the last axis reduced); the
classes return their mean over the batch (``SUM_OVER_BATCH_SIZE``), as Keras.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._graph import Tensor
from jaxsess._tf1.keras import backend as K
from jaxsess._tf1.ops import math_ops as _math, nn_impl as _nn_impl, nn_ops as _nn, shape_ops as _shape_ops

__all__ = [
    "categorical_crossentropy", "sparse_categorical_crossentropy", "binary_crossentropy", "mean_squared_error",
    "mean_absolute_error", "mse", "mae", "Loss", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
    "BinaryCrossentropy", "MeanSquaredError", "MeanAbsoluteError", "get",
    "Reduction", "LossFunctionWrapper", "hinge", "squared_hinge", "categorical_hinge", "huber", "log_cosh", "logcosh",
    "kl_divergence", "kld", "KLD", "kullback_leibler_divergence", "poisson", "cosine_similarity", "cosine",
    "cosine_proximity", "mean_absolute_percentage_error", "mape", "MAPE", "mean_squared_logarithmic_error", "msle",
    "MSLE", "Hinge", "SquaredHinge", "CategoricalHinge", "Huber", "LogCosh", "KLDivergence", "Poisson",
    "CosineSimilarity", "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "serialize", "deserialize",
]


def _pair(y_true: Any, y_pred: Any) -> tuple[Any, Any]:
    y_pred = convert_to_tensor(y_pred)
    return _math.cast(y_true, y_pred.dtype), y_pred


def categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False) -> Any:
    """Per-sample cross-entropy against one-hot ``y_true`` (``[N, C] -> [N]``); see
    :func:`jaxsess._tf1.keras.backend.categorical_crossentropy`."""
    y_true, y_pred = _pair(y_true, y_pred)
    return K.categorical_crossentropy(y_true, y_pred, from_logits=from_logits)


def sparse_categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False) -> Any:
    """Per-sample cross-entropy against integer ids ``y_true`` (``[N]`` or ``[N, 1]``)."""
    return K.sparse_categorical_crossentropy(y_true, y_pred, from_logits=from_logits)


def binary_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False) -> Any:
    """``mean(K.binary_crossentropy(y_true, y_pred), axis=-1)``, as Keras 2."""
    y_true, y_pred = _pair(y_true, y_pred)
    return _math.reduce_mean(K.binary_crossentropy(y_true, y_pred, from_logits=from_logits), -1)


def mean_squared_error(y_true: Any, y_pred: Any) -> Any:
    """``mean((y_pred - y_true)^2, axis=-1)``."""
    y_true, y_pred = _pair(y_true, y_pred)
    return _math.reduce_mean(_math.squared_difference(y_pred, y_true), -1)


def mean_absolute_error(y_true: Any, y_pred: Any) -> Any:
    """``mean(|y_pred - y_true|, axis=-1)``."""
    y_true, y_pred = _pair(y_true, y_pred)
    return _math.reduce_mean(_math.abs(_math.subtract(y_pred, y_true)), -1)


def mean_absolute_percentage_error(y_true: Any, y_pred: Any) -> Any:
    """``100 * mean(|(y_true - y_pred) / max(|y_true|, epsilon)|, axis=-1)``, as Keras 2."""
    y_true, y_pred = _pair(y_true, y_pred)
    diff = _math.abs(_math.truediv(y_true - y_pred, K.maximum(_math.abs(y_true), K.epsilon())))
    return 100.0 * K.mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true: Any, y_pred: Any) -> Any:
    """``mean((log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1))^2, axis=-1)``, as Keras 2."""
    y_true, y_pred = _pair(y_true, y_pred)
    first = _math.log(K.maximum(y_pred, K.epsilon()) + 1.0)
    second = _math.log(K.maximum(y_true, K.epsilon()) + 1.0)
    return K.mean(_math.squared_difference(first, second), axis=-1)


def _maybe_convert_labels(y_true: Any) -> Any:
    # Keras: labels that are all 0 or 1 become -1/1 (decided when the loss runs).
    is_binary = _math.reduce_all(_math.logical_or(_math.equal(y_true, 0), _math.equal(y_true, 1)))
    return _math.where(is_binary, 2.0 * y_true - 1.0, y_true)


def squared_hinge(y_true: Any, y_pred: Any) -> Any:
    """``mean(max(1 - y_true * y_pred, 0)^2, axis=-1)`` (0/1 labels taken as -1/1), as Keras 2."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return K.mean(_math.square(_math.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def hinge(y_true: Any, y_pred: Any) -> Any:
    """``mean(max(1 - y_true * y_pred, 0), axis=-1)`` (0/1 labels taken as -1/1), as Keras 2."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return K.mean(_math.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def categorical_hinge(y_true: Any, y_pred: Any) -> Any:
    """``max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0)`` over the last axis, as Keras 2."""
    y_true, y_pred = _pair(y_true, y_pred)
    pos = _math.reduce_sum(y_true * y_pred, axis=-1)
    neg = _math.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return _math.maximum(neg - pos + 1.0, _math.cast(0.0, y_pred.dtype))


def huber(y_true: Any, y_pred: Any, delta: float = 1.0) -> Any:
    """Per-sample Huber loss (quadratic within ``delta``, linear beyond), mean over the last axis, as Keras 2."""
    y_pred = _math.cast(y_pred, K.floatx())
    y_true = _math.cast(y_true, K.floatx())
    d = _math.cast(delta, K.floatx())
    error = _math.subtract(y_pred, y_true)
    abs_error = _math.abs(error)
    half = convert_to_tensor(0.5, dtype=abs_error.dtype)
    return K.mean(
        _math.where(_math.less_equal(abs_error, d), half * _math.square(error),
                    d * abs_error - half * _math.square(d)),
        axis=-1,
    )


def log_cosh(y_true: Any, y_pred: Any) -> Any:
    """``mean(log(cosh(y_pred - y_true)), axis=-1)`` (computed as ``x + softplus(-2x) - log 2``), as Keras 2."""
    y_true, y_pred = _pair(y_true, y_pred)
    x = y_pred - y_true
    return K.mean(x + _nn.softplus(-2.0 * x) - _math.cast(_math.log(2.0), x.dtype), axis=-1)


def kl_divergence(y_true: Any, y_pred: Any) -> Any:
    """``sum(y_true * log(y_true / y_pred), axis=-1)``, both clipped to ``[epsilon, 1]``, as Keras 2."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = K.clip(y_true, K.epsilon(), 1)
    y_pred = K.clip(y_pred, K.epsilon(), 1)
    return _math.reduce_sum(y_true * _math.log(y_true / y_pred), axis=-1)


def poisson(y_true: Any, y_pred: Any) -> Any:
    """``mean(y_pred - y_true * log(y_pred + epsilon), axis=-1)``, as Keras 2."""
    y_true, y_pred = _pair(y_true, y_pred)
    return K.mean(y_pred - y_true * _math.log(y_pred + K.epsilon()), axis=-1)


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    """``-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)``, as Keras 2's loss."""
    y_true = _nn.l2_normalize(y_true, axis=axis)
    y_pred = _nn.l2_normalize(y_pred, axis=axis)
    return -_math.reduce_sum(y_true * y_pred, axis=axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh
cosine = cosine_proximity = cosine_similarity


class Reduction:
    """How a loss object reduces per-sample losses, as ``tf.keras.losses.Reduction``."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls) -> tuple[str, ...]:
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key: str) -> None:
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


def _weighted(losses: Any, sample_weight: Any, reduction: str) -> Any:
    """Keras' ``compute_weighted_loss``: ``losses * sample_weight`` (a weight of rank
    one more or one less is squeezed or expanded on the last axis), reduced."""
    losses = convert_to_tensor(losses)
    if not losses.dtype.is_floating:
        losses = _math.cast(losses, K.floatx())
    if sample_weight is not None:
        w = _math.cast(sample_weight, losses.dtype)
        lr, wr = losses.shape.ndims, w.shape.ndims
        if lr is not None and wr is not None:
            if wr - lr == 1:
                w = _shape_ops.squeeze(w, [-1])
            elif lr - wr == 1:
                w = _shape_ops.expand_dims(w, -1)
        losses = _math.multiply(losses, w)
    if reduction == Reduction.NONE:
        return losses
    total = _math.reduce_sum(losses)
    if reduction == Reduction.SUM:
        return total
    return _nn_impl.div_no_nan(total, _math.cast(_shape_ops.size(losses), losses.dtype))


class Loss:
    """A Keras loss object, as ``tf.keras.losses.Loss``: ``loss(y_true, y_pred,
    sample_weight=None)`` weights the per-sample losses of :meth:`call` and
    reduces them by ``reduction`` (``AUTO``/``SUM_OVER_BATCH_SIZE``: their sum
    over the number of elements; ``SUM``; ``NONE``: the weighted losses).

    Subclasses implement ``call(y_true, y_pred)``.

    Raises:
      ValueError: an unknown ``reduction``.
    """

    def __init__(self, reduction: str = Reduction.AUTO, name: str | None = None) -> None:
        Reduction.validate(reduction)
        self.reduction = reduction
        self.name = name
        self._name_scope = type(self).__name__.strip("_") if name is None else (
            "lambda" if name == "<lambda>" else name.strip("_"))

    def call(self, y_true: Any, y_pred: Any) -> Any:
        raise NotImplementedError("Must be implemented in subclasses.")

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        with K.name_scope(self._name_scope):
            losses = self.call(y_true, y_pred)
            reduction = Reduction.SUM_OVER_BATCH_SIZE if self.reduction == Reduction.AUTO else self.reduction
            return _weighted(losses, sample_weight, reduction)

    def get_config(self) -> dict[str, Any]:
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Loss:
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A loss object around a per-sample loss function ``fn(y_true, y_pred, **kwargs)``,
    as ``tf.keras.losses.LossFunctionWrapper``."""

    def __init__(self, fn: Callable[..., Any], reduction: str = Reduction.AUTO, name: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true: Any, y_pred: Any) -> Any:
        if isinstance(y_pred, Tensor) and isinstance(y_true, Tensor):
            pr, tr = y_pred.shape.ndims, y_true.shape.ndims
            if pr is not None and tr is not None:  # Keras' squeeze_or_expand_dimensions
                if tr - pr == 1 and y_true.shape.as_list()[-1] == 1:
                    y_true = _shape_ops.squeeze(y_true, [-1])
                elif pr - tr == 1 and y_pred.shape.as_list()[-1] == 1:
                    y_pred = _shape_ops.squeeze(y_pred, [-1])
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), **self._fn_kwargs}


class CategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: str = Reduction.AUTO, name: str = "categorical_crossentropy") -> None:
        if label_smoothing or axis != -1:
            raise NotImplementedError("CategoricalCrossentropy: label_smoothing and axis are not supported.")
        super().__init__(categorical_crossentropy, reduction=reduction, name=name, from_logits=from_logits)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits: bool = False, reduction: str = Reduction.AUTO,
                 name: str = "sparse_categorical_crossentropy") -> None:
        super().__init__(sparse_categorical_crossentropy, reduction=reduction, name=name, from_logits=from_logits)


class BinaryCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, reduction: str = Reduction.AUTO,
                 name: str = "binary_crossentropy") -> None:
        if label_smoothing:
            raise NotImplementedError("BinaryCrossentropy: label_smoothing is not supported.")
        super().__init__(binary_crossentropy, reduction=reduction, name=name, from_logits=from_logits)


class MeanSquaredError(LossFunctionWrapper):
    def __init__(self, reduction: str = Reduction.AUTO, name: str = "mean_squared_error") -> None:
        super().__init__(mean_squared_error, reduction=reduction, name=name)


class MeanAbsoluteError(LossFunctionWrapper):
    def __init__(self, reduction: str = Reduction.AUTO, name: str = "mean_absolute_error") -> None:
        super().__init__(mean_absolute_error, reduction=reduction, name=name)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    def __init__(self, reduction: str = Reduction.AUTO, name: str = "mean_absolute_percentage_error") -> None:
        super().__init__(mean_absolute_percentage_error, reduction=reduction, name=name)


class MeanSquaredLogarithmicError(LossFunctionWrapper):
    def __init__(self, reduction: str = Reduction.AUTO, name: str = "mean_squared_logarithmic_error") -> None:
        super().__init__(mean_squared_logarithmic_error, reduction=reduction, name=name)


class Hinge(LossFunctionWrapper):
    def __init__(self, reduction: str = Reduction.AUTO, name: str = "hinge") -> None:
        super().__init__(hinge, reduction=reduction, name=name)


class SquaredHinge(LossFunctionWrapper):
    def __init__(self, reduction: str = Reduction.AUTO, name: str = "squared_hinge") -> None:
        super().__init__(squared_hinge, reduction=reduction, name=name)


class CategoricalHinge(LossFunctionWrapper):
    def __init__(self, reduction: str = Reduction.AUTO, name: str = "categorical_hinge") -> None:
        super().__init__(categorical_hinge, reduction=reduction, name=name)


class Huber(LossFunctionWrapper):
    def __init__(self, delta: float = 1.0, reduction: str = Reduction.AUTO, name: str = "huber_loss") -> None:
        super().__init__(huber, reduction=reduction, name=name, delta=delta)


class LogCosh(LossFunctionWrapper):
    def __init__(self, reduction: str = Reduction.AUTO, name: str = "log_cosh") -> None:
        super().__init__(log_cosh, reduction=reduction, name=name)


class KLDivergence(LossFunctionWrapper):
    def __init__(self, reduction: str = Reduction.AUTO, name: str = "kl_divergence") -> None:
        super().__init__(kl_divergence, reduction=reduction, name=name)


class Poisson(LossFunctionWrapper):
    def __init__(self, reduction: str = Reduction.AUTO, name: str = "poisson") -> None:
        super().__init__(poisson, reduction=reduction, name=name)


class CosineSimilarity(LossFunctionWrapper):
    def __init__(self, axis: int = -1, reduction: str = Reduction.AUTO, name: str = "cosine_similarity") -> None:
        super().__init__(cosine_similarity, reduction=reduction, name=name, axis=axis)


_BY_NAME: dict[str, Callable[..., Any]] = {
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
    "binary_crossentropy": binary_crossentropy,
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error, "MSE": mean_squared_error,
    "mean_absolute_error": mean_absolute_error, "mae": mean_absolute_error, "MAE": mean_absolute_error,
    "mean_absolute_percentage_error": mean_absolute_percentage_error, "mape": mean_absolute_percentage_error,
    "MAPE": mean_absolute_percentage_error,
    "mean_squared_logarithmic_error": mean_squared_logarithmic_error, "msle": mean_squared_logarithmic_error,
    "MSLE": mean_squared_logarithmic_error,
    "hinge": hinge, "squared_hinge": squared_hinge, "categorical_hinge": categorical_hinge,
    "huber_loss": huber, "huber": huber, "logcosh": log_cosh, "log_cosh": log_cosh,
    "kl_divergence": kl_divergence, "kld": kl_divergence, "KLD": kl_divergence,
    "kullback_leibler_divergence": kl_divergence, "poisson": poisson,
    "cosine_similarity": cosine_similarity, "cosine_proximity": cosine_similarity,
}


def serialize(loss: Any) -> Any:
    """A loss function's name, or a loss object's ``{'class_name', 'config'}``, as ``tf.keras.losses.serialize``."""
    if isinstance(loss, Loss):
        return {"class_name": type(loss).__name__, "config": loss.get_config()}
    return getattr(loss, "__name__", loss)


def deserialize(name: Any, custom_objects: dict[str, Any] | None = None) -> Any:
    """The loss named by ``name`` (a function name, or a serialized loss object), as ``tf.keras.losses.deserialize``.

    Raises:
      ValueError: an unknown name.
    """
    if isinstance(name, dict):
        cls = (custom_objects or {}).get(name["class_name"]) or globals().get(name["class_name"])
        if not (isinstance(cls, type) and issubclass(cls, Loss)):
            raise ValueError(f"Unknown loss function: {name['class_name']}")
        return cls.from_config(name["config"])
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    return get(name)


def get(identifier: Any) -> Callable[..., Any]:
    """A loss from a name (``'mse'``) or a callable.

    Raises:
      ValueError: an unknown name.
    """
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown loss function: {identifier}. Known: {sorted(_BY_NAME)}.")
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier  # type: ignore[no-any-return]
    raise ValueError(f"Could not interpret loss function identifier: {identifier!r}")
