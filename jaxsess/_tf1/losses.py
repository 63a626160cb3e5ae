"""``jaxsess._tf1.losses``: weighted, reduced losses, as ``tf.compat.v1.losses``.

Each loss computes per-element losses, multiplies them by ``weights``
(a scalar, or a tensor of the losses' rank whose dimensions are 1 or equal
to the losses'), reduces them as ``reduction`` says and, in graph mode, adds
the result to the ``GraphKeys.LOSSES`` collection (``loss_collection``), as
TF1. Inputs are cast to float32; the result has the per-element losses'
dtype. The default reduction, ``SUM_BY_NONZERO_WEIGHTS``, is the weighted sum
divided by the number of elements with a non-zero weight (the mean when
``weights=1``); a zero count gives 0, not NaN.
"""

from __future__ import annotations

from typing import Any

import jax

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import constant, convert_to_tensor, executing_eagerly, stop_gradient
from jaxsess._core.graph._graph import GraphKeys, Tensor, get_default_graph
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops, nn_ops as nn_ops
from jaxsess._tf1.ops._args import op_scope

__all__ = [
    "Reduction", "compute_weighted_loss", "add_loss", "get_losses", "get_regularization_losses",
    "get_regularization_loss", "get_total_loss", "mean_squared_error", "absolute_difference",
    "softmax_cross_entropy", "sparse_softmax_cross_entropy", "sigmoid_cross_entropy", "huber_loss",
    "log_loss", "hinge_loss", "cosine_distance", "mean_pairwise_squared_error",
]


class Reduction:
    """How a weighted loss is reduced, as ``tf.compat.v1.losses.Reduction``.

    Attributes:
      NONE: no reduction; the weighted per-element losses.
      SUM: the sum of the weighted losses.
      MEAN: the sum divided by the sum of the (broadcast) weights.
      SUM_OVER_BATCH_SIZE: the sum divided by the number of elements.
      SUM_BY_NONZERO_WEIGHTS (alias SUM_OVER_NONZERO_WEIGHTS): the sum
        divided by the number of elements with a non-zero weight (default).
    """

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls) -> tuple[str, ...]:
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_OVER_NONZERO_WEIGHTS,
                cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key: str) -> None:
        """Raises ``ValueError`` unless ``key`` is one of :meth:`all`."""
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}.")


# -- collections ----------------------------------------------------------------------


def add_loss(loss: Any, loss_collection: str | None = GraphKeys.LOSSES) -> None:
    """Adds ``loss`` to ``loss_collection`` of its graph (nothing when eager), as TF1."""
    if loss_collection and isinstance(loss, Tensor) and not executing_eagerly():
        loss.graph.add_to_collection(loss_collection, loss)


def get_losses(scope: str | None = None, loss_collection: str = GraphKeys.LOSSES) -> list[Any]:
    """The losses in ``loss_collection`` of the default graph (names matching ``scope``)."""
    return get_default_graph().get_collection(loss_collection, scope)


def get_regularization_losses(scope: str | None = None) -> list[Any]:
    """The ``GraphKeys.REGULARIZATION_LOSSES`` of the default graph."""
    return get_default_graph().get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope: str | None = None, name: str = "total_regularization_loss") -> Any:
    """The sum of the regularization losses, or a 0.0 constant when there are none."""
    losses = get_regularization_losses(scope)
    if losses:
        return math_ops.add_n(losses, name=name)
    return constant(0.0, name=name)


def get_total_loss(add_regularization_losses: bool = True, name: str = "total_loss",
                   scope: str | None = None) -> Any:
    """The sum of the collected losses (and regularization losses), as TF1.

    Raises:
      ValueError: no losses were collected.
    """
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses = losses + get_regularization_losses(scope)
    if not losses:
        raise ValueError("No losses found in the LOSSES (and REGULARIZATION_LOSSES) collections.")
    return math_ops.add_n(losses, name=name)


# -- weighting and reduction ----------------------------------------------------------------


def _static_shape(x: Any) -> TensorShape:
    return TensorShape(tuple(x.shape)) if isinstance(x, jax.Array) else x.shape


