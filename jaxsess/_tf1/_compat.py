"""The switches TF2 programs call to get TF1 behaviour, and ``newaxis``.

jaxsess always builds graphs outside an ``EagerSession`` (TF1's graph mode),
so the calls TF2 users add to get TF1 behaviour change nothing here, and the
call that would turn TF2's eager execution on refuses clearly.
"""

from __future__ import annotations

from jaxsess._core.graph import _tf2_behavior as _tf2
from jaxsess._core.graph._shape import disable_v2_tensorshape, enable_v2_tensorshape
from jaxsess._tf1.ops.state_ops import disable_resource_variables, enable_resource_variables

__all__ = [
    "control_flow_v2_enabled",
    "disable_control_flow_v2",
    "disable_tensor_equality",
    "disable_v2_tensorshape",
    "enable_control_flow_v2",
    "enable_tensor_equality",
    "enable_v2_tensorshape",
    "executing_eagerly_outside_functions",
    "disable_eager_execution",
    "disable_v2_behavior",
    "enable_eager_execution",
    "enable_v2_behavior",
    "newaxis",
]

newaxis = None
"""``tensor[newaxis]`` inserts a dimension of size 1, as ``tf.newaxis`` (``None``)."""

_NO_EAGER = (
    "jaxsess runs TF1 graph mode (as tf.compat.v1 with eager execution disabled): "
    "TF2 eager execution is not emulated, so enable_eager_execution() cannot turn it on. "
    "Remove the call to build and run graphs with tf.Session, or run ops eagerly inside "
    "`with jaxsess.EagerSession():` (each op returns a session-owned jax.Array)."
)


def disable_eager_execution() -> None:
    """No-op, as ``tf.compat.v1.disable_eager_execution``: op functions build
    graph nodes unless inside an ``EagerSession``."""


def disable_v2_behavior() -> None:
    """TF1 behaviour, as ``tf.compat.v1.disable_v2_behavior``: jaxsess builds
    graphs anyway; this turns on v1 shape behaviour (``shape[i]`` is a
    ``Dimension``, see :func:`disable_v2_tensorshape`), and ``tf.layers``,
    Keras layers and RNN cells draw their default initializers from the
    graph's op seeds, as TF1 (with a graph seed, TF's values); new variables
    are reference variables (:func:`disable_resource_variables`: a fetched
    variable gives its value at the end of the run, as TF's ``RefVariable``;
    Keras' weights stay resource variables, as in TF)."""
    _tf2.disable()
    _tf2.disable_control_flow_v2()
    disable_v2_tensorshape()
    disable_resource_variables()


def enable_v2_behavior() -> None:
    """Turns v2 shape behaviour, TF2's default initializers, control flow v2
    and resource variables back on (``shape[i]`` an ``int``), as
    ``tf.compat.v1.enable_v2_behavior`` does; eager execution stays off."""
    _tf2.enable()
    _tf2.enable_control_flow_v2()
    enable_v2_tensorshape()
    enable_resource_variables()


def executing_eagerly_outside_functions() -> bool:
    """``False``: graphs are built, as ``tf.compat.v1.executing_eagerly_outside_functions`` in graph mode."""
    return False


control_flow_v2_enabled = _tf2.control_flow_v2_enabled
"""Whether control flow v2 is on, as ``tf.compat.v1.control_flow_v2_enabled``: on by default (as TF 2
with eager execution disabled), off after ``disable_v2_behavior()``. jaxsess lowers ``cond`` and
``while_loop`` to XLA control flow either way; the switch decides how random ops in their bodies count
op seeds (see :func:`jaxsess._tf1.ops.random_ops.function_seeds`)."""

enable_control_flow_v2 = _tf2.enable_control_flow_v2
disable_control_flow_v2 = _tf2.disable_control_flow_v2


def enable_tensor_equality() -> None:
    """No-op: tensors hash by identity and ``==`` is not elementwise, as TF1."""


def disable_tensor_equality() -> None:
    """No-op: tensors hash by identity and ``==`` is not elementwise, as TF1."""


def enable_eager_execution(config: object = None, device_policy: object = None, execution_mode: object = None) -> None:
    """Refuses, unlike ``tf.compat.v1.enable_eager_execution``: jaxsess runs TF1 graph mode.

    Raises:
      ValueError: always (TF raises ``ValueError`` too when it cannot switch);
        the message names the alternatives (graphs with ``Session``, or
        ``jaxsess.EagerSession`` for eager ops).
    """
    raise ValueError(_NO_EAGER)
