"""``jaxsess.keras.initializers``: initializers by name, as ``tf.keras.initializers``
(Keras 2 defaults: ``RandomNormal``/``RandomUniform``/``TruncatedNormal`` have
scale 0.05). The math is :mod:`jaxsess._tf1.ops.init_ops`'.

Re-exports :mod:`jaxsess._tf1.keras.initializers`.
"""

from jaxsess._tf1.keras.initializers import *  # noqa: F403
