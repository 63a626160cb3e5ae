"""How an op function becomes a graph node or an eager result.

Every public op function ends in :func:`apply_op`: inside an
``EagerSession`` it executes the registered implementation now (the result is
owned by the session); otherwise it infers the output shapes and dtypes and
adds an :class:`~jaxsess.Operation` to the graph of its inputs (or the
default graph).

Conversion follows TF1: Python floats become ``float32`` and ints ``int32``
(``int64`` when a value does not fit in 32 bits); NumPy arrays keep their
dtype (in an ``EagerSession``, narrowed to what JAX computes in, see
:func:`jaxsess._core.dtypes.canonical`); a value combined with a tensor takes the
tensor's dtype.
"""

from __future__ import annotations

import contextlib
import numbers
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, cast

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import _context as _context, dtypes as _dtypes
from jaxsess._core.graph._graph import Graph, Operation, Tensor, get_default_graph
from jaxsess._core.graph._host import note_op
from jaxsess._core.graph._registry import TFOp, get_op_def, infer_output_specs, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._core.types import (
    ControlInput,
    DTypeLike,
    HostArray,
    NestedArrayLike,
    ShapeLike,
    TensorLike,
)

__all__ = [
    "op_scope",
    "apply_op",
    "convert_to_tensor",
    "is_tensor",
    "constant",
    "placeholder",
    "placeholder_with_default",
    "identity",
    "no_op",
    "group",
    "tuple_",
    "stop_gradient",
    "constant_value",
    "executing_eagerly",
]


def executing_eagerly() -> bool:
    """True inside an ``EagerSession`` (and not inside a nested graph)."""
    return _context.current_eager_session() is not None


def is_tensor(x: object) -> bool:
    return isinstance(x, Tensor | jax.Array)


def as_graph_tensor(x: object) -> Any:
    """The graph element ``x`` stands for (a graph ``Variable``'s tensor), else ``x``."""
    conv = getattr(x, "_as_graph_element", None)
    if conv is not None and not isinstance(x, Tensor | Operation):
        return conv()
    return x


def default_np_dtype(value: NestedArrayLike) -> np.dtype[Any]:
    """TF1's dtype for a Python/NumPy value (floats → float32, ints → int32, or
    int64 when they do not fit)."""
    if isinstance(value, np.ndarray | np.generic):
        return value.dtype
    if isinstance(value, jax.Array):
        return np.dtype(value.dtype)
    arr = np.asarray(value)
    if arr.dtype == np.float64:
        return np.dtype(np.float32)
    if arr.dtype == np.int64:
        i32 = np.iinfo(np.int32)
        if arr.size and (arr.min() < i32.min or arr.max() > i32.max):
            return arr.dtype
        return np.dtype(np.int32)
    if arr.dtype == np.complex128:
        return np.dtype(np.complex64)
    if arr.dtype.kind in "US" or arr.dtype == object:
        raise TypeError(f"Cannot convert {value!r:.60} to a tensor: unsupported type {arr.dtype}.")
    return arr.dtype


def _is_stringlike(value: Any) -> bool:
    if isinstance(value, str | bytes | np.str_ | np.bytes_):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "SU" or (value.dtype == object and value.size > 0
                                             and isinstance(value.flat[0], str | bytes))
    if isinstance(value, list | tuple) and value:
        return _is_stringlike(value[0])
    return False


def string_array(value: NestedArrayLike) -> HostArray:
    """``value`` (str/bytes, or nested lists/arrays of them) as TF holds strings:
    a NumPy object array of ``bytes`` (``str`` is UTF-8 encoded).

    Raises:
      TypeError: an element is not a string.
    """
    arr = np.asarray(value, dtype=object)
    out = np.empty(arr.shape, dtype=object)
    for idx, v in np.ndenumerate(arr):
        if isinstance(v, str):
            v = v.encode("utf-8")
        elif not isinstance(v, bytes):
            raise TypeError(f"Expected string, got {v!r:.60} of type '{type(v).__name__}' instead.")
        out[idx] = bytes(v)
    return out


# The Python values each kind of dtype takes (TF's _TF_TO_IS_OK): bools only for bool, integers
# (bools too) for integer dtypes, reals for floating ones.
_COMPATIBLE: dict[str, tuple[type, ...]] = {
    "b": (bool, np.bool_),
    "i": (numbers.Integral,),
    "u": (numbers.Integral,),
    "f": (numbers.Real,),
    "V": (numbers.Real,),  # bfloat16
    "c": (numbers.Complex,),
}


