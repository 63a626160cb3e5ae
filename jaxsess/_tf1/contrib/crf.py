"""A linear-chain CRF, as TF 1.x's ``tf.contrib.crf``: sequence scores, the log partition function
(forward algorithm), the log-likelihood with a ``transitions`` variable, and Viterbi decoding in
the graph (:func:`crf_decode`) or in NumPy (:func:`viterbi_decode`).

Shapes: ``inputs``/``potentials`` ``[batch, max_seq_len, num_tags]`` float32, ``tag_indices``
``[batch, max_seq_len]`` int32/int64, ``sequence_lengths`` ``[batch]`` int, ``transition_params``
``[num_tags, num_tags]`` (score of tag ``i`` followed by tag ``j`` at ``[i, j]``). A sequence of
length 0 scores 0. The recurrences run in ``dynamic_rnn`` (one ``Scan``), as TF's do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._tf1.ops import array_ops as array_ops, control_flow as control_flow, math_ops as math_ops
from jaxsess._tf1.ops.indexing_ops import sequence_mask
from jaxsess._tf1.ops.rnn import dynamic_rnn, reverse_sequence
from jaxsess._tf1.ops.rnn_cell import RNNCell
from jaxsess._tf1.ops.variable_scope import get_variable

__all__ = ["crf_sequence_score", "crf_multitag_sequence_score", "crf_log_norm", "crf_log_likelihood",
           "crf_unary_score", "crf_binary_score", "CrfForwardRnnCell", "viterbi_decode", "crf_decode",
           "CrfDecodeForwardRnnCell", "CrfDecodeBackwardRnnCell"]


def _by_length(inputs: Any, one_step: Callable[[], Any], many_steps: Callable[[], Any]) -> Any:
    """``one_step()`` when ``max_seq_len`` is 1, else ``many_steps()`` (a ``cond`` when unknown statically)."""
    steps = inputs.get_shape().as_list()[1]
    if steps is not None:
        return one_step() if steps == 1 else many_steps()
    return control_flow.cond(math_ops.equal(array_ops.shape(inputs)[1], 1), one_step, many_steps)


def _steps(tags: Any) -> Any:
    """``max_seq_len`` of ``tags`` ``[batch, max_seq_len]``: an int when static, else a shape tensor."""
    steps = tags.get_shape().as_list()[1]
    return steps if steps is not None else array_ops.shape(tags)[1]


def _zero_empty(lengths: Any, scores: Any) -> Any:
    return math_ops.where(math_ops.less_equal(lengths, 0), array_ops.zeros_like(scores), scores)


def crf_unary_score(tag_indices: Any, sequence_lengths: Any, inputs: Any) -> Any:
    """The sum over each sequence's first ``sequence_lengths[b]`` steps of ``inputs[b, t, tag[b, t]]``:
    ``[batch]`` float, as ``tf.contrib.crf.crf_unary_score``."""
    inputs = convert_to_tensor(inputs)
    tag_indices = convert_to_tensor(tag_indices)
    picked = array_ops.gather(inputs, math_ops.cast(tag_indices, _dtypes.int32), axis=2, batch_dims=2)
    masks = sequence_mask(sequence_lengths, maxlen=_steps(tag_indices), dtype=_dtypes.float32)
    return math_ops.reduce_sum(picked * masks, 1)


def crf_binary_score(tag_indices: Any, sequence_lengths: Any, transition_params: Any) -> Any:
    """The sum of ``transition_params[tag[t], tag[t+1]]`` over each sequence's transitions: ``[batch]``,
    as ``tf.contrib.crf.crf_binary_score``."""
    tag_indices = convert_to_tensor(tag_indices)
    transition_params = convert_to_tensor(transition_params)
    num_tags = transition_params.get_shape().as_list()[0]
    starts, ends = tag_indices[:, :-1], tag_indices[:, 1:]
    flat = array_ops.reshape(transition_params, [-1])
    scores = array_ops.gather(flat, starts * num_tags + ends)
    masks = sequence_mask(sequence_lengths, maxlen=_steps(tag_indices), dtype=_dtypes.float32)
    return math_ops.reduce_sum(scores * masks[:, 1:], 1)


def crf_sequence_score(inputs: Any, tag_indices: Any, sequence_lengths: Any, transition_params: Any) -> Any:
    """The unnormalised score (unary + binary) of ``tag_indices``: ``[batch]``, as
    ``tf.contrib.crf.crf_sequence_score``."""
    inputs = convert_to_tensor(inputs)
    tag_indices = convert_to_tensor(tag_indices)
    sequence_lengths = convert_to_tensor(sequence_lengths)

    def one_step() -> Any:
        scores = array_ops.gather(inputs[:, 0, :], math_ops.cast(tag_indices[:, 0], _dtypes.int32), axis=1,
                                  batch_dims=1)
        return _zero_empty(sequence_lengths, scores)

    def many_steps() -> Any:
        return (crf_unary_score(tag_indices, sequence_lengths, inputs)
                + crf_binary_score(tag_indices, sequence_lengths, transition_params))

    return _by_length(inputs, one_step, many_steps)


def crf_multitag_sequence_score(inputs: Any, tag_bitmap: Any, sequence_lengths: Any, transition_params: Any) -> Any:
    """The log-sum-exp of the scores of every tag sequence allowed by the bool ``tag_bitmap``
    ``[batch, max_seq_len, num_tags]``: ``[batch]``, as ``tf.contrib.crf.crf_multitag_sequence_score``."""
    inputs = convert_to_tensor(inputs)
    filtered = math_ops.where(tag_bitmap, inputs, array_ops.fill(array_ops.shape(inputs), float("-inf")))
    return _by_length(inputs, lambda: math_ops.reduce_logsumexp(filtered, axis=[1, 2]),
                      lambda: crf_log_norm(filtered, sequence_lengths, transition_params))


class CrfForwardRnnCell(RNNCell):
    """One step of the forward algorithm: ``alpha' = inputs + logsumexp_i(alpha[i] + T[i, :])``, as
    ``tf.contrib.crf.CrfForwardRnnCell`` (state and output ``[batch, num_tags]``)."""

    def __init__(self, transition_params: Any) -> None:
        super().__init__()
        transition_params = convert_to_tensor(transition_params)
        self._transition_params = array_ops.expand_dims(transition_params, 0)
        self._num_tags = transition_params.get_shape().as_list()[0]

    @property
    def state_size(self) -> Any:
        return self._num_tags

    @property
    def output_size(self) -> Any:
        return self._num_tags

    def build(self, input_shape: Any) -> None:
        self.built = True

    def call(self, inputs: Any, state: Any) -> tuple[Any, Any]:
        scores = array_ops.expand_dims(state, 2) + self._transition_params
        alphas = inputs + math_ops.reduce_logsumexp(scores, [1])
        return alphas, alphas


def crf_log_norm(inputs: Any, sequence_lengths: Any, transition_params: Any) -> Any:
    """The log partition function (log-sum-exp over all tag sequences): ``[batch]``, as
    ``tf.contrib.crf.crf_log_norm``."""
    inputs = convert_to_tensor(inputs)
    sequence_lengths = convert_to_tensor(sequence_lengths)
    first = inputs[:, 0, :]

    def one_step() -> Any:
        return _zero_empty(sequence_lengths, math_ops.reduce_logsumexp(first, [1]))

    def many_steps() -> Any:
        lengths_less_one = math_ops.maximum(array_ops.zeros_like(sequence_lengths), sequence_lengths - 1)
        _, alphas = dynamic_rnn(CrfForwardRnnCell(transition_params), inputs[:, 1:, :],
                                sequence_length=lengths_less_one, initial_state=first, dtype=_dtypes.float32)
        return _zero_empty(sequence_lengths, math_ops.reduce_logsumexp(alphas, [1]))

    return _by_length(inputs, one_step, many_steps)


def crf_log_likelihood(inputs: Any, tag_indices: Any, sequence_lengths: Any,
                       transition_params: Any = None) -> tuple[Any, Any]:
    """``(log_likelihood [batch], transition_params)``: sequence score minus the log partition function,
    as ``tf.contrib.crf.crf_log_likelihood``; without ``transition_params`` it creates the variable
    ``transitions`` ``[num_tags, num_tags]`` in the current variable scope (``get_variable``'s default
    initializer).

    Raises:
      ValueError: ``num_tags`` unknown when the graph is built and no ``transition_params``.
    """
    inputs = convert_to_tensor(inputs)
    if transition_params is None:
        num_tags = inputs.get_shape().as_list()[2]
        if num_tags is None:
            raise ValueError("crf_log_likelihood: the last dimension of inputs (num_tags) must be known.")
        transition_params = get_variable("transitions", [num_tags, num_tags])
    scores = crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params)
    log_norm = crf_log_norm(inputs, sequence_lengths, transition_params)
    return scores - log_norm, transition_params


def viterbi_decode(score: np.ndarray, transition_params: np.ndarray) -> tuple[list[Any], Any]:
    """The best tag sequence of one unpadded ``score`` ``[seq_len, num_tags]`` in NumPy, as
    ``tf.contrib.crf.viterbi_decode``: ``(tags: list of NumPy ints, best score: NumPy scalar)``."""
    score = np.asarray(score)
    transition_params = np.asarray(transition_params)
    trellis = np.zeros_like(score)
    back = np.zeros_like(score, dtype=np.int32)
    trellis[0] = score[0]
    for t in range(1, score.shape[0]):
        v = trellis[t - 1][:, None] + transition_params
        trellis[t] = score[t] + v.max(0)
        back[t] = v.argmax(0)
    path = [np.argmax(trellis[-1])]
    for bp in back[:0:-1]:
        path.append(bp[path[-1]])
    path.reverse()
    return path, np.max(trellis[-1])


class CrfDecodeForwardRnnCell(RNNCell):
    """One Viterbi step: output the backpointers ``[batch, num_tags]`` int32, state the best scores, as
    ``tf.contrib.crf.CrfDecodeForwardRnnCell``."""

    def __init__(self, transition_params: Any) -> None:
        super().__init__()
        transition_params = convert_to_tensor(transition_params)
        self._transition_params = array_ops.expand_dims(transition_params, 0)
        self._num_tags = transition_params.get_shape().as_list()[0]

    @property
    def state_size(self) -> Any:
        return self._num_tags

    @property
    def output_size(self) -> Any:
        return self._num_tags

    def build(self, input_shape: Any) -> None:
        self.built = True

    def call(self, inputs: Any, state: Any) -> tuple[Any, Any]:
        scores = array_ops.expand_dims(state, 2) + self._transition_params
        best = inputs + math_ops.reduce_max(scores, [1])
        return math_ops.cast(math_ops.argmax(scores, 1), _dtypes.int32), best


class CrfDecodeBackwardRnnCell(RNNCell):
    """One backtracking step: the state ``[batch, 1]`` tag picks its backpointer from the inputs
    ``[batch, num_tags]``, as ``tf.contrib.crf.CrfDecodeBackwardRnnCell``."""

    def __init__(self, num_tags: int) -> None:
        super().__init__()
        self._num_tags = num_tags

    @property
    def state_size(self) -> Any:
        return 1

    @property
    def output_size(self) -> Any:
        return 1

    def build(self, input_shape: Any) -> None:
        self.built = True

    def call(self, inputs: Any, state: Any) -> tuple[Any, Any]:
        tags = array_ops.gather(inputs, state, axis=1, batch_dims=1)
        return tags, tags


def crf_decode(potentials: Any, transition_params: Any, sequence_length: Any) -> tuple[Any, Any]:
    """Viterbi decoding in the graph, as ``tf.contrib.crf.crf_decode``: ``(decode_tags [batch,
    max_seq_len] int32, best_score [batch] float)``; tags past a sequence's length are 0."""
    potentials = convert_to_tensor(potentials)
    sequence_length = convert_to_tensor(sequence_length)

    def one_step() -> Any:
        first = potentials[:, 0, :]
        tags = array_ops.expand_dims(math_ops.cast(math_ops.argmax(first, axis=1), _dtypes.int32), 1)
        return tags, math_ops.reduce_max(first, axis=1)

    def many_steps() -> Any:
        num_tags = potentials.get_shape().as_list()[2]
        lengths_less_one = math_ops.maximum(array_ops.zeros_like(sequence_length), sequence_length - 1)
        backpointers, last_score = dynamic_rnn(CrfDecodeForwardRnnCell(transition_params), potentials[:, 1:, :],
                                               sequence_length=lengths_less_one,
                                               initial_state=potentials[:, 0, :], dtype=_dtypes.int32)
        backpointers = reverse_sequence(backpointers, lengths_less_one, seq_axis=1)
        last_tag = array_ops.expand_dims(math_ops.cast(math_ops.argmax(last_score, axis=1), _dtypes.int32), -1)
        tags, _ = dynamic_rnn(CrfDecodeBackwardRnnCell(num_tags), backpointers, sequence_length=lengths_less_one,
                              initial_state=last_tag, dtype=_dtypes.int32)
        tags = array_ops.concat([last_tag, array_ops.squeeze(tags, axis=[2])], axis=1)
        return reverse_sequence(tags, sequence_length, seq_axis=1), math_ops.reduce_max(last_score, axis=1)

    return _by_length(potentials, one_step, many_steps)
