"""Small data sets shipped with jaxsess, for examples, notebooks and tests.

Re-exports :mod:`jaxsess._tf1.datasets`.
"""

from jaxsess._tf1.datasets import *  # noqa: F403
