"""``tf.app``: ``run`` and ``flags``, as ``tf.compat.v1.app`` (on :mod:`absl.app`).

Re-exports :mod:`jaxsess._tf1.app`.
"""

from jaxsess._tf1.app import *  # noqa: F403
