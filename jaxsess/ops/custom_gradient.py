"""Customised gradients, as TF1: ``tf.RegisterGradient`` with
``Graph.gradient_override_map``, ``tf.NotDifferentiable`` and
``tf.custom_gradient``.

Re-exports :mod:`jaxsess._tf1.ops.custom_gradient`.
"""

from jaxsess._tf1.ops.custom_gradient import *  # noqa: F403
