"""Recurrent cells, as ``tf.compat.v1.nn.rnn_cell``.

A cell is a :class:`~jaxsess._tf1.layers.Layer`: ``cell(inputs, state)`` returns
``(output, new_state)`` and creates its variables on first use in its own
variable scope, a unique snake-case default under the caller's scope
(``rnn/basic_lstm_cell/kernel``, ``rnn/multi_rnn_cell/cell_0/gru_cell/gates/bias``),
exactly as TF1 names them, so checkpoints line up. Kernels use the scope's
default initializer (Glorot uniform), biases zeros (GRU gates: ones). The
formulas are those of TF1's ``rnn_cell_impl`` (Keras 2's ``legacy_cells``):

* ``BasicRNNCell``: ``h' = act([x, h] @ kernel + bias)``;
* ``GRUCell``: ``r, u = sigmoid([x, h] @ gates/kernel + gates/bias)``,
  ``c = act([x, r*h] @ candidate/kernel + candidate/bias)``, ``h' = u*h + (1-u)*c``;
* ``BasicLSTMCell``: ``i, j, f, o = split([x, h] @ kernel + bias, 4)``,
  ``c' = c*sigmoid(f + forget_bias) + sigmoid(i)*act(j)``, ``h' = act(c')*sigmoid(o)``;
* ``LSTMCell``: the same with peepholes (``w_f_diag``, ``w_i_diag``,
  ``w_o_diag``), ``cell_clip``, a projection (``projection/kernel``) and
  ``proj_clip``.

Shapes: ``inputs`` is ``[batch, input_size]`` (``input_size`` known when the
graph is built); states are ``[batch, n]`` for each ``n`` in ``state_size``.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

from jax import tree_util

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import constant_value, convert_to_tensor, executing_eagerly
from jaxsess._core.graph._graph import get_default_graph
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.layers import Layer, _activation
from jaxsess._tf1.ops import (
    array_ops as array_ops,
    init_ops as init_ops,
    math_ops as math_ops,
    nn_ops as nn_ops,
    random_ops as random_ops,
    variable_scope as vs,
)

__all__ = [
    "RNNCell",
    "LayerRNNCell",
    "BasicRNNCell",
    "GRUCell",
    "BasicLSTMCell",
    "LSTMCell",
    "LSTMStateTuple",
    "MultiRNNCell",
    "DropoutWrapper",
    "ResidualWrapper",
    "DeviceWrapper",
]

_WEIGHTS = "kernel"
_BIAS = "bias"


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """The ``(c, h)`` state of an LSTM cell (``state_is_tuple=True``), as
    ``tf.compat.v1.nn.rnn_cell.LSTMStateTuple``: ``c`` the memory, ``h`` the output."""

    __slots__ = ()

    @property
    def dtype(self) -> Any:
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError(f"Inconsistent dtypes for internal state: {c.dtype} vs {h.dtype}")
        return c.dtype


def _is_leaf(x: Any) -> bool:
    return not isinstance(x, list | tuple)


def _flat_sizes(size: Any) -> list[Any]:
    return tree_util.tree_leaves(size, is_leaf=lambda s: isinstance(s, TensorShape) or _is_leaf(s))


def _map_sizes(fn: Callable[[Any], Any], size: Any) -> Any:
    return tree_util.tree_map(fn, size, is_leaf=lambda s: isinstance(s, TensorShape) or _is_leaf(s))


def _size_dims(s: Any) -> list[Any]:
    if isinstance(s, TensorShape):
        return s.as_list()
    return [int(s)]


def zero_state_tensors(state_size: Any, batch_size: Any, dtype: Any) -> Any:
    """Zeros of shape ``[batch_size, *s]`` for each size ``s`` in the
    (nested) ``state_size``, in its structure (TF1's ``_zero_state_tensors``)."""
    d = _dtypes.as_dtype(dtype)

    def one(s: Any) -> Any:
        return array_ops.zeros([batch_size, *_size_dims(s)], dtype=d)

    return _map_sizes(one, state_size)


def _check_float(t: Any, what: str) -> None:
    d = _dtypes.as_dtype(t.dtype)
    if not (d.is_floating or d.is_complex):
        raise ValueError(
            f"RNN cell only supports floating point inputs, but got dtype {d.name} for {what} '{getattr(t, 'name', t)}'."
        )


class RNNCell(Layer):
    """The abstract recurrent cell, as ``tf.compat.v1.nn.rnn_cell.RNNCell``.

    Subclasses define ``state_size``, ``output_size`` and ``call(inputs,
    state) -> (output, new_state)`` (and ``build(input_shape)`` to create
    variables with ``add_weight``, or use ``get_variable`` in ``call``).

    Args:
      trainable, name, dtype: as :class:`~jaxsess._tf1.layers.Layer`.
      reuse: reuse the variables of an existing scope of the same name.
    """

    def __init__(self, trainable: bool = True, name: str | None = None, dtype: Any = None,
                 reuse: bool | None = None, **kwargs: Any) -> None:
        if "_reuse" not in kwargs:
            kwargs["_reuse"] = reuse
        super().__init__(trainable=trainable, name=name, dtype=dtype, **kwargs)

    def __call__(self, inputs: Any, state: Any, scope: Any = None, *args: Any, **kwargs: Any) -> Any:
        """One step: ``(output, new_state)``. With ``scope`` (first call only), the
        cell's variables live directly in that variable scope (``scope/kernel``)."""
        if scope is not None and self._scope is None:
            with vs.variable_scope(scope) as captured:
                self._scope = captured
        return super().__call__(inputs, state, *args, **kwargs)

    @property
    def state_size(self) -> Any:
        """The size(s) of the state: an int, a ``TensorShape`` or a (nested) tuple of them."""
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self) -> Any:
        """The size of the output: an int or a ``TensorShape``."""
        raise NotImplementedError("Abstract method")

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        """Zero-filled state: ``[batch_size, s]`` tensors in the structure of
        ``state_size``, as ``RNNCell.zero_state``."""
        if executing_eagerly():
            return zero_state_tensors(self.state_size, batch_size, dtype)
        with get_default_graph().name_scope(type(self).__name__ + "ZeroState"):
            return zero_state_tensors(self.state_size, batch_size, dtype)

    def get_initial_state(self, inputs: Any = None, batch_size: Any = None, dtype: Any = None) -> Any:
        """``zero_state`` for ``inputs``' batch size and dtype, or the given ones.

        Raises:
          ValueError: ``batch_size`` or ``dtype`` unknown.
        """
        if inputs is not None:
            inputs = convert_to_tensor(inputs)
            shape = TensorShape(inputs.shape)
            batch_size = shape[0] if shape.ndims and shape[0] is not None else array_ops.shape(inputs)[0]
            dtype = inputs.dtype
        if batch_size is None or dtype is None:
            raise ValueError(
                "batch_size and dtype cannot be None while constructing initial state: "
                f"batch_size={batch_size}, dtype={dtype}"
            )
        return self.zero_state(batch_size, dtype)

    # Wrappers and stacks report the variables of the cells they hold.
    def _sub_cells(self) -> list[Layer]:
        return []

    @property
    def trainable_weights(self) -> list[Any]:
        own = list(self._trainable_weights) if self.trainable else []
        for c in self._sub_cells():
            own += [w for w in c.trainable_weights if all(w is not o for o in own)]
        return own if self.trainable else []

    @property
    def non_trainable_weights(self) -> list[Any]:
        own = list(self._non_trainable_weights)
        for c in self._sub_cells():
            own += c.non_trainable_weights
        if not self.trainable:
            return self._trainable_weights + [w for c in self._sub_cells() for w in c.trainable_weights] + own
        return own

    @property
    def weights(self) -> list[Any]:
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights


