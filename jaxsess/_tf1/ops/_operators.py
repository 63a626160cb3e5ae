"""Python operators on ``Tensor`` and ``Tensor.__getitem__``, as TF1 graph mode.

``Tensor`` defines the operator methods (:mod:`jaxsess._core.graph._graph`);
this module registers the ops behind them with
:func:`~jaxsess._core.graph._graph.register_tensor_operators` when it is
imported, which importing any module of ``jaxsess._tf1.ops`` does (the
package imports it).

``==`` and ``!=`` stay identity comparisons (TF1 graph mode); use
``jaxsess.equal``. ``__getitem__`` accepts ints, slices with steps, negative
indices, ``...`` and ``None`` (new axis); int tensors are allowed as indices.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, as_graph_tensor, convert_to_tensor, executing_eagerly
from jaxsess._core.graph._dynamic import Deferred, first_dtype, register_dynamic, trace_computable
from jaxsess._core.graph._graph import Tensor, register_tensor_operators
from jaxsess._core.graph._registry import OutputSpec, TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import math_ops as m
from jaxsess._tf1.ops._args import apply, as_scalar, partial_scalar
from jaxsess._tf1.ops.shape_ops import reshape

__all__ = ["getitem"]


def _item_spec(item: Any, tensors: list[Any]) -> Any:
    item = as_graph_tensor(item)
    if item is None:
        return ("newaxis",)
    if item is Ellipsis:
        return ("ellipsis",)
    if isinstance(item, slice):
        parts: list[Any] = []
        for p in (item.start, item.stop, item.step):
            p = as_graph_tensor(p)
            if isinstance(p, Tensor):
                tensors.append(p)
                parts.append(("t", len(tensors) - 1))
            else:
                parts.append(None if p is None else int(p))
        return ("slice", tuple(parts))
    if isinstance(item, Tensor):
        tensors.append(item)
        return ("index_t", len(tensors) - 1)
    if isinstance(item, bool):
        raise TypeError("Boolean indices are not supported; use jaxsess.boolean_mask semantics via where.")
    try:
        return ("index", int(item))
    except TypeError:
        raise TypeError(
            f"Only integers, slices (`:`), ellipsis (`...`), newaxis (`None`) and scalar int tensors "
            f"are valid indices, got {item!r:.60}"
        ) from None


def _rebuild(spec: tuple[Any, ...], vals: tuple[Any, ...]) -> tuple[Any, ...]:
    def part(p: Any) -> Any:
        if isinstance(p, tuple):
            return vals[p[1]]
        return p

    out: list[Any] = []
    for s in spec:
        kind = s[0]
        if kind == "newaxis":
            out.append(None)
        elif kind == "ellipsis":
            out.append(Ellipsis)
        elif kind == "slice":
            out.append(slice(*(part(p) for p in s[1])))
        elif kind == "index_t":
            out.append(vals[s[1]])
        else:
            out.append(s[1])
    return tuple(out)


def _slice_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    begin, end, strides = [], [], []
    masks = {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0}
    for i, s in enumerate(a["spec"]):
        kind = s[0]
        b, e, st = 0, 0, 1
        if kind in ("ellipsis", "newaxis"):
            masks["ellipsis_mask" if kind == "ellipsis" else "new_axis_mask"] |= 1 << i
        elif kind == "index":
            b, e = s[1], s[1] + 1
            masks["shrink_axis_mask"] |= 1 << i
        elif kind == "slice" and not any(isinstance(p, tuple) for p in s[1]):
            start, stop, step = s[1]
            st = 1 if step is None else step
            if start is None:
                masks["begin_mask"] |= 1 << i
            if stop is None:
                masks["end_mask"] |= 1 << i
            b, e = start or 0, stop or 0
        else:
            raise ValueError("an index that is a tensor")
        begin.append(b)
        end.append(e)
        strides.append(st)
    return masks, [np.asarray(v, np.int32) for v in (begin, end, strides)]


def _slice_from_tf(a: dict[str, Any], consts: list[np.ndarray]) -> dict[str, Any]:
    begin, end, strides = (np.ravel(c).astype(int).tolist() for c in consts)
    spec: list[Any] = []
    for i, (b, e, st) in enumerate(zip(begin, end, strides, strict=True)):
        if a.get("ellipsis_mask", 0) >> i & 1:
            spec.append(("ellipsis",))
        elif a.get("new_axis_mask", 0) >> i & 1:
            spec.append(("newaxis",))
        elif a.get("shrink_axis_mask", 0) >> i & 1:
            spec.append(("index", b))
        else:
            spec.append(("slice", (None if a.get("begin_mask", 0) >> i & 1 else b,
                                   None if a.get("end_mask", 0) >> i & 1 else e, None if st == 1 else st)))
    return {"spec": tuple(spec)}


def _slice_infer(specs: Any, attrs: dict[str, Any]) -> list[OutputSpec]:
    """The static shape of a strided slice, as TF's ``StridedSlice`` shape
    function: a sliced dimension of unknown size, or with a bound that is a
    tensor, is unknown (even ``x[0:1]``); a tensor step, or an input of
    unknown rank, gives an unknown shape.

    Raises:
      ValueError: two ellipses, more indices than dimensions, an index out of
        range of a known dimension, or an index tensor that is not a scalar.
    """
    spec = attrs["spec"]
    (shape, dtype), index_specs = specs[0], specs[1:]
    for s, d in index_specs:
        if not (d.is_integer and (s is None or len(s) == 0)):
            raise TypeError(f"Only scalar int32/int64 tensors are valid slice indices, got one of dtype {d.name} "
                            f"and shape {TensorShape(s)}.")
    if sum(s[0] == "ellipsis" for s in spec) > 1:
        raise ValueError("Multiple ellipses in slice spec not allowed")
    if shape is None or any(s[0] == "slice" and isinstance(s[1][2], tuple) for s in spec):
        return [(TensorShape(None), dtype)]
    consumed = sum(s[0] in ("slice", "index", "index_t") for s in spec)
    if consumed > len(shape):
        raise ValueError(f"Index out of range using input dim {len(shape)}; input has only {len(shape)} dims")
    out: list[int | None] = []
    dim = 0
    for s in (*spec, ("ellipsis",)) if all(s[0] != "ellipsis" for s in spec) else spec:
        kind = s[0]
        if kind == "newaxis":
            out.append(1)
        elif kind == "ellipsis":
            n = len(shape) - consumed
            out.extend(shape[dim:dim + n])
            dim += n
        elif kind == "index_t":
            dim += 1
        elif kind == "index":
            size = shape[dim]
            if size is not None and not -size <= s[1] < size:
                raise ValueError(f"slice index {s[1]} of dimension {dim} out of bounds.")
            dim += 1
        else:
            size = shape[dim]
            bounds = s[1]
            out.append(None if size is None or any(isinstance(p, tuple) for p in bounds)
                       else len(range(size)[slice(*bounds)]))
            dim += 1
    return [(TensorShape(out), dtype)]


# TF: StridedSlice(input, begin, end, strides) with bit masks
@register_op("StridedSlice", default_name="strided_slice", infer=_slice_infer, tf=TFOp(
    types={"T": 0, "Index": 1}, to_tf=_slice_to_tf, from_tf=_slice_from_tf, n_const=3))
def _strided_slice(x: Any, *index_vals: Any, spec: tuple[Any, ...], **bounds: Any) -> Any:
    if bounds:  # ``DynamicStridedSlice``: slice bounds computed from shapes, as ``b<k>`` (index tensor k)
        rest = iter(index_vals)
        vals = tuple(bounds[f"b{k}"] if f"b{k}" in bounds else next(rest)
                     for k in range(len(index_vals) + len(bounds)))
        return x[_rebuild(spec, vals)]
    return x[_rebuild(spec, index_vals)]


def _substitute_bounds(spec: tuple[Any, ...], idx: list[Any], known: dict[int, int]) -> tuple[tuple[Any, ...], list[Any]]:
    """``spec`` with the index tensors ``known`` (position -> int) written in as ints, and the
    remaining index tensors, renumbered."""
    new_pos: dict[int, int] = {}
    rest: list[Any] = []
    for k, t in enumerate(idx):
        if k not in known:
            new_pos[k] = len(rest)
            rest.append(t)

    def part(p: Any) -> Any:
        if isinstance(p, tuple):
            return known[p[1]] if p[1] in known else ("t", new_pos[p[1]])
        return p

    out: list[tuple[Any, ...]] = []
    for s in spec:
        if s[0] == "slice":
            out.append(("slice", tuple(part(p) for p in s[1])))
        elif s[0] == "index_t":
            out.append(("index_t", new_pos[s[1]]))
        else:
            out.append(s)
    return tuple(out), rest


def _dynamic_slice_shape(shapes: Any, attrs: dict[str, Any]) -> TensorShape:
    ins = [(shapes[0], _dtypes.float32)] + [(s, _dtypes.int32) for s in shapes[1:]]
    return _slice_infer(ins, {"spec": attrs["spec"]})[0][0]  # type: ignore[no-any-return]


register_dynamic("StridedSlice", _dynamic_slice_shape, first_dtype)


def getitem(tensor: Any, key: Any) -> Any:
    """``tensor[key]``, as ``tf.Tensor.__getitem__``.

    Raises:
      TypeError: an unsupported index type.
      ValueError: an index out of range of a known dimension (names the node).
    """
    if not isinstance(key, tuple):
        key = (key,)
    tensors: list[Any] = []
    spec = tuple(_item_spec(k, tensors) for k in key)
    x = convert_to_tensor(tensor)
    shape = x.shape.as_tuple() if isinstance(x, Tensor) else tuple(x.shape)
    if shape is not None:
        dim = 0
        for s in spec:
            if s[0] == "index":
                size = shape[dim] if dim < len(shape) else None
                if size is not None and not -size <= s[1] < size:
                    raise ValueError(
                        f"slice index {s[1]} of dimension {dim} out of bounds for tensor "
                        f"{getattr(x, 'name', '')} with shape {list(shape)}."
                    )
                dim += 1
            elif s[0] in ("slice", "index_t"):
                dim += 1
            elif s[0] == "ellipsis":
                break
    idx = [convert_to_tensor(t, dtype=None) for t in tensors]
    # TF packs each tensor index into the begin/end vectors: it is a scalar
    # (a placeholder of unknown shape included), so the slice's shape is known.
    idx = [reshape(t, []) if t.shape.ndims is None else t for t in idx]
    # A slice bound sets the result's shape, which XLA needs when it compiles: a bound computed
    # from shapes (``x[:tf.shape(y)[0] - 1]``) is evaluated when the run is traced
    # (``DynamicStridedSlice``); one that depends on fed or variable values cannot be (the run
    # then fails, naming the node).
    bounds = sorted({p[1] for s in spec if s[0] == "slice" for p in s[1] if isinstance(p, tuple)})
    if not bounds or executing_eagerly():
        return apply_op("StridedSlice", [x, *idx], {"spec": spec})
    known = {k: v for k in bounds if (v := partial_scalar(idx[k])) is not None}
    if known:  # bounds the build time knows (tf.shape(x)[1] - 1, x's dimension 1 known) are static
        spec, idx = _substitute_bounds(spec, idx, known)
        bounds = sorted({p[1] for s in spec if s[0] == "slice" for p in s[1] if isinstance(p, tuple)})
        if not bounds:
            return apply_op("StridedSlice", [x, *idx], {"spec": spec})
    if not all(trace_computable(idx[k], {}) for k in bounds):  # TF builds it; a run cannot compile it
        return apply_op("StridedSlice", [x, *idx], {"spec": spec})
    attrs: dict[str, Any] = {"spec": spec}
    for k in bounds:
        attrs[f"b{k}"] = Deferred(idx[k], as_scalar, None)
    data = [t for k, t in enumerate(idx) if k not in set(bounds)]
    return apply("StridedSlice", [x, *data], attrs, None)


def _r(fn: Any, name: str | None) -> Callable[[Tensor, Any], Any]:
    def op(self: Tensor, other: Any) -> Any:
        return fn(other, self, name=name)

    return op


def _l(fn: Any, name: str | None) -> Callable[[Tensor, Any], Any]:
    def op(self: Tensor, other: Any) -> Any:
        return fn(self, other, name=name)

    return op


def _u(fn: Any) -> Callable[[Tensor], Any]:
    def op(self: Tensor) -> Any:
        return fn(self)

    return op


def _operators() -> dict[str, Callable[..., Any]]:
    """Tensor's operator methods -> the op functions behind them, as TF1's ``math_ops``
    overloads (binary operator ops are named 'add', 'matmul', 'and', ...)."""
    binary = {
        "add": m.add, "sub": m.subtract, "mul": m.multiply, "truediv": m.truediv,
        "floordiv": m.floordiv, "mod": m.mod, "pow": m.pow, "matmul": m.matmul,
        "and": m.logical_and, "or": m.logical_or, "xor": m.logical_xor,
    }
    table: dict[str, Callable[..., Any]] = {}
    for name, fn in binary.items():
        table[f"__{name}__"] = _l(fn, name)
        table[f"__r{name}__"] = _r(fn, name)
    for name, fn in {"lt": m.less, "le": m.less_equal, "gt": m.greater, "ge": m.greater_equal}.items():
        table[f"__{name}__"] = _l(fn, None)
    for name, fn in {"neg": m.negative, "abs": m.abs, "invert": m.logical_not}.items():
        table[f"__{name}__"] = _u(fn)
    table["__getitem__"] = getitem
    return table


# The op library fills the core's operator table when it is imported (jaxsess._tf1.ops imports
# this module): Tensor's methods (jaxsess._core.graph._graph) dispatch through it.
register_tensor_operators(_operators())
