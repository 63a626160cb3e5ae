"""``tf.contrib.seq2seq``'s beam search: ``BeamSearchDecoder``, ``tile_batch``
and ``gather_tree`` (TF 1.15's ``tensorflow/contrib/seq2seq/python/ops/
beam_search_decoder.py`` and the ``GatherTree`` kernel of
``beam_search_ops.cc``).

``dynamic_decode`` needs ``maximum_iterations`` known when the graph is built
for a ``BeamSearchDecoder`` (see :mod:`jaxsess._tf1.contrib._seq2seq_decoder`).

Imports: ``graph/``, ``ops/``, ``nest``, ``contrib._seq2seq_decoder``,
``contrib._attention``.
"""

from __future__ import annotations

import collections
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, constant_value, convert_to_tensor
from jaxsess._core.graph._graph import name_scope
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1 import nest as nest
from jaxsess._tf1.contrib._attention import AttentionWrapperState
from jaxsess._tf1.contrib._seq2seq_decoder import Decoder, _as_shape
from jaxsess._tf1.ops.control_flow import cond
from jaxsess._tf1.ops.fill_ops import fill, ones_like, range as _range, zeros
from jaxsess._tf1.ops.gather_ops import gather, gather_nd, one_hot
from jaxsess._tf1.ops.indexing_ops import sequence_mask
from jaxsess._tf1.ops.math_ops import (
    cast,
    equal,
    floordiv,
    floormod,
    log,
    logical_not,
    logical_or,
    minimum,
    reduce_all,
    reduce_max,
    reduce_mean,
    reduce_sum,
    where,
)
from jaxsess._tf1.ops.nn_ops import embedding_lookup, log_softmax, top_k
from jaxsess._tf1.ops.shape_ops import concat, expand_dims, reshape, shape, size, stack, tile, transpose
from jaxsess._tf1.ops.tensor_array_ops import TensorArray

__all__ = [
    "BeamSearchDecoder",
    "BeamSearchDecoderOutput",
    "BeamSearchDecoderState",
    "FinalBeamSearchDecoderOutput",
    "gather_tree",
    "tile_batch",
]


class BeamSearchDecoderState(collections.namedtuple(
        "BeamSearchDecoderState", ("cell_state", "log_probs", "finished", "lengths", "accumulated_attention_probs"))):
    """The beam search's state: the cell's state (``[batch_size, beam_width, ...]``), the beams'
    log probabilities, finished flags, int64 lengths, and the accumulated attention (coverage penalty)."""

    __slots__ = ()


class BeamSearchDecoderOutput(collections.namedtuple("BeamSearchDecoderOutput",
                                                     ("scores", "predicted_ids", "parent_ids"))):
    """One step's beam scores, word ids and parent beams, each ``[batch_size, beam_width]``."""

    __slots__ = ()


class FinalBeamSearchDecoderOutput(collections.namedtuple("FinalBeamDecoderOutput",
                                                          ["predicted_ids", "beam_search_decoder_output"])):
    """``predicted_ids``: int32 ``[batch_size, T, beam_width]`` (time major: ``[T, batch_size,
    beam_width]``), beams best first; and the per-step :class:`BeamSearchDecoderOutput`."""

    __slots__ = ()


# -- GatherTree --------------------------------------------------------------------------------------


@register_op("GatherTree", default_name="GatherTree")
def _gather_tree(step_ids: Any, parent_ids: Any, max_sequence_lengths: Any, end_token: Any) -> Any:
    max_time, _, beam_width = step_ids.shape
    msl = jnp.minimum(max_sequence_lengths.astype(jnp.int32), max_time)[:, None]  # [batch, 1]
    beams = jnp.broadcast_to(jnp.arange(beam_width, dtype=jnp.int32), step_ids.shape[1:])
    end = end_token.astype(step_ids.dtype)

    def back(cur: Any, t: Any) -> Any:
        idx = jnp.where(t >= msl - 1, beams, cur)
        idx = jnp.clip(idx, 0, beam_width - 1)
        ids = jnp.take_along_axis(step_ids[t], idx, axis=1)
        out = jnp.where(t < msl, ids, end)
        return jnp.take_along_axis(parent_ids[t], idx, axis=1).astype(jnp.int32), out

    _, outs = jax.lax.scan(back, beams, jnp.arange(max_time - 1, -1, -1))
    outs = outs[::-1]
    is_end = (outs == end).astype(jnp.int32)
    after_end = (jnp.cumsum(is_end, axis=0) - is_end) > 0
    return jnp.where(after_end, end, outs)


