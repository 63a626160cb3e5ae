"""``tf.contrib.seq2seq``'s dynamic decoding: the helpers, ``BasicDecoder`` and
``dynamic_decode`` (TF 1.15's ``tensorflow/contrib/seq2seq/python/ops/
{helper,basic_decoder,decoder}.py``), with TF's variable scopes and names.

``dynamic_decode`` is one ``while_loop`` writing ``TensorArray``s. XLA needs a
bound on its steps: ``maximum_iterations`` when it is known when the graph is
built, else the time dimension of a ``TrainingHelper``'s inputs, else a
``maximum_iterations`` computed from tensor shapes; otherwise ``ValueError``.
With a bound known only when the run is traced (an unknown time dimension),
the loop is a counting loop (``time < n``) whose steps after every entry
finished change nothing. A ``maximum_iterations`` tensor computed at run time
still stops the loop (at most the bound). The outputs' time dimension
is that static bound (TF: the number of steps the loop ran); the rows after
the last step are zeros. The two agree when the loop runs to the bound (a
``TrainingHelper`` whose longest ``sequence_length`` is the inputs' length, or
a decoder that does not finish before ``maximum_iterations``).

Imports: ``graph/``, ``ops/``, ``layers``, ``nest``.
"""

from __future__ import annotations

import abc
import collections
from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import constant, constant_value, convert_to_tensor
from jaxsess._core.graph._dynamic import trace_computable
from jaxsess._core.graph._graph import Tensor, name_scope
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1 import nest as nest
from jaxsess._tf1.ops.control_flow import cond, while_loop
from jaxsess._tf1.ops.fill_ops import fill, zeros_like
from jaxsess._tf1.ops.math_ops import (
    argmax,
    cast,
    equal,
    greater,
    greater_equal,
    less,
    logical_and,
    logical_not,
    logical_or,
    maximum,
    minimum,
    reduce_all,
    reduce_any,
    where,
    where_v2,
)
from jaxsess._tf1.ops.nn_ops import embedding_lookup
from jaxsess._tf1.ops.random_ops import multinomial, random_uniform
from jaxsess._tf1.ops.rnn import _transpose_batch_time
from jaxsess._tf1.ops.rnn_cell import zero_state_tensors
from jaxsess._tf1.ops.shape_ops import concat, reshape, shape, size, tile
from jaxsess._tf1.ops.tensor_array_ops import TensorArray
from jaxsess._tf1.ops.variable_scope import variable_scope

__all__ = [
    "BasicDecoder",
    "BasicDecoderOutput",
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
]

_int32 = _dtypes.int32


def _as_shape(s: Any) -> TensorShape:
    return TensorShape([s]) if isinstance(s, int) else TensorShape(s)


def _unstack_ta(inp: Any) -> TensorArray:
    return TensorArray(dtype=inp.dtype, size=shape(inp)[0], element_shape=TensorShape(inp.shape)[1:]).unstack(inp)


class Helper(abc.ABC):
    """The interface a ``BasicDecoder`` samples through, as ``tf.contrib.seq2seq.Helper``."""

    @property
    @abc.abstractmethod
    def batch_size(self) -> Any:
        """The batch size (int32 scalar tensor or int)."""

    @property
    @abc.abstractmethod
    def sample_ids_shape(self) -> TensorShape:
        """The shape of one batch entry's sample id."""

    @property
    @abc.abstractmethod
    def sample_ids_dtype(self) -> _dtypes.DType:
        """The dtype of the sample ids."""

    @abc.abstractmethod
    def initialize(self, name: str | None = None) -> tuple[Any, Any]:
        """``(initial_finished, initial_inputs)``."""

    @abc.abstractmethod
    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        """The sample ids of one step."""

    @abc.abstractmethod
    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        """``(finished, next_inputs, next_state)``."""

    def _static_max_steps(self) -> int | None:
        """The most steps decoding can take, when known at graph build time."""
        return None

    def _trace_max_steps(self) -> Any:
        """The most steps decoding can take as a tensor computed from shapes (known when the
        run is traced), or None."""
        return None


