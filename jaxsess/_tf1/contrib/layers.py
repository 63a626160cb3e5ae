"""The common names of ``tf.contrib.layers`` (TF 1.x), as aliases of jaxsess's layers
and initializers."""

from __future__ import annotations

from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor, identity
from jaxsess._core.graph._graph import GraphKeys, Tensor, control_dependencies, get_default_graph
from jaxsess._tf1.contrib._slim import (
    apply_regularization as apply_regularization,
    avg_pool2d as avg_pool2d,
    batch_norm as batch_norm,
    conv2d as conv2d,
    dropout as dropout,
    flatten as flatten,
    fully_connected as fully_connected,
    l1_l2_regularizer as l1_l2_regularizer,
    l1_regularizer as l1_regularizer,
    l2_regularizer as l2_regularizer,
    layer_norm as layer_norm,
    max_pool2d as max_pool2d,
    one_hot_encoding as one_hot_encoding,
    sum_regularizer as sum_regularizer,
    variance_scaling_initializer as variance_scaling_initializer,
)
from jaxsess._tf1.contrib.framework import model_variable
from jaxsess._tf1.ops.clip_ops import clip_by_global_norm, global_norm
from jaxsess._tf1.ops.init_ops import Constant, VarianceScaling
from jaxsess._tf1.ops.nn_ops import embedding_lookup
from jaxsess._tf1.ops.variable_scope import get_variable, variable_scope
from jaxsess._tf1.summary import _ops as summary_ops
from jaxsess._tf1.train._global_step import get_global_step
from jaxsess._tf1.train._optimizers import (
    AdagradOptimizer,
    AdamOptimizer,
    GradientDescentOptimizer,
    MomentumOptimizer,
    Optimizer,
    RMSPropOptimizer,
)
from jaxsess._tf1.train._proximal import FtrlOptimizer

__all__ = ["flatten", "xavier_initializer", "xavier_initializer_conv2d", "fully_connected", "conv2d", "max_pool2d",
           "avg_pool2d", "batch_norm", "layer_norm", "dropout", "one_hot_encoding", "l1_regularizer", "l2_regularizer",
           "l1_l2_regularizer", "sum_regularizer", "apply_regularization", "variance_scaling_initializer",
           "embed_sequence", "optimize_loss", "OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES"]


def xavier_initializer(uniform: bool = True, seed: int | None = None, dtype: Any = _dtypes.float32) -> VarianceScaling:
    """Glorot (Xavier) initialization, as ``tf.contrib.layers.xavier_initializer``:
    ``variance_scaling(1.0, 'fan_avg', 'uniform' if uniform else 'truncated_normal')``."""
    return VarianceScaling(1.0, "fan_avg", "uniform" if uniform else "truncated_normal", seed=seed, dtype=dtype)


xavier_initializer_conv2d = xavier_initializer


def embed_sequence(ids: Any, vocab_size: int | None = None, embed_dim: int | None = None, unique: bool = False,
                   initializer: Any = None, regularizer: Any = None, trainable: bool = True, scope: Any = None,
                   reuse: Any = None) -> Any:
    """Embeds the int ``ids`` ``[batch, steps]`` -> ``[batch, steps, embed_dim]`` through a model
    variable ``<scope>/embeddings`` ``[vocab_size, embed_dim]`` (scope default ``EmbedSequence``),
    as ``tf.contrib.layers.embed_sequence`` (``unique`` looks up the same rows).

    Raises:
      ValueError: ``vocab_size`` or ``embed_dim`` missing.
    """
    if not (vocab_size and embed_dim):
        raise ValueError("Must specify both `vocab_size` and `embed_dim`.")
    with variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
        embeddings = model_variable("embeddings", shape=[vocab_size, embed_dim], initializer=initializer,
                                    regularizer=regularizer, trainable=trainable)
        return embedding_lookup(embeddings, ids)


OPTIMIZER_CLS_NAMES: dict[str, Any] = {
    "Adagrad": AdagradOptimizer,
    "Adam": AdamOptimizer,
    "Ftrl": FtrlOptimizer,
    "Momentum": lambda learning_rate: MomentumOptimizer(learning_rate, momentum=0.9),
    "RMSProp": RMSPropOptimizer,
    "SGD": GradientDescentOptimizer,
}
OPTIMIZER_SUMMARIES = ["learning_rate", "loss", "gradients", "gradient_norm", "global_gradient_norm"]