def gather_tree(step_ids: Any, parent_ids: Any, max_sequence_lengths: Any, end_token: Any,
                name: str | None = None) -> Any:
    """The full beams from per-step ids and parent beams, as ``tf.contrib.seq2seq.gather_tree``.

    Args:
      step_ids, parent_ids: int32 ``[max_time, batch_size, beam_width]``.
      max_sequence_lengths: int32 ``[batch_size]``; later steps become ``end_token``.
      end_token: int32 scalar; the steps after a beam's first ``end_token`` become ``end_token``.

    Returns:
      int32 ``[max_time, batch_size, beam_width]``: for each final beam, its ids traced back
      through the parents. Parent ids out of ``[0, beam_width)`` are clipped (TF: InvalidArgumentError).

    Raises:
      ValueError: ``step_ids`` is not of rank 3 or the shapes differ.
    """
    step_ids = convert_to_tensor(step_ids, name="step_ids")
    parent_ids = convert_to_tensor(parent_ids, dtype=step_ids.dtype, name="parent_ids")
    lengths = convert_to_tensor(max_sequence_lengths, dtype=_dtypes.int32, name="max_sequence_lengths")
    end = convert_to_tensor(end_token, dtype=step_ids.dtype, name="end_token")
    s = TensorShape(step_ids.shape)
    if s.ndims != 3 or not s.is_compatible_with(TensorShape(parent_ids.shape)):
        raise ValueError(f"gather_tree: step_ids and parent_ids must both have shape [max_time, batch_size, "
                         f"beam_width], got {s} and {TensorShape(parent_ids.shape)}")
    return apply_op("GatherTree", (step_ids, parent_ids, lengths, end), {}, name=name)


def _tile_batch(t: Any, multiplier: int) -> Any:
    t = convert_to_tensor(t, name="t")
    shape_t = shape(t)
    static = TensorShape(t.shape)
    if static.ndims is None or static.ndims < 1:
        raise ValueError("t must have statically known rank")
    tiling = [1] * (static.ndims + 1)
    tiling[1] = multiplier
    tiled_static_batch_size = static[0] * multiplier if static[0] is not None else None
    tiled = tile(expand_dims(t, 1), tiling)
    tiled = reshape(tiled, concat(([shape_t[0] * multiplier], shape_t[1:]), 0))
    tiled.set_shape(TensorShape([tiled_static_batch_size]).concatenate(static[1:]))
    return tiled


def tile_batch(t: Any, multiplier: int, name: str | None = None) -> Any:
    """Repeats each batch entry ``multiplier`` times in place, as ``tf.contrib.seq2seq.tile_batch``:
    ``[batch_size, ...]`` becomes ``[batch_size * multiplier, ...]`` holding ``t[0], t[0], ..., t[1], ...``
    (for every tensor of a nested structure).

    Raises:
      ValueError: a tensor's rank is unknown or 0.
    """
    with name_scope(name, "tile_batch"):
        return nest.map_structure(lambda t_: _tile_batch(t_, multiplier), t)


