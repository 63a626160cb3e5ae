"""Keras recurrent layers in TF1 graph mode, as ``tf.compat.v1.keras.layers``
(``SimpleRNN``, ``LSTM``, ``GRU``, ``RNN(cell)``, ``Bidirectional``, ``TimeDistributed``).

The defaults are ``tf.compat.v1.keras``' (the Keras 2 "v1" layers of
``tf_keras`` 2.21): ``recurrent_activation='hard_sigmoid'``, GRU
``reset_after=False``. Weights and layouts are Keras': ``<layer>/<cell>/kernel``
``[in, k·units]``, ``recurrent_kernel [units, k·units]`` and ``bias`` with the
gates in Keras' order (LSTM ``i, f, c, o``; GRU ``z, r, h``, bias ``[2, 3·units]``
when ``reset_after``).

A layer is one ``Scan`` op (:func:`jaxsess._tf1.ops.functional_ops.scan_loop`,
lowered to ``lax.scan``) over the time axis; ``unroll`` is accepted and gives
the same values. Masks (``Embedding(mask_zero=True)``, ``Masking``), as Keras:
at a masked step the state is carried and the output repeats the previous
step's output (zeros before the first valid step). Dropout masks are drawn
once per sequence in the training phase (``dropout`` on the inputs,
``recurrent_dropout`` on the state), one per gate, as Keras'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jax import tree_util

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._graph import Tensor, get_default_graph
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1 import layers as _tf_layers
from jaxsess._tf1.keras import activations as activations, initializers as initializers
from jaxsess._tf1.keras._layers_core import Layer
from jaxsess._tf1.ops import fill_ops as _fill, math_ops as _math, shape_ops as _shape_ops
from jaxsess._tf1.ops.functional_ops import scan_loop
from jaxsess._tf1.ops.rnn import _copy_through
from jaxsess._tf1.ops.rnn_cell import zero_state_tensors

__all__ = [
    "SimpleRNNCell", "LSTMCell", "GRUCell", "StackedRNNCells", "RNN", "SimpleRNN", "LSTM", "GRU",
    "Bidirectional", "TimeDistributed",
]


def _config(local: dict[str, Any]) -> dict[str, Any]:
    """A constructor's arguments (its ``locals()`` on entry), to rebuild the layer (``Bidirectional``)."""
    cfg = {k: v for k, v in local.items() if k not in ("self", "kwargs", "__class__")}
    cfg.update(local.get("kwargs", {}))
    cfg.pop("name", None)
    return cfg


def _dropout_masks(template: Tensor, rate: float, count: int, training: Any) -> list[Any] | None:
    """``count`` dropout masks like ``template`` (``[batch, n]``), drawn in the training phase,
    ones otherwise, as Keras' ``_generate_dropout_mask``; None when ``rate`` is 0."""
    if not 0.0 < rate < 1.0:
        return None
    ones = _fill.ones_like(template)
    return [_tf_layers.dropout(ones, rate=rate, training=training) for _ in range(count)]