def _incompatible(value: Any, kind: str) -> Any:
    """The first Python scalar in ``value`` (nested lists/tuples) a dtype of
    NumPy kind ``kind`` does not take (TF's TypeError names it); ``None`` when all suit."""
    ok = _COMPATIBLE.get(kind)
    if ok is None:
        return None
    if isinstance(value, list | tuple):
        for v in value:
            bad = _incompatible(v, kind)
            if bad is not None:
                return bad
        return None
    if isinstance(value, bool | int | float | complex | np.generic) and not isinstance(value, ok):
        return value
    return None


def to_numpy(value: NestedArrayLike, dtype: _dtypes.DType | None) -> HostArray:
    """``value`` (Python, NumPy, ``jax.Array``, strings) as a NumPy array of
    ``dtype`` (default: TF1's, see :func:`default_np_dtype`), as a ``Const`` holds it.

    Raises:
      TypeError: ``value`` does not convert (a float to an integer dtype, or
        not numeric).
    """
    if dtype == _dtypes.string or (dtype is None and _is_stringlike(value)):
        return string_array(value)
    if dtype is None:
        npd = default_np_dtype(value)
    else:
        npd = dtype.np_dtype
    npd = _dtypes.canonical(npd).np_dtype
    if isinstance(value, jax.Array):
        value = np.asarray(value)
    arr = np.asarray(value)
    if dtype is not None and arr.dtype != npd and not isinstance(value, np.ndarray | np.generic):
        # Python values must suit the dtype element by element (NumPy values are cast), as TF's
        # make_tensor_proto (_AssertCompatible)
        bad = _incompatible(value, npd.kind)
        if bad is not None:
            raise TypeError(
                f"Expected {_dtypes.as_dtype(npd).name}, but got {bad} of type '{type(bad).__name__}'."
            )
    try:
        return np.asarray(arr, dtype=npd)
    except (TypeError, ValueError) as e:
        raise TypeError(f"Cannot convert {value!r:.60} to a {npd} tensor: {e}") from None


def convert_to_tensor(
    value: TensorLike,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    preferred_dtype: DTypeLike | None = None,
    dtype_hint: DTypeLike | None = None,
) -> Any:
    """Converts ``value`` to a ``Tensor`` (graph) or ``jax.Array`` (eager).

    As ``tf.convert_to_tensor``: tensors pass through (their dtype is
    checked); Python and NumPy values become ``Const`` ops.

    Raises:
      ValueError: a tensor's dtype differs from ``dtype``.
      TypeError: ``value`` cannot be converted.
    """
    value = as_graph_tensor(value)
    want = None if dtype is None else _dtypes.as_dtype(dtype)
    if isinstance(value, Tensor):
        if want is not None and value.dtype != _dtypes.canonical(want):
            raise ValueError(
                f"Tensor conversion requested dtype {want.name} for Tensor with dtype "
                f"{value.dtype.name}: {value!r}"
            )
        return value
    if isinstance(value, Operation):
        raise TypeError(f"Can not convert an Operation ({value.name!r}) into a Tensor.")
    if isinstance(value, list | tuple) and _contains_tensor(value):  # a list holding tensors packs, as TF1
        return pack([convert_to_tensor(v, dtype=want) for v in value], name=name or "packed")
    if want is None:
        hint = preferred_dtype if preferred_dtype is not None else dtype_hint
        if hint is not None:
            try:
                to_numpy(cast("NestedArrayLike", value), _dtypes.as_dtype(hint))
                want = _dtypes.as_dtype(hint)
            except (TypeError, ValueError):
                want = None
    if executing_eagerly():
        if isinstance(value, jax.Array) and (want is None or value.dtype == want.np_dtype):
            return value
        return constant(cast("NestedArrayLike", value), dtype=want, name=name or "Const")
    # What is left is a value: lists holding tensors were packed above.
    return constant(cast("NestedArrayLike", value), dtype=want, name=name or "Const")


def _contains_tensor(value: Any) -> bool:
    for v in value:
        if isinstance(v, list | tuple):
            if _contains_tensor(v):
                return True
        elif isinstance(as_graph_tensor(v), Tensor):
            return True
    return False


def dtype_of(x: object) -> _dtypes.DType | None:
    """The dtype of a tensor or ``jax.Array``; ``None`` for Python/NumPy values."""
    x = as_graph_tensor(x)
    if isinstance(x, Tensor | jax.Array):
        return _dtypes.as_dtype(x.dtype)
    return None


