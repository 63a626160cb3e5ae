"""Python functions as graph ops, as TF1's ``tf.py_func`` and ``tf.numpy_function``.

A ``PyFunc`` op is a host op (:mod:`jaxsess._core.graph._host`): in a
``Session.run`` that needs it, its inputs are computed on the device first,
the function runs on the host with NumPy arrays, exactly as in TF (once per
run, in the calling thread), and its results are fed to the rest of the
plan. So no output shape is needed: as TF, the outputs have unknown shape
(``set_shape`` may narrow it); the device plan compiles once per distinct
result shape. Consequences of computing the inputs first: inputs that depend
on a variable assignment raise ``NotImplementedError`` when the op is built
(they would be assigned twice), and ``make_callable``, ``lower`` and
``export`` cannot run the op (``InvalidArgumentError``). Gradients do not
flow through it (as TF).

Errors: a result of another dtype than ``Tout`` raises
``InvalidArgumentError``; an exception in the function becomes TF's class
(``ValueError``/``TypeError``: ``InvalidArgumentError``, ``StopIteration``:
``OutOfRangeError``, ``MemoryError``: ``ResourceExhaustedError``,
``NotImplementedError``: ``UnimplementedError``, others ``UnknownError``),
with the Python exception as its cause.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor, executing_eagerly, string_array
from jaxsess._core.graph._graph import Operation, TensorShape
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._tf1.ops.check_ops import require_no_assign_before

__all__ = ["py_func", "numpy_function", "py_function", "timestamp"]


def _outputs_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(TensorShape(None), d) for d in attrs["Tout"]]


def _n_outputs(attrs: dict[str, Any]) -> int:
    return len(attrs["Tout"])


# As TF's ``FuncRegistry``: the op holds a token (a string attribute, so the
# node serialises), the function lives here for the life of the process.
_FUNCS: dict[str, Callable[..., Any]] = {}
_FUNCS_LOCK = threading.Lock()


def _register_func(func: Callable[..., Any]) -> str:
    with _FUNCS_LOCK:
        token = f"pyfunc_{len(_FUNCS)}"
        _FUNCS[token] = func
    return token


@register_op("PyFunc", num_outputs=_n_outputs, infer=_outputs_infer, lowering=device_lowering,
             default_name="PyFunc", tf=TFOp(types={}))
def _py_func(*inputs: Any, token: str, Tout: tuple[_dtypes.DType, ...]) -> Any:  # noqa: N803
    raise AssertionError("PyFunc runs on the host")  # pragma: no cover


_ERROR_CLASSES: tuple[tuple[type[BaseException], type[errors.OpError]], ...] = (
    (ValueError, errors.InvalidArgumentError),
    (TypeError, errors.InvalidArgumentError),
    (StopIteration, errors.OutOfRangeError),
    (MemoryError, errors.ResourceExhaustedError),
    (NotImplementedError, errors.UnimplementedError),
)


def _convert_result(value: Any, dtype: _dtypes.DType, i: int, where: str) -> np.ndarray:
    if dtype == _dtypes.string:
        return string_array(value)
    want = dtype.np_dtype
    if isinstance(value, np.ndarray | np.generic) and value.dtype != want:
        raise errors.InvalidArgumentError(
            None, None, f"{i}-th value returned by {where} is {_dtypes.as_dtype(value.dtype).name}, "
                        f"but expects {dtype.name}")
    return np.asarray(value, dtype=want)


def _call(func: Callable[..., Any], args: Sequence[Any], tout: Sequence[_dtypes.DType], where: str,
          op: Operation | None) -> tuple[np.ndarray, ...]:
    try:
        result = func(*args)
    except Exception as e:
        cls = next((c for t, c in _ERROR_CLASSES if isinstance(e, t)), errors.UnknownError)
        raise cls(where, op, f"{type(e).__name__}: {e}\n\t [[node {where}]]") from e
    results = list(result) if isinstance(result, list | tuple) else [result]
    if len(results) != len(tout):
        raise errors.InvalidArgumentError(
            where, op, f"{where} returned {len(results)} values, but Tout lists {len(tout)} dtypes.")
    try:
        return tuple(_convert_result(v, d, i, where) for i, (v, d) in enumerate(zip(results, tout, strict=True)))
    except errors.OpError as e:
        raise errors.InvalidArgumentError(where, op, f"{e.message}\n\t [[node {where}]]") from None


@register_host("PyFunc", always=True, infer=_outputs_infer)
def _host_py_func(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    func = _FUNCS.get(op.attrs["token"])
    if func is None:
        raise errors.InvalidArgumentError(
            op.name, op, f"Op '{op.name}': no Python function is registered under token '{op.attrs['token']}' "
                         "in this process (a PyFunc node imported from a GraphDef has no function).")
    return _call(func, inputs, op.attrs["Tout"], op.name, op)


def py_func(func: Callable[..., Any], inp: Sequence[Any], Tout: Any, stateful: bool = True,  # noqa: N803
            name: str | None = None) -> Any:
    """Runs ``func`` on NumPy values as a graph op, as ``tf.compat.v1.py_func``.

    Args:
      func: called with one NumPy array per ``inp`` (strings as ``bytes``
        object arrays); returns one value per ``Tout`` entry (a list/tuple
        when ``Tout`` is a list).
      inp: tensors or values.
      Tout: a dtype (one output) or a list/tuple of dtypes.
      stateful: accepted (every ``PyFunc`` runs once per run that needs it).
      name: the op name (default ``'PyFunc'``).

    Returns:
      A tensor of unknown shape if ``Tout`` is a single dtype, else a list;
      in an ``EagerSession`` the function's converted results.

    Raises:
      NotImplementedError: an input depends on a variable assignment.
      InvalidArgumentError, UnknownError, ...: at run time (module docstring).
    """
    single = not isinstance(Tout, list | tuple)
    tout = tuple(_dtypes.as_dtype(d) for d in ([Tout] if single else Tout))
    if executing_eagerly():
        out = _call(func, [np.asarray(convert_to_tensor(x)) for x in inp], tout, name or "PyFunc", None)
        return out[0] if single else list(out)
    tensors = [convert_to_tensor(x) for x in inp]
    require_no_assign_before(tensors, "tf.py_func")
    out = apply_op("PyFunc", tensors, {"token": _register_func(func), "Tout": tout}, name=name)
    if not tout:
        return out
    outs = out if isinstance(out, list) else [out]
    return outs[0] if single else list(outs)


def numpy_function(func: Callable[..., Any], inp: Sequence[Any], Tout: Any, stateful: bool = True,  # noqa: N803
                   name: str | None = None) -> Any:
    """``py_func`` under its TF 2 name, as ``tf.numpy_function``."""
    return py_func(func, inp, Tout, stateful=stateful, name=name)


class EagerValue(np.ndarray):
    """A NumPy array with ``.numpy()``: what the function of :func:`py_function` receives,
    standing for TF's ``EagerTensor`` (``.numpy()`` of a 0-d value gives a NumPy scalar,
    of a string scalar ``bytes``, as TF)."""

    def numpy(self) -> Any:
        arr = self.view(np.ndarray)
        return arr[()] if arr.ndim == 0 else arr.copy()


def _eager_args(func: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        return func(*(np.asarray(a).view(EagerValue) for a in args))

    return call


def py_function(func: Callable[..., Any], inp: Sequence[Any], Tout: Any, name: str | None = None) -> Any:  # noqa: N803
    """Runs ``func`` on the host as a graph op, as ``tf.py_function``.

    As :func:`py_func`, except that ``func`` receives :class:`EagerValue` arrays
    (NumPy arrays with TF's ``.numpy()``) instead of plain arrays; it may
    return NumPy values or such arrays. Unlike TF, ``func`` cannot run
    TensorFlow ops on its arguments (there is no eager mode inside a graph
    run). Ops are named ``EagerPyFunc``.
    """
    return py_func(_eager_args(func), inp, Tout, name=name or "EagerPyFunc")


def timestamp(name: str | None = None) -> Any:
    """The host's time at run time, in seconds since the epoch (a float64 scalar), as
    ``tf.timestamp``; a host op (see :func:`py_func`), evaluated once per run."""
    out = py_func(lambda: np.float64(time.time()), [], _dtypes.float64, name=name or "Timestamp")
    if not executing_eagerly():
        out.set_shape([])
    return out