def _check_broadcastable(weights: Any, losses: Any) -> None:
    """TF1's ``assert_broadcastable``, on static shapes.

    Raises:
      ValueError: ``weights`` is not a scalar and not of ``losses``' rank with
        each dimension 1 or equal.
    """
    ws, ls = _static_shape(weights), _static_shape(losses)
    if ws.ndims is None or ls.ndims is None or ws.ndims == 0:
        return
    ok = ws.ndims == ls.ndims and all(
        w is None or v is None or w == 1 or w == v for w, v in zip(ws, ls, strict=True)
    )
    if not ok:
        raise ValueError(
            f"weights can not be broadcast to values. values.rank={ls.ndims}. weights.rank={ws.ndims}. "
            f"values.shape={ls}. weights.shape={ws}."
        )


def _to_float32(x: Any) -> Any:
    x = convert_to_tensor(x) if isinstance(x, Tensor | jax.Array) else convert_to_tensor(x, dtype=_dtypes.float32)
    if x.dtype != _dtypes.float32:
        x = math_ops.cast(x, _dtypes.float32)
    return x


def _div_no_nan(total: Any, count: Any, name: str) -> Any:
    """``total / count``, or 0 where ``count`` is 0 (no NaN in the gradient either)."""
    zero = math_ops.equal(count, 0.0)
    safe = math_ops.where(zero, array_ops.ones_like(count), count)
    return math_ops.where(zero, array_ops.zeros_like(total), math_ops.divide(total, safe), name=name)


def _num_elements(losses: Any) -> Any:
    return math_ops.cast(array_ops.size(losses), _dtypes.float32)


def _num_present(losses: Any, weights: Any) -> Any:
    """The number of elements of ``losses`` whose (broadcast) weight is non-zero."""
    if _static_shape(weights).ndims == 0:
        return math_ops.where(math_ops.equal(weights, 0.0), 0.0, _num_elements(losses))
    present = math_ops.where(
        math_ops.equal(weights, 0.0), array_ops.zeros_like(weights), array_ops.ones_like(weights)
    )
    present = math_ops.multiply(present, array_ops.ones_like(losses))
    return math_ops.reduce_sum(present)


def compute_weighted_loss(losses: Any, weights: Any = 1.0, scope: str | None = None,
                          loss_collection: str | None = GraphKeys.LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """``losses * weights``, reduced, as ``tf.compat.v1.losses.compute_weighted_loss``.

    Args:
      losses: per-element losses (any float dtype; computed in float32).
      weights: a scalar or a tensor broadcastable to ``losses`` (same rank).
      scope: the name scope (default ``'weighted_loss'``).
      loss_collection: where the result is added in graph mode (``None``: nowhere).
      reduction: a :class:`Reduction` key.

    Returns:
      A scalar (or ``losses``' shape with ``Reduction.NONE``) of ``losses``'
      dtype, named ``<scope>/value`` in graph mode.

    Raises:
      ValueError: an unknown reduction, or ``weights`` that do not broadcast.
    """
    Reduction.validate(reduction)
    with op_scope(scope, "weighted_loss", [losses, weights]):
        losses = convert_to_tensor(losses)
        input_dtype = losses.dtype
        losses = _to_float32(losses)
        weights = _to_float32(weights)
        _check_broadcastable(weights, losses)
        weighted = math_ops.multiply(losses, weights)
        if reduction == Reduction.NONE:
            loss = weighted
        else:
            total = math_ops.reduce_sum(weighted)
            if reduction == Reduction.SUM:
                loss = total
            elif reduction == Reduction.MEAN:
                count = math_ops.reduce_sum(math_ops.multiply(array_ops.ones_like(losses), weights))
                loss = _div_no_nan(total, count, "value")
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                loss = _div_no_nan(total, _num_elements(losses), "value")
            else:
                loss = _div_no_nan(total, _num_present(losses, weights), "value")
        if _dtypes.as_dtype(input_dtype) != _dtypes.float32:
            loss = math_ops.cast(loss, input_dtype)
        add_loss(loss, loss_collection)
        return loss


# -- losses -----------------------------------------------------------------------------------


def _require(labels: Any, predictions: Any, what: str = "predictions") -> None:
    if labels is None:
        raise ValueError("Argument `labels` must not be None.")
    if predictions is None:
        raise ValueError(f"Argument `{what}` must not be None.")


def _check_shapes(a: Any, b: Any, fn: str) -> None:
    sa, sb = _static_shape(a), _static_shape(b)
    if not sa.is_compatible_with(sb):
        raise ValueError(f"{fn}: shapes {sa} and {sb} are incompatible.")


def _elementwise_loss(fn: str, default_scope: str, labels: Any, predictions: Any, weights: Any,
                      scope: str | None, loss_collection: str | None, reduction: str, per_element: Any) -> Any:
    _require(labels, predictions)
    with op_scope(scope, default_scope, [predictions, labels, weights]) as s:
        predictions = _to_float32(predictions)
        labels = _to_float32(labels)
        _check_shapes(predictions, labels, fn)
        losses = per_element(labels, predictions)
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction=reduction)