def convert_all(values: Sequence[TensorLike], what: str) -> list[Any]:
    """Converts ``values`` to tensors of one dtype: that of the first tensor
    among them (Python values take it), as TF1's list conversion.

    Raises:
      TypeError: two tensors of different dtypes (names both and ``what``,
        the calling function).
    """
    values = [as_graph_tensor(v) for v in values]
    dtype = next((d for d in map(dtype_of, values) if d is not None), None)
    out = []
    for v in values:
        d = dtype_of(v)
        if d is not None and dtype is not None and d != dtype:
            raise TypeError(
                f"{what}: all values must have the same dtype; got {dtype.name} and {d.name} "
                f"({getattr(v, 'name', v)!r:.80})."
            )
        t = convert_to_tensor(v, dtype=dtype)
        if dtype is None:
            dtype = dtype_of(t)
        out.append(t)
    return out


def graph_for(inputs: Sequence[object]) -> Graph:
    """The graph of the ``Tensor`` s among ``inputs``, else the default graph.

    Raises:
      ValueError: tensors from different graphs (names two).
    """
    graph = None
    first = None
    for x in inputs:
        if isinstance(x, Tensor):
            if graph is None:
                graph, first = x.graph, x
            elif x.graph is not graph:
                raise ValueError(
                    f"Tensor {x.name!r} must be from the same graph as Tensor {first.name!r} "  # type: ignore[union-attr]
                    "(the two tensors belong to different graphs)."
                )
    default = get_default_graph()
    if graph is None:
        return default
    return graph


@contextlib.contextmanager
def op_scope(name: str | None, default: str, values: Sequence[object] = ()) -> Iterator[str | None]:
    """``name_scope(name or default)`` on the graph of ``values`` (graph mode),
    as TF1's ``op_scope``.

    Yields the scope string ending in ``/`` (pass it as ``name=`` of the op
    that produces the result, so that op is called exactly ``name``), or
    ``None`` when executing eagerly.
    """
    if executing_eagerly():
        yield None
        return
    graph = graph_for([as_graph_tensor(v) for v in values])
    with graph.as_default(), graph.name_scope(name or default) as s:
        yield s


def apply_op(
    op_type: str,
    inputs: Sequence[TensorLike] = (),
    attrs: dict[str, Any] | None = None,
    name: str | None = None,
    *,
    control_inputs: Sequence[Operation] = (),
) -> Any:
    """Creates (graph) or executes (eager) one op.

    Args:
      op_type: a registered op type.
      inputs: tensors or values; values are converted with their default
        dtype (callers convert to the intended dtype first).
      attrs: static attributes passed to the implementation as keywords.
      name: the node name (graph mode), made unique under the name scope.

    Returns:
      One output: a ``Tensor`` (graph) or ``jax.Array`` (eager). No outputs:
      the ``Operation`` (graph) or ``None`` (eager). Several: a list.

    Raises:
      ValueError: inputs from different graphs, or shapes/dtypes the op
        cannot take (the message names the node).
    """
    op_def = get_op_def(op_type)
    attrs = {} if attrs is None else attrs
    eager = _context.current_eager_session()
    if eager is not None:
        outs = eager._execute(op_def, list(inputs), attrs)
        n = op_def.n_outputs(attrs)
        if n == 0:
            return None
        if n == 1:
            return outs
        return list(outs)
    inputs = [as_graph_tensor(x) for x in inputs]
    capture = getattr(get_default_graph(), "capture", None)
    if capture is not None:  # a function graph (tf.data): tensors of other graphs become its inputs
        inputs = [capture(x) if isinstance(x, Tensor) else x for x in inputs]
    graph = graph_for(inputs)
    tensors = [x if isinstance(x, Tensor) else convert_to_tensor(x) for x in inputs]
    for t in tensors:
        if t.graph is not graph:
            raise ValueError(f"Tensor {t.name!r} is not an element of this graph.")
    try:
        specs = infer_output_specs(op_def, tensors, attrs)
    except ValueError as e:
        node = graph.unique_name(name or op_def.default_name, mark_as_used=False)
        raise ValueError(f"{e} (node '{node}')") from None
    op = graph._create_op(op_def, tensors, attrs, name, specs, control_inputs)
    note_op(graph, op)
    n = len(op.outputs)
    if n == 0:
        return op
    if n == 1 and op_def.n_outputs(attrs) == 1:
        return op.outputs[0]
    return list(op.outputs)


