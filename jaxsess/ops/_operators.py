"""Python operators on ``Tensor`` and ``Tensor.__getitem__``, as TF1 graph mode.

``==`` and ``!=`` stay identity comparisons (TF1 graph mode); use
``jaxsess.equal``. ``__getitem__`` accepts ints, slices with steps, negative
indices, ``...`` and ``None`` (new axis); int tensors are allowed as indices.
"""

from __future__ import annotations

from typing import Any

from jaxsess.graph._graph import Tensor
from jaxsess.graph._registry import register_op
from jaxsess.ops import math_ops as m
from jaxsess.ops._core import _as_graph_tensor, apply_op, convert_to_tensor

__all__ = ["install"]


def _item_spec(item: Any, tensors: list[Any]) -> Any:
    item = _as_graph_tensor(item)
    if item is None:
        return ("newaxis",)
    if item is Ellipsis:
        return ("ellipsis",)
    if isinstance(item, slice):
        parts = []
        for p in (item.start, item.stop, item.step):
            p = _as_graph_tensor(p)
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


@register_op("StridedSlice", default_name="strided_slice")
def _strided_slice(x: Any, *index_vals: Any, spec: tuple[Any, ...]) -> Any:
    return x[_rebuild(spec, index_vals)]


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
                if dim < len(shape) and shape[dim] is not None and not -shape[dim] <= s[1] < shape[dim]:
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
    return apply_op("StridedSlice", [x, *idx], {"spec": spec})


def _r(fn: Any) -> Any:
    def op(self: Any, other: Any) -> Any:
        return fn(other, self)

    return op


def install() -> None:
    """Installs the operators on :class:`Tensor`."""
    T = Tensor
    T.__add__ = lambda s, o: m.add(s, o)  # type: ignore[method-assign]
    T.__radd__ = _r(m.add)  # type: ignore[method-assign]
    T.__sub__ = lambda s, o: m.subtract(s, o)  # type: ignore[method-assign]
    T.__rsub__ = _r(m.subtract)  # type: ignore[method-assign]
    T.__mul__ = lambda s, o: m.multiply(s, o)  # type: ignore[method-assign]
    T.__rmul__ = _r(m.multiply)  # type: ignore[method-assign]
    T.__truediv__ = lambda s, o: m.truediv(s, o)  # type: ignore[method-assign]
    T.__rtruediv__ = _r(m.truediv)  # type: ignore[method-assign]
    T.__floordiv__ = lambda s, o: m.floordiv(s, o)  # type: ignore[method-assign]
    T.__rfloordiv__ = _r(m.floordiv)  # type: ignore[method-assign]
    T.__mod__ = lambda s, o: m.mod(s, o)  # type: ignore[method-assign]
    T.__rmod__ = _r(m.mod)  # type: ignore[method-assign]
    T.__pow__ = lambda s, o: m.pow(s, o)  # type: ignore[method-assign]
    T.__rpow__ = _r(m.pow)  # type: ignore[method-assign]
    T.__matmul__ = lambda s, o: m.matmul(s, o)  # type: ignore[method-assign]
    T.__rmatmul__ = _r(m.matmul)  # type: ignore[method-assign]
    T.__neg__ = lambda s: m.negative(s)  # type: ignore[method-assign]
    T.__abs__ = lambda s: m.abs(s)  # type: ignore[method-assign]
    T.__lt__ = lambda s, o: m.less(s, o)  # type: ignore[method-assign]
    T.__le__ = lambda s, o: m.less_equal(s, o)  # type: ignore[method-assign]
    T.__gt__ = lambda s, o: m.greater(s, o)  # type: ignore[method-assign]
    T.__ge__ = lambda s, o: m.greater_equal(s, o)  # type: ignore[method-assign]
    T.__and__ = lambda s, o: m.logical_and(s, o)  # type: ignore[method-assign]
    T.__rand__ = _r(m.logical_and)  # type: ignore[method-assign]
    T.__or__ = lambda s, o: m.logical_or(s, o)  # type: ignore[method-assign]
    T.__ror__ = _r(m.logical_or)  # type: ignore[method-assign]
    T.__xor__ = lambda s, o: m.logical_xor(s, o)  # type: ignore[method-assign]
    T.__invert__ = lambda s: m.logical_not(s)  # type: ignore[method-assign]
    T.__getitem__ = getitem  # type: ignore[method-assign]
