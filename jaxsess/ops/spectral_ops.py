"""Complex numbers, FFTs and the framing/windowing of ``tf.signal``, as
``tf.compat.v1`` (``tf.fft``, ``tf.spectral.*``, ``tf.signal.*``).

Re-exports :mod:`jaxsess._tf1.ops.spectral_ops`.
"""

from jaxsess._tf1.ops.spectral_ops import *  # noqa: F403
