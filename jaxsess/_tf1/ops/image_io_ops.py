"""Image files and file contents, as TF1's: ``read_file``/``write_file``,
``image.decode_jpeg``/``decode_png``/``decode_bmp``/``decode_gif``/``decode_image``
and ``image.encode_jpeg``/``encode_png``.

File contents are strings, which jaxsess keeps on the host
(:mod:`jaxsess._core.graph._host`): each op here is a host op that runs before the
device plan, on NumPy values, with Pillow as the codec. A decoded image's
shape depends on the data, so it enters the device plan as a feed of the
decoded shape: the plan compiles once per distinct image shape (resize the
images, e.g. with ``image.resize_images``, to compile once). Semantics and
error messages follow TF 2.21's kernels (``DecodeImageV2``-style sniffing:
``decode_jpeg`` and ``decode_png`` read JPEG, PNG and one-frame GIF data,
``decode_gif`` anything but BMP, ``decode_bmp`` BMP only), checked against
``tensorflow-cpu`` 2.21 in graph mode.

JPEG: Pillow's libjpeg decodes with the accurate integer DCT and fancy
upsampling: the pixels equal TF's with ``dct_method='INTEGER_ACCURATE'``;
TF's default (``''``: ``INTEGER_FAST``) differs by a few levels (at most 3
on the committed fixtures), and ``fancy_upscaling=False`` is not honoured
(up to 13 levels on 4:2:0 chroma). Encoded bytes differ from TF's; they
decode to the same pixels (PNG) or to pixels as close as two JPEG encoders
give (JPEG). 16-bit PNGs are read and written for one channel only.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
from PIL import Image, ImageSequence

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, constant_value, convert_to_tensor
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import check_not_eager, device_lowering, register_host
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops._args import op_scope
from jaxsess._tf1.ops.image_ops import convert_image_dtype

__all__ = [
    "read_file", "write_file", "decode_jpeg", "decode_png", "decode_bmp", "decode_gif", "decode_image",
    "encode_jpeg", "encode_png", "extract_jpeg_shape", "decode_and_crop_jpeg", "is_jpeg",
]

_UNKNOWN = "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."


def _string_scalar(x: Any, what: str, fn: str) -> Any:
    t = convert_to_tensor(x, dtype=_dtypes.string, name=what)
    if t.dtype != _dtypes.string:
        raise TypeError(f"{fn}: {what} must be a string tensor, got {t.dtype.name} ({t.name}).")
    if t.shape.ndims not in (None, 0):
        raise ValueError(f"{fn}: {what} must be a scalar string, got shape {t.shape} ({t.name}).")
    return t


def _scalar_bytes(v: Any) -> bytes:
    v = np.asarray(v, dtype=object).reshape(-1)[0]
    return v if isinstance(v, bytes) else str(v).encode("utf-8")


# -- files ---------------------------------------------------------------------------------------


def _read_file_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([]), _dtypes.string)]


@register_op("ReadFile", infer=_read_file_infer, lowering=device_lowering, default_name="ReadFile",
             stateful=True, tf=TFOp(types={}))
def _read_file_device(x: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("ReadFile runs on the host")


@register_host("ReadFile", always=True, infer=_read_file_infer)
def _host_read_file(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    path = _scalar_bytes(inputs[0]).decode("utf-8")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise errors.NotFoundError(op.name, op, f"{path}; No such file or directory") from None
    except OSError as e:
        raise errors.InvalidArgumentError(op.name, op, f"{path}; {e.strerror}") from None
    return (np.asarray(data, dtype=object),)


def read_file(filename: Any, name: str | None = None) -> Any:
    """The whole contents of a file, as ``tf.io.read_file`` / ``tf.compat.v1.read_file``.

    Runs on the host, at every ``Session.run`` that needs it.

    Args:
      filename: a scalar string tensor (a path).

    Returns:
      A scalar string tensor: the file's bytes.

    Raises:
      NotFoundError (at run time): no such file.
    """
    return apply_op("ReadFile", (_string_scalar(filename, "filename", "read_file"),), {}, name=name)


def _write_file_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return []


@register_op("WriteFile", num_outputs=0, infer=_write_file_infer, lowering=device_lowering,
             default_name="WriteFile", stateful=True, tf=TFOp(types={}))
def _write_file_device(*xs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("WriteFile runs on the host")


@register_host("WriteFile", always=True, infer=_write_file_infer)
def _host_write_file(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    path = _scalar_bytes(inputs[0]).decode("utf-8")
    try:
        with open(path, "wb") as f:
            f.write(_scalar_bytes(inputs[1]))
    except OSError as e:
        raise errors.NotFoundError(op.name, op, f"{path}; {e.strerror}") from None
    return ()


def write_file(filename: Any, contents: Any, name: str | None = None) -> Operation:
    """Writes ``contents`` to the file ``filename`` (replacing it), as ``tf.io.write_file``.

    Args:
      filename: a scalar string tensor (a path; its directory must exist).
      contents: a scalar string tensor.

    Returns:
      The ``WriteFile`` operation (run it as a target).

    Raises:
      NotFoundError (at run time): the file cannot be created.
    """
    f = _string_scalar(filename, "filename", "write_file")
    c = _string_scalar(contents, "contents", "write_file")
    out: Operation = apply_op("WriteFile", (f, c), {}, name=name)
    return out


# -- decoding ------------------------------------------------------------------------------------


def _format(data: bytes) -> str:
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:3] == b"GIF":
        return "gif"
    if data[:2] == b"BM":
        return "bmp"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return ""


def _to_channels(a: np.ndarray, channels: int) -> np.ndarray:
    """``a`` (``[h, w, c]``) with ``channels`` channels as libpng/libjpeg give them to TF:
    gray from RGB(A) is ``(0.299 R + 0.587 G + 0.114 B)`` truncated (libpng's fixed
    point), alpha is dropped or set to the maximum, gray is replicated."""
    c = a.shape[-1]
    if channels in (0, c):
        return a
    top = np.iinfo(a.dtype).max
    if channels == 1:
        if c <= 2:
            return a[..., :1]
        r, g, b = (a[..., k].astype(np.int64) for k in range(3))
        return ((r * 9798 + g * 19235 + b * 3735) >> 15).astype(a.dtype)[..., None]
    if c <= 2:
        rgb = np.repeat(a[..., :1], 3, axis=-1)
        alpha = a[..., 1:2] if c == 2 else np.full(a.shape[:-1] + (1,), top, a.dtype)
    else:
        rgb = a[..., :3]
        alpha = a[..., 3:4] if c == 4 else np.full(a.shape[:-1] + (1,), top, a.dtype)
    return rgb if channels == 3 else np.concatenate([rgb, alpha], axis=-1)


def _pil_array(im: Any) -> np.ndarray:
    """A Pillow image as ``[h, w, c]`` uint8 (uint16 for 16-bit gray)."""
    if im.mode in ("I;16", "I;16B", "I;16L", "I"):
        return np.asarray(im, dtype=np.uint16)[..., None] if im.mode != "I" else \
            np.asarray(im).astype(np.uint16)[..., None]
    if im.mode in ("L", "LA", "RGB", "RGBA"):
        a = np.asarray(im)
    elif im.mode == "P" and "transparency" in im.info:
        a = np.asarray(im.convert("RGBA"))
    else:
        a = np.asarray(im.convert("RGBA" if "A" in im.mode else "RGB"))
    return a[..., None] if a.ndim == 2 else a


def _decode_still(op: Operation, data: bytes, fmt: str, channels: int, ratio: int = 1) -> np.ndarray:
    if fmt == "png" and len(data) > 25 and data[24] == 16 and data[25] != 0:  # IHDR: bit depth, color type
        raise errors.UnimplementedError(
            op.name, op, "jaxsess (Pillow) decodes 16-bit PNGs with one gray channel only; this one has color "
                         "or alpha")
    im = Image.open(io.BytesIO(data))
    if fmt == "jpeg":
        mode = "L" if channels == 1 else im.mode
        if ratio > 1 or mode != im.mode:
            im.draft(mode, (im.width // ratio, im.height // ratio) if ratio > 1 else im.size)
    frames = int(getattr(im, "n_frames", 1))
    if fmt == "gif" and frames > 1:
        raise errors.InvalidArgumentError(
            op.name, op, f"Got {frames} frames, but animated gifs can only be decoded by tf.io.decode_gif "
                         "or tf.io.decode_image")
    if fmt == "gif":
        return _to_channels(np.asarray(im.convert("RGB")), channels)
    return _to_channels(_pil_array(im), channels)


def _gif_frames(data: bytes) -> np.ndarray:
    im = Image.open(io.BytesIO(data))
    return np.stack([np.asarray(f.convert("RGB")) for f in ImageSequence.Iterator(im)])


def _as_dtype(op: Operation, a: np.ndarray, d: _dtypes.DType) -> np.ndarray:
    if a.dtype == d.np_dtype:
        return a
    if d == _dtypes.uint16:  # 8-bit data as uint16: TF scales by 257
        return a.astype(np.uint16) * np.uint16(257)
    return (a >> 8).astype(np.uint8)  # 16-bit data as uint8: TF keeps the high byte


def _decode(op: Operation, data: bytes) -> np.ndarray:
    kind = op.type
    attrs = op.attrs
    channels = int(attrs.get("channels", 0))
    fmt = _format(data)
    if not fmt or fmt == "webp":
        raise errors.InvalidArgumentError(op.name, op, _UNKNOWN)
    if kind == "DecodeBmp":
        if fmt != "bmp":
            raise errors.InvalidArgumentError(
                op.name, op, f"Trying to decode {fmt.upper()} format using DecodeBmp op. Use `decode_{fmt}` or "
                             "`decode_image` instead.")
        if channels not in (0, 3, 4):
            raise errors.InvalidArgumentError(op.name, op, f"`channels` must be 0, 3 or 4 for BMP, but got {channels}")
        return _decode_still(op, data, fmt, channels)
    if fmt == "bmp" and kind != "DecodeImage":
        raise errors.InvalidArgumentError(
            op.name, op, f"Trying to decode BMP format using a wrong op. Use `decode_bmp` or `decode_image` instead. "
                         f"Op used: {kind}")
    if kind == "DecodeGif" or (kind == "DecodeImage" and fmt == "gif"):
        if kind == "DecodeImage" and channels not in (0, 3):
            raise errors.InvalidArgumentError(op.name, op, f"channels must be 0 or 3 for GIF, got {channels}")
        frames = _gif_frames(data) if fmt == "gif" else _to_channels(_decode_still(op, data, fmt, 0), 3)[None]
        if kind == "DecodeImage" and not attrs["expand_animations"]:
            return _as_dtype(op, frames[0], attrs["dtype"])
        return frames if kind == "DecodeGif" else _as_dtype(op, frames, attrs["dtype"])
    if channels not in (0, 1, 3, 4):
        raise errors.InvalidArgumentError(op.name, op, f"`channels` must be 0, 1, 3 or 4 but got {channels}")
    if kind == "DecodeImage" and fmt == "bmp" and channels not in (0, 3, 4):
        raise errors.InvalidArgumentError(op.name, op, f"`channels` must be 0, 3 or 4 for BMP, but got {channels}")
    out = _decode_still(op, data, fmt, channels, int(attrs.get("ratio", 1)))
    d = attrs.get("dtype", _dtypes.uint8)
    return _as_dtype(op, out, d)


def _decode_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    c = int(attrs.get("channels", 0))
    d = attrs.get("dtype", _dtypes.uint8)
    return [(TensorShape([None, None, c or None]), d)]


def _gif_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([None, None, None, 3]), _dtypes.uint8)]


def _image_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(None), attrs["dtype"])]


def _host_decode(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (_decode(op, _scalar_bytes(inputs[0])),)


def _decode_device(x: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("image decoding runs on the host")


for _type, _infer, _tf in (
    ("DecodeJpeg", _decode_infer, TFOp(types={})),
    ("DecodePng", _decode_infer, TFOp(types={})),
    ("DecodeBmp", _decode_infer, TFOp(types={})),
    ("DecodeGif", _gif_infer, TFOp(types={})),
    ("DecodeImage", _image_infer, TFOp(types={})),
):
    register_op(_type, infer=_infer, lowering=device_lowering, default_name=_type, tf=_tf)(_decode_device)
    register_host(_type, always=True, infer=_infer)(_host_decode)


def _channels(channels: Any, fn: str) -> int:
    c = int(channels or 0)
    if c < 0:
        raise ValueError(f"{fn}: channels must be non-negative, got {c}.")
    return c


def decode_jpeg(contents: Any, channels: int = 0, ratio: int = 1, fancy_upscaling: bool = True,
                try_recover_truncated: bool = False, acceptable_fraction: float = 1.0, dct_method: str = "",
                name: str | None = None) -> Any:
    """Decodes a JPEG (also a PNG or one-frame GIF) image, as ``tf.io.decode_jpeg``.

    Runs on the host (Pillow's libjpeg); see the module docstring for how the
    pixels compare with TF's (equal with ``dct_method='INTEGER_ACCURATE'``).

    Args:
      contents: a scalar string tensor, the file's bytes.
      channels: 0 (as stored), 1 (grayscale: libjpeg's luma), 3 (RGB).
      ratio: downscale by 1, 2, 4 or 8 while decoding (libjpeg's scaling).

    Returns:
      uint8 ``[height, width, channels]``.

    Raises:
      InvalidArgumentError (at run time): not an image, a BMP or an animated GIF.
    """
    if int(ratio) not in (1, 2, 4, 8):
        raise ValueError(f"decode_jpeg: ratio must be 1, 2, 4 or 8, got {ratio}.")
    x = _string_scalar(contents, "contents", "decode_jpeg")
    attrs = {"channels": _channels(channels, "decode_jpeg"), "ratio": int(ratio),
             "fancy_upscaling": bool(fancy_upscaling), "try_recover_truncated": bool(try_recover_truncated),
             "acceptable_fraction": float(acceptable_fraction), "dct_method": str(dct_method)}
    return apply_op("DecodeJpeg", (x,), attrs, name=name)


def decode_png(contents: Any, channels: int = 0, dtype: Any = _dtypes.uint8, name: str | None = None) -> Any:
    """Decodes a PNG (also a JPEG or one-frame GIF) image, as ``tf.io.decode_png``.

    Args:
      contents: a scalar string tensor, the file's bytes.
      channels: 0 (as stored), 1 (gray), 3 (RGB), 4 (RGBA).
      dtype: ``tf.uint8`` or ``tf.uint16`` (8-bit data scaled by 257).

    Returns:
      ``dtype`` ``[height, width, channels]``.

    Raises:
      TypeError: ``dtype`` is not uint8/uint16.
      InvalidArgumentError (at run time): not an image, a BMP or an animated GIF.
    """
    d = _dtypes.as_dtype(dtype)
    if d not in (_dtypes.uint8, _dtypes.uint16):
        raise TypeError(f"decode_png: dtype must be uint8 or uint16, got {d.name}.")
    x = _string_scalar(contents, "contents", "decode_png")
    return apply_op("DecodePng", (x,), {"channels": _channels(channels, "decode_png"), "dtype": d}, name=name)


def decode_bmp(contents: Any, channels: int = 0, name: str | None = None) -> Any:
    """Decodes a BMP image, as ``tf.io.decode_bmp``: uint8 ``[height, width, channels]``
    (``channels`` 0, 3 or 4).

    Raises:
      InvalidArgumentError (at run time): not a BMP, or other ``channels``.
    """
    x = _string_scalar(contents, "contents", "decode_bmp")
    return apply_op("DecodeBmp", (x,), {"channels": _channels(channels, "decode_bmp")}, name=name)


def decode_gif(contents: Any, name: str | None = None) -> Any:
    """Decodes every frame of a GIF (also a PNG or JPEG), as ``tf.io.decode_gif``.

    Returns:
      uint8 ``[num_frames, height, width, 3]``.

    Raises:
      InvalidArgumentError (at run time): not an image, or a BMP.
    """
    x = _string_scalar(contents, "contents", "decode_gif")
    return apply_op("DecodeGif", (x,), {}, name=name)


def decode_image(contents: Any, channels: int | None = None, dtype: Any = _dtypes.uint8, name: str | None = None,
                 expand_animations: bool = True) -> Any:
    """Decodes a BMP, GIF, JPEG or PNG image, sniffing the format, as ``tf.io.decode_image``.

    Args:
      contents: a scalar string tensor, the file's bytes.
      channels: 0/``None`` (as stored), 1, 3, 4 (GIF: 0 or 3; BMP: 0, 3, 4).
      dtype: uint8, uint16, or a float type (then ``convert_image_dtype``: ``[0, 1]``).
      expand_animations: GIFs give ``[frames, h, w, 3]``; ``False``: the first frame.

    Returns:
      A tensor of unknown rank (``[h, w, c]`` or ``[frames, h, w, 3]``).

    Raises:
      InvalidArgumentError (at run time): not an image, or ``channels`` the format forbids.
    """
    d = _dtypes.as_dtype(dtype)
    x = _string_scalar(contents, "contents", "decode_image")
    raw = _dtypes.uint16 if d == _dtypes.uint16 else _dtypes.uint8
    attrs = {"channels": _channels(channels, "decode_image"), "dtype": raw,
             "expand_animations": bool(expand_animations)}
    with op_scope(name, "decode_image", [x]):
        out = apply_op("DecodeImage", (x,), attrs)
        return out if d == raw else convert_image_dtype(out, d)


# -- encoding ------------------------------------------------------------------------------------


def _encode_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([]), _dtypes.string)]


def _encode_device(x: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("image encoding runs on the host")


def _image_arg(op: Operation, a: np.ndarray, fmt: str, allowed: tuple[int, ...]) -> np.ndarray:
    if a.ndim != 3:
        raise errors.InvalidArgumentError(op.name, op, f"image must be 3-dimensional[{','.join(map(str, a.shape))}]")
    if a.shape[2] not in allowed:
        raise errors.InvalidArgumentError(
            op.name, op, f"image must have {', '.join(map(str, allowed[:-1]))} or {allowed[-1]} channels, "
                         f"got {a.shape[2]}")
    return a


@register_host("EncodePng", always=True, infer=_encode_infer)
def _host_encode_png(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    a = _image_arg(op, np.asarray(inputs[0]), "PNG", (1, 2, 3, 4))
    level = int(op.attrs["compression"])
    buf = io.BytesIO()
    if a.dtype == np.uint16:
        if a.shape[2] != 1:
            raise errors.UnimplementedError(
                op.name, op, "jaxsess (Pillow) encodes 16-bit PNGs with one channel only")
        Image.fromarray(np.ascontiguousarray(a[..., 0])).save(buf, "PNG", compress_level=6 if level < 0 else level)
    else:
        im = Image.fromarray(np.ascontiguousarray(a[..., 0] if a.shape[2] == 1 else a))
        im.save(buf, "PNG", compress_level=6 if level < 0 else level)
    return (np.asarray(buf.getvalue(), dtype=object),)


register_op("EncodePng", infer=_encode_infer, lowering=device_lowering, default_name="EncodePng")(_encode_device)


@register_host("EncodeJpeg", always=True, infer=_encode_infer)
def _host_encode_jpeg(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    a = _image_arg(op, np.asarray(inputs[0]), "JPEG", (1, 3))
    fmt = op.attrs["format"] or ("grayscale" if a.shape[2] == 1 else "rgb")
    if fmt == "grayscale":
        a = a[..., :1]
    elif fmt == "rgb" and a.shape[2] != 3:
        a = np.repeat(a, 3, axis=-1)
    im = Image.fromarray(np.ascontiguousarray(a[..., 0] if a.shape[2] == 1 else a))
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=int(op.attrs["quality"]), progressive=bool(op.attrs["progressive"]),
            optimize=bool(op.attrs["optimize_size"]), subsampling=2 if op.attrs["chroma_downsampling"] else 0,
            dpi=(int(op.attrs["x_density"]), int(op.attrs["y_density"])))
    return (np.asarray(buf.getvalue(), dtype=object),)


register_op("EncodeJpeg", infer=_encode_infer, lowering=device_lowering, default_name="EncodeJpeg",
            tf=TFOp(types={}))(_encode_device)


def encode_png(image: Any, compression: int = -1, name: str | None = None) -> Any:
    """Encodes an image as PNG, as ``tf.io.encode_png``.

    Runs on the host (Pillow); the bytes differ from TF's, the pixels they
    decode to are the same.

    Args:
      image: uint8 ``[h, w, c]`` (``c`` 1-4), or uint16 ``[h, w, 1]``.
      compression: zlib level 0-9, -1 for the default.

    Returns:
      A scalar string tensor.

    Raises:
      TypeError: ``image`` is not uint8/uint16.
      InvalidArgumentError (at run time): not 3-D, or not 1-4 channels.
    """
    check_not_eager("encode_png")
    x = convert_to_tensor(image, name="image")
    if x.dtype not in (_dtypes.uint8, _dtypes.uint16):
        raise TypeError(f"encode_png: image must be uint8 or uint16, got {x.dtype.name} ({x.name}).")
    return apply_op("EncodePng", (x,), {"compression": int(compression)}, name=name)


def encode_jpeg(image: Any, format: str = "", quality: int = 95, progressive: bool = False,  # noqa: A002 - TF's
                optimize_size: bool = False, chroma_downsampling: bool = True, density_unit: str = "in",
                x_density: int = 300, y_density: int = 300, xmp_metadata: str = "", name: str | None = None) -> Any:
    """Encodes a uint8 ``[h, w, c]`` image (``c`` 1 or 3) as JPEG, as ``tf.io.encode_jpeg``.

    Runs on the host (Pillow's libjpeg; 4:2:0 chroma unless
    ``chroma_downsampling=False``); the bytes differ from TF's, and decode to
    pixels within a few levels of those of TF's bytes. ``density_unit`` and
    ``xmp_metadata`` are accepted and not written.

    Raises:
      TypeError: ``image`` is not uint8.
      ValueError: ``format`` is not ``''``, ``'grayscale'`` or ``'rgb'``.
      InvalidArgumentError (at run time): not 3-D, or not 1 or 3 channels.
    """
    check_not_eager("encode_jpeg")
    x = convert_to_tensor(image, name="image")
    if x.dtype != _dtypes.uint8:
        raise TypeError(f"encode_jpeg: image must be uint8, got {x.dtype.name} ({x.name}).")
    if format not in ("", "grayscale", "rgb"):
        raise ValueError(f"encode_jpeg: format must be '', 'grayscale' or 'rgb', got {format!r}.")
    attrs = {"format": format, "quality": int(quality), "progressive": bool(progressive),
             "optimize_size": bool(optimize_size), "chroma_downsampling": bool(chroma_downsampling),
             "density_unit": density_unit, "x_density": int(x_density), "y_density": int(y_density),
             "xmp_metadata": xmp_metadata}
    return apply_op("EncodeJpeg", (x,), attrs, name=name)


# -- JPEG headers and cropped decoding -------------------------------------------------------------


def _jpeg_shape_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([3]), attrs["output_type"])]


def _jpeg_header(op: Operation, data: bytes) -> Any:
    if _format(data) != "jpeg":
        raise errors.InvalidArgumentError(op.name, op, f"Invalid JPEG data, size {len(data)}")
    return Image.open(io.BytesIO(data))


@register_host("ExtractJpegShape", always=True, infer=_jpeg_shape_infer)
def _host_extract_jpeg_shape(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    im = _jpeg_header(op, _scalar_bytes(inputs[0]))
    return (np.asarray([im.height, im.width, len(im.getbands())], dtype=op.attrs["output_type"].np_dtype),)


register_op("ExtractJpegShape", infer=_jpeg_shape_infer, lowering=device_lowering, default_name="ExtractJpegShape",
            tf=TFOp(types={}))(_decode_device)


def extract_jpeg_shape(contents: Any, output_type: Any = _dtypes.int32, name: str | None = None) -> Any:
    """``[height, width, channels]`` of a JPEG from its header (no decoding), as
    ``tf.io.extract_jpeg_shape`` / ``tf.image.extract_jpeg_shape``.

    Args:
      contents: a scalar string tensor, the file's bytes.
      output_type: ``tf.int32`` or ``tf.int64``.

    Raises:
      InvalidArgumentError (at run time): not a JPEG (TF's message).
    """
    d = _dtypes.as_dtype(output_type)
    if d not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"extract_jpeg_shape: output_type must be int32 or int64, got {d.name}.")
    x = _string_scalar(contents, "contents", "extract_jpeg_shape")
    return apply_op("ExtractJpegShape", (x,), {"output_type": d}, name=name)


def _crop_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    c = int(attrs.get("channels", 0))
    window = attrs.get("window")
    h, w = (window[2], window[3]) if window else (None, None)
    return [(TensorShape([h, w, c or None]), _dtypes.uint8)]


@register_host("DecodeAndCropJpeg", always=True, infer=_crop_infer)
def _host_decode_and_crop(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    data = _scalar_bytes(inputs[0])
    y, x, h, w = (int(v) for v in np.asarray(inputs[1]).reshape(-1))
    im = _jpeg_header(op, data)
    if y < 0 or x < 0 or h <= 0 or w <= 0 or y + h > im.height or x + w > im.width:
        raise errors.InvalidArgumentError(op.name, op, "jpeg::Uncompress failed. Invalid JPEG data or crop window.")
    return (_decode(op, data)[y:y + h, x:x + w],)


register_op("DecodeAndCropJpeg", infer=_crop_infer, lowering=device_lowering, default_name="DecodeAndCropJpeg",
            tf=TFOp(types={}))(_decode_device)


def decode_and_crop_jpeg(contents: Any, crop_window: Any, channels: int = 0, ratio: int = 1,
                         fancy_upscaling: bool = True, try_recover_truncated: bool = False,
                         acceptable_fraction: float = 1.0, dct_method: str = "", name: str | None = None) -> Any:
    """The ``crop_window`` ``[y, x, height, width]`` (int32) of a JPEG, as
    ``tf.io.decode_and_crop_jpeg`` / ``tf.image.decode_and_crop_jpeg``.

    jaxsess decodes the whole image and crops it (TF's libjpeg decodes only the
    window, and its pixels near the window's edges can differ from a full decode's).

    Returns:
      uint8 ``[height, width, channels]`` (static when ``crop_window`` is a constant).

    Raises:
      InvalidArgumentError (at run time): not a JPEG, or a window outside the image.
    """
    if int(ratio) != 1:
        raise NotImplementedError("decode_and_crop_jpeg: jaxsess supports ratio=1 only.")
    x = _string_scalar(contents, "contents", "decode_and_crop_jpeg")
    window = convert_to_tensor(crop_window, dtype=_dtypes.int32, name="crop_window")
    const = constant_value(window)
    attrs: dict[str, Any] = {"channels": _channels(channels, "decode_and_crop_jpeg"), "ratio": 1,
                             "fancy_upscaling": bool(fancy_upscaling),
                             "try_recover_truncated": bool(try_recover_truncated),
                             "acceptable_fraction": float(acceptable_fraction), "dct_method": str(dct_method)}
    if const is not None and const.size == 4:
        attrs["window"] = tuple(int(v) for v in const.reshape(-1))
    return apply_op("DecodeAndCropJpeg", (x, window), attrs, name=name)


@register_host("IsJpeg", always=True, infer=lambda specs, attrs: [(TensorShape([]), _dtypes.bool)])
def _host_is_jpeg(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.asarray(_scalar_bytes(inputs[0])[:3] == b"\xff\xd8\xff"),)


register_op("IsJpeg", infer=lambda specs, attrs: [(TensorShape([]), _dtypes.bool)], lowering=device_lowering,
            default_name="is_jpeg")(_decode_device)


def is_jpeg(contents: Any, name: str | None = None) -> Any:
    """Whether ``contents`` (a scalar string) starts with JPEG's magic bytes ``FF D8 FF``, as
    ``tf.io.is_jpeg`` / ``tf.image.is_jpeg``; a bool scalar."""
    x = _string_scalar(contents, "contents", "is_jpeg")
    return apply_op("IsJpeg", (x,), {}, name=name)
