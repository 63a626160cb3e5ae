"""Gradient clipping, as ``tf.clip_by_norm``, ``tf.clip_by_global_norm`` and
``tf.linalg.global_norm`` (``tf.clip_by_value`` lives in :mod:`jaxsess._tf1.ops.math_ops`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxsess._core.graph._builder import convert_to_tensor, identity
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops, nn_ops as nn_ops
from jaxsess._tf1.ops._args import op_scope

__all__ = ["clip_by_norm", "global_norm", "clip_by_global_norm"]


def clip_by_norm(t: Any, clip_norm: Any, axes: Any = None, name: str | None = None) -> Any:
    """``t * clip_norm / max(l2norm(t), clip_norm)``, as ``tf.clip_by_norm``.

    Args:
      t: a floating tensor.
      clip_norm: a positive scalar.
      axes: the axes the L2 norm is taken over (default: all).

    Returns:
      ``t``'s shape and dtype; ``t`` unchanged where its norm is at most
      ``clip_norm`` (a zero norm gives ``t``, not NaN, as TF).
    """
    with op_scope(name, "clip_by_norm", [t, clip_norm]) as scope:
        t = convert_to_tensor(t, name="t")
        l2sum = math_ops.reduce_sum(math_ops.multiply(t, t), axes, keepdims=True)
        pred = math_ops.greater(l2sum, 0.0)
        l2sum_safe = math_ops.where(pred, l2sum, array_ops.ones_like(l2sum))
        l2norm = math_ops.where(pred, math_ops.sqrt(l2sum_safe), l2sum)
        cn = convert_to_tensor(clip_norm, dtype=t.dtype)
        intermediate = math_ops.multiply(t, cn)
        return identity(math_ops.truediv(intermediate, math_ops.maximum(l2norm, cn)), name=scope)


def global_norm(t_list: Sequence[Any], name: str | None = None) -> Any:
    """``sqrt(sum(l2norm(t) ** 2 for t in t_list))``, as ``tf.linalg.global_norm``.

    ``None`` entries are ignored.

    Raises:
      TypeError: ``t_list`` is not a sequence.
    """
    if not isinstance(t_list, Sequence) or isinstance(t_list, str):
        raise TypeError(f"t_list should be a sequence, got {type(t_list).__name__}.")
    values = [convert_to_tensor(t) for t in t_list if t is not None]
    with op_scope(name, "global_norm", values) as scope:
        half = [nn_ops.l2_loss(v) for v in values]
        half_sq = math_ops.reduce_sum(array_ops.stack(half))
        return math_ops.sqrt(math_ops.multiply(half_sq, 2.0), name=None if scope is None else "global_norm")


def clip_by_global_norm(t_list: Sequence[Any], clip_norm: Any, use_norm: Any = None,
                        name: str | None = None) -> tuple[list[Any], Any]:
    """Scales every tensor by ``clip_norm / max(global_norm, clip_norm)``, as
    ``tf.clip_by_global_norm``.

    Args:
      t_list: tensors (``None`` entries stay ``None``).
      clip_norm: a positive scalar.
      use_norm: the global norm to use (default: computed by
        :func:`global_norm`).

    Returns:
      ``(clipped_list, global_norm)``; an infinite global norm gives NaN
      tensors, as TF.

    Raises:
      TypeError: ``t_list`` is not a sequence.
    """
    if not isinstance(t_list, Sequence) or isinstance(t_list, str):
        raise TypeError(f"t_list should be a sequence, got {type(t_list).__name__}.")
    t_list = list(t_list)
    # as TF: the norm in its own scope (`global_norm/global_norm`, or `<name>/global_norm`), then the
    # clipping in `clip_by_global_norm` (or a uniquified `<name>`), its outputs `<scope>/<scope>_<i>`
    norm = global_norm(t_list, name) if use_norm is None else convert_to_tensor(use_norm)
    with op_scope(name, "clip_by_global_norm", [t for t in t_list if t is not None]) as scope:
        cn = convert_to_tensor(clip_norm, dtype=norm.dtype)
        scale = math_ops.multiply(cn, math_ops.minimum(math_ops.truediv(1.0, norm), math_ops.truediv(1.0, cn)))
        out: list[Any] = []
        for t in t_list:
            if t is None:
                out.append(None)
                continue
            t = convert_to_tensor(t)
            s = scale if t.dtype == scale.dtype else math_ops.cast(scale, t.dtype)
            out.append(identity(math_ops.multiply(t, s), name=None if scope is None else f"{scope}_{len(out)}"))
        return out, norm
