"""The JSON codec of jaxsess attribute values that TF's ``AttrValue`` has no place for.

``graph/_graph_def.py`` writes a node's exact attributes as JSON in the private
``_jaxsess_attrs`` attribute when TF's attributes cannot hold them (shardings,
optimizer specs, control-flow sub-graphs); the encoding table is in that module's
docstring. Decoding never executes code: functions are looked up by name in an
allow-list filled by registration hooks (:func:`register_function`,
:func:`register_transformation_spec`) that ops/ and train/ call, so graph/ imports
nothing above it. Malformed values raise ``ValueError``.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._graph import Graph, Operation, Tensor
from jaxsess._core.graph._shape import TensorShape

__all__ = ["register_function", "register_transformation_spec"]


def _tensor_key(name: str) -> str:
    return name if ":" in name else name + ":0"


# Library functions that may appear in attributes, by stable name (the allow-list), and
# the optimizer spec type: registered by the modules that define them (ops/, train/), so
# this module imports nothing above graph/. Only these can be encoded, and decoding only
# ever looks names up here.
_FUNCTIONS: dict[str, Callable[..., Any]] = {}
_SPEC_TYPES: list[type] = []


def register_function(name: str, fn: Callable[..., Any]) -> None:
    """Registration hook: lets attributes hold the library function ``fn``, encoded as ``name``.

    Raises:
      ValueError: ``name`` is registered for another function.
    """
    if _FUNCTIONS.get(name, fn) is not fn:
        raise ValueError(f"{name!r} is already registered for another function")
    _FUNCTIONS[name] = fn


def register_transformation_spec(cls: type) -> None:
    """Registration hook: the optimizer spec type (``train.TransformationSpec``: fields
    ``build``, a registered function, ``hyper_names`` and ``static``)."""
    if cls not in _SPEC_TYPES:
        _SPEC_TYPES.append(cls)


def _function(name: str) -> Any:
    return _FUNCTIONS[name]


def _function_name(fn: Any) -> str | None:
    for key, f in _FUNCTIONS.items():
        if f is fn:
            return key
    return None


class _NoEncoding(Exception):
    """An attribute value that has no graph-def encoding (message: why)."""


# -- encoding -----------------------------------------------------------------------


def _encode_array(arr: np.ndarray, scalar: bool = False) -> dict[str, Any]:
    try:
        name = _dtypes.as_dtype(arr.dtype).name
    except TypeError:
        raise _NoEncoding(f"a NumPy array of dtype {arr.dtype} has no encoding (numeric arrays only)") from None
    if name == "string":  # object arrays of bytes: one base64 text per element
        strings = [base64.b64encode(bytes(v)).decode("ascii") for v in arr.ravel().tolist()]
        return {"ndarray": {"dtype": name, "shape": list(arr.shape), "data": strings}}
    little = np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<"))
    body: dict[str, Any] = {
        "dtype": name,
        "shape": list(arr.shape),
        "data": base64.b64encode(little.tobytes()).decode("ascii"),
    }
    if scalar:
        body["scalar"] = True
    return {"ndarray": body}


def _encode(value: Any, graph: Graph) -> Any:
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return float(value)
        return {"float": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
    if isinstance(value, _dtypes.DType):
        return {"dtype": value.name}
    if isinstance(value, TensorShape):
        return {"shape": None if value.ndims is None else value.as_list()}
    if isinstance(value, Tensor):
        if value.graph is not graph:
            raise _NoEncoding(f"tensor {value.name!r} belongs to another graph")
        return {"tensor": value.name}
    if isinstance(value, Operation):
        if value.graph is not graph:
            raise _NoEncoding(f"operation {value.name!r} belongs to another graph")
        return {"op": value.name}
    if isinstance(value, np.ndarray):
        return _encode_array(value)
    if isinstance(value, np.generic):
        return _encode_array(np.asarray(value), scalar=True)
    if isinstance(value, PartitionSpec):
        return {"partition_spec": [_encode_spec_entry(e) for e in value]}
    if isinstance(value, list):
        return [_encode(v, graph) for v in value]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return {"tuple": [_encode(v, graph) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[_encode(k, graph), _encode(v, graph)] for k, v in value.items()]}
    cls = type(value)
    if cls in _SPEC_TYPES:
        build = _function_name(value.build)
        if build is None:
            raise _NoEncoding(
                f"the optimizer's transformation is built by {value.build!r}, a function that is not "
                "part of jaxsess (e.g. OptaxOptimizer with a user optax factory); it cannot be serialised"
            )
        return {
            "transformation_spec": {
                "build": build,
                "hyper_names": list(value.hyper_names),
                "static": _encode(tuple(value.static), graph),
            }
        }
    if cls.__name__ == "PyTreeDef":
        return {"treedef": str(value)}
    if callable(value):
        name = _function_name(value)
        if name is not None:
            return {"function": name}
        raise _NoEncoding(f"the function {value!r} is not in jaxsess's allow-list of serialisable functions")
    raise _NoEncoding(f"values of type {cls.__module__}.{cls.__qualname__} have no graph-def encoding")


def _encode_spec_entry(e: Any) -> Any:
    if e is None or isinstance(e, str):
        return e
    if isinstance(e, tuple) and all(isinstance(a, str) for a in e):
        return list(e)
    raise _NoEncoding(f"PartitionSpec entry {e!r} has no encoding (None, a mesh axis name or a tuple of names)")



class _Pending:
    """A value decoded later, once the node's inputs are known (optimizer treedefs)."""

    def __init__(self, kind: str, text: str) -> None:
        self.kind = kind
        self.text = text