def mean_squared_error(labels: Any, predictions: Any, weights: Any = 1.0, scope: str | None = None,
                       loss_collection: str | None = GraphKeys.LOSSES,
                       reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted ``(predictions - labels) ** 2``, reduced, as ``tf.compat.v1.losses.mean_squared_error``.

    With the defaults this is the mean over all elements.

    Raises:
      ValueError: ``labels``/``predictions`` is None, their shapes are
        incompatible, or ``weights`` does not broadcast.
    """
    return _elementwise_loss("mean_squared_error", "mean_squared_error", labels, predictions, weights, scope,
                             loss_collection, reduction, lambda y, p: math_ops.squared_difference(p, y))


def absolute_difference(labels: Any, predictions: Any, weights: Any = 1.0, scope: str | None = None,
                        loss_collection: str | None = GraphKeys.LOSSES,
                        reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted ``|predictions - labels|``, reduced, as ``tf.compat.v1.losses.absolute_difference``."""
    return _elementwise_loss("absolute_difference", "absolute_difference", labels, predictions, weights, scope,
                             loss_collection, reduction, lambda y, p: math_ops.abs(math_ops.subtract(p, y)))


def huber_loss(labels: Any, predictions: Any, weights: Any = 1.0, delta: float = 1.0, scope: str | None = None,
               loss_collection: str | None = GraphKeys.LOSSES,
               reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted Huber loss (quadratic within ``delta``, linear outside), as
    ``tf.compat.v1.losses.huber_loss``."""

    def per_element(y: Any, p: Any) -> Any:
        err = math_ops.abs(math_ops.subtract(p, y))
        quad = math_ops.minimum(err, delta)
        lin = math_ops.subtract(err, quad)
        return math_ops.add(math_ops.multiply(0.5, math_ops.square(quad)), math_ops.multiply(delta, lin))

    return _elementwise_loss("huber_loss", "huber_loss", labels, predictions, weights, scope,
                             loss_collection, reduction, per_element)


def log_loss(labels: Any, predictions: Any, weights: Any = 1.0, epsilon: float = 1e-7, scope: str | None = None,
             loss_collection: str | None = GraphKeys.LOSSES,
             reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted ``-y log(p + eps) - (1 - y) log(1 - p + eps)``, as ``tf.compat.v1.losses.log_loss``."""

    def per_element(y: Any, p: Any) -> Any:
        pos = math_ops.multiply(y, math_ops.log(math_ops.add(p, epsilon)))
        neg = math_ops.multiply(math_ops.subtract(1.0, y), math_ops.log(math_ops.add(math_ops.subtract(1.0, p),
                                                                                     epsilon)))
        return math_ops.negative(math_ops.add(pos, neg))

    return _elementwise_loss("log_loss", "log_loss", labels, predictions, weights, scope,
                             loss_collection, reduction, per_element)


def hinge_loss(labels: Any, logits: Any, weights: Any = 1.0, scope: str | None = None,
               loss_collection: str | None = GraphKeys.LOSSES,
               reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted ``max(0, 1 - (2 y - 1) * logits)`` for 0/1 ``labels``, as
    ``tf.compat.v1.losses.hinge_loss``."""

    def per_element(y: Any, x: Any) -> Any:
        signs = math_ops.subtract(math_ops.multiply(2.0, y), 1.0)
        return nn_ops.relu(math_ops.subtract(1.0, math_ops.multiply(signs, x)))

    _require(labels, logits, "logits")
    return _elementwise_loss("hinge_loss", "hinge_loss", labels, logits, weights, scope,
                             loss_collection, reduction, per_element)


def softmax_cross_entropy(onehot_labels: Any, logits: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: str | None = None, loss_collection: str | None = GraphKeys.LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted softmax cross-entropy, as ``tf.compat.v1.losses.softmax_cross_entropy``.

    Args:
      onehot_labels: ``[batch, num_classes]`` target distributions (cast to
        ``logits``' dtype; no gradient flows into them).
      logits: ``[batch, num_classes]``.
      weights: a scalar or ``[batch]``-broadcastable weights.
      label_smoothing: in ``[0, 1]``: labels become
        ``labels * (1 - s) + s / num_classes``.

    Raises:
      ValueError: ``None`` arguments or incompatible shapes.
    """
    _require(onehot_labels, logits, "logits")
    with op_scope(scope, "softmax_cross_entropy_loss", [logits, onehot_labels, weights]) as s:
        logits = convert_to_tensor(logits)
        labels = math_ops.cast(onehot_labels, logits.dtype)
        _check_shapes(logits, labels, "softmax_cross_entropy")
        if label_smoothing > 0:
            n = _static_shape(labels)[-1] if _static_shape(labels).ndims else None
            num_classes = (
                float(n) if n is not None
                else math_ops.cast(array_ops.shape(labels)[-1], logits.dtype)
            )
            labels = math_ops.add(math_ops.multiply(labels, 1.0 - label_smoothing),
                                  math_ops.divide(label_smoothing, num_classes))
        labels = stop_gradient(labels, name="labels_stop_gradient")
        losses = nn_ops.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction=reduction)


def _remove_squeezable_dimensions(labels: Any, logits: Any, weights: Any) -> tuple[Any, Any]:
    """Drops a trailing size-1 dimension of ``labels`` (and of ``weights``) when
    its rank equals ``logits``' rank, as TF1 does before a sparse loss."""
    lr = _static_shape(labels).ndims
    gr = _static_shape(logits).ndims
    if lr is not None and gr is not None and lr == gr and _static_shape(labels)[-1] in (1, None):
        labels = array_ops.squeeze(labels, [-1])
    if isinstance(weights, Tensor | jax.Array):
        ws = _static_shape(weights)
        if ws.ndims is not None and gr is not None and ws.ndims == gr and ws[-1] in (1, None):
            weights = array_ops.squeeze(weights, [-1])
    return labels, weights


def sparse_softmax_cross_entropy(labels: Any, logits: Any, weights: Any = 1.0, scope: str | None = None,
                                 loss_collection: str | None = GraphKeys.LOSSES,
                                 reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted sparse softmax cross-entropy, as ``tf.compat.v1.losses.sparse_softmax_cross_entropy``.

    Args:
      labels: ``[batch]`` (or ``[batch, 1]``) int class indices.
      logits: ``[batch, num_classes]``.

    Raises:
      ValueError: ``None`` arguments or ranks that do not fit.
    """
    _require(labels, logits, "logits")
    with op_scope(scope, "sparse_softmax_cross_entropy_loss", [logits, labels, weights]) as s:
        labels = convert_to_tensor(labels)
        logits = convert_to_tensor(logits)
        labels, weights = _remove_squeezable_dimensions(labels, logits, weights)
        losses = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction=reduction)


def sigmoid_cross_entropy(multi_class_labels: Any, logits: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: str | None = None, loss_collection: str | None = GraphKeys.LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Any:
    """Weighted sigmoid cross-entropy, as ``tf.compat.v1.losses.sigmoid_cross_entropy``.

    Args:
      multi_class_labels: 0/1 (or probabilities) of ``logits``' shape.
      label_smoothing: labels become ``labels * (1 - s) + 0.5 * s``.

    Raises:
      ValueError: ``None`` arguments or incompatible shapes.
    """
    _require(multi_class_labels, logits, "logits")
    with op_scope(scope, "sigmoid_cross_entropy_loss", [logits, multi_class_labels, weights]) as s:
        logits = convert_to_tensor(logits)
        labels = math_ops.cast(multi_class_labels, logits.dtype)
        _check_shapes(logits, labels, "sigmoid_cross_entropy")
        if label_smoothing > 0:
            labels = math_ops.add(math_ops.multiply(labels, 1.0 - label_smoothing), 0.5 * label_smoothing)
        losses = nn_ops.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction=reduction)


def cosine_distance(labels: Any, predictions: Any, axis: int | None = None, weights: Any = 1.0,
                    scope: str | None = None, loss_collection: str | None = GraphKeys.LOSSES,
                    reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS, dim: int | None = None) -> Any:
    """Weighted ``1 - sum(labels * predictions, axis)`` for unit-normalised inputs,
    as ``tf.compat.v1.losses.cosine_distance``.

    Args:
      labels, predictions: tensors of one shape (cast to float32), already
        unit-normalised along ``axis``.
      axis: the dimension of the cosine (``dim`` is its deprecated name).
      weights: a scalar or a tensor broadcastable to the per-example losses,
        which keep ``axis`` as a size-1 dimension.

    Returns:
      A float32 scalar; with ``Reduction.NONE`` the losses, of ``labels``'
      shape with ``axis`` of size 1.

    Raises:
      ValueError: ``axis`` (and ``dim``), ``labels`` or ``predictions`` is
        None, or the shapes are incompatible.
    """
    if axis is not None and dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'dim'")
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    _require(labels, predictions)
    with op_scope(scope, "cosine_distance_loss", [predictions, labels, weights]) as s:
        predictions = math_ops.cast(predictions, _dtypes.float32)
        labels = math_ops.cast(labels, _dtypes.float32)
        _check_shapes(predictions, labels, "cosine_distance")
        radial_diffs = math_ops.multiply(predictions, labels)
        losses = math_ops.subtract(1.0, math_ops.reduce_sum(radial_diffs, axis=(axis,), keepdims=True))
        return compute_weighted_loss(losses, weights, s, loss_collection, reduction=reduction)


def mean_pairwise_squared_error(labels: Any, predictions: Any, weights: Any = 1.0, scope: str | None = None,
                                loss_collection: str | None = GraphKeys.LOSSES) -> Any:
    """Weighted mean of ``((p_i - p_j) - (y_i - y_j)) ** 2`` over the pairs of
    elements of each example, summed over the batch, as
    ``tf.compat.v1.losses.mean_pairwise_squared_error``.

    Args:
      labels, predictions: ``[batch, d0, ..., dN]`` (cast to float32).
      weights: a scalar or ``[batch]``-broadcastable per-example weights.

    Returns:
      A float32 scalar (0 when no example has a non-zero weight).

    Raises:
      ValueError: ``None`` arguments, incompatible shapes, or ``weights`` that
        do not broadcast.
    """
    _require(labels, predictions)
    with op_scope(scope, "mean_pairwise_squared_error", [predictions, labels, weights]):
        weights = _to_float32(weights)
        labels = math_ops.cast(labels, _dtypes.float32)
        predictions = math_ops.cast(predictions, _dtypes.float32)
        _check_shapes(predictions, labels, "mean_pairwise_squared_error")
        diffs = math_ops.subtract(predictions, labels)
        _check_broadcastable(weights, diffs)
        rank = _static_shape(diffs).ndims
        if rank is None:
            raise ValueError("mean_pairwise_squared_error: the rank of `predictions` must be known.")
        axis = list(range(1, rank))
        present = math_ops.where(math_ops.equal(weights, 0.0), array_ops.zeros_like(weights),
                                 array_ops.ones_like(weights))
        present = math_ops.multiply(present, array_ops.ones_like(diffs))
        num_present = math_ops.reduce_sum(present, axis=axis, keepdims=True)
        sum_squares = math_ops.reduce_sum(math_ops.square(diffs), axis=axis, keepdims=True)
        term1 = math_ops.multiply(2.0, _div_no_nan(sum_squares, math_ops.maximum(num_present - 1.0, 0.0), "value"))
        sum_diff = math_ops.reduce_sum(diffs, axis=axis, keepdims=True)
        pairs = math_ops.maximum(math_ops.multiply(num_present, num_present - 1.0), 0.0)
        term2 = math_ops.multiply(2.0, _div_no_nan(math_ops.square(sum_diff), pairs, "value"))
        loss = math_ops.reduce_sum(math_ops.multiply(math_ops.subtract(term1, term2), weights))
        mean_loss = math_ops.where(math_ops.reduce_sum(num_present) > 0.0, loss, array_ops.zeros_like(loss),
                                   name="value")
        add_loss(mean_loss, loss_collection)
        return mean_loss
