"""What every family of TF lowerings shares: the context they see, errors
that name the node, the registration decorator, host-value helpers."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._registry import get_op_def
from jaxsess._core.graph._tf_opset import Dims, SpecFn, register_tf_lowering

# The modules that register the implementations the lowerings call (``impl(op_type)``).
from jaxsess._tf1.ops import (  # noqa: F401
    array_ops,
    conv_ops,
    fill_ops,
    functional_ops,
    gather_ops,
    image_ops,
    image_ops_impl,
    indexing_ops,
    linalg_ops,
    math_ops,
    math_special_ops,
    nn_impl,
    nn_ops,
    normalization,
    random_ops,
    rnn,
    segment_ops,
    shape_ops,
    space_ops,
    spectral_ops,
)

__all__ = ["TFOpContext", "node_error", "lowering", "impl", "np_dtype", "host_ints", "host_int", "axes",
           "Lowered"]

Lowered = Callable[[Any, Sequence[Any], Mapping[str, Any]], Any]


class TFOpContext(Protocol):
    """What a lowering uses of the import engine's per-node context.

    Attributes:
      name: the node's name (``'conv1/Conv2D'``), for errors.
      op_type: the node's TF op type (``'Conv2D'``), for errors.
    """

    name: str
    op_type: str

    def rng_key(self, *seeds: Any) -> Any:
        """A fresh JAX PRNG key for this node in this run."""

    def rng_stream(self, seed: int, seed2: int, n: int) -> Any:
        """How many values this seeded op drew from TF's Philox stream for
        ``(seed, seed2)`` in earlier runs (a ``uint32`` scalar), or ``None``
        when the node draws JAX's values."""

    def read_variable(self, handle: Any) -> Any:
        """The value of the variable behind a ref/resource input."""

    def assign_variable(self, handle: Any, value: Any) -> Any:
        """Writes the variable behind a ref/resource input."""


def node_error(ctx: Any, message: str, cls: type[Exception] = ValueError) -> Exception:
    """``cls`` whose message names the node and its op type first."""
    return cls(f"node '{getattr(ctx, 'name', '?')}' (op '{getattr(ctx, 'op_type', '?')}'): {message}")


def lowering(*op_types: str, static_inputs: tuple[int, ...] = (), stateful: bool = False,
             multi: bool = False, spec: SpecFn | None = None) -> Callable[[Lowered], Lowered]:
    """Registers ``fn(ctx, inputs, attrs)`` for ``op_types`` (see
    ``jaxsess._core.graph._tf_opset.register_tf_lowering``). ``fn`` returns
    the single output, or (``multi``) the sequence of TF's outputs in
    ``OpDef`` order. Negative ``static_inputs`` count from the end
    (``ConcatV2``'s axis after its ``N`` values). ``spec``: the output shapes
    without tracing ``fn`` (``TFLowering.spec``; :func:`same_shape_spec`,
    :func:`broadcast_spec`)."""
    def deco(fn: Lowered) -> Lowered:
        if multi:
            wrapped = fn
        else:
            @functools.wraps(fn)
            def wrapped(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
                return (fn(ctx, inputs, attrs),)
        register_tf_lowering(*op_types, static_inputs=static_inputs, stateful=stateful, spec=spec)(wrapped)
        return fn
    return deco


def same_shape_spec(shapes: Sequence[Dims | None], attrs: Mapping[str, Any], statics: Mapping[int, Any]
                    ) -> list[Dims] | None:
    """``TFLowering.spec`` of an element-wise op of one input: its output has the input's shape."""
    return None if shapes[0] is None else [shapes[0]]


def broadcast_spec(shapes: Sequence[Dims | None], attrs: Mapping[str, Any], statics: Mapping[int, Any]
                   ) -> list[Dims] | None:
    """``TFLowering.spec`` of an element-wise op of two inputs: NumPy's broadcast of their shapes
    (``None`` where a pair of dimensions is not decided by the shapes alone: unknown, or unequal
    and neither 1)."""
    a, b = shapes[0], shapes[1]
    if a is None or b is None:
        return None
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out: list[int | None] = []
    for x, y in zip(a, b):
        if x == y and x is not None:
            out.append(x)
        elif x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        else:
            return None
    return [tuple(out)]


def impl(op_type: str) -> Callable[..., Any]:
    """The JAX implementation jaxsess's own op ``op_type`` runs (the math is written once)."""
    return get_op_def(op_type).impl


def np_dtype(dtype: Any) -> np.dtype[Any]:
    """The NumPy dtype of a TF type attribute (a jaxsess ``DType``)."""
    return _dtypes.as_dtype(dtype).np_dtype


def dtype_of(dtype: Any) -> _dtypes.DType:
    return _dtypes.as_dtype(dtype)


def host_ints(ctx: Any, value: Any, what: str) -> tuple[int, ...]:
    """A static input as a tuple of Python ints (a scalar gives one).

    Raises:
      ValueError: the value is not integral (names the node).
    """
    a = np.asarray(value)
    if a.dtype.kind not in "iub":
        raise node_error(ctx, f"{what} must be integers, got dtype {a.dtype}")
    return tuple(int(v) for v in a.reshape(-1))


def host_int(ctx: Any, value: Any, what: str) -> int:
    a = np.asarray(value)
    if a.size != 1:
        raise node_error(ctx, f"{what} must be a scalar, got shape {list(a.shape)}")
    return host_ints(ctx, a, what)[0]


def axes(ctx: Any, value: Any, rank: int, what: str = "axis") -> tuple[int, ...]:
    """Reduction axes in ``[-rank, rank)`` made non-negative.

    Raises:
      ValueError: an axis out of range (names the node).
    """
    out = []
    for a in host_ints(ctx, value, what):
        if not -rank <= a < max(rank, 1):
            raise node_error(ctx, f"{what} {a} is out of range for a tensor of rank {rank}")
        out.append(a % rank if rank else 0)
    return tuple(out)
