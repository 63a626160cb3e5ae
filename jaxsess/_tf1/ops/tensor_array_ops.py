"""``tf.TensorArray``, as ``tf.compat.v1.TensorArray`` in graph mode.

TF 2.x's ``tf.compat.v1`` graph mode builds the list-based TensorArray
(``_GraphTensorArrayV2``, TensorList ops); its observable behaviour is the
reference: elements never written read as zeros, writing an index twice
overwrites it, ``clear_after_read`` is ignored, and the element shape is
inferred from the first write and shared by every TensorArray derived from
the same one (``infer_shape=True``).

XLA needs static buffers, so a TensorArray here is one dense tensor, its
*flow*: ``[capacity, *element_shape]``, updated with
``lax.dynamic_update_slice`` by ``write``. The rule for its capacity:

* ``size`` must be known when the run is traced: a Python int, a constant,
  or a value computed from tensor shapes (``tf.shape(x)[0]`` of a fed
  placeholder); a value that depends on fed or variable data raises
  ``ValueError`` naming the TensorArray at construction.
* ``dynamic_size=True`` grows the buffer for writes at constant indices
  outside loops; as a ``while_loop`` loop variable it grows by the loop's
  ``maximum_iterations``, or else by the trip count of a counting loop
  (condition ``i < n``, body ``i + step``, ``n`` known when the run is
  traced); otherwise ``ValueError`` naming the TensorArray. ``size()`` and
  ``stack()`` give the whole capacity (rows never written are zeros), not
  TF's highest written index + 1: the same when each iteration writes one
  row (a counting loop, or one that runs ``maximum_iterations`` times).
* The element shape may stay unknown until the first write, also when the
  first write happens in a ``while_loop`` body: the loop's lowering takes
  the buffer's shape from an abstract evaluation of the body.

Differences from TF: ``flow`` is the dense buffer (TF: a ``variant``
scalar); reads and writes at out-of-range indices computed at run time are
clamped to the buffer (TF: ``InvalidArgumentError``; constant indices raise
it, as TF); ``split`` needs equal lengths;
TensorArrays do not run eagerly.
Gradients flow through the buffer's ops (``tf.gradients`` of a loss on
``stack()`` w.r.t. variables a loop body reads).

Imports: ``graph/`` and ``ops/_core``, ``ops/_args``.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import tree_util

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import (
    apply_op,
    constant,
    constant_value,
    convert_to_tensor,
    executing_eagerly,
    identity,
    no_op,
)
from jaxsess._core.graph._dynamic import register_dynamic
from jaxsess._core.graph._graph import Tensor, get_default_graph
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops._args import apply, shape_arg

__all__ = ["TensorArray", "build_ta_with_new_flow", "Unallocated", "is_unallocated", "carry_value"]


# -- the buffer's lowering value before its element shape is known -------------------------------


@tree_util.register_pytree_node_class
class Unallocated:
    """The lowered value of a TensorArray buffer whose element shape is not
    known yet: its capacity and dtype; the first write allocates it."""

    def __init__(self, size: int, dtype: Any) -> None:
        self.size = int(size)
        self.dtype = np.dtype(dtype)

    def tree_flatten(self) -> tuple[tuple[()], tuple[int, np.dtype]]:
        return (), (self.size, self.dtype)

    @classmethod
    def tree_unflatten(cls, aux: tuple[int, np.dtype], children: Any) -> Unallocated:
        return cls(*aux)

    def __repr__(self) -> str:
        return (f"<unallocated TensorArray buffer: {self.size} elements of {self.dtype.name}, element shape "
                "unknown until the first write>")


def is_unallocated(v: Any) -> bool:
    """Whether a lowered value is an :class:`Unallocated` TensorArray buffer."""
    return isinstance(v, Unallocated)


def carry_value(v: Any, dtype: Any) -> Any:
    """``v`` as a loop-carry value of ``dtype`` (an unallocated buffer stays as it is)."""
    return v if isinstance(v, Unallocated) else jnp.asarray(v, dtype=dtype)


def _allocate(buf: Any, element_shape: tuple[int, ...]) -> Any:
    """``buf``; unallocated: zeros ``[size, *element_shape]``."""
    if isinstance(buf, Unallocated):
        return jnp.zeros((buf.size, *element_shape), dtype=buf.dtype)
    return buf


def _known(buf: Any, element_shape: tuple[int, ...] | None, what: str) -> Any:
    """``buf``; unallocated: zeros if ``element_shape`` (known at build time) is, else the error."""
    if isinstance(buf, Unallocated) and element_shape is None:
        raise ValueError(
            f"{what} a TensorArray whose element shape is unknown and which has no element written: "
            "pass element_shape= to the TensorArray or write an element first."
        )
    return _allocate(buf, element_shape or ())


def _check_index(buf: Any, index: int | None, verb: str) -> None:
    """TF's error for an index known when the graph is built that is outside the buffer."""
    n = buf.size if isinstance(buf, Unallocated) else buf.shape[0]
    if index is not None and not 0 <= index < n:
        raise IndexError(f"Trying to {verb} element {index} in a list with {n} elements.")


