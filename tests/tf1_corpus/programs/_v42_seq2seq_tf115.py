"""The oracle's tf.contrib.seq2seq for the v42_ corpus programs under TF 2.x (which has no tf.contrib).

Written for this corpus from TF 1.15's documented behaviour (tensorflow/contrib/seq2seq: helper.py,
basic_decoder.py, decoder.py, loss.py, attention_wrapper.py, beam_search_decoder.py and the GatherTree
kernel, beam_search_ops.cc; TensorFlow Addons' tfa.seq2seq carries the same code on), in TF1 graph
style on public tf.compat.v1 ops, and only the parts the programs use. It shares no code with the
library under test (tests/test_tf1_corpus.py checks), so a golden recorded through it can catch a bug
there. Variable names, variable creation order, op math and result types are TF 1.15's; graph op names
are not. Not a program (leading underscore)."""
import collections
import math

import numpy as np
import tensorflow.compat.v1 as tf

nest = tf.nest

# -- small pieces -------------------------------------------------------------------------------------


def _static(x):
    """A Python int when ``x`` (int or scalar tensor) is known when the graph is built, else None."""
    return x if isinstance(x, int) else tf.get_static_value(x)


def _size(t, axis):
    d = tf.compat.dimension_value(t.shape[axis])
    return d if d is not None else tf.shape(t)[axis]


def _swap_batch_time(t):
    """[batch, time, ...] <-> [time, batch, ...] (TF's rnn._transpose_batch_time)."""
    rank = t.shape.ndims
    if rank is not None and rank < 2:
        return t
    return tf.transpose(t, [1, 0] + list(range(2, rank)))


def _zeros(size, batch_size, dtype):
    """Zeros ``[batch_size] + s`` for each ``s`` in the structure ``size`` (ints or TensorShapes)."""

    def one(s):
        inner = [s] if isinstance(s, int) else tf.TensorShape(s).as_list()
        z = tf.zeros(tf.stack([batch_size] + inner), dtype)
        z.set_shape([_static(batch_size)] + inner)
        return z

    return nest.map_structure(one, size)


def _time_ta(x):
    """A TensorArray holding the time steps of the time-major ``x``."""
    return tf.TensorArray(x.dtype, size=tf.shape(x)[0], element_shape=x.shape[1:]).unstack(x)


# -- helpers (helper.py) ----------------------------------------------------------------------------


class TrainingHelper:
    """Feeds the ground-truth inputs, step by step; a batch entry is done after its sequence length."""

    def __init__(self, inputs, sequence_length, time_major=False, name=None):
        with tf.name_scope(name, "TrainingHelper", [inputs, sequence_length]):
            inputs = nest.map_structure(lambda x: tf.convert_to_tensor(x, name="inputs"), inputs)
            if not time_major:
                inputs = nest.map_structure(_swap_batch_time, inputs)
            self._steps = nest.map_structure(_time_ta, inputs)
            self._lengths = tf.convert_to_tensor(sequence_length, name="sequence_length")
            if self._lengths.shape.ndims != 1:
                raise ValueError("sequence_length must be a vector")
            self._zero_inputs = nest.map_structure(lambda x: tf.zeros_like(x[0, :]), inputs)
            self._batch = tf.size(sequence_length)

    @property
    def batch_size(self):
        return self._batch

    @property
    def sample_ids_shape(self):
        return tf.TensorShape([])

    @property
    def sample_ids_dtype(self):
        return tf.int32

    def _read(self, t):
        return nest.map_structure(lambda ta: ta.read(t), self._steps)

    def initialize(self, name=None):
        with tf.name_scope(name, "TrainingHelperInitialize"):
            done = tf.equal(0, self._lengths)
            first = tf.cond(tf.reduce_all(done), lambda: self._zero_inputs, lambda: self._read(0))
            return done, first

    def sample(self, time, outputs, state, name=None):
        with tf.name_scope(name, "TrainingHelperSample", [time, outputs]):
            return tf.cast(tf.argmax(outputs, axis=-1), tf.int32)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with tf.name_scope(name, "TrainingHelperNextInputs", [time, outputs, state]):
            t = time + 1
            done = t >= self._lengths
            nxt = tf.cond(tf.reduce_all(done), lambda: self._zero_inputs, lambda: self._read(t))
            return done, nxt, state