class CustomHelper(Helper):
    """A helper from three functions, as ``tf.contrib.seq2seq.CustomHelper``.

    Args:
      initialize_fn: ``() -> (finished, next_inputs)``.
      sample_fn: ``(time, outputs, state) -> sample_ids``.
      next_inputs_fn: ``(time, outputs, state, sample_ids) -> (finished, next_inputs, next_state)``.
      sample_ids_shape, sample_ids_dtype: default ``[]`` and int32.
    """

    def __init__(self, initialize_fn: Any, sample_fn: Any, next_inputs_fn: Any,
                 sample_ids_shape: Any = None, sample_ids_dtype: Any = None) -> None:
        self._initialize_fn = initialize_fn
        self._sample_fn = sample_fn
        self._next_inputs_fn = next_inputs_fn
        self._batch_size: Any = None
        self._sample_ids_shape = TensorShape(sample_ids_shape or [])
        self._sample_ids_dtype = _dtypes.as_dtype(sample_ids_dtype or _int32)

    @property
    def batch_size(self) -> Any:
        if self._batch_size is None:
            raise ValueError("batch_size accessed before initialize was called")
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return self._sample_ids_shape

    @property
    def sample_ids_dtype(self) -> _dtypes.DType:
        return self._sample_ids_dtype

    def initialize(self, name: str | None = None) -> tuple[Any, Any]:
        with name_scope(name, f"{type(self).__name__}Initialize"):
            finished, next_inputs = self._initialize_fn()
            if self._batch_size is None:
                self._batch_size = size(finished)
        return finished, next_inputs

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        with name_scope(name, f"{type(self).__name__}Sample"):
            return self._sample_fn(time=time, outputs=outputs, state=state)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        with name_scope(name, f"{type(self).__name__}NextInputs"):
            return self._next_inputs_fn(time=time, outputs=outputs, state=state, sample_ids=sample_ids)


class TrainingHelper(Helper):
    """Reads the decoder inputs step by step (teacher forcing), as
    ``tf.contrib.seq2seq.TrainingHelper``.

    Args:
      inputs: ``[batch_size, max_time, ...]`` (``[max_time, batch_size, ...]``
        with ``time_major``), or a nested structure of such tensors.
      sequence_length: int32 ``[batch_size]``; entry ``b`` finishes after
        ``sequence_length[b]`` steps.
      time_major: whether ``inputs`` is time major.

    Sample ids are the argmax of the outputs (int32).
    """

    def __init__(self, inputs: Any, sequence_length: Any, time_major: bool = False, name: str | None = None) -> None:
        with name_scope(name, "TrainingHelper"):
            inputs = nest.map_structure(convert_to_tensor, inputs)
            self._inputs = inputs
            if not time_major:
                inputs = nest.map_structure(_transpose_batch_time, inputs)
            self._time_major_inputs = inputs
            self._input_tas = nest.map_structure(_unstack_ta, inputs)
            self._sequence_length = convert_to_tensor(sequence_length, name="sequence_length")
            if self._sequence_length.get_shape().ndims != 1:
                raise ValueError(
                    f"Expected sequence_length to be a vector, but received shape: {self._sequence_length.get_shape()}")
            self._zero_inputs = nest.map_structure(lambda inp: zeros_like(inp[0, :]), inputs)
            self._batch_size = size(sequence_length)
            times = [TensorShape(inp.shape)[0] for inp in nest.flatten(inputs)]
            self._max_time = min((int(t) for t in times if t is not None), default=None)

    @property
    def inputs(self) -> Any:
        return self._inputs

    @property
    def sequence_length(self) -> Any:
        return self._sequence_length

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return TensorShape([])

    @property
    def sample_ids_dtype(self) -> _dtypes.DType:
        return _int32

    def _static_max_steps(self) -> int | None:
        return self._max_time

    def _trace_max_steps(self) -> Any:
        return shape(nest.flatten(self._time_major_inputs)[0])[0]

    def initialize(self, name: str | None = None) -> tuple[Any, Any]:
        with name_scope(name, "TrainingHelperInitialize"):
            finished = equal(0, self._sequence_length)
            all_finished = reduce_all(finished)
            next_inputs = cond(all_finished, lambda: self._zero_inputs,
                               lambda: nest.map_structure(lambda inp: inp.read(0), self._input_tas))
            return finished, next_inputs

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        with name_scope(name, "TrainingHelperSample"):
            return cast(argmax(outputs, axis=-1), _int32)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        with name_scope(name, "TrainingHelperNextInputs"):
            next_time = time + 1
            finished = greater_equal(next_time, self._sequence_length)
            all_finished = reduce_all(finished)
            next_inputs = cond(all_finished, lambda: self._zero_inputs,
                               lambda: nest.map_structure(lambda inp: inp.read(next_time), self._input_tas))
            return finished, next_inputs, state


