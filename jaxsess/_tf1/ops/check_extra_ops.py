"""More checks of ``tf.compat.v1`` / ``tf.debugging``: ``assert_near``,
``assert_rank_in``, ``assert_same_float_dtype``, ``assert_proper_iterable``,
``assert_all_finite``, ``assert_shapes`` and ``is_numeric_tensor``.

Run-time checks are ``Assert`` host ops (see :mod:`jaxsess._tf1.ops.check_ops`);
the build-time ones raise TF's ``ValueError``/``TypeError`` with TF's messages.
``assert_shapes`` checks static shapes only: a dimension unknown when the
graph is built is not checked at run time (TF adds a run-time check).
"""

from __future__ import annotations

import collections.abc
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import as_graph_tensor, convert_to_tensor, executing_eagerly, no_op
from jaxsess._core.graph._graph import Tensor
from jaxsess._tf1.ops import math_ops as math_ops
from jaxsess._tf1.ops._args import op_scope
from jaxsess._tf1.ops.check_ops import Assert, _message_prefix, verify_tensor_all_finite

__all__ = [
    "assert_near", "assert_rank_in", "assert_same_float_dtype", "assert_proper_iterable", "assert_all_finite",
    "assert_shapes", "is_numeric_tensor",
]


def assert_near(x: Any, y: Any, rtol: Any = None, atol: Any = None, data: Any = None, summarize: int | None = None,
                message: str | None = None, name: str | None = None) -> Any:
    """Checks ``|x - y| <= atol + rtol * |y|`` element-wise, as ``tf.compat.v1.assert_near``.

    ``rtol``/``atol`` default to ``10 * eps`` of the dtype (float32:
    ``1.19e-6``). Returns the ``Assert`` op (``None`` eagerly when it holds).

    Raises:
      InvalidArgumentError: at run time when the condition fails (TF's message).
    """
    with op_scope(name, "assert_near", [x, y, rtol, atol]):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, dtype=x.dtype, name="y")
        eps = np.finfo(_dtypes.as_dtype(x.dtype).real_dtype.np_dtype).eps
        rtol_t = convert_to_tensor(10 * eps if rtol is None else rtol, dtype=_dtypes.as_dtype(x.dtype).real_dtype,
                                   name="rtol")
        atol_t = convert_to_tensor(10 * eps if atol is None else atol, dtype=_dtypes.as_dtype(x.dtype).real_dtype,
                                   name="atol")
        diff = math_ops.abs(x - y)
        tol = atol_t + rtol_t * math_ops.abs(y)
        condition = math_ops.reduce_all(math_ops.less_equal(diff, tol))
        if executing_eagerly():
            if bool(np.asarray(condition)):
                return None
            data = data or ["x and y not equal to tolerance rtol = ", rtol_t, ", atol = ", atol_t, "x = ", x,
                            "y = ", y]
        elif data is None:
            data = [_message_prefix(message),
                    f"x and y not equal to tolerance rtol = {rtol_t}, atol = {atol_t}",
                    f"x ({x.name}) = ", x, f"y ({y.name}) = ", y]
            message = None
        if message is not None:
            data = [message, *data]
        return Assert(condition, data, summarize=summarize)


def assert_rank_in(x: Any, ranks: Sequence[Any], data: Any = None, summarize: int | None = None,
                   message: str | None = None, name: str | None = None) -> Any:
    """Checks that ``x``'s rank is one of ``ranks``, as ``tf.compat.v1.assert_rank_in``.

    Returns:
      A ``NoOp`` named ``static_checks_determined_all_ok`` when the rank is
      known at build time, else the ``Assert`` op.

    Raises:
      ValueError: the static rank is not among ``ranks`` (TF's message).
    """
    with op_scope(name, "assert_rank_in", [x, *ranks]):
        x = convert_to_tensor(x, name="x")
        wanted = tuple(int(r) for r in ranks)
        prefix = _message_prefix(message)
        ndims = np.ndim(x) if executing_eagerly() else x.shape.ndims
        shown = "" if executing_eagerly() else x.name
        if ndims is not None:
            if ndims not in wanted:
                shape = tuple(np.shape(x)) if executing_eagerly() else x.shape
                raise ValueError(f"{prefix}Tensor {shown} must have rank in {wanted}.  "
                                 f"Received rank {ndims}, shape {shape}")
            return None if executing_eagerly() else no_op(name="static_checks_determined_all_ok")
        raise NotImplementedError(f"assert_rank_in: jaxsess needs the rank of {shown} known when the graph is built.")


