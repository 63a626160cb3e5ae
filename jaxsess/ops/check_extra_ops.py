"""More checks of ``tf.compat.v1`` / ``tf.debugging``: ``assert_near``,
``assert_rank_in``, ``assert_same_float_dtype``, ``assert_proper_iterable``,
``assert_all_finite``, ``assert_shapes`` and ``is_numeric_tensor``.

Re-exports :mod:`jaxsess._tf1.ops.check_extra_ops`.
"""

from jaxsess._tf1.ops.check_extra_ops import *  # noqa: F403
