"""``TensorInfo`` protos of tensors and back, as ``tf.compat.v1.saved_model.utils``."""

from __future__ import annotations

from typing import Any

from jaxsess._core import _tfproto as _tfproto
from jaxsess._core.graph._graph import Graph, Tensor, get_default_graph

__all__ = ["build_tensor_info", "get_tensor_from_tensor_info"]


def build_tensor_info(tensor: Tensor) -> Any:
    """The ``TensorInfo`` of a graph tensor (its name, dtype and shape), as
    ``tf.compat.v1.saved_model.utils.build_tensor_info``.

    Raises:
      TypeError: ``tensor`` is not a graph :class:`Tensor`.
    """
    if not isinstance(tensor, Tensor):
        raise TypeError(f"build_tensor_info expects a graph Tensor, got {type(tensor).__name__}.")
    return _tfproto.TensorInfo(
        name=tensor.name,
        dtype=_tfproto.dtype_to_enum(tensor.dtype),
        tensor_shape=_tfproto.shape_to_proto(tensor.shape.as_list()),
    )


def get_tensor_from_tensor_info(tensor_info: Any, graph: Graph | None = None, import_scope: str | None = None) -> Tensor:
    """The tensor a ``TensorInfo`` names in ``graph`` (default: the default graph), as
    ``tf.compat.v1.saved_model.utils.get_tensor_from_tensor_info``.

    Raises:
      ValueError: the ``TensorInfo`` names no dense tensor (a sparse or
        composite one: not covered), or no such tensor is in the graph.
    """
    if tensor_info.WhichOneof("encoding") != "name":
        raise ValueError(f"Invalid TensorInfo.encoding: {tensor_info.WhichOneof('encoding')} "
                         "(jaxsess reads dense tensors only).")
    name = tensor_info.name if not import_scope else f"{import_scope}/{tensor_info.name}"
    try:
        return (graph or get_default_graph()).get_tensor_by_name(name)
    except KeyError as e:
        raise ValueError(str(e)) from None
