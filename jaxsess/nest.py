"""``tf.nest``: nested structures of tensors, as ``tf.nest`` (TF 1.14+).

Re-exports :mod:`jaxsess._tf1.nest`.
"""

from jaxsess._tf1.nest import *  # noqa: F403
