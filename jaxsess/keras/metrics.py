"""``jaxsess.keras.metrics``: the metric functions, as ``tf.keras.metrics`` (per-sample values;
``compile`` averages them over each batch and the epoch): the accuracies, the top-k accuracies, and
the loss functions under their metric names (``mae``, ``mse``, ...). :func:`get` resolves the names
``compile(metrics=[...])`` takes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxsess.keras import backend as K, losses as _losses
from jaxsess.keras.losses import (
    MAE as MAE,
    MAPE as MAPE,
    MSE as MSE,
    MSLE as MSLE,
    binary_crossentropy as binary_crossentropy,
    categorical_crossentropy as categorical_crossentropy,
    categorical_hinge as categorical_hinge,
    cosine_proximity as cosine_proximity,
    hinge as hinge,
    kl_divergence as kl_divergence,
    kld as kld,
    kullback_leibler_divergence as kullback_leibler_divergence,
    log_cosh as log_cosh,
    logcosh as logcosh,
    mae as mae,
    mape as mape,
    mean_absolute_error as mean_absolute_error,
    mean_absolute_percentage_error as mean_absolute_percentage_error,
    mean_squared_error as mean_squared_error,
    mean_squared_logarithmic_error as mean_squared_logarithmic_error,
    mse as mse,
    msle as msle,
    poisson as poisson,
    sparse_categorical_crossentropy as sparse_categorical_crossentropy,
    squared_hinge as squared_hinge,
)
from jaxsess.ops import math_ops as _math, nn_ops as _nn, shape_ops as _shape_ops
from jaxsess.ops._core import convert_to_tensor

__all__ = ["binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy", "top_k_categorical_accuracy",
           "sparse_top_k_categorical_accuracy", "get", "binary_crossentropy", "categorical_crossentropy",
           "sparse_categorical_crossentropy", "mean_squared_error", "mean_absolute_error",
           "mean_absolute_percentage_error", "mean_squared_logarithmic_error", "hinge", "squared_hinge",
           "categorical_hinge", "kl_divergence", "kullback_leibler_divergence", "poisson", "log_cosh", "logcosh",
           "cosine_proximity", "mse", "mae", "mape", "msle", "kld", "MSE", "MAE", "MAPE", "MSLE"]


def binary_accuracy(y_true: Any, y_pred: Any, threshold: float = 0.5) -> Any:
    """``mean(y_true == (y_pred > threshold), axis=-1)`` (floatx), as ``tf.keras.metrics.binary_accuracy``."""
    y_pred = convert_to_tensor(y_pred)
    pred = _math.cast(_math.greater(y_pred, threshold), y_pred.dtype)
    return _math.reduce_mean(_math.cast(_math.equal(_math.cast(y_true, y_pred.dtype), pred), K.floatx()), -1)


def categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
    """``argmax(y_true, -1) == argmax(y_pred, -1)`` (floatx), as ``tf.keras.metrics.categorical_accuracy``."""
    return _math.cast(_math.equal(_math.argmax(y_true, -1), _math.argmax(y_pred, -1)), K.floatx())


def sparse_categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
    """``y_true == argmax(y_pred, -1)`` for integer ids ``y_true`` (``[N]`` or ``[N, 1]``), floatx
    ``[N]``, as ``tf.keras.metrics.sparse_categorical_accuracy``."""
    ids = _shape_ops.reshape(_math.cast(y_true, K.floatx()), [-1])
    pred = _math.cast(_math.argmax(y_pred, -1), K.floatx())
    return _math.cast(_math.equal(ids, _shape_ops.reshape(pred, [-1])), K.floatx())


def top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Any:
    """Whether the class of one-hot ``y_true`` is among the ``k`` largest
    ``y_pred`` (floatx ``[N]``), as ``tf.keras.metrics.top_k_categorical_accuracy``."""
    y_pred = convert_to_tensor(y_pred)
    return _math.cast(_nn.in_top_k(y_pred, _math.argmax(y_true, -1), k), K.floatx())


def sparse_top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Any:
    """Whether the integer class ``y_true`` (``[N]`` or ``[N, 1]``) is among the
    ``k`` largest ``y_pred`` (floatx ``[N]``), as
    ``tf.keras.metrics.sparse_top_k_categorical_accuracy``."""
    ids = _math.cast(_shape_ops.reshape(y_true, [-1]), "int32")
    return _math.cast(_nn.in_top_k(convert_to_tensor(y_pred), ids, k), K.floatx())


_BY_NAME: dict[str, Callable[..., Any]] = {
    f.__name__: f for f in (binary_accuracy, categorical_accuracy, sparse_categorical_accuracy,
                            top_k_categorical_accuracy, sparse_top_k_categorical_accuracy)
}


def get(identifier: Any) -> Callable[..., Any]:
    """A metric function from its name (an accuracy, a top-k accuracy, or a
    loss's name such as ``'mae'``), or ``identifier`` itself when callable, as
    ``tf.keras.metrics.get``.

    Raises:
      ValueError: an unknown name.
    """
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier  # type: ignore[no-any-return]
    return _losses.get(identifier)
