"""Lookup tables, as TF1's ``tf.lookup`` / ``tf.contrib.lookup``.

Re-exports :mod:`jaxsess._tf1.ops.lookup_ops`.
"""

from jaxsess._tf1.ops.lookup_ops import *  # noqa: F403