# -- ops --------------------------------------------------------------------------------------


def _shaped_specs(infer: Any) -> Any:
    """An ``infer`` that sees input shapes as ``TensorShape``s (the registry passes tuples or None)."""

    def wrapped(specs: Any, attrs: dict[str, Any]) -> list[Any]:
        return infer([(TensorShape(s), d) for s, d in specs], attrs)  # type: ignore[no-any-return]

    return wrapped


def _reserve_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    size = attrs["size"]
    elem = attrs["element_shape"]
    first = TensorShape([size if isinstance(size, int) else None])
    return [(first.concatenate(TensorShape(elem)), attrs["dtype"])]


@register_op("TensorArrayReserve", infer=_reserve_infer, graph_only=True, default_name="TensorArrayV2")
def _reserve(*, size: int, element_shape: tuple[int, ...] | None, dtype: Any) -> Any:
    """A TensorArray buffer: zeros ``[size, *element_shape]``, or unallocated."""
    if element_shape is None or any(d is None for d in element_shape):
        return Unallocated(size, dtype.np_dtype)
    return jnp.zeros((size, *element_shape), dtype=dtype.np_dtype)


register_dynamic(
    "TensorArrayReserve",
    lambda shapes, a: TensorShape([None]).concatenate(TensorShape(a["element_shape"])),
    lambda dtypes, a: a["dtype"],
)


def _grow_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    shape, dtype = specs[0]
    return [(TensorShape(None) if shape.ndims is None else TensorShape([None, *shape.as_list()[1:]]), dtype)]


@register_op("TensorArrayGrow", infer=_shaped_specs(_grow_infer), graph_only=True)
def _grow(buf: Any, *, extra: int, at_least: int) -> Any:
    """``buf`` with ``extra`` zero rows appended and at least ``at_least`` rows."""
    n = buf.size if isinstance(buf, Unallocated) else buf.shape[0]
    new = max(n + extra, at_least)
    if isinstance(buf, Unallocated):
        return Unallocated(new, buf.dtype)
    if new == n:
        return buf
    return jnp.concatenate([buf, jnp.zeros((new - n, *buf.shape[1:]), buf.dtype)])


register_dynamic(
    "TensorArrayGrow", lambda shapes, a: _grow_infer([(TensorShape(shapes[0]), None)], a)[0][0], lambda dtypes, a: dtypes[0]
)


def _with_rows(buf_shape: TensorShape, row: TensorShape) -> TensorShape:
    first = buf_shape.as_list()[:1] if buf_shape.ndims is not None else [None]
    if buf_shape.ndims is not None:
        row = row.merge_with(TensorShape(buf_shape.as_list()[1:]))
    return TensorShape(first).concatenate(row)


def _write_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (buf, dtype), _, (value, _) = specs
    return [(_with_rows(buf, value), dtype)]