def gather_tree_from_array(t: Any, parent_ids: Any, sequence_length: Any) -> Any:
    """Reorders a stacked ``[max_time, batch_size * beam_width, ...]`` tensor along the beams of
    ``gather_tree`` (``parent_ids`` ``[max_time, batch_size, beam_width]``)."""
    ps = TensorShape(parent_ids.shape)
    max_time = ps[0] if ps[0] is not None else shape(parent_ids)[0]
    batch_size = ps[1] if ps[1] is not None else shape(parent_ids)[1]
    beam_width = ps[2] if ps[2] is not None else shape(parent_ids)[2]
    beam_ids = expand_dims(expand_dims(_range(beam_width), 0), 0)
    beam_ids = tile(beam_ids, [max_time, batch_size, 1])
    max_sequence_lengths = cast(reduce_max(sequence_length, axis=1), _dtypes.int32)
    sorted_beam_ids = gather_tree(beam_ids, parent_ids, max_sequence_lengths, beam_width + 1)
    in_bound_steps = transpose(sequence_mask(sequence_length, maxlen=max_time), perm=[2, 0, 1])
    sorted_beam_ids = where(in_bound_steps, sorted_beam_ids, beam_ids)
    time_ind = tile(reshape(_range(max_time), [-1, 1, 1]), [1, batch_size, beam_width])
    batch_ind = transpose(tile(reshape(_range(batch_size), [-1, 1, 1]), [1, max_time, beam_width]), perm=[1, 0, 2])
    indices = stack([time_ind, batch_ind, sorted_beam_ids], -1)
    final_shape = shape(t)
    ordered = gather_nd(reshape(t, [max_time, batch_size, beam_width, -1]), indices)
    return reshape(ordered, final_shape)


def _check_ndims(t: Any) -> int:
    ndims = TensorShape(t.shape).ndims
    if ndims is None:
        raise ValueError(f"Expected tensor ({t}) to have known rank, but ndims == None.")
    return ndims