class LayerRNNCell(RNNCell):
    """A cell that creates its variables in ``build``, as
    ``tf.compat.v1.nn.rnn_cell`` cells built on ``LayerRNNCell``."""


def _input_depth(input_shape: TensorShape) -> int:
    depth = input_shape[-1] if input_shape.ndims else None
    if depth is None:
        raise ValueError(f"Expected inputs.shape[-1] to be known, received shape: {input_shape}")
    return int(depth)


class BasicRNNCell(LayerRNNCell):
    """``h' = activation([x, h] @ kernel + bias)``, as
    ``tf.compat.v1.nn.rnn_cell.BasicRNNCell``.

    Args:
      num_units: the state and output size.
      activation: default ``tanh`` (a callable or a Keras name).

    Variables: ``kernel`` ``[input_size + num_units, num_units]``, ``bias``
    ``[num_units]`` (zeros).
    """

    def __init__(self, num_units: int, activation: Any = None, reuse: bool | None = None,
                 name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units = int(num_units)
        self._activation = _activation(activation) or math_ops.tanh

    @property
    def state_size(self) -> int:
        return self._num_units

    @property
    def output_size(self) -> int:
        return self._num_units

    def build(self, input_shape: TensorShape) -> None:
        depth = _input_depth(input_shape)
        self._kernel = self.add_weight(_WEIGHTS, shape=[depth + self._num_units, self._num_units])
        self._bias = self.add_weight(_BIAS, shape=[self._num_units], initializer=init_ops.zeros_initializer())
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:  # type: ignore[override]
        _check_float(inputs, "inputs")
        gate = nn_ops.bias_add(math_ops.matmul(array_ops.concat([inputs, state], 1), self._kernel), self._bias)
        output = self._activation(gate)
        return output, output


class GRUCell(LayerRNNCell):
    """A gated recurrent unit, as ``tf.compat.v1.nn.rnn_cell.GRUCell``
    (Cho et al., 2014; the reset gate applies to the state before the matmul).

    Args:
      num_units: the state and output size.
      activation: default ``tanh``.
      kernel_initializer: for both kernels (default: the scope's, Glorot uniform).
      bias_initializer: for both biases (default: ones for ``gates/bias``,
        zeros for ``candidate/bias``).

    Variables: ``gates/kernel`` ``[input_size + num_units, 2 * num_units]``,
    ``gates/bias``, ``candidate/kernel`` ``[input_size + num_units, num_units]``,
    ``candidate/bias``.
    """

    def __init__(self, num_units: int, activation: Any = None, reuse: bool | None = None,
                 kernel_initializer: Any = None, bias_initializer: Any = None, name: str | None = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units = int(num_units)
        self._activation = _activation(activation) or math_ops.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    @property
    def state_size(self) -> int:
        return self._num_units

    @property
    def output_size(self) -> int:
        return self._num_units

    def build(self, input_shape: TensorShape) -> None:
        depth = _input_depth(input_shape)
        n = self._num_units
        self._gate_kernel = self.add_weight(f"gates/{_WEIGHTS}", shape=[depth + n, 2 * n],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(
            f"gates/{_BIAS}", shape=[2 * n],
            initializer=self._bias_initializer if self._bias_initializer is not None
            else init_ops.constant_initializer(1.0),
        )
        self._candidate_kernel = self.add_weight(f"candidate/{_WEIGHTS}", shape=[depth + n, n],
                                                 initializer=self._kernel_initializer)
        self._candidate_bias = self.add_weight(
            f"candidate/{_BIAS}", shape=[n],
            initializer=self._bias_initializer if self._bias_initializer is not None
            else init_ops.zeros_initializer(),
        )
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:  # type: ignore[override]
        _check_float(inputs, "inputs")
        gates = nn_ops.bias_add(
            math_ops.matmul(array_ops.concat([inputs, state], 1), self._gate_kernel), self._gate_bias
        )
        r, u = array_ops.split(math_ops.sigmoid(gates), 2, axis=1)
        candidate = nn_ops.bias_add(
            math_ops.matmul(array_ops.concat([inputs, r * state], 1), self._candidate_kernel),
            self._candidate_bias,
        )
        c = self._activation(candidate)
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class BasicLSTMCell(LayerRNNCell):
    """The basic LSTM cell (no peepholes, clipping or projection), as
    ``tf.compat.v1.nn.rnn_cell.BasicLSTMCell``.

    Args:
      num_units: the size of ``c`` and ``h``.
      forget_bias: added to the forget gate's pre-activation (default 1.0).
      state_is_tuple: states are ``LSTMStateTuple(c, h)``; else one
        ``[batch, 2 * num_units]`` tensor ``concat([c, h], 1)``.
      activation: default ``tanh``.

    Variables: ``kernel`` ``[input_size + num_units, 4 * num_units]`` (gates
    ordered i, j, f, o), ``bias`` ``[4 * num_units]`` (zeros).
    """

    def __init__(self, num_units: int, forget_bias: float = 1.0, state_is_tuple: bool = True,
                 activation: Any = None, reuse: bool | None = None, name: str | None = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units = int(num_units)
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = _activation(activation) or math_ops.tanh

    @property
    def state_size(self) -> Any:
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    @property
    def output_size(self) -> int:
        return self._num_units

    def build(self, input_shape: TensorShape) -> None:
        depth = _input_depth(input_shape)
        n = self._num_units
        self._kernel = self.add_weight(_WEIGHTS, shape=[depth + n, 4 * n])
        self._bias = self.add_weight(_BIAS, shape=[4 * n], initializer=init_ops.zeros_initializer())
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:  # type: ignore[override]
        _check_float(inputs, "inputs")
        if self._state_is_tuple:
            c, h = state
        else:
            c, h = array_ops.split(state, 2, axis=1)
        gates = nn_ops.bias_add(math_ops.matmul(array_ops.concat([inputs, h], 1), self._kernel), self._bias)
        i, j, f, o = array_ops.split(gates, 4, axis=1)
        forget_bias = convert_to_tensor(self._forget_bias, dtype=f.dtype)
        # math_ops.add/multiply, not operators, so the ops are `Add`/`Mul` as TF's BasicLSTMCell names them
        add, multiply = math_ops.add, math_ops.multiply
        new_c = add(multiply(c, math_ops.sigmoid(add(f, forget_bias))),
                    multiply(math_ops.sigmoid(i), self._activation(j)))
        new_h = multiply(self._activation(new_c), math_ops.sigmoid(o))
        new_state = LSTMStateTuple(new_c, new_h) if self._state_is_tuple else array_ops.concat([new_c, new_h], 1)
        return new_h, new_state


class LSTMCell(LayerRNNCell):
    """The LSTM cell with optional peepholes, cell clipping and projection, as
    ``tf.compat.v1.nn.rnn_cell.LSTMCell`` (Hochreiter & Schmidhuber 1997;
    peepholes and projection as Sak et al., 2014).

    Args:
      num_units: the size of ``c``.
      use_peepholes: add ``w_f_diag * c``, ``w_i_diag * c`` to the forget and
        input gates and ``w_o_diag * c'`` to the output gate.
      cell_clip: clip ``c'`` to ``[-cell_clip, cell_clip]``.
      initializer: for the kernel, peephole and projection weights (default:
        the scope's, Glorot uniform).
      num_proj: project the output ``h`` to this size (``projection/kernel``
        ``[num_units, num_proj]``); the state's ``h`` has this size.
      proj_clip: clip the projected output to ``[-proj_clip, proj_clip]``.
      forget_bias: added to the forget gate's pre-activation (default 1.0).
      state_is_tuple: states are ``LSTMStateTuple(c, h)``; else ``concat([c, h], 1)``.
      activation: default ``tanh``.

    Raises:
      NotImplementedError: ``num_unit_shards`` / ``num_proj_shards`` (use a
        single variable).
    """

    def __init__(self, num_units: int, use_peepholes: bool = False, cell_clip: float | None = None,
                 initializer: Any = None, num_proj: int | None = None, proj_clip: float | None = None,
                 num_unit_shards: int | None = None, num_proj_shards: int | None = None,
                 forget_bias: float = 1.0, state_is_tuple: bool = True, activation: Any = None,
                 reuse: bool | None = None, name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        if num_unit_shards is not None or num_proj_shards is not None:
            raise NotImplementedError("LSTMCell: num_unit_shards / num_proj_shards (partitioned variables) "
                                      "are not supported by jaxsess.")
        self._num_units = int(num_units)
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = _activation(activation) or math_ops.tanh
        h = num_proj if num_proj else num_units
        self._state_size: Any = LSTMStateTuple(num_units, h) if state_is_tuple else num_units + h
        self._output_size = h

    @property
    def state_size(self) -> Any:
        return self._state_size

    @property
    def output_size(self) -> int:
        return self._output_size

    def build(self, input_shape: TensorShape) -> None:
        depth = _input_depth(input_shape)
        n = self._num_units
        h = self._num_units if self._num_proj is None else self._num_proj
        self._kernel = self.add_weight(_WEIGHTS, shape=[depth + h, 4 * n], initializer=self._initializer)
        self._bias = self.add_weight(_BIAS, shape=[4 * n], initializer=init_ops.zeros_initializer())
        if self._use_peepholes:
            self._w_f_diag = self.add_weight("w_f_diag", shape=[n], initializer=self._initializer)
            self._w_i_diag = self.add_weight("w_i_diag", shape=[n], initializer=self._initializer)
            self._w_o_diag = self.add_weight("w_o_diag", shape=[n], initializer=self._initializer)
        if self._num_proj is not None:
            self._proj_kernel = self.add_weight(f"projection/{_WEIGHTS}", shape=[n, self._num_proj],
                                                initializer=self._initializer)
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:  # type: ignore[override]
        _check_float(inputs, "inputs")
        n = self._num_units
        num_proj = n if self._num_proj is None else self._num_proj
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = array_ops.slice(state, [0, 0], [-1, n])
            m_prev = array_ops.slice(state, [0, n], [-1, num_proj])
        lstm = nn_ops.bias_add(math_ops.matmul(array_ops.concat([inputs, m_prev], 1), self._kernel), self._bias)
        i, j, f, o = array_ops.split(lstm, 4, axis=1)
        sig = math_ops.sigmoid
        if self._use_peepholes:
            c = (sig(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev
                 + sig(i + self._w_i_diag * c_prev) * self._activation(j))
        else:
            c = sig(f + self._forget_bias) * c_prev + sig(i) * self._activation(j)
        if self._cell_clip is not None:
            c = math_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = sig(o + self._w_o_diag * c) * self._activation(c)
        else:
            m = sig(o) * self._activation(c)
        if self._num_proj is not None:
            m = math_ops.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = math_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else array_ops.concat([c, m], 1)
        return m, new_state


class MultiRNNCell(RNNCell):
    """Cells stacked: each cell's output is the next one's input, as
    ``tf.compat.v1.nn.rnn_cell.MultiRNNCell``. Cell ``i`` runs in the variable
    scope ``multi_rnn_cell/cell_i``.

    Args:
      cells: the cells, bottom first.
      state_is_tuple: the state is a tuple with one entry per cell; else all
        states concatenated along axis 1.

    Raises:
      ValueError: ``cells`` is empty, or a cell has a tuple state and
        ``state_is_tuple`` is False.
      TypeError: ``cells`` is not a list or tuple.
    """

    def __init__(self, cells: Any, state_is_tuple: bool = True) -> None:
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not isinstance(cells, list | tuple):
            raise TypeError(f"cells must be a list or tuple, but received: {cells}.")
        self._cells = list(cells)
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(isinstance(c.state_size, tuple) for c in self._cells):
            raise ValueError(
                "Some cells return tuples of states, but the flag state_is_tuple is not set. "
                f"State sizes are: {[c.state_size for c in self._cells]}"
            )

    def _sub_cells(self) -> list[Layer]:
        return list(self._cells)

    @property
    def state_size(self) -> Any:
        if self._state_is_tuple:
            return tuple(c.state_size for c in self._cells)
        return sum(c.state_size for c in self._cells)

    @property
    def output_size(self) -> Any:
        return self._cells[-1].output_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        if not self._state_is_tuple:
            return super().zero_state(batch_size, dtype)
        if executing_eagerly():
            return tuple(c.zero_state(batch_size, dtype) for c in self._cells)
        with get_default_graph().name_scope(type(self).__name__ + "ZeroState"):
            return tuple(c.zero_state(batch_size, dtype) for c in self._cells)

    def call(self, inputs: Any, state: Any) -> Any:  # type: ignore[override]
        pos = 0
        cur = inputs
        new_states = []
        for i, cell in enumerate(self._cells):
            with vs.variable_scope(f"cell_{i}"):
                if self._state_is_tuple:
                    if not isinstance(state, list | tuple):
                        raise ValueError(
                            f"Expected state to be a tuple of length {len(self.state_size)}, but received: {state}"
                        )
                    cur_state = state[i]
                else:
                    cur_state = array_ops.slice(state, [0, pos], [-1, cell.state_size])
                    pos += cell.state_size
                cur, new_state = cell(cur, cur_state)
                new_states.append(new_state)
        return cur, (tuple(new_states) if self._state_is_tuple else array_ops.concat(new_states, 1))


class _RNNCellWrapper(RNNCell):
    """A cell around another cell; it has no variable scope of its own and, as
    TF1's wrappers, reports no weights (the wrapped cell holds them)."""

    def __init__(self, cell: RNNCell, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not (hasattr(cell, "output_size") and hasattr(cell, "state_size") and callable(cell)):
            raise TypeError(f"The argument 'cell' ({cell}) is not an RNNCell.")
        self.cell = cell

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable[..., Any], **kwargs: Any) -> Any:
        raise NotImplementedError

    def __call__(self, inputs: Any, state: Any, scope: Any = None, *args: Any, **kwargs: Any) -> Any:
        return self._call_wrapped_cell(inputs, state, cell_call_fn=self.cell.__call__, scope=scope)

    @property
    def state_size(self) -> Any:
        return self.cell.state_size

    @property
    def output_size(self) -> Any:
        return self.cell.output_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        if executing_eagerly():
            return self.cell.zero_state(batch_size, dtype)
        with get_default_graph().name_scope(type(self).__name__ + "ZeroState"):
            return self.cell.zero_state(batch_size, dtype)


def _map_state(fn: Callable[..., Any], state: Any, *extra: Any) -> Any:
    """``fn`` on each state tensor except the memory ``c`` of an ``LSTMStateTuple``
    (TF1's default ``dropout_state_filter_visitor``); ``extra`` structures like
    ``state`` give ``fn`` their matching leaves too."""
    if isinstance(state, LSTMStateTuple):
        return LSTMStateTuple(state.c, _map_state(fn, state.h, *[e.h for e in extra]))
    if isinstance(state, tuple) and hasattr(state, "_fields"):
        return type(state)(*[_map_state(fn, s, *es) for s, *es in zip(state, *extra, strict=True)])
    if isinstance(state, list | tuple):
        return type(state)(_map_state(fn, s, *es) for s, *es in zip(state, *extra, strict=True))
    return fn(state, *extra)


def _drops(keep_prob: Any) -> bool:
    """Whether a keep probability may drop anything (a Python 1.0 adds no op)."""
    return not isinstance(keep_prob, float | int) or keep_prob < 1


class DropoutWrapper(_RNNCellWrapper):
    """Dropout on a cell's inputs, outputs and states, as
    ``tf.compat.v1.nn.rnn_cell.DropoutWrapper`` (a new mask at every step; the
    memory ``c`` of an LSTM state is never dropped).

    Args:
      cell: the wrapped cell.
      input_keep_prob, output_keep_prob, state_keep_prob: keep probabilities
        (floats or scalar tensors, e.g. a placeholder); a Python float 1.0
        adds no op.
      seed: the op seed of the dropout masks.

      variational_recurrent: one mask per run, shared by every time step
        and every batch row (noise ``[1, size]`` drawn once, as TF); needs
        ``dtype``, and ``input_size`` when inputs are dropped.

    Raises:
      NotImplementedError: a custom ``dropout_state_filter_visitor``.
      ValueError: a constant keep probability outside ``(0, 1]``;
        ``variational_recurrent`` without ``dtype`` (or ``input_size``).
    """

    def __init__(self, cell: RNNCell, input_keep_prob: Any = 1.0, output_keep_prob: Any = 1.0,
                 state_keep_prob: Any = 1.0, variational_recurrent: bool = False, input_size: Any = None,
                 dtype: Any = None, seed: int | None = None, dropout_state_filter_visitor: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(cell, dtype=dtype, **kwargs)
        if dropout_state_filter_visitor is not None:
            raise NotImplementedError("DropoutWrapper(dropout_state_filter_visitor=...) is not supported by jaxsess.")
        for what, p in (("input", input_keep_prob), ("output", output_keep_prob), ("state", state_keep_prob)):
            v = p if isinstance(p, int | float) else constant_value(p) if hasattr(p, "op") else None
            if v is not None and not 0 < float(v) <= 1:
                raise ValueError(f"Parameter {what}_keep_prob must be between 0 and 1: {float(v)}")
        self._input_keep_prob = input_keep_prob
        self._output_keep_prob = output_keep_prob
        self._state_keep_prob = state_keep_prob
        self._seed = seed
        self._variational = bool(variational_recurrent)
        if self._variational:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")

            def noise(salt: int) -> Callable[[Any], Any]:
                count = iter(range(1 << 20))
                return lambda s: random_ops.random_uniform(
                    [1, *_size_dims(s)], seed=self._gen_seed(salt * 1000 + next(count)), dtype=dtype)

            self._input_noise = None
            if _drops(input_keep_prob):
                if input_size is None:
                    raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or is unknown, "
                                     "input_size must be provided")
                self._input_noise = _map_sizes(noise(1), input_size)
            self._state_noise = _map_sizes(noise(2), cell.state_size)
            self._output_noise = _map_sizes(noise(3), cell.output_size)

    @property
    def wrapped_cell(self) -> RNNCell:
        return self.cell  # type: ignore[no-any-return]

    def _gen_seed(self, salt: int) -> int | None:
        return None if self._seed is None else (self._seed + salt) & 0x7FFFFFFF

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable[..., Any], **kwargs: Any) -> Any:
        def drop(p: Any, salt: int) -> Callable[..., Any]:
            if self._variational:  # as TF's _variational_recurrent_dropout_value
                return lambda v, n: math_ops.divide(v, p) * math_ops.floor(p + n)
            return lambda v: random_ops.dropout(v, keep_prob=p, seed=self._gen_seed(salt))

        if _drops(self._input_keep_prob):
            noise = () if not self._variational else (self._input_noise,)
            inputs = tree_util.tree_map(drop(self._input_keep_prob, 1), inputs, *noise)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        if _drops(self._state_keep_prob):
            noise = () if not self._variational else (self._state_noise,)
            new_state = _map_state(drop(self._state_keep_prob, 2), new_state, *noise)
        if _drops(self._output_keep_prob):
            noise = () if not self._variational else (self._output_noise,)
            output = tree_util.tree_map(drop(self._output_keep_prob, 3), output, *noise)
        return output, new_state


class ResidualWrapper(_RNNCellWrapper):
    """A cell whose output is ``inputs + cell_output``, as
    ``tf.compat.v1.nn.rnn_cell.ResidualWrapper``.

    Args:
      cell: the wrapped cell (its output size must equal the input size).
      residual_fn: ``(inputs, outputs) -> outputs`` instead of the sum.

    Raises:
      ValueError: the input and output shapes are incompatible.
    """

    def __init__(self, cell: RNNCell, residual_fn: Callable[[Any, Any], Any] | None = None, **kwargs: Any) -> None:
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable[..., Any], **kwargs: Any) -> Any:
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)
        if self._residual_fn is not None:
            return self._residual_fn(inputs, outputs), new_state

        def add(inp: Any, out: Any) -> Any:
            if not TensorShape(inp.shape).is_compatible_with(TensorShape(out.shape)):
                raise ValueError(
                    f"ResidualWrapper: input shape {TensorShape(inp.shape)} and cell output shape "
                    f"{TensorShape(out.shape)} are incompatible."
                )
            return inp + out

        return tree_util.tree_map(add, inputs, outputs), new_state


class DeviceWrapper(_RNNCellWrapper):
    """Runs a cell's ops (and its zero state) on ``device``, as
    ``tf.compat.v1.nn.rnn_cell.DeviceWrapper`` (a ``tf.device`` scope; see the
    README for how jaxsess places ops).

    Args:
      cell: the wrapped cell.
      device: a device string (``'/cpu:0'``, ``'/device:GPU:0'``).
    """

    def __init__(self, cell: RNNCell, device: str, **kwargs: Any) -> None:
        super().__init__(cell, **kwargs)
        self._device = device

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        if executing_eagerly():
            return self.cell.zero_state(batch_size, dtype)
        graph = get_default_graph()
        with graph.name_scope(type(self).__name__ + "ZeroState"), graph.device(self._device):
            return self.cell.zero_state(batch_size, dtype)

    def _call_wrapped_cell(self, inputs: Any, state: Any, cell_call_fn: Callable[..., Any], **kwargs: Any) -> Any:
        if executing_eagerly():
            return cell_call_fn(inputs, state, **kwargs)
        with get_default_graph().device(self._device):
            return cell_call_fn(inputs, state, **kwargs)
