"""Nested element structures of ``tf.data`` (tuples, namedtuples, dicts and
leaves), flattened as ``tf.nest`` does: dicts in sorted key order."""

from __future__ import annotations

from typing import Any

from jaxsess._core.graph._graph import Tensor

__all__ = ["ElementSpec", "flatten", "pack", "map_structure"]


class ElementSpec:
    """TF1's element-spec properties of a ``Dataset`` or an ``Iterator``, from
    its ``_structure`` (a nest of ``None`` leaves), ``_types`` and ``_shapes``
    (flat lists, in ``tf.nest`` order)."""

    _structure: Any
    _types: list[Any]
    _shapes: list[Any]

    @property
    def output_types(self) -> Any:
        """The elements' dtypes, in the elements' structure."""
        return pack(self._structure, self._types)

    @property
    def output_shapes(self) -> Any:
        """The elements' static shapes (``TensorShape``), in the elements' structure."""
        return pack(self._structure, self._shapes)

    @property
    def output_classes(self) -> Any:
        """``Tensor`` for every element, in the elements' structure."""
        return pack(self._structure, [Tensor] * len(self._types))


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def flatten(s: Any) -> list[Any]:
    """The leaves of ``s`` in ``tf.nest`` order."""
    if isinstance(s, dict):
        return [leaf for k in sorted(s) for leaf in flatten(s[k])]
    if isinstance(s, tuple | list):
        return [leaf for v in s for leaf in flatten(v)]
    return [s]


def pack(template: Any, leaves: list[Any]) -> Any:
    """``template``'s structure with ``leaves`` (as many as :func:`flatten` gives)."""
    it = iter(leaves)

    def build(s: Any) -> Any:
        if isinstance(s, dict):
            built = {k: build(s[k]) for k in sorted(s)}
            return type(s)((k, built[k]) for k in s) if type(s) is not dict else {k: built[k] for k in s}
        if _is_namedtuple(s):
            return type(s)(*[build(v) for v in s])
        if isinstance(s, tuple | list):
            return tuple(build(v) for v in s)
        return next(it)

    return build(template)


def map_structure(fn: Any, s: Any) -> Any:
    """``s`` with every leaf replaced by ``fn(leaf)``."""
    return pack(s, [fn(x) for x in flatten(s)])
