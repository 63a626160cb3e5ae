"""Convolutions beyond ``conv2d``, as ``tf.compat.v1.nn``: ``conv2d_transpose``,
``conv1d``, ``depthwise_conv2d`` and ``separable_conv2d``.

Re-exports :mod:`jaxsess._tf1.ops.conv_ops`.
"""

from jaxsess._tf1.ops.conv_ops import *  # noqa: F403
