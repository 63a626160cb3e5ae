"""``TensorShape`` and ``Dimension``, as ``tf.compat.v1`` (v2 shape behaviour).

A shape is ``None`` (unknown rank) or a tuple of ``int``/``None`` dimensions.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jaxsess._core.types import DimensionLike, ShapeLike

__all__ = ["TensorShape", "Dimension", "as_shape", "as_dimension", "enable_v2_tensorshape", "disable_v2_tensorshape",
           "v2_tensorshape_enabled"]

# TF's shape behaviour: v2 (the default, as TF 2.x) indexes a shape to ``int``/``None``; v1 (after
# ``disable_v2_behavior()``/``disable_v2_tensorshape()``) to ``Dimension``s.
_V2 = [True]


def enable_v2_tensorshape() -> None:
    """Indexing or iterating a ``TensorShape`` gives ``int``/``None``, as ``tf.compat.v1.enable_v2_tensorshape``."""
    _V2[0] = True


def disable_v2_tensorshape() -> None:
    """Indexing or iterating a ``TensorShape`` gives ``Dimension``s (``shape[1].value``), as
    ``tf.compat.v1.disable_v2_tensorshape`` (and ``disable_v2_behavior``)."""
    _V2[0] = False


def v2_tensorshape_enabled() -> bool:
    """Whether v2 shape behaviour is on (see :func:`enable_v2_tensorshape`)."""
    return _V2[0]


class _DimensionType(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return type.__instancecheck__(cls, obj) or type(obj) is _KnownDimension


class Dimension(metaclass=_DimensionType):
    """One dimension of a shape, as ``tf.compat.v1.Dimension``: ``value`` is an ``int`` or
    ``None`` (unknown); arithmetic with an unknown dimension is unknown, and so is comparing
    one (``None``). ``TensorShape.dims`` holds these; indexing a shape gives plain ints (v2)."""

    __slots__ = ("_value",)

    def __init__(self, value: DimensionLike) -> None:
        self._value = _dim(value)

    @property
    def value(self) -> int | None:
        return self._value

    def __int__(self) -> int:
        if self._value is None:
            raise TypeError("Cannot convert an unknown Dimension to an int.")
        return self._value

    __index__ = __int__

    def _op(self, other: DimensionLike, fn: Callable[[int, int], int]) -> Dimension:
        o = as_dimension(other).value
        return Dimension(None if self._value is None or o is None else fn(self._value, o))

    def __add__(self, other: DimensionLike) -> Dimension:
        return self._op(other, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, other: DimensionLike) -> Dimension:
        return self._op(other, lambda a, b: a - b)

    def __rsub__(self, other: DimensionLike) -> Dimension:
        return as_dimension(other) - self

    def __mul__(self, other: DimensionLike) -> Dimension:
        return self._op(other, lambda a, b: a * b)

    __rmul__ = __mul__

    def __floordiv__(self, other: DimensionLike) -> Dimension:
        return self._op(other, lambda a, b: a // b)

    def __mod__(self, other: DimensionLike) -> Dimension:
        return self._op(other, lambda a, b: a % b)

    def __eq__(self, other: Any) -> Any:
        try:
            o = as_dimension(other).value
        except (TypeError, ValueError):
            return NotImplemented
        return None if self._value is None or o is None else self._value == o

    def __ne__(self, other: Any) -> Any:
        eq = self.__eq__(other)
        return eq if eq is None or eq is NotImplemented else not eq

    def __lt__(self, other: DimensionLike) -> Any:
        o = as_dimension(other).value
        return None if self._value is None or o is None else self._value < o

    def __hash__(self) -> int:
        return hash(self._value)

    def is_compatible_with(self, other: DimensionLike) -> bool:
        o = as_dimension(other).value
        return self._value is None or o is None or self._value == o

    def merge_with(self, other: DimensionLike) -> Dimension:
        o = as_dimension(other)
        if not self.is_compatible_with(o):
            raise ValueError(f"Dimensions {self} and {o} are not compatible")
        return self if self._value is not None else o

    def __repr__(self) -> str:
        return f"Dimension({self._value})"

    def __str__(self) -> str:
        return "?" if self._value is None else str(self._value)


class _KnownDimension(int):
    """A known dimension under v1 shape behaviour: an ``int`` (so every API
    takes it) with :class:`Dimension`'s ``value``, methods and repr;
    ``isinstance(d, Dimension)`` holds, as for TF's."""

    __slots__ = ()

    @property
    def value(self) -> int:
        return int(self)

    _value = value

    def is_compatible_with(self, other: DimensionLike) -> bool:
        o = as_dimension(other).value
        return o is None or o == int(self)

    def assert_is_compatible_with(self, other: DimensionLike) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {other} are not compatible")

    def merge_with(self, other: DimensionLike) -> _KnownDimension:
        self.assert_is_compatible_with(other)
        return self

    def __repr__(self) -> str:
        return f"Dimension({int(self)})"

    def __str__(self) -> str:
        return str(int(self))


def _known_op(name: str) -> Any:
    base = getattr(int, name)

    def op(self: _KnownDimension, other: int) -> Any:
        r = base(self, other)
        return _KnownDimension(r) if type(r) is int else r

    return op


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__floordiv__", "__rfloordiv__",
              "__mod__", "__rmod__"):
    setattr(_KnownDimension, _name, _known_op(_name))


