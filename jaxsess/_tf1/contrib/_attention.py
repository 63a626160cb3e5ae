"""``tf.contrib.seq2seq``'s attention: ``BahdanauAttention``, ``LuongAttention``
and ``AttentionWrapper`` (TF 1.15's ``tensorflow/contrib/seq2seq/python/ops/
attention_wrapper.py``), with TF's variable names: ``memory_layer/kernel``
(built when the mechanism is made), ``.../bahdanau_attention/query_layer/kernel``,
``attention_v``, ``attention_g``, ``attention_b`` and
``.../attention_wrapper/attention_layer/kernel`` (built at the first step).

Imports: ``graph/``, ``ops/``, ``layers``, ``nest``.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor, identity
from jaxsess._core.graph._graph import name_scope
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1 import nest as nest
from jaxsess._tf1.layers import Dense
from jaxsess._tf1.ops.fill_ops import ones, ones_like, zeros
from jaxsess._tf1.ops.indexing_ops import sequence_mask
from jaxsess._tf1.ops.init_ops import constant_initializer, ones_initializer, zeros_initializer
from jaxsess._tf1.ops.math_ops import matmul, reduce_sum, rsqrt, square, tanh, where
from jaxsess._tf1.ops.nn_ops import softmax
from jaxsess._tf1.ops.rnn_cell import RNNCell, zero_state_tensors
from jaxsess._tf1.ops.shape_ops import concat, expand_dims, rank, reshape, shape, squeeze
from jaxsess._tf1.ops.tensor_array_ops import TensorArray
from jaxsess._tf1.ops.variable_scope import get_variable, variable_scope

__all__ = [
    "AttentionMechanism",
    "AttentionWrapper",
    "AttentionWrapperState",
    "BahdanauAttention",
    "LuongAttention",
]


class AttentionMechanism:
    """The base of the attention mechanisms, as ``tf.contrib.seq2seq.AttentionMechanism``."""


def _prepare_memory(memory: Any, memory_sequence_length: Any) -> Any:
    memory = nest.map_structure(lambda m: convert_to_tensor(m, name="memory"), memory)
    if memory_sequence_length is None:
        return memory
    memory_sequence_length = convert_to_tensor(memory_sequence_length, name="memory_sequence_length")

    def _mask(m: Any) -> Any:
        seq_len_mask = sequence_mask(memory_sequence_length, maxlen=shape(m)[1], dtype=m.dtype)
        extra_ones = ones(rank(m) - 2, dtype=_dtypes.int32)
        return m * reshape(seq_len_mask, concat([shape(seq_len_mask), extra_ones], 0))

    return nest.map_structure(_mask, memory)


def _maybe_mask_score(score: Any, memory_sequence_length: Any, score_mask_value: Any) -> Any:
    if memory_sequence_length is None:
        return score
    score_mask = sequence_mask(memory_sequence_length, maxlen=shape(score)[1])
    return where(score_mask, score, score_mask_value * ones_like(score))


class _BaseAttentionMechanism(AttentionMechanism):
    def __init__(self, query_layer: Any, memory: Any, probability_fn: Callable[[Any, Any], Any],
                 memory_sequence_length: Any = None, memory_layer: Any = None, score_mask_value: Any = None,
                 name: str | None = None) -> None:
        self._query_layer = query_layer
        self._memory_layer = memory_layer
        self.dtype = memory_layer.dtype if memory_layer is not None else None
        if not callable(probability_fn):
            raise TypeError(f"probability_fn must be callable, saw type: {type(probability_fn).__name__}")
        with name_scope(name, "BaseAttentionMechanismInit"):
            self._values = _prepare_memory(memory, memory_sequence_length)
            if score_mask_value is None:
                score_mask_value = _dtypes.as_dtype(self._values.dtype).as_numpy_dtype(-np.inf)
            self._probability_fn = lambda score, prev: probability_fn(
                _maybe_mask_score(score, memory_sequence_length, score_mask_value), prev)
            self._keys = self._memory_layer(self._values) if self._memory_layer is not None else self._values
            keys_shape = TensorShape(self._keys.shape)
            self._batch_size = keys_shape[0] if keys_shape[0] is not None else shape(self._keys)[0]
            self._alignments_size = keys_shape[1] if keys_shape[1] is not None else shape(self._keys)[1]

    @property
    def memory_layer(self) -> Any:
        return self._memory_layer

    @property
    def query_layer(self) -> Any:
        return self._query_layer

    @property
    def values(self) -> Any:
        """The (masked) memory, ``[batch_size, max_time, depth]``."""
        return self._values

    @property
    def keys(self) -> Any:
        """The memory after ``memory_layer``, ``[batch_size, max_time, num_units]``."""
        return self._keys

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def alignments_size(self) -> Any:
        return self._alignments_size

    @property
    def state_size(self) -> Any:
        return self._alignments_size

    def initial_alignments(self, batch_size: Any, dtype: Any) -> Any:
        """Zeros ``[batch_size, max_time]``."""
        return zero_state_tensors(self._alignments_size, batch_size, dtype)

    def initial_state(self, batch_size: Any, dtype: Any) -> Any:
        return self.initial_alignments(batch_size, dtype)


def _luong_score(query: Any, keys: Any, scale: bool) -> Any:
    depth = TensorShape(query.shape)[-1]
    key_units = TensorShape(keys.shape)[-1]
    if depth != key_units:
        raise ValueError(
            f"Incompatible or unknown inner dimensions between query and keys.  Query ({query}) has units: "
            f"{depth}.  Keys ({keys}) have units: {key_units}.  Perhaps you need to set num_units to the keys' "
            f"dimension ({key_units})?")
    score = squeeze(matmul(expand_dims(query, 1), keys, transpose_b=True), [1])
    if scale:
        g = get_variable("attention_g", dtype=query.dtype, initializer=ones_initializer(), shape=())
        score = g * score
    return score


class LuongAttention(_BaseAttentionMechanism):
    """Multiplicative attention (Luong et al. 2015), as ``tf.contrib.seq2seq.LuongAttention``.

    Args:
      num_units: the depth of the keys (``memory_layer``'s units; must equal
        the query's depth).
      memory: ``[batch_size, max_time, depth]``, the encoder outputs.
      memory_sequence_length: int ``[batch_size]``; later memory steps are
        zeroed and their scores set to ``score_mask_value`` (default ``-inf``).
      scale: multiply the score by a learned scalar ``attention_g``.
      probability_fn: ``score -> alignments`` (default ``softmax``).
      dtype: the layers' dtype.
      name: the name scope of the memory ops.
    """

    def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None, scale: bool = False,
                 probability_fn: Callable[[Any], Any] | None = None, score_mask_value: Any = None,
                 dtype: Any = None, custom_key_value_fn: Any = None, name: str = "LuongAttention") -> None:
        fn = probability_fn if probability_fn is not None else softmax
        super().__init__(query_layer=None, memory_layer=Dense(num_units, name="memory_layer", use_bias=False,
                                                              dtype=dtype),
                         memory=memory, probability_fn=lambda score, _: fn(score),
                         memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
                         name=name)
        self._num_units = num_units
        self._scale = scale
        self._name = name

    def __call__(self, query: Any, state: Any) -> tuple[Any, Any]:
        """``(alignments, next_state)``: ``[batch_size, max_time]`` each, for query ``[batch_size, num_units]``."""
        with variable_scope(None, "luong_attention", [query]):
            score = _luong_score(query, self._keys, self._scale)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def _bahdanau_score(processed_query: Any, keys: Any, normalize: bool) -> Any:
    dtype = processed_query.dtype
    num_units = TensorShape(keys.shape)[2]
    if num_units is None:
        num_units = shape(keys)[2]
    processed_query = expand_dims(processed_query, 1)
    v = get_variable("attention_v", [num_units], dtype=dtype)
    if normalize:
        g = get_variable("attention_g", dtype=dtype, initializer=constant_initializer(math.sqrt(1.0 / num_units)),
                         shape=())
        b = get_variable("attention_b", [num_units], dtype=dtype, initializer=zeros_initializer())
        normed_v = g * v * rsqrt(reduce_sum(square(v)))
        return reduce_sum(normed_v * tanh(keys + processed_query + b), [2])
    return reduce_sum(v * tanh(keys + processed_query), [2])


class BahdanauAttention(_BaseAttentionMechanism):
    """Additive attention (Bahdanau et al. 2015), as ``tf.contrib.seq2seq.BahdanauAttention``.

    Args:
      num_units: the depth of the query and memory projections.
      memory: ``[batch_size, max_time, depth]``, the encoder outputs.
      memory_sequence_length: int ``[batch_size]``; later memory steps are
        zeroed and their scores set to ``score_mask_value`` (default ``-inf``).
      normalize: weight normalisation of ``attention_v`` (``attention_g``,
        ``attention_b``).
      probability_fn: ``score -> alignments`` (default ``softmax``).
      dtype: the layers' dtype.
      name: the name scope of the memory ops.
    """

    def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None, normalize: bool = False,
                 probability_fn: Callable[[Any], Any] | None = None, score_mask_value: Any = None,
                 dtype: Any = None, custom_key_value_fn: Any = None, name: str = "BahdanauAttention") -> None:
        fn = probability_fn if probability_fn is not None else softmax
        super().__init__(query_layer=Dense(num_units, name="query_layer", use_bias=False, dtype=dtype),
                         memory_layer=Dense(num_units, name="memory_layer", use_bias=False, dtype=dtype),
                         memory=memory, probability_fn=lambda score, _: fn(score),
                         memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
                         name=name)
        self._num_units = num_units
        self._normalize = normalize
        self._name = name

    def __call__(self, query: Any, state: Any) -> tuple[Any, Any]:
        """``(alignments, next_state)``: ``[batch_size, max_time]`` each, for query ``[batch_size, depth]``."""
        with variable_scope(None, "bahdanau_attention", [query]):
            processed_query = self._query_layer(query) if self._query_layer is not None else query
            score = _bahdanau_score(processed_query, self._keys, self._normalize)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


class AttentionWrapperState(collections.namedtuple(
        "AttentionWrapperState",
        ("cell_state", "attention", "time", "alignments", "alignment_history", "attention_state"))):
    """The state of an :class:`AttentionWrapper`, as ``tf.contrib.seq2seq.AttentionWrapperState``:
    the wrapped cell's state, the last attention ``[batch_size, attention_size]``, the step (int32
    scalar), the last alignments, their history (``TensorArray``s, or ``()``) and the mechanisms' states.
    """

    __slots__ = ()

    def clone(self, **kwargs: Any) -> AttentionWrapperState:
        """A copy with some fields replaced (``zero_state(...).clone(cell_state=encoder_state)``);
        replaced tensors take the static shapes of the ones they replace."""

        def with_same_shape(old: Any, new: Any) -> Any:
            if hasattr(old, "shape") and hasattr(new, "set_shape") and not isinstance(new, TensorArray):
                new.set_shape(old.shape)
            return new

        return nest.map_structure(with_same_shape, self, super()._replace(**kwargs))


def _compute_attention(attention_mechanism: Any, cell_output: Any, attention_state: Any,
                       attention_layer: Any) -> tuple[Any, Any, Any]:
    alignments, next_attention_state = attention_mechanism(cell_output, state=attention_state)
    context = squeeze(matmul(expand_dims(alignments, 1), attention_mechanism.values), [1])
    attention = attention_layer(concat([cell_output, context], 1)) if attention_layer is not None else context
    return attention, alignments, next_attention_state


class AttentionWrapper(RNNCell):
    """An RNN cell with attention over a memory, as ``tf.contrib.seq2seq.AttentionWrapper``.

    Each step feeds ``cell_input_fn(inputs, previous_attention)`` (default:
    their concatenation) to ``cell``, queries each mechanism with the cell's
    output, and makes the attention ``attention_layer([cell_output, context])``
    (or the context without ``attention_layer_size``).

    Args:
      cell: the wrapped ``RNNCell``.
      attention_mechanism: a mechanism, or a list of them (their attentions
        are concatenated).
      attention_layer_size: the depth of the attention layer (int, or one per
        mechanism); ``None``: the attention is the context.
      alignment_history: keep every step's alignments in a ``TensorArray``
        (``state.alignment_history.stack()``: ``[time, batch_size, max_time]``).
      cell_input_fn: ``(inputs, attention) -> cell_inputs``.
      output_attention: output the attention (Luong style) instead of the
        cell's output (Bahdanau style).
      initial_cell_state: the cell state ``zero_state`` starts from.
      name: the cell's name (default scope ``attention_wrapper``).
      attention_layer: layer(s) instead of ``attention_layer_size``.
      attention_fn: replaces the attention computation (``_compute_attention``).

    Raises:
      TypeError: a mechanism is not an ``AttentionMechanism``, or
        ``cell_input_fn`` is not callable.
      ValueError: both ``attention_layer_size`` and ``attention_layer``, or
        sizes not one per mechanism.
    """

    def __init__(self, cell: Any, attention_mechanism: Any, attention_layer_size: Any = None,
                 alignment_history: bool = False, cell_input_fn: Any = None, output_attention: bool = True,
                 initial_cell_state: Any = None, name: str | None = None, attention_layer: Any = None,
                 attention_fn: Any = None) -> None:
        super().__init__(name=name)
        self._is_multi = isinstance(attention_mechanism, list | tuple)
        mechanisms = tuple(attention_mechanism) if self._is_multi else (attention_mechanism,)
        for am in mechanisms:
            if not isinstance(am, AttentionMechanism):
                raise TypeError(f"attention_mechanism must be an AttentionMechanism or list of multiple "
                                f"AttentionMechanism instances, saw type: {type(am).__name__}")
        if cell_input_fn is None:
            cell_input_fn = lambda inputs, attention: concat([inputs, attention], -1)  # noqa: E731
        elif not callable(cell_input_fn):
            raise TypeError(f"cell_input_fn must be callable, saw type: {type(cell_input_fn).__name__}")
        if attention_layer_size is not None and attention_layer is not None:
            raise ValueError("Only one of attention_layer_size and attention_layer should be set")
        if attention_layer_size is not None:
            sizes = tuple(attention_layer_size if isinstance(attention_layer_size, list | tuple)
                          else (attention_layer_size,))
            if len(sizes) != len(mechanisms):
                raise ValueError(f"If provided, attention_layer_size must contain exactly one integer per "
                                 f"attention_mechanism, saw: {len(sizes)} vs {len(mechanisms)}")
            self._attention_layers: tuple[Any, ...] | None = tuple(
                Dense(s, name="attention_layer", use_bias=False, dtype=mechanisms[i].dtype)
                for i, s in enumerate(sizes))
            self._attention_layer_size = sum(sizes)
        elif attention_layer is not None:
            layers = tuple(attention_layer if isinstance(attention_layer, list | tuple) else (attention_layer,))
            if len(layers) != len(mechanisms):
                raise ValueError(f"If provided, attention_layer must contain exactly one layer per "
                                 f"attention_mechanism, saw: {len(layers)} vs {len(mechanisms)}")
            self._attention_layers = layers
            self._attention_layer_size = sum(
                int(TensorShape(layer.compute_output_shape(
                    [None, _depth(cell.output_size) + _depth(TensorShape(am.values.shape)[-1])]))[-1])
                for layer, am in zip(layers, mechanisms, strict=True))
        else:
            self._attention_layers = None
            self._attention_layer_size = sum(int(TensorShape(am.values.shape)[-1]) for am in mechanisms)
        self._cell = cell
        self._attention_mechanisms = mechanisms
        self._cell_input_fn = cell_input_fn
        self._output_attention = output_attention
        self._alignment_history = alignment_history
        self._attention_fn = attention_fn if attention_fn is not None else _compute_attention
        with name_scope(name, "AttentionWrapperInit"):
            if initial_cell_state is None:
                self._initial_cell_state = None
            else:
                self._initial_cell_state = nest.map_structure(
                    lambda s: identity(s, name="check_initial_cell_state"), initial_cell_state)

    def _sub_cells(self) -> list[Any]:
        return [self._cell]

    def _item_or_tuple(self, seq: Any) -> Any:
        t = tuple(seq)
        return t if self._is_multi else t[0]

    @property
    def output_size(self) -> Any:
        return self._attention_layer_size if self._output_attention else self._cell.output_size

    @property
    def state_size(self) -> AttentionWrapperState:
        return AttentionWrapperState(
            cell_state=self._cell.state_size,
            time=TensorShape([]),
            attention=self._attention_layer_size,
            alignments=self._item_or_tuple(a.alignments_size for a in self._attention_mechanisms),
            attention_state=self._item_or_tuple(a.state_size for a in self._attention_mechanisms),
            alignment_history=self._item_or_tuple(
                a.alignments_size if self._alignment_history else () for a in self._attention_mechanisms))

    def zero_state(self, batch_size: Any, dtype: Any) -> AttentionWrapperState:
        """The initial state: the wrapped cell's zero state (or ``initial_cell_state``),
        zero attention and alignments, time 0, empty alignment histories."""
        with name_scope(type(self).__name__ + "ZeroState"):
            if self._initial_cell_state is not None:
                cell_state = self._initial_cell_state
            else:
                cell_state = self._cell.zero_state(batch_size, dtype)
            cell_state = nest.map_structure(lambda s: identity(s, name="checked_cell_state"), cell_state)
            initial_alignments = [am.initial_alignments(batch_size, dtype) for am in self._attention_mechanisms]
            return AttentionWrapperState(
                cell_state=cell_state,
                time=zeros([], dtype=_dtypes.int32),
                attention=zero_state_tensors(self._attention_layer_size, batch_size, dtype),
                alignments=self._item_or_tuple(initial_alignments),
                attention_state=self._item_or_tuple(
                    am.initial_state(batch_size, dtype) for am in self._attention_mechanisms),
                alignment_history=self._item_or_tuple(
                    TensorArray(dtype, size=0, dynamic_size=True, element_shape=a.shape)
                    if self._alignment_history else () for a in initial_alignments))

    def call(self, inputs: Any, state: Any) -> tuple[Any, AttentionWrapperState]:
        if not isinstance(state, AttentionWrapperState):
            raise TypeError(f"Expected state to be instance of AttentionWrapperState. Received type "
                            f"{type(state)} instead.")
        cell_inputs = self._cell_input_fn(inputs, state.attention)
        cell_output, next_cell_state = self._cell(cell_inputs, state.cell_state)
        if self._is_multi:
            previous_attention_state = state.attention_state
            previous_alignment_history = state.alignment_history
        else:
            previous_attention_state = [state.attention_state]
            previous_alignment_history = [state.alignment_history]
        all_alignments, all_attentions, all_attention_states, maybe_all_histories = [], [], [], []
        for i, am in enumerate(self._attention_mechanisms):
            attention, alignments, next_attention_state = self._attention_fn(
                am, cell_output, previous_attention_state[i],
                self._attention_layers[i] if self._attention_layers else None)
            alignment_history = previous_alignment_history[i].write(state.time, alignments) \
                if self._alignment_history else ()
            all_attention_states.append(next_attention_state)
            all_alignments.append(alignments)
            all_attentions.append(attention)
            maybe_all_histories.append(alignment_history)
        attention = concat(all_attentions, 1)
        next_state = AttentionWrapperState(
            time=state.time + 1, cell_state=next_cell_state, attention=attention,
            attention_state=self._item_or_tuple(all_attention_states),
            alignments=self._item_or_tuple(all_alignments),
            alignment_history=self._item_or_tuple(maybe_all_histories))
        return (attention if self._output_attention else cell_output), next_state


def _depth(size: Any) -> int:
    return int(size) if isinstance(size, int) else int(TensorShape(size)[-1])
