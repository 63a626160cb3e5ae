"""String tensors, as TF1's ``tf.string``: constants, placeholders,
``identity``, and the ``tf.strings`` ops (``join``, ``as_string``, ``format``,
``length``, ``substr``, ``regex_replace``, ``regex_full_match``, ``lower``,
``upper``, ``strip``, ``reduce_join``, ``to_hash_bucket_fast``, ``split``)
and web-safe base64.

Strings are host values: a string tensor's value is a NumPy object array of
``bytes`` (a scalar fetches as ``bytes``), computed on the host before the
device plan runs (see :mod:`jaxsess._core.graph._host`). Device ops cannot take
string inputs: building one raises ``TypeError`` naming the op and tensor.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1._fingerprint import hash64, siphash24, to_hash_bucket_fast, to_hash_buckets
from jaxsess._tf1.ops._args import op_scope
from jaxsess._tf1.ops._operators import _rebuild
from jaxsess._tf1.ops.array_ops import reshape
from jaxsess._tf1.ops.indexing_ops import strided_slice
from jaxsess._tf1.ops.logging_ops import format_v2
from jaxsess._tf1.ops.shape_ops import shape as shape_of
from jaxsess._tf1.ops.sparse_tensor import SparseTensor

__all__ = [
    "string_join", "as_string", "string_format", "string_length", "substr", "regex_replace", "regex_full_match",
    "lower", "upper", "strip", "string_strip", "reduce_join", "string_to_hash_bucket_fast", "encode_base64", "decode_base64",
    "string_split_v2",
]


def _same_as_input(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(specs[0][0]), specs[0][1])]


@register_host("Const")
def _host_const(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (op.attrs["value"],)


@register_host("Identity", infer=_same_as_input)
def _host_identity(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (inputs[0],)


register_host("StopGradient", infer=_same_as_input)(_host_identity)


def _shape_of_string_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    shape = TensorShape(specs[0][0])
    return [(TensorShape([shape.ndims]), attrs["out_type"])]


@register_host("Shape", infer=_shape_of_string_infer)
def _host_shape(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.asarray(np.shape(inputs[0]), op.attrs["out_type"].np_dtype),)


def _scalar_of_string_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([]), attrs.get("out_type", _dtypes.int32))]


@register_host("Size", infer=_scalar_of_string_infer)
def _host_size(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.asarray(np.size(inputs[0]), op.attrs["out_type"].np_dtype),)


@register_host("Rank", infer=_scalar_of_string_infer)
def _host_rank(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.int32(np.ndim(inputs[0])),)


def _pwd_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(attrs["shape"], specs[0][1])]


register_host("PlaceholderWithDefault", infer=_pwd_infer)(_host_identity)


@register_host("Placeholder")
def _host_placeholder(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    t = op.outputs[0]
    raise errors.InvalidArgumentError(
        op.name, op, f"You must feed a value for placeholder tensor '{op.name}' with dtype {t.dtype.name}"
        + ("" if t.shape.ndims is None else f" and shape {t.shape.tf_str()}"),
    )


def _broadcast_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    shapes = [TensorShape(s) for s, _ in specs]
    if any(s.ndims is None for s in shapes):
        return [(TensorShape(None), _dtypes.string)]
    known = [tuple(1 if d is None else d for d in s.as_list()) for s in shapes]
    try:
        out = np.broadcast_shapes(*known)
    except ValueError:
        raise ValueError(f"StringJoin inputs must be broadcastable, got shapes {[str(s) for s in shapes]}") from None
    return [(TensorShape(list(out)), _dtypes.string)]


def _string_join_to_tf(attrs: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[Any]]:
    return {**attrs, "N": len(specs)}, []  # TF's StringJoin has the number of inputs as attr N


@register_op("StringJoin", default_name="StringJoin", lowering=device_lowering,
             tf=TFOp(to_tf=_string_join_to_tf))
def _string_join_device(*xs: Any, separator: str) -> Any:  # pragma: no cover - host only
    raise AssertionError("StringJoin runs on the host")


@register_host("StringJoin", infer=_broadcast_infer)
def _host_string_join(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    sep = op.attrs["separator"].encode("utf-8")
    arrays = np.broadcast_arrays(*[np.asarray(v, dtype=object) for v in inputs])
    out = np.empty(arrays[0].shape, dtype=object)
    for idx in np.ndindex(out.shape):
        out[idx] = sep.join(a[idx] for a in arrays)
    return (out,)


def string_join(inputs: Sequence[Any], separator: str = "", name: str | None = None) -> Any:
    """Joins string tensors element-wise (broadcasting scalars), as ``tf.strings.join``.

    Args:
      inputs: string tensors or Python strings of broadcastable shapes.
      separator: put between the joined strings.

    Returns:
      A string tensor.

    Raises:
      TypeError: an input is not a string tensor.
    """
    ts = [convert_to_tensor(x, dtype=_dtypes.string) for x in inputs]
    for t in ts:
        if t.dtype != _dtypes.string:
            raise TypeError(f"strings.join: expected string tensors, got {t.dtype.name} ({t.name}).")
    return apply_op("StringJoin", ts, {"separator": str(separator)}, name=name)


def _as_string_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(specs[0][0]), _dtypes.string)]


@register_op("AsString", default_name="AsString", infer=_as_string_infer, lowering=device_lowering)
def _as_string_device(x: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("AsString runs on the host")


@register_host("AsString", infer=_as_string_infer)
def _host_as_string(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    x = np.asarray(inputs[0])
    out = np.empty(x.shape, dtype=object)
    precision = op.attrs["precision"]
    for idx, v in np.ndenumerate(x):
        if x.dtype.kind == "f":
            s = f"{v:.{precision}f}" if precision >= 0 else f"{v:f}"
        elif x.dtype.kind == "b":
            s = "true" if v else "false"
        else:
            s = str(v)
        out[idx] = s.encode("ascii")
    return (out,)


def as_string(input: Any, precision: int = -1, scientific: bool = False, shortest: bool = False,  # noqa: A002
              width: int = -1, fill: str = "", name: str | None = None) -> Any:
    """Numbers formatted as strings (floats as ``%f``: 6 decimals unless
    ``precision``), as ``tf.strings.as_string``.

    Raises:
      NotImplementedError: ``scientific``, ``shortest``, ``width`` or ``fill``.
    """
    if scientific or shortest or width != -1 or fill:
        raise NotImplementedError("as_string supports only precision=.")
    x = convert_to_tensor(input)
    return apply_op("AsString", (x,), {"precision": int(precision)}, name=name)


def _format_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([]), _dtypes.string)]


@register_op("StringFormat", default_name="StringFormat", infer=_format_infer, lowering=device_lowering)
def _string_format_device(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("StringFormat runs on the host")


@register_host("StringFormat", infer=_format_infer)
def _host_string_format(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    pieces = op.attrs["template"].split(op.attrs["placeholder"])
    shown = [format_v2(np.asarray(v), op.attrs["summarize"]) for v in inputs]
    text = pieces[0] + "".join(v + p for v, p in zip(shown, pieces[1:], strict=True))
    out = np.empty((), dtype=object)
    out[()] = text.encode("utf-8")
    return (out,)


def string_format(template: str, inputs: Any, placeholder: str = "{}", summarize: int = 3,
                  name: str | None = None) -> Any:
    """A scalar string: ``template`` with each ``placeholder`` replaced by the next tensor of
    ``inputs`` printed as ``tf.print`` does (the first and last ``summarize`` entries of each
    dimension), as ``tf.strings.format``.

    Raises:
      ValueError: the number of placeholders differs from the number of inputs (TF's message).
    """
    values = list(inputs) if isinstance(inputs, list | tuple) else [inputs]
    expected = template.count(placeholder)
    if expected != len(values):
        raise ValueError(f"The template expects {expected} tensors, but the inputs only has {len(values)}. Please "
                         "ensure the number of placeholders in template matches inputs length.")
    ts = [convert_to_tensor(v) for v in values]
    attrs = {"template": str(template), "placeholder": str(placeholder), "summarize": int(summarize)}
    return apply_op("StringFormat", ts, attrs, name=name)


# -- element-wise string ops (host) ----------------------------------------------------------------


def _as_bytes_array(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=object)


def _map_strings(x: Any, fn: Any, dtype: Any = object) -> np.ndarray:
    arr = _as_bytes_array(x)
    out = np.empty(arr.shape, dtype=dtype)
    for idx, v in np.ndenumerate(arr):
        out[idx] = fn(bytes(v))
    return out


def _string_out_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(specs[0][0]), _dtypes.string)]


def _typed_infer(dtype: _dtypes.DType) -> Any:
    def infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
        return [(TensorShape(specs[0][0]), dtype)]
    return infer


def _host_only(op_type: str, infer: Any, **kw: Any) -> None:
    def impl(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
        raise AssertionError(f"{op_type} runs on the host")
    register_op(op_type, default_name=op_type, infer=infer, lowering=device_lowering, **kw)(impl)


def _string_arg(op_name: str, x: Any) -> Any:
    t = convert_to_tensor(x, dtype_hint=_dtypes.string)
    if t.dtype != _dtypes.string:
        raise TypeError(f"{op_name}: expected a string tensor, got {t.dtype.name} ({t.name}).")
    return t


_UNITS = ("BYTE", "UTF8_CHAR")


def _check_unit(op_name: str, unit: str) -> str:
    if unit not in _UNITS:
        raise ValueError(f"{op_name}: unit must be one of {list(_UNITS)}, got {unit!r}.")
    return unit


_host_only("StringLength", _typed_infer(_dtypes.int32))


@register_host("StringLength", always=True, infer=_typed_infer(_dtypes.int32))
def _host_string_length(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    if op.attrs["unit"] == "UTF8_CHAR":
        # TF counts the bytes that do not continue a UTF-8 sequence
        return (_map_strings(inputs[0], lambda s: sum((b & 0xC0) != 0x80 for b in s), np.int32),)
    return (_map_strings(inputs[0], len, np.int32),)


def string_length(input: Any, name: str | None = None, unit: str = "BYTE") -> Any:  # noqa: A002
    """The length of each string, as ``tf.strings.length``.

    Args:
      input: a string tensor of any shape.
      unit: ``"BYTE"`` (bytes) or ``"UTF8_CHAR"`` (UTF-8 characters).

    Returns:
      An ``int32`` tensor of ``input``'s shape.

    Raises:
      ValueError: another ``unit``.
      TypeError: ``input`` is not a string tensor.
    """
    x = _string_arg("strings.length", input)
    return apply_op("StringLength", (x,), {"unit": _check_unit("strings.length", unit)}, name=name)


def _substr_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return _broadcast_infer(specs, attrs)


_host_only("Substr", _substr_infer)


def _utf8_offsets(s: bytes) -> list[int]:
    return [k for k, b in enumerate(s) if (b & 0xC0) != 0x80] + [len(s)]


@register_host("Substr", infer=_substr_infer)
def _host_substr(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    arrays = np.broadcast_arrays(_as_bytes_array(inputs[0]), np.asarray(inputs[1]), np.asarray(inputs[2]))
    out = np.empty(arrays[0].shape, dtype=object)
    utf8 = op.attrs["unit"] == "UTF8_CHAR"
    for idx in np.ndindex(out.shape):
        s = bytes(arrays[0][idx])
        pos, n = int(arrays[1][idx]), int(arrays[2][idx])
        offs = _utf8_offsets(s) if utf8 else list(range(len(s) + 1))
        size = len(offs) - 1
        start = pos + size if pos < 0 else pos
        if start < 0 or start > size:
            raise errors.InvalidArgumentError(
                op.name, op, f"pos {pos} out of range for string b'{s.decode('utf-8', 'replace')}' at index "
                f"{np.ravel_multi_index(idx, out.shape) if out.shape else 0}")
        end = min(start + max(n, 0), size)
        out[idx] = s[offs[start]:offs[end]]
    return (out,)


def substr(input: Any, pos: Any, len: Any, name: str | None = None, unit: str = "BYTE") -> Any:  # noqa: A002
    """The substrings ``input[pos:pos + len]`` (broadcasting), as ``tf.strings.substr``.

    A negative ``pos`` counts from the end; ``len`` is clipped at the end.

    Args:
      input: a string tensor; pos, len: ``int32`` or ``int64`` tensors.
      unit: ``"BYTE"`` or ``"UTF8_CHAR"``.

    Raises:
      ValueError: another ``unit``.
      InvalidArgumentError (at run time): ``pos`` outside the string (TF's message).
    """
    x = _string_arg("strings.substr", input)
    p = convert_to_tensor(pos, dtype_hint=_dtypes.int32)
    n = convert_to_tensor(len, dtype=p.dtype)
    return apply_op("Substr", (x, p, n), {"unit": _check_unit("strings.substr", unit)}, name=name)


def _re2_rewrite(rewrite: str) -> Any:
    """RE2's rewrite string (``\\0``..``\\9`` groups, ``\\\\`` a backslash) as a function of a match."""
    pieces: list[str | int] = []
    k = 0
    lit = ""
    while k < len(rewrite):
        c = rewrite[k]
        if c == "\\" and k + 1 < len(rewrite) and (rewrite[k + 1].isdigit() or rewrite[k + 1] == "\\"):
            if rewrite[k + 1] == "\\":
                lit += "\\"
            else:
                pieces.append(lit)
                lit = ""
                pieces.append(int(rewrite[k + 1]))
            k += 2
            continue
        lit += c
        k += 1
    pieces.append(lit)

    def repl(m: Any) -> str:
        return "".join(p if isinstance(p, str) else (m.group(p) or "") for p in pieces)
    return repl


def _compile(op: Operation, pattern: str) -> Any:
    try:
        return re.compile(pattern, re.DOTALL)
    except re.error as e:
        raise errors.InvalidArgumentError(op.name, op, f"Invalid pattern: {pattern}, error: {e}") from None


_host_only("RegexReplace", _string_out_infer)


@register_host("RegexReplace", infer=_string_out_infer)
def _host_regex_replace(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    pattern = bytes(np.asarray(inputs[1], dtype=object).reshape(-1)[0]).decode("utf-8")
    rewrite = bytes(np.asarray(inputs[2], dtype=object).reshape(-1)[0]).decode("utf-8")
    rx = _compile(op, pattern)
    repl = _re2_rewrite(rewrite)
    count = 0 if op.attrs["replace_global"] else 1
    return (_map_strings(inputs[0], lambda s: rx.sub(repl, s.decode("utf-8", "surrogateescape"), count=count)
                         .encode("utf-8", "surrogateescape")),)


def regex_replace(input: Any, pattern: Any, rewrite: Any, replace_global: bool = True,  # noqa: A002
                  name: str | None = None) -> Any:
    """Replaces the matches of ``pattern`` in each string by ``rewrite`` (``\\0``..``\\9``: the
    match and its groups), as ``tf.strings.regex_replace``.

    Patterns are read by Python's ``re`` (TF: RE2; the common syntax agrees; RE2-only
    syntax such as ``\\pL`` or possessive quantifiers differs).

    Args:
      input: a string tensor; pattern, rewrite: scalar strings.
      replace_global: replace every match (else the first only).

    Raises:
      InvalidArgumentError (at run time): an invalid pattern.
    """
    x = _string_arg("strings.regex_replace", input)
    p = _string_arg("strings.regex_replace", pattern)
    r = _string_arg("strings.regex_replace", rewrite)
    return apply_op("RegexReplace", (x, p, r), {"replace_global": bool(replace_global)}, name=name)


_host_only("RegexFullMatch", _typed_infer(_dtypes.bool))


@register_host("RegexFullMatch", always=True, infer=_typed_infer(_dtypes.bool))
def _host_regex_full_match(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    pattern = bytes(np.asarray(inputs[1], dtype=object).reshape(-1)[0]).decode("utf-8")
    rx = _compile(op, pattern)
    return (_map_strings(inputs[0], lambda s: rx.fullmatch(s.decode("utf-8", "surrogateescape")) is not None,
                         np.bool_),)


def regex_full_match(input: Any, pattern: Any, name: str | None = None) -> Any:  # noqa: A002
    """Whether each whole string matches ``pattern``, as ``tf.strings.regex_full_match``
    (a ``bool`` tensor of ``input``'s shape; Python's ``re``, see :func:`regex_replace`).

    Raises:
      InvalidArgumentError (at run time): an invalid pattern.
    """
    x = _string_arg("strings.regex_full_match", input)
    p = _string_arg("strings.regex_full_match", pattern)
    return apply_op("RegexFullMatch", (x, p), {}, name=name)


def _ascii_case(upper: bool) -> Any:
    table = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    if not upper:
        table = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
    return lambda s: s.translate(table)


for _type, _upper in (("StringLower", False), ("StringUpper", True)):
    _host_only(_type, _string_out_infer)

    def _impl(ctx: Any, op: Operation, inputs: list[Any], _fn: Any = _ascii_case(_upper)) -> tuple[Any, ...]:
        if op.attrs.get("encoding"):
            up = op.type == "StringUpper"
            return (_map_strings(inputs[0], lambda s: (s.decode("utf-8").upper() if up else s.decode("utf-8").lower())
                                 .encode("utf-8")),)
        return (_map_strings(inputs[0], _fn),)
    register_host(_type, infer=_string_out_infer)(_impl)


def lower(input: Any, encoding: str = "", name: str | None = None) -> Any:  # noqa: A002
    """Each string in lower case, as ``tf.strings.lower`` (ASCII letters only; with
    ``encoding="utf-8"``, Unicode letters)."""
    x = _string_arg("strings.lower", input)
    return apply_op("StringLower", (x,), {"encoding": str(encoding)}, name=name)


def upper(input: Any, encoding: str = "", name: str | None = None) -> Any:  # noqa: A002
    """Each string in upper case, as ``tf.strings.upper`` (ASCII letters only; with
    ``encoding="utf-8"``, Unicode letters)."""
    x = _string_arg("strings.upper", input)
    return apply_op("StringUpper", (x,), {"encoding": str(encoding)}, name=name)


_host_only("StringStrip", _string_out_infer)


@register_host("StringStrip", infer=_string_out_infer)
def _host_string_strip(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (_map_strings(inputs[0], lambda s: s.strip(b" \t\n\v\f\r")),)


def strip(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """Each string without leading and trailing ASCII whitespace, as ``tf.strings.strip``."""
    return apply_op("StringStrip", (_string_arg("strings.strip", input),), {}, name=name)


string_strip = strip


def _reduce_join_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    shape = TensorShape(specs[0][0])
    if shape.ndims is None:
        return [(TensorShape(None), _dtypes.string)]
    dims = shape.as_list()
    axes = _norm_axes(attrs["axis"], len(dims))
    out = [1 if i in axes else d for i, d in enumerate(dims)] if attrs["keep_dims"] else \
        [d for i, d in enumerate(dims) if i not in axes]
    return [(TensorShape(out), _dtypes.string)]


def _norm_axes(axis: Any, rank: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(rank))
    axes = [axis] if isinstance(axis, int) else list(axis)
    for a in axes:
        if not -rank <= a < max(rank, 1):
            raise ValueError(f"reduce_join: axis {a} out of range for a tensor of rank {rank}.")
    return tuple(sorted({a % rank if rank else 0 for a in axes}))


_host_only("ReduceJoin", _reduce_join_infer)


@register_host("ReduceJoin", infer=_reduce_join_infer)
def _host_reduce_join(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    x = _as_bytes_array(inputs[0])
    axes = _norm_axes(op.attrs["axis"], x.ndim)
    sep = op.attrs["separator"].encode("utf-8")
    keep = [i for i in range(x.ndim) if i not in axes]
    moved = np.transpose(x, keep + list(axes)) if x.ndim else x
    lead = moved.shape[:len(keep)]
    flat = moved.reshape(lead + (-1,))
    out = np.empty(lead, dtype=object)
    for idx in np.ndindex(lead):
        out[idx] = sep.join(bytes(v) for v in flat[idx])
    if op.attrs["keep_dims"]:
        out = out.reshape([1 if i in axes else d for i, d in enumerate(x.shape)])
    return (out,)


def reduce_join(inputs: Any, axis: Any = None, keep_dims: bool | None = None, separator: str = "",
                name: str | None = None, reduction_indices: Any = None, keepdims: bool | None = None) -> Any:
    """Joins the strings along ``axis`` (all axes when ``None``) with ``separator`` between
    them, as ``tf.strings.reduce_join`` / ``tf.compat.v1.reduce_join``.

    Args:
      inputs: a string tensor of known rank.
      axis: an int or a list of ints (negative: from the end); ``reduction_indices`` is
        its old name.
      keepdims / keep_dims: keep the joined axes with size 1.

    Raises:
      ValueError: an axis out of range, or ``inputs`` of unknown rank.
    """
    x = _string_arg("strings.reduce_join", inputs)
    if axis is None:
        axis = reduction_indices
    keep = bool(keepdims if keepdims is not None else keep_dims)
    if x.shape.ndims is None:
        raise ValueError(f"reduce_join: the rank of '{x.name}' must be known when the graph is built.")
    ax = None if axis is None else (int(axis) if isinstance(axis, int | np.integer) else [int(a) for a in axis])
    _norm_axes(ax, x.shape.ndims)
    return apply_op("ReduceJoin", (x,), {"axis": ax, "keep_dims": keep, "separator": str(separator)}, name=name)


_host_only("StringToHashBucketFast", _typed_infer(_dtypes.int64))


@register_host("StringToHashBucketFast", always=True, infer=_typed_infer(_dtypes.int64))
def _host_hash_bucket_fast(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (to_hash_bucket_fast(_as_bytes_array(inputs[0]), op.attrs["num_buckets"]),)


def string_to_hash_bucket_fast(input: Any, num_buckets: int, name: str | None = None) -> Any:  # noqa: A002
    """Each string hashed into ``[0, num_buckets)`` with farmhash ``Fingerprint64`` (the same
    ids as TF), as ``tf.strings.to_hash_bucket_fast``; an ``int64`` tensor of ``input``'s shape.

    Raises:
      ValueError: ``num_buckets < 1``.
    """
    if int(num_buckets) < 1:
        raise ValueError(f"strings.to_hash_bucket_fast: num_buckets must be >= 1, got {num_buckets}.")
    x = _string_arg("strings.to_hash_bucket_fast", input)
    return apply_op("StringToHashBucketFast", (x,), {"num_buckets": int(num_buckets)}, name=name)


_host_only("StringToHashBucket", _typed_infer(_dtypes.int64))
_host_only("StringToHashBucketStrong", _typed_infer(_dtypes.int64))


@register_host("StringToHashBucket", always=True, infer=_typed_infer(_dtypes.int64))
def _host_hash_bucket(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (to_hash_buckets(inputs[0], op.attrs["num_buckets"], hash64),)


@register_host("StringToHashBucketStrong", always=True, infer=_typed_infer(_dtypes.int64))
def _host_hash_bucket_strong(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    key = op.attrs["key"]
    return (to_hash_buckets(inputs[0], op.attrs["num_buckets"], lambda v: siphash24(key, v)),)


def _num_buckets(fn: str, num_buckets: int) -> int:
    if int(num_buckets) < 1:
        raise ValueError(f"{fn}: num_buckets must be >= 1, got {num_buckets}.")
    return int(num_buckets)


def string_to_hash_bucket(string_tensor: Any = None, num_buckets: int = 1, name: str | None = None,
                          input: Any = None) -> Any:  # noqa: A002
    """Each string hashed into ``[0, num_buckets)`` with TF's ``Hash64`` (the same ids as
    TF), as ``tf.compat.v1.string_to_hash_bucket`` / ``tf.strings.to_hash_bucket``
    (prefer :func:`string_to_hash_bucket_fast`, as TF's docs say).

    Returns:
      An ``int64`` tensor of the input's shape.

    Raises:
      ValueError: ``num_buckets < 1``.
      TypeError: the input is not a string tensor.
    """
    x = _string_arg("strings.to_hash_bucket", string_tensor if string_tensor is not None else input)
    n = _num_buckets("strings.to_hash_bucket", num_buckets)
    return apply_op("StringToHashBucket", (x,), {"num_buckets": n}, name=name)


def to_hash_bucket(input: Any, num_buckets: int, name: str | None = None) -> Any:  # noqa: A002
    """As :func:`string_to_hash_bucket` (``tf.strings.to_hash_bucket``'s signature)."""
    return string_to_hash_bucket(input, num_buckets, name=name)


def string_to_hash_bucket_strong(input: Any, num_buckets: int, key: Sequence[int],  # noqa: A002
                                 name: str | None = None) -> Any:
    """Each string hashed into ``[0, num_buckets)`` with SipHash-2-4 keyed by ``key`` (the
    same ids as TF), as ``tf.strings.to_hash_bucket_strong``.

    Args:
      key: two int64s, the 128-bit hash key (each read as unsigned, as TF).

    Returns:
      An ``int64`` tensor of the input's shape.

    Raises:
      ValueError: ``num_buckets < 1``, or ``key`` not two int64s.
      TypeError: the input is not a string tensor.
    """
    x = _string_arg("strings.to_hash_bucket_strong", input)
    n = _num_buckets("strings.to_hash_bucket_strong", num_buckets)
    k = tuple(int(v) for v in key)
    if len(k) != 2:
        raise ValueError(f"strings.to_hash_bucket_strong: Key must have 2 elements, got {len(k)}.")
    if any(not -2**63 <= v < 2**63 for v in k):
        raise ValueError(f"strings.to_hash_bucket_strong: key values must be int64s, got {list(k)}.")
    return apply_op("StringToHashBucketStrong", (x,), {"num_buckets": n, "key": k}, name=name)


_host_only("EncodeBase64", _string_out_infer)
_host_only("DecodeBase64", _string_out_infer)


@register_host("EncodeBase64", infer=_string_out_infer)
def _host_encode_base64(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    pad = op.attrs["pad"]
    return (_map_strings(inputs[0], lambda s: base64.urlsafe_b64encode(s) if pad
                         else base64.urlsafe_b64encode(s).rstrip(b"=")),)


@register_host("DecodeBase64", infer=_string_out_infer)
def _host_decode_base64(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    def dec(s: bytes) -> bytes:
        body = s.rstrip(b"=")
        try:
            return base64.b64decode(body + b"=" * (-len(body) % 4), altchars=b"-_", validate=True)
        except (ValueError, binascii.Error):
            raise errors.InvalidArgumentError(op.name, op, f"Invalid character found in base64: {s!r}") from None
    return (_map_strings(inputs[0], dec),)


def encode_base64(input: Any, pad: bool = False, name: str | None = None) -> Any:  # noqa: A002
    """Each string in web-safe base64 (``-`` and ``_`` for ``+`` and ``/``; ``=`` padding only
    with ``pad``), as ``tf.io.encode_base64``."""
    return apply_op("EncodeBase64", (_string_arg("encode_base64", input),), {"pad": bool(pad)}, name=name)


def decode_base64(input: Any, name: str | None = None) -> Any:  # noqa: A002
    """Each web-safe base64 string decoded (padding optional), as ``tf.io.decode_base64``.

    Raises:
      InvalidArgumentError (at run time): a string that is not web-safe base64.
    """
    return apply_op("DecodeBase64", (_string_arg("decode_base64", input),), {}, name=name)


def _split_v2_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([None, 2]), _dtypes.int64), (TensorShape([None]), _dtypes.string),
            (TensorShape([2]), _dtypes.int64), (TensorShape([None, None, 0]), _dtypes.bool)]


# Outputs as ``StringSplit`` in sparse_ops: (indices, values, dense shape, and an empty
# bool array of shape ``dense_shape + [0]`` carrying the dense shape into the device plan).
_host_only("StringSplitV2", _split_v2_infer, num_outputs=4)


_WHITESPACE = b" \t\n\v\f\r"


def _split_v2(text: bytes, sep: bytes, maxsplit: int) -> list[bytes]:
    """TF's ``SplitV2`` (``string_split_op.cc``): Python's ``str.split``, except that after
    ``maxsplit`` splits the rest (maybe empty) is always the last token."""
    if maxsplit == 0:
        return [text]
    out: list[bytes] = []
    if not sep:
        text = text.lstrip(_WHITESPACE)
        while text:
            k = 0
            while k < len(text) and text[k:k + 1] not in _WHITESPACE:
                k += 1
            out.append(text[:k])
            text = text[k:].lstrip(_WHITESPACE)
            if maxsplit > 0 and len(out) == maxsplit:
                out.append(text)
                break
        return out
    while (p := text.find(sep)) >= 0:
        out.append(text[:p])
        text = text[p + len(sep):]
        if maxsplit > 0 and len(out) == maxsplit:
            break
    out.append(text)
    return out


@register_host("StringSplitV2", infer=_split_v2_infer)
def _host_string_split_v2(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    source = _as_bytes_array(inputs[0]).reshape(-1)
    sep = bytes(np.asarray(inputs[1], dtype=object).reshape(-1)[0])
    maxsplit = op.attrs["maxsplit"]
    idx: list[tuple[int, int]] = []
    vals: list[bytes] = []
    width = 0
    for i, s in enumerate(source):
        parts = _split_v2(bytes(s), sep, maxsplit)
        for j, p in enumerate(parts):
            idx.append((i, j))
            vals.append(p)
        width = max(width, len(parts))
    values = np.empty((len(vals),), dtype=object)
    values[:] = vals
    dense_shape = np.asarray([len(source), width], np.int64)
    return (np.asarray(idx, np.int64).reshape(-1, 2), values, dense_shape, np.zeros((len(source), width, 0), np.bool_))


def string_split_v2(input: Any = None, sep: Any = None, maxsplit: int = -1,  # noqa: A002
                    result_type: str = "SparseTensor", source: Any = None, name: str | None = None) -> SparseTensor:
    """Splits each string of the vector ``input`` at ``sep``, as ``tf.compat.v1.strings.split``.

    Runs on the host (strings are host values).

    Args:
      input: a string vector ``[B]`` (``source``: its old name).
      sep: the separator string (empty tokens kept); ``None``: runs of whitespace, empty
        tokens dropped (as Python's ``str.split``).
      maxsplit: at most this many splits per string (``-1``: no limit).

    Returns:
      A ``SparseTensor`` of strings: indices ``[N, 2]``, dense shape ``[B, max tokens]``
      (an empty string has no token).

    Raises:
      NotImplementedError: ``result_type='RaggedTensor'`` (jaxsess has no ragged tensors).
      ValueError: ``input`` is not a vector.
    """
    if result_type != "SparseTensor":
        raise NotImplementedError("strings.split supports result_type='SparseTensor' only.")
    src = _string_arg("strings.split", input if input is not None else source)
    if src.shape.ndims not in (None, 1):
        if src.shape.ndims == 0:
            src = reshape(src, [1])
        else:
            raise ValueError(f"strings.split: input must be a vector, got shape {src.shape} ({src.name}).")
    d = convert_to_tensor(b"" if sep is None else sep, dtype=_dtypes.string)
    with op_scope(name, "StringSplit", [src]):
        indices, values, _, carrier = apply_op("StringSplitV2", (src, d), {"maxsplit": int(maxsplit)})
        shape = strided_slice(shape_of(carrier, out_type=_dtypes.int64), [0], [-1])
    return SparseTensor(indices, values, shape)


# -- Array ops on string tensors (text pipelines: ``tf.string_split([line])``, ``tf.concat([[sos], words], 0)``,
# ``words[:max_len]``, ``tf.expand_dims(line, 0)``): NumPy object arrays on the host. ------------------------


def _by_trials(specs: list[tuple[Any, Any]], fn: Any) -> list[tuple[TensorShape, Any]]:
    """The output shape of ``fn(*arrays)`` on object arrays of the input shapes,
    unknown where it differs between unknown input dims of 0, 5 and 7 (as TF,
    ``x[:4]`` of a ``[None]`` string tensor is ``[None]``)."""
    if any(TensorShape(s).ndims is None for s, _ in specs):
        return [(TensorShape(None), _dtypes.string)]
    outs = []
    for fill in (5, 7, 0):
        arrays = [np.empty([fill if d is None else d for d in TensorShape(s).as_list()], object if d == _dtypes.string
                           else d.np_dtype) for s, d in specs]
        try:
            outs.append(np.shape(fn(*arrays)))
        except IndexError:  # an index valid for some sizes only
            continue
    if len({len(o) for o in outs}) != 1:
        return [(TensorShape(None), _dtypes.string)]
    return [(TensorShape([dims[0] if len(set(dims)) == 1 else None for dims in zip(*outs)]), _dtypes.string)]


@register_host("Pack", infer=lambda specs, attrs: _by_trials(specs, lambda *xs: np.stack(xs, attrs["axis"])))
def _host_pack(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.stack([np.asarray(x, dtype=object) for x in inputs], op.attrs["axis"]),)


def _select_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return _broadcast_infer(specs[1:], attrs)


def _host_select(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    c, x, y = (np.asarray(v) for v in inputs)
    if op.type == "Select" and c.ndim == 1 and x.ndim > 1:  # TF1's Select: a vector picks rows
        c = c.reshape(c.shape + (1,) * (x.ndim - 1))
    return (np.where(c.astype(bool), x.astype(object), y.astype(object)),)


# Select of strings (TF's sharded saver picks its temporary file name so): on the host
register_host("Select", infer=_select_infer)(_host_select)
register_host("SelectV2", infer=_select_infer)(_host_select)


@register_host("ConcatV2", infer=lambda specs, attrs: _by_trials(specs, lambda *xs: np.concatenate(xs, attrs["axis"])))
def _host_concat(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.concatenate([np.asarray(x, dtype=object) for x in inputs], op.attrs["axis"]),)


@register_host("ExpandDims", infer=lambda specs, attrs: _by_trials(specs, lambda x: np.expand_dims(x, attrs["axis"])))
def _host_expand_dims(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    return (np.expand_dims(np.asarray(inputs[0], dtype=object), op.attrs["axis"]),)


def _slice_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    n = len(specs) - 1  # tensor indices: their values are unknown, zeros stand in for them
    return _by_trials(specs[:1], lambda x: x[_rebuild(attrs["spec"], (0,) * n)])


@register_host("StridedSlice", infer=_slice_infer)
def _host_strided_slice(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    x = np.asarray(inputs[0], dtype=object)
    try:
        return (np.asarray(x[_rebuild(op.attrs["spec"], tuple(int(v) for v in inputs[1:]))], dtype=object),)
    except IndexError as e:
        raise errors.InvalidArgumentError(op.name, op, f"slice index out of bounds: {e}") from None


def _gather_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    p, i = TensorShape(specs[0][0]), TensorShape(specs[1][0])
    if p.ndims is None or i.ndims is None:
        return [(TensorShape(None), _dtypes.string)]
    dims, axis = p.as_list(), attrs["axis"] % p.ndims
    return [(TensorShape(dims[:axis] + i.as_list()[attrs["batch_dims"]:] + dims[axis + 1:]), _dtypes.string)]


@register_host("GatherV2", infer=_gather_infer)
def _host_gather(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    """``tf.gather`` of strings (``tf.gather(class_names, tf.argmax(scores, 1))``), as TF's CPU kernel."""
    params, indices = np.asarray(inputs[0], dtype=object), np.asarray(inputs[1])
    axis = op.attrs["axis"] % params.ndim
    if op.attrs["batch_dims"]:
        raise errors.UnimplementedError(op.name, op, "jaxsess gathers strings with batch_dims=0 only.")
    bad = (indices < 0) | (indices >= params.shape[axis])
    if bad.any():
        pos = tuple(int(k) for k in np.argwhere(bad)[0])
        raise errors.InvalidArgumentError(
            op.name, op, f"indices[{','.join(map(str, pos))}] = {int(indices[pos])} is not in [0, {params.shape[axis]})")
    return (np.take(params, indices, axis=axis),)
