"""Image ops, as ``tf.compat.v1.image``: resizing, flips, crops and pads,
dtype conversion, standardisation, grayscale, brightness.

Re-exports :mod:`jaxsess._tf1.ops.image_ops`.
"""

from jaxsess._tf1.ops.image_ops import *  # noqa: F403
