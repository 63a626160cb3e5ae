"""``jaxsess._tf1.contrib.legacy_seq2seq``: the list-of-tensors sequence-to-sequence
functions of TF1's ``tf.contrib.legacy_seq2seq`` (``rnn_decoder``,
``basic_rnn_seq2seq``, ``tied_rnn_seq2seq``, ``embedding_rnn_decoder``,
``sequence_loss_by_example``, ``sequence_loss``), with its variable scopes and
op names (``tensorflow/contrib/legacy_seq2seq/python/ops/seq2seq.py``, TF 1.15).

Every sequence is a Python list with one ``[batch_size, ...]`` tensor per time
step, as in TF; the decoders are unrolled in the graph (``static_rnn`` style).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor, stop_gradient
from jaxsess._core.graph._graph import name_scope
from jaxsess._tf1.ops import math_ops as math_ops, nn_ops as nn_ops, shape_ops as shape_ops
from jaxsess._tf1.ops.rnn import static_rnn
from jaxsess._tf1.ops.variable_scope import get_variable, get_variable_scope, variable_scope

__all__ = [
    "basic_rnn_seq2seq",
    "embedding_rnn_decoder",
    "rnn_decoder",
    "sequence_loss",
    "sequence_loss_by_example",
    "tied_rnn_seq2seq",
]

LoopFunction = Callable[[Any, int], Any]


def rnn_decoder(
    decoder_inputs: Iterable[Any],
    initial_state: Any,
    cell: Any,
    loop_function: LoopFunction | None = None,
    scope: Any = None,
) -> tuple[list[Any], Any]:
    """Runs ``cell`` over ``decoder_inputs`` from ``initial_state``, as
    ``tf.contrib.legacy_seq2seq.rnn_decoder``.

    Args:
      decoder_inputs: ``[batch_size, input_size]`` tensors, one per step.
      initial_state: the cell's state (a tensor or a state tuple).
      cell: an ``RNNCell``; its variables are created at the first step and
        reused at the others.
      loop_function: ``(prev_output, i) -> next_input``; when given, every
        input but the first (the "GO" symbol) is made from the previous output.
      scope: variable scope (default ``"rnn_decoder"``).

    Returns:
      ``(outputs, state)``: one ``[batch_size, cell.output_size]`` output per
      step, and the state after the last step.
    """
    with variable_scope(scope or "rnn_decoder"):
        state = initial_state
        outputs: list[Any] = []
        prev = None
        for i, inp in enumerate(decoder_inputs):
            if loop_function is not None and prev is not None:
                with variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            if i > 0:
                get_variable_scope().reuse_variables()
            output, state = cell(inp, state)
            outputs.append(output)
            if loop_function is not None:
                prev = output
    return outputs, state


def basic_rnn_seq2seq(
    encoder_inputs: Sequence[Any],
    decoder_inputs: Sequence[Any],
    cell: Any,
    dtype: Any = _dtypes.float32,
    scope: Any = None,
) -> tuple[list[Any], Any]:
    """Encodes ``encoder_inputs`` with a copy of ``cell`` (``static_rnn``),
    then decodes ``decoder_inputs`` from its final state with ``cell``; the
    two do not share variables. As ``tf.contrib.legacy_seq2seq.basic_rnn_seq2seq``.

    Returns:
      ``(outputs, state)`` of :func:`rnn_decoder`.
    """
    with variable_scope(scope or "basic_rnn_seq2seq"):
        enc_cell = copy.deepcopy(cell)
        _, enc_state = static_rnn(enc_cell, list(encoder_inputs), dtype=dtype)
        return rnn_decoder(decoder_inputs, enc_state, cell)


def tied_rnn_seq2seq(
    encoder_inputs: Sequence[Any],
    decoder_inputs: Sequence[Any],
    cell: Any,
    loop_function: LoopFunction | None = None,
    dtype: Any = _dtypes.float32,
    scope: Any = None,
) -> tuple[list[Any], Any]:
    """As :func:`basic_rnn_seq2seq`, with encoder and decoder sharing ``cell``'s
    variables (scope ``combined_tied_rnn_seq2seq/<scope or tied_rnn_seq2seq>``),
    as ``tf.contrib.legacy_seq2seq.tied_rnn_seq2seq``."""
    with variable_scope("combined_tied_rnn_seq2seq"):
        scope = scope or "tied_rnn_seq2seq"
        _, enc_state = static_rnn(cell, list(encoder_inputs), dtype=dtype, scope=scope)
        get_variable_scope().reuse_variables()
        return rnn_decoder(decoder_inputs, enc_state, cell, loop_function=loop_function, scope=scope)


def _extract_argmax_and_embed(
    embedding: Any, output_projection: tuple[Any, Any] | None = None, update_embedding: bool = True
) -> LoopFunction:
    """The greedy loop function: embeds the argmax of the (projected) previous output."""

    def loop_function(prev: Any, _: int) -> Any:
        if output_projection is not None:
            prev = nn_ops.xw_plus_b(prev, output_projection[0], output_projection[1])
        prev_symbol = math_ops.argmax(prev, 1)
        emb_prev = nn_ops.embedding_lookup(embedding, prev_symbol)
        if not update_embedding:
            emb_prev = stop_gradient(emb_prev)
        return emb_prev

    return loop_function


def embedding_rnn_decoder(
    decoder_inputs: Sequence[Any],
    initial_state: Any,
    cell: Any,
    num_symbols: int,
    embedding_size: int,
    output_projection: tuple[Any, Any] | None = None,
    feed_previous: bool = False,
    update_embedding_for_previous: bool = True,
    scope: Any = None,
) -> tuple[list[Any], Any]:
    """:func:`rnn_decoder` over embedded symbols, as
    ``tf.contrib.legacy_seq2seq.embedding_rnn_decoder``.

    Args:
      decoder_inputs: ``int32 [batch_size]`` symbol tensors, one per step.
      num_symbols, embedding_size: the shape of the ``embedding`` variable it
        creates (``[num_symbols, embedding_size]``, TF's default initializer).
      output_projection: ``(W, B)`` applied to an output before its argmax
        when ``feed_previous`` (``W: [output_size, num_symbols]``).
      feed_previous: a Python bool; True decodes greedily (every input but the
        first is the embedded argmax of the previous output).
      update_embedding_for_previous: False stops gradients through the
        embeddings of fed-back symbols.

    Raises:
      ValueError: ``output_projection`` of incompatible shape.
    """
    with variable_scope(scope or "embedding_rnn_decoder") as vs:
        if output_projection is not None:
            dtype = vs.dtype
            proj_weights = convert_to_tensor(output_projection[0], dtype=dtype)
            proj_weights.get_shape().assert_is_compatible_with([None, num_symbols])
            proj_biases = convert_to_tensor(output_projection[1], dtype=dtype)
            proj_biases.get_shape().assert_is_compatible_with([num_symbols])
        embedding = get_variable("embedding", [num_symbols, embedding_size])
        loop_function = (
            _extract_argmax_and_embed(embedding, output_projection, update_embedding_for_previous)
            if feed_previous
            else None
        )
        emb_inp = (nn_ops.embedding_lookup(embedding, i) for i in decoder_inputs)
        return rnn_decoder(emb_inp, initial_state, cell, loop_function=loop_function)


def sequence_loss_by_example(
    logits: Sequence[Any],
    targets: Sequence[Any],
    weights: Sequence[Any],
    average_across_timesteps: bool = True,
    softmax_loss_function: Callable[..., Any] | None = None,
    name: str | None = None,
) -> Any:
    """The weighted cross-entropy of each sequence, as
    ``tf.contrib.legacy_seq2seq.sequence_loss_by_example``.

    Args:
      logits: ``[batch_size, num_symbols]`` float tensors, one per step.
      targets: ``int [batch_size]`` tensors, one per step.
      weights: ``float [batch_size]`` tensors, one per step (0 masks a step).
      average_across_timesteps: divide each sequence's sum by its total weight
        (plus ``1e-12``).
      softmax_loss_function: ``fn(labels=, logits=)`` replacing
        ``sparse_softmax_cross_entropy_with_logits``.

    Returns:
      A ``[batch_size]`` float tensor: each sequence's log-perplexity.

    Raises:
      ValueError: the three lists differ in length (TF's message).
    """
    if len(targets) != len(logits) or len(weights) != len(logits):
        raise ValueError(
            "Lengths of logits, weights, and targets must be the same "
            f"{len(logits)}, {len(weights)}, {len(targets)}."
        )
    with name_scope(name, "sequence_loss_by_example", list(logits) + list(targets) + list(weights)):
        log_perp_list = []
        for logit, target, weight in zip(logits, targets, weights, strict=True):
            if softmax_loss_function is None:
                target = shape_ops.reshape(target, [-1])
                crossent = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=target, logits=logit)
            else:
                crossent = softmax_loss_function(labels=target, logits=logit)
            log_perp_list.append(crossent * weight)
        log_perps = math_ops.add_n(log_perp_list)
        if average_across_timesteps:
            total_size = math_ops.add_n(list(weights))
            total_size += 1e-12  # as TF: no division by 0 for all-0 weights
            log_perps /= total_size
    return log_perps


def sequence_loss(
    logits: Sequence[Any],
    targets: Sequence[Any],
    weights: Sequence[Any],
    average_across_timesteps: bool = True,
    average_across_batch: bool = True,
    softmax_loss_function: Callable[..., Any] | None = None,
    name: str | None = None,
) -> Any:
    """The sum of :func:`sequence_loss_by_example` over the batch, divided by
    the batch size when ``average_across_batch``: a float scalar, as
    ``tf.contrib.legacy_seq2seq.sequence_loss``."""
    with name_scope(name, "sequence_loss", list(logits) + list(targets) + list(weights)):
        cost = math_ops.reduce_sum(
            sequence_loss_by_example(
                logits,
                targets,
                weights,
                average_across_timesteps=average_across_timesteps,
                softmax_loss_function=softmax_loss_function,
            )
        )
        if average_across_batch:
            batch_size = shape_ops.shape(targets[0])[0]
            return cost / math_ops.cast(batch_size, cost.dtype)
        return cost
