"""``tf.contrib.losses`` (TF 1.x): :mod:`jaxsess._tf1.losses` with contrib's argument order
(``predictions``/``logits`` first) and ``scope`` names; every loss is added to the ``LOSSES``
collection, as TF's. ``hinge_loss`` returns the unreduced per-element losses, as contrib's."""

from __future__ import annotations

from typing import Any

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._tf1 import losses as _l
from jaxsess._tf1.ops import math_ops as math_ops, nn_ops as nn_ops
from jaxsess._tf1.ops._args import op_scope

__all__ = ["absolute_difference", "add_loss", "compute_weighted_loss", "get_losses", "get_regularization_losses",
           "get_total_loss", "hinge_loss", "log_loss", "mean_squared_error", "sigmoid_cross_entropy",
           "softmax_cross_entropy", "sparse_softmax_cross_entropy"]

add_loss = _l.add_loss
get_losses = _l.get_losses
get_regularization_losses = _l.get_regularization_losses
get_total_loss = _l.get_total_loss


def compute_weighted_loss(losses: Any, weights: Any = 1.0, scope: str | None = None) -> Any:
    """The weighted mean over non-zero weights, as ``tf.contrib.losses.compute_weighted_loss``."""
    return _l.compute_weighted_loss(losses, weights, scope=scope)


def absolute_difference(predictions: Any, labels: Any = None, weights: Any = 1.0, scope: str | None = None) -> Any:
    """As ``tf.contrib.losses.absolute_difference`` (= ``tf.losses.absolute_difference(labels, predictions)``)."""
    return _l.absolute_difference(labels, predictions, weights, scope=scope)


def mean_squared_error(predictions: Any, labels: Any = None, weights: Any = 1.0, scope: str | None = None) -> Any:
    """As ``tf.contrib.losses.mean_squared_error`` (= ``tf.losses.mean_squared_error(labels, predictions)``)."""
    return _l.mean_squared_error(labels, predictions, weights, scope=scope)


def log_loss(predictions: Any, labels: Any = None, weights: Any = 1.0, epsilon: float = 1e-7,
             scope: str | None = None) -> Any:
    """As ``tf.contrib.losses.log_loss`` (= ``tf.losses.log_loss(labels, predictions)``)."""
    return _l.log_loss(labels, predictions, weights, epsilon, scope=scope)


def sigmoid_cross_entropy(logits: Any, multi_class_labels: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: str | None = None) -> Any:
    """As ``tf.contrib.losses.sigmoid_cross_entropy`` (logits first)."""
    return _l.sigmoid_cross_entropy(multi_class_labels, logits, weights, label_smoothing, scope=scope)


def softmax_cross_entropy(logits: Any, onehot_labels: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: str | None = None) -> Any:
    """As ``tf.contrib.losses.softmax_cross_entropy`` (logits first)."""
    return _l.softmax_cross_entropy(onehot_labels, logits, weights, label_smoothing, scope=scope)


def sparse_softmax_cross_entropy(logits: Any, labels: Any, weights: Any = 1.0, scope: str | None = None) -> Any:
    """As ``tf.contrib.losses.sparse_softmax_cross_entropy`` (logits first)."""
    return _l.sparse_softmax_cross_entropy(labels, logits, weights, scope=scope)


def hinge_loss(logits: Any, labels: Any = None, scope: str | None = None) -> Any:
    """The unreduced hinge losses ``relu(1 - (2 labels - 1) logits)`` (labels in {0, 1}), shape of
    ``logits``, as ``tf.contrib.losses.hinge_loss``."""
    with op_scope(scope, "hinge_loss", [logits, labels]):
        logits = convert_to_tensor(logits)
        labels = math_ops.cast(convert_to_tensor(labels), logits.dtype)
        signs = 2.0 * labels - 1.0
        return nn_ops.relu(1.0 - signs * logits)