class GreedyEmbeddingHelper:
    """Feeds the embedding of the argmax of the last outputs; an entry is done when it emits ``end_token``."""

    def __init__(self, embedding, start_tokens, end_token):
        self._embed = embedding if callable(embedding) else (lambda ids: tf.nn.embedding_lookup(embedding, ids))
        self._start_tokens = tf.convert_to_tensor(start_tokens, tf.int32, name="start_tokens")
        self._end_token = tf.convert_to_tensor(end_token, tf.int32, name="end_token")
        if self._start_tokens.shape.ndims != 1:
            raise ValueError("start_tokens must be a vector")
        if self._end_token.shape.ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._batch = tf.size(start_tokens)
        self._start_inputs = self._embed(self._start_tokens)

    @property
    def batch_size(self):
        return self._batch

    @property
    def sample_ids_shape(self):
        return tf.TensorShape([])

    @property
    def sample_ids_dtype(self):
        return tf.int32

    def initialize(self, name=None):
        return tf.tile([False], [self._batch]), self._start_inputs

    def sample(self, time, outputs, state, name=None):
        if not isinstance(outputs, tf.Tensor):
            raise TypeError("Expected outputs to be a single Tensor, got: %s" % type(outputs))
        return tf.argmax(outputs, axis=-1, output_type=tf.int32)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        done = tf.equal(sample_ids, self._end_token)
        nxt = tf.cond(tf.reduce_all(done), lambda: self._start_inputs, lambda: self._embed(sample_ids))
        return done, nxt, state


# -- BasicDecoder (basic_decoder.py) and dynamic_decode (decoder.py) -------------------------------


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput", ("rnn_output", "sample_id"))):
    pass


def _projected_size(cell, layer):
    """The output size of ``cell`` after the optional ``layer`` (without the batch dimension)."""
    size = cell.output_size
    if layer is None:
        return size
    with_batch = nest.map_structure(lambda s: tf.TensorShape([None]).concatenate(s), size)
    return nest.map_structure(lambda s: s[1:], layer.compute_output_shape(with_batch))


class BasicDecoder:
    """One step: the cell, the optional output layer, then the helper's sample and next inputs."""

    tracks_own_finished = False

    def __init__(self, cell, helper, initial_state, output_layer=None):
        self._cell, self._helper, self._initial_state, self._layer = cell, helper, initial_state, output_layer

    @property
    def batch_size(self):
        return self._helper.batch_size

    @property
    def output_size(self):
        return BasicDecoderOutput(_projected_size(self._cell, self._layer), self._helper.sample_ids_shape)

    @property
    def output_dtype(self):
        dtype = nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(nest.map_structure(lambda _: dtype, _projected_size(self._cell, self._layer)),
                                  self._helper.sample_ids_dtype)

    def initialize(self, name=None):
        done, first = self._helper.initialize()
        return done, first, self._initial_state

    def step(self, time, inputs, state, name=None):
        with tf.name_scope(name, "BasicDecoderStep", (time, inputs, state)):
            out, cell_state = self._cell(inputs, state)
            if self._layer is not None:
                out = self._layer(out)
            ids = self._helper.sample(time=time, outputs=out, state=cell_state)
            done, nxt, nxt_state = self._helper.next_inputs(time=time, outputs=out, state=cell_state,
                                                            sample_ids=ids)
        return BasicDecoderOutput(out, ids), nxt_state, nxt, done