def assert_same_float_dtype(tensors: Sequence[Any] | None = None, dtype: Any = None) -> _dtypes.DType:
    """The one floating dtype of ``tensors`` (and ``dtype``), ``float32`` when there is none,
    as ``tf.compat.v1.assert_same_float_dtype``.

    Raises:
      ValueError: dtypes differ, or the common dtype is not floating (TF's messages).
    """
    want = None if dtype is None else _dtypes.as_dtype(dtype)
    first = None
    for t in tensors or []:
        t = as_graph_tensor(t)
        if not hasattr(t, "dtype"):
            continue
        d = _dtypes.as_dtype(t.dtype)
        if want is None:
            want, first = d, t
        elif d != want:
            shown = getattr(first, "name", None) or "dtype"
            raise ValueError(f"{getattr(t, 'name', t)}, type={d!r}, must be of the same type ({want!r}) as "
                             f"{shown}.")
    if want is None:
        return _dtypes.float32
    if not want.is_floating:
        raise ValueError(f"Expected floating point type, got {want!r}.")
    return want


def assert_proper_iterable(values: Any) -> None:
    """Checks that ``values`` is an iterable other than a tensor, array or string, as
    ``tf.compat.v1.assert_proper_iterable``.

    Raises:
      TypeError: TF's message.
    """
    unintentional = (Tensor, np.ndarray, bytes, str)
    if isinstance(as_graph_tensor(values), unintentional) or hasattr(values, "__array__") and not isinstance(
            values, collections.abc.Sequence):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}')
    if not isinstance(values, collections.abc.Iterable):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


def assert_all_finite(t: Any, msg: str, name: str | None = None, x: Any = None, message: str | None = None) -> Any:
    """``t``, checked at run time to hold no NaN or Inf, as ``tf.debugging.assert_all_finite``
    (TF1's ``verify_tensor_all_finite`` under its TF 2 name)."""
    return verify_tensor_all_finite(t, msg, name=name, x=x, message=message)


def assert_shapes(shapes: Any, data: Any = None, summarize: int | None = None, message: str | None = None,
                  name: str | None = None) -> Any:
    """Checks that tensors' static shapes agree with symbolic specs, as ``tf.debugging.assert_shapes``.

    Args:
      shapes: ``[(tensor, spec), ...]`` or a dict; a spec is a sequence of
        ints or symbols (strings), a leading ``'...'`` matching any prefix,
        or ``()``/``[]`` for a scalar. Equal symbols must have equal sizes.

    Returns:
      A ``NoOp`` (the checks are done when the graph is built).

    Raises:
      ValueError: a rank or size differs (TF's messages).
    """
    items = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    prefix = _message_prefix(message)
    sizes: dict[Any, tuple[int, str, int]] = {}
    with op_scope(name, "assert_shapes", [t for t, _ in items]):
        for t, spec in items:
            x = convert_to_tensor(t)
            shown = "" if executing_eagerly() else x.name
            spec = [spec] if isinstance(spec, str) and spec != "..." else list(spec)
            dims = list(np.shape(x)) if executing_eagerly() else (None if x.shape.dims is None else x.shape.as_list())
            if dims is None:
                continue
            if spec and spec[0] == "...":
                spec = spec[1:]
                if len(dims) < len(spec):
                    raise ValueError(f"{prefix}Tensor {shown} must have rank at least {len(spec)}.  Received rank "
                                     f"{len(dims)}, shape {tuple(dims)}")
                dims_tail = dims[len(dims) - len(spec):]
                offset = len(dims) - len(spec)
            else:
                if len(dims) != len(spec):
                    raise ValueError(f"{prefix}Tensor {shown} must have rank {len(spec)}.  Received rank "
                                     f"{len(dims)}, shape {tuple(dims)}")
                dims_tail, offset = dims, 0
            for i, (sym, got) in enumerate(zip(spec, dims_tail, strict=True)):
                if got is None or sym in (None, "."):
                    continue
                if isinstance(sym, int | np.integer):
                    if got != int(sym):
                        raise ValueError(f"{prefix}Tensor {shown} dimension {i + offset} must have size {int(sym)}.  "
                                         f"Received size {got}, shape {tuple(dims)}")
                    continue
                if sym in sizes:
                    size, where, at = sizes[sym]
                    if got != size:
                        raise ValueError(f"{prefix}Specified by tensor {where} dimension {at}.  Tensor {shown} "
                                         f"dimension {i + offset} must have size {size}.  Received size {got}, "
                                         f"shape {tuple(dims)}")
                else:
                    sizes[sym] = (got, shown, i + offset)
        return None if executing_eagerly() else no_op(name="static_checks_determined_all_ok")


def is_numeric_tensor(tensor: Any) -> bool:
    """Whether ``tensor`` is a tensor of a numeric dtype (not bool/string), as
    ``tf.debugging.is_numeric_tensor`` (``False`` for Python values)."""
    t = as_graph_tensor(tensor)
    if not isinstance(t, Tensor) and not (executing_eagerly() and hasattr(t, "dtype") and hasattr(t, "shape")):
        return False
    d = _dtypes.as_dtype(t.dtype)
    return d.is_floating or d.is_complex or d.is_integer
