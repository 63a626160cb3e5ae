"""``tf.nest``: nested structures of tensors, as ``tf.nest`` (TF 1.14+).

Built on ``jax.tree_util`` with ``None`` kept as a leaf, as TF's ``nest``
does: lists, tuples, namedtuples (``LSTMStateTuple``) and dicts (by sorted
key) are structure; everything else, tensors included, is a leaf.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jax import tree_util

__all__ = ["flatten", "pack_sequence_as", "map_structure", "is_nested", "assert_same_structure"]


def _is_leaf(x: Any) -> bool:
    return x is None


def flatten(structure: Any, expand_composites: bool = False) -> list[Any]:
    """The leaves of ``structure`` in TF's order (dicts by sorted key), as ``tf.nest.flatten``."""
    return tree_util.tree_leaves(structure, is_leaf=_is_leaf)


def pack_sequence_as(structure: Any, flat_sequence: Any, expand_composites: bool = False) -> Any:
    """``flat_sequence`` in the shape of ``structure``, as ``tf.nest.pack_sequence_as``.

    Raises:
      ValueError: ``flat_sequence`` has another number of elements than ``structure`` has leaves.
    """
    leaves, treedef = tree_util.tree_flatten(structure, is_leaf=_is_leaf)
    flat = list(flat_sequence)
    if len(flat) != len(leaves):
        raise ValueError(
            f"Could not pack sequence. Structure had {len(leaves)} atoms, but flat_sequence had "
            f"{len(flat)} items."
        )
    return tree_util.tree_unflatten(treedef, flat)


def assert_same_structure(nest1: Any, nest2: Any, check_types: bool = True, expand_composites: bool = False) -> None:
    """Raises ``ValueError`` unless both structures nest alike, as ``tf.nest.assert_same_structure``."""
    la, a = tree_util.tree_flatten(nest1, is_leaf=_is_leaf)
    lb, b = tree_util.tree_flatten(nest2, is_leaf=_is_leaf)
    if len(la) != len(lb) or (check_types and str(a) != str(b)):
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: {nest1}"
                         f"\n\nSecond structure: {nest2}")


def map_structure(func: Callable[..., Any], *structure: Any, **kwargs: Any) -> Any:
    """``func`` applied leaf-wise over structures that nest alike, as ``tf.nest.map_structure``."""
    if not structure:
        raise ValueError("Must provide at least one structure")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=kwargs.get("check_types", True))
    return tree_util.tree_map(func, *structure, is_leaf=_is_leaf)


def is_nested(seq: Any) -> bool:
    """Whether ``seq`` is a list, tuple, namedtuple or dict, as ``tf.nest.is_nested``."""
    return isinstance(seq, list | tuple | dict)
