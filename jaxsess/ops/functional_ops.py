"""Functional control flow, as ``tf.compat.v1.scan`` / ``map_fn`` / ``foldl`` /
``foldr``, and ``tf.einsum``.

Re-exports :mod:`jaxsess._tf1.ops.functional_ops`.
"""

from jaxsess._tf1.ops.functional_ops import *  # noqa: F403
