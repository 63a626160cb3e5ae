"""WAV audio, as ``tf.audio``: ``decode_wav``/``encode_wav`` (16-bit PCM RIFF files), host ops.

Semantics source: TF's ``decode_wav_op.cc``/``encode_wav_op.cc`` and ``wav_io.cc``: a sample
``s`` decodes to ``s / 32768``; a float encodes to ``round(x * 32768)`` clamped to int16.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape

__all__ = ["decode_wav", "encode_wav", "wav_bytes"]


def _scalar_bytes(v: Any) -> bytes:
    v = np.asarray(v, dtype=object).reshape(-1)[0]
    return v if isinstance(v, bytes) else str(v).encode("utf-8")


def wav_bytes(audio: np.ndarray, sample_rate: int) -> bytes:
    """A 16-bit PCM WAV file of ``audio`` (``float[frames, channels]`` in [-1, 1]), as TF's
    ``EncodeAudioAsS16LEWav``."""
    frames, channels = audio.shape
    samples = np.clip(np.round(audio.astype(np.float32) * np.float32(32768.0)), -32768, 32767).astype("<i2")
    data = samples.tobytes()
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 1, channels,
                         sample_rate, sample_rate * channels * 2, channels * 2, 16, b"data", len(data))
    return header + data


def _parse_wav(op: Operation, data: bytes) -> tuple[np.ndarray, int]:
    def bad(msg: str) -> Exception:
        return errors.InvalidArgumentError(op.name, op, msg)

    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise bad("Header mismatch: Expected RIFF but found " + repr(data[:4].decode("latin-1")))
    pos, fmt, samples = 12, None, None
    while pos + 8 <= len(data):
        cid, size = struct.unpack_from("<4sI", data, pos)
        body = data[pos + 8:pos + 8 + size]
        if cid == b"fmt ":
            if len(body) < 16:
                raise bad("Bad fmt chunk size")
            fmt = struct.unpack_from("<HHIIHH", body)
        elif cid == b"data":
            if fmt is None:
                raise bad("Data chunk before fmt chunk")
            samples = body
            break
        pos += 8 + size + (size & 1)
    if fmt is None or samples is None:
        raise bad("No data chunk found")
    audio_format, channels, rate, _, _, bits = fmt
    if audio_format != 1:
        raise bad(f"Can only read PCM files, got format {audio_format}")  # TF reads 16-bit PCM only
    if bits != 16:
        raise bad(f"Can only read 16-bit WAV files, but received {bits}")
    if channels == 0:
        raise bad("Bad number of channels for WAV file: 0")
    n = len(samples) // (2 * channels)
    pcm = np.frombuffer(samples[:n * 2 * channels], "<i2").reshape(n, channels)
    return pcm.astype(np.float32) * np.float32(1.0 / 32768.0), int(rate)


def _decode_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    s, c = attrs["desired_samples"], attrs["desired_channels"]
    return [(TensorShape([s if s > 0 else None, c if c > 0 else None]), _dtypes.float32),
            (TensorShape([]), _dtypes.int32)]


@register_op("DecodeWav", num_outputs=2, infer=_decode_infer, lowering=device_lowering, default_name="DecodeWav")
def _decode_device(x: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("DecodeWav runs on the host")


@register_host("DecodeWav", always=True, infer=_decode_infer)
def _host_decode_wav(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    audio, rate = _parse_wav(op, _scalar_bytes(inputs[0]))
    want_c, want_s = op.attrs["desired_channels"], op.attrs["desired_samples"]
    if want_c > 0 and audio.shape[1] != want_c:
        if audio.shape[1] > want_c:  # as TF: extra channels dropped, a missing one repeats the last
            audio = audio[:, :want_c]
        else:
            audio = np.concatenate([audio] + [audio[:, -1:]] * (want_c - audio.shape[1]), axis=1)
    if want_s > 0:
        audio = audio[:want_s] if audio.shape[0] >= want_s else np.concatenate(
            [audio, np.zeros((want_s - audio.shape[0], audio.shape[1]), np.float32)])
    return np.ascontiguousarray(audio, np.float32), np.asarray(rate, np.int32)


def decode_wav(contents: Any, desired_channels: int = -1, desired_samples: int = -1,
               name: str | None = None) -> tuple[Any, Any]:
    """The samples of a 16-bit PCM WAV file, as ``tf.audio.decode_wav``.

    Args:
      contents: a string scalar (the file's bytes, e.g. from ``tf.io.read_file``).
      desired_channels: channels to return (extra dropped, missing ones copy the last); -1: the file's.
      desired_samples: frames to return (cut or zero-padded); -1: the file's.

    Returns:
      ``(audio, sample_rate)``: ``float32[frames, channels]`` in [-1, 1) and an ``int32`` scalar (Hz).

    Raises:
      InvalidArgumentError (at run time): not a RIFF/WAVE file or not 16-bit PCM.
    """
    x = convert_to_tensor(contents, dtype=_dtypes.string)
    out = apply_op("DecodeWav", (x,), {"desired_channels": int(desired_channels),
                                        "desired_samples": int(desired_samples)}, name=name)
    return out[0], out[1]


def _encode_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([]), _dtypes.string)]


@register_op("EncodeWav", infer=_encode_infer, lowering=device_lowering, default_name="EncodeWav")
def _encode_device(audio: Any, rate: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("EncodeWav runs on the host")


@register_host("EncodeWav", always=True, infer=_encode_infer)
def _host_encode_wav(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    audio = np.asarray(inputs[0], np.float32)
    if audio.ndim != 2:
        raise errors.InvalidArgumentError(op.name, op, f"audio must be 2-dimensional{list(audio.shape)}")
    return (np.asarray(wav_bytes(audio, int(np.asarray(inputs[1]))), dtype=object),)


def encode_wav(audio: Any, sample_rate: Any, name: str | None = None) -> Any:
    """A 16-bit PCM WAV file of ``audio``, as ``tf.audio.encode_wav``.

    Args:
      audio: ``float32[frames, channels]`` in [-1, 1] (clipped).
      sample_rate: an ``int32`` scalar (Hz).

    Returns:
      A string scalar: the file's bytes.

    Raises:
      TypeError: ``audio`` is not float32.
      InvalidArgumentError (at run time): ``audio`` is not 2-D.
    """
    a = convert_to_tensor(audio)
    if a.dtype != _dtypes.float32:
        raise TypeError(f"encode_wav: audio must be float32, got {a.dtype.name} ({a.name}).")
    return apply_op("EncodeWav", (a, convert_to_tensor(sample_rate, dtype=_dtypes.int32)), {}, name=name)
