"""``jaxsess.signal``: FFTs, windows, frames and the STFT, as ``tf.compat.v1.signal``.

Only re-exports; the ops live in :mod:`jaxsess._tf1.ops.spectral_ops`.
"""

from jaxsess._tf1.ops.signal_ops import (
    dct as dct,
    fftshift as fftshift,
    idct as idct,
    ifftshift as ifftshift,
    inverse_mdct as inverse_mdct,
    inverse_stft as inverse_stft,
    inverse_stft_window_fn as inverse_stft_window_fn,
    kaiser_bessel_derived_window as kaiser_bessel_derived_window,
    kaiser_window as kaiser_window,
    linear_to_mel_weight_matrix as linear_to_mel_weight_matrix,
    mdct as mdct,
    mfccs_from_log_mel_spectrograms as mfccs_from_log_mel_spectrograms,
    overlap_and_add as overlap_and_add,
    vorbis_window as vorbis_window,
)
from jaxsess._tf1.ops.spectral_ops import (
    fft as fft,
    fft2d as fft2d,
    fft3d as fft3d,
    frame as frame,
    hamming_window as hamming_window,
    hann_window as hann_window,
    ifft as ifft,
    ifft2d as ifft2d,
    ifft3d as ifft3d,
    irfft as irfft,
    irfft2d as irfft2d,
    irfft3d as irfft3d,
    rfft as rfft,
    rfft2d as rfft2d,
    rfft3d as rfft3d,
    stft as stft,
)
