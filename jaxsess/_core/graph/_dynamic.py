"""``Dynamic<Op>`` nodes: ops whose shape-like attributes are computed from
tensor *shapes* when the run is traced.

XLA compiles static shapes, so an op's shape-like arguments (a reshape
``shape``, ``tile`` multiples, ``fill`` dims, ``range`` bounds, a random op's
``shape``) are static attributes. When such an argument is a tensor computed
only from constants and tensor shapes (``[tf.shape(x)[0], -1]`` where ``x``
has an unknown batch dimension), the graph holds ``Dynamic<Op>`` instead: the
argument's tensor is an extra input, and the lowering evaluates it when the
run is traced (every shape is concrete then), converts it to the attribute
value and calls ``<Op>``'s implementation.

A ``Dynamic<Op>`` node's attributes: ``base`` (``<Op>``), ``n_data`` (its
data inputs; the deferred arguments' tensors follow), ``static`` (the other
attributes, as ``(key, value)`` pairs), ``deferred`` (``(key, convert,
partial)`` triples: ``convert`` maps the traced value, a NumPy array, to the
attribute value; ``partial`` is what is known at build time, for shape
inference) and a random op's seeds. The lowering (``graph/_lowering.py``)
also walks the deferred tensors (attributes ``deferred`` and ``n_data``).

Imports: ``errors``, ``dtypes`` and ``graph/`` only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._graph import Operation, Tensor
from jaxsess._core.graph._registry import InputSpec, OutputSpec, get_op_def, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._core.types import Evaluator, HostArray

__all__ = ["Deferred", "trace_computable", "trace_value", "dynamic_inputs", "register_dynamic", "first_dtype"]

# The ops whose value depends only on their input's shape.
_SHAPE_OPS = ("Shape", "Size", "Rank")
# A random op's seeds: copied to its Dynamic node, where the lowering looks for them.
_SEED_ATTRS = ("seed", "seed2", "seeded")


class Deferred(NamedTuple):
    """A shape-like argument known only when the run is traced."""

    tensor: Tensor
    convert: Callable[[np.ndarray], Any]  # trace-time value -> attribute value
    partial: Any  # build-time knowledge for shape inference (ints/None), or None


def trace_computable(t: Tensor, seen: dict[Tensor, bool], depth: int = 0) -> bool:
    """Whether ``t`` depends only on constants and tensor shapes (not values).

    ``seen`` memoises the answer per tensor (pass ``{}``).
    """
    hit = seen.get(t)
    if hit is not None:
        return hit
    op = t.op
    od = op._op_def
    if op.type == "Const" or op.type in _SHAPE_OPS:
        ok = True
    elif (
        depth > 64 or od.stateful or od.graph_only or od.lowering is not None or od.ref_inputs
        or op.type in ("Placeholder", "PlaceholderWithDefault", "VariableV2")
    ):
        ok = False
    else:
        ok = all(trace_computable(i, seen, depth + 1) for i in op.inputs)
    seen[t] = ok
    return ok


def dynamic_inputs(
    op_type: str, n_data: int, attrs: dict[str, Any]
) -> tuple[str, dict[str, Any], list[Tensor]] | None:
    """The ``Dynamic<op_type>`` node for ``op_type`` with ``attrs``, some of them
    :class:`Deferred`: its type, its attributes and the extra inputs (the
    deferred tensors, after the ``n_data`` data inputs); ``None`` when no
    attribute is deferred (the node is ``op_type`` itself)."""
    deferred = {k: v for k, v in attrs.items() if isinstance(v, Deferred)}
    if not deferred:
        return None
    dyn_attrs: dict[str, Any] = {
        "base": op_type,
        "n_data": n_data,
        "static": tuple((k, v) for k, v in attrs.items() if k not in deferred),
        "deferred": tuple((k, d.convert, d.partial) for k, d in deferred.items()),
    }
    for k in _SEED_ATTRS:
        if k in attrs:
            dyn_attrs[k] = attrs[k]
    return "Dynamic" + op_type, dyn_attrs, [d.tensor for d in deferred.values()]


def _trace_value(ev: Evaluator, t: Tensor, memo: dict[Tensor, HostArray]) -> HostArray:
    """The value of a shape-computed tensor while a run is traced (shapes are concrete)."""
    hit = memo.get(t)
    if hit is not None:
        return hit
    op = t.op
    out: HostArray
    if op.type == "Const":
        out = op.attrs["value"]
    elif op.type in _SHAPE_OPS:
        src = op.inputs[0]
        v = ev.env.get(src)
        if v is not None:
            dims = [int(d) for d in v.shape]
        elif src.shape.is_fully_defined():
            dims = [int(d) for d in src.shape.as_list()]  # type: ignore[arg-type]
        else:
            dims = [int(d) for d in ev.read_var(op, src.op).shape]
        if op.type == "Shape":
            out = np.asarray(dims, dtype=t.dtype.np_dtype)
        elif op.type == "Size":
            out = np.asarray(math.prod(dims), dtype=t.dtype.np_dtype)
        else:
            out = np.asarray(len(dims), dtype=np.int32)
    else:
        od = op._op_def
        vals = [_trace_value(ev, i, memo) for i in op.inputs]
        with jax.ensure_compile_time_eval():
            res = od.impl(*[jnp.asarray(v) for v in vals], **op.attrs)
        if od.n_outputs(op.attrs) != 1:
            res = res[t.value_index]
        out = np.asarray(res)
    memo[t] = out
    return out


def trace_value(ev: Evaluator, t: Tensor) -> HostArray:
    """The value of ``t``, a tensor :func:`trace_computable` says depends only
    on constants and shapes, while a run is traced by the evaluator ``ev``."""
    return _trace_value(ev, t, {})


def _lower_dynamic(ev: Evaluator, op: Operation, values: list[Any]) -> Any:
    attrs = dict(op.attrs["static"])
    n = op.attrs["n_data"]
    memo: dict[Tensor, HostArray] = {}
    try:
        for (key, convert, _), t in zip(op.attrs["deferred"], op.inputs[n:], strict=True):
            attrs[key] = convert(_trace_value(ev, t, memo))
        base = get_op_def(op.attrs["base"])
        if base.stateful:  # a random op: draws with this op's key (``ev.current_op``)
            return base.impl(ev.ctx, *values[:n], **attrs)
        return base.impl(*values[:n], **attrs)
    except Exception as e:
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise errors.InvalidArgumentError(
            op.name, op, f"{type(e).__name__} in node '{op.name}' (op: '{op.type}'): {msg}"
        ) from e


def _dynamic_impl(*args: Any, **attrs: Any) -> Any:  # pragma: no cover - graph-only
    raise AssertionError("Dynamic ops are evaluated by their lowering")


def register_dynamic(base: str, out_shape: Callable[..., TensorShape], out_dtype: Callable[..., Any]) -> None:
    """Registers ``Dynamic<base>``: ``base`` with some attributes computed at trace time.

    ``out_shape(data_shapes, attrs)`` and ``out_dtype(data_dtypes, attrs)`` see
    the static attributes and, for the deferred ones, their partial values.
    ``base`` must be registered already.
    """

    def infer(specs: Sequence[InputSpec], attrs: dict[str, Any]) -> list[OutputSpec]:
        view = dict(attrs["static"])
        view.update({k: partial for k, _, partial in attrs["deferred"]})
        data = specs[: attrs["n_data"]]
        shapes = [s for s, _ in data]
        dtypes = [d for _, d in data]
        return [(out_shape(shapes, view), _dtypes.canonical(out_dtype(dtypes, view)))]

    base_def = get_op_def(base)
    register_op(
        "Dynamic" + base,
        infer=infer,
        lowering=_lower_dynamic,
        graph_only=True,
        default_name=base_def.default_name,
        random=base_def.random,
    )(_dynamic_impl)


def first_dtype(dtypes: Sequence[_dtypes.DType], attrs: dict[str, Any]) -> _dtypes.DType:
    """An ``out_dtype`` for :func:`register_dynamic`: the first data input's dtype."""
    return dtypes[0]
