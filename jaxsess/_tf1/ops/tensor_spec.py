"""``tf.TensorSpec``: the shape, dtype and name a tensor is expected to have, as TF's
(``tf.function(input_signature=...)``, SavedModel signatures)."""

from __future__ import annotations

from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._graph import TensorShape

__all__ = ["TensorSpec"]


class TensorSpec:
    """A description of a tensor, as ``tf.TensorSpec``.

    Args:
      shape: anything ``TensorShape`` takes (``None``: unknown rank; ``None`` entries:
        unknown dimensions).
      dtype: a ``DType`` or anything ``tf.as_dtype`` takes (default ``float32``).
      name: an optional name (``str``).

    Raises:
      TypeError: ``dtype`` names no dtype.
    """

    def __init__(self, shape: Any, dtype: Any = _dtypes.float32, name: str | None = None) -> None:
        self._shape = TensorShape(shape)
        self._dtype = _dtypes.as_dtype(dtype)
        self._name = name

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> _dtypes.DType:
        return self._dtype

    @property
    def name(self) -> str | None:
        return self._name

    @classmethod
    def from_tensor(cls, tensor: Any, name: str | None = None) -> TensorSpec:
        """The spec of ``tensor`` (a ``Tensor`` or anything with ``shape`` and ``dtype``);
        ``name`` defaults to the tensor's op name where it has one."""
        op = getattr(tensor, "op", None)
        return cls(tensor.shape, tensor.dtype, name if name is not None else getattr(op, "name", None))

    @classmethod
    def from_spec(cls, spec: Any, name: str | None = None) -> TensorSpec:
        return cls(spec.shape, spec.dtype, name if name is not None else getattr(spec, "name", None))

    def is_compatible_with(self, spec_or_tensor: Any) -> bool:
        """Whether the dtypes are equal and the shapes compatible (as ``tf.TensorSpec``)."""
        return bool(
            _dtypes.as_dtype(spec_or_tensor.dtype) == self._dtype
            and self._shape.is_compatible_with(spec_or_tensor.shape)
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TensorSpec):
            return NotImplemented
        return (self._shape.as_list() if self._shape.ndims is not None else None) == (
            other._shape.as_list() if other._shape.ndims is not None else None
        ) and self._dtype == other._dtype and self._name == other._name

    def __hash__(self) -> int:
        dims = tuple(self._shape.as_list()) if self._shape.ndims is not None else None
        return hash((dims, self._dtype, self._name))

    def __repr__(self) -> str:
        name = "None" if self._name is None else repr(self._name)
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={name})"
