"""The speech and audio part of ``tf.signal``, as ``tf.compat.v1.signal``: DCTs, MFCCs,
the mel filterbank, ``overlap_and_add``, ``inverse_stft``, the MDCT, more windows and
``fftshift``.

Formulas follow TF's Python (``tensorflow/python/ops/signal/*.py``), computed in the
input's dtype: ``dct`` is TF's ``rfft``-based algorithm, ``overlap_and_add`` TF's
reshape-and-sum, so values agree with TF to float rounding. Lengths (``frame_length``,
``frame_step``, ``window_length``, ``n``) and ``sample_rate`` must be known when the
graph is built. Gradients are JAX's.
"""

from __future__ import annotations

import math as _pymath
from typing import Any

import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, constant, convert_to_tensor
from jaxsess._core.graph._registry import register_op
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops
from jaxsess._tf1.ops._args import label, op_scope, static, static_int, tensor_dtype
from jaxsess._tf1.ops.indexing_ops import roll
from jaxsess._tf1.ops.linalg_ops import _dims
from jaxsess._tf1.ops.spectral_ops import frame, hann_window, irfft

__all__ = [
    "dct", "idct", "mfccs_from_log_mel_spectrograms", "linear_to_mel_weight_matrix", "overlap_and_add",
    "inverse_stft", "inverse_stft_window_fn", "mdct", "inverse_mdct", "kaiser_window",
    "kaiser_bessel_derived_window", "vorbis_window", "fftshift", "ifftshift",
]


# -- DCT ----------------------------------------------------------------------------------


def _dct_impl(x: Any, dct_type: int, norm: str | None) -> Any:
    """TF's ``_dct_internal`` on the innermost axis of ``x`` (after ``n``'s crop/pad)."""
    m = x.shape[-1]
    real = x.dtype
    k = jnp.arange(m, dtype=real)
    if dct_type == 1:
        ext = jnp.concatenate([x, x[..., -2:0:-1]], axis=-1)
        return jnp.real(jnp.fft.rfft(ext))
    if dct_type == 2:
        scale = 2.0 * jnp.exp(jnp.asarray(-1j, jnp.result_type(real, jnp.complex64)) * (k * (_pymath.pi * 0.5 / m)))
        out = jnp.real(jnp.fft.rfft(x, n=2 * m)[..., :m] * scale)
        if norm == "ortho":
            n1 = 0.5 / jnp.sqrt(jnp.asarray(m, real))
            weights = jnp.full((m,), n1 * _pymath.sqrt(2.0), real).at[0].set(n1)
            out = out * weights
        return out.astype(real)
    if dct_type == 3:
        if norm == "ortho":
            n1 = jnp.sqrt(jnp.asarray(m, real))
            x = x * jnp.full((m,), n1 * _pymath.sqrt(0.5), real).at[0].set(n1)
        else:
            x = x * jnp.asarray(m, real)
        scale = 2.0 * jnp.exp(jnp.asarray(1j, jnp.result_type(real, jnp.complex64)) * (k * (_pymath.pi * 0.5 / m)))
        return jnp.real(jnp.fft.irfft(scale * x, n=2 * m))[..., :m].astype(real)
    # type 4: the odd outputs of a type-2 DCT of twice the length (zero-padded)
    padded = jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, m)])
    out = _dct_impl(padded, 2, None)[..., 1::2]
    if norm == "ortho":
        out = out * (_pymath.sqrt(0.5) / jnp.sqrt(jnp.asarray(m, real)))
    return out.astype(real)


@register_op("DCT", default_name="dct")
def _dct(x: Any, *, dct_type: int, n: int, norm: str | None) -> Any:
    m = x.shape[-1]
    if n > 0 and n != m:
        x = x[..., :n] if n < m else jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, n - m)])
    return _dct_impl(x, dct_type, norm)


