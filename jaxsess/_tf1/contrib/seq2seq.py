"""``jaxsess._tf1.contrib.seq2seq``: TF 1.15's ``tf.contrib.seq2seq``: ``sequence_loss``
(``loss.py``, here), the helpers, ``BasicDecoder`` and ``dynamic_decode``
(:mod:`jaxsess._tf1.contrib._seq2seq_decoder`), the attention mechanisms and
``AttentionWrapper`` (:mod:`jaxsess._tf1.contrib._attention`), ``BeamSearchDecoder``,
``tile_batch`` and ``gather_tree`` (:mod:`jaxsess._tf1.contrib._beam_search`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._graph import name_scope
from jaxsess._tf1.contrib._attention import (
    AttentionMechanism as AttentionMechanism,
    AttentionWrapper as AttentionWrapper,
    AttentionWrapperState as AttentionWrapperState,
    BahdanauAttention as BahdanauAttention,
    LuongAttention as LuongAttention,
)
from jaxsess._tf1.contrib._beam_search import (
    BeamSearchDecoder as BeamSearchDecoder,
    BeamSearchDecoderOutput as BeamSearchDecoderOutput,
    BeamSearchDecoderState as BeamSearchDecoderState,
    FinalBeamSearchDecoderOutput as FinalBeamSearchDecoderOutput,
    gather_tree as gather_tree,
    tile_batch as tile_batch,
)
from jaxsess._tf1.contrib._seq2seq_decoder import (
    BasicDecoder as BasicDecoder,
    BasicDecoderOutput as BasicDecoderOutput,
    CustomHelper as CustomHelper,
    Decoder as Decoder,
    GreedyEmbeddingHelper as GreedyEmbeddingHelper,
    Helper as Helper,
    InferenceHelper as InferenceHelper,
    SampleEmbeddingHelper as SampleEmbeddingHelper,
    ScheduledEmbeddingTrainingHelper as ScheduledEmbeddingTrainingHelper,
    ScheduledOutputTrainingHelper as ScheduledOutputTrainingHelper,
    TrainingHelper as TrainingHelper,
    dynamic_decode as dynamic_decode,
)
from jaxsess._tf1.ops import math_ops as math_ops, nn_ops as nn_ops, shape_ops as shape_ops
from jaxsess._tf1.ops.nn_impl import div_no_nan

__all__ = [
    "AttentionMechanism",
    "AttentionWrapper",
    "AttentionWrapperState",
    "BahdanauAttention",
    "LuongAttention",
    "BasicDecoder",
    "BasicDecoderOutput",
    "BeamSearchDecoder",
    "BeamSearchDecoderOutput",
    "BeamSearchDecoderState",
    "FinalBeamSearchDecoderOutput",
    "CustomHelper",
    "Decoder",
    "GreedyEmbeddingHelper",
    "Helper",
    "InferenceHelper",
    "SampleEmbeddingHelper",
    "ScheduledEmbeddingTrainingHelper",
    "ScheduledOutputTrainingHelper",
    "TrainingHelper",
    "dynamic_decode",
    "gather_tree",
    "sequence_loss",
    "tile_batch",
]


def sequence_loss(
    logits: Any,
    targets: Any,
    weights: Any,
    average_across_timesteps: bool = True,
    average_across_batch: bool = True,
    sum_over_timesteps: bool = False,
    sum_over_batch: bool = False,
    softmax_loss_function: Callable[..., Any] | None = None,
    name: str | None = None,
) -> Any:
    """Weighted cross-entropy of a batch of sequences, as ``tf.contrib.seq2seq.sequence_loss``.

    Args:
      logits: float ``[batch_size, sequence_length, num_classes]``.
      targets: int ``[batch_size, sequence_length]``, the true classes.
      weights: float ``[batch_size, sequence_length]`` (0 masks a step).
      average_across_timesteps, average_across_batch: sum over that dimension
        and divide by the total weight there (``div_no_nan``).
      sum_over_timesteps, sum_over_batch: sum over that dimension and divide
        by the number of non-zero weights there.
      softmax_loss_function: ``fn(labels=, logits=)`` replacing
        ``sparse_softmax_cross_entropy_with_logits`` (on flattened steps).

    Returns:
      A float tensor of rank 0, 1 (``[sequence_length]`` or ``[batch_size]``)
      or 2, by the flags; by default the weighted mean per symbol.

    Raises:
      ValueError: an argument of the wrong rank, or both the average and the
        sum flag set for one dimension (TF's messages).
    """
    logits, targets, weights = (convert_to_tensor(t) for t in (logits, targets, weights))
    if len(logits.get_shape()) != 3:
        raise ValueError("Logits must be a [batch_size x sequence_length x logits] tensor")
    if len(targets.get_shape()) != 2:
        raise ValueError("Targets must be a [batch_size x sequence_length] tensor")
    if len(weights.get_shape()) != 2:
        raise ValueError("Weights must be a [batch_size x sequence_length] tensor")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to True at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at same time.")
    with name_scope(name, "sequence_loss", [logits, targets, weights]):
        num_classes = shape_ops.shape(logits)[2]
        logits_flat = shape_ops.reshape(logits, [-1, num_classes])
        targets = shape_ops.reshape(targets, [-1])
        if softmax_loss_function is None:
            crossent = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits_flat)
        else:
            crossent = softmax_loss_function(labels=targets, logits=logits_flat)
        crossent *= shape_ops.reshape(weights, [-1])
        if average_across_timesteps and average_across_batch:
            crossent = math_ops.reduce_sum(crossent)
            total_size = math_ops.reduce_sum(weights)
            crossent = div_no_nan(crossent, total_size)
        elif sum_over_timesteps and sum_over_batch:
            crossent = math_ops.reduce_sum(crossent)
            total_count = math_ops.cast(math_ops.count_nonzero(weights), crossent.dtype)
            crossent = div_no_nan(crossent, total_count)
        else:
            crossent = shape_ops.reshape(crossent, shape_ops.shape(logits)[0:2])
            if average_across_timesteps or average_across_batch:
                reduce_axis = [0] if average_across_batch else [1]
                crossent = math_ops.reduce_sum(crossent, axis=reduce_axis)
                total_size = math_ops.reduce_sum(weights, axis=reduce_axis)
                crossent = div_no_nan(crossent, total_size)
            elif sum_over_timesteps or sum_over_batch:
                reduce_axis = [0] if sum_over_batch else [1]
                crossent = math_ops.reduce_sum(crossent, axis=reduce_axis)
                total_count = math_ops.cast(math_ops.count_nonzero(weights, axis=reduce_axis), dtype=crossent.dtype)
                crossent = div_no_nan(crossent, total_count)
        return crossent
