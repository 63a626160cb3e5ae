"""``tf.debugging`` (TF1 names): run-time checks, aliases of :mod:`jaxsess._tf1.ops.check_ops`.

Re-exports :mod:`jaxsess._tf1.debugging`.
"""

from jaxsess._tf1.debugging import *  # noqa: F403