def optimize_loss(loss: Any, global_step: Any, learning_rate: Any, optimizer: Any, gradient_noise_scale: Any = None,
                  gradient_multipliers: dict[Any, Any] | None = None, clip_gradients: Any = None,
                  learning_rate_decay_fn: Any = None, update_ops: Any = None, variables: Any = None,
                  name: str | None = None, summaries: Any = None, colocate_gradients_with_ops: bool = False,
                  increment_global_step: bool = True) -> Any:
    """Builds the training op of ``loss``, as ``tf.contrib.layers.optimize_loss``: runs ``update_ops``
    (default: the ``UPDATE_OPS`` collection) first, makes a float learning rate the non-trainable
    variable ``OptimizeLoss/learning_rate``, applies ``learning_rate_decay_fn(lr, global_step)``,
    builds the optimizer (a name of :data:`OPTIMIZER_CLS_NAMES`, an ``Optimizer`` class or
    instance, or ``fn(lr)``), multiplies gradients by ``gradient_multipliers``, clips them
    (``clip_gradients``: a float global norm, or ``fn(grads_and_vars)``), writes the ``summaries``
    (default: ``loss``, ``learning_rate``, ``global_gradient_norm``) and applies them.

    Returns:
      A scalar tensor that runs one step and evaluates ``loss``.

    Raises:
      ValueError: an unknown optimizer name; no learning rate for a named optimizer or class;
        no trainable variables; ``gradient_noise_scale`` (not supported).
    """
    if gradient_noise_scale is not None:
        raise ValueError("optimize_loss: jaxsess does not support gradient_noise_scale.")
    loss = convert_to_tensor(loss)
    if global_step is None:
        global_step = get_global_step()
    with variable_scope(name, "OptimizeLoss", [loss, global_step]):
        if update_ops is None:
            update_ops = set(get_default_graph().get_collection(GraphKeys.UPDATE_OPS))
        if update_ops:
            with control_dependencies(list(update_ops)):
                loss = identity(loss)
        lr = None
        if learning_rate is not None:
            if isinstance(learning_rate, Tensor) and learning_rate.get_shape().ndims == 0:
                lr = learning_rate
            elif isinstance(learning_rate, float | int):
                if learning_rate < 0.0:
                    raise ValueError(f"Invalid learning_rate {learning_rate}.")
                lr = get_variable("learning_rate", [], trainable=False,
                                  initializer=Constant(float(learning_rate)))
            else:
                raise ValueError(f"Learning rate should be 0d Tensor or float. Got {learning_rate!r}")
        if summaries is None:
            summaries = ["loss", "learning_rate", "global_gradient_norm"]
        if learning_rate is not None and learning_rate_decay_fn is not None:
            if global_step is None:
                raise ValueError("global_step is required for learning_rate_decay_fn.")
            lr = learning_rate_decay_fn(lr, global_step)
            if "learning_rate" in summaries:
                summary_ops.scalar("learning_rate", lr)
        elif lr is not None and "learning_rate" in summaries:
            summary_ops.scalar("learning_rate", lr)
        opt = _make_optimizer(optimizer, lr)
        if variables is None:
            variables = get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES)
        if not variables:
            raise ValueError("No variables to optimize.")
        gradients = opt.compute_gradients(loss, variables,
                                          colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gradient_multipliers is not None:
            gradients = _multiply_gradients(gradients, gradient_multipliers)
            if not gradients:
                raise ValueError("Empty list of (gradient, var) pairs encountered.")
        if "global_gradient_norm" in summaries or "gradient_norm" in summaries:
            summary_ops.scalar("global_norm/gradient_norm", global_norm([g for g, _ in gradients]))
        if isinstance(clip_gradients, float | int):
            grads, norm = clip_by_global_norm([g for g, _ in gradients], clip_gradients)
            gradients = list(zip(grads, [v for _, v in gradients], strict=True))
            if "global_gradient_norm" in summaries or "gradient_norm" in summaries:
                summary_ops.scalar("global_norm/clipped_gradient_norm", global_norm(grads))
            del norm
        elif callable(clip_gradients):
            gradients = clip_gradients(gradients)
        elif clip_gradients is not None:
            raise ValueError(f"Unknown type {type(clip_gradients)} for clip_gradients")
        if "loss" in summaries:
            summary_ops.scalar("loss", loss)
        grad_updates = opt.apply_gradients(gradients, global_step=global_step if increment_global_step else None,
                                           name="train")
        with control_dependencies([grad_updates]):
            return identity(loss)


def _make_optimizer(optimizer: Any, lr: Any) -> Any:
    if isinstance(optimizer, str):
        if optimizer not in OPTIMIZER_CLS_NAMES:
            raise ValueError(f"Optimizer name should be one of [{', '.join(OPTIMIZER_CLS_NAMES)}], "
                             f"you provided {optimizer}.")
        if lr is None:
            raise ValueError(f"Learning rate is None, but should be specified if optimizer is string ({optimizer}).")
        return OPTIMIZER_CLS_NAMES[optimizer](learning_rate=lr)
    if isinstance(optimizer, type) and issubclass(optimizer, Optimizer):
        if lr is None:
            raise ValueError(f"Learning rate is None, but should be specified if optimizer is class ({optimizer}).")
        cls: Any = optimizer
        return cls(learning_rate=lr)
    if isinstance(optimizer, Optimizer):
        return optimizer
    if callable(optimizer):
        opt = optimizer(lr) if lr is not None else optimizer()
        if not isinstance(opt, Optimizer):
            raise ValueError(f"Unrecognized optimizer: function should return subclass of Optimizer. Got {opt}.")
        return opt
    raise ValueError(f"Unrecognized optimizer: should be string, subclass of Optimizer, instance of subclass of "
                     f"Optimizer or function with one argument. Got {optimizer}.")


def _multiply_gradients(grads_and_vars: list[tuple[Any, Any]], multipliers: dict[Any, Any]) -> list[tuple[Any, Any]]:
    out = []
    for grad, var in grads_and_vars:
        key = var if var in multipliers else var.op.name
        if grad is not None and key in multipliers:
            grad = grad * convert_to_tensor(multipliers[key], grad.dtype)
        out.append((grad, var))
    return out