def _bernoulli(probs: Any, batch_size: Any, seed: int | None) -> Any:
    probs = convert_to_tensor(probs)
    return less(random_uniform([batch_size], seed=seed, dtype=probs.dtype), probs)


def _categorical(logits: Any, seed: int | None) -> Any:
    ids = multinomial(reshape(logits, [-1, shape(logits)[-1]]), 1, seed=seed, output_dtype=_int32)
    return reshape(ids, shape(logits)[:-1])


def _probability(p: Any) -> Any:
    p = convert_to_tensor(p, name="sampling_probability")
    if p.get_shape().ndims not in (0, 1):
        raise ValueError(f"sampling_probability must be either a scalar or a vector. saw shape: {p.get_shape()}")
    return p


class ScheduledEmbeddingTrainingHelper(TrainingHelper):
    """A ``TrainingHelper`` that feeds, with probability ``sampling_probability``
    per entry and step, the embedding of an id sampled from the outputs instead
    of the next input (scheduled sampling), as
    ``tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper``. Sample ids are -1
    where it did not sample. jaxsess's random streams: the draws differ from TF's.

    Args:
      inputs, sequence_length, time_major: as :class:`TrainingHelper`.
      embedding: a ``[vocab_size, depth]`` params tensor or a callable ``ids -> inputs``.
      sampling_probability: float scalar or ``[batch_size]`` vector.
      seed, scheduling_seed: the seeds of the id and of the coin draws.

    Raises:
      ValueError: ``sampling_probability`` is neither a scalar nor a vector.
    """

    def __init__(self, inputs: Any, sequence_length: Any, embedding: Any, sampling_probability: Any,
                 time_major: bool = False, seed: int | None = None, scheduling_seed: int | None = None,
                 name: str | None = None) -> None:
        with name_scope(name, "ScheduledEmbeddingSamplingWrapper"):
            self._embedding_fn = embedding if callable(embedding) else (
                lambda ids: embedding_lookup(embedding, ids))
            self._sampling_probability = _probability(sampling_probability)
            self._seed = seed
            self._scheduling_seed = scheduling_seed
            super().__init__(inputs=inputs, sequence_length=sequence_length, time_major=time_major, name=name)

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        with name_scope(name, "ScheduledEmbeddingTrainingHelperSample"):
            select_sample = _bernoulli(self._sampling_probability, self.batch_size, self._scheduling_seed)
            return where(select_sample, _categorical(outputs, self._seed), fill([self.batch_size], -1))

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        with name_scope(name, "ScheduledEmbeddingTrainingHelperNextInputs"):
            finished, base_next_inputs, state = super().next_inputs(time, outputs, state, sample_ids)

            def maybe_sample() -> Any:
                sampled = self._embedding_fn(maximum(sample_ids, 0))
                return where(greater(sample_ids, -1), sampled, base_next_inputs)

            next_inputs = cond(reduce_all(finished), lambda: base_next_inputs, maybe_sample)
            return finished, next_inputs, state


