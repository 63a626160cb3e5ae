"""Unicode and n-gram string ops, as ``tf.strings``: ``unicode_transcode``,
``unicode_encode`` (dense code points), ``unicode_decode``/``unicode_split``/``bytes_split``
of one string, and ``ngrams`` of dense token tensors.

Host ops (strings are host values) with Python's codecs for UTF-8, UTF-16-BE and
UTF-32-BE (TF: ICU). TF 2.21 returns ``RaggedTensor``s where rows have different
lengths (``unicode_decode`` of a vector, ``bytes_split`` of a vector...); jaxsess has
no ragged tensors, so it covers the cases whose result is dense: a scalar string
gives a vector, and ``ngrams`` of a dense ``[..., n]`` tensor gives ``[..., n - width + 1]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops._args import static_int
from jaxsess._tf1.ops.string_ops import _map_strings, _string_arg

__all__ = ["unicode_transcode", "unicode_encode", "unicode_decode", "unicode_split", "bytes_split", "ngrams",
           "unicode_decode_with_offsets", "unsorted_segment_join"]

_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}
_ERRORS = ("strict", "replace", "ignore")


def _host_only(op_type: str, infer: Any) -> None:
    def impl(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
        raise AssertionError(f"{op_type} runs on the host")
    register_op(op_type, default_name=op_type, infer=infer, lowering=device_lowering)(impl)


def _codec(fn: str, encoding: str) -> str:
    if encoding not in _CODECS:
        raise ValueError(f"{fn}: encoding must be one of {list(_CODECS)}, got {encoding!r}.")
    return _CODECS[encoding]


def _check_errors(fn: str, errors_mode: str) -> str:
    if errors_mode not in _ERRORS:
        raise ValueError(f"{fn}: errors must be one of {list(_ERRORS)}, got {errors_mode!r}.")
    return errors_mode


def _decode_text(op: Operation, data: bytes) -> list[int]:
    """The code points of ``data`` in the op's input encoding, bad sequences handled by ``errors``."""
    mode, repl = op.attrs["errors"], op.attrs["replacement_char"]
    try:
        text = data.decode(_CODECS[op.attrs["input_encoding"]], errors="strict" if mode == "strict" else "replace")
    except UnicodeDecodeError:
        raise errors.InvalidArgumentError(op.name, op, f"Invalid formatting on input string: {data!r}") from None
    points = [ord(c) for c in text]
    if mode == "ignore":
        return [p for p in points if p != 0xFFFD]
    return [repl if p == 0xFFFD else p for p in points]


def _encode_points(op: Operation, points: Sequence[int], encoding: str) -> bytes:
    mode, repl = op.attrs["errors"], op.attrs["replacement_char"]
    chars = []
    for p in points:
        if 0 <= p <= 0x10FFFF and not 0xD800 <= p <= 0xDFFF:
            chars.append(chr(p))
        elif mode == "strict":
            raise errors.InvalidArgumentError(op.name, op, f"Code point is out of range for Unicode, or a noncharacter: "
                                                           f"{p}")
        elif mode == "replace":
            chars.append(chr(repl))
    return "".join(chars).encode(_CODECS[encoding])


def _same_shape_string(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(specs[0][0]), _dtypes.string)]


_host_only("UnicodeTranscode", _same_shape_string)