@register_op("TensorArrayWrite", infer=_shaped_specs(_write_infer), graph_only=True, default_name="TensorListSetItem")
def _write(buf: Any, index: Any, value: Any, *, static_index: int | None = None) -> Any:
    """``buf`` with row ``index`` set to ``value`` (``static_index``: its value if known when built)."""
    _check_index(buf, static_index, "modify")
    buf = _allocate(buf, value.shape)
    if tuple(buf.shape[1:]) != tuple(value.shape):
        raise ValueError(
            f"Inconsistent shapes: saw {list(value.shape)} but expected {list(buf.shape[1:])} (TensorArray element)."
        )
    return jax.lax.dynamic_update_index_in_dim(buf, value.astype(buf.dtype), index, 0)


def _row_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    buf, dtype = specs[0]
    return [(TensorShape(None) if buf.ndims is None else TensorShape(buf.as_list()[1:]), dtype)]


@register_op("TensorArrayRead", infer=_shaped_specs(_row_infer), graph_only=True, default_name="TensorListGetItem")
def _read(buf: Any, index: Any, *, element_shape: tuple[int, ...] | None, static_index: int | None = None) -> Any:
    """Row ``index`` of ``buf`` (``static_index``: its value if known when built)."""
    _check_index(buf, static_index, "access")
    buf = _known(buf, element_shape, "Reading from")
    return jax.lax.dynamic_index_in_dim(buf, index, 0, keepdims=False)


def _same_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [specs[0]]


@register_op("TensorArrayStack", infer=_shaped_specs(_same_infer), graph_only=True, default_name="TensorListStack")
def _stack(buf: Any, *, element_shape: tuple[int, ...] | None) -> Any:
    """The buffer as one tensor ``[capacity, *element_shape]``."""
    buf = _known(buf, element_shape, "Stacking")
    return buf


def _gather_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (buf, dtype), (idx, _) = specs
    rows = TensorShape(None) if buf.ndims is None else TensorShape(buf.as_list()[1:])
    return [(idx.concatenate(rows), dtype)]


@register_op("TensorArrayGather", infer=_shaped_specs(_gather_infer), graph_only=True, default_name="TensorListGather")
def _gather(buf: Any, indices: Any, *, element_shape: tuple[int, ...] | None) -> Any:
    """Rows ``indices`` of ``buf``, stacked."""
    buf = _known(buf, element_shape, "Gathering from")
    return jnp.take(buf, indices, axis=0, mode="clip")


def _scatter_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (buf, dtype), _, (value, _) = specs
    rows = TensorShape(None) if value.ndims is None else TensorShape(value.as_list()[1:])
    return [(_with_rows(buf, rows), dtype)]


@register_op("TensorArrayScatter", infer=_shaped_specs(_scatter_infer), graph_only=True,
             default_name="TensorListScatterIntoExistingList")
def _scatter(buf: Any, indices: Any, value: Any) -> Any:
    """``buf`` with rows ``indices`` set to the rows of ``value``."""
    buf = _allocate(buf, value.shape[1:])
    return buf.at[indices].set(value.astype(buf.dtype), mode="drop")


def _unstack_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (buf, dtype), (value, _) = specs
    rows = TensorShape(None) if value.ndims is None else TensorShape(value.as_list()[1:])
    out = _with_rows(buf, rows)
    if attrs["dynamic_size"] and value.ndims is not None and out.ndims is not None:
        out = TensorShape(value.as_list()[:1] + out.as_list()[1:])
    return [(out, dtype)]


@register_op("TensorArrayUnstack", infer=_shaped_specs(_unstack_infer), graph_only=True, default_name="TensorListFromTensor")
def _unstack(buf: Any, value: Any, *, dynamic_size: bool) -> Any:
    """``value``'s rows as the elements (``[capacity, ...]`` must match unless ``dynamic_size``)."""
    n = buf.size if isinstance(buf, Unallocated) else buf.shape[0]
    if value.shape[0] != n and not dynamic_size:
        raise ValueError(
            f"Tried to unstack a tensor of {value.shape[0]} rows into a TensorArray of size {n}."
        )
    if not isinstance(buf, Unallocated) and tuple(buf.shape[1:]) != tuple(value.shape[1:]):
        raise ValueError(
            f"Inconsistent shapes: saw {list(value.shape[1:])} but expected {list(buf.shape[1:])} "
            "(TensorArray element)."
        )
    return value.astype(buf.dtype)