def _dct_op(fn: str, input: Any, dct_type: int, n: Any, axis: int, norm: str | None, name: str | None) -> Any:
    with op_scope(name, "dct", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        if axis != -1:
            raise NotImplementedError(f"axis must be -1. Got: {axis}")
        if n is not None and int(n) < 1:
            raise ValueError("n should be a positive integer or None")
        if dct_type not in (1, 2, 3, 4):
            raise ValueError("Types I, II, III and IV (I)DCT are supported.")
        dims = _dims(x)
        if dct_type == 1:
            if norm == "ortho":
                raise ValueError("Normalization is not supported for the Type-I DCT.")
            if dims and dims[-1] is not None and dims[-1] < 2:
                raise ValueError("Type-I DCT requires the dimension to be greater than one.")
        if norm not in (None, "ortho"):
            raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
        if not tensor_dtype(x).is_floating:
            raise ValueError(f"{fn}: input must be float32 or float64, got {tensor_dtype(x).name} ({label(x)}).")
        if not dims or dims[-1] is None:
            raise ValueError(f"{fn}: the innermost dimension of {label(x)} must be known, got shape {dims}.")
        return apply_op("DCT", (x,), {"dct_type": int(dct_type), "n": 0 if n is None else int(n), "norm": norm},
                        name=scope)


def dct(input: Any, type: int = 2, n: int | None = None, axis: int = -1,  # noqa: A002
        norm: str | None = None, name: str | None = None) -> Any:
    """The discrete cosine transform (types I-IV) of the innermost axis, as ``tf.signal.dct``
    (``tf.spectral.dct``).

    Args:
      input: float32/float64 ``[..., samples]`` (``samples`` known at build time).
      type: 1, 2, 3 or 4 (scipy's definitions).
      n: crop or zero-pad the innermost axis to ``n`` first (default: keep).
      axis: must be ``-1``.
      norm: ``None`` or ``'ortho'`` (not for type 1).

    Returns:
      ``[..., n or samples]`` of ``input``'s dtype.

    Raises:
      ValueError: a bad ``type``/``n``/``norm``, a type-1 axis shorter than 2.
      NotImplementedError: ``axis != -1``.
    """
    return _dct_op("dct", input, type, n, axis, norm, name)


def idct(input: Any, type: int = 2, n: int | None = None, axis: int = -1,  # noqa: A002
         norm: str | None = None, name: str | None = None) -> Any:
    """The inverse DCT, as ``tf.signal.idct``: a DCT of type ``{1: 1, 2: 3, 3: 2, 4: 4}[type]``
    (unnormalised unless ``norm='ortho'``, as TF and scipy)."""
    if type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    return _dct_op("idct", input, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, axis, norm, name)


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms: Any, name: str | None = None) -> Any:
    """MFCCs of ``[..., num_mel_bins]`` log-magnitude mel spectrograms, as
    ``tf.signal.mfccs_from_log_mel_spectrograms``: a type-2 DCT scaled by
    ``1 / sqrt(2 * num_mel_bins)`` (HTK's), of the input's shape and dtype.

    Raises:
      ValueError: ``num_mel_bins`` is 0 or unknown at build time.
    """
    with op_scope(name, "mfccs_from_log_mel_spectrograms", [log_mel_spectrograms]):
        x = convert_to_tensor(log_mel_spectrograms)
        dims = _dims(x)
        if dims and dims[-1] == 0:
            raise ValueError(f"num_mel_bins must be positive. Got: {x}")
        dct2 = dct(x, type=2)
        bins = dims[-1] if dims else None
        if bins is None:
            raise ValueError(f"mfccs_from_log_mel_spectrograms: num_mel_bins of {label(x)} must be known.")
        return math_ops.multiply(dct2, math_ops.rsqrt(constant(float(bins) * 2.0, dtype=tensor_dtype(dct2))))


# -- the mel filterbank --------------------------------------------------------------------

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(hz: np.ndarray) -> np.ndarray:
    d = hz.dtype.type
    return d(_MEL_HIGH_FREQUENCY_Q) * np.log(d(1.0) + hz / d(_MEL_BREAK_FREQUENCY_HERTZ))


def _linspace(start: Any, stop: Any, num: int) -> np.ndarray:
    """TF's ``LinSpace`` kernel in ``start``'s dtype: ``start + i * step``, the last value exact."""
    d = np.asarray(start).dtype.type
    if num == 1:
        return np.asarray([start], dtype=d)
    step = d((d(stop) - d(start)) / d(num - 1))
    out = (d(start) + np.arange(num).astype(d) * step).astype(d)
    out[-1] = d(stop)
    return out


