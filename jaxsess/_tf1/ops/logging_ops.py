"""Printing at run time, as ``tf.compat.v1.Print`` and ``tf.print``.

Both lower to ``jax.debug.callback``: the values are sent to the host and
printed when the compiled plan runs (each ``run`` that needs the op), with
TF's formats. String arguments must be known when the graph is built (Python
strings, string constants); they become part of the printed text.

* ``tf.Print(input_, data, message)`` returns ``input_`` and writes
  ``message`` followed by ``[values]`` for each tensor of ``data`` (the first
  ``summarize`` elements, default 3, then ``...``) as a line on stderr (TF
  logs it with ``LOG(INFO)``).
* ``tf.print(*inputs)`` is an op with no outputs (run it, or make it a
  control dependency) writing the inputs separated by ``sep`` and followed by
  ``end`` to ``output_stream`` (default ``sys.stderr``); tensors are shown as
  NumPy does, with the first and last ``summarize`` entries per dimension.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import (
    apply_op,
    constant_value,
    convert_to_tensor,
    executing_eagerly,
    is_tensor,
)
from jaxsess._core.graph._registry import register_op

__all__ = ["Print", "print_v2", "format_v1", "format_v2"]


def _element(v: Any, v2: bool = False) -> str:
    """One element as TF's ``PrintOneElement`` writes it (``v2``: ``tf.print``,
    which quotes strings and shows floats with 9 or 17 significant digits)."""
    if isinstance(v, bytes):
        text = v.decode("utf-8", "replace")
        return f'"{text}"' if v2 else text
    if isinstance(v, np.bool_ | bool):
        return "1" if v else "0"
    if isinstance(v, np.floating | float):
        if not v2:
            return f"{float(v):g}"
        digits = 17 if isinstance(v, np.float64 | float) else 9
        return f"{float(v):.{digits}g}"
    return str(v)


class _Shown(str):
    """A formatted tensor inside a printed Python structure (``repr`` is the text)."""

    def __repr__(self) -> str:
        return str(self)


def format_v1(value: np.ndarray, limit: int) -> str:
    """TF's ``Tensor::SummarizeValue(limit)`` (``tf.Print``): the first
    ``limit`` elements in nested brackets, ``...`` where some are left out."""
    value = np.asarray(value)
    flat = value.ravel()
    n = flat.size
    limit = n if limit < 0 else min(limit, n)
    if value.ndim == 0:
        out = " ".join(_element(flat[i]) for i in range(limit))
        return out + ("..." if n > limit else "")
    parts: list[str] = []
    index = [0]

    def one_dim(d: int) -> None:
        if index[0] >= limit:
            return
        count = value.shape[d]
        if d == value.ndim - 1:
            for i in range(count):
                if index[0] >= limit:
                    if d != 0:
                        parts.append("...")
                    return
                if i > 0:
                    parts.append(" ")
                parts.append(_element(flat[index[0]]))
                index[0] += 1
            return
        for _ in range(count):
            flag = False
            if index[0] < limit:
                parts.append("[")
                flag = True
            one_dim(d + 1)
            if index[0] < limit or flag:
                parts.append("]")

    one_dim(0)
    if n > limit:
        parts.append("...")
    return "".join(parts)


def format_v2(value: np.ndarray, summarize: int) -> str:
    """TF's ``SummarizeValue(summarize, print_v2=true)`` (``tf.print``): NumPy
    layout, the first and last ``summarize`` entries of each dimension."""
    value = np.asarray(value)
    if value.ndim == 0:
        return _element(value[()], v2=True)
    ends = value.size if summarize < 0 else summarize
    nd = value.ndim
    parts: list[str] = []

    def spacing(d: int) -> None:
        if d == nd - 1:
            parts.append(" ")
            return
        parts.append("\n" * (nd - d - 1) + " " * (d + 1))

    def one_dim(d: int, sub: Any) -> None:
        if d == nd:
            parts.append(_element(sub[()] if isinstance(sub, np.ndarray) else sub, v2=True))
            return
        parts.append("[")
        count = sub.shape[0]
        start_of_end = max(ends, count - ends)
        for i in range(min(ends, count)):
            if i > 0:
                spacing(d)
            one_dim(d + 1, sub[i])
        if count > 2 * ends:
            spacing(d)
            parts.append("...")
        for i in range(start_of_end, count):
            spacing(d)
            one_dim(d + 1, sub[i])
        parts.append("]")

    one_dim(0, value)
    return "".join(parts)


def _stderr() -> Any:
    """``sys.stderr`` when printing (it may be replaced after the graph is built)."""
    return sys.stderr


class _Printer:
    """The host side of one print op: formats the pieces and writes them."""

    def __init__(self, pieces: list[Any], fmt: Callable[[list[Any]], str], stream: Any,
                 first_n: int | None = None) -> None:
        self.pieces = pieces  # str (static text) or None (the next tensor value)
        self.fmt = fmt
        self.stream = stream
        self.first_n = first_n
        self.count = 0
        self._lock = threading.Lock()

    def __call__(self, *values: Any) -> None:
        with self._lock:
            if self.first_n is not None and self.first_n >= 0 and self.count >= self.first_n:
                return
            self.count += 1
        it = iter(values)
        vals = [p if p is not None else next(it) for p in self.pieces]
        text = self.fmt(vals)
        stream = self.stream() if self.stream is _stderr else self.stream
        if hasattr(stream, "write"):
            stream.write(text)
            if hasattr(stream, "flush"):
                stream.flush()
        else:
            stream(text)


@register_op("Print", default_name="Print")
def _print(x: Any, *data: Any, printer: _Printer) -> Any:
    jax.debug.callback(printer, *data)
    return x


@register_op("PrintV2", num_outputs=0, infer=lambda specs, attrs: [], default_name="PrintV2")
def _print_v2(*data: Any, printer: _Printer) -> tuple[()]:
    jax.debug.callback(printer, *data)
    return ()


def _split(values: list[Any], fn: str) -> tuple[list[Any], list[Any]]:
    """``(pieces, tensors)``: static values stay in ``pieces``; tensors become
    ``None`` placeholders there (string tensors must be constants)."""
    pieces: list[Any] = []
    tensors: list[Any] = []
    for v in values:
        if is_tensor(v) or hasattr(v, "_as_graph_element"):
            t = convert_to_tensor(v)
            if t.dtype == _dtypes.string:
                c = constant_value(t)
                if c is None:
                    raise TypeError(
                        f"{fn}: the string tensor {t.name!r} is not a constant; jaxsess prints strings known "
                        "when the graph is built."
                    )
                pieces.append(np.asarray(c, dtype=object))
                continue
            pieces.append(None)
            tensors.append(t)
        else:
            pieces.append(v)
    return pieces, tensors


class _Slot:
    """Where the ``i``-th flat value goes in a printed structure."""

    def __init__(self, i: int) -> None:
        self.i = i


def _template(v: Any, flat: list[Any]) -> Any:
    """``v`` with its leaves replaced by :class:`_Slot` (leaves appended to ``flat``)."""
    if isinstance(v, dict):
        return {k: _template(x, flat) for k, x in v.items()}
    if isinstance(v, list | tuple) and not hasattr(v, "_fields"):
        return type(v)(_template(x, flat) for x in v)
    flat.append(v)
    return _Slot(len(flat) - 1)


def _fill(t: Any, shown: list[Any]) -> Any:
    if isinstance(t, _Slot):
        return shown[t.i]
    if isinstance(t, dict):
        return {k: _fill(x, shown) for k, x in t.items()}
    if isinstance(t, list | tuple):
        return type(t)(_fill(x, shown) for x in t)
    return t


def Print(input_: Any, data: Any, message: str | None = None, first_n: int | None = None,  # noqa: N802 - TF1 name
          summarize: int | None = None, name: str | None = None) -> Any:
    """``input_``, printing ``message`` and ``data`` when run, as ``tf.compat.v1.Print``.

    Args:
      input_: the tensor passed through.
      data: a list of tensors (or constants) printed as ``[values]`` each.
      message: a prefix.
      first_n: print only the first ``first_n`` times (per op).
      summarize: elements printed per tensor (default 3).

    Returns:
      A tensor equal to ``input_``.
    """
    x = convert_to_tensor(input_)
    pieces, tensors = _split(list(data), "Print")
    limit = 3 if summarize is None else int(summarize)
    prefix = message or ""

    def fmt(vals: list[Any]) -> str:
        body = "".join("[" + format_v1(v if isinstance(v, np.ndarray) else np.asarray(v), limit) + "]"
                       for v in vals)
        return prefix + body + "\n"

    printer = _Printer(pieces, fmt, _stderr, first_n)
    return apply_op("Print", [x, *tensors], {"printer": printer}, name=name)


def print_v2(*inputs: Any, output_stream: Any = None, summarize: int = 3, sep: str = " ", end: str = "\n",
             name: str | None = None) -> Any:
    """Prints ``inputs`` when run, as ``tf.print``.

    Args:
      inputs: tensors, Python values and strings.
      output_stream: ``sys.stderr`` (default), ``sys.stdout``, a file-like
        object, a ``'file://path'`` string (appended to), or a logging
        function (``tf.logging.info``).
      summarize: entries shown at each end of every dimension (-1: all).
      sep, end: as Python's ``print``.

    Returns:
      The print ``Operation`` (graph mode: run it or use it as a control
      dependency); ``None`` when executing eagerly (printed at once).
    """
    flat: list[Any] = []
    templates = [_template(v, flat) for v in inputs]
    pieces, tensors = _split(flat, "print")

    def fmt(vals: list[Any]) -> str:
        shown = [_Shown(format_v2(np.asarray(v), summarize))
                 if isinstance(v, np.ndarray | np.generic | jax.Array) else v for v in vals]
        return sep.join(str(_fill(t, shown)) for t in templates) + end

    stream: Any
    if output_stream is None:
        stream = _stderr
    elif isinstance(output_stream, str) and output_stream.startswith("file://"):
        path = output_stream[len("file://"):]

        def stream(text: str) -> None:
            with open(path, "a", encoding="utf-8") as f:
                f.write(text)
    elif hasattr(output_stream, "write"):
        stream = output_stream
    elif callable(output_stream):
        def stream(text: str) -> None:
            output_stream(text[: -len(end)] if end and text.endswith(end) else text)
    else:
        raise ValueError(f"print: unsupported output_stream {output_stream!r}.")
    printer = _Printer(pieces, fmt, stream)
    if executing_eagerly():
        printer(*[np.asarray(t) for t in tensors])
        return None
    return apply_op("PrintV2", tensors, {"printer": printer}, name=name)
