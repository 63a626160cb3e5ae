"""``jaxsess._tf1.contrib.rnn``: ``tf.contrib.rnn``'s common names, aliases of
:mod:`jaxsess.nn.rnn_cell` and the RNN functions of :mod:`jaxsess.nn`, plus TF 1.x contrib's
projection wrappers, ``LSTMBlockCell`` and the stacked bidirectional RNNs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from jaxsess._core.graph._graph import get_default_graph
from jaxsess._tf1.ops import (
    array_ops as array_ops,
    init_ops as init_ops,
    math_ops as math_ops,
    nn_ops as nn_ops,
)
from jaxsess._tf1.ops.rnn import (
    bidirectional_dynamic_rnn,
    static_bidirectional_rnn as static_bidirectional_rnn,
    static_rnn as static_rnn,
)
from jaxsess._tf1.ops.rnn_cell import (
    BasicLSTMCell as BasicLSTMCell,
    BasicRNNCell as BasicRNNCell,
    DropoutWrapper as DropoutWrapper,
    GRUCell as GRUCell,
    LSTMCell as LSTMCell,
    LSTMStateTuple as LSTMStateTuple,
    MultiRNNCell as MultiRNNCell,
    ResidualWrapper as ResidualWrapper,
    RNNCell as RNNCell,
)
from jaxsess._tf1.ops.variable_scope import get_variable, get_variable_scope, variable_scope


def _project(x: Any, size: int) -> Any:
    """``x @ kernel + bias`` with ``kernel [depth, size]`` and ``bias [size]`` (zeros) in the current
    variable scope, as TF 1.x's ``rnn_cell_impl._Linear``."""
    depth = x.get_shape().as_list()[-1]
    kernel = get_variable("kernel", [depth, size], dtype=x.dtype)
    bias = get_variable("bias", [size], dtype=x.dtype, initializer=init_ops.zeros_initializer())
    return nn_ops.bias_add(math_ops.matmul(x, kernel), bias)


class _ProjectionWrapper(RNNCell):
    def __init__(self, cell: Any, reuse: bool | None = None) -> None:
        super().__init__(reuse=reuse)
        if not (hasattr(cell, "output_size") and hasattr(cell, "state_size") and callable(cell)):
            raise TypeError(f"The parameter cell is not RNNCell: {cell}")
        self._cell = cell

    @property
    def state_size(self) -> Any:
        return self._cell.state_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        with get_default_graph().name_scope(type(self).__name__ + "ZeroState"):
            return self._cell.zero_state(batch_size, dtype)

    def build(self, input_shape: Any) -> None:
        self.built = True


class OutputProjectionWrapper(_ProjectionWrapper):
    """``cell``'s output projected to ``output_size`` (``<scope>/output_projection_wrapper/kernel``
    and ``bias``; the cell's variables under it), as ``tf.contrib.rnn.OutputProjectionWrapper``.

    Raises:
      TypeError: ``cell`` is not a cell.  ValueError: ``output_size`` < 1.
    """

    def __init__(self, cell: Any, output_size: int, activation: Any = None, reuse: bool | None = None) -> None:
        super().__init__(cell, reuse)
        if output_size < 1:
            raise ValueError(f"Parameter output_size must be > 0: {output_size}.")
        self._output_size = int(output_size)
        self._activation = activation

    @property
    def output_size(self) -> int:
        return self._output_size

    def call(self, inputs: Any, state: Any) -> Any:  # type: ignore[override]
        output, new_state = self._cell(inputs, state)
        projected = _project(output, self._output_size)
        return (self._activation(projected) if self._activation else projected), new_state


class InputProjectionWrapper(_ProjectionWrapper):
    """The inputs projected to ``num_proj`` before ``cell`` (``<scope>/input_projection_wrapper/kernel``
    and ``bias``), as ``tf.contrib.rnn.InputProjectionWrapper``.

    Raises:
      TypeError: ``cell`` is not a cell.
    """

    def __init__(self, cell: Any, num_proj: int, activation: Any = None, input_size: Any = None,
                 reuse: bool | None = None) -> None:
        super().__init__(cell, reuse)
        self._num_proj = int(num_proj)
        self._activation = activation

    @property
    def output_size(self) -> Any:
        return self._cell.output_size

    def call(self, inputs: Any, state: Any) -> Any:  # type: ignore[override]
        projected = _project(inputs, self._num_proj)
        if self._activation:
            projected = self._activation(projected)
        return self._cell(projected, state)


