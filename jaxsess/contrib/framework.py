"""``jaxsess.contrib.framework``: ``arg_scope`` and the variable helpers of
``tf.contrib.framework`` (TF 1.x; today's ``tf_slim``), with tf-slim's semantics.

Re-exports :mod:`jaxsess._tf1.contrib.framework`.
"""

from jaxsess._tf1.contrib.framework import *  # noqa: F403
