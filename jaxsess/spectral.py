"""``jaxsess.spectral``: the FFTs, as ``tf.compat.v1.spectral``.

Only re-exports; the ops live in :mod:`jaxsess._tf1.ops.spectral_ops`.
"""

from jaxsess._tf1.ops.signal_ops import dct as dct, idct as idct
from jaxsess._tf1.ops.spectral_ops import (
    fft as fft,
    fft2d as fft2d,
    fft3d as fft3d,
    ifft as ifft,
    ifft2d as ifft2d,
    ifft3d as ifft3d,
    irfft as irfft,
    irfft2d as irfft2d,
    irfft3d as irfft3d,
    rfft as rfft,
    rfft2d as rfft2d,
    rfft3d as rfft3d,
)
