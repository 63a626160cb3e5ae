"""Complex numbers, FFTs and the framing/windowing of ``tf.signal``, as
``tf.compat.v1`` (``tf.fft``, ``tf.spectral.*``, ``tf.signal.*``).

``fft``/``ifft`` (and ``2d``/``3d``) transform the innermost 1/2/3 axes of a
complex64/complex128 tensor; ``rfft``/``irfft`` (and ``2d``/``3d``) map
float32 <-> complex64 (float64 <-> complex128), with TF's ``fft_length``
(crop or zero-pad the input's inner axes; default: the input's inner size,
``2 * (n - 1)`` for ``irfft``'s innermost axis). ``fft_length`` must be known
when the graph is built. ``frame``, ``stft``, ``hann_window`` and
``hamming_window`` follow ``tf.signal``. Gradients are JAX's.
"""

from __future__ import annotations

import math as _pymath
from typing import Any

import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, constant, convert_to_tensor
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops
from jaxsess._tf1.ops._args import label, op_scope, static_int, static_ints, tensor_dtype
from jaxsess._tf1.ops.linalg_ops import _dims

__all__ = [
    "complex", "real", "imag", "angle", "fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft",
    "rfft2d", "irfft2d", "rfft3d", "irfft3d", "hann_window", "hamming_window", "frame", "stft",
]

_REAL_OF = {_dtypes.complex64: _dtypes.float32, _dtypes.complex128: _dtypes.float64}
_COMPLEX_OF = {v: k for k, v in _REAL_OF.items()}


# -- complex numbers -----------------------------------------------------------------


@register_op("Complex", default_name="Complex")
def _complex(re: Any, im: Any) -> Any:
    dt = jnp.complex64 if re.dtype == jnp.float32 else jnp.complex128
    return jnp.asarray(re, dt) + 1j * jnp.asarray(im, dt)


register_op("Real", default_name="Real")(jnp.real)
register_op("Imag", default_name="Imag")(jnp.imag)
register_op("Angle", default_name="Angle")(jnp.angle)


def complex(real: Any, imag: Any, name: str | None = None) -> Any:  # noqa: A001
    """``real + i * imag`` element-wise (broadcasting), as ``tf.complex``.

    Args:
      real, imag: float32 (-> complex64) or float64 (-> complex128) tensors of one dtype.

    Raises:
      TypeError: the dtypes differ or are not float32/float64.
    """
    re = convert_to_tensor(real, name="real")
    im = convert_to_tensor(imag, name="imag")
    dr, di = tensor_dtype(re), tensor_dtype(im)
    if dr != di or dr not in _COMPLEX_OF:
        raise TypeError(
            f"The `real` and `imag` components have incorrect types: {dr.name} {di.name}. "
            "They must be consistent, and one of [tf.float32, tf.float64]"
        )
    return apply_op("Complex", (re, im), name=name)


def _part(op_type: str, x: Any, name: str | None) -> Any:
    t = convert_to_tensor(x)
    d = tensor_dtype(t)
    if not d.is_complex:
        return t if op_type == "Real" else (  # as TF: the real part of a real tensor is itself
            array_ops.zeros_like(t) if op_type == "Imag" else math_ops.cast(math_ops.less(t, 0), d) * np.pi)
    return apply_op(op_type, (t,), name=name)


