"""TF1's error classes (as ``tf.compat.v1.errors``).

Re-exports :mod:`jaxsess._core.errors`.
"""

from jaxsess._core.errors import *  # noqa: F403
