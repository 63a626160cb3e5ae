"""Composite nn and math functions, as TF's ``nn_impl.py``, ``sort_ops.py`` and friends.

Re-exports :mod:`jaxsess._tf1.ops.nn_impl`.
"""

from jaxsess._tf1.ops.nn_impl import *  # noqa: F403
