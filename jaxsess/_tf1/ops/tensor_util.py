"""``tf.make_tensor_proto`` and ``tf.make_ndarray``: NumPy values and TF's ``TensorProto``.

The protos are TF's own message classes as shipped by ``tensorboard`` (see
:mod:`jaxsess._core._tfproto`), so their bytes are TF's. Values convert with TF1's
rules (Python floats are ``float32``, ints ``int32``); as TF, a single value
(or one smaller than ``shape``) is stored in the typed ``*_val`` field, more
values as ``tensor_content`` bytes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core import _tfproto as _tfproto, dtypes as _dtypes
from jaxsess._core.graph._builder import as_graph_tensor, constant_value, to_numpy

__all__ = ["make_tensor_proto", "make_ndarray"]

_FIELDS = {
    "float32": "float_val", "float64": "double_val", "int32": "int_val", "int16": "int_val", "int8": "int_val",
    "uint8": "int_val", "uint16": "int_val", "int64": "int64_val", "uint32": "uint32_val",
    "uint64": "uint64_val", "bool": "bool_val",
}


def make_tensor_proto(values: Any, dtype: Any = None, shape: Any = None, verify_shape: bool = False,
                      allow_broadcast: bool = False) -> Any:
    """A ``TensorProto`` holding ``values``, as ``tf.make_tensor_proto``.

    Args:
      values: a Python or NumPy value (or a constant tensor).
      dtype: the proto's dtype (default: TF1's for the value).
      shape: the proto's shape (default: the value's); fewer values than it
        holds are stored as they are and repeat their last value when read.

    Raises:
      TypeError: a value that does not convert to ``dtype`` (``"Expected int32, but got 1.5 ..."``),
        or ``verify_shape`` with a shape that differs.
      ValueError: more values than ``shape`` holds.
    """
    want = None if dtype is None else _dtypes.as_dtype(dtype)
    t = as_graph_tensor(values)
    if hasattr(t, "op") and hasattr(t, "graph"):
        folded = constant_value(t)
        if folded is None:
            raise TypeError(f"Failed to convert object of type {type(values)} to Tensor: its value is not "
                            "known when the graph is built.")
        values = folded
    try:
        arr = to_numpy(values, want)
    except TypeError as e:
        if str(e).startswith("Expected "):  # TF's message, naming the value that does not suit
            raise
        shown = values[0] if isinstance(values, list | tuple) and values else values
        raise TypeError(f"Expected {want.name if want else 'a tensor dtype'}, but got {shown!r} of type "
                        f"'{type(shown).__name__}'.") from None
    if shape is None:
        dims = list(arr.shape)
    else:
        dims = [int(d) for d in (shape.as_list() if hasattr(shape, "as_list") else np.ravel(shape))]
        n = int(np.prod(dims))
        if verify_shape and list(arr.shape) != dims:
            raise TypeError(f"Expected Tensor's shape: {tuple(dims)}, got {arr.shape}.")
        if arr.size > n:
            raise ValueError(f"Too many elements provided. Takes at most {n}, but got {arr.size}.")
        if arr.size == n:
            arr = arr.reshape(dims)
    if _tfproto.is_string_array(arr):
        proto = _tfproto.ndarray_to_tensor_proto(arr.reshape(-1) if shape is not None else arr)
        proto.tensor_shape.CopyFrom(_tfproto.shape_to_proto(dims))
        return proto
    dt = _dtypes.as_dtype(arr.dtype)
    if arr.size > 1 and list(arr.shape) == dims:
        return _tfproto.ndarray_to_tensor_proto(arr)
    proto = _tfproto.TensorProto(dtype=_tfproto.dtype_to_enum(dt), tensor_shape=_tfproto.shape_to_proto(dims))
    flat = arr.reshape(-1)
    if dt.name in _FIELDS:
        getattr(proto, _FIELDS[dt.name]).extend(flat.tolist())
    elif dt.name in ("float16", "bfloat16"):
        proto.half_val.extend(flat.view(np.uint16).tolist())
    elif dt.is_complex:
        field = proto.scomplex_val if dt.name == "complex64" else proto.dcomplex_val
        for v in flat:
            field.extend([float(v.real), float(v.imag)])
    else:
        return _tfproto.ndarray_to_tensor_proto(np.broadcast_to(arr, dims))
    return proto


def make_ndarray(tensor: Any) -> np.ndarray:
    """The NumPy array a ``TensorProto`` holds, as ``tf.make_ndarray`` (strings as ``bytes``).

    Raises:
      ValueError / TypeError: a malformed proto (see :func:`jaxsess._core._tfproto.tensor_proto_to_ndarray`).
    """
    return _tfproto.tensor_proto_to_ndarray(tensor)
