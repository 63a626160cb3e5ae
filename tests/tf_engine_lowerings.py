"""A few TF lowerings the import engine's tests need (test-only).

The TF op-set table proper lives in ``jaxsess._tf1.tf_opset``; this module
holds, for op types that table does not (yet) have, the lowerings
``tests/test_tf_import.py`` exercises the engine with: static inputs
(``Reshape``, ``Transpose``, ``Range``, ``StridedSlice``...), several outputs
(``Split``, ``SplitV``), ref and resource inputs (``ApplyGradientDescent``,
``ResourceApplyGradientDescent``), randomness (``RandomUniform``) and Keras'
initializers. :func:`registered` adds the missing ones to the table for the
duration of a ``with`` block and takes them out after (other test files see
the table as it is).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import jaxsess as tf
from jaxsess._core.graph._tf_opset import TF_LOWERINGS, register_tf_lowering

tf.zeros  # noqa: B018 - load the TF1 surface (and its table) before looking at the table


_PENDING: list[tuple[str, tuple[int, ...], bool, Any]] = []


def _reg(op_type: str, static: tuple[int, ...] = (), stateful: bool = False) -> Any:
    def deco(fn: Any) -> Any:
        _PENDING.append((op_type, static, stateful, fn))
        return fn
    return deco


@contextlib.contextmanager
def registered() -> Iterator[list[str]]:
    """These lowerings, for the op types the table lacks, registered inside the block (yields their names)."""
    added = []
    for op_type, static, stateful, fn in _PENDING:
        if op_type not in TF_LOWERINGS:
            register_tf_lowering(op_type, static_inputs=static, stateful=stateful)(fn)
            added.append(op_type)
    try:
        yield added
    finally:
        for op_type in added:
            TF_LOWERINGS.pop(op_type, None)


@_reg("Reshape", static=(1,))
def _reshape(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return [jnp.reshape(inputs[0], tuple(int(d) for d in inputs[1]))]


@_reg("Transpose", static=(1,))
def _transpose(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return [jnp.transpose(inputs[0], tuple(int(d) for d in inputs[1]))]


@_reg("Shape")
def _shape(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return [jnp.asarray(inputs[0].shape, attrs["out_type"].np_dtype)]


@_reg("Pack")
def _pack(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return [jnp.stack(list(inputs), axis=attrs["axis"])]


@_reg("Range", static=(0, 1, 2))
def _range(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    start, limit, delta = (np.asarray(v).item() for v in inputs)
    return [jnp.arange(start, limit, delta, dtype=attrs["Tidx"].np_dtype)]


@_reg("GatherV2", static=(2,))
def _gather(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return [jnp.take(inputs[0], inputs[1], axis=int(inputs[2]))]


@_reg("Prod", static=(1,))
def _prod(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    axes = tuple(int(a) for a in np.reshape(inputs[1], -1))
    return [jnp.prod(inputs[0], axis=axes, keepdims=attrs["keep_dims"])]


@_reg("ConcatV2", static=(-1,))
def _concat(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return [jnp.concatenate(list(inputs[:-1]), axis=int(inputs[-1]))]


@_reg("Split", static=(0,))
def _split(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return jnp.split(inputs[1], attrs["num_split"], axis=int(inputs[0]))


@_reg("SplitV", static=(1, 2))
def _splitv(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x, sizes, axis = inputs[0], [int(s) for s in inputs[1]], int(inputs[2])
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[axis] - (sum(sizes) + 1)
    return jnp.split(x, np.cumsum(sizes)[:-1].tolist(), axis=axis)


@_reg("StridedSlice", static=(1, 2, 3))
def _strided_slice(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x, begin, end, strides = inputs
    idx: list[Any] = []
    shrink = []
    for k in range(len(begin)):
        bit = 1 << k
        if attrs["ellipsis_mask"] & bit:
            idx.append(Ellipsis)
        elif attrs["new_axis_mask"] & bit:
            idx.append(None)
        elif attrs["shrink_axis_mask"] & bit:
            idx.append(int(begin[k]))
            shrink.append(k)
        else:
            b = None if attrs["begin_mask"] & bit else int(begin[k])
            e = None if attrs["end_mask"] & bit else int(end[k])
            idx.append(slice(b, e, int(strides[k])))
    return [x[tuple(idx)]]


@_reg("ApplyGradientDescent", stateful=True)
@_reg("ResourceApplyGradientDescent", stateful=True)
def _apply_sgd(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    var, alpha, delta = inputs
    new = ctx.assign_variable(var, ctx.read_variable(var) - alpha * delta)
    return [new] if ctx.op_type == "ApplyGradientDescent" else []


@_reg("RandomUniform", static=(0,), stateful=True)
def _random_uniform(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    shape = tuple(int(d) for d in np.reshape(inputs[0], -1))
    return [jax.random.uniform(ctx.rng_key(), shape, attrs["dtype"].np_dtype)]


@_reg("Tile", static=(1,))
def _tile(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return [jnp.tile(inputs[0], tuple(int(m) for m in inputs[1]))]


@_reg("Fill", static=(0,))
def _fill(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return [jnp.full(tuple(int(d) for d in inputs[0]), inputs[1])]


# Keras' initializers in a graph that is not frozen (their values are overwritten by the tests).


@_reg("StatelessRandomGetKeyCounter")
def _key_counter(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return [jnp.zeros((1,), jnp.uint64), jnp.zeros((2,), jnp.uint64)]


@_reg("StatelessRandomNormalV2", static=(0,))
@_reg("StatelessRandomUniformV2", static=(0,))
def _stateless_random(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    shape = tuple(int(d) for d in np.reshape(inputs[0], -1))
    return [jax.random.uniform(jax.random.key(0), shape, attrs["dtype"].np_dtype)]


@_reg("Qr")
def _qr(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return list(jnp.linalg.qr(inputs[0], mode="complete" if attrs["full_matrices"] else "reduced"))


@_reg("DiagPart")
def _diag_part(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return [jnp.diagonal(inputs[0])]