def linear_to_mel_weight_matrix(num_mel_bins: int = 20, num_spectrogram_bins: int = 129, sample_rate: Any = 8000,
                                lower_edge_hertz: float = 125.0, upper_edge_hertz: float = 3800.0,
                                dtype: Any = _dtypes.float32, name: str | None = None) -> Any:
    """The ``[num_spectrogram_bins, num_mel_bins]`` matrix that maps linear-frequency
    magnitude bins (``stft`` output, 0 Hz to Nyquist) to triangular mel bands (HTK's mel
    scale), as ``tf.signal.linear_to_mel_weight_matrix``; row 0 (DC) is zero.

    Args:
      sample_rate: samples per second (Hz) of the signal, known at build time.
      lower_edge_hertz, upper_edge_hertz: the band edges (Hz).
      dtype: a floating dtype.

    Returns:
      A constant tensor of ``dtype``.

    Raises:
      ValueError: ``num_mel_bins <= 0``, ``lower_edge_hertz < 0`` or
        ``>= upper_edge_hertz``, ``sample_rate <= 0``, ``upper_edge_hertz`` above
        Nyquist, a non-floating ``dtype`` (TF's messages).
    """
    d = _dtypes.as_dtype(dtype)
    with op_scope(name, "linear_to_mel_weight_matrix") as scope:
        rate = float(np.asarray(static(sample_rate, "linear_to_mel_weight_matrix", "sample_rate")))
        if num_mel_bins <= 0:
            raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
        if lower_edge_hertz < 0.0:
            raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
        if lower_edge_hertz >= upper_edge_hertz:
            raise ValueError(f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz {upper_edge_hertz:.1f}")
        if rate <= 0.0:
            raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
        if upper_edge_hertz > rate / 2:
            raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). "
                             f"Got {upper_edge_hertz} for sample_rate: {sample_rate}")
        if not d.is_floating:
            raise ValueError(f"dtype must be a floating point type. Got: {d}")
        t = d.np_dtype.type
        linear = _linspace(t(0.0), t(rate) / t(2.0), int(num_spectrogram_bins))[1:]
        bins_mel = _hertz_to_mel(linear)[:, None]
        edges = _linspace(_hertz_to_mel(np.asarray(lower_edge_hertz, d.np_dtype)),
                          _hertz_to_mel(np.asarray(upper_edge_hertz, d.np_dtype)), int(num_mel_bins) + 2)
        lower, center, upper = edges[None, :-2], edges[None, 1:-1], edges[None, 2:]
        with np.errstate(divide="ignore", invalid="ignore"):
            lower_slopes = (bins_mel - lower) / (center - lower)
            upper_slopes = (upper - bins_mel) / (upper - center)
            weights = np.maximum(t(0.0), np.minimum(lower_slopes, upper_slopes))
        value = np.pad(weights, [[1, 0], [0, 0]]).astype(d.np_dtype)
        return constant(value, dtype=d, name=scope or "Const")


# -- overlap-add and the inverse STFT ---------------------------------------------------------