class EmbeddingWrapper(_ProjectionWrapper):
    """Int ids ``[batch]`` (or ``[batch, 1]``) embedded through ``<scope>/embedding_wrapper/embedding``
    ``[embedding_classes, embedding_size]`` (on ``/cpu:0``) before ``cell``, as
    ``tf.contrib.rnn.EmbeddingWrapper``; the initializer defaults to the variable scope's, else
    uniform in ``[-sqrt(3), sqrt(3)]``.

    Raises:
      TypeError: ``cell`` is not a cell.  ValueError: ``embedding_classes`` or ``embedding_size`` < 1.
    """

    def __init__(self, cell: Any, embedding_classes: int, embedding_size: int, initializer: Any = None,
                 reuse: bool | None = None) -> None:
        super().__init__(cell, reuse)
        if embedding_classes <= 0 or embedding_size <= 0:
            raise ValueError(f"Both embedding_classes and embedding_size must be > 0: "
                             f"{embedding_classes}, {embedding_size}.")
        self._embedding_classes = int(embedding_classes)
        self._embedding_size = int(embedding_size)
        self._initializer = initializer

    @property
    def output_size(self) -> Any:
        return self._cell.output_size

    def call(self, inputs: Any, state: Any) -> Any:  # type: ignore[override]
        graph = get_default_graph()
        with graph.device("/cpu:0"):
            initializer = self._initializer or get_variable_scope().initializer
            if initializer is None:
                initializer = init_ops.random_uniform_initializer(-math.sqrt(3), math.sqrt(3))
            dtype = (state[0] if isinstance(state, tuple) else state).dtype
            embedding = get_variable("embedding", [self._embedding_classes, self._embedding_size],
                                     initializer=initializer, dtype=dtype)
            embedded = nn_ops.embedding_lookup(embedding, array_ops.reshape(inputs, [-1]))
        return self._cell(embedded, state)


class LSTMBlockCell(BasicLSTMCell):
    """The fused-kernel LSTM of ``tf.contrib.rnn.LSTMBlockCell``: ``BasicLSTMCell``'s math (gates
    ``i, j, f, o``, ``forget_bias`` default 1.0) under the default name ``lstm_cell``
    (``lstm_cell/kernel`` ``[input + units, 4 units]``, ``lstm_cell/bias``); one step checked
    against TF's kernel (``tf.raw_ops.LSTMBlockCell``, no peepholes, ``cell_clip=-1``).

    Raises:
      NotImplementedError: ``use_peephole`` or a ``cell_clip`` (not supported here).
    """

    def __init__(self, num_units: int, forget_bias: float = 1.0, cell_clip: Any = None, use_peephole: bool = False,
                 dtype: Any = None, reuse: bool | None = None, name: str = "lstm_cell") -> None:
        if use_peephole or (cell_clip is not None and cell_clip > 0):
            raise NotImplementedError("LSTMBlockCell: jaxsess supports neither use_peephole nor cell_clip.")
        super().__init__(num_units, forget_bias=forget_bias, reuse=reuse, name=name, dtype=dtype)


def _check_stack(cells_fw: Sequence[Any], cells_bw: Sequence[Any], initial_states_fw: Any,
                 initial_states_bw: Any) -> None:
    if not cells_fw:
        raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
    if not cells_bw:
        raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
    if len(cells_fw) != len(cells_bw):
        raise ValueError("Forward and Backward cells must have the same depth.")
    for states in (initial_states_fw, initial_states_bw):
        if states is not None and len(states) != len(cells_fw):
            raise ValueError("States must be a list of the same length as the cells.")


def stack_bidirectional_dynamic_rnn(cells_fw: Sequence[Any], cells_bw: Sequence[Any], inputs: Any,
                                    initial_states_fw: Any = None, initial_states_bw: Any = None, dtype: Any = None,
                                    sequence_length: Any = None, parallel_iterations: int | None = None,
                                    time_major: bool = False, scope: Any = None,
                                    swap_memory: bool = False) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
    """Layers of :func:`~jaxsess.nn.bidirectional_dynamic_rnn`, each fed the previous layer's
    concatenated outputs, as ``tf.contrib.rnn.stack_bidirectional_dynamic_rnn`` (variables under
    ``stack_bidirectional_rnn/cell_<i>/bidirectional_rnn/{fw,bw}/``).

    Returns:
      ``(outputs [batch, time, 2 * last output size], final fw states, final bw states)``.

    Raises:
      ValueError: no cells, forward and backward depths differ, or initial states of another length.
    """
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw = [], []
    layer = inputs
    with variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw, strict=True)):
            with variable_scope(f"cell_{i}"):
                outputs, (state_fw, state_bw) = bidirectional_dynamic_rnn(
                    cell_fw, cell_bw, layer,
                    initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
                    initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
                    sequence_length=sequence_length, parallel_iterations=parallel_iterations, dtype=dtype,
                    swap_memory=swap_memory, time_major=time_major)
                layer = array_ops.concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_rnn(cells_fw: Sequence[Any], cells_bw: Sequence[Any], inputs: Sequence[Any],
                            initial_states_fw: Any = None, initial_states_bw: Any = None, dtype: Any = None,
                            sequence_length: Any = None,
                            scope: Any = None) -> tuple[list[Any], tuple[Any, ...], tuple[Any, ...]]:
    """Layers of :func:`~jaxsess.nn.static_bidirectional_rnn` over a list of ``[batch, depth]`` steps,
    as ``tf.contrib.rnn.stack_bidirectional_rnn``.

    Raises:
      ValueError: no cells, forward and backward depths differ, or initial states of another length.
    """
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw = [], []
    layer = list(inputs)
    with variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw, strict=True)):
            with variable_scope(f"cell_{i}"):
                layer, state_fw, state_bw = static_bidirectional_rnn(
                    cell_fw, cell_bw, layer,
                    initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
                    initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
                    sequence_length=sequence_length, dtype=dtype)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)