class ScheduledOutputTrainingHelper(TrainingHelper):
    """A ``TrainingHelper`` that feeds, with probability ``sampling_probability``
    per entry and step, the outputs (through ``next_inputs_fn``, concatenated
    with ``auxiliary_inputs``) instead of the next input, as
    ``tf.contrib.seq2seq.ScheduledOutputTrainingHelper``. Sample ids are bools
    (where it sampled). jaxsess's random streams: the draws differ from TF's.

    Raises:
      ValueError: ``sampling_probability`` is neither a scalar nor a vector.
    """

    def __init__(self, inputs: Any, sequence_length: Any, sampling_probability: Any, time_major: bool = False,
                 seed: int | None = None, next_inputs_fn: Any = None, auxiliary_inputs: Any = None,
                 name: str | None = None) -> None:
        with name_scope(name, "ScheduledOutputTrainingHelper"):
            self._sampling_probability = _probability(sampling_probability)
            if auxiliary_inputs is None:
                maybe_concatenated_inputs = inputs
            else:
                inputs = convert_to_tensor(inputs, name="inputs")
                auxiliary_inputs = convert_to_tensor(auxiliary_inputs, name="auxiliary_inputs")
                maybe_concatenated_inputs = nest.map_structure(lambda x, y: concat((x, y), -1), inputs,
                                                               auxiliary_inputs)
                if not time_major:
                    auxiliary_inputs = nest.map_structure(_transpose_batch_time, auxiliary_inputs)
            self._auxiliary_input_tas = None if auxiliary_inputs is None else \
                nest.map_structure(_unstack_ta, auxiliary_inputs)
            self._seed = seed
            self._next_inputs_fn = next_inputs_fn
            super().__init__(inputs=maybe_concatenated_inputs, sequence_length=sequence_length,
                             time_major=time_major, name=name)

    @property
    def sample_ids_dtype(self) -> _dtypes.DType:
        return _dtypes.bool

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        with name_scope(name, "ScheduledOutputTrainingHelperSample"):
            return _bernoulli(self._sampling_probability, self.batch_size, self._seed)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        with name_scope(name, "ScheduledOutputTrainingHelperNextInputs"):
            finished, base_next_inputs, state = super().next_inputs(time, outputs, state, sample_ids)
            sample_ids = cast(sample_ids, _dtypes.bool)

            def maybe_sample() -> Any:
                sampled = outputs if self._next_inputs_fn is None else self._next_inputs_fn(outputs)
                if self._auxiliary_input_tas is not None:
                    aux = nest.map_structure(lambda ta: ta.read(time + 1), self._auxiliary_input_tas)
                    sampled = nest.map_structure(lambda x, y: concat((x, y), -1), sampled, aux)
                return where(sample_ids, sampled, base_next_inputs)

            no_samples = logical_not(reduce_any(sample_ids))
            next_inputs = cond(logical_or(reduce_all(finished), no_samples), lambda: base_next_inputs, maybe_sample)
            return finished, next_inputs, state