def real(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """The real part (float32 of complex64, float64 of complex128), as ``tf.math.real``; a real
    tensor is returned as is."""
    return _part("Real", input, name)


def imag(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """The imaginary part, as ``tf.math.imag`` (zeros for a real tensor)."""
    return _part("Imag", input, name)


def angle(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """The argument ``atan2(imag, real)`` element-wise, as ``tf.math.angle`` (``pi`` where a real
    tensor is negative, else 0)."""
    return _part("Angle", input, name)


# -- FFTs -----------------------------------------------------------------------------

_C2C = {
    "FFT": (jnp.fft.fft, 1), "IFFT": (jnp.fft.ifft, 1),
    "FFT2D": (jnp.fft.fft2, 2), "IFFT2D": (jnp.fft.ifft2, 2),
    "FFT3D": (jnp.fft.fftn, 3), "IFFT3D": (jnp.fft.ifftn, 3),
}


def _register_c2c(op_type: str, fn: Any, rank: int) -> None:
    def impl(x: Any) -> Any:
        return fn(x, axes=tuple(range(-rank, 0))) if rank > 1 else fn(x)

    register_op(op_type, default_name=op_type, tf=TFOp(types={"Tcomplex": 0}))(impl)


for _t, (_f, _r) in _C2C.items():
    _register_c2c(_t, _f, _r)


@register_op("RFFT", default_name="RFFT")
def _rfft(x: Any, *, fft_length: tuple[int, ...]) -> Any:
    axes = tuple(range(-len(fft_length), 0))
    out = jnp.fft.rfftn(x, s=fft_length, axes=axes)
    return out.astype(jnp.complex64 if x.dtype == jnp.float32 else jnp.complex128)


@register_op("IRFFT", default_name="IRFFT")
def _irfft(x: Any, *, fft_length: tuple[int, ...]) -> Any:
    axes = tuple(range(-len(fft_length), 0))
    out = jnp.fft.irfftn(x, s=fft_length, axes=axes)
    return out.astype(jnp.float32 if x.dtype == jnp.complex64 else jnp.float64)


def _c2c(op_type: str, fn: str, input: Any, name: str | None) -> Any:
    x = convert_to_tensor(input)
    rank = _C2C[op_type][1]
    d = tensor_dtype(x)
    if not d.is_complex:
        raise TypeError(f"{fn}: input must be complex64 or complex128, got {d.name} ({label(x)}).")
    if len(_dims(x)) < rank:
        raise ValueError(f"{fn}: input must have rank >= {rank}, got shape {_dims(x)} ({label(x)}).")
    return apply_op(op_type, (x,), name=name)


def fft(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """The discrete Fourier transform of the innermost axis of a complex tensor, as ``tf.signal.fft``.

    Raises:
      TypeError: not complex64/complex128. ValueError: a scalar.
    """
    return _c2c("FFT", "fft", input, name)


def ifft(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """The inverse DFT of the innermost axis (scaled by ``1/n``), as ``tf.signal.ifft``."""
    return _c2c("IFFT", "ifft", input, name)


def fft2d(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """The 2-D DFT of the 2 innermost axes, as ``tf.signal.fft2d``."""
    return _c2c("FFT2D", "fft2d", input, name)


def ifft2d(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """The inverse 2-D DFT of the 2 innermost axes, as ``tf.signal.ifft2d``."""
    return _c2c("IFFT2D", "ifft2d", input, name)


def fft3d(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """The 3-D DFT of the 3 innermost axes, as ``tf.signal.fft3d``."""
    return _c2c("FFT3D", "fft3d", input, name)


def ifft3d(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """The inverse 3-D DFT of the 3 innermost axes, as ``tf.signal.ifft3d``."""
    return _c2c("IFFT3D", "ifft3d", input, name)


def _r2c(fn: str, default: str, rank: int, input_tensor: Any, fft_length: Any, name: str | None,
         inverse: bool) -> Any:
    with op_scope(name, default, [input_tensor]) as scope:
        x = convert_to_tensor(input_tensor, name="input_tensor")
        d = tensor_dtype(x)
        ok = d.is_complex if inverse else d in _COMPLEX_OF
        if not ok:
            want = "tf.complex64 or tf.complex128" if inverse else "tf.float32 or tf.float64"
            raise ValueError(f"{fn.upper()} requires {want} inputs, got: {d.name} tensor {label(x)}.")
        dims = _dims(x)
        if len(dims) < rank:
            raise ValueError(f"{fn}: input must have rank >= {rank}, got shape {dims} ({label(x)}).")
        if fft_length is None:
            inner = dims[-rank:]
            if any(d is None for d in inner):
                raise ValueError(f"{fn}: fft_length is required when the inner dimensions {inner} are unknown.")
            lengths = [int(d) for d in inner]  # type: ignore[arg-type]
            if inverse:
                lengths[-1] = 2 * (lengths[-1] - 1)
        else:
            lengths = list(static_ints(fft_length, fn, "fft_length"))
            if len(lengths) != rank:
                raise ValueError(f"{fn}: fft_length must have {rank} elements, got {lengths}.")
        return apply_op("IRFFT" if inverse else "RFFT", (x,), {"fft_length": tuple(lengths)}, name=scope)


def rfft(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """The DFT of the innermost axis of a real tensor, as ``tf.signal.rfft``.

    Args:
      input_tensor: float32 (-> complex64) or float64 (-> complex128), rank >= 1.
      fft_length: ``[n]``: the innermost axis is cropped or zero-padded to ``n``
        (default: its size). Known when the graph is built.

    Returns:
      ``[..., n // 2 + 1]`` complex.

    Raises:
      ValueError: another dtype, or a scalar.
    """
    return _r2c("rfft", "rfft", 1, input_tensor, fft_length, name, inverse=False)


def irfft(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """The real inverse of :func:`rfft`, as ``tf.signal.irfft``: ``[..., m]`` complex ->
    ``[..., n]`` real, ``n = fft_length[0]`` (default ``2 * (m - 1)``)."""
    return _r2c("irfft", "irfft", 1, input_tensor, fft_length, name, inverse=True)


def rfft2d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """The 2-D real DFT of the 2 innermost axes, as ``tf.signal.rfft2d``."""
    return _r2c("rfft2d", "rfft2d", 2, input_tensor, fft_length, name, inverse=False)


def irfft2d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """The inverse of :func:`rfft2d`, as ``tf.signal.irfft2d``."""
    return _r2c("irfft2d", "irfft2d", 2, input_tensor, fft_length, name, inverse=True)


def rfft3d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """The 3-D real DFT of the 3 innermost axes, as ``tf.signal.rfft3d``."""
    return _r2c("rfft3d", "rfft3d", 3, input_tensor, fft_length, name, inverse=False)


def irfft3d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """The inverse of :func:`rfft3d`, as ``tf.signal.irfft3d``."""
    return _r2c("irfft3d", "irfft3d", 3, input_tensor, fft_length, name, inverse=True)


# -- windows, frames, STFT --------------------------------------------------------------


def _raised_cosine(fn: str, window_length: Any, periodic: bool, dtype: Any, a: float, b: float,
                   name: str | None) -> Any:
    n = static_int(window_length, fn, "window_length")
    d = _dtypes.as_dtype(dtype)
    if not d.is_floating:
        raise ValueError(f"{fn}: dtype must be a floating point type, got {d.name}.")
    if n == 1:
        value = np.ones([1])
    else:
        denom = n - 1 + (1 if periodic and n % 2 == 0 else 0)  # as TF: odd lengths are always symmetric
        value = a - b * np.cos(2.0 * np.pi * np.arange(n) / denom)
    with op_scope(name, fn):
        return constant(value.astype(d.np_dtype), dtype=d, name="window")


def hann_window(window_length: Any, periodic: bool = True, dtype: Any = _dtypes.float32,
                name: str | None = None) -> Any:
    """A Hann window ``0.5 - 0.5 cos(2 pi k / N)`` of ``window_length`` samples, as
    ``tf.signal.hann_window`` (``N = window_length`` if ``periodic`` and the length is even, else
    ``window_length - 1``, as TF).
    ``window_length`` must be known when the graph is built."""
    return _raised_cosine("hann_window", window_length, periodic, dtype, 0.5, 0.5, name)


def hamming_window(window_length: Any, periodic: bool = True, dtype: Any = _dtypes.float32,
                   name: str | None = None) -> Any:
    """A Hamming window ``0.54 - 0.46 cos(2 pi k / N)``, as ``tf.signal.hamming_window``."""
    return _raised_cosine("hamming_window", window_length, periodic, dtype, 0.54, 0.46, name)


@register_op("Frame", default_name="Frame")
def _frame(x: Any, *, frame_length: int, frame_step: int, axis: int, pad_end: bool, pad_value: Any) -> Any:
    ax = axis % x.ndim
    n = x.shape[ax]
    if pad_end:
        frames = -(-n // frame_step) if n else 0
        total = (frames - 1) * frame_step + frame_length if frames else 0
        if total > n:
            pads = [(0, 0)] * x.ndim
            pads[ax] = (0, total - n)
            x = jnp.pad(x, pads, constant_values=jnp.asarray(pad_value, x.dtype))
    else:
        frames = max(0, 1 + (n - frame_length) // frame_step) if n >= frame_length else 0
    idx = np.arange(frames)[:, None] * frame_step + np.arange(frame_length)[None, :]
    return jnp.take(x, idx.reshape(-1), axis=ax).reshape(*x.shape[:ax], frames, frame_length, *x.shape[ax + 1:])


def frame(signal: Any, frame_length: Any, frame_step: Any, pad_end: bool = False, pad_value: Any = 0,
          axis: int = -1, name: str | None = None) -> Any:
    """Overlapping frames of ``signal`` along ``axis``, as ``tf.signal.frame``.

    Args:
      signal: ``[..., samples, ...]``.
      frame_length, frame_step: ints known when the graph is built.
      pad_end: pad the end with ``pad_value`` so that every sample starts a
        frame's step (``ceil(samples / frame_step)`` frames); otherwise
        ``1 + (samples - frame_length) // frame_step`` frames (0 if shorter).

    Returns:
      ``[..., frames, frame_length, ...]`` of ``signal``'s dtype.
    """
    with op_scope(name, "frame", [signal]) as scope:
        x = convert_to_tensor(signal, name="signal")
        dims = _dims(x)
        if not dims:
            raise ValueError(f"frame: signal must have rank >= 1, got a scalar ({label(x)}).")
        if dims[axis] is None:
            raise ValueError(f"frame: the framed axis of signal {label(x)} must be known, got shape {dims}.")
        fl = static_int(frame_length, "frame", "frame_length")
        fs = static_int(frame_step, "frame", "frame_step")
        pv = float(np.asarray(pad_value)) if tensor_dtype(x).is_floating else int(np.asarray(pad_value))
        return apply_op("Frame", (x,), {"frame_length": fl, "frame_step": fs, "axis": int(axis),
                                        "pad_end": bool(pad_end), "pad_value": pv}, name=scope)


def stft(signals: Any, frame_length: Any, frame_step: Any, fft_length: Any = None,
         window_fn: Any = hann_window, pad_end: bool = False, name: str | None = None) -> Any:
    """The short-time Fourier transform of real ``signals`` ``[..., samples]``, as ``tf.signal.stft``.

    Args:
      frame_length, frame_step: ints known when the graph is built.
      fft_length: default: the smallest power of 2 ``>= frame_length``.
      window_fn: ``window_fn(frame_length, dtype=...)`` -> window, or ``None``.

    Returns:
      ``[..., frames, fft_length // 2 + 1]`` complex64 (complex128 of float64).
    """
    with op_scope(name, "stft", [signals]):
        x = convert_to_tensor(signals, name="signals")
        fl = static_int(frame_length, "stft", "frame_length")
        n = (1 << max(0, _pymath.ceil(_pymath.log2(fl)))) if fft_length is None else \
            static_int(fft_length, "stft", "fft_length")
        framed = frame(x, fl, frame_step, pad_end=pad_end)
        if window_fn is not None:
            framed = math_ops.multiply(framed, window_fn(fl, dtype=tensor_dtype(x)))
        return rfft(framed, [n])