def _concat_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    buf, dtype = specs[0]
    if buf.ndims is None:
        return [(TensorShape(None), dtype)]
    dims = buf.as_list()
    lead = None if dims[0] is None or dims[1] is None else dims[0] * dims[1]
    return [(TensorShape([lead, *dims[2:]]), dtype)]


@register_op("TensorArrayConcat", infer=_shaped_specs(_concat_infer), graph_only=True, default_name="TensorListConcatV2")
def _concat(buf: Any, *, element_shape: tuple[int, ...] | None) -> Any:
    """The elements concatenated along their first axis."""
    buf = _known(buf, element_shape, "Concatenating")
    if buf.ndim < 2:
        raise ValueError("Concat saw a scalar shape; TensorArray elements must be at least vectors to concat.")
    return buf.reshape((-1, *buf.shape[2:]))


def _size_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(TensorShape([]), _dtypes.int32)]


@register_op("TensorArraySize", infer=_size_infer, graph_only=True, default_name="TensorListLength")
def _size(buf: Any) -> Any:
    """The buffer's capacity, int32."""
    n = buf.size if isinstance(buf, Unallocated) else buf.shape[0]
    return jnp.asarray(n, dtype=jnp.int32)


# -- the TensorArray object -------------------------------------------------------------------


def _index(index: Any, what: str) -> Tensor:
    t = convert_to_tensor(index)
    if not t.dtype.is_integer:
        raise TypeError(f"TensorArray.{what}: index must be an integer tensor, got {t.dtype.name}.")
    return t