class _Cell(Layer):
    """The base of the built-in cells: weights, dropout and ``call(inputs, states) -> (output, states)``."""

    _n_gates = 1

    def __init__(self, units: int, activation: Any, use_bias: bool, kernel_initializer: Any,
                 recurrent_initializer: Any, bias_initializer: Any, kernel_regularizer: Any,
                 recurrent_regularizer: Any, bias_regularizer: Any, kernel_constraint: Any,
                 recurrent_constraint: Any, bias_constraint: Any, dropout: float, recurrent_dropout: float,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if int(units) <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, "
                             f"got {units}.")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = kernel_initializer
        self.recurrent_initializer = recurrent_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.recurrent_regularizer = recurrent_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.recurrent_constraint = recurrent_constraint
        self.bias_constraint = bias_constraint
        self.dropout = min(1.0, max(0.0, float(dropout)))
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.kernel: Any = None
        self.recurrent_kernel: Any = None
        self.bias: Any = None
        self._dp_mask: list[Any] | None = None
        self._rec_dp_mask: list[Any] | None = None

    @property
    def state_size(self) -> Any:
        return self.units

    @property
    def output_size(self) -> int:
        return self.units

    def _bias_shape(self) -> list[int]:
        return [self._n_gates * self.units]

    def _bias_initializer(self) -> Any:
        return self.bias_initializer

    def build(self, input_shape: Any) -> None:
        in_dim = TensorShape(input_shape)[-1]
        if in_dim is None:
            raise ValueError(f"{type(self).__name__} '{self.name}': the last dimension of the inputs must be known "
                             f"when the graph is built; got shape {TensorShape(input_shape)}.")
        n = self._n_gates * self.units
        self.kernel = self.add_weight("kernel", [int(in_dim), n], initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            "recurrent_kernel", [self.units, n], initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer, constraint=self.recurrent_constraint)
        if self.use_bias:
            self.bias = self.add_weight("bias", self._bias_shape(), initializer=self._bias_initializer(),
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def _prepare_dropout(self, step_input: Tensor, state: Tensor, training: Any) -> None:
        """Draws this sequence's dropout masks (``step_input [batch, in]``, ``state [batch, units]``)."""
        self._dp_mask = _dropout_masks(step_input, self.dropout, self._n_gates, training)
        self._rec_dp_mask = _dropout_masks(state, self.recurrent_dropout, self._n_gates, training)

    def _clear_dropout(self) -> None:
        self._dp_mask = self._rec_dp_mask = None

    def _split(self, w: Any, i: int) -> Any:
        """Gate ``i``'s columns of a ``[.., k·units]`` weight."""
        return w[..., i * self.units:(i + 1) * self.units]

    def _gate_dots(self, x: Any, w: Any, masks: list[Any] | None, gates: range) -> list[Any]:
        """``(x * mask_g) @ w_g`` for each gate ``g`` (one product split in gates without masks)."""
        if masks is None:
            cols = w[:, gates.start * self.units:gates.stop * self.units]
            return _shape_ops.split(_math.matmul(x, cols), len(gates), axis=1)  # type: ignore[no-any-return]
        return [_math.matmul(x * masks[g], self._split(w, g)) for g in gates]


class SimpleRNNCell(_Cell):
    """``h = activation(x @ kernel + bias + h_prev @ recurrent_kernel)``, as
    ``tf.compat.v1.keras.layers.SimpleRNNCell``.

    Args:
      units: the state size.
      activation: default ``'tanh'``.
      use_bias, kernel_initializer (``'glorot_uniform'``), recurrent_initializer
        (``'orthogonal'``), bias_initializer (``'zeros'``), the regularizers and
        constraints: as Keras'.
      dropout, recurrent_dropout: fractions in ``[0, 1)`` dropped from the inputs /
        the state in the training phase.

    Weights: ``kernel [in, units]``, ``recurrent_kernel [units, units]``, ``bias [units]``.
    """

    def __init__(self, units: int, activation: Any = "tanh", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0, recurrent_dropout: float = 0.0,
                 **kwargs: Any) -> None:
        self._config = _config(locals())
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
                         kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout, **kwargs)

    def call(self, inputs: Any, states: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[Any]]:
        x = convert_to_tensor(inputs)
        h_prev = states[0] if isinstance(states, list | tuple) else states
        if self._dp_mask is not None:
            x = x * self._dp_mask[0]
        h = _math.matmul(x, self.kernel)
        if self.bias is not None:
            h = h + self.bias
        if self._rec_dp_mask is not None:
            h_prev = h_prev * self._rec_dp_mask[0]
        out = h + _math.matmul(h_prev, self.recurrent_kernel)
        if self.activation is not None:
            out = self.activation(out)
        return out, [out]


