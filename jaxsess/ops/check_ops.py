"""Run-time checks, as TF1's ``tf.Assert``, ``tf.assert_*`` (``tf.debugging``),
``tf.check_numerics`` and ``tf.verify_tensor_all_finite``.

Re-exports :mod:`jaxsess._tf1.ops.check_ops`.
"""

from jaxsess._tf1.ops.check_ops import *  # noqa: F403
