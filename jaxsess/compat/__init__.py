"""``jaxsess.compat.v1``: the TF1 namespace under the import path TF2 users write.

``import jaxsess.compat.v1 as tf`` gives the same namespace as ``import
jaxsess as tf`` (as ``tensorflow.compat.v1`` holds TF1's API), and
``jaxsess.compat.v1`` is reachable as an attribute, so ``tf.compat.v1.Session``
works under either import.
"""

from __future__ import annotations

import contextlib
import datetime
import numbers
import os
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

import jaxsess as _jaxsess
from jaxsess._core.graph._shape import Dimension, TensorShape
from jaxsess._tf1.ops.indexing_ops import dimension_value as dimension_value

v1 = _jaxsess
sys.modules[__name__ + ".v1"] = _jaxsess

bytes_or_text_types = (bytes, str)
integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)


def as_bytes(bytes_or_text: bytes | bytearray | str, encoding: str = "utf-8") -> bytes:
    """``bytes_or_text`` as ``bytes`` (text encoded with ``encoding``), as ``tf.compat.as_bytes``.

    Raises:
      TypeError: neither bytes nor text (TF's message).
    """
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text: bytes | str, encoding: str = "utf-8") -> str:
    """``bytes_or_text`` as ``str`` (bytes decoded with ``encoding``), as ``tf.compat.as_text``.

    Raises:
      TypeError: neither bytes nor text (TF's message).
    """
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text
as_bytes_or_str = as_text


def as_str_any(value: Any, encoding: str = "utf-8") -> str:
    """``value`` as ``str``: bytes decoded, anything else through ``str``, as ``tf.compat.as_str_any``."""
    return as_text(value, encoding) if isinstance(value, bytes) else str(value)


def path_to_str(path: Any) -> Any:
    """A path-like object as ``str`` (others unchanged), as ``tf.compat.path_to_str``."""
    return os.fspath(path) if isinstance(path, os.PathLike) else path


def dimension_at_index(shape: Any, index: int) -> Dimension:
    """Entry ``index`` of ``shape`` as a :class:`Dimension` (``Dimension(None)`` when unknown,
    also for an unknown rank), as ``tf.dimension_at_index`` / ``tf.compat.dimension_at_index``
    (``tf.dimension_value`` of it is the int or ``None``).

    Raises:
      IndexError: ``index`` out of range of a known rank.
    """
    s = TensorShape(shape)
    return Dimension(None) if s.dims is None else Dimension(s.as_list()[index])


def forward_compatible(year: int, month: int, day: int) -> bool:
    """Whether the forward-compatibility horizon is past ``year-month-day``, as
    ``tf.compat.forward_compatible`` (jaxsess follows TF 2.21: the horizon is its release,
    moved by :func:`forward_compatibility_horizon`)."""
    return _HORIZON[-1] > datetime.date(year, month, day)


@contextlib.contextmanager
def forward_compatibility_horizon(year: int, month: int, day: int) -> Iterator[None]:
    """Moves the horizon of :func:`forward_compatible` inside the block, as
    ``tf.compat.forward_compatibility_horizon`` (for tests)."""
    _HORIZON.append(datetime.date(year, month, day))
    try:
        yield
    finally:
        _HORIZON.pop()


_HORIZON = [datetime.date(2026, 1, 16)]  # TF 2.21.0's

__all__ = [
    "dimension_value", "dimension_at_index", "forward_compatible", "forward_compatibility_horizon",
    "v1", "as_bytes", "as_text", "as_str", "as_str_any", "path_to_str", "bytes_or_text_types", "integral_types",
    "real_types", "complex_types",
]