class BeamSearchDecoder(Decoder):
    """Beam search over an RNN cell, as ``tf.contrib.seq2seq.BeamSearchDecoder``.

    With an ``AttentionWrapper``: tile the memory, its lengths and the
    encoder state with :func:`tile_batch` and make the wrapper's zero state
    for ``batch_size * beam_width``.

    Args:
      cell: an ``RNNCell``.
      embedding: a ``[vocab_size, depth]`` params tensor or a callable ``ids -> inputs``.
      start_tokens: int32 ``[batch_size]``; end_token: int32 scalar.
      initial_state: the cell's state for ``batch_size * beam_width`` entries.
      beam_width: Python int.
      output_layer: optional layer on the cell's output (the logits).
      length_penalty_weight: GNMT's length penalty ``((5 + len) / 6) ** w`` (0: off).
      coverage_penalty_weight: GNMT's coverage penalty (needs an attentional cell; 0: off).
      reorder_tensor_arrays: reorder the ``TensorArray``s of the cell state
        (alignment histories) along the final beams, returned stacked.

    Raises:
      TypeError: ``cell`` is not an RNNCell, ``output_layer`` not a layer.
      ValueError: ``start_tokens`` is not a vector or ``end_token`` not a scalar.
    """

    def __init__(self, cell: Any, embedding: Any, start_tokens: Any, end_token: Any, initial_state: Any,
                 beam_width: int, output_layer: Any = None, length_penalty_weight: float = 0.0,
                 coverage_penalty_weight: float = 0.0, reorder_tensor_arrays: bool = True) -> None:
        if not all(hasattr(cell, a) for a in ("output_size", "state_size")) or not callable(cell):
            raise TypeError(f"cell must be an RNNCell, received: {type(cell)}")
        if output_layer is not None and not callable(output_layer):
            raise TypeError(f"output_layer must be a Layer, received: {type(output_layer)}")
        self._cell = cell
        self._output_layer = output_layer
        self._reorder_tensor_arrays = reorder_tensor_arrays
        self._beam_width = beam_width
        self._length_penalty_weight = length_penalty_weight
        self._coverage_penalty_weight = coverage_penalty_weight
        if callable(embedding):
            self._embedding_fn = embedding
        else:
            self._embedding_fn = lambda ids: embedding_lookup(embedding, ids)
        self._start_tokens = convert_to_tensor(start_tokens, dtype=_dtypes.int32, name="start_tokens")
        if self._start_tokens.get_shape().ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._end_token = convert_to_tensor(end_token, dtype=_dtypes.int32, name="end_token")
        if self._end_token.get_shape().ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._batch_size = size(start_tokens)
        self._initial_cell_state = nest.map_structure(self._maybe_split_batch_beams, initial_state,
                                                      self._cell.state_size)
        self._start_tokens = tile(expand_dims(self._start_tokens, 1), [1, self._beam_width])
        self._start_inputs = self._embedding_fn(self._start_tokens)
        self._finished = one_hot(zeros([self._batch_size], dtype=_dtypes.int32), depth=self._beam_width,
                                 on_value=False, off_value=True, dtype=_dtypes.bool)

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    def _rnn_output_size(self) -> Any:
        size_ = self._cell.output_size
        if self._output_layer is None:
            return size_
        with_batch = nest.map_structure(lambda s: TensorShape([None]).concatenate(_as_shape(s)), size_)
        layer_output_shape = self._output_layer.compute_output_shape(with_batch)
        return nest.map_structure(lambda s: TensorShape(s)[1:], layer_output_shape)

    @property
    def tracks_own_finished(self) -> bool:
        """True: the beams are reordered each step, with their finished flags."""
        return True

    @property
    def output_size(self) -> BeamSearchDecoderOutput:
        w = TensorShape([self._beam_width])
        return BeamSearchDecoderOutput(scores=w, predicted_ids=w, parent_ids=w)

    @property
    def output_dtype(self) -> BeamSearchDecoderOutput:
        dtype = nest.flatten(self._initial_cell_state)[0].dtype
        return BeamSearchDecoderOutput(scores=nest.map_structure(lambda _: dtype, self._rnn_output_size()),
                                       predicted_ids=_dtypes.int32, parent_ids=_dtypes.int32)

    def initialize(self, name: str | None = None) -> tuple[Any, Any, Any]:
        dtype = nest.flatten(self._initial_cell_state)[0].dtype
        log_probs = one_hot(zeros([self._batch_size], dtype=_dtypes.int32), depth=self._beam_width,
                            on_value=convert_to_tensor(0.0, dtype=dtype),
                            off_value=convert_to_tensor(-np.inf, dtype=dtype), dtype=dtype)
        init_attention_probs = _get_attention_probs(self._initial_cell_state, self._coverage_penalty_weight)
        initial_state = BeamSearchDecoderState(
            cell_state=self._initial_cell_state, log_probs=log_probs, finished=self._finished,
            lengths=zeros([self._batch_size, self._beam_width], dtype=_dtypes.int64),
            accumulated_attention_probs=() if init_attention_probs is None else init_attention_probs)
        return self._finished, self._start_inputs, initial_state

    def finalize(self, outputs: Any, final_state: Any, sequence_lengths: Any) -> tuple[Any, Any]:
        """The beams traced back with :func:`gather_tree` (the state's lengths; ``sequence_lengths`` unused)."""
        max_sequence_lengths = cast(reduce_max(final_state.lengths, axis=1), _dtypes.int32)
        predicted_ids = gather_tree(outputs.predicted_ids, outputs.parent_ids,
                                    max_sequence_lengths=max_sequence_lengths, end_token=self._end_token)
        if self._reorder_tensor_arrays:
            final_state = final_state._replace(cell_state=nest.map_structure(
                lambda t: self._maybe_sort_array_beams(t, outputs.parent_ids, final_state.lengths),
                final_state.cell_state))
        return FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs, predicted_ids=predicted_ids), \
            final_state

    def _merge_batch_beams(self, t: Any, s: Any = None) -> Any:
        s = _as_shape(s)
        static_batch_size = constant_value(self._batch_size)
        batch_beam = None if static_batch_size is None else int(static_batch_size) * self._beam_width
        reshaped = reshape(t, concat(([self._batch_size * self._beam_width], shape(t)[2:]), 0))
        reshaped.set_shape(TensorShape([batch_beam]).concatenate(s))
        return reshaped

    def _split_batch_beams(self, t: Any, s: Any = None) -> Any:
        s = _as_shape(s)
        reshaped = reshape(t, concat(([self._batch_size, self._beam_width], shape(t)[1:]), 0))
        static_batch_size = constant_value(self._batch_size)
        expected = TensorShape([None if static_batch_size is None else int(static_batch_size),
                                self._beam_width]).concatenate(s)
        if not TensorShape(reshaped.shape).is_compatible_with(expected):
            raise ValueError(
                "Unexpected behavior when reshaping between beam width and batch size.  The reshaped tensor has "
                f"shape: {TensorShape(reshaped.shape)}.  We expected it to have shape (batch_size, beam_width, "
                f"depth) == {expected}.  Perhaps you forgot to create a zero_state with "
                "batch_size=encoder_batch_size * beam_width?")
        reshaped.set_shape(expected)
        return reshaped

    def _maybe_split_batch_beams(self, t: Any, s: Any) -> Any:
        if isinstance(t, TensorArray):
            return t
        return self._split_batch_beams(t, s) if _check_ndims(t) >= 1 else t

    def _maybe_merge_batch_beams(self, t: Any, s: Any) -> Any:
        if isinstance(t, TensorArray):
            return t
        return self._merge_batch_beams(t, s) if _check_ndims(t) >= 2 else t

    def _maybe_sort_array_beams(self, t: Any, parent_ids: Any, sequence_length: Any) -> Any:
        if not isinstance(t, TensorArray):
            return t
        es = TensorShape(t.element_shape)
        if es.ndims is None or es.ndims < 1:
            return t
        static_batch_size = constant_value(self._batch_size)
        if static_batch_size is not None and es[0] is not None and \
                es[0] != int(static_batch_size) * self._beam_width:
            return t
        return gather_tree_from_array(t.stack(), parent_ids, sequence_length)

    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> tuple[Any, Any, Any, Any]:
        with name_scope(name, "BeamSearchDecoderStep"):
            inputs = nest.map_structure(lambda inp: self._merge_batch_beams(inp, s=TensorShape(inp.shape)[2:]),
                                        inputs)
            cell_state = nest.map_structure(self._maybe_merge_batch_beams, state.cell_state, self._cell.state_size)
            cell_outputs, next_cell_state = self._cell(inputs, cell_state)
            cell_outputs = nest.map_structure(
                lambda out: self._split_batch_beams(out, TensorShape(out.shape)[1:]), cell_outputs)
            next_cell_state = nest.map_structure(self._maybe_split_batch_beams, next_cell_state,
                                                 self._cell.state_size)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            beam_search_output, beam_search_state = _beam_search_step(
                time=time, logits=cell_outputs, next_cell_state=next_cell_state, beam_state=state,
                batch_size=self._batch_size, beam_width=self._beam_width, end_token=self._end_token,
                length_penalty_weight=self._length_penalty_weight,
                coverage_penalty_weight=self._coverage_penalty_weight)
            finished = beam_search_state.finished
            sample_ids = beam_search_output.predicted_ids
            next_inputs = cond(reduce_all(finished), lambda: self._start_inputs,
                               lambda: self._embedding_fn(sample_ids))
        return beam_search_output, beam_search_state, next_inputs, finished