class InferenceHelper(Helper):
    """A helper with a custom sampling function, as ``tf.contrib.seq2seq.InferenceHelper``.

    Args:
      sample_fn: ``outputs -> sample_ids``.
      sample_shape, sample_dtype: one entry's sample shape and the dtype.
      start_inputs: ``[batch_size, ...]``, the first step's inputs.
      end_fn: ``sample_ids -> bool [batch_size]`` (finished entries).
      next_inputs_fn: ``sample_ids -> next_inputs`` (default: the sample ids).
    """

    def __init__(self, sample_fn: Any, sample_shape: Any, sample_dtype: Any, start_inputs: Any, end_fn: Any,
                 next_inputs_fn: Any = None) -> None:
        self._sample_fn = sample_fn
        self._end_fn = end_fn
        self._sample_shape = TensorShape(sample_shape)
        self._sample_dtype = _dtypes.as_dtype(sample_dtype)
        self._next_inputs_fn = next_inputs_fn
        self._start_inputs = convert_to_tensor(start_inputs, name="start_inputs")
        self._batch_size = shape(self._start_inputs)[0]

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return self._sample_shape

    @property
    def sample_ids_dtype(self) -> _dtypes.DType:
        return self._sample_dtype

    def initialize(self, name: str | None = None) -> tuple[Any, Any]:
        return tile([False], [self._batch_size]), self._start_inputs

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        return self._sample_fn(outputs)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        finished = self._end_fn(sample_ids)
        next_inputs = sample_ids if self._next_inputs_fn is None else self._next_inputs_fn(sample_ids)
        return finished, next_inputs, state