@register_host("UnicodeTranscode", always=True, infer=_same_shape_string)
def _host_transcode(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    out_enc = op.attrs["output_encoding"]
    return (_map_strings(inputs[0], lambda s: _encode_points(op, _decode_text(op, s), out_enc)),)


def unicode_transcode(input: Any, input_encoding: str, output_encoding: str,  # noqa: A002
                      errors: str = "replace", replacement_char: int = 65533,
                      replace_control_characters: bool = False, name: str | None = None) -> Any:
    """Each string re-encoded from ``input_encoding`` to ``output_encoding``, as
    ``tf.strings.unicode_transcode``.

    Args:
      input, a string tensor of any shape; encodings ``'UTF-8'``, ``'UTF-16-BE'`` or
      ``'UTF-32-BE'``; ``errors``: ``'replace'`` (by ``replacement_char``), ``'ignore'`` or
      ``'strict'``.

    Returns:
      A string tensor of ``input``'s shape.

    Raises:
      ValueError: another encoding or ``errors``; ``replace_control_characters``.
      InvalidArgumentError (at run time): invalid input with ``errors='strict'``.
    """
    if replace_control_characters:
        raise ValueError("unicode_transcode: replace_control_characters is not supported by jaxsess.")
    attrs = {"input_encoding": input_encoding, "output_encoding": output_encoding,
             "errors": _check_errors("unicode_transcode", errors), "replacement_char": int(replacement_char)}
    _codec("unicode_transcode", input_encoding)
    _codec("unicode_transcode", output_encoding)
    return apply_op("UnicodeTranscode", (_string_arg("unicode_transcode", input),), attrs, name=name)


def _encode_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    dims = TensorShape(specs[0][0]).as_list()
    return [(TensorShape(None if dims is None else dims[:-1]), _dtypes.string)]


_host_only("UnicodeEncodeDense", _encode_infer)


@register_host("UnicodeEncodeDense", always=True, infer=_encode_infer)
def _host_unicode_encode(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    x = np.asarray(inputs[0])
    out = np.empty(x.shape[:-1], dtype=object)
    for idx in np.ndindex(*x.shape[:-1]):
        out[idx] = _encode_points(op, [int(p) for p in x[idx]], op.attrs["output_encoding"])
    return (out,)


def unicode_encode(input: Any, output_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, name: str | None = None) -> Any:
    """Rows of int32 code points ``[..., n]`` encoded as strings ``[...]``, as
    ``tf.strings.unicode_encode`` (of a dense tensor; a ``RaggedTensor`` is not covered).

    Raises:
      ValueError: a scalar input, another encoding or ``errors``.
      InvalidArgumentError (at run time): a bad code point with ``errors='strict'``.
    """
    x = convert_to_tensor(input, dtype=_dtypes.int32)
    if x.shape.ndims == 0:
        raise ValueError(f"unicode_encode: input must have rank >= 1, got a scalar ({x.name}).")
    _codec("unicode_encode", output_encoding)
    attrs = {"output_encoding": output_encoding, "errors": _check_errors("unicode_encode", errors),
             "replacement_char": int(replacement_char)}
    return apply_op("UnicodeEncodeDense", (x,), attrs, name=name or "UnicodeEncode")


def _vector_infer(dtype: _dtypes.DType) -> Any:
    def infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
        return [(TensorShape([None]), dtype)]
    return infer


_host_only("UnicodeDecodeScalar", _vector_infer(_dtypes.int32))
_host_only("UnicodeSplitScalar", _vector_infer(_dtypes.string))
_host_only("BytesSplitScalar", _vector_infer(_dtypes.string))


def _one(inputs: list[Any]) -> bytes:
    return bytes(np.asarray(inputs[0], dtype=object).reshape(-1)[0])


def _strings(values: list[bytes]) -> np.ndarray:
    out = np.empty((len(values),), dtype=object)
    out[:] = values
    return out


@register_host("UnicodeDecodeScalar", always=True, infer=_vector_infer(_dtypes.int32))
def _host_unicode_decode(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.asarray(_decode_text(op, _one(inputs)), np.int32),)


@register_host("UnicodeSplitScalar", always=True, infer=_vector_infer(_dtypes.string))
def _host_unicode_split(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    enc = op.attrs["input_encoding"]
    return (_strings([_encode_points(op, [p], enc) for p in _decode_text(op, _one(inputs))]),)


@register_host("BytesSplitScalar", always=True, infer=_vector_infer(_dtypes.string))
def _host_bytes_split(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    data = _one(inputs)
    return (_strings([data[i:i + 1] for i in range(len(data))]),)


def _scalar_input(fn: str, input: Any) -> Any:  # noqa: A002
    x = _string_arg(fn, input)
    if x.shape.ndims != 0:
        raise NotImplementedError(f"{fn}: jaxsess covers a scalar string only (TF gives a RaggedTensor for "
                                  f"shape {x.shape}: jaxsess has no ragged tensors).")
    return x


def unicode_decode(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                   replacement_char: int = 65533, replace_control_characters: bool = False,
                   name: str | None = None) -> Any:
    """The int32 code points ``[n]`` of one string, as ``tf.strings.unicode_decode`` of a scalar.

    Raises:
      NotImplementedError: a non-scalar input (TF: a ``RaggedTensor``).
      ValueError: another encoding or ``errors``.
    """
    x = _scalar_input("unicode_decode", input)
    _codec("unicode_decode", input_encoding)
    attrs = {"input_encoding": input_encoding, "errors": _check_errors("unicode_decode", errors),
             "replacement_char": int(replacement_char)}
    return apply_op("UnicodeDecodeScalar", (x,), attrs, name=name or "UnicodeDecode")


def unicode_split(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                  replacement_char: int = 65533, name: str | None = None) -> Any:
    """The characters ``[n]`` of one string (each encoded in ``input_encoding``), as
    ``tf.strings.unicode_split`` of a scalar.

    Raises:
      NotImplementedError: a non-scalar input (TF: a ``RaggedTensor``).
    """
    x = _scalar_input("unicode_split", input)
    _codec("unicode_split", input_encoding)
    attrs = {"input_encoding": input_encoding, "errors": _check_errors("unicode_split", errors),
             "replacement_char": int(replacement_char)}
    return apply_op("UnicodeSplitScalar", (x,), attrs, name=name or "UnicodeSplit")


def bytes_split(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """The single bytes ``[n]`` of one string, as ``tf.strings.bytes_split`` of a scalar.

    Raises:
      NotImplementedError: a non-scalar input (TF: a ``RaggedTensor``).
    """
    return apply_op("BytesSplitScalar", (_scalar_input("bytes_split", input),), {}, name=name or "StringsByteSplit")


def _ngrams_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    dims = TensorShape(specs[0][0]).as_list()  # the n-gram axis is unknown, as TF's
    return [(TensorShape(None if dims is None else [*dims[:-1], None]), _dtypes.string)]


_host_only("StringNGramsDense", _ngrams_infer)


@register_host("StringNGramsDense", always=True, infer=_ngrams_infer)
def _host_ngrams(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    x = np.asarray(inputs[0], dtype=object)
    sep = op.attrs["separator"].encode("utf-8")
    n = x.shape[-1]
    rows = x.reshape(-1, n)
    out = [[sep.join(bytes(t) for t in row[i:i + w]) for w in op.attrs["widths"] for i in range(n - w + 1)]
           for row in rows]
    width = len(out[0]) if out else sum(max(0, n - w + 1) for w in op.attrs["widths"])
    arr = np.empty((len(out), width), dtype=object)
    for i, r in enumerate(out):
        arr[i, :] = r
    return (arr.reshape(*x.shape[:-1], width),)


def ngrams(data: Any, ngram_width: int | Sequence[int], separator: str = " ", pad_values: Any = None,
           padding_width: int | None = None, preserve_short_sequences: bool = False,
           name: str | None = None) -> Any:
    """The n-grams of the innermost axis of a dense string tensor ``[..., n]``, joined by
    ``separator``, as ``tf.strings.ngrams``: ``[..., sum over widths of (n - width + 1)]``
    (for several widths, all n-grams of the first width, then the next...).

    Raises:
      ValueError: a scalar input or a width < 1.
      NotImplementedError: ``pad_values``/``padding_width``/``preserve_short_sequences``
        (jaxsess has no ragged results).
    """
    widths = (int(ngram_width),) if isinstance(ngram_width, int | np.integer) else tuple(int(w) for w in ngram_width)
    if any(w < 1 for w in widths):
        raise ValueError(f"ngrams: ngram_width must be >= 1, got {list(widths)}.")
    if pad_values is not None or padding_width is not None or preserve_short_sequences:
        raise NotImplementedError("ngrams: pad_values, padding_width and preserve_short_sequences are not supported "
                                  "by jaxsess.")
    x = _string_arg("ngrams", data)
    if x.shape.ndims == 0:
        raise ValueError(f"ngrams: data must have rank >= 1, got a scalar ({x.name}).")
    return apply_op("StringNGramsDense", (x,), {"widths": widths, "separator": str(separator)},
                    name=name or "StringNGrams")


def _with_offsets_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([None]), _dtypes.int32), (TensorShape([None]), _dtypes.int64)]


def _with_offsets_device(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("UnicodeDecodeWithOffsets runs on the host")


register_op("UnicodeDecodeWithOffsetsScalar", default_name="UnicodeDecodeWithOffsets", num_outputs=2,
            infer=_with_offsets_infer, lowering=device_lowering)(_with_offsets_device)


@register_host("UnicodeDecodeWithOffsetsScalar", always=True, infer=_with_offsets_infer)
def _host_decode_with_offsets(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    data = _one(inputs)
    points = _decode_text(op, data)
    enc = _CODECS[op.attrs["input_encoding"]]
    offsets, pos = [], 0
    for p in points:  # each character's start: the bytes its encoding takes (a replaced bad byte: 1)
        offsets.append(pos)
        try:
            pos += len(chr(p).encode(enc)) if data[pos:].startswith(chr(p).encode(enc)) else 1
        except (UnicodeEncodeError, ValueError):
            pos += 1
    return np.asarray(points, np.int32), np.asarray(offsets, np.int64)


def unicode_decode_with_offsets(input: Any, input_encoding: str, errors: str = "replace",  # noqa: A002
                                replacement_char: int = 65533, replace_control_characters: bool = False,
                                name: str | None = None) -> tuple[Any, Any]:
    """The int32 code points ``[n]`` of one string and the int64 byte offset where each
    starts, as ``tf.strings.unicode_decode_with_offsets`` of a scalar.

    Raises:
      NotImplementedError: a non-scalar input (TF: ``RaggedTensor``s).
    """
    x = _scalar_input("unicode_decode_with_offsets", input)
    _codec("unicode_decode_with_offsets", input_encoding)
    attrs = {"input_encoding": input_encoding, "errors": _check_errors("unicode_decode_with_offsets", errors),
             "replacement_char": int(replacement_char)}
    points, offsets = apply_op("UnicodeDecodeWithOffsetsScalar", (x,), attrs, name=name or "UnicodeDecodeWithOffsets")
    return points, offsets


def _segment_join_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    dims = TensorShape(specs[0][0]).as_list()
    ids = TensorShape(specs[1][0]).as_list()
    inner = None if dims is None or ids is None else dims[len(ids):]
    return [(TensorShape(None if inner is None else [attrs["num_segments"], *inner]), _dtypes.string)]


_host_only("UnsortedSegmentJoinStatic", _segment_join_infer)


@register_host("UnsortedSegmentJoinStatic", always=True, infer=_segment_join_infer)
def _host_segment_join(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    x = np.asarray(inputs[0], dtype=object)
    ids = np.asarray(inputs[1]).astype(np.int64)
    n = op.attrs["num_segments"]
    sep = op.attrs["separator"].encode("utf-8")
    if x.shape[:ids.ndim] != ids.shape:
        raise errors.InvalidArgumentError(op.name, op, f"data.shape = {list(x.shape)} does not start with "
                                                       f"segment_ids.shape = {list(ids.shape)}")
    if ids.size and (ids.min() < 0 or ids.max() >= n):
        raise errors.InvalidArgumentError(
            op.name, op, "segment_ids are not allowed to exceed num_segments or to have negative values.")
    rows = x.reshape(ids.size, -1)
    inner = x.shape[ids.ndim:]
    parts: list[list[list[bytes]]] = [[[] for _ in range(rows.shape[1])] for _ in range(n)]
    for r, seg in enumerate(ids.reshape(-1).tolist()):
        for c in range(rows.shape[1]):
            parts[seg][c].append(bytes(rows[r, c]))
    out = np.empty((n, rows.shape[1]), dtype=object)
    for k in range(n):
        for c in range(rows.shape[1]):
            out[k, c] = sep.join(parts[k][c])
    return (out.reshape(n, *inner),)


def unsorted_segment_join(inputs: Any, segment_ids: Any, num_segments: Any, separator: str = "",
                          name: str | None = None) -> Any:
    """The strings of each segment joined by ``separator`` (empty for an empty segment), as
    ``tf.strings.unsorted_segment_join``: ``[num_segments] + inputs.shape[rank(segment_ids):]``.

    Raises:
      ValueError: ``num_segments`` unknown at build time.
      InvalidArgumentError (at run time): an id out of ``[0, num_segments)`` (TF's message).
    """
    x = _string_arg("unsorted_segment_join", inputs)
    ids = convert_to_tensor(segment_ids)
    if not _dtypes.as_dtype(ids.dtype).is_integer:
        raise TypeError(f"unsorted_segment_join: segment_ids must be int32 or int64, got {ids.dtype.name}.")
    n = static_int(num_segments, "unsorted_segment_join", "num_segments")
    return apply_op("UnsortedSegmentJoinStatic", (x, ids), {"num_segments": n, "separator": str(separator)},
                    name=name or "UnsortedSegmentJoin")