class TensorArray:
    """A list of tensors of one dtype and element shape, as
    ``tf.compat.v1.TensorArray`` (TF 2.x's list-based TensorArray in graph mode).

    Each method that changes it (``write``, ``scatter``, ``unstack``,
    ``split``) returns a new TensorArray; use the returned one (as TF1).

    Args:
      dtype: the elements' dtype.
      size: the number of elements (int32 scalar): a Python int, a
        constant, or a tensor computed from shapes (``tf.shape(x)[0]``).
        ``None`` only with ``flow``.
      dynamic_size: writes may grow it (see the module docstring's rule).
      clear_after_read: accepted and ignored (as TF 2.x's TensorArray).
      tensor_array_name: accepted (TF's name of the resource).
      handle: must be ``None`` (TF1's resource handle).
      flow: an existing buffer ``[capacity, *element_shape]`` to wrap.
      infer_shape: infer the element shape from writes and share it with
        the TensorArrays derived from this one.
      element_shape: the elements' shape (``TensorShape``, list, or None).
      colocate_with_first_write_call: accepted and ignored.
      name: the name scope of the ops built (default ``TensorArrayV2``).

    Raises:
      ValueError: ``size`` depends on fed or variable data, or is negative.
      NotImplementedError: executing eagerly.
    """

    def __init__(self, dtype: Any, size: Any = None, dynamic_size: bool | None = None,
                 clear_after_read: bool | None = None, tensor_array_name: str | None = None,
                 handle: Any = None, flow: Any = None, infer_shape: bool = True,
                 element_shape: Any = None, colocate_with_first_write_call: bool = True,
                 name: str | None = None) -> None:
        if executing_eagerly():
            raise NotImplementedError("TensorArray runs in graph mode only in jaxsess (not in an EagerSession).")
        if handle is not None:
            raise ValueError("TensorArray: handle is not supported (jaxsess TensorArrays are list-based, as TF 2.x's).")
        self._dtype = _dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = infer_shape
        self._element_shape: list[TensorShape] = [TensorShape(element_shape)]
        self._static_size: int | None = None
        if flow is not None:
            self._flow = convert_to_tensor(flow)
            self._name = name or "TensorArrayV2"
            return
        if size is None:
            raise ValueError("TensorArray: size must be given (with flow=None).")
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArrayV2") as scope:
            self._name = scope.rstrip("/")
            try:
                n = shape_arg(size, "TensorArray", "size", kind="scalar")
            except ValueError:
                raise ValueError(
                    f"TensorArray '{self._name}': size must be known when the run is traced (XLA needs a "
                    f"static buffer), got {getattr(size, 'name', size)!r}, which depends on fed or variable "
                    "data. Pass a Python int, a constant, or a value computed from tensor shapes "
                    "(tf.shape(x)[0]); in a while_loop use dynamic_size=True with maximum_iterations "
                    "(or in a counting loop, i < n with n known when the run is traced)."
                ) from None
            if isinstance(n, int | np.integer) and n < 0:
                raise ValueError(f"TensorArray '{self._name}': size must be non-negative, got {n}.")
            elem = self._element_shape[0]
            if isinstance(n, int | np.integer) and not self._dynamic_size:
                self._static_size = int(n)
            attrs = {
                "size": int(n) if isinstance(n, int | np.integer) else n,
                "element_shape": None if elem.ndims is None else tuple(elem.as_list()),
                "dtype": self._dtype,
            }
            self._flow = apply("TensorArrayReserve", (), attrs, name="TensorListReserve")

    # -- derived TensorArrays --

    def _with_flow(self, flow: Tensor) -> TensorArray:
        ta = TensorArray.__new__(TensorArray)
        ta._dtype = self._dtype
        ta._dynamic_size = self._dynamic_size
        ta._infer_shape = self._infer_shape
        ta._element_shape = self._element_shape  # shared, as TF's build_ta_with_new_flow
        ta._flow = flow
        ta._name = self._name
        ta._static_size = self._static_size
        return ta

    def from_cond(self, flow: Tensor) -> TensorArray:
        """This TensorArray as a ``cond``/``case`` result on ``flow``: as TF's,
        its size is no longer static (``stack()`` is ``[None, ...]``)."""
        ta = self._with_flow(flow)
        ta._static_size = None
        return ta

    def _merge_element_shape(self, shape: TensorShape) -> None:
        if not self._infer_shape:
            return
        cur = self._element_shape[0]
        if not cur.is_compatible_with(shape):
            raise ValueError(f"Inconsistent shapes: saw {shape} but expected {cur} (TensorArray '{self._name}').")
        self._element_shape[0] = cur.merge_with(shape)

    def _value(self, value: Any, what: str) -> Tensor:
        t = convert_to_tensor(value, dtype=self._dtype) if not isinstance(value, Tensor) else value
        if t.dtype != self._dtype:
            raise TypeError(
                f"TensorArray.{what}: TensorArray '{self._name}' has dtype {self._dtype.name}, got a value "
                f"of dtype {t.dtype.name} ('{t.name}')."
            )
        return t

    def _known_attrs(self) -> dict[str, Any]:
        elem = self._element_shape[0]
        return {"element_shape": tuple(elem.as_list()) if elem.is_fully_defined() else None}

    def _shaped(self, t: Tensor, lead: list[int | None]) -> Tensor:
        """``t`` with the known element shape set (static shape only)."""
        elem = self._element_shape[0]
        if elem.ndims is not None:
            t.set_shape(TensorShape(lead).concatenate(elem))
        return t

    # -- properties --

    @property
    def flow(self) -> Tensor:
        """The buffer tensor ``[capacity, *element_shape]`` (TF: a variant scalar)."""
        return self._flow

    @property
    def handle(self) -> None:
        """``None``: list-based TensorArrays have no resource handle (as TF 2.x's)."""
        return None

    @property
    def dtype(self) -> _dtypes.DType:
        """The elements' dtype."""
        return self._dtype

    @property
    def dynamic_size(self) -> bool:
        """Whether writes may grow it."""
        return self._dynamic_size

    @property
    def element_shape(self) -> TensorShape:
        """The elements' static shape (inferred from writes when ``infer_shape``)."""
        return self._element_shape[0]

    @property
    def name(self) -> str:
        """The TensorArray's name scope."""
        return self._name

    # -- methods --

    def identity(self) -> TensorArray:
        """A TensorArray on an identity of the flow (for control dependencies)."""
        return self._with_flow(identity(self._flow))

    def close(self, name: str | None = None) -> Any:
        """A no-op (as TF 2.x's list-based TensorArray)."""
        return no_op(name=name)

    def size(self, name: str | None = None) -> Tensor:
        """The number of elements, int32 scalar (``dynamic_size``: the buffer's capacity)."""
        if self._static_size is not None:
            return constant(self._static_size, dtype=_dtypes.int32)  # type: ignore[no-any-return]
        return apply_op("TensorArraySize", [self._flow], {}, name=name)  # type: ignore[no-any-return]

    def write(self, index: Any, value: Any, name: str | None = None) -> TensorArray:
        """A TensorArray with element ``index`` set to ``value``, as ``TensorArray.write``.

        Raises:
          ValueError: ``value``'s shape differs from the element shape.
          TypeError: ``value``'s dtype differs from the TensorArray's.
        """
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArrayV2Write"):
            idx = _index(index, "write")
            v = self._value(value, "write")
            self._merge_element_shape(v.shape)
            flow = self._flow
            at = constant_value(idx)
            if self._dynamic_size:
                if at is not None:
                    flow = apply_op("TensorArrayGrow", [flow], {"extra": 0, "at_least": int(at) + 1})
            attrs = {"static_index": None if at is None else int(at)}
            return self._with_flow(apply_op("TensorArrayWrite", [flow, idx, v], attrs, name="TensorListSetItem"))

    def read(self, index: Any, name: str | None = None) -> Tensor:
        """Element ``index`` (zeros if never written), as ``TensorArray.read``."""
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArrayV2Read"):
            idx = _index(index, "read")
            at = constant_value(idx)
            attrs = {**self._known_attrs(), "static_index": None if at is None else int(at)}
            out = apply_op("TensorArrayRead", [self._flow, idx], attrs, name="TensorListGetItem")
        return self._shaped(out, [])

    def stack(self, name: str | None = None) -> Tensor:
        """All elements stacked: ``[size, *element_shape]``, as ``TensorArray.stack``."""
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArrayV2Stack"):
            out = apply_op("TensorArrayStack", [self._flow], self._known_attrs(), name="TensorListStack")
        return self._shaped(out, [self._static_size])

    def gather(self, indices: Any, element_shape: Any = None, name: str | None = None) -> Tensor:
        """Elements ``indices`` stacked: ``[len(indices), *element_shape]``, as ``TensorArray.gather``."""
        idx = _index(indices, "gather")
        out = apply_op("TensorArrayGather", [self._flow, idx], self._known_attrs(), name=name or "TensorListGather")
        return self._shaped(out, idx.shape.as_list()[:1] if idx.shape.ndims else [None])

    def unstack(self, value: Any, name: str | None = None) -> TensorArray:
        """A TensorArray whose elements are the rows of ``value``, as ``TensorArray.unstack``."""
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArrayUnstack"):
            v = self._value(value, "unstack")
            if v.shape.ndims is not None:
                self._merge_element_shape(TensorShape(v.shape.as_list()[1:]))
            flow = apply_op("TensorArrayUnstack", [self._flow, v], {"dynamic_size": self._dynamic_size},
                            name="TensorListFromTensor")
        return self._with_flow(flow)

    def scatter(self, indices: Any, value: Any, name: str | None = None) -> TensorArray:
        """A TensorArray with elements ``indices`` set to the rows of ``value``, as ``TensorArray.scatter``."""
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArrayScatter"):
            idx = _index(indices, "scatter")
            v = self._value(value, "scatter")
            if v.shape.ndims is not None:
                self._merge_element_shape(TensorShape(v.shape.as_list()[1:]))
            flow = self._flow
            if self._dynamic_size:
                at = constant_value(idx)
                if at is not None and at.size:
                    flow = apply_op("TensorArrayGrow", [flow], {"extra": 0, "at_least": int(at.max()) + 1})
            flow = apply_op("TensorArrayScatter", [flow, idx, v], {}, name="TensorListScatterIntoExistingList")
        return self._with_flow(flow)

    def concat(self, name: str | None = None) -> Tensor:
        """The elements concatenated along axis 0, as ``TensorArray.concat``."""
        return apply_op("TensorArrayConcat", [self._flow], self._known_attrs(), name=name or "TensorListConcatV2")  # type: ignore[no-any-return]

    def split(self, value: Any, lengths: Any, name: str | None = None) -> TensorArray:
        """A TensorArray whose element ``i`` is the next ``lengths[i]`` rows of
        ``value``, as ``TensorArray.split``.

        Raises:
          NotImplementedError: ``lengths`` are not all equal constants
            (elements of a dense buffer share one shape).
        """
        graph = get_default_graph()
        with graph.name_scope(name or "TensorArraySplit"):
            v = self._value(value, "split")
            lens = constant_value(lengths)
            if lens is None or lens.ndim != 1 or lens.size == 0 or np.any(lens != lens[0]):
                raise NotImplementedError(
                    f"TensorArray.split on '{self._name}': jaxsess stores elements in one dense buffer, so "
                    f"lengths must be equal constants, got {lengths!r}."
                )
            k, n = int(lens[0]), int(lens.size)
            rest = TensorShape(v.shape.as_list()[1:]) if v.shape.ndims is not None else TensorShape(None)
            if not rest.is_fully_defined():
                raise NotImplementedError(
                    f"TensorArray.split on '{self._name}': value needs a known shape after its first "
                    f"dimension, got {v.shape}."
                )
            dims = [int(d) for d in rest.as_list() if d is not None]
            parts = apply_op("Reshape", [v], {"shape": (n, k, *dims)})
            self._merge_element_shape(TensorShape([k, *dims]))
            flow = apply_op("TensorArrayUnstack", [self._flow, parts], {"dynamic_size": self._dynamic_size},
                            name="TensorListSplit")
        return self._with_flow(flow)

    def loop_shape(self) -> TensorShape:
        """The static shape of this TensorArray's flow as a ``while_loop`` loop variable."""
        shape = self._flow.shape
        if not self._dynamic_size or shape.ndims is None:
            return shape
        return TensorShape([None, *shape.as_list()[1:]])

    def grow_for_loop(self, bound: Any, loop: str) -> TensorArray:
        """This ``dynamic_size`` TensorArray as it enters a ``while_loop``: its
        buffer grows by ``bound`` rows (the loop's ``maximum_iterations``, or
        the trip count of a counting loop: an int or a tensor computed from
        shapes).

        Raises:
          ValueError: ``bound`` is None.
        """
        if bound is None:
            raise ValueError(
                f"TensorArray '{self._name}' has dynamic_size=True and is a loop variable of while_loop "
                f"'{loop}' without maximum_iterations: XLA needs a static buffer. Pass maximum_iterations=N "
                "to the while_loop (the buffer grows by N), write the loop as a counting loop (i < n, "
                "i + 1, n known when the run is traced), or give the TensorArray a fixed size."
            )
        extra = shape_arg(bound, "while_loop", "maximum_iterations", kind="scalar")
        return self._with_flow(apply("TensorArrayGrow", [self._flow], {"extra": extra, "at_least": 0}, None))

    def __repr__(self) -> str:
        return f"<TensorArray '{self._name}' dtype={self._dtype.name} element_shape={self.element_shape}>"


def build_ta_with_new_flow(old_ta: TensorArray, flow: Tensor) -> TensorArray:
    """``old_ta`` on another flow (a loop variable, a loop's result), sharing
    its element shape, as TF's ``tensor_array_ops.build_ta_with_new_flow``."""
    return old_ta._with_flow(flow)