class GreedyEmbeddingHelper(Helper):
    """Feeds back the embedding of the argmax of each step's output, as
    ``tf.contrib.seq2seq.GreedyEmbeddingHelper``.

    Args:
      embedding: a ``[vocab_size, depth]`` params tensor or a callable
        ``ids -> inputs``.
      start_tokens: int32 ``[batch_size]``, the first step's ids.
      end_token: int32 scalar; an entry finishes when it samples it.

    Raises:
      ValueError: ``start_tokens`` not a vector or ``end_token`` not a scalar.
    """

    def __init__(self, embedding: Any, start_tokens: Any, end_token: Any) -> None:
        if callable(embedding):
            self._embedding_fn = embedding
        else:
            self._embedding_fn = lambda ids: embedding_lookup(embedding, ids)
        self._start_tokens = convert_to_tensor(start_tokens, dtype=_int32, name="start_tokens")
        self._end_token = convert_to_tensor(end_token, dtype=_int32, name="end_token")
        if self._start_tokens.get_shape().ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._batch_size = size(start_tokens)
        if self._end_token.get_shape().ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._start_inputs = self._embedding_fn(self._start_tokens)

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return TensorShape([])

    @property
    def sample_ids_dtype(self) -> _dtypes.DType:
        return _int32

    def initialize(self, name: str | None = None) -> tuple[Any, Any]:
        finished = tile([False], [self._batch_size])
        return finished, self._start_inputs

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        if not isinstance(outputs, Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        return argmax(outputs, axis=-1, output_type=_int32)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        finished = equal(sample_ids, self._end_token)
        all_finished = reduce_all(finished)
        next_inputs = cond(all_finished, lambda: self._start_inputs, lambda: self._embedding_fn(sample_ids))
        return finished, next_inputs, state


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
    """Feeds back the embedding of an id sampled from each step's logits, as
    ``tf.contrib.seq2seq.SampleEmbeddingHelper`` (jaxsess's random stream, so
    the ids differ from TF's).

    Args:
      embedding, start_tokens, end_token: as :class:`GreedyEmbeddingHelper`.
      softmax_temperature: float scalar dividing the logits (default 1).
      seed: the sampling op's seed.
    """

    def __init__(self, embedding: Any, start_tokens: Any, end_token: Any,
                 softmax_temperature: Any = None, seed: int | None = None) -> None:
        super().__init__(embedding, start_tokens, end_token)
        self._softmax_temperature = softmax_temperature
        self._seed = seed

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        if not isinstance(outputs, Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        logits = outputs if self._softmax_temperature is None else outputs / self._softmax_temperature
        return _categorical(logits, self._seed)


class Decoder(abc.ABC):
    """The interface ``dynamic_decode`` runs, as ``tf.contrib.seq2seq.Decoder``."""

    @property
    @abc.abstractmethod
    def batch_size(self) -> Any:
        """The batch size."""

    @property
    @abc.abstractmethod
    def output_size(self) -> Any:
        """A (nested) structure of shapes of one batch entry's output."""

    @property
    @abc.abstractmethod
    def output_dtype(self) -> Any:
        """A (nested) structure of dtypes, in ``output_size``'s structure."""

    @abc.abstractmethod
    def initialize(self, name: str | None = None) -> tuple[Any, Any, Any]:
        """``(finished, initial_inputs, initial_state)``."""

    @abc.abstractmethod
    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> tuple[Any, Any, Any, Any]:
        """``(outputs, next_state, next_inputs, finished)``."""

    def finalize(self, outputs: Any, final_state: Any, sequence_lengths: Any) -> tuple[Any, Any]:
        raise NotImplementedError

    @property
    def tracks_own_finished(self) -> bool:
        """Whether ``step``'s ``finished`` already includes the earlier finished entries."""
        return False

    def _static_max_steps(self) -> int | None:
        return None

    def _trace_max_steps(self) -> Any:
        return None


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput", ("rnn_output", "sample_id"))):
    """One step's (or, stacked, all steps') ``rnn_output`` and ``sample_id``."""

    __slots__ = ()


class BasicDecoder(Decoder):
    """An RNN cell sampled through a helper, as ``tf.contrib.seq2seq.BasicDecoder``.

    Args:
      cell: an ``RNNCell``.
      helper: a :class:`Helper`.
      initial_state: the cell's initial state (its structure).
      output_layer: optional layer applied to the cell's output before
        sampling (``tf.layers.Dense(vocab_size)``).

    Raises:
      TypeError: ``helper`` is not a Helper, ``output_layer`` is not a layer.
    """

    def __init__(self, cell: Any, helper: Helper, initial_state: Any, output_layer: Any = None) -> None:
        if not callable(getattr(cell, "call", None)) and not callable(cell):
            raise TypeError(f"cell must be an RNNCell, received: {type(cell)}")
        if not isinstance(helper, Helper):
            raise TypeError(f"helper must be a Helper, received: {type(helper)}")
        if output_layer is not None and not callable(output_layer):
            raise TypeError(f"output_layer must be a Layer, received: {type(output_layer)}")
        self._cell = cell
        self._helper = helper
        self._initial_state = initial_state
        self._output_layer = output_layer

    @property
    def batch_size(self) -> Any:
        return self._helper.batch_size

    def _rnn_output_size(self) -> Any:
        size_ = self._cell.output_size
        if self._output_layer is None:
            return size_
        with_batch = nest.map_structure(lambda s: TensorShape([None]).concatenate(_as_shape(s)), size_)
        layer_output_shape = self._output_layer.compute_output_shape(with_batch)
        return nest.map_structure(lambda s: TensorShape(s)[1:], layer_output_shape)

    @property
    def output_size(self) -> BasicDecoderOutput:
        return BasicDecoderOutput(rnn_output=self._rnn_output_size(), sample_id=self._helper.sample_ids_shape)

    @property
    def output_dtype(self) -> BasicDecoderOutput:
        dtype = nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(nest.map_structure(lambda _: dtype, self._rnn_output_size()),
                                  self._helper.sample_ids_dtype)

    def _static_max_steps(self) -> int | None:
        return self._helper._static_max_steps()

    def _trace_max_steps(self) -> Any:
        return self._helper._trace_max_steps()

    def initialize(self, name: str | None = None) -> tuple[Any, Any, Any]:
        return (*self._helper.initialize(), self._initial_state)

    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> tuple[Any, Any, Any, Any]:
        with name_scope(name, "BasicDecoderStep"):
            cell_outputs, cell_state = self._cell(inputs, state)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
            finished, next_inputs, next_state = self._helper.next_inputs(
                time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids)
        return BasicDecoderOutput(cell_outputs, sample_ids), next_state, next_inputs, finished


def _create_zero_outputs(size_: Any, dtype: Any, batch_size: Any) -> Any:
    return nest.map_structure(lambda s, d: zero_state_tensors(s, batch_size, d), size_, dtype)


def _stack_bounded(ta: TensorArray, bound: Any) -> Any:
    out = ta.stack()
    if bound is not None:
        out.set_shape(TensorShape([int(bound)]).concatenate(TensorShape(out.shape)[1:]))
    return out


_MAX_ITER_NEEDED = (
    "dynamic_decode: the number of decoding steps must be bounded when the run is traced (XLA compiles a "
    "static loop): pass maximum_iterations as a Python int, a constant or a value computed from tensor shapes "
    "(got {got}), or decode with a TrainingHelper."
)


def dynamic_decode(decoder: Decoder, output_time_major: bool = False, impute_finished: bool = False,
                   maximum_iterations: Any = None, parallel_iterations: int = 32, swap_memory: bool = False,
                   scope: Any = None) -> tuple[Any, Any, Any]:
    """Runs ``decoder`` until every batch entry finishes, as
    ``tf.contrib.seq2seq.dynamic_decode`` (in variable scope ``"decoder"``).

    Args:
      decoder: a :class:`Decoder` (``BasicDecoder``, ``BeamSearchDecoder``).
      output_time_major: outputs ``[max_time, batch_size, ...]`` instead of
        ``[batch_size, max_time, ...]``.
      impute_finished: zero the outputs and copy the state through for
        entries that have finished.
      maximum_iterations: int32 scalar, the most steps. See the module
        docstring for the static bound XLA needs.
      parallel_iterations, swap_memory: accepted, as ``while_loop``.
      scope: the variable scope (default ``"decoder"``).

    Returns:
      ``(final_outputs, final_state, final_sequence_lengths)``: the decoder's
      outputs stacked over time (the static bound's length), its last state
      and int32 ``[batch_size]`` lengths (the step at which each entry finished;
      for a decoder that tracks its own lengths, its state's ``lengths``).

    Raises:
      TypeError: ``decoder`` is not a Decoder.
      ValueError: ``maximum_iterations`` is not a scalar, or no static bound.
    """
    if not isinstance(decoder, Decoder):
        raise TypeError(f"Expected decoder to be type Decoder, but saw: {type(decoder)}")
    with variable_scope(scope, "decoder"):
        bound = decoder._static_max_steps()
        if maximum_iterations is not None:
            maximum_iterations = convert_to_tensor(maximum_iterations, dtype=_int32, name="maximum_iterations")
            if maximum_iterations.get_shape().ndims != 0:
                raise ValueError("maximum_iterations must be a scalar")
            known = constant_value(maximum_iterations)
            if known is not None:
                bound = int(known) if bound is None else min(bound, int(known))
        # Without a build-time bound, a trace-time one (computed from shapes) makes the loop a
        # counting loop `time < n`, which the lowering bounds when the run is traced.
        trace_bound: Any = None
        if bound is None:
            candidates = [decoder._trace_max_steps()]
            if maximum_iterations is not None and trace_computable(maximum_iterations, {}):
                candidates.append(maximum_iterations)
            for c in candidates:
                if c is not None:
                    trace_bound = c if trace_bound is None else minimum(trace_bound, c)
            if trace_bound is None:
                got = "None" if maximum_iterations is None else \
                    f"tensor '{maximum_iterations.name}' computed at run time"
                raise ValueError(_MAX_ITER_NEEDED.format(got=got))
        else:
            bound = max(bound, 0)

        initial_finished, initial_inputs, initial_state = decoder.initialize()
        zero_outputs = _create_zero_outputs(decoder.output_size, decoder.output_dtype, decoder.batch_size)
        if maximum_iterations is not None:
            initial_finished = logical_or(initial_finished, 0 >= maximum_iterations)
        initial_sequence_lengths = zeros_like(initial_finished, dtype=_int32)
        initial_time = constant(0, dtype=_int32)

        batch_static = constant_value(convert_to_tensor(decoder.batch_size))

        def _shape(from_shape: Any) -> TensorShape:
            s = _as_shape(from_shape)
            return TensorShape([None if batch_static is None else int(batch_static)]).concatenate(s)

        def _create_ta(s: Any, d: Any) -> TensorArray:
            return TensorArray(dtype=d, size=0, dynamic_size=True, element_shape=_shape(s))

        initial_outputs_ta = nest.map_structure(_create_ta, decoder.output_size, decoder.output_dtype)

        def condition(time: Any, outputs_ta: Any, state: Any, inputs: Any, finished: Any, lengths: Any) -> Any:
            if trace_bound is not None:
                return less(time, trace_bound)
            go_on = logical_not(reduce_all(finished))
            if maximum_iterations is not None:
                go_on = logical_and(go_on, less(time, maximum_iterations))
            return go_on

        def body(time: Any, outputs_ta: Any, state: Any, inputs: Any, finished: Any, lengths: Any) -> Any:
            next_outputs, decoder_state, next_inputs, decoder_finished = decoder.step(time, inputs, state)
            own_lengths = getattr(decoder_state, "lengths", None) if decoder.tracks_own_finished else None
            if decoder.tracks_own_finished:
                next_finished = decoder_finished
            else:
                next_finished = logical_or(decoder_finished, finished)
            if own_lengths is not None:  # a decoder that tracks its lengths (BeamSearchDecoder) gives them, as TF
                next_lengths = cast(own_lengths, _int32)
            else:
                next_lengths = where(logical_not(finished), fill(shape(lengths), time + 1), lengths)
            nest.assert_same_structure(state, decoder_state)
            nest.assert_same_structure(inputs, next_inputs)
            if impute_finished:
                emit = nest.map_structure(lambda out, zero: where(finished, zero, out), next_outputs, zero_outputs)
            else:
                emit = next_outputs

            def _maybe_copy_state(new: Any, cur: Any) -> Any:
                if isinstance(cur, TensorArray):
                    return new
                new.set_shape(cur.shape)
                return new if new.shape.ndims == 0 else where(finished, cur, new)

            next_state = nest.map_structure(_maybe_copy_state, decoder_state, state) if impute_finished \
                else decoder_state
            if trace_bound is not None:
                # a counting loop runs to its bound: the steps after TF's loop would stop change nothing
                done = reduce_all(finished)
                if maximum_iterations is not None:
                    done = logical_or(done, greater_equal(time, maximum_iterations))

                def keep(new: Any, cur: Any) -> Any:
                    return new if isinstance(cur, TensorArray) else where_v2(done, cur, new)

                emit = nest.map_structure(lambda out: where_v2(done, zeros_like(out), out), emit)
                next_state = nest.map_structure(keep, next_state, state)
                next_inputs = nest.map_structure(keep, next_inputs, inputs)
                next_finished, next_lengths = keep(next_finished, finished), keep(next_lengths, lengths)
            outputs_ta = nest.map_structure(lambda ta, out: ta.write(time, out), outputs_ta, emit)
            return time + 1, outputs_ta, next_state, next_inputs, next_finished, next_lengths

        res = while_loop(condition, body,
                         loop_vars=(initial_time, initial_outputs_ta, initial_state, initial_inputs,
                                    initial_finished, initial_sequence_lengths),
                         parallel_iterations=parallel_iterations, maximum_iterations=bound, swap_memory=swap_memory)
        stack_len = bound if bound is not None else constant_value(trace_bound)
        final_state = res[2]
        final_sequence_lengths = res[5]
        final_outputs = nest.map_structure(lambda ta: _stack_bounded(ta, stack_len), res[1])
        try:
            final_outputs, final_state = decoder.finalize(final_outputs, final_state, final_sequence_lengths)
        except NotImplementedError:
            pass
        if not output_time_major:
            final_outputs = nest.map_structure(_transpose_batch_time, final_outputs)
    return final_outputs, final_state, final_sequence_lengths