# -- constants ----------------------------------------------------------------


def _const_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    v = attrs["value"]
    return [(TensorShape(v.shape), _dtypes.as_dtype(v.dtype))]


@register_op("Const", infer=_const_infer, default_name="Const", tf=TFOp(types={"dtype": -1}))
def _const(*, value: np.ndarray) -> Any:
    return jnp.asarray(value)


def fit_to_shape(arr: np.ndarray, shape: tuple[int, ...], verify_shape: bool = False) -> np.ndarray:
    """``arr`` given ``shape``, as TF1's ``make_tensor_proto`` fills a constant.

    The elements are read in row-major order; a value with fewer elements
    than ``shape`` is completed by repeating its last element (a scalar is
    broadcast), as ``tf.constant([1., 2.], shape=[2, 2])`` gives
    ``[[1, 2], [2, 2]]``.

    Raises:
      ValueError: more elements than ``shape`` holds ("Too many elements
        provided. Takes at most N, but got M.").
      TypeError: ``verify_shape`` and ``arr.shape != shape``.
    """
    n = int(np.prod(shape))
    if verify_shape and arr.shape != shape:
        raise TypeError(f"Expected Tensor's shape: {shape}, but got {arr.shape}.")
    if arr.size > n:
        raise ValueError(f"Too many elements provided. Takes at most {n}, but got {arr.size}.")
    if arr.size == n:
        return arr.reshape(shape)
    flat = arr.reshape(-1)
    if flat.size == 0:
        return np.zeros(shape, arr.dtype)
    return np.concatenate([flat, np.full(n - flat.size, flat[-1], arr.dtype)]).reshape(shape)


def constant(
    value: NestedArrayLike,
    dtype: DTypeLike | None = None,
    shape: ShapeLike = None,
    name: str = "Const",
    verify_shape: bool = False,
) -> Any:
    """A constant tensor, as ``tf.constant``.

    Args:
      value: a Python scalar or nested list, NumPy array or ``jax.Array``.
      dtype: the element type (default: from ``value``; Python floats are
        ``float32``, ints ``int32``).
      shape: optional shape, filled as TF1 does (see :func:`fit_to_shape`).
      name: node name (graph mode).

    Returns:
      A ``Tensor``, or inside an ``EagerSession`` a ``jax.Array`` owned by it.

    Raises:
      TypeError: the value cannot be converted to ``dtype``.
      ValueError: ``value`` has more elements than ``shape``.
      TypeError: ``verify_shape`` and ``value``'s shape is not ``shape``.
    """
    want = None if dtype is None else _dtypes.as_dtype(dtype)
    arr = to_numpy(value, want)
    if shape is not None:
        dims = TensorShape(shape).as_list()
        if any(d is None for d in dims):
            raise ValueError(f"constant: the shape must be fully defined, got {dims}.")
        arr = fit_to_shape(arr, tuple(int(d) for d in dims if d is not None), verify_shape)
    eager = _context.current_eager_session()
    if eager is not None:
        if arr.dtype == object:
            raise TypeError("String tensors are host values of graph sessions; an EagerSession holds only "
                            f"numeric device arrays (constant {value!r:.60}).")
        eager._check_open()
        eager._registry.safe_point()
        out = jnp.array(arr, copy=True)
        eager._registry.adopt_outputs(out, producer="Const")
        return out
    return apply_op("Const", (), {"value": arr}, name=name)


def constant_value(tensor: TensorLike) -> HostArray | None:
    """The value of ``tensor`` if it can be computed at graph-build time, else None.

    As ``tf.get_static_value``: constants, shapes of fully defined tensors,
    and ops whose inputs are all such values (evaluated with their JAX
    implementations, outside any session).
    """
    tensor = as_graph_tensor(tensor)
    if isinstance(tensor, jax.Array):
        return np.asarray(tensor)
    if not isinstance(tensor, Tensor):
        try:
            return np.asarray(tensor)
        except Exception:
            return None
    return _fold(tensor, 0)


_FOLDABLE_LIMIT = 1 << 16  # elements


