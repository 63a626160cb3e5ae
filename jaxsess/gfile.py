"""File access on local paths, as ``tf.compat.v1.gfile`` / ``tf.io.gfile``.

Re-exports :mod:`jaxsess._tf1.gfile`.
"""

from jaxsess._tf1.gfile import *  # noqa: F403
