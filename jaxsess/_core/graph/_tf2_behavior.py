"""Whether TF2 behaviour is on, as TF's ``tensorflow/python/tf2.py``.

``tf.compat.v1.disable_v2_behavior()`` turns it off (TF1 behaviour): Keras and
``tf.layers`` then draw their default initializers as TF1 did, from the
graph's seeded op seeds (see :func:`jaxsess._tf1.ops.random_ops.fresh_seeds`).
``enable_v2_behavior()`` turns it back on. The default is on, as TF 2.x.
"""

from __future__ import annotations

__all__ = ["enabled", "enable", "disable", "control_flow_v2_enabled", "enable_control_flow_v2",
           "disable_control_flow_v2"]

_ENABLED = [True]
# TF's control flow v2 (``cond``/``while_loop`` bodies built as functions, each counting its own op
# seeds); TF1's control flow (off) builds them in the graph itself.
_CONTROL_FLOW_V2 = [True]


def enabled() -> bool:
    """Whether TF2 behaviour is on (``False`` after ``disable_v2_behavior()``)."""
    return _ENABLED[0]


def enable() -> None:
    """Turns TF2 behaviour on, as ``enable_v2_behavior`` does."""
    _ENABLED[0] = True


def disable() -> None:
    """Turns TF2 behaviour off, as ``disable_v2_behavior`` does."""
    _ENABLED[0] = False


def control_flow_v2_enabled() -> bool:
    """Whether control flow v2 is on, as ``tf.compat.v1.control_flow_v2_enabled``
    (on by default; ``disable_v2_behavior()`` turns it off)."""
    return _CONTROL_FLOW_V2[0]


def enable_control_flow_v2() -> None:
    """Turns control flow v2 on, as ``tf.compat.v1.enable_control_flow_v2``."""
    _CONTROL_FLOW_V2[0] = True


def disable_control_flow_v2() -> None:
    """Turns control flow v2 off, as ``tf.compat.v1.disable_control_flow_v2``."""
    _CONTROL_FLOW_V2[0] = False
