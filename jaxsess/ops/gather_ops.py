"""Indexing ops, as ``tf.compat.v1``: gather, gather_nd, one_hot.

Re-exports :mod:`jaxsess._tf1.ops.gather_ops`.
"""

from jaxsess._tf1.ops.gather_ops import *  # noqa: F403