def _beam_search_step(time: Any, logits: Any, next_cell_state: Any, beam_state: Any, batch_size: Any,
                      beam_width: int, end_token: Any, length_penalty_weight: float,
                      coverage_penalty_weight: float) -> tuple[BeamSearchDecoderOutput, BeamSearchDecoderState]:
    known_batch_size = constant_value(batch_size)
    static_batch_size = None if known_batch_size is None else int(known_batch_size)
    prediction_lengths = beam_state.lengths
    previously_finished = beam_state.finished
    not_finished = logical_not(previously_finished)

    step_log_probs = _mask_probs(log_softmax(logits), end_token, previously_finished)
    total_probs = expand_dims(beam_state.log_probs, 2) + step_log_probs

    vocab_size = TensorShape(logits.shape)[-1]
    if vocab_size is None:
        vocab_size = shape(logits)[-1]
    lengths_to_add = one_hot(indices=fill([batch_size, beam_width], end_token), depth=vocab_size,
                             on_value=cast(0, _dtypes.int64), off_value=cast(1, _dtypes.int64),
                             dtype=_dtypes.int64)
    lengths_to_add *= expand_dims(cast(not_finished, _dtypes.int64), 2)
    new_prediction_lengths = lengths_to_add + expand_dims(prediction_lengths, 2)

    accumulated_attention_probs = None
    attention_probs = _get_attention_probs(next_cell_state, coverage_penalty_weight)
    if attention_probs is not None:
        attention_probs *= expand_dims(cast(not_finished, _dtypes.float32), 2)
        accumulated_attention_probs = beam_state.accumulated_attention_probs + attention_probs

    scores = _get_scores(total_probs, new_prediction_lengths, length_penalty_weight, coverage_penalty_weight,
                         previously_finished, accumulated_attention_probs)
    scores_flat = reshape(scores, [batch_size, -1])
    next_beam_scores, word_indices = top_k(scores_flat, k=beam_width)
    next_beam_scores.set_shape([static_batch_size, beam_width])
    word_indices.set_shape([static_batch_size, beam_width])

    next_beam_probs = _tensor_gather_helper(word_indices, total_probs, batch_size, beam_width * vocab_size, [-1],
                                            name="next_beam_probs")
    next_word_ids = cast(floormod(word_indices, vocab_size, name="next_beam_word_ids"), _dtypes.int32)
    next_beam_ids = cast(floordiv(word_indices, vocab_size), _dtypes.int32, name="next_beam_parent_ids")

    previously_finished = _tensor_gather_helper(next_beam_ids, previously_finished, batch_size, beam_width, [-1])
    next_finished = logical_or(previously_finished, equal(next_word_ids, end_token), name="next_beam_finished")
    lengths_to_add = cast(logical_not(previously_finished), _dtypes.int64)
    next_prediction_len = _tensor_gather_helper(next_beam_ids, beam_state.lengths, batch_size, beam_width, [-1])
    next_prediction_len += lengths_to_add
    next_accumulated_attention_probs: Any = ()
    if accumulated_attention_probs is not None:
        next_accumulated_attention_probs = _tensor_gather_helper(
            next_beam_ids, accumulated_attention_probs, batch_size, beam_width, [batch_size * beam_width, -1],
            name="next_accumulated_attention_probs")
    next_cell_state = nest.map_structure(
        lambda gather_from: _maybe_tensor_gather_helper(next_beam_ids, gather_from, batch_size, beam_width,
                                                        [batch_size * beam_width, -1]),
        next_cell_state)
    next_state = BeamSearchDecoderState(cell_state=next_cell_state, log_probs=next_beam_probs,
                                        lengths=next_prediction_len, finished=next_finished,
                                        accumulated_attention_probs=next_accumulated_attention_probs)
    output = BeamSearchDecoderOutput(scores=next_beam_scores, predicted_ids=next_word_ids, parent_ids=next_beam_ids)
    return output, next_state


