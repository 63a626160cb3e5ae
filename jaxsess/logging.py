"""``tf.logging``: TF1's logging functions, forwarding to Python's :mod:`logging`.

Re-exports :mod:`jaxsess._tf1.logging`.
"""

from jaxsess._tf1.logging import *  # noqa: F403
