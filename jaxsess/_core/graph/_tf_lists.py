"""TensorArrays and TensorLists as arrays: TF's list values in a JAX plan.

TF holds a ``TensorArray`` (``TensorArray*V3``: TF1's ``dynamic_rnn``) behind
a resource handle, ordered by a float *flow*; a ``TensorList`` (``TensorList*``:
control flow v2, Keras' v2 RNNs) is a ``variant``. Here both are plain
arrays ``[n, *element_shape]``, so they pass through ``lax.while_loop``
carries and ``lax.cond`` branches like any tensor:

* a TensorArray's **flow** is its contents: ``TensorArrayV3`` makes zeros
  ``[size, *element_shape]`` (``size`` folded on the host, a dynamic size is
  refused, naming the node; an ``element_shape`` not fully known, as
  ``dynamic_rnn``'s ``(?, units)``, makes a :class:`PendingList` whose array
  the first write or scatter makes, as TF's kernel fixes it then), reads,
  gathers and ``TensorArraySizeV3`` read the flow, writes and scatters return
  the updated flow; the handle is a placeholder value (the ops taking it are
  stateful, as TF's: never folded, their handle input passed as it is);
* a TensorList **is** its array: ``TensorListReserve`` makes zeros
  ``[num_elements, *element_shape]`` (both known on the host; an element
  shape with unknown dims or rank, a :class:`PendingList` as above),
  ``TensorListFromTensor`` is its tensor, ``GetItem``/``SetItem``/``Gather``/
  ``Stack``/``Length`` index it, ``EmptyTensorList`` + ``TensorListPushBack``
  grow it (outside loops: a loop variable must keep its shape, so a loop
  that pushes back is run only when nothing the plan needs reads that list,
  see ``While`` in ``graph/_tf_function``).

These are the engine's: TF's op-set table lowers everything else.

Imports: ``_core`` only (graph/ modules before this one).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._tf_opset import register_tf_lowering

__all__ = ["LIST_OPS", "PendingList", "is_pending"]

LIST_OPS = frozenset({
    "TensorArrayV3", "TensorArrayReadV3", "TensorArrayWriteV3", "TensorArrayScatterV3", "TensorArrayGatherV3",
    "TensorArraySizeV3", "TensorArrayConcatV3", "TensorArrayCloseV3", "TensorListReserve", "TensorListFromTensor",
    "TensorListGetItem", "TensorListSetItem", "TensorListStack", "TensorListLength", "TensorListGather",
    "EmptyTensorList", "TensorListPushBack",
})
"""The TF op types this module lowers."""


# -- TensorArrays: the flow is the contents ------------------------------------------------


@register_tf_lowering("TensorArrayV3", static_inputs=(0,))
def _ta_new(ctx: Any, inputs: Any, attrs: Any) -> Any:
    size = int(np.asarray(inputs[0]))
    shape = attrs["element_shape"]
    if attrs["dynamic_size"]:
        raise ctx.error("a TensorArray of dynamic size: jaxsess needs its size when the graph is compiled")
    handle = jnp.zeros((), jnp.int32)
    if not shape.is_fully_defined():  # (None, 8): dynamic_rnn's batch; the first write makes the array
        dims = None if shape.ndims is None else tuple(shape.as_list())
        return [handle, PendingList(size, dims, attrs["dtype"].np_dtype)]
    return [handle, jnp.zeros((size, *shape.as_list()), attrs["dtype"].np_dtype)]


def _written(ctx: Any, flow: Any, item_shape: tuple[int, ...]) -> Any:
    """``flow``'s array: a pending one is made for elements of ``item_shape`` (its first write)."""
    if not isinstance(flow, PendingList):
        return flow
    try:
        return flow.materialize(item_shape)
    except ValueError as e:
        raise ctx.error(str(e)) from None


def _contents(ctx: Any, flow: Any) -> Any:
    """``flow``'s array, for a read: a pending one has never been written (TF's error too)."""
    if isinstance(flow, PendingList):
        raise ctx.error("reads a TensorArray/TensorList that nothing has written yet, and whose element shape "
                        f"{flow.shape_text()} is not fully known")
    return flow