@register_op("OverlapAndAdd", default_name="overlap_and_add")
def _overlap_and_add(x: Any, *, frame_step: int) -> Any:
    """TF's reshape-and-sum: ``[..., frames, length]`` -> ``[..., length + step * (frames - 1)]``."""
    outer = x.shape[:-2]
    frames, length = x.shape[-2], x.shape[-1]
    step = frame_step
    out_len = length + step * (frames - 1)
    if step == length:
        return x.reshape(*outer, out_len)
    segments = -(-length // step)
    pads = [(0, 0)] * len(outer) + [(0, segments), (0, segments * step - length)]
    x = jnp.pad(x, pads).reshape(*outer, frames + segments, segments, step)
    r = len(outer)
    x = jnp.transpose(x, (*range(r), r + 1, r, r + 2)).reshape(*outer, (frames + segments) * segments, step)
    x = x[..., :(frames + segments - 1) * segments, :].reshape(*outer, segments, frames + segments - 1, step)
    return jnp.sum(x, axis=-3).reshape(*outer, (frames + segments - 1) * step)[..., :out_len]


def overlap_and_add(signal: Any, frame_step: Any, name: str | None = None) -> Any:
    """Frames ``[..., frames, frame_length]`` added back together at ``frame_step`` apart, as
    ``tf.signal.overlap_and_add``.

    Returns:
      ``[..., frame_length + frame_step * (frames - 1)]`` of ``signal``'s dtype.

    Raises:
      ValueError: ``signal`` of rank < 2, a non-integer ``frame_step``, or the
        frame axes or ``frame_step`` unknown at build time.
    """
    with op_scope(name, "overlap_and_add", [signal]) as scope:
        x = convert_to_tensor(signal, name="signal")
        dims = _dims(x)
        if dims is not None and len(dims) < 2:
            raise ValueError(f"Shape {list(dims)} must have rank at least 2")
        step_t = convert_to_tensor(frame_step, name="frame_step")
        if not tensor_dtype(step_t).is_integer:
            raise ValueError(f"frame_step must be an integer. Got {tensor_dtype(step_t)}")
        step = static_int(step_t, "overlap_and_add", "frame_step")
        if dims is None or dims[-1] is None or dims[-2] is None:
            raise ValueError(f"overlap_and_add: the frame axes of {label(x)} must be known, got shape {dims}.")
        if step < 1:
            raise ValueError(f"overlap_and_add: frame_step must be positive, got {step}.")
        return apply_op("OverlapAndAdd", (x,), {"frame_step": step}, name=scope)


@register_op("InverseStftWindow", default_name="inverse_stft_window_fn")
def _inverse_stft_window(window: Any, *, frame_step: int) -> Any:
    length = window.shape[0]
    overlaps = -(-length // frame_step)
    denom = jnp.pad(jnp.square(window), [(0, overlaps * frame_step - length)]).reshape(overlaps, frame_step)
    denom = jnp.tile(jnp.sum(denom, 0, keepdims=True), (overlaps, 1)).reshape(-1)[:length]
    return jnp.where(denom == 0.0, jnp.zeros_like(window), window / denom)


def inverse_stft_window_fn(frame_step: Any, forward_window_fn: Any = hann_window, name: str | None = None) -> Any:
    """A ``window_fn`` for :func:`inverse_stft` that inverts an STFT windowed by
    ``forward_window_fn`` with ``frame_step``, as ``tf.signal.inverse_stft_window_fn``
    (the forward window divided by the overlap-added squared window).

    Returns:
      ``fn(frame_length, dtype) -> [frame_length]`` window tensor.
    """
    step = static_int(frame_step, "inverse_stft_window_fn", "frame_step")

    def inverse_stft_window_fn_inner(frame_length: Any, dtype: Any) -> Any:
        with op_scope(name, "inverse_stft_window_fn") as scope:
            forward = forward_window_fn(frame_length, dtype=dtype)
            return apply_op("InverseStftWindow", (convert_to_tensor(forward),), {"frame_step": step}, name=scope)
    return inverse_stft_window_fn_inner


def inverse_stft(stfts: Any, frame_length: Any, frame_step: Any, fft_length: Any = None,
                 window_fn: Any = hann_window, name: str | None = None) -> Any:
    """The inverse of :func:`~jaxsess.signal.stft`: ``irfft`` of each frame, cropped or
    zero-padded to ``frame_length``, windowed and overlap-added, as ``tf.signal.inverse_stft``
    (pass ``window_fn=inverse_stft_window_fn(frame_step)`` for a perfect reconstruction).

    Args:
      stfts: complex64/complex128 ``[..., frames, fft_length // 2 + 1]``.
      frame_length, frame_step, fft_length: ints known at build time (``fft_length``
        default: the smallest power of 2 ``>= frame_length``).

    Returns:
      float32/float64 ``[..., frame_length + frame_step * (frames - 1)]``.
    """
    with op_scope(name, "inverse_stft", [stfts]):
        x = convert_to_tensor(stfts, name="stfts")
        dims = _dims(x)
        if dims is not None and len(dims) < 2:
            raise ValueError(f"Shape {list(dims)} must have rank at least 2")
        fl = static_int(frame_length, "inverse_stft", "frame_length")
        n = (1 << max(0, _pymath.ceil(_pymath.log2(fl)))) if fft_length is None else \
            static_int(fft_length, "inverse_stft", "fft_length")
        real_frames = irfft(x, [n])
        if n > fl:
            real_frames = real_frames[..., :fl]
        elif n < fl:
            rank = len(_dims(real_frames) or ())
            real_frames = array_ops.pad(real_frames, [[0, 0]] * (rank - 1) + [[0, fl - n]])
        if window_fn is not None:
            real_frames = math_ops.multiply(real_frames, window_fn(fl, dtype=tensor_dtype(real_frames)))
        return overlap_and_add(real_frames, frame_step)


# -- windows --------------------------------------------------------------------------------


def _window_length(fn: str, window_length: Any, dtype: Any) -> tuple[int, _dtypes.DType]:
    d = _dtypes.as_dtype(dtype)
    if not d.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {d}")
    return static_int(window_length, fn, "window_length"), d


def _kaiser(n: int, beta: float, d: _dtypes.DType) -> np.ndarray:
    if n == 1:
        return np.ones([1], d.np_dtype)
    half = np.float32((n - 1) / 2.0)
    arg = np.arange(-half, half + np.float32(0.1), dtype=np.float32).astype(np.float64)
    num = beta * np.sqrt(np.maximum(0.0, 1.0 - np.square(arg / float(half))))
    return (np.i0(num) / np.i0(beta)).astype(d.np_dtype)


def kaiser_window(window_length: Any, beta: float = 12.0, dtype: Any = _dtypes.float32,
                  name: str | None = None) -> Any:
    """A Kaiser window ``I0(beta sqrt(1 - (2k/(N-1) - 1)^2)) / I0(beta)``, as
    ``tf.signal.kaiser_window``; ``[window_length]`` of ``dtype`` (length known at build time)."""
    n, d = _window_length("kaiser_window", window_length, dtype)
    with op_scope(name, "kaiser_window") as scope:
        return constant(_kaiser(n, float(beta), d), dtype=d, name=scope or "Const")


def kaiser_bessel_derived_window(window_length: Any, beta: float = 12.0, dtype: Any = _dtypes.float32,
                                 name: str | None = None) -> Any:
    """A Kaiser-Bessel-derived window (for the MDCT), as
    ``tf.signal.kaiser_bessel_derived_window``; ``[window_length]`` of ``dtype``
    (``2 * (window_length // 2)`` values, as TF, for an odd length)."""
    n, d = _window_length("kaiser_bessel_derived_window", window_length, dtype)
    with op_scope(name, "kaiser_bessel_derived_window") as scope:
        csum = np.cumsum(_kaiser(n // 2 + 1, float(beta), _dtypes.float64))
        half = np.sqrt(csum[:-1] / csum[-1])
        return constant(np.concatenate([half, half[::-1]]).astype(d.np_dtype), dtype=d, name=scope or "Const")


def vorbis_window(window_length: Any, dtype: Any = _dtypes.float32, name: str | None = None) -> Any:
    """The Vorbis power-complementary window ``sin(pi/2 sin^2(pi (k + 0.5) / N))``, as
    ``tf.signal.vorbis_window``; ``[window_length]`` of ``dtype``."""
    n, d = _window_length("vorbis_window", window_length, dtype)
    with op_scope(name, "vorbis_window") as scope:
        k = np.arange(n, dtype=np.float64)
        value = np.sin(np.pi / 2.0 * np.square(np.sin(np.pi / n * (k + 0.5))))
        return constant(value.astype(d.np_dtype), dtype=d, name=scope or "Const")


# -- MDCT ------------------------------------------------------------------------------------


def mdct(signals: Any, frame_length: Any, window_fn: Any = vorbis_window, pad_end: bool = False,
         norm: str | None = None, name: str | None = None) -> Any:
    """The modified DCT of frames of ``frame_length`` (a multiple of 4) at half-overlap, as
    ``tf.signal.mdct``: ``[..., samples]`` -> ``[..., frames, frame_length // 2]``.

    Raises:
      ValueError: ``frame_length`` not a multiple of 4.
    """
    with op_scope(name, "mdct", [signals]):
        x = convert_to_tensor(signals, name="signals")
        fl = static_int(frame_length, "mdct", "frame_length")
        if fl % 4 != 0:
            raise ValueError("The frame length must be a multiple of 4.")
        framed = frame(x, fl, fl // 2, pad_end=pad_end)
        if window_fn is not None:
            framed = math_ops.multiply(framed, window_fn(fl, dtype=tensor_dtype(framed)))
        else:
            framed = math_ops.multiply(framed, constant(1.0 / np.sqrt(2), dtype=tensor_dtype(framed)))
        a, b, c, e = array_ops.split(framed, 4, axis=-1)
        first = math_ops.subtract(math_ops.negative(array_ops.reverse(c, [-1])), e)
        second = math_ops.subtract(a, array_ops.reverse(b, [-1]))
        return dct(array_ops.concat([first, second], axis=-1), type=4, norm=norm)


def inverse_mdct(mdcts: Any, window_fn: Any = vorbis_window, norm: str | None = None,
                 name: str | None = None) -> Any:
    """The inverse of :func:`mdct` (with overlap-add), as ``tf.signal.inverse_mdct``:
    ``[..., frames, half]`` -> ``[..., (frames + 1) * half]``."""
    with op_scope(name, "inverse_mdct", [mdcts]):
        x = convert_to_tensor(mdcts, name="mdcts")
        dims = _dims(x)
        if not dims or len(dims) < 2 or dims[-1] is None:
            raise ValueError(f"inverse_mdct: mdcts must have rank >= 2 and a known last axis, got {dims}.")
        half = int(dims[-1] or 0)
        d = tensor_dtype(x)
        if norm is None:
            result = math_ops.multiply(constant(0.5 / half, dtype=d), dct(x, type=4))
        elif norm == "ortho":
            result = dct(x, type=4, norm="ortho")
        else:
            raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
        s0, s1 = array_ops.split(result, 2, axis=-1)
        frames = array_ops.concat([s1, math_ops.negative(array_ops.reverse(s1, [-1])),
                                   math_ops.negative(array_ops.reverse(s0, [-1])), math_ops.negative(s0)], axis=-1)
        if window_fn is not None:
            frames = math_ops.multiply(frames, window_fn(2 * half, dtype=d))
        else:
            frames = math_ops.multiply(frames, constant(1.0 / np.sqrt(2), dtype=d))
        return overlap_and_add(frames, half)


# -- fftshift ----------------------------------------------------------------------------------


def _shift(fn: str, x: Any, axes: Any, sign: int, name: str | None) -> Any:
    with op_scope(name, fn) as scope:
        t = convert_to_tensor(x)
        dims = _dims(t)
        if dims is None:
            raise ValueError(f"{fn}: the rank of {label(t)} must be known.")
        ax = list(range(len(dims))) if axes is None else ([int(axes)] if np.ndim(axes) == 0 else
                                                           [int(a) for a in axes])
        sizes = [dims[a] for a in ax]
        if any(s is None for s in sizes):
            raise ValueError(f"{fn}: the shifted axes of {label(t)} must be known, got shape {dims}.")
        shift = [sign * (int(s or 0) // 2) for s in sizes]
        return roll(t, shift, ax, name=scope)


def fftshift(x: Any, axes: Any = None, name: str | None = None) -> Any:
    """``x`` rolled by half its size along ``axes`` (all by default) so that frequency 0 is
    centred, as ``tf.signal.fftshift`` (numpy's)."""
    return _shift("fftshift", x, axes, 1, name)


def ifftshift(x: Any, axes: Any = None, name: str | None = None) -> Any:
    """The inverse of :func:`fftshift`, as ``tf.signal.ifftshift``."""
    return _shift("ifftshift", x, axes, -1, name)
