"""CTC loss with sparse labels, as ``tf.compat.v1.nn.ctc_loss``, on ``optax.ctc_loss``.

Re-exports :mod:`jaxsess._tf1.ops.ctc_ops`.
"""

from jaxsess._tf1.ops.ctc_ops import *  # noqa: F403