def _from_jaxsess(frame: Any) -> bool:
    name = frame.f_globals.get("__name__", "")
    return bool(name == "jaxsess" or name.startswith("jaxsess."))


def _v1_dim(d: int | None, internal: bool) -> Any:
    """A dimension as v1 shape behaviour gives it: a known one as
    :class:`_KnownDimension`, an unknown one as ``Dimension(None)`` to user
    code and as ``None`` to jaxsess's own (``internal``: it tests ``is None``)."""
    if d is not None:
        return _KnownDimension(d)
    return None if internal else Dimension(None)


def as_dimension(value: DimensionLike) -> Dimension:
    """``value`` as a :class:`Dimension`, as ``tf.compat.v1.dimension_value``'s counterpart ``as_dimension``."""
    return value if isinstance(value, Dimension) else Dimension(value)


class TensorShape:
    """A possibly partially known shape, as ``tf.TensorShape`` (v2 behaviour:
    indexing gives ``int`` or ``None``).

    Args:
      dims: ``None`` (unknown rank) or a sequence of ``int``/``None``.
    """

    __slots__ = ("_dims",)

    def __init__(self, dims: ShapeLike) -> None:
        if dims is None:
            self._dims: tuple[int | None, ...] | None = None
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        else:
            if isinstance(dims, int):
                dims = (dims,)
            self._dims = tuple(_dim(d) for d in dims)

    @property
    def dims(self) -> list[Dimension] | None:
        """The dimensions as :class:`Dimension` objects (``None``: unknown rank), as TF."""
        return None if self._dims is None else [Dimension(d) for d in self._dims]

    @property
    def ndims(self) -> int | None:
        return None if self._dims is None else len(self._dims)

    rank = ndims

    def as_list(self) -> list[int | None]:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def as_tuple(self) -> tuple[int | None, ...] | None:
        return self._dims

    def is_fully_defined(self) -> bool:
        return self._dims is not None and all(d is not None for d in self._dims)

    def num_elements(self) -> int | None:
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:  # type: ignore[union-attr]
            n *= d  # type: ignore[operator]
        return n

    def is_compatible_with(self, other: ShapeLike) -> bool:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def merge_with(self, other: ShapeLike) -> TensorShape:
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def assert_is_compatible_with(self, other: ShapeLike) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def assert_has_rank(self, rank: int) -> None:
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def with_rank(self, rank: int) -> TensorShape:
        if self._dims is None:
            return TensorShape([None] * rank)
        self.assert_has_rank(rank)
        return self

    def with_rank_at_least(self, rank: int) -> TensorShape:
        """This shape if its rank is at least ``rank``, as TF. Raises ``ValueError`` otherwise."""
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank: int) -> TensorShape:
        """This shape if its rank is at most ``rank``, as TF. Raises ``ValueError`` otherwise."""
        if self._dims is not None and len(self._dims) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def concatenate(self, other: ShapeLike) -> TensorShape:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self) -> Iterator[Any]:
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        if _V2[0]:
            return iter(self._dims)
        internal = _from_jaxsess(sys._getframe(1))
        return iter([_v1_dim(d, internal) for d in self._dims])

    def __getitem__(self, key: Any) -> Any:
        """A dimension (``int``/``None``; under v1 shape behaviour a
        ``Dimension``), or a ``TensorShape`` for a slice, as ``TensorShape.__getitem__``."""
        if self._dims is None:
            if isinstance(key, slice):
                return TensorShape(None)
            return None if _V2[0] else _v1_dim(None, _from_jaxsess(sys._getframe(1)))
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        d = self._dims[key]
        if _V2[0]:
            return d
        return _v1_dim(d, d is not None or _from_jaxsess(sys._getframe(1)))

    def __eq__(self, other: object) -> bool:
        try:
            other = as_shape(other)  # type: ignore[arg-type]  # what is not a shape raises
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __hash__(self) -> int:
        return hash(self._dims)

    def __bool__(self) -> bool:
        return self._dims is not None

    def __repr__(self) -> str:
        if self._dims is None or _V2[0]:
            return f"TensorShape({None if self._dims is None else list(self._dims)})"
        return "TensorShape([" + ", ".join(f"Dimension({d})" for d in self._dims) + "])"  # as TF's v1 shapes

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        dims = [str(d) if d is not None or _V2[0] else "?" for d in self._dims]  # v1 shapes print ``?``
        if len(dims) == 1:
            return f"({dims[0]},)"
        return "(" + ", ".join(dims) + ")"

    def tf_str(self) -> str:
        """TF's message form: ``[?,3]`` (or ``<unknown>``)."""
        if self._dims is None:
            return "<unknown>"
        return "[" + ",".join("?" if d is None else str(d) for d in self._dims) + "]"


def _dim(d: DimensionLike) -> int | None:
    if d is None:
        return None
    value = getattr(d, "value", d)  # a Dimension's
    if value is None:
        return None
    i = int(value)
    if i == -1:
        return None
    if i < 0:
        raise ValueError(f"Dimension {i} must be >= 0")
    return i


def as_shape(shape: ShapeLike) -> TensorShape:
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)