class _StringConst:
    """A TF string constant (``DT_STRING`` ``Const``): not an op in jaxsess (no string tensors),
    only readable as a constant input folded into an attribute (a summary's tag)."""

    def __init__(self, name: str, value: np.ndarray) -> None:
        self.name = name
        self.value = value


class _Decoder:
    def __init__(self, tensors: dict[str, Tensor], ops: dict[str, Operation]) -> None:
        self.tensors = tensors
        self.ops = ops
        self.strings: dict[str, _StringConst] = {}

    def tensor(self, name: object) -> Tensor:
        if not isinstance(name, str):
            raise ValueError(f"a tensor reference must be a string, got {name!r:.60}")
        t = self.tensors.get(name)
        if t is None:
            t = self.tensors.get(name + ":0") if ":" not in name else None
        if t is None:
            op_name, _, index = name.rpartition(":")
            if op_name in self.ops:
                raise ValueError(f"'{name}' names an output that node '{op_name}' does not have")
            raise ValueError(f"'{name}' does not name an output of an earlier node")
        return t

    def op(self, name: object) -> Operation:
        if not isinstance(name, str):
            raise ValueError(f"an operation reference must be a string, got {name!r:.60}")
        op = self.ops.get(name)
        if op is None:
            raise ValueError(f"'{name}' does not name an earlier node")
        return op

    def decode(self, x: object) -> Any:
        if x is None or isinstance(x, bool | int | str):
            return x
        if isinstance(x, float):
            return x
        if isinstance(x, list):
            return [self.decode(v) for v in x]
        if not isinstance(x, dict) or len(x) != 1:
            raise ValueError(f"malformed attribute value {x!r:.80} (expected a one-key tagged object)")
        ((tag, body),) = x.items()
        if tag == "tuple":
            return tuple(self.decode(v) for v in _list(body, tag))
        if tag == "dict":
            out = {}
            for pair in _list(body, tag):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise ValueError(f"malformed dict entry {pair!r:.60}")
                out[self.decode(pair[0])] = self.decode(pair[1])
            return out
        if tag == "float":
            if body not in ("nan", "inf", "-inf"):
                raise ValueError(f"malformed float {body!r:.60}")
            return float(body)
        if tag == "dtype":
            if not isinstance(body, str):
                raise ValueError(f"malformed dtype {body!r:.60}")
            return _dtypes.as_dtype(body)
        if tag == "shape":
            return _decode_shape(body)
        if tag == "tensor":
            return self.tensor(body)
        if tag == "op":
            return self.op(body)
        if tag == "ndarray":
            return _decode_array(body)
        if tag == "partition_spec":
            entries: list[Any] = []
            for e in _list(body, tag):
                if e is None or isinstance(e, str):
                    entries.append(e)
                elif isinstance(e, list) and all(isinstance(a, str) for a in e):
                    entries.append(tuple(e))
                else:
                    raise ValueError(f"malformed PartitionSpec entry {e!r:.60}")
            return PartitionSpec(*entries)
        if tag == "function":
            if not isinstance(body, str) or body not in _FUNCTIONS:
                raise ValueError(f"unknown function {body!r:.80} (not in jaxsess's allow-list)")
            return _function(body)
        if tag == "transformation_spec":
            if not _SPEC_TYPES:
                raise ValueError("no optimizer spec type is registered")
            if not isinstance(body, dict) or set(body) != {"build", "hyper_names", "static"}:
                raise ValueError(f"malformed transformation_spec {body!r:.80}")
            build = body["build"]
            if not isinstance(build, str) or build not in _FUNCTIONS or not build.startswith("train."):
                raise ValueError(f"unknown optimizer builder {build!r:.80}")
            names = _list(body["hyper_names"], "hyper_names")
            if not all(isinstance(n, str) for n in names):
                raise ValueError("hyper_names must be strings")
            static = self.decode(body["static"])
            if not isinstance(static, tuple) or not all(isinstance(p, tuple) and len(p) == 2 for p in static):
                raise ValueError("malformed transformation_spec static arguments")
            return _SPEC_TYPES[0](_function(build), tuple(names), static)
        if tag == "treedef":
            if not isinstance(body, str):
                raise ValueError(f"malformed treedef {body!r:.60}")
            return _Pending("treedef", body)
        raise ValueError(f"unknown attribute tag {tag!r:.40}")


