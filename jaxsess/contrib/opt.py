"""``tf.contrib.opt`` (TF 1.x): ``LazyAdamOptimizer``.

Re-exports :mod:`jaxsess._tf1.contrib.opt`.
"""

from jaxsess._tf1.contrib.opt import *  # noqa: F403