def _fold(t: Tensor, depth: int) -> np.ndarray | None:
    op = t.op
    if op.type == "Const":
        value: HostArray = op.attrs["value"]
        return value
    if op.type in ("Shape", "Size", "Rank") and op.inputs[0].shape.is_fully_defined():
        shape = op.inputs[0].shape.as_list()
        if op.type == "Shape":
            return np.asarray(shape, dtype=t.dtype.np_dtype)
        if op.type == "Size":
            return np.asarray(int(np.prod([int(d or 0) for d in shape])), dtype=t.dtype.np_dtype)
        return np.asarray(len(shape), dtype=np.int32)
    if op.type == "Rank" and op.inputs[0].shape.ndims is not None:
        return np.asarray(op.inputs[0].shape.ndims, dtype=np.int32)
    od = op._op_def
    if (
        depth > 32
        or od.stateful
        or od.graph_only
        or od.lowering is not None
        or op.type in ("Placeholder", "PlaceholderWithDefault")
    ):
        return None
    if t.shape.num_elements() is None or t.shape.num_elements() > _FOLDABLE_LIMIT:  # type: ignore[operator]
        return None
    vals = []
    for i in op.inputs:
        v = _fold(i, depth + 1)
        if v is None:
            return None
        vals.append(v)
    wide = _dtypes.is_64bit(t.dtype) or any(_dtypes.is_64bit(i.dtype) for i in op.inputs)
    try:
        with _dtypes.x64_scope() if wide else contextlib.nullcontext(), jax.ensure_compile_time_eval():
            out = od.impl(*[jnp.asarray(v) for v in vals], **op.attrs)
            if od.n_outputs(op.attrs) != 1:
                out = out[t.value_index]
            return np.asarray(out, dtype=t.dtype.np_dtype)
    except Exception:
        return None


# -- packing -------------------------------------------------------------------


@register_op("Pack", default_name="stack", tf=TFOp(
    to_tf=lambda a, s: ({"N": len(s), "axis": a["axis"]}, []), from_tf=lambda a, c: {"axis": a["axis"]}))
def _pack(*xs: Any, axis: int) -> Any:
    return jnp.stack(xs, axis=axis)


def pack(values: Sequence[TensorLike], axis: int = 0, name: str = "stack") -> Any:
    """Same-shape tensors stacked along a new dimension ``axis`` (one ``Pack``
    op), as ``tf.stack`` (``array_ops.stack`` also takes a tensor ``axis``);
    also how :func:`convert_to_tensor` packs a list holding tensors.

    Python scalars in ``values`` take the dtype of the tensors among them.

    Raises:
      ValueError: the shapes differ, or ``axis`` is out of range.
      TypeError: the dtypes differ.
    """
    return apply_op("Pack", convert_all(values, "stack"), {"axis": axis}, name=name)


# -- placeholders ---------------------------------------------------------------


def _placeholder_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(attrs["shape"], attrs["dtype"])]


def _placeholder_from_tf(a: dict[str, Any], consts: Any) -> dict[str, Any]:
    return {"dtype": a["dtype"], "shape": a.get("shape", TensorShape(None))}


@register_op("Placeholder", graph_only=True, infer=_placeholder_infer, default_name="Placeholder",
             tf=TFOp(types={}, from_tf=_placeholder_from_tf))
def _placeholder(**attrs: Any) -> Any:  # never called: the lowering requires a feed
    raise AssertionError("a placeholder must be fed")


def placeholder(
    dtype: DTypeLike,
    shape: ShapeLike = None,
    name: str | None = None,
    sharding: jax.sharding.PartitionSpec | None = None,
) -> Tensor:
    """A graph input that must be fed, as ``tf.compat.v1.placeholder``.

    Args:
      dtype: the element type of the fed value.
      shape: ``None`` (any shape) or a list with ``None`` for unknown dims.
      name: the node name (default ``'Placeholder'``).
      sharding: optional ``jax.sharding.PartitionSpec`` (e.g.
        ``P("data", None)``): how a ``Session(mesh=...)`` lays the fed value
        out over its mesh (op attribute ``sharding``; default replicated;
        ignored by sessions without a mesh).

    Returns:
      A ``Tensor`` of ``dtype`` and ``shape``.

    Raises:
      RuntimeError: inside an ``EagerSession`` (placeholders are graph-only).
      TypeError: ``sharding`` is not a ``PartitionSpec``.
    """
    if executing_eagerly():
        raise RuntimeError(
            "tf.placeholder() is not compatible with eager execution: it is graph-only. "
            "Build it in a jaxsess.Graph and run it with a jaxsess.Session."
        )
    d = _dtypes.canonical(dtype)
    attrs: dict[str, Any] = {"dtype": d, "shape": TensorShape(shape)}
    if sharding is not None:
        if not isinstance(sharding, jax.sharding.PartitionSpec):
            raise TypeError(f"sharding must be a jax.sharding.PartitionSpec, got {type(sharding).__name__}.")
        attrs["sharding"] = sharding
    return cast(Tensor, apply_op("Placeholder", (), attrs, name=name))