def dynamic_decode(decoder, output_time_major=False, impute_finished=False, maximum_iterations=None,
                   parallel_iterations=32, swap_memory=False, scope=None):
    """Runs ``decoder.step`` in a while loop until every entry is done (or ``maximum_iterations``)."""
    with tf.variable_scope(scope, "decoder"):
        if maximum_iterations is not None:
            maximum_iterations = tf.convert_to_tensor(maximum_iterations, tf.int32, name="maximum_iterations")
            if maximum_iterations.shape.ndims != 0:
                raise ValueError("maximum_iterations must be a scalar")
        done0, inputs0, state0 = decoder.initialize()
        zero_out = nest.map_structure(lambda s, d: _zeros(s, decoder.batch_size, d), decoder.output_size,
                                      decoder.output_dtype)
        if maximum_iterations is not None:
            done0 = tf.logical_or(done0, 0 >= maximum_iterations)
        lengths0 = tf.zeros_like(done0, dtype=tf.int32)
        static_batch = _static(decoder.batch_size)

        def new_ta(s, d):
            shape = None if not isinstance(s, tf.TensorShape) or s.ndims == 0 else \
                tf.TensorShape([static_batch]).concatenate(s)
            return tf.TensorArray(d, size=0, dynamic_size=True, element_shape=shape)

        tas0 = nest.map_structure(new_ta, decoder.output_size, decoder.output_dtype)

        def not_all_done(time, tas, state, inputs, done, lengths):
            return tf.logical_not(tf.reduce_all(done))

        def body(time, tas, state, inputs, done, lengths):
            out, new_state, nxt, step_done = decoder.step(time, inputs, state)
            own_lengths = False
            if decoder.tracks_own_finished:
                new_done = step_done
                if getattr(new_state, "lengths", None) is not None:
                    own_lengths = True
                    lengths = tf.cast(new_state.lengths, tf.int32)
            else:
                new_done = tf.logical_or(step_done, done)
            if not own_lengths:
                lengths = tf.where(tf.logical_not(done), tf.fill(tf.shape(lengths), time + 1), lengths)
            if impute_finished:
                out = nest.map_structure(lambda o, z: tf.where(done, z, o), out, zero_out)

                def keep_done(new, old):
                    if isinstance(old, tf.TensorArray):
                        return new
                    new.set_shape(old.shape)
                    return new if new.shape.ndims == 0 else tf.where(done, old, new)

                new_state = nest.map_structure(keep_done, new_state, state)
            tas = nest.map_structure(lambda ta, o: ta.write(time, o), tas, out)
            return time + 1, tas, new_state, nxt, new_done, lengths

        res = tf.while_loop(not_all_done, body, (tf.constant(0, tf.int32), tas0, state0, inputs0, done0, lengths0),
                            parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations,
                            swap_memory=swap_memory)
        outputs = nest.map_structure(lambda ta: ta.stack(), res[1])
        state, lengths = res[2], res[5]
        if hasattr(decoder, "finalize"):
            outputs, state = decoder.finalize(outputs, state, lengths)
        if not output_time_major:
            outputs = nest.map_structure(_swap_batch_time, outputs)
    return outputs, state, lengths


def sequence_loss(logits, targets, weights, average_across_timesteps=True, average_across_batch=True,
                  name=None):
    """Weighted cross-entropy of ``logits [batch, time, classes]`` against ``targets [batch, time]`` (loss.py)."""
    with tf.name_scope(name, "sequence_loss", [logits, targets, weights]):
        classes = tf.shape(logits)[2]
        xent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.reshape(targets, [-1]),
                                                              logits=tf.reshape(logits, [-1, classes]))
        xent *= tf.reshape(weights, [-1])
        if average_across_timesteps and average_across_batch:
            return tf.div_no_nan(tf.reduce_sum(xent), tf.reduce_sum(weights))
        xent = tf.reshape(xent, tf.shape(logits)[0:2])
        if average_across_timesteps or average_across_batch:
            axis = [0] if average_across_batch else [1]
            return tf.div_no_nan(tf.reduce_sum(xent, axis=axis), tf.reduce_sum(weights, axis=axis))
        return xent


# -- attention (attention_wrapper.py) ----------------------------------------------------------------


class _Attention:
    """Memory (rows past an entry's length zeroed), keys (the memory through ``memory_layer``), and
    scores turned into alignments by a softmax after masking the scores past each length with -inf."""

    def __init__(self, memory, memory_sequence_length, query_layer, memory_layer, name):
        self.query_layer, self.memory_layer = query_layer, memory_layer
        with tf.name_scope(name, "BaseAttentionMechanismInit", nest.flatten(memory)):
            memory = tf.convert_to_tensor(memory, name="memory")
            self._lengths = None
            if memory_sequence_length is not None:
                self._lengths = tf.convert_to_tensor(memory_sequence_length, name="memory_sequence_length")
                mask = tf.sequence_mask(self._lengths, maxlen=tf.shape(memory)[1], dtype=memory.dtype)
                ones = tf.ones([memory.shape.ndims - 2], tf.int32)
                memory = memory * tf.reshape(mask, tf.concat([tf.shape(mask), ones], 0))
            self.values = memory
            self.keys = memory_layer(memory) if memory_layer is not None else memory
            self.batch_size = _size(self.keys, 0)
            self.alignments_size = _size(self.keys, 1)
        self.dtype = self.values.dtype

    @property
    def state_size(self):
        return self.alignments_size

    def initial_alignments(self, batch_size, dtype):
        return _zeros(self.alignments_size, batch_size, dtype)

    def initial_state(self, batch_size, dtype):
        return self.initial_alignments(batch_size, dtype)

    def _alignments(self, score):
        if self._lengths is not None:
            valid = tf.sequence_mask(self._lengths, maxlen=tf.shape(score)[1])
            score = tf.where(valid, score, np.float32(-np.inf) * tf.ones_like(score))
        return tf.nn.softmax(score)


