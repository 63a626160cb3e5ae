"""Normalization ops, as ``tf.compat.v1.nn``: ``batch_normalization``,
``fused_batch_norm`` and ``local_response_normalization`` (``lrn``).

Re-exports :mod:`jaxsess._tf1.ops.normalization`.
"""

from jaxsess._tf1.ops.normalization import *  # noqa: F403