@register_tf_lowering("TensorArrayReadV3", stateful=True)
def _ta_read(ctx: Any, inputs: Any, attrs: Any) -> Any:
    _, index, flow = inputs
    return [_contents(ctx, flow)[index]]


@register_tf_lowering("TensorArrayWriteV3", stateful=True)
def _ta_write(ctx: Any, inputs: Any, attrs: Any) -> Any:
    _, index, value, flow = inputs
    flow = _written(ctx, flow, tuple(jnp.shape(value)))
    return [flow.at[index].set(jnp.asarray(value, flow.dtype))]


@register_tf_lowering("TensorArrayScatterV3", stateful=True)
def _ta_scatter(ctx: Any, inputs: Any, attrs: Any) -> Any:
    _, indices, value, flow = inputs
    flow = _written(ctx, flow, tuple(jnp.shape(value))[1:])
    return [flow.at[indices].set(jnp.asarray(value, flow.dtype))]


@register_tf_lowering("TensorArrayGatherV3", stateful=True)
def _ta_gather(ctx: Any, inputs: Any, attrs: Any) -> Any:
    _, indices, flow = inputs
    return [_contents(ctx, flow)[indices]]


@register_tf_lowering("TensorArraySizeV3", stateful=True)
def _ta_size(ctx: Any, inputs: Any, attrs: Any) -> Any:
    return [jnp.asarray(inputs[1].shape[0], jnp.int32)]


@register_tf_lowering("TensorArrayConcatV3", stateful=True)
def _ta_concat(ctx: Any, inputs: Any, attrs: Any) -> Any:
    flow = _contents(ctx, inputs[1])
    n = flow.shape[0]
    lengths = jnp.full((n,), flow.shape[1] if flow.ndim > 1 else 1, jnp.int64)
    return [jnp.reshape(flow, (-1, *flow.shape[2:])), lengths]


@register_tf_lowering("TensorArrayCloseV3", stateful=True)
def _ta_close(ctx: Any, inputs: Any, attrs: Any) -> Any:
    return []


# -- TensorLists: the list is its array ------------------------------------------------------


class PendingList:
    """A ``TensorListReserve`` or ``TensorArrayV3`` whose element shape has unknown dimensions
    (Keras' ``[-1, units]``, ``dynamic_rnn``'s ``(?, units)``) or an unknown rank (a function
    traced for any batch: ``-1``): its array is made by the first ``TensorListSetItem``,
    ``TensorArrayWriteV3`` or ``TensorArrayScatterV3`` (a ``While`` whose loop variable it is
    finds the shape by tracing its body once: ``graph/_tf_function``); reading it before is
    refused, naming the node. A pytree without leaves.

    Attributes:
      n: the number of elements.
      element_shape: the known dims (``None`` unknown), or ``None`` when even the rank is
        unknown (TF's ``element_shape`` of ``-1``: a function traced for any batch).
      dtype: the NumPy element dtype.
      shape: ``(n, *element_shape)`` (for shape inference: unknown dims as ``None``).
    """

    def __init__(self, n: int, element_shape: tuple[int | None, ...] | None, dtype: Any) -> None:
        self.n, self.element_shape, self.dtype = n, element_shape, np.dtype(dtype)
        self.shape = (n, *(element_shape or ()))

    def materialize(self, item_shape: tuple[int, ...]) -> Any:
        """The zero array for elements of ``item_shape`` (checked against the known dims)."""
        known = self.element_shape
        if known is not None and (len(item_shape) != len(known) or any(
                k is not None and k != d for k, d in zip(known, item_shape))):
            raise ValueError(f"an element of shape {list(item_shape)} does not fit the TensorList's element shape "
                             f"{[-1 if d is None else d for d in known]}")
        return jnp.zeros((self.n, *item_shape), self.dtype)

    def shape_text(self) -> str:
        """The element shape as TF writes it (``<unknown>``, ``[?,8]``)."""
        if self.element_shape is None:
            return "<unknown>"
        return "[" + ",".join("?" if d is None else str(d) for d in self.element_shape) + "]"