class BahdanauAttention(_Attention):
    """Additive attention: ``score_j = v . tanh(keys_j + W_q query)``; ``normalize`` rescales ``v`` to
    norm ``g`` (initially sqrt(1/num_units)) and adds a bias inside the tanh."""

    def __init__(self, num_units, memory, memory_sequence_length=None, normalize=False, name="BahdanauAttention"):
        super().__init__(memory, memory_sequence_length,
                         tf.layers.Dense(num_units, name="query_layer", use_bias=False),
                         tf.layers.Dense(num_units, name="memory_layer", use_bias=False), name)
        self._units, self._normalize = num_units, normalize

    def __call__(self, query, state):
        with tf.variable_scope(None, "bahdanau_attention", [query]):
            q = tf.expand_dims(self.query_layer(query), 1)
            v = tf.get_variable("attention_v", [self._units], dtype=query.dtype)
            if self._normalize:
                g = tf.get_variable("attention_g", dtype=query.dtype, shape=(),
                                    initializer=tf.constant_initializer(math.sqrt(1.0 / self._units)))
                b = tf.get_variable("attention_b", [self._units], dtype=query.dtype,
                                    initializer=tf.zeros_initializer())
                v = g * v * tf.rsqrt(tf.reduce_sum(tf.square(v)))
                score = tf.reduce_sum(v * tf.tanh(self.keys + q + b), [2])
            else:
                score = tf.reduce_sum(v * tf.tanh(self.keys + q), [2])
        alignments = self._alignments(score)
        return alignments, alignments


class LuongAttention(_Attention):
    """Multiplicative attention: ``score_j = query . keys_j`` (times a scalar ``g``, initially 1, if ``scale``)."""

    def __init__(self, num_units, memory, memory_sequence_length=None, scale=False, name="LuongAttention"):
        super().__init__(memory, memory_sequence_length, None,
                         tf.layers.Dense(num_units, name="memory_layer", use_bias=False), name)
        self._scale = scale

    def __call__(self, query, state):
        with tf.variable_scope(None, "luong_attention", [query]):
            if query.shape[-1] != self.keys.shape[-1]:
                raise ValueError("query depth %s differs from the keys' %s" % (query.shape[-1], self.keys.shape[-1]))
            score = tf.squeeze(tf.matmul(tf.expand_dims(query, 1), self.keys, transpose_b=True), [1])
            if self._scale:
                g = tf.get_variable("attention_g", dtype=query.dtype, shape=(), initializer=tf.ones_initializer())
                score = g * score
        alignments = self._alignments(score)
        return alignments, alignments


class AttentionWrapperState(collections.namedtuple(
        "AttentionWrapperState",
        ("cell_state", "attention", "time", "alignments", "alignment_history", "attention_state"))):

    def clone(self, **kwargs):
        def same_shape(old, new):
            if isinstance(old, tf.Tensor) and isinstance(new, tf.Tensor):
                new.set_shape(old.shape)
            return new

        return nest.map_structure(same_shape, self, self._replace(**kwargs))


def _one_or_tuple(items, many):
    items = tuple(items)
    return items if many else items[0]