class LSTMCell(_Cell):
    """The LSTM step of Keras, as ``tf.compat.v1.keras.layers.LSTMCell``::

        z = x @ kernel + h_prev @ recurrent_kernel + bias     # gates i, f, c, o
        c = rec_act(z_f) * c_prev + rec_act(z_i) * act(z_c);  h = rec_act(z_o) * act(c)

    Args: as :class:`SimpleRNNCell`, and ``recurrent_activation`` (default
    ``'hard_sigmoid'``), ``unit_forget_bias`` (default True: the forget gate's
    bias starts at ones).

    Weights: ``kernel [in, 4·units]``, ``recurrent_kernel [units, 4·units]``,
    ``bias [4·units]``. States: ``[h, c]``, both ``[batch, units]``.
    """

    _n_gates = 4

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "hard_sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 unit_forget_bias: bool = True, kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0, recurrent_dropout: float = 0.0,
                 **kwargs: Any) -> None:
        self._config = _config(locals())
        kwargs.pop("implementation", None)
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
                         kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = bool(unit_forget_bias)

    @property
    def state_size(self) -> Any:
        return [self.units, self.units]

    def _bias_initializer(self) -> Any:
        if not self.unit_forget_bias:
            return self.bias_initializer
        init = initializers.get(self.bias_initializer)
        units = self.units

        def forget_ones(shape: Any, dtype: Any = None, **kwargs: Any) -> Any:
            return _shape_ops.concat([
                init([units], dtype=dtype), initializers.Ones()([units], dtype=dtype), init([2 * units], dtype=dtype),
            ], 0)

        return forget_ones

    def call(self, inputs: Any, states: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[Any]]:
        x = convert_to_tensor(inputs)
        h_prev, c_prev = states[0], states[1]
        zx = self._gate_dots(x, self.kernel, self._dp_mask, range(4))
        zh = self._gate_dots(h_prev, self.recurrent_kernel, self._rec_dp_mask, range(4))
        z = [a + b for a, b in zip(zx, zh)]
        if self.bias is not None:
            z = [zg + self._split(self.bias, g) for g, zg in enumerate(z)]
        i = self.recurrent_activation(z[0])
        f = self.recurrent_activation(z[1])
        c = f * c_prev + i * self.activation(z[2])
        o = self.recurrent_activation(z[3])
        h = o * self.activation(c)
        return h, [h, c]


class GRUCell(_Cell):
    """The GRU step of Keras, as ``tf.compat.v1.keras.layers.GRUCell`` (gates ``z, r, h``)::

        z = rec_act(x W_z + b_z + h_prev U_z);  r = rec_act(x W_r + b_r + h_prev U_r)
        hh = act(x W_h + b_h + (r * h_prev) U_h)              # reset_after=False (default)
        hh = act(x W_h + b_h + r * (h_prev U_h + b'_h))       # reset_after=True (CuDNN's)
        h = z * h_prev + (1 - z) * hh

    Args: as :class:`LSTMCell` (no ``unit_forget_bias``), and ``reset_after``.

    Weights: ``kernel [in, 3·units]``, ``recurrent_kernel [units, 3·units]``,
    ``bias [3·units]`` (``[2, 3·units]``: input and recurrent biases, when
    ``reset_after``). States: ``[h]``.
    """

    _n_gates = 3

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "hard_sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, recurrent_regularizer: Any = None, bias_regularizer: Any = None,
                 kernel_constraint: Any = None, recurrent_constraint: Any = None, bias_constraint: Any = None,
                 dropout: float = 0.0, recurrent_dropout: float = 0.0, reset_after: bool = False,
                 **kwargs: Any) -> None:
        self._config = _config(locals())
        kwargs.pop("implementation", None)
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
                         kernel_regularizer, recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = bool(reset_after)

    def _bias_shape(self) -> list[int]:
        return [2, 3 * self.units] if self.reset_after else [3 * self.units]

    def call(self, inputs: Any, states: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[Any]]:
        x = convert_to_tensor(inputs)
        h_prev = states[0] if isinstance(states, list | tuple) else states
        in_bias: Any = None
        rec_bias: Any = None
        if self.bias is not None:
            in_bias, rec_bias = (self.bias[0], self.bias[1]) if self.reset_after else (self.bias, None)
        xz, xr, xh = self._gate_dots(x, self.kernel, self._dp_mask, range(3))
        if in_bias is not None:
            xz, xr, xh = (xg + self._split(in_bias, g) for g, xg in enumerate((xz, xr, xh)))
        rdp = self._rec_dp_mask
        if self.reset_after:
            hz, hr, hh_in = self._gate_dots(h_prev, self.recurrent_kernel, rdp, range(3))
            if rec_bias is not None:
                hz, hr, hh_in = (hg + self._split(rec_bias, g) for g, hg in enumerate((hz, hr, hh_in)))
            z = self.recurrent_activation(xz + hz)
            r = self.recurrent_activation(xr + hr)
            hh = self.activation(xh + r * hh_in)
        else:
            hz, hr = self._gate_dots(h_prev, self.recurrent_kernel, rdp, range(2))
            z = self.recurrent_activation(xz + hz)
            r = self.recurrent_activation(xr + hr)
            h_h = h_prev if rdp is None else h_prev * rdp[2]
            hh = self.activation(xh + _math.matmul(r * h_h, self._split(self.recurrent_kernel, 2)))
        h = z * h_prev + (1.0 - z) * hh
        return h, [h]


