"""Whether TF2 behaviour is on, as TF's ``tensorflow/python/tf2.py``.

``tf.compat.v1.disable_v2_behavior()`` turns it off (TF1 behaviour): Keras and
``tf.layers`` then draw their default initializers as TF1 did, from the
graph's seeded op seeds (see :func:`jaxsess.ops.random_ops.fresh_seeds`).
``enable_v2_behavior()`` turns it back on. The default is on, as TF 2.x.
"""

from __future__ import annotations

__all__ = ["enabled", "enable", "disable"]

_ENABLED = [True]


def enabled() -> bool:
    """Whether TF2 behaviour is on (``False`` after ``disable_v2_behavior()``)."""
    return _ENABLED[0]


def enable() -> None:
    """Turns TF2 behaviour on, as ``enable_v2_behavior`` does."""
    _ENABLED[0] = True


def disable() -> None:
    """Turns TF2 behaviour off, as ``disable_v2_behavior`` does."""
    _ENABLED[0] = False