class AttentionWrapper(tf.nn.rnn_cell.RNNCell):
    """Each step: the cell reads ``concat(inputs, previous attention)``; each mechanism scores the cell
    output against its keys; the context (alignments . values), through the optional attention layer
    ``W [cell_output; context]``, is the new attention."""

    def __init__(self, cell, attention_mechanism, attention_layer_size=None, alignment_history=False,
                 output_attention=True, name=None):
        super().__init__(name=name)
        self._many = isinstance(attention_mechanism, (list, tuple))
        self._mechanisms = tuple(attention_mechanism) if self._many else (attention_mechanism,)
        if attention_layer_size is not None:
            sizes = tuple(attention_layer_size) if isinstance(attention_layer_size, (list, tuple)) else \
                (attention_layer_size,)
            if len(sizes) != len(self._mechanisms):
                raise ValueError("one attention_layer_size per attention mechanism")
            self._layers = tuple(tf.layers.Dense(s, name="attention_layer", use_bias=False) for s in sizes)
            self._attention_size = sum(sizes)
        else:
            self._layers = None
            self._attention_size = sum(tf.compat.dimension_value(m.values.shape[-1]) for m in self._mechanisms)
        self._cell, self._output_attention, self._history = cell, output_attention, alignment_history

    @property
    def output_size(self):
        return self._attention_size if self._output_attention else self._cell.output_size

    @property
    def state_size(self):
        return AttentionWrapperState(
            cell_state=self._cell.state_size, time=tf.TensorShape([]), attention=self._attention_size,
            alignments=_one_or_tuple((m.alignments_size for m in self._mechanisms), self._many),
            attention_state=_one_or_tuple((m.state_size for m in self._mechanisms), self._many),
            alignment_history=_one_or_tuple((m.alignments_size if self._history else () for m in self._mechanisms),
                                            self._many))

    def zero_state(self, batch_size, dtype):
        with tf.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            alignments = [m.initial_alignments(batch_size, dtype) for m in self._mechanisms]
            return AttentionWrapperState(
                cell_state=self._cell.zero_state(batch_size, dtype),
                time=tf.zeros([], tf.int32),
                attention=_zeros(self._attention_size, batch_size, dtype),
                alignments=_one_or_tuple(alignments, self._many),
                attention_state=_one_or_tuple((m.initial_state(batch_size, dtype) for m in self._mechanisms),
                                              self._many),
                alignment_history=_one_or_tuple(
                    (tf.TensorArray(dtype, size=0, dynamic_size=True, element_shape=a.shape) if self._history else ()
                     for a in alignments), self._many))

    def call(self, inputs, state):
        if not isinstance(state, AttentionWrapperState):
            raise TypeError("Expected state to be an AttentionWrapperState, got %s" % type(state))
        cell_out, cell_state = self._cell(tf.concat([inputs, state.attention], -1), state.cell_state)
        prev_states = state.attention_state if self._many else (state.attention_state,)
        prev_histories = state.alignment_history if self._many else (state.alignment_history,)
        attentions, alignments, histories = [], [], []
        for i, mechanism in enumerate(self._mechanisms):
            align, _ = mechanism(cell_out, state=prev_states[i])
            context = tf.squeeze(tf.matmul(tf.expand_dims(align, 1), mechanism.values), [1])
            attentions.append(self._layers[i](tf.concat([cell_out, context], 1)) if self._layers else context)
            alignments.append(align)
            histories.append(prev_histories[i].write(state.time, align) if self._history else ())
        attention = tf.concat(attentions, 1)
        new_state = AttentionWrapperState(
            cell_state=cell_state, attention=attention, time=state.time + 1,
            alignments=_one_or_tuple(alignments, self._many), attention_state=_one_or_tuple(alignments, self._many),
            alignment_history=_one_or_tuple(histories, self._many))
        return (attention if self._output_attention else cell_out), new_state


# -- beam search (beam_search_decoder.py, beam_search_ops.cc) ---------------------------------------


class BeamSearchDecoderState(collections.namedtuple(
        "BeamSearchDecoderState", ("cell_state", "log_probs", "finished", "lengths", "accumulated_attention_probs"))):
    pass


class BeamSearchDecoderOutput(collections.namedtuple("BeamSearchDecoderOutput",
                                                     ("scores", "predicted_ids", "parent_ids"))):
    pass


class FinalBeamSearchDecoderOutput(collections.namedtuple("FinalBeamDecoderOutput",
                                                          ("predicted_ids", "beam_search_decoder_output"))):
    pass


def tile_batch(t, multiplier, name=None):
    """Repeats each batch entry ``multiplier`` times in place: [a, b] -> [a, a, ..., b, b, ...]."""

    def tile(x):
        x = tf.convert_to_tensor(x, name="t")
        if x.shape.ndims is None or x.shape.ndims < 1:
            raise ValueError("t must have statically known rank")
        reps = [1, multiplier] + [1] * (x.shape.ndims - 1)
        shape = tf.shape(x)
        out = tf.reshape(tf.tile(tf.expand_dims(x, 1), reps), tf.concat([[shape[0] * multiplier], shape[1:]], 0))
        batch = tf.compat.dimension_value(x.shape[0])
        out.set_shape(tf.TensorShape([None if batch is None else batch * multiplier]).concatenate(x.shape[1:]))
        return out

    with tf.name_scope(name, "tile_batch", nest.flatten(t) + [multiplier]):
        return nest.map_structure(tile, t)


