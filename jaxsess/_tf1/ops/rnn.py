"""Recurrent networks, as ``tf.compat.v1.nn.dynamic_rnn`` / ``static_rnn`` /
``bidirectional_dynamic_rnn`` / ``static_bidirectional_rnn``.

``dynamic_rnn`` is one ``Scan`` op (:func:`jaxsess._tf1.ops.functional_ops.scan_loop`,
lowered to ``lax.scan``) whose body is the cell, called once while the graph
is built; its variables are created once, outside the loop, named as TF1
names them (``rnn/basic_lstm_cell/kernel``). Reverse-mode gradients go
through ``lax.scan``, so ``tf.gradients`` and the optimizers train it.
``static_rnn`` unrolls the cell in the graph, as TF1. ``raw_rnn`` is a
``while_loop`` writing ``TensorArray``s, as TF's ``rnn.py``; XLA needs a
bound on its steps (``maximum_iterations``, a jaxsess argument).

Variable lengths (``sequence_length``), as TF1: at step ``t`` a batch entry
with ``t >= sequence_length[b]`` gets a zero output and keeps its state, so
the final state of each entry is its state after its last valid step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax.numpy as jnp
from jax import tree_util

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, constant, convert_to_tensor, identity
from jaxsess._core.graph._graph import Tensor
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops, variable_scope as vs
from jaxsess._tf1.ops.control_flow import while_loop
from jaxsess._tf1.ops.fill_ops import zeros
from jaxsess._tf1.ops.functional_ops import scan_loop
from jaxsess._tf1.ops.rnn_cell import zero_state_tensors
from jaxsess._tf1.ops.tensor_array_ops import TensorArray

__all__ = [
    "dynamic_rnn",
    "static_rnn",
    "bidirectional_dynamic_rnn",
    "static_bidirectional_rnn",
    "reverse_sequence",
    "raw_rnn",
]


def _shape(x: Any) -> TensorShape:
    """The static shape of a graph tensor, or the shape of an eager array."""
    return TensorShape(x.shape)


def _is_leaf(x: Any) -> bool:
    return not isinstance(x, list | tuple | dict)


def _flatten(x: Any) -> tuple[list[Any], Any]:
    return tree_util.tree_flatten(x, is_leaf=_is_leaf)


def _assert_like_rnncell(name: str, cell: Any) -> None:
    missing = [a for a in ("output_size", "state_size", "zero_state") if not hasattr(cell, a)]
    if not callable(cell):
        missing.append("__call__")
    if missing:
        raise TypeError(f"The argument {name!r} ({cell}) is not an RNNCell: it lacks {', '.join(missing)}.")


# -- reverse_sequence ------------------------------------------------------------------


# TF's attributes are seq_dim/batch_dim
@register_op("ReverseSequence", default_name="ReverseSequence", tf=TFOp(
    types={"T": 0, "Tlen": 1}, to_tf=lambda a, s: ({"seq_dim": a["seq_axis"], "batch_dim": a["batch_axis"]}, []),
    from_tf=lambda a, c: {"seq_axis": int(a["seq_dim"]), "batch_axis": int(a.get("batch_dim", 0))}))
def _reverse_sequence(x: Any, lengths: Any, *, seq_axis: int, batch_axis: int) -> Any:
    xm = jnp.moveaxis(x, (batch_axis, seq_axis), (0, 1))
    t = jnp.arange(xm.shape[1])
    lens = lengths.astype(jnp.int32)[:, None]
    idx = jnp.where(t[None, :] < lens, lens - 1 - t[None, :], t[None, :])
    idx = idx.reshape(idx.shape + (1,) * (xm.ndim - 2))
    out = jnp.take_along_axis(xm, idx, axis=1)
    return jnp.moveaxis(out, (0, 1), (batch_axis, seq_axis))


def reverse_sequence(input: Any, seq_lengths: Any, seq_axis: int | None = None, batch_axis: int | None = None,
                     name: str | None = None, seq_dim: int | None = None, batch_dim: int | None = None) -> Any:
    """Reverses the first ``seq_lengths[b]`` entries along ``seq_axis`` of each
    batch entry ``b``, as ``tf.compat.v1.reverse_sequence``; later entries stay.

    Args:
      input: a tensor with static rank.
      seq_lengths: int tensor of shape ``[input.shape[batch_axis]]``.
      seq_axis / seq_dim, batch_axis / batch_dim: static axes (batch default 0).
    """
    x = convert_to_tensor(input)
    lengths = convert_to_tensor(seq_lengths)
    sa = seq_axis if seq_axis is not None else seq_dim
    ba = batch_axis if batch_axis is not None else (batch_dim if batch_dim is not None else 0)
    if sa is None:
        raise ValueError("reverse_sequence: seq_axis is required.")
    if _shape(lengths).ndims not in (None, 1):
        raise ValueError(f"reverse_sequence: seq_lengths must be a vector, got shape {lengths.shape}.")
    return apply_op("ReverseSequence", (x, lengths), {"seq_axis": int(sa), "batch_axis": int(ba)}, name=name)


# -- helpers -----------------------------------------------------------------------------


def _transpose_batch_time(x: Tensor) -> Tensor:
    """``[B, T, ...] <-> [T, B, ...]``; tensors of rank < 2 are returned as they are."""
    rank = _shape(x).ndims
    if rank is None:
        raise ValueError(f"dynamic_rnn: the rank of input '{x.name}' must be known when the graph is built.")
    if rank < 2:
        return x
    perm = [1, 0, *range(2, rank)]
    return array_ops.transpose(x, perm)  # type: ignore[no-any-return]


def _batch_size(flat_time_major: Sequence[Tensor]) -> Any:
    for x in flat_time_major:
        shape = _shape(x)
        if (shape.ndims or 0) >= 2 and shape[1] is not None:
            return shape[1]
    return array_ops.shape(flat_time_major[0])[1]


def _state_dtype(dtype: Any, state: Any) -> _dtypes.DType:
    if dtype is not None:
        return _dtypes.as_dtype(dtype)
    leaves, _ = _flatten(state)
    if not leaves:
        raise ValueError("Unable to infer dtype from empty state.")
    d = convert_to_tensor(leaves[0]).dtype
    for s in leaves[1:]:
        if convert_to_tensor(s).dtype != d:
            raise ValueError(f"State has tensors of different inferred dtypes; dtype must be given ({leaves}).")
    return d  # type: ignore[no-any-return]


def _initial_state(cell: Any, initial_state: Any, dtype: Any, batch_size: Any) -> Any:
    if initial_state is not None:
        return initial_state
    if not dtype:
        raise ValueError("If no initial_state is provided, argument `dtype` must be specified")
    return cell.zero_state(batch_size, dtype)


def _lengths(sequence_length: Any) -> Tensor:
    seq = math_ops.cast(sequence_length, _dtypes.int32)
    if _shape(seq).ndims not in (None, 1):
        raise ValueError(
            "Argument sequence_length must be a vector of length batch_size. "
            f"Received sequence_length={seq} of shape: {seq.shape}"
        )
    return identity(seq, name="sequence_length")  # type: ignore[no-any-return]


def _copy_through(copy_cond: Tensor, old: Tensor, new: Tensor) -> Tensor:
    """``old`` for batch rows where ``copy_cond`` holds, else ``new`` (TF1's
    row-selecting ``where`` on ``[batch, ...]`` tensors)."""
    rank = _shape(new).ndims
    if rank is None:
        raise ValueError(f"dynamic_rnn: the rank of '{new.name}' must be known when the graph is built.")
    if rank == 0:
        return new
    cond = copy_cond if rank == 1 else array_ops.reshape(copy_cond, [-1] + [1] * (rank - 1))
    out = math_ops.where(cond, old, new)
    return out  # type: ignore[no-any-return]


def _rnn_step(time: Tensor, sequence_length: Tensor, zero_output: list[Tensor], state: list[Tensor],
              new_output: list[Tensor], new_state: list[Tensor]) -> tuple[list[Tensor], list[Tensor]]:
    copy_cond = math_ops.greater_equal(time, sequence_length)
    outs = [_copy_through(copy_cond, z, o) for z, o in zip(zero_output, new_output)]
    states = [_copy_through(copy_cond, s, n) for s, n in zip(state, new_state)]
    return outs, states


def _check_same_structure(what: str, expected: Any, got: Any) -> None:
    want: Any = tree_util.tree_structure(expected, is_leaf=_is_leaf)
    if want != tree_util.tree_structure(got, is_leaf=_is_leaf):
        raise ValueError(f"{what}: the cell returned a state of structure {got}, expected the structure of {expected}.")


# -- dynamic_rnn --------------------------------------------------------------------------


def dynamic_rnn(cell: Any, inputs: Any, sequence_length: Any = None, initial_state: Any = None, dtype: Any = None,
                parallel_iterations: int | None = None, swap_memory: bool = False, time_major: bool = False,
                scope: Any = None) -> tuple[Any, Any]:
    """Runs ``cell`` over the time axis of ``inputs``, as ``tf.compat.v1.nn.dynamic_rnn``
    (one ``Scan`` op, lowered to ``lax.scan``).

    Args:
      cell: an ``RNNCell``.
      inputs: ``[batch, time, depth]`` (``[time, batch, depth]`` when
        ``time_major``), or a nested tuple of such tensors; ``depth`` must be
        known when the graph is built.
      sequence_length: optional int vector ``[batch]``: outputs past an
        entry's length are zeros and its state stops changing.
      initial_state: the cell's state at step 0 (default: ``cell.zero_state``).
      dtype: the state dtype; required without ``initial_state``.
      time_major: inputs and outputs are ``[time, batch, ...]``.
      scope: the variable scope (default ``'rnn'``).

    Returns:
      ``(outputs, final_state)``: outputs ``[batch, time, output_size]`` (or
      time-major) in the structure of ``cell.output_size``; the final state in
      the structure of ``cell.state_size``.

    Raises:
      TypeError: ``cell`` is not an RNN cell.
      ValueError: neither ``initial_state`` nor ``dtype``; a ``sequence_length``
        that is not a vector; an input depth unknown at graph build time.
    """
    _assert_like_rnncell("cell", cell)
    with vs.variable_scope(scope or "rnn"):
        flat_input, in_tree = _flatten(inputs)
        flat_input = [convert_to_tensor(x) for x in flat_input]
        for x in flat_input:  # before the cell builds, as TF
            if (_shape(x).ndims or 3) < 3:
                raise ValueError(f"Shape {_shape(x)} must have rank at least 3")
        if not time_major:
            flat_input = [_transpose_batch_time(x) for x in flat_input]
        seq = _lengths(sequence_length) if sequence_length is not None else None
        batch_size = _batch_size(flat_input)
        state = _initial_state(cell, initial_state, dtype, batch_size)
        outputs, final_state = _dynamic_rnn_loop(cell, flat_input, in_tree, state, seq, dtype)
        if not time_major:
            outputs = tree_util.tree_map(_transpose_batch_time, outputs)
    return outputs, final_state


def _dynamic_rnn_loop(cell: Any, flat_input: list[Tensor], in_tree: Any, state: Any, seq: Tensor | None,
                      dtype: Any) -> tuple[Any, Any]:
    for x in flat_input:
        shape = _shape(x)
        if (shape.ndims or 0) < 2:
            raise ValueError(f"dynamic_rnn: input '{x.name}' must have rank at least 3 (batch, time, depth); got {shape}.")
        if any(d is None for d in shape.as_list()[2:]):
            raise ValueError(
                "Input size (depth of inputs) must be accessible via shape inference, "
                f"but saw value None (input '{x.name}', shape {shape})."
            )
    steps = [_shape(x)[0] for x in flat_input]
    known = {s for s in steps if s is not None}
    if len(known) > 1:
        raise ValueError(f"Time steps is not the same for all the elements in the input in a batch: {steps}.")
    n_steps: Any = known.pop() if known else array_ops.shape(flat_input[0])[0]
    batch_size = _batch_size(flat_input)
    state_leaves, state_tree = _flatten(state)
    state_leaves = [convert_to_tensor(s) for s in state_leaves]
    out_leaves_tree: list[Any] = []
    zero_output: list[Tensor] = []
    if seq is not None:
        out_dtype = _state_dtype(dtype, state)
        zero_output = _flatten(zero_state_tensors(cell.output_size, batch_size, out_dtype))[0]
    time_index = array_ops.range(n_steps, dtype=_dtypes.int32)

    def body(carry: list[Tensor], xs: list[Tensor]) -> tuple[list[Any], list[Any]]:
        *slices, time = xs
        inp = tree_util.tree_unflatten(in_tree, slices)
        cur_state = tree_util.tree_unflatten(state_tree, carry)
        output, new_state = cell(inp, cur_state)
        _check_same_structure("dynamic_rnn", cur_state, new_state)
        out_l, out_tree = _flatten(output)
        out_leaves_tree.append(out_tree)
        out_l = [convert_to_tensor(o) for o in out_l]
        new_l = [convert_to_tensor(s) for s in _flatten(new_state)[0]]
        if seq is not None:
            out_l, new_l = _rnn_step(time, seq, zero_output, carry, out_l, new_l)
        return new_l, out_l

    final, outs = scan_loop(body, state_leaves, [*flat_input, time_index], what="dynamic_rnn")
    return tree_util.tree_unflatten(out_leaves_tree[-1], outs), tree_util.tree_unflatten(state_tree, final)


# -- static_rnn ----------------------------------------------------------------------------


def static_rnn(cell: Any, inputs: Sequence[Any], initial_state: Any = None, dtype: Any = None,
               sequence_length: Any = None, scope: Any = None) -> tuple[list[Any], Any]:
    """The cell unrolled over a Python list of inputs, as ``tf.compat.v1.nn.static_rnn``.

    Args:
      cell: an ``RNNCell``.
      inputs: a non-empty list of ``[batch, depth]`` tensors (or nested tuples).
      initial_state, dtype, sequence_length, scope: as :func:`dynamic_rnn`.

    Returns:
      ``(outputs, final_state)``: a list with one output per input.

    Raises:
      TypeError: ``inputs`` is not a list/tuple or ``cell`` not a cell.
      ValueError: ``inputs`` is empty; neither ``initial_state`` nor ``dtype``.
    """
    _assert_like_rnncell("cell", cell)
    if not isinstance(inputs, list | tuple):
        raise TypeError("inputs must be a sequence")
    if not inputs:
        raise ValueError("inputs must not be empty")
    outputs: list[Any] = []
    with vs.variable_scope(scope or "rnn") as varscope:
        first = [convert_to_tensor(x) for x in _flatten(inputs[0])[0]]
        batch_size: Any = None
        for x in first:
            shape = _shape(x)
            if (shape.ndims or 0) >= 1 and shape[0] is not None:
                batch_size = shape[0]
                break
        if batch_size is None:
            batch_size = array_ops.shape(first[0])[0]
        state = _initial_state(cell, initial_state, dtype, batch_size)
        seq = None
        zero_output: list[Tensor] = []
        if sequence_length is not None:
            seq = _lengths(sequence_length)
            zero_output = _flatten(zero_state_tensors(cell.output_size, batch_size, _state_dtype(dtype, state)))[0]
        for time, inp in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()
            output, new_state = cell(inp, state)
            if seq is not None:
                out_l, out_tree = _flatten(output)
                old_l, st_tree = _flatten(state)
                new_l = _flatten(new_state)[0]
                t = convert_to_tensor(time, dtype=_dtypes.int32)
                o2, s2 = _rnn_step(t, seq, zero_output, [convert_to_tensor(s) for s in old_l],
                                   [convert_to_tensor(o) for o in out_l], [convert_to_tensor(s) for s in new_l])
                output = tree_util.tree_unflatten(out_tree, o2)
                new_state = tree_util.tree_unflatten(st_tree, s2)
            state = new_state
            outputs.append(output)
    return outputs, state


# -- bidirectional ---------------------------------------------------------------------------


def _reverse_seq(input_seq: Sequence[Any], lengths: Tensor | None) -> list[Any]:
    if lengths is None:
        return list(reversed(input_seq))
    flat = [_flatten(x) for x in input_seq]
    tree = flat[0][1]
    n = len(flat[0][0])
    cols = []
    for k in range(n):
        stacked = array_ops.stack([convert_to_tensor(f[0][k]) for f in flat])
        cols.append(array_ops.unstack(reverse_sequence(stacked, lengths, seq_axis=0, batch_axis=1)))
    return [tree_util.tree_unflatten(tree, [cols[k][t] for k in range(n)]) for t in range(len(input_seq))]


def static_bidirectional_rnn(cell_fw: Any, cell_bw: Any, inputs: Sequence[Any], initial_state_fw: Any = None,
                             initial_state_bw: Any = None, dtype: Any = None, sequence_length: Any = None,
                             scope: Any = None) -> tuple[list[Any], Any, Any]:
    """A forward and a backward :func:`static_rnn`, outputs concatenated, as
    ``tf.compat.v1.nn.static_bidirectional_rnn``. Variables live in
    ``bidirectional_rnn/fw/...`` and ``bidirectional_rnn/bw/...``.

    Returns:
      ``(outputs, output_state_fw, output_state_bw)``; each output is
      ``concat([fw, bw], 1)`` of shape ``[batch, fw_size + bw_size]``.

    Raises:
      TypeError: a cell is not a cell, or ``inputs`` is not a list.
      ValueError: ``inputs`` is empty.
    """
    _assert_like_rnncell("cell_fw", cell_fw)
    _assert_like_rnncell("cell_bw", cell_bw)
    if not isinstance(inputs, list | tuple):
        raise TypeError("inputs must be a list")
    if not inputs:
        raise ValueError("inputs must not be empty")
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype, sequence_length,
                                             scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            seq = math_ops.cast(sequence_length, _dtypes.int32) if sequence_length is not None else None
            reversed_inputs = _reverse_seq(inputs, seq)
            tmp, state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw, dtype, sequence_length,
                                       scope=bw_scope)
    output_bw = _reverse_seq(tmp, seq)
    outputs = []
    for fw, bw in zip(output_fw, output_bw):
        f_l, tree = _flatten(fw)
        b_l = _flatten(bw)[0]
        outputs.append(tree_util.tree_unflatten(tree, [array_ops.concat([a, b], 1) for a, b in zip(f_l, b_l)]))
    return outputs, state_fw, state_bw


def bidirectional_dynamic_rnn(cell_fw: Any, cell_bw: Any, inputs: Any, sequence_length: Any = None,
                              initial_state_fw: Any = None, initial_state_bw: Any = None, dtype: Any = None,
                              parallel_iterations: int | None = None, swap_memory: bool = False,
                              time_major: bool = False, scope: Any = None) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """A forward and a backward :func:`dynamic_rnn`, as
    ``tf.compat.v1.nn.bidirectional_dynamic_rnn``. The backward cell reads each
    sequence reversed within its length (``reverse_sequence``) and its outputs
    are reversed back. Variables live in ``bidirectional_rnn/fw/...`` and
    ``bidirectional_rnn/bw/...``.

    Returns:
      ``((output_fw, output_bw), (output_state_fw, output_state_bw))``; the
      outputs are not concatenated.
    """
    _assert_like_rnncell("cell_fw", cell_fw)
    _assert_like_rnncell("cell_bw", cell_bw)
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(cell_fw, inputs, sequence_length=sequence_length,
                                              initial_state=initial_state_fw, dtype=dtype,
                                              time_major=time_major, scope=fw_scope)
        time_axis, batch_axis = (0, 1) if time_major else (1, 0)

        def rev(x: Any) -> Any:
            if sequence_length is not None:
                return reverse_sequence(x, math_ops.cast(sequence_length, _dtypes.int64), seq_axis=time_axis,
                                        batch_axis=batch_axis)
            return array_ops.reverse(x, axis=[time_axis])

        with vs.variable_scope("bw") as bw_scope:
            inputs_reverse = tree_util.tree_map(rev, inputs, is_leaf=_is_leaf)
            tmp, state_bw = dynamic_rnn(cell_bw, inputs_reverse, sequence_length=sequence_length,
                                        initial_state=initial_state_bw, dtype=dtype, time_major=time_major,
                                        scope=bw_scope)
    output_bw = rev(tmp) if not isinstance(tmp, list | tuple) else tree_util.tree_map(rev, tmp, is_leaf=_is_leaf)
    return (output_fw, output_bw), (state_fw, state_bw)


# -- raw_rnn ------------------------------------------------------------------------------


def _same_structure(what: str, expected: Any, got: Any) -> None:
    want: Any = tree_util.tree_structure(expected, is_leaf=_is_leaf)
    have: Any = tree_util.tree_structure(got, is_leaf=_is_leaf)
    if want != have:
        raise ValueError(f"raw_rnn: {what} has structure {have}, expected {want}.")


def raw_rnn(cell: Any, loop_fn: Any, parallel_iterations: int | None = None, swap_memory: bool = False,
            scope: Any = None, *, maximum_iterations: int | None = None) -> tuple[Any, Any, Any]:
    """Runs ``cell`` in a ``while_loop`` driven by ``loop_fn``, as
    ``tf.compat.v1.nn.raw_rnn`` (TF's ``rnn.py``).

    ``loop_fn(time, cell_output, cell_state, loop_state) -> (finished,
    next_input, next_cell_state, emit_output, next_loop_state)`` is called
    once with ``(0, None, None, None)`` for the initial values, then after
    every cell step. The loop runs until every entry of ``finished`` (bool
    ``[batch]``) holds; finished entries emit zeros and keep their state.

    Args:
      cell: an ``RNNCell``.
      loop_fn: as above; ``emit_output`` (``None`` at time 0: the structure
        of ``cell.output_size``) gives the emitted structure.
      parallel_iterations, swap_memory: accepted and ignored.
      scope: the variable scope (default ``'rnn'``).
      maximum_iterations: a bound on the steps (jaxsess only; required: XLA
        needs a static buffer for the emitted ``TensorArray``s). When the
        loop stops earlier, the emitted arrays' rows past its last step are
        zeros (TF's arrays end there).

    Returns:
      ``(emit_ta, final_state, final_loop_state)``: ``TensorArray``s
      (``dynamic_size``) of ``[batch, *emit_shape]`` elements in the
      structure of the emitted output, the final cell state, and the final
      loop state (``None`` when ``loop_fn`` gave none at time 0).

    Raises:
      TypeError: ``cell`` is not an RNN cell, or ``loop_fn`` not callable.
      ValueError: no ``maximum_iterations``; ``loop_fn`` returns structures
        that differ from the cell's or from its first call's.
    """
    _assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError(f"Argument `loop_fn` must be a callable. Received: {loop_fn}.")
    if maximum_iterations is None:
        raise ValueError(
            "raw_rnn: jaxsess needs maximum_iterations=N (a bound on the steps): XLA compiles the emitted "
            "TensorArrays as static buffers of N rows. Pass raw_rnn(cell, loop_fn, maximum_iterations=N)."
        )
    with vs.variable_scope(scope or "rnn"):
        time = constant(0, dtype=_dtypes.int32)
        finished, next_input, initial_state, emit_structure, init_loop_state = loop_fn(time, None, None, None)
        flat_input, _ = _flatten(next_input)
        loop_state = init_loop_state if init_loop_state is not None else constant(0, dtype=_dtypes.int32)
        first = convert_to_tensor(flat_input[0])
        const_batch = _shape(first)[0] if _shape(first).ndims else None
        batch_size = const_batch if const_batch is not None else array_ops.shape(first)[0]
        _same_structure("the initial state", cell.state_size, initial_state)
        flat_state, state_tree = _flatten(initial_state)
        state = tree_util.tree_unflatten(state_tree, [convert_to_tensor(x) for x in flat_state])
        if emit_structure is not None:
            flat_emit, emit_tree = _flatten(emit_structure)
            flat_emit = [convert_to_tensor(e) for e in flat_emit]
            emit_sizes = [_shape(e) for e in flat_emit]
            emit_dtypes = [e.dtype for e in flat_emit]
        else:
            flat_sizes, emit_tree = _flatten(cell.output_size)
            emit_sizes = [TensorShape([d]) if isinstance(d, int) else TensorShape(d) for d in flat_sizes]
            emit_dtypes = [convert_to_tensor(tree_util.tree_leaves(state)[0]).dtype] * len(emit_sizes)
        flat_ta = [
            TensorArray(dtype=d, size=0, dynamic_size=True,
                        element_shape=TensorShape([const_batch]).concatenate(s), name=f"rnn_output_{i}")
            for i, (d, s) in enumerate(zip(emit_dtypes, emit_sizes))
        ]
        emit_ta = tree_util.tree_unflatten(emit_tree, flat_ta)
        zero_emit = tree_util.tree_unflatten(emit_tree, [
            zeros([batch_size, *[int(x) for x in s.as_list()]], d)  # type: ignore[arg-type]
            for s, d in zip(emit_sizes, emit_dtypes)
        ])

        def condition(unused_time: Any, elements_finished: Any, *_: Any) -> Any:
            return math_ops.logical_not(math_ops.reduce_all(elements_finished))

        def body(time: Any, elements_finished: Any, current_input: Any, emit_ta: Any, state: Any,
                 loop_state: Any) -> Any:
            next_output, cell_state = cell(current_input, state)
            _same_structure("the cell's new state", state, cell_state)
            _same_structure("the cell's output", cell.output_size, next_output)
            next_time = time + 1
            next_finished, next_input, next_state, emit_output, next_loop_state = loop_fn(
                next_time, next_output, cell_state, loop_state)
            _same_structure("loop_fn's next_cell_state", state, next_state)
            _same_structure("loop_fn's next_input", current_input, next_input)
            _same_structure("loop_fn's emit_output", emit_ta, emit_output)
            loop_state = loop_state if next_loop_state is None else next_loop_state

            def copy_some_through(current: Any, candidate: Any) -> Any:
                def copy_fn(cur: Any, cand: Any) -> Any:
                    cand = convert_to_tensor(cand)
                    if _shape(cur).ndims == 0:
                        return cand
                    return _copy_through(elements_finished, cur, cand)

                cur_l, tree = _flatten(current)
                return tree_util.tree_unflatten(tree, [copy_fn(c, d) for c, d in zip(cur_l, _flatten(candidate)[0])])

            emit_output = copy_some_through(zero_emit, emit_output)
            next_state = copy_some_through(state, next_state)
            tas, ta_tree = _flatten(emit_ta)
            emit_ta = tree_util.tree_unflatten(
                ta_tree, [ta.write(time, e) for ta, e in zip(tas, _flatten(emit_output)[0])])
            elements_finished = math_ops.logical_or(elements_finished, next_finished)
            return next_time, elements_finished, next_input, emit_ta, next_state, loop_state

        returned = while_loop(condition, body, [time, finished, next_input, emit_ta, state, loop_state],
                              maximum_iterations=maximum_iterations)
        emit_ta, final_state, final_loop_state = returned[-3:]
        if init_loop_state is None:
            final_loop_state = None
    return emit_ta, final_state, final_loop_state
