"""Printing at run time, as ``tf.compat.v1.Print`` and ``tf.print``.

Re-exports :mod:`jaxsess._tf1.ops.logging_ops`.
"""

from jaxsess._tf1.ops.logging_ops import *  # noqa: F403
