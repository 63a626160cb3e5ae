"""The speech and audio part of ``tf.signal``, as ``tf.compat.v1.signal``: DCTs, MFCCs,
the mel filterbank, ``overlap_and_add``, ``inverse_stft``, the MDCT, more windows and
``fftshift``.

Re-exports :mod:`jaxsess._tf1.ops.signal_ops`.
"""

from jaxsess._tf1.ops.signal_ops import *  # noqa: F403