def gather_tree(step_ids, parent_ids, max_sequence_lengths, end_token, name=None):
    """The full beams ``[max_time, batch, beam]``: from the last step of each batch entry's length back to
    step 0, each beam follows its parents; steps past the length, and past the first ``end_token``,
    hold ``end_token``."""
    with tf.name_scope(name, "GatherTree", [step_ids, parent_ids, max_sequence_lengths, end_token]):
        step_ids = tf.convert_to_tensor(step_ids, tf.int32)
        parent_ids = tf.convert_to_tensor(parent_ids, tf.int32)
        end_token = tf.convert_to_tensor(end_token, tf.int32)
        shape = tf.shape(step_ids)
        last = tf.minimum(tf.convert_to_tensor(max_sequence_lengths, tf.int32), shape[0]) - 1  # [batch]
        own = tf.tile(tf.expand_dims(tf.range(shape[2]), 0), [shape[1], 1])  # [batch, beam]

        def back(t, beam, ta):
            inside = tf.expand_dims(t <= last, 1)
            beam = tf.where_v2(tf.expand_dims(tf.equal(t, last), 1), own, beam)
            ids = tf.gather(step_ids[t], beam, batch_dims=1)
            up = tf.gather(parent_ids[t], beam, batch_dims=1)
            ta = ta.write(t, tf.where_v2(inside, ids, end_token))
            return t - 1, tf.where_v2(inside, up, beam), ta

        _, _, ta = tf.while_loop(lambda t, *_: t >= 0, back,
                                 (shape[0] - 1, own, tf.TensorArray(tf.int32, size=shape[0])))
        beams = ta.stack()
        ended = tf.cumsum(tf.cast(tf.equal(beams, end_token), tf.int32), axis=0, exclusive=True) > 0
        return tf.where_v2(ended, end_token, beams)


def _gather_beams(indices, values, batch_size, range_size, flat_shape):
    """``values`` picked per batch entry at ``indices`` (offsets into rows of ``range_size``)."""
    offsets = tf.expand_dims(tf.range(batch_size) * range_size, 1)
    out = tf.gather(tf.reshape(values, flat_shape), tf.reshape(indices + offsets, [-1]))
    out = tf.reshape(out, tf.shape(values)[:1 + len(flat_shape)])
    out.set_shape(tf.TensorShape([_static(batch_size)]).concatenate(values.shape[1:1 + len(flat_shape)]))
    return out


def _attention_probs(cell_state, coverage_penalty_weight):
    """The alignments of the attentional part of ``cell_state`` (mean over mechanisms), or None."""
    if coverage_penalty_weight == 0.0:
        return None

    def of(s):
        a = s.alignments
        return tf.reduce_mean(tf.stack(list(a), -1), -1) if isinstance(a, tuple) else a

    if isinstance(cell_state, AttentionWrapperState):
        probs = [of(cell_state)]
    else:
        probs = [of(s) for s in (cell_state if isinstance(cell_state, tuple) else ())
                 if isinstance(s, AttentionWrapperState)]
    if not probs:
        raise ValueError("coverage_penalty_weight must be 0.0 if no cell is attentional.")
    return probs[0] if len(probs) == 1 else tf.reduce_mean(tf.stack(probs, -1), -1)