jax.tree_util.register_pytree_node(
    PendingList, lambda p: ((), (p.n, p.element_shape, p.dtype.str)), lambda aux, _: PendingList(*aux))


def is_pending(v: Any) -> bool:
    """Whether ``v`` is a :class:`PendingList`."""
    return isinstance(v, PendingList)


def _element_shape(ctx: Any, shape: Any, what: str) -> tuple[int, ...] | None:
    """A TensorList ``element_shape`` input (``-1``: unknown rank; ``-1`` dims: unknown)."""
    arr = np.asarray(shape).reshape(-1) if np.ndim(shape) else None
    if arr is None or any(int(d) < 0 for d in arr):
        return None
    return tuple(int(d) for d in arr)


def _elem_dtype(attrs: Any) -> Any:
    dt = attrs["element_dtype"]
    return dt.np_dtype if isinstance(dt, _dtypes.DType) else np.float32


@register_tf_lowering("TensorListReserve", static_inputs=(0, 1))
def _tl_reserve(ctx: Any, inputs: Any, attrs: Any) -> Any:
    shape = _element_shape(ctx, inputs[0], "element_shape")
    n = int(np.asarray(inputs[1]))
    raw = np.asarray(inputs[0]).reshape(-1) if np.ndim(inputs[0]) else None
    if n < 0:
        raise ctx.error(f"a TensorList of {n} elements of shape {np.asarray(inputs[0]).tolist()}: jaxsess needs the "
                        "number of elements when the graph is compiled")
    if raw is None:  # unknown rank: the first SetItem makes the array
        return [PendingList(n, None, _elem_dtype(attrs))]
    if shape is None:  # unknown dims: the first SetItem makes the array
        return [PendingList(n, tuple(None if int(d) < 0 else int(d) for d in raw), _elem_dtype(attrs))]
    return [jnp.zeros((n, *shape), _elem_dtype(attrs))]


@register_tf_lowering("TensorListFromTensor")
def _tl_from_tensor(ctx: Any, inputs: Any, attrs: Any) -> Any:
    return [inputs[0]]


@register_tf_lowering("TensorListGetItem")
def _tl_get(ctx: Any, inputs: Any, attrs: Any) -> Any:
    return [_contents(ctx, inputs[0])[inputs[1]]]


@register_tf_lowering("TensorListSetItem")
def _tl_set(ctx: Any, inputs: Any, attrs: Any) -> Any:
    lst, index, item = inputs
    lst = _written(ctx, lst, tuple(jnp.shape(item)))
    return [lst.at[index].set(jnp.asarray(item, lst.dtype))]


@register_tf_lowering("TensorListStack")
def _tl_stack(ctx: Any, inputs: Any, attrs: Any) -> Any:
    return [_contents(ctx, inputs[0])]


@register_tf_lowering("TensorListGather")
def _tl_gather(ctx: Any, inputs: Any, attrs: Any) -> Any:
    return [_contents(ctx, inputs[0])[inputs[1]]]


@register_tf_lowering("TensorListLength")
def _tl_length(ctx: Any, inputs: Any, attrs: Any) -> Any:
    return [jnp.asarray(inputs[0].shape[0], jnp.int32)]


@register_tf_lowering("EmptyTensorList", static_inputs=(0,))
def _tl_empty(ctx: Any, inputs: Any, attrs: Any) -> Any:
    shape = _element_shape(ctx, inputs[0], "element_shape")
    return [jnp.zeros((0, *(shape or ())), _elem_dtype(attrs))]


@register_tf_lowering("TensorListPushBack")
def _tl_push(ctx: Any, inputs: Any, attrs: Any) -> Any:
    lst, x = inputs
    x = jnp.asarray(x)
    if lst.shape[0] == 0 and lst.shape[1:] != x.shape:  # an empty list of unknown element shape
        return [x[None]]
    return [jnp.concatenate([lst, jnp.asarray(x, lst.dtype)[None]])]
