"""``tf.config`` (as ``tf.compat.v1.config``): the devices JAX sees, in TF's words.

Re-exports :mod:`jaxsess._tf1.config`.
"""

from jaxsess._tf1.config import *  # noqa: F403
