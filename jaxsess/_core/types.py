"""The core's vocabulary: the kinds of values its functions take, named.

As optax's ``_src/base.py`` names ``Params`` and ``Updates``, these aliases say
what a parameter may be: ``shape: ShapeLike`` rather than ``shape: Any``. They
are for annotations (their runtime values are the strings mypy reads, since
they refer to classes of modules that import this one); the classes they name
are the ones in :mod:`jaxsess._core.dtypes`, :mod:`jaxsess._core.graph._graph`,
:mod:`._shape`, :mod:`._sparse` and :mod:`._device`.

Where the truth is "any Python object" (collections, a pytree handed to
``jax.jit``), the core says ``object`` or ``Any`` itself, not an alias.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import EllipsisType
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import jax
import numpy as np

if TYPE_CHECKING:
    from jaxsess._core.dtypes import DType
    from jaxsess._core.graph._device import DeviceSpec
    from jaxsess._core.graph._graph import Operation, Tensor
    from jaxsess._core.graph._shape import Dimension, TensorShape
    from jaxsess._core.graph._sparse import SparseTensor, SparseTensorValue

__all__ = [
    "Scalar",
    "HostArray",
    "ArrayLike",
    "NestedArrayLike",
    "SupportsGraphElement",
    "GraphElement",
    "ControlInput",
    "GraphElementLike",
    "TensorLike",
    "DTypeLike",
    "DimensionLike",
    "ShapeLike",
    "IndexKey",
    "FetchStructure",
    "FeedKey",
    "FeedValue",
    "FeedDict",
    "HostValue",
    "DeviceFunction",
    "DeviceLike",
    "Evaluator",
    "ProtoMessage",
]

Scalar: TypeAlias = "bool | int | float | complex | str | bytes | np.generic"
"""A Python or NumPy scalar (``str``/``bytes`` are TF's ``string`` elements)."""

HostArray: TypeAlias = "np.ndarray[Any, np.dtype[Any]]"
"""A NumPy array of any shape and dtype: a host value (``object`` arrays of ``bytes`` hold strings)."""

ArrayLike: TypeAlias = "jax.Array | HostArray | Scalar"
"""One value a tensor can be made of, without nesting: an array (device or host) or a scalar."""

NestedArrayLike: TypeAlias = "ArrayLike | Sequence[NestedArrayLike]"
"""An :data:`ArrayLike` or (nested) lists/tuples of them, as ``tf.constant`` takes ``[[1, 2], [3, 4]]``."""


class SupportsGraphElement(Protocol):
    """An object that stands for a graph element, as TF's ``_as_graph_element``
    protocol: a graph ``Variable`` returns its value tensor."""

    def _as_graph_element(self) -> Tensor | Operation: ...


GraphElement: TypeAlias = "Tensor | Operation"
"""A node (:class:`~jaxsess.Operation`) or one of its outputs (:class:`~jaxsess.Tensor`)."""

ControlInput: TypeAlias = "Tensor | Operation | SupportsGraphElement"
"""A control input (``tf.control_dependencies``, ``tf.group``): an op, or a tensor or variable standing
for its op."""

GraphElementLike: TypeAlias = "Tensor | Operation | SupportsGraphElement | str"
"""What :meth:`Graph.as_graph_element` resolves: an element, an object standing for one, or its name
(``'x:0'`` names a tensor, ``'x'`` an op)."""

TensorLike: TypeAlias = "Tensor | SupportsGraphElement | NestedArrayLike | Sequence[TensorLike]"
"""What ``tf.convert_to_tensor`` takes: a tensor, a variable, a value, or (nested) lists of them
(a list holding tensors packs, as TF1)."""

DTypeLike: TypeAlias = "DType | np.dtype[Any] | type | str"
"""What ``tf.as_dtype`` takes: a :class:`DType`, a NumPy dtype, a scalar type (``np.float32``,
``float``, ``jnp.bfloat16``) or a name (``'float32'``)."""

DimensionLike: TypeAlias = "int | np.integer[Any] | Dimension | None"
"""One dimension: its size, a :class:`Dimension`, or ``None`` (unknown)."""

ShapeLike: TypeAlias = "TensorShape | Sequence[DimensionLike] | int | None"
"""What ``tf.TensorShape`` takes: a shape, a sequence of dimensions (``[None, 3]``), one
dimension's size, or ``None`` (unknown rank)."""

IndexKey: TypeAlias = (
    "int | np.integer[Any] | slice | EllipsisType | None | Tensor | SupportsGraphElement"
    " | tuple[int | np.integer[Any] | slice | EllipsisType | None | Tensor | SupportsGraphElement, ...]"
)
"""What ``Tensor.__getitem__`` takes: ints, slices (with tensor bounds), ``...``, ``None`` (a new
axis), scalar int tensors, or a tuple of these."""

FetchStructure: TypeAlias = (
    "Tensor | Operation | SparseTensor | SupportsGraphElement | str"
    " | Sequence[FetchStructure] | Mapping[Any, FetchStructure]"
)
"""What ``Session.run`` fetches, as ``tf.compat.v1.Session.run``: graph elements (or their names)
in nested lists, tuples, namedtuples and mappings (dicts, ``OrderedDict``, ``defaultdict``; any
keys: a mapping's key type is invariant)."""

FeedKey: TypeAlias = "Tensor | SparseTensor | SupportsGraphElement | str"
"""A key of a ``feed_dict``: a tensor (usually a placeholder), a sparse tensor, or a tensor name."""

FeedValue: TypeAlias = "NestedArrayLike | SparseTensorValue | tuple[NestedArrayLike, NestedArrayLike, NestedArrayLike]"
"""A value of a ``feed_dict``: a (nested) value, or for a sparse key a :class:`SparseTensorValue`
or an ``(indices, values, dense_shape)`` triple."""

FeedDict: TypeAlias = "Mapping[Any, FeedValue]"
"""``Session.run``'s ``feed_dict``, as TF1's: :data:`FeedKey` -> :data:`FeedValue`. (A mapping's key
type is invariant: ``Mapping[FeedKey, ...]`` would refuse a ``dict[Tensor, ...]``, so keys are left
open here and checked by ``run``.)"""

HostValue: TypeAlias = "HostArray | np.generic | bytes | SparseTensorValue | None"
"""What ``run`` returns for one fetch: a NumPy array (a NumPy scalar for a 0-d tensor), ``bytes``
for a string scalar, a :class:`SparseTensorValue`, or ``None`` for an operation."""

DeviceFunction: TypeAlias = "Callable[[Operation], str | DeviceSpec | None]"
"""A device function, as ``replica_device_setter`` returns: the op in, its device out."""

DeviceLike: TypeAlias = "str | DeviceSpec | DeviceFunction | None"
"""What ``tf.device`` takes: a device string (``'/cpu:0'``), a :class:`DeviceSpec`, a device
function, or ``None`` (clears the device scopes)."""


class Evaluator(Protocol):
    """The lowering's evaluator as an op's ``lowering(evaluator, op, input_values)`` sees it
    (see :class:`~jaxsess._core.graph._registry.OpDef`): the values computed so far, the run
    context stateful implementations take, and variable reads."""

    env: dict[Tensor, Any]  # tensor -> its traced value (a jax.Array, or a host value fed in)
    ctx: object  # the run context a stateful op's implementation takes first

    def read_var(self, op: Operation, var_op: Operation) -> Any: ...


class ProtoMessage(Protocol):
    """A protocol buffer message (TF's ``GraphDef``, ``NodeDef``, ``TensorProto``...), as the
    ``protobuf`` runtime gives it: what the core's proto helpers read and write."""

    DESCRIPTOR: Any  # the message type's descriptor (its ``name``, fields)

    def SerializeToString(self, *, deterministic: bool = ...) -> bytes: ...  # noqa: N802 - protobuf's name

    def ParseFromString(self, serialized: bytes, /) -> int | None: ...  # noqa: N802 - protobuf's name
