"""Gradient clipping, as ``tf.clip_by_norm``, ``tf.clip_by_global_norm`` and
``tf.linalg.global_norm`` (``tf.clip_by_value`` lives in :mod:`jaxsess._tf1.ops.math_ops`).

Re-exports :mod:`jaxsess._tf1.ops.clip_ops`.
"""

from jaxsess._tf1.ops.clip_ops import *  # noqa: F403