def _attention_probs_from_attn_state(attention_state: Any) -> Any:
    attention_probs = attention_state.alignments
    if isinstance(attention_probs, tuple):
        attention_probs = reduce_mean(concat([expand_dims(p, -1) for p in attention_probs], -1), -1)
    return attention_probs


def _get_attention_probs(next_cell_state: Any, coverage_penalty_weight: float) -> Any:
    if coverage_penalty_weight == 0.0:
        return None
    probs = []
    if isinstance(next_cell_state, AttentionWrapperState):
        probs = [_attention_probs_from_attn_state(next_cell_state)]
    elif isinstance(next_cell_state, tuple):
        probs = [_attention_probs_from_attn_state(s) for s in next_cell_state
                 if isinstance(s, AttentionWrapperState)]
    if not probs:
        raise ValueError("coverage_penalty_weight must be 0.0 if no cell is attentional.")
    if len(probs) == 1:
        return probs[0]
    return reduce_mean(concat([expand_dims(p, -1) for p in probs], -1), -1)


def _length_penalty(sequence_lengths: Any, penalty_factor: Any) -> Any:
    penalty_factor = convert_to_tensor(penalty_factor, name="penalty_factor")
    penalty_factor.set_shape(())
    static_penalty = constant_value(penalty_factor)
    if static_penalty is not None and static_penalty == 0:
        return 1.0
    return (5.0 + cast(sequence_lengths, _dtypes.float32)) ** penalty_factor / (5.0 + 1.0) ** penalty_factor


