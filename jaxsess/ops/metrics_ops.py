"""Streaming metrics, as TF1's ``tf.compat.v1.metrics`` (``metrics_impl.py``).

Re-exports :mod:`jaxsess._tf1.ops.metrics_ops`.
"""

from jaxsess._tf1.ops.metrics_ops import *  # noqa: F403
