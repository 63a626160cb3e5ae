"""``jaxsess._tf1.keras.regularizers``: weight penalties, as ``tf.keras.regularizers`` (Keras 2).

A layer's regularizer loss lands in ``layer.losses`` (and ``model.losses``,
which ``compile`` adds to the total loss), not in
``GraphKeys.REGULARIZATION_LOSSES``: as TF's Keras in graph mode.
"""

from __future__ import annotations

from typing import Any

from jaxsess._tf1.ops import math_ops as _math

__all__ = ["Regularizer", "L1L2", "L1", "L2", "l1", "l2", "l1_l2", "get"]


class Regularizer:
    """``fn(weight) -> scalar loss``."""

    def __call__(self, x: Any) -> Any:
        return 0.0

    def get_config(self) -> dict[str, Any]:
        return {}


class L1L2(Regularizer):
    """``l1 * sum(|x|) + l2 * sum(x^2)``, as ``tf.keras.regularizers.L1L2``."""

    def __init__(self, l1: float = 0.0, l2: float = 0.0) -> None:
        self.l1 = float(l1)
        self.l2 = float(l2)

    def __call__(self, x: Any) -> Any:
        loss: Any = None
        if self.l1:
            loss = _math.multiply(self.l1, _math.reduce_sum(_math.abs(x)))
        if self.l2:
            sq = _math.multiply(self.l2, _math.reduce_sum(_math.square(x)))
            loss = sq if loss is None else _math.add(loss, sq)
        return _math.cast(0.0, x.dtype) if loss is None else loss

    def get_config(self) -> dict[str, Any]:
        return {"l1": self.l1, "l2": self.l2}


def l1(l1: float = 0.01) -> L1L2:  # noqa: E741 - Keras' name
    """``l1 * sum(|x|)`` (default 0.01, as Keras 2)."""
    return L1L2(l1=l1)


def l2(l2: float = 0.01) -> L1L2:
    """``l2 * sum(x^2)`` (default 0.01, as Keras 2)."""
    return L1L2(l2=l2)


def l1_l2(l1: float = 0.01, l2: float = 0.01) -> L1L2:
    return L1L2(l1=l1, l2=l2)


L1 = l1
L2 = l2


def get(identifier: Any) -> Any:
    """A regularizer from ``None``, a callable, or a name (``'l2'``).

    Raises:
      ValueError: an unknown name.
    """
    if identifier is None or callable(identifier):
        return identifier
    table = {"l1": l1, "l2": l2, "l1_l2": l1_l2}
    if isinstance(identifier, str) and identifier in table:
        return table[identifier]()
    raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}")