class BeamSearchDecoder:
    """Keeps ``beam_width`` hypotheses per batch entry; each step extends every live hypothesis by every
    word, scores them (log probability over the length penalty ((5 + length) / 6) ** alpha, plus the
    coverage penalty of finished ones) and keeps the best ``beam_width``; a finished hypothesis only
    extends with ``end_token`` at no cost."""

    tracks_own_finished = True

    def __init__(self, cell, embedding, start_tokens, end_token, initial_state, beam_width, output_layer=None,
                 length_penalty_weight=0.0, coverage_penalty_weight=0.0, reorder_tensor_arrays=True):
        self._cell, self._layer, self._reorder = cell, output_layer, reorder_tensor_arrays
        self._embed = embedding if callable(embedding) else (lambda ids: tf.nn.embedding_lookup(embedding, ids))
        start_tokens = tf.convert_to_tensor(start_tokens, tf.int32, name="start_tokens")
        if start_tokens.shape.ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._end_token = tf.convert_to_tensor(end_token, tf.int32, name="end_token")
        if self._end_token.shape.ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._batch = tf.size(start_tokens)
        self._beam = beam_width
        self._alpha, self._beta = length_penalty_weight, coverage_penalty_weight
        self._initial = nest.map_structure(self._split_if_batched, initial_state, cell.state_size)
        self._start_inputs = self._embed(tf.tile(tf.expand_dims(start_tokens, 1), [1, beam_width]))
        # only beam 0 is alive at the start: the others are "finished" with log probability -inf
        self._finished = tf.one_hot(tf.zeros([self._batch], tf.int32), depth=beam_width, on_value=False,
                                    off_value=True, dtype=tf.bool)

    @property
    def batch_size(self):
        return self._batch

    @property
    def output_size(self):
        beams = tf.TensorShape([self._beam])
        return BeamSearchDecoderOutput(scores=beams, predicted_ids=beams, parent_ids=beams)

    @property
    def output_dtype(self):
        dtype = nest.flatten(self._initial)[0].dtype
        return BeamSearchDecoderOutput(scores=nest.map_structure(lambda _: dtype, _projected_size(self._cell,
                                                                                                   self._layer)),
                                       predicted_ids=tf.int32, parent_ids=tf.int32)

    # [batch * beam, ...] <-> [batch, beam, ...]
    def _split(self, t, inner):
        out = tf.reshape(t, tf.concat([[self._batch, self._beam], tf.shape(t)[1:]], 0))
        out.set_shape(tf.TensorShape([_static(self._batch), self._beam]).concatenate(inner))
        return out

    def _merge(self, t, inner):
        static = _static(self._batch)
        out = tf.reshape(t, tf.concat([[self._batch * self._beam], tf.shape(t)[2:]], 0))
        out.set_shape(tf.TensorShape([None if static is None else static * self._beam]).concatenate(inner))
        return out

    def _split_if_batched(self, t, size):
        if isinstance(t, tf.TensorArray) or t.shape.ndims == 0:
            return t
        return self._split(t, t.shape[1:])

    def _merge_if_batched(self, t, size):
        if isinstance(t, tf.TensorArray) or t.shape.ndims < 2:
            return t
        return self._merge(t, t.shape[2:])

    def initialize(self, name=None):
        dtype = nest.flatten(self._initial)[0].dtype
        log_probs = tf.one_hot(tf.zeros([self._batch], tf.int32), depth=self._beam,
                               on_value=tf.constant(0.0, dtype), off_value=tf.constant(-np.inf, dtype), dtype=dtype)
        coverage = _attention_probs(self._initial, self._beta)
        state = BeamSearchDecoderState(cell_state=self._initial, log_probs=log_probs, finished=self._finished,
                                       lengths=tf.zeros([self._batch, self._beam], tf.int64),
                                       accumulated_attention_probs=() if coverage is None else coverage)
        return self._finished, self._start_inputs, state

    def step(self, time, inputs, state, name=None):
        with tf.name_scope(name, "BeamSearchDecoderStep", (time, inputs, state)):
            inputs = nest.map_structure(lambda x: self._merge(x, x.shape[2:]), inputs)
            cell_state = nest.map_structure(self._merge_if_batched, state.cell_state, self._cell.state_size)
            out, cell_state = self._cell(inputs, cell_state)
            out = nest.map_structure(lambda x: self._split(x, x.shape[1:]), out)
            cell_state = nest.map_structure(self._split_if_batched, cell_state, self._cell.state_size)
            if self._layer is not None:
                out = self._layer(out)
            output, new_state = self._search_step(out, cell_state, state)
            done = new_state.finished
            nxt = tf.cond(tf.reduce_all(done), lambda: self._start_inputs,
                          lambda: self._embed(output.predicted_ids))
        return output, new_state, nxt, done

    def _search_step(self, logits, cell_state, state):
        batch, beam, end = self._batch, self._beam, self._end_token
        vocab = _size(logits, 2)
        was_done = state.finished
        live = tf.logical_not(was_done)
        # a finished beam puts all its mass on end_token (the other words get the dtype's lowest value)
        step_lp = tf.nn.log_softmax(logits)
        only_end = tf.one_hot(end, tf.shape(step_lp)[2], on_value=tf.constant(0.0, step_lp.dtype),
                              off_value=step_lp.dtype.min, dtype=step_lp.dtype)
        step_lp = tf.where_v2(tf.expand_dims(was_done, 2), only_end, step_lp)
        total = tf.expand_dims(state.log_probs, 2) + step_lp  # [batch, beam, vocab]
        # a live beam grows by one word, end_token included
        grow = tf.one_hot(tf.fill([batch, beam], end), depth=vocab, on_value=np.int64(0), off_value=np.int64(1),
                          dtype=tf.int64) * tf.expand_dims(tf.cast(live, tf.int64), 2)
        new_lengths = grow + tf.expand_dims(state.lengths, 2)
        coverage = None
        probs = _attention_probs(cell_state, self._beta)
        if probs is not None:
            coverage = state.accumulated_attention_probs + probs * tf.expand_dims(tf.cast(live, probs.dtype), 2)
        scores = total
        if self._alpha != 0:
            alpha = tf.convert_to_tensor(self._alpha, tf.float32)
            scores = total / tf.cast(((5.0 + tf.cast(new_lengths, tf.float32)) ** alpha) / (6.0 ** alpha), total.dtype)
        if coverage is not None:
            cov = tf.where_v2(tf.equal(coverage, 0.0), 1.0, coverage)  # memory past an entry's length
            penalty = tf.reduce_sum(tf.log(tf.minimum(cov, 1.0)), 2) * tf.cast(was_done, tf.float32)
            scores = scores + tf.expand_dims(penalty * self._beta, 2)
        best, flat = tf.nn.top_k(tf.reshape(scores, [batch, -1]), k=beam)
        best.set_shape([_static(batch), beam])
        flat.set_shape([_static(batch), beam])
        word = tf.cast(flat % vocab, tf.int32)
        parent = tf.cast(flat // vocab, tf.int32)
        picked_done = _gather_beams(parent, was_done, batch, beam, [-1])
        lengths = _gather_beams(parent, state.lengths, batch, beam, [-1]) + tf.cast(tf.logical_not(picked_done),
                                                                                    tf.int64)
        new_coverage = () if coverage is None else \
            _gather_beams(parent, coverage, batch, beam, [batch * beam, -1])
        new_cell_state = nest.map_structure(
            lambda s: s if isinstance(s, tf.TensorArray) or s.shape.ndims < 2 else
            _gather_beams(parent, s, batch, beam, [batch * beam, -1]), cell_state)
        new_state = BeamSearchDecoderState(
            cell_state=new_cell_state, log_probs=_gather_beams(flat, total, batch, beam * vocab, [-1]),
            finished=tf.logical_or(picked_done, tf.equal(word, end)), lengths=lengths,
            accumulated_attention_probs=new_coverage)
        return BeamSearchDecoderOutput(scores=best, predicted_ids=word, parent_ids=parent), new_state

    def _reorder_history(self, ta, parent_ids, lengths):
        """A TensorArray of ``[batch * beam, ...]`` steps, stacked, each step's beams put in the order of
        the final beams (steps past a beam's length keep their own order)."""
        if not isinstance(ta, tf.TensorArray):
            return ta
        shape = ta.element_shape
        if shape.ndims is None or shape.ndims < 1 or tf.compat.dimension_value(shape[0]) is None:
            return ta
        stacked = ta.stack()
        steps, batch, beam = tf.shape(parent_ids)[0], tf.shape(parent_ids)[1], tf.shape(parent_ids)[2]
        own = tf.tile(tf.reshape(tf.range(beam), [1, 1, -1]), [steps, batch, 1])
        order = gather_tree(own, parent_ids, tf.cast(tf.reduce_max(lengths, axis=1), tf.int32), beam + 1)
        inside = tf.transpose(tf.sequence_mask(lengths, maxlen=steps), [2, 0, 1])
        order = tf.where_v2(inside, order, own)
        grouped = tf.reshape(stacked, [steps, batch, beam, -1])
        picked = tf.gather(grouped, order, axis=2, batch_dims=2)
        return tf.reshape(picked, tf.shape(stacked))

    def finalize(self, outputs, final_state, sequence_lengths):
        ids = gather_tree(outputs.predicted_ids, outputs.parent_ids,
                          tf.cast(tf.reduce_max(final_state.lengths, axis=1), tf.int32), self._end_token)
        if self._reorder:
            final_state = final_state._replace(cell_state=nest.map_structure(
                lambda t: self._reorder_history(t, outputs.parent_ids, final_state.lengths), final_state.cell_state))
        return FinalBeamSearchDecoderOutput(predicted_ids=ids, beam_search_decoder_output=outputs), final_state