def _list(body: Any, what: str) -> list[Any]:
    if not isinstance(body, list):
        raise ValueError(f"malformed {what}: expected a list, got {body!r:.60}")
    return body


def _decode_shape(body: Any) -> TensorShape:
    if body is None:
        return TensorShape(None)
    if not isinstance(body, list) or not all(d is None or (isinstance(d, int) and not isinstance(d, bool)) for d in body):
        raise ValueError(f"malformed shape {body!r:.60}")
    return TensorShape(body)


def _decode_array(body: Any) -> Any:
    if not isinstance(body, dict) or not {"dtype", "shape", "data"} <= set(body) or set(body) - {
        "dtype", "shape", "data", "scalar"
    }:
        raise ValueError(f"malformed ndarray {body!r:.80}")
    dt = _dtypes.as_dtype(body["dtype"]).np_dtype if isinstance(body["dtype"], str) else None
    if dt is None:
        raise ValueError(f"malformed ndarray dtype {body['dtype']!r:.40}")
    shape = body["shape"]
    if not isinstance(shape, list) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise ValueError(f"malformed ndarray shape {shape!r:.60}")
    if body["dtype"] == "string":
        if not isinstance(body["data"], list) or len(body["data"]) != math.prod(shape):
            raise ValueError("malformed string ndarray data (expected one base64 text per element)")
        out = np.empty(len(body["data"]), dtype=object)
        try:
            for i, item in enumerate(body["data"]):
                out[i] = base64.b64decode(str(item).encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError) as e:
            raise ValueError(f"malformed string ndarray data: {e}") from None
        return out.reshape(shape)
    if not isinstance(body["data"], str):
        raise ValueError("malformed ndarray data (expected base64 text)")
    try:
        raw = base64.b64decode(body["data"].encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as e:
        raise ValueError(f"malformed ndarray data: {e}") from None
    n = math.prod(shape)
    if len(raw) != n * dt.itemsize:
        raise ValueError(
            f"ndarray data holds {len(raw)} bytes; shape {shape} of {body['dtype']} needs {n * dt.itemsize}"
        )
    arr = np.frombuffer(raw, dtype=dt.newbyteorder("<")).astype(dt).reshape(shape)
    if body.get("scalar"):
        if shape:
            raise ValueError("a NumPy scalar must have shape []")
        return arr[()]
    return arr


def _fix_optax_treedef(attrs: dict[str, Any], inputs: Sequence[Tensor]) -> None:
    """Recomputes an ``OptaxUpdate``'s optax state treedef from its spec and parameter shapes."""
    pending = attrs.get("treedef")
    if not isinstance(pending, _Pending):
        raise ValueError("attribute 'treedef' must be a treedef")
    spec = attrs["spec"]
    n = attrs["n_params"]
    h = len(spec.hyper_names)
    params = inputs[h + n:h + 2 * n]
    if len(params) != n:
        raise ValueError(f"OptaxUpdate with n_params={n} has too few inputs")
    zeros = {}
    for i, t in enumerate(params):
        if not t.shape.is_fully_defined():
            raise ValueError(f"optimizer parameter input {t.name} has no fully defined shape")
        zeros[f"p{i}"] = np.zeros(tuple(int(d or 0) for d in t.shape.as_list()), dtype=t.dtype.np_dtype)
    hyper = {k: jnp.asarray(0.0, jnp.float32) for k in spec.hyper_names}
    treedef = jax.tree_util.tree_structure(spec(hyper, None).init(zeros))
    if str(treedef) != pending.text:
        raise ValueError(
            f"the optimizer state structure {treedef} differs from the recorded {pending.text} "
            "(written by another optax version?)"
        )
    attrs["treedef"] = treedef


_POST_DECODE = {"OptaxUpdate": _fix_optax_treedef}



def _note_mapped(x: Any, mapped: dict[str, Tensor], used: set[str]) -> None:
    if not mapped:
        return
    if isinstance(x, list):
        for v in x:
            _note_mapped(v, mapped, used)
    elif isinstance(x, dict):
        for k, v in x.items():
            if k == "tensor" and isinstance(v, str):
                key = _tensor_key(v)
                if key in mapped:
                    used.add(key)
            else:
                _note_mapped(v, mapped, used)


def _has_pending(x: Any) -> bool:
    if isinstance(x, _Pending):
        return True
    if isinstance(x, list | tuple):
        return any(_has_pending(v) for v in x)
    if isinstance(x, dict):
        return any(_has_pending(v) for v in x.values())
    return False
