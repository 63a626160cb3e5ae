"""What every reader and writer of TF's ``NodeDef``\\ s shares: attribute values, inputs, shapes.

Three places read TF's nodes: the graph importer (``graph/_graph_def``: nodes read with
jaxsess's registry through their :class:`~jaxsess._core.graph._registry.TFOp` mapping), the
TF-node importer (``graph/_tf_import``: generic TF nodes) and function bodies
(``graph/_tf_function``: a body node without a lowering in TF's table is read with the
registry's mapping, as at import). They decode a registry op's attributes
(:func:`registry_tf_attrs`), split its constant inputs (:func:`split_const_inputs`) and
refine inferred shapes by TF's ``_output_shapes`` (:func:`refine_output_shapes`) here, once,
so a node reads the same in a graph and in a function body. Nodes read through TF's op-set
table decode their attributes by the ``OpDef`` instead (``graph/_tf_node.decode_attrs``).

Imports: ``_core`` only (graph/ modules before this one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from jaxsess._core import _tfproto as _tfproto
from jaxsess._core.graph._graph import Tensor
from jaxsess._core.graph._registry import TFOp
from jaxsess._core.graph._shape import TensorShape

__all__ = [
    "OUTPUT_SHAPES",
    "attr_value",
    "input_name",
    "refine_output_shapes",
    "registry_tf_attrs",
    "split_const_inputs",
    "write_output_shapes",
]

OUTPUT_SHAPES = "_output_shapes"
"""The attribute where TF (and jaxsess) record a node's output shapes."""

_T = TypeVar("_T")


def input_name(t: Tensor) -> str:
    """TF's spelling of an input: ``'op'`` for output 0, ``'op:k'`` otherwise."""
    return t.op.name if t.value_index == 0 else t.name


def attr_value(av: Any) -> Any:
    """The Python value of an ``AttrValue`` as the registry's ``TFOp`` mappings read it (lists as
    tuples, strings as ``str``; ``bytes`` when a scalar string is not UTF-8).

    Raises:
      ValueError: an attr kind jaxsess does not read (functions, placeholders, lists of
        tensors or functions).
      TypeError: a dtype jaxsess has no type for (``DT_RESOURCE``, quantized types).
    """
    kind = av.WhichOneof("value")
    if kind == "b":
        return bool(av.b)
    if kind == "i":
        return int(av.i)
    if kind == "f":
        return float(av.f)
    if kind == "s":
        try:
            return av.s.decode("utf-8")
        except UnicodeDecodeError:
            return bytes(av.s)
    if kind == "type":
        return _tfproto.enum_to_dtype(av.type)
    if kind == "shape":
        return TensorShape(_tfproto.proto_to_dims(av.shape))
    if kind == "tensor":
        return _tfproto.tensor_proto_to_ndarray(av.tensor)
    if kind == "list":
        lst = av.list
        if lst.b:
            return tuple(bool(x) for x in lst.b)
        if lst.i:
            return tuple(int(x) for x in lst.i)
        if lst.f:
            return tuple(float(x) for x in lst.f)
        if lst.s:
            return tuple(x.decode("utf-8", "replace") for x in lst.s)
        if lst.type:
            return tuple(_tfproto.enum_to_dtype(x) for x in lst.type)
        if lst.shape:
            return tuple(TensorShape(_tfproto.proto_to_dims(x)) for x in lst.shape)
        if lst.tensor or lst.func:
            raise ValueError("list attributes of tensors or functions are not supported")
        return ()
    if kind is None:
        return None
    raise ValueError(f"attributes of kind '{kind}' are not supported by jaxsess")


def registry_tf_attrs(attr_map: Mapping[str, Any], m: TFOp, has_inputs: bool) -> dict[str, Any]:
    """A node's TF attributes as ``m.from_tf`` takes them: every attribute but the type
    attributes ``m`` derives from dtypes (``T`` when it has no ``types`` and the node has
    inputs) and private ones (``_output_shapes``...), decoded by :func:`attr_value`.

    Raises:
      ValueError: an attribute that does not decode, named (``attribute 'k': ...``).
    """
    skip = set(m.types if m.types is not None else ({"T": 0} if has_inputs else {}))
    tf_attrs: dict[str, Any] = {}
    for k, av in attr_map.items():
        if k in skip or k.startswith("_"):
            continue
        try:
            tf_attrs[k] = attr_value(av)
        except (ValueError, TypeError) as e:
            raise ValueError(f"attribute '{k}': {e}") from None
    return tf_attrs


def split_const_inputs(inputs: Sequence[_T], n_const: int, const_pos: int) -> tuple[list[_T], list[_T], int]:
    """``(data inputs, constant inputs, position of the first constant)`` of a registry op whose
    ``TFOp`` folds ``n_const`` of TF's inputs into attributes (at ``const_pos``; ``-1``: the last)."""
    at = len(inputs) - n_const if const_pos < 0 else const_pos
    return [*inputs[:at], *inputs[at + n_const :]], list(inputs[at : at + n_const]), at


def refine_output_shapes(node: Any, specs: list[tuple[TensorShape, _T]]) -> list[tuple[TensorShape, _T]]:
    """``specs`` (inferred ``(shape, dtype)`` per output) merged with the shapes ``node``
    records in ``_output_shapes`` (when it records one per output).

    Raises:
      ValueError: a recorded shape that contradicts the inferred one (names the output).
    """
    if OUTPUT_SHAPES not in node.attr:
        return specs
    recorded = node.attr[OUTPUT_SHAPES].list.shape
    if len(recorded) != len(specs):
        return specs
    refined = []
    for j, (rec, (shape, dtype)) in enumerate(zip(recorded, specs)):
        want = TensorShape(_tfproto.proto_to_dims(rec))
        if not want.is_compatible_with(shape):
            raise ValueError(f"output {j} is recorded with shape {want} but the op gives {shape}")
        refined.append((shape.merge_with(want), dtype))
    return refined


def write_output_shapes(node: Any, outputs: Sequence[Tensor]) -> None:
    """Records ``outputs``' shapes in ``node``'s ``_output_shapes`` (as TF's ``add_shapes``)."""
    shapes = node.attr[OUTPUT_SHAPES].list.shape
    for t in outputs:
        shapes.add().CopyFrom(_tfproto.shape_to_proto(t.shape.as_tuple()))