def _pwd_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (shape, dtype), = specs
    return [(attrs["shape"], dtype)]


@register_op("PlaceholderWithDefault", infer=_pwd_infer, default_name="PlaceholderWithDefault")
def _placeholder_with_default(x: Any, *, shape: TensorShape) -> Any:
    return x


def placeholder_with_default(input: TensorLike, shape: ShapeLike, name: str | None = None) -> Any:
    """A placeholder that yields ``input`` when not fed, as ``tf.compat.v1.placeholder_with_default``.

    Raises:
      ValueError: ``input``'s shape is incompatible with ``shape``.
    """
    x = convert_to_tensor(input)
    if executing_eagerly():
        return x
    shape = TensorShape(shape)
    if not x.shape.is_compatible_with(shape):
        raise ValueError(
            f"Shape of default input {x.shape} is incompatible with placeholder shape {shape}."
        )
    return apply_op("PlaceholderWithDefault", (x,), {"shape": shape}, name=name)


# -- identity, grouping ---------------------------------------------------------


@register_op("Identity", default_name="Identity", tf=TFOp(also=("ReadVariableOp",)))
def _identity(x: Any) -> Any:
    return x


def identity(input: TensorLike, name: str | None = None) -> Any:
    """``input`` unchanged (a new node), as ``tf.identity``."""
    return apply_op("Identity", (convert_to_tensor(input),), name=name)


@register_op("StopGradient", default_name="StopGradient")
def _stop_gradient(x: Any) -> Any:
    return jax.lax.stop_gradient(x)


def stop_gradient(input: TensorLike, name: str | None = None) -> Any:
    """``input``, with no gradient flowing through, as ``tf.stop_gradient``."""
    return apply_op("StopGradient", (convert_to_tensor(input),), name=name)


def _no_outputs(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return []


@register_op("NoOp", num_outputs=0, infer=_no_outputs, default_name="NoOp")
def _no_op() -> tuple[()]:
    return ()


def no_op(name: str | None = None) -> Any:
    """An op that does nothing (useful with control dependencies), as ``tf.no_op``."""
    if executing_eagerly():
        return None
    return apply_op("NoOp", (), name=name)


def _control_targets(inputs: Sequence[object]) -> list[Operation]:
    ops: list[Operation] = []
    for x in inputs:
        x = as_graph_tensor(x)
        if x is None:
            continue
        if isinstance(x, Tensor):
            x = x.op
        if not isinstance(x, Operation):
            raise TypeError(f"Expected a Tensor or Operation to group, got {x!r:.60}.")
        if x not in ops:
            ops.append(x)
    return ops


def group(*inputs: ControlInput | Sequence[ControlInput] | None, name: str | None = None) -> Any:
    """An op that runs all ``inputs`` (tensors or ops), as ``tf.group``."""
    if executing_eagerly():
        return None
    if len(inputs) == 1 and isinstance(inputs[0], list | tuple):
        inputs = tuple(inputs[0])
    deps = _control_targets(inputs)
    graph = deps[0].graph if deps else get_default_graph()
    with graph.as_default(), graph.control_dependencies(None):
        return apply_op("NoOp", (), name=name or "group_deps", control_inputs=deps)


def tuple_(
    tensors: Sequence[TensorLike | None],
    name: str | None = None,
    control_inputs: Iterable[ControlInput] | None = None,
) -> list[Any]:
    """Tensors equal to ``tensors``, each available only after all are computed,
    as ``tf.tuple``."""
    if executing_eagerly():
        return list(tensors)
    deps = _control_targets([t for t in tensors if t is not None] + list(control_inputs or []))
    graph = get_default_graph()
    out: list[Any] = []
    with graph.name_scope(name or "tuple"):  # TF's names: 'tuple/NoOp', 'tuple/control_dependency_1'
        gate = group(*deps)
        for t in tensors:
            if t is None:
                out.append(None)
                continue
            out.append(apply_op("Identity", (convert_to_tensor(t),), control_inputs=[gate],
                                name="control_dependency"))
    return out