def _state_sizes(cell: Any) -> list[int]:
    """The flat list of a cell's state sizes (Keras' ``state_size``: an int or a list)."""
    size = cell.state_size
    out: list[int] = []
    for s in size if isinstance(size, list | tuple) else [size]:
        out.extend(_state_sizes_of(s))
    return out


def _state_sizes_of(s: Any) -> list[int]:
    if isinstance(s, list | tuple):
        return [int(v) for v in s]
    return [int(s)]


class StackedRNNCells(Layer):
    """Cells applied one after the other in each step, as
    ``tf.compat.v1.keras.layers.StackedRNNCells`` (weights ``<rnn>/stacked_rnn_cells/<cell>/...``).

    States: the cells' states, flat, in cell order.

    Raises:
      ValueError: an empty list of cells.
    """

    def __init__(self, cells: list[Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not cells:
            raise ValueError("StackedRNNCells: expected at least one cell.")
        self.cells = list(cells)
        self._config = {"cells": self.cells}

    @property
    def state_size(self) -> list[int]:
        return [s for c in self.cells for s in _state_sizes(c)]

    @property
    def output_size(self) -> int:
        return int(self.cells[-1].output_size)

    def build(self, input_shape: Any) -> None:
        shape = TensorShape(input_shape)
        graph = get_default_graph()
        for cell in self.cells:
            if not cell.built:
                with graph.name_scope(cell.name):
                    cell.build(shape)
                cell.built = True
                self._trainable_weights.extend(cell.trainable_weights)
                self._non_trainable_weights.extend(cell.non_trainable_weights)
            shape = TensorShape([shape[0], int(cell.output_size)])
        self.built = True

    def _clear_dropout(self) -> None:
        for cell in self.cells:
            if hasattr(cell, "_clear_dropout"):
                cell._clear_dropout()

    def call(self, inputs: Any, states: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[Any]]:
        x = inputs
        new_states: list[Any] = []
        i = 0
        for cell in self.cells:
            n = len(_state_sizes(cell))
            x, st = _call_cell(cell, x, list(states[i:i + n]))
            new_states.extend(st)
            i += n
        return x, new_states


def _call_cell(cell: Any, inputs: Any, states: list[Any]) -> tuple[Any, list[Any]]:
    """One step of a Keras cell (built-in or user-written: ``call(inputs, states)``)."""
    out, new = cell.call(inputs, states)
    new_l = list(new) if isinstance(new, list | tuple) else [new]
    return out, new_l


class RNN(Layer):
    """A cell run over the time axis, as ``tf.compat.v1.keras.layers.RNN`` (one ``lax.scan``).

    Args:
      cell: a Keras cell (``SimpleRNNCell``, ``LSTMCell``, ``GRUCell``, a user
        cell with ``state_size`` and ``call(inputs, states) -> (output,
        new_states)``), or a list of cells (stacked).
      return_sequences: return all outputs ``[batch, time, units]`` (default:
        the last, ``[batch, units]``).
      return_state: also return the final states (``[output, *states]``).
      go_backwards: run over the steps from last to first (the outputs are in
        that order, as Keras').
      stateful: only False.
      unroll: accepted; the loop is a scan either way (same values).
      time_major: inputs ``[time, batch, features]``.

    Call: ``layer(inputs [batch, time, features], mask=None, training=None,
    initial_state=None)``; ``mask`` is a bool ``[batch, time]`` (default: the
    inputs' Keras mask).

    Raises:
      NotImplementedError: ``stateful=True``.
      ValueError: inputs of rank < 3 or a feature dimension unknown when the graph is built.
    """

    _takes_training = True
    _takes_mask = True
    supports_masking = True

    def __init__(self, cell: Any, return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False, time_major: bool = False,
                 **kwargs: Any) -> None:
        if stateful:
            raise NotImplementedError(f"keras.layers.{type(self).__name__}(stateful=True) is not supported by jaxsess.")
        if isinstance(cell, list | tuple):
            cell = StackedRNNCells(list(cell))
        if not hasattr(cell, "state_size") or not hasattr(cell, "call"):
            raise ValueError(f"Argument `cell` should have a `call` method and a `state_size` attribute; got {cell!r}.")
        kwargs.pop("implementation", None)
        kwargs.pop("zero_output_for_mask", None)
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = bool(return_sequences)
        self.return_state = bool(return_state)
        self.go_backwards = bool(go_backwards)
        self.stateful = False
        self.unroll = bool(unroll)
        self.time_major = bool(time_major)

    @property
    def states(self) -> list[None]:
        return [None] * len(_state_sizes(self.cell))

    def build(self, input_shape: Any) -> None:
        shape = TensorShape(input_shape)
        if shape.ndims is not None and shape.ndims < 3:
            raise ValueError(f"Input 0 of layer \"{self.name}\" is incompatible with the layer: expected ndim=3, "
                             f"found ndim={shape.ndims}. Full shape received: {tuple(shape.as_list())}")
        dims = shape.as_list() if shape.ndims is not None else [None, None, None]
        step = TensorShape([dims[1] if self.time_major else dims[0], *dims[2:]])
        if not self.cell.built:
            with get_default_graph().name_scope(self.cell.name):
                self.cell.build(step)
            self.cell.built = True
        self._trainable_weights.extend(self.cell.trainable_weights)
        self._non_trainable_weights.extend(self.cell.non_trainable_weights)
        self.built = True

    def call(self, inputs: Any, mask: Any = None, training: Any = None, initial_state: Any = None,
             *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        rank = TensorShape(x.shape).ndims
        if rank is None or rank < 3:
            raise ValueError(f"{self.name}: inputs must be [batch, time, features]; got shape {x.shape}.")
        xs = x if self.time_major else _shape_ops.transpose(x, [1, 0, *range(2, rank)])
        sizes = _state_sizes(self.cell)
        batch: Any = TensorShape(xs.shape)[1]
        if batch is None:
            batch = _shape_ops.shape(xs)[1]
        if initial_state is not None:
            states = [convert_to_tensor(s) for s in tree_util.tree_leaves(
                list(initial_state) if isinstance(initial_state, list | tuple) else [initial_state],
                is_leaf=lambda t: not isinstance(t, list | tuple))]
            if len(states) != len(sizes):
                raise ValueError(f"Layer {self.name} expects {len(sizes)} initial state(s), "
                                 f"but it received {len(states)} initial state(s).")
        else:
            states = list(zero_state_tensors(sizes, batch, x.dtype))
        elems = [xs]
        if mask is not None:
            m = convert_to_tensor(mask)
            elems.append(m if self.time_major else _shape_ops.transpose(m, [1, 0]))
        if self.go_backwards:
            elems = [_shape_ops.reverse(e, [0]) for e in elems]
        cells = self.cell.cells if isinstance(self.cell, StackedRNNCells) else [self.cell]
        template = xs[0]
        for cell, st in zip(cells, _states_per_cell(cells, states)):
            if hasattr(cell, "_prepare_dropout"):
                cell._prepare_dropout(template, st[0], training)
            template = _fill.zeros_like(st[0]) if isinstance(cell, _Cell) else template
        n_states = len(states)
        carry = list(states)
        if mask is not None:
            carry.append(zero_state_tensors(int(self.cell.output_size), batch, x.dtype))

        def body(carry: list[Any], elems_t: list[Any]) -> tuple[list[Any], list[Any]]:
            old = carry[:n_states]
            out, new = _call_cell(self.cell, elems_t[0], old)
            out = convert_to_tensor(out)
            new = [convert_to_tensor(s) for s in new]
            if mask is not None:
                masked = _math.logical_not(elems_t[1])
                new = [_copy_through(masked, o, n) for o, n in zip(old, new)]
                out = _copy_through(masked, carry[n_states], out)
                return [*new, out], [out]
            return new, [out]

        try:
            final, (outs,) = scan_loop(body, carry, elems, what=self.name)
        finally:
            for cell in cells:
                if hasattr(cell, "_clear_dropout"):
                    cell._clear_dropout()
        last = final[n_states] if mask is not None else outs[-1]  # type: ignore[index]
        if self.return_sequences:
            output = outs if self.time_major else _shape_ops.transpose(outs, [1, 0, *range(2, rank)])
        else:
            output = last
        if self.return_state:
            if isinstance(self.cell, StackedRNNCells):  # one entry per cell, a list for multi-state cells
                per_cell = _states_per_cell(cells, list(final[:n_states]))
                return [output, *[st if isinstance(c.state_size, list | tuple) else st[0]
                                  for c, st in zip(cells, per_cell)]]
            return [output, *final[:n_states]]
        return output

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        out = mask if self.return_sequences else None
        if self.return_state:
            return [out] + [None] * len(_state_sizes(self.cell))
        return out

    def _clone(self, name: str, go_backwards: bool) -> RNN:
        """A new, unbuilt layer with the same arguments (``Bidirectional``'s forward/backward copies)."""
        cfg = dict(getattr(self, "_config", {}))
        if not cfg:
            cell = self.cell
            if not hasattr(cell, "_config"):
                raise NotImplementedError(
                    f"Bidirectional({self.name}): jaxsess copies only the built-in cells; pass backward_layer=.")
            cell_cfg = dict(cell._config)
            if isinstance(cell, StackedRNNCells):
                new_cell: Any = StackedRNNCells([type(c)(**c._config) for c in cell.cells])
            else:
                new_cell = type(cell)(**cell_cfg)
            return RNN(new_cell, return_sequences=self.return_sequences, return_state=self.return_state,
                       go_backwards=go_backwards, time_major=self.time_major, name=name)
        cfg["go_backwards"] = go_backwards
        return type(self)(name=name, **cfg)  # type: ignore[arg-type]


def _states_per_cell(cells: list[Any], states: list[Any]) -> list[list[Any]]:
    out, i = [], 0
    for cell in cells:
        n = len(_state_sizes(cell))
        out.append(states[i:i + n])
        i += n
    return out


def _rnn_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The ``RNN`` arguments among a layer's keyword arguments (the rest go to the cell)."""
    keys = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll", "time_major", "name",
            "input_shape", "batch_input_shape", "batch_size", "input_dim", "trainable", "dtype",
            "activity_regularizer")
    return {k: kwargs.pop(k) for k in keys if k in kwargs}


class SimpleRNN(RNN):
    """A fully-connected RNN, as ``tf.compat.v1.keras.layers.SimpleRNN``: a :class:`SimpleRNNCell`
    named ``simple_rnn_cell`` run by :class:`RNN` (weights ``simple_rnn/simple_rnn_cell/kernel:0``...).

    Args: the cell's (``units``, ``activation``, initializers, ``dropout``...)
    and :class:`RNN`'s (``return_sequences``, ``return_state``, ``go_backwards``, ``unroll``).
    """

    _cell_class: Callable[..., Any] = SimpleRNNCell
    _cell_name = "simple_rnn_cell"

    def __init__(self, units: int, **kwargs: Any) -> None:
        self._config = {"units": units, **kwargs}
        self._config.pop("name", None)
        rnn_kwargs = _rnn_kwargs(kwargs)
        cell = self._cell_class(units, name=self._cell_name, dtype=rnn_kwargs.get("dtype"),
                                trainable=rnn_kwargs.get("trainable", True), **kwargs)
        super().__init__(cell, **rnn_kwargs)

    #: The cell arguments readable on the layer (``layer.units``, ``layer.reset_after``...), as Keras' properties.
    _CELL_ATTRS = frozenset({
        "units", "activation", "recurrent_activation", "use_bias", "kernel_initializer", "recurrent_initializer",
        "bias_initializer", "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
        "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout",
        "reset_after",
    })

    def __getattr__(self, name: str) -> Any:
        if name in SimpleRNN._CELL_ATTRS and "cell" in self.__dict__:
            return getattr(self.__dict__["cell"], name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


class LSTM(SimpleRNN):
    """Long short-term memory, as ``tf.compat.v1.keras.layers.LSTM``: an :class:`LSTMCell`
    named ``lstm_cell`` run by :class:`RNN` (weights ``lstm/lstm_cell/kernel:0`` ``[in, 4·units]``,
    ``recurrent_kernel:0``, ``bias:0``; ``recurrent_activation`` default ``'hard_sigmoid'``).
    ``return_state`` gives ``[output, h, c]``."""

    _cell_class = LSTMCell
    _cell_name = "lstm_cell"


class GRU(SimpleRNN):
    """Gated recurrent unit, as ``tf.compat.v1.keras.layers.GRU``: a :class:`GRUCell` named
    ``gru_cell`` run by :class:`RNN` (``reset_after`` default False; ``recurrent_activation``
    default ``'hard_sigmoid'``)."""

    _cell_class = GRUCell
    _cell_name = "gru_cell"


class Bidirectional(Layer):
    """A recurrent layer run forwards and backwards, outputs merged, as
    ``tf.compat.v1.keras.layers.Bidirectional``.

    The two copies are named ``forward_<layer>`` and ``backward_<layer>``
    (weights ``bidirectional/forward_lstm/lstm_cell/kernel:0``...); the backward
    outputs are put back in time order before merging.

    Args:
      layer: an :class:`RNN` layer (``LSTM``, ``GRU``, ...), not yet called.
      merge_mode: ``'concat'`` (default), ``'sum'``, ``'ave'``, ``'mul'`` or
        None (a list of the two outputs).
      backward_layer: an optional layer to use backwards (``go_backwards`` set).

    Raises:
      ValueError: an unknown ``merge_mode``, or ``layer`` is not an ``RNN``.
    """

    _takes_training = True
    _takes_mask = True
    supports_masking = True

    def __init__(self, layer: Any, merge_mode: str | None = "concat", weights: Any = None,
                 backward_layer: Any = None, **kwargs: Any) -> None:
        if merge_mode not in ("sum", "mul", "ave", "concat", None):
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                             '{"sum", "mul", "ave", "concat", None}')
        if not isinstance(layer, RNN):
            raise ValueError(f"Please initialize `Bidirectional` layer with a `tf.keras.layers.Layer` RNN "
                             f"instance. Received: {layer}")
        super().__init__(**kwargs)
        self.forward_layer = layer._clone("forward_" + layer.name, layer.go_backwards)
        if backward_layer is None:
            self.backward_layer = layer._clone("backward_" + layer.name, not layer.go_backwards)
        else:
            self.backward_layer = backward_layer
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self._initial_weights = weights

    def build(self, input_shape: Any) -> None:
        self.built = True

    def call(self, inputs: Any, mask: Any = None, training: Any = None, initial_state: Any = None,
             *args: Any, **kwargs: Any) -> Any:
        fw_init = bw_init = None
        if initial_state is not None:
            half = len(initial_state) // 2
            fw_init, bw_init = list(initial_state[:half]), list(initial_state[half:])
        y = self.forward_layer(inputs, mask=mask, training=training, initial_state=fw_init)
        y_rev = self.backward_layer(inputs, mask=mask, training=training, initial_state=bw_init)
        for sub in (self.forward_layer, self.backward_layer):
            for w in sub.trainable_weights:
                if not any(w is v for v in self._trainable_weights):
                    self._trainable_weights.append(w)
        states: list[Any] = []
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            time_axis = 0 if self.forward_layer.time_major else 1
            y_rev = _shape_ops.reverse(y_rev, [time_axis])
        if self.merge_mode == "concat":
            out: Any = _shape_ops.concat([y, y_rev], -1)
        elif self.merge_mode == "sum":
            out = y + y_rev
        elif self.merge_mode == "ave":
            out = (y + y_rev) / 2
        elif self.merge_mode == "mul":
            out = y * y_rev
        else:
            out = [y, y_rev]
        if self.return_state:
            return (out if isinstance(out, list) else [out]) + states
        return out

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        out = mask if self.return_sequences else None
        outs = [out, out] if self.merge_mode is None else [out]
        if self.return_state:
            n = len(_state_sizes(self.forward_layer.cell)) * 2
            return outs + [None] * n
        return outs if self.merge_mode is None else out


class TimeDistributed(Layer):
    """``layer`` applied to each time step, as ``tf.compat.v1.keras.layers.TimeDistributed``:
    inputs ``[batch, time, ...]`` are reshaped to ``[batch·time, ...]``, passed
    to ``layer`` and reshaped back. The inner layer's weights are made in this
    layer's scope (``time_distributed/kernel:0``), as Keras' graph mode.

    Raises:
      ValueError: ``layer`` is not a Keras layer, or inputs of rank < 3.
    """

    _takes_training = True
    supports_masking = True

    def __init__(self, layer: Any, **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a `tf.keras.layers.Layer` instance. "
                             f"Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape: Any) -> None:
        shape = TensorShape(input_shape)
        if shape.ndims is not None and shape.ndims < 3:
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape` with at least 3 dimensions, "
                             f"received: {tuple(shape.as_list())}")
        if not self.layer.built:
            if self.layer.dtype is None:
                self.layer.dtype = self.dtype
            self.layer.build(TensorShape([None, *shape.as_list()[2:]]))
            self.layer.built = True
        self._trainable_weights.extend(self.layer.trainable_weights)
        self._non_trainable_weights.extend(self.layer.non_trainable_weights)
        self.built = True

    def call(self, inputs: Any, training: Any = None, *args: Any, **kwargs: Any) -> Any:
        x = convert_to_tensor(inputs)
        dims = TensorShape(x.shape).as_list()
        flat = _shape_ops.reshape(x, [-1, *[int(d) if d is not None else -1 for d in dims[2:]]]) \
            if all(d is not None for d in dims[2:]) else _shape_ops.reshape(
                x, _shape_ops.concat([[-1], _shape_ops.shape(x)[2:]], 0))
        y = self.layer.call(flat, training=training) if self.layer._takes_training else self.layer.call(flat)
        y = convert_to_tensor(y)
        ydims = TensorShape(y.shape).as_list()
        if dims[1] is not None and all(d is not None for d in ydims[1:]):
            return _shape_ops.reshape(y, [-1, dims[1], *[d for d in ydims[1:] if d is not None]])
        return _shape_ops.reshape(y, _shape_ops.concat([_shape_ops.shape(x)[:2], _shape_ops.shape(y)[1:]], 0))