def _get_scores(log_probs: Any, sequence_lengths: Any, length_penalty_weight: Any, coverage_penalty_weight: Any,
                finished: Any, accumulated_attention_probs: Any) -> Any:
    length_penalty = cast(_length_penalty(sequence_lengths, length_penalty_weight), dtype=log_probs.dtype)
    scores = log_probs / length_penalty
    coverage_penalty_weight = convert_to_tensor(coverage_penalty_weight, name="coverage_penalty_weight")
    if coverage_penalty_weight.shape.ndims != 0:
        raise ValueError(f"coverage_penalty_weight should be a scalar, but saw shape: {coverage_penalty_weight.shape}")
    if constant_value(coverage_penalty_weight) == 0.0:
        return scores
    if accumulated_attention_probs is None:
        raise ValueError("accumulated_attention_probs can be None only if coverage penalty is disabled.")
    accumulated_attention_probs = where(equal(accumulated_attention_probs, 0.0),
                                        ones_like(accumulated_attention_probs), accumulated_attention_probs)
    coverage_penalty = reduce_sum(log(minimum(accumulated_attention_probs, 1.0)), 2)
    coverage_penalty *= cast(finished, _dtypes.float32)
    return scores + expand_dims(coverage_penalty * coverage_penalty_weight, 2)


def _mask_probs(probs: Any, eos_token: Any, finished: Any) -> Any:
    vocab_size = shape(probs)[2]
    finished_row = one_hot(eos_token, vocab_size, dtype=probs.dtype,
                           on_value=convert_to_tensor(0.0, dtype=probs.dtype), off_value=probs.dtype.min)
    finished_probs = tile(reshape(finished_row, [1, 1, -1]), concat([shape(finished), [1]], 0))
    finished_mask = tile(expand_dims(finished, 2), [1, 1, vocab_size])
    return where(finished_mask, finished_probs, probs)


def _maybe_tensor_gather_helper(gather_indices: Any, gather_from: Any, batch_size: Any, range_size: Any,
                                gather_shape: Any) -> Any:
    if isinstance(gather_from, TensorArray):
        return gather_from
    if _check_ndims(gather_from) >= len(gather_shape):
        return _tensor_gather_helper(gather_indices, gather_from, batch_size, range_size, gather_shape)
    return gather_from


def _tensor_gather_helper(gather_indices: Any, gather_from: Any, batch_size: Any, range_size: Any,
                          gather_shape: Any, name: str | None = None) -> Any:
    with name_scope(name, "tensor_gather_helper"):
        range_ = expand_dims(_range(batch_size) * range_size, 1)
        gather_indices = reshape(gather_indices + range_, [-1])
        output = gather(reshape(gather_from, gather_shape), gather_indices)
        final_shape = shape(gather_from)[:1 + len(gather_shape)]
        static_batch_size = constant_value(batch_size)
        final_static_shape = TensorShape([None if static_batch_size is None else int(static_batch_size)]) \
            .concatenate(TensorShape(gather_from.shape)[1:1 + len(gather_shape)])
        output = reshape(output, final_shape, name="output")
        output.set_shape(final_static_shape)
        return output
