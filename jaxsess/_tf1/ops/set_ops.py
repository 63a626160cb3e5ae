"""Set operations over the last dimension, as ``tf.compat.v1.sets``:
``set_intersection``, ``set_union``, ``set_difference`` and ``set_size``.

Each set is the last dimension of a dense tensor (every value counts,
duplicates once) or of a ``SparseTensor`` (its values in a row). The results
are ``SparseTensor``s whose number of values depends on the data, so these
ops run on the host (:mod:`jaxsess._core.graph._host`) on the values computed (or
fed) for their inputs, and their outputs enter the device plan as feeds: a
plan that uses them compiles once per distinct number of result values (and
dense shape), as a fed ``sparse_placeholder``. Semantics follow TF's
``DenseToDenseSetOperation``, ``DenseToSparseSetOperation``,
``SparseToSparseSetOperation`` and ``SetSize`` kernels (values sorted within
each set; the dense shape is the group shape plus the largest result set),
checked against ``tensorflow-cpu`` 2.21. Sparse inputs must be in the
canonical row-major order (``validate_indices`` is not checked). No
gradients.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import check_not_eager, device_lowering, register_host
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops.sparse_host_ops import pack_sparse, sparse_outputs, sparse_result
from jaxsess._tf1.ops.sparse_tensor import SparseTensor, SparseTensorValue

__all__ = ["set_intersection", "set_union", "set_difference", "set_size"]

_TYPES = (_dtypes.int8, _dtypes.int16, _dtypes.int32, _dtypes.int64, _dtypes.uint8, _dtypes.uint16, _dtypes.string)


def _dense_sets(a: np.ndarray) -> tuple[tuple[int, ...], list[set[Any]]]:
    group = a.shape[:-1]
    rows = a.reshape(-1, a.shape[-1]) if a.ndim else a.reshape(1, 1)
    return tuple(group), [set(r.tolist()) for r in rows]


def _sparse_sets(indices: np.ndarray, values: np.ndarray, shape: np.ndarray) -> tuple[tuple[int, ...], list[set[Any]]]:
    group = tuple(int(d) for d in shape[:-1])
    sets: list[set[Any]] = [set() for _ in range(int(np.prod(group, dtype=np.int64)))]
    if len(values):
        flat = np.ravel_multi_index(tuple(np.asarray(indices)[:, :-1].T), group) if group else \
            np.zeros(len(values), np.int64)
        for k, v in zip(flat.tolist(), values.tolist()):
            sets[k].add(v)
    return group, sets


def _combine(op: Operation, a: tuple[tuple[int, ...], list[set[Any]]], b: tuple[tuple[int, ...], list[set[Any]]],
             dtype: Any) -> tuple[Any, ...]:
    (ga, sa), (gb, sb) = a, b
    if ga != gb:
        raise errors.InvalidArgumentError(
            op.name, op, f"Shape mismatch: the sets' group shapes differ: {list(ga)} vs {list(gb)}")
    kind = op.attrs["set_operation"]
    out: list[list[Any]] = []
    for x, y in zip(sa, sb):
        out.append(sorted(x & y if kind == "intersection" else x | y if kind == "union"
                          else x - y if kind == "a-b" else y - x))
    width = max((len(r) for r in out), default=0)
    indices: list[tuple[int, ...]] = []
    values: list[Any] = []
    for k, r in enumerate(out):
        pos = np.unravel_index(k, ga) if ga else ()
        for j, v in enumerate(r):
            indices.append((*(int(p) for p in pos), j))
            values.append(v)
    return pack_sparse(indices, values, (*ga, width), dtype)


def _set_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    first = TensorShape(specs[0][0])
    rank = first.ndims if attrs["kind"] == "dense" else (first.as_list()[1] if first.ndims == 2 else None)
    return sparse_outputs(rank, specs[1][1] if attrs["kind"] == "sparse" else specs[0][1])


def _set_device(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("set operations run on the host")


def _attrs_to_tf(attrs: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[Any]]:
    return ({"set_operation": attrs["set_operation"], "validate_indices": attrs["validate_indices"]}, [])


for _type, _kind, _ti in (("DenseToDenseSetOperation", "dense", 0), ("DenseToSparseSetOperation", "dense", 0),
                          ("SparseToSparseSetOperation", "sparse", 1)):
    register_op(_type, num_outputs=4, infer=_set_infer, lowering=device_lowering, default_name=_type,
                tf=TFOp(types={"T": _ti}, to_tf=_attrs_to_tf))(_set_device)


def _string_or(a: Any, dtype: Any) -> np.ndarray:
    return np.asarray(a, dtype=object) if dtype == _dtypes.string else np.asarray(a)


@register_host("DenseToDenseSetOperation", always=True, infer=_set_infer)
def _host_dense_dense(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    d = op.outputs[1].dtype
    return _combine(op, _dense_sets(_string_or(inputs[0], d)), _dense_sets(_string_or(inputs[1], d)), d)


@register_host("DenseToSparseSetOperation", always=True, infer=_set_infer)
def _host_dense_sparse(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    d = op.outputs[1].dtype
    return _combine(op, _dense_sets(_string_or(inputs[0], d)),
                    _sparse_sets(inputs[1], _string_or(inputs[2], d), np.asarray(inputs[3])), d)


@register_host("SparseToSparseSetOperation", always=True, infer=_set_infer)
def _host_sparse_sparse(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    d = op.outputs[1].dtype
    return _combine(op, _sparse_sets(inputs[0], _string_or(inputs[1], d), np.asarray(inputs[2])),
                    _sparse_sets(inputs[3], _string_or(inputs[4], d), np.asarray(inputs[5])), d)


def _operand(x: Any, fn: str) -> Any:
    if isinstance(x, SparseTensorValue):
        x = SparseTensor(x.indices, x.values, x.dense_shape)
    if isinstance(x, SparseTensor):
        return x
    return convert_to_tensor(x)


def _check_dtypes(fn: str, a: Any, b: Any) -> Any:
    da = a.dtype if not isinstance(a, SparseTensor) else a.values.dtype
    db = b.dtype if not isinstance(b, SparseTensor) else b.values.dtype
    if da != db:
        raise TypeError(f"{fn}: the operands' dtypes differ: {da.name} vs {db.name}.")
    if da not in _TYPES:
        raise TypeError(f"{fn}: sets of {da.name} are not supported (int8-64, uint8/16 or string).")
    return da


def _set_operation(fn: str, a: Any, b: Any, set_operation: str, validate_indices: bool) -> SparseTensor:
    check_not_eager(fn)
    a, b = _operand(a, fn), _operand(b, fn)
    _check_dtypes(fn, a, b)
    attrs = {"set_operation": set_operation, "validate_indices": bool(validate_indices)}
    if isinstance(a, SparseTensor):
        if not isinstance(b, SparseTensor):
            raise ValueError("Sparse,Dense is not supported, but Dense,Sparse is. Please flip the order of your "
                             "inputs.")
        parts = apply_op("SparseToSparseSetOperation", (a.indices, a.values, a.dense_shape, b.indices, b.values,
                                                        b.dense_shape), {**attrs, "kind": "sparse"})
    elif isinstance(b, SparseTensor):
        parts = apply_op("DenseToSparseSetOperation", (a, b.indices, b.values, b.dense_shape),
                         {**attrs, "kind": "dense"})
    else:
        if a.shape.ndims is not None and a.shape.ndims < 2:
            raise ValueError(f"{fn}: a dense operand needs rank >= 2 (groups, then the set), got {a.shape} "
                             f"({a.name}).")
        parts = apply_op("DenseToDenseSetOperation", (a, b), {**attrs, "kind": "dense"})
    return sparse_result(parts[0], parts[1], parts[3])


def set_intersection(a: Any, b: Any, validate_indices: bool = True) -> SparseTensor:
    """The intersection of the sets in the last dimension of ``a`` and ``b``, as
    ``tf.sets.intersection`` / ``tf.compat.v1.sets.set_intersection``.

    Args:
      a, b: dense tensors ``[..., n]`` (rank >= 2) or ``SparseTensor``s, of
        one dtype among int8/16/32/64, uint8/16, string; the groups
        (``shape[:-1]``) must match.

    Returns:
      A ``SparseTensor`` of ``a``'s dtype: indices ``[N, rank]``, values sorted
      within each set, dense shape ``groups + [largest result set]``.

    Raises:
      TypeError: the dtypes differ or are not supported.
      InvalidArgumentError (at run time): the groups differ.
    """
    a, b = _operand(a, "set_intersection"), _operand(b, "set_intersection")
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        a, b = b, a
    return _set_operation("set_intersection", a, b, "intersection", validate_indices)


def set_union(a: Any, b: Any, validate_indices: bool = True) -> SparseTensor:
    """The union of the sets in the last dimension of ``a`` and ``b``, as
    ``tf.sets.union`` (see :func:`set_intersection` for arguments and result)."""
    a, b = _operand(a, "set_union"), _operand(b, "set_union")
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        a, b = b, a
    return _set_operation("set_union", a, b, "union", validate_indices)


def set_difference(a: Any, b: Any, aminusb: bool = True, validate_indices: bool = True) -> SparseTensor:
    """``a - b`` (``aminusb=False``: ``b - a``) of the sets in the last dimension, as
    ``tf.sets.difference`` (see :func:`set_intersection` for arguments and result)."""
    a, b = _operand(a, "set_difference"), _operand(b, "set_difference")
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        a, b, aminusb = b, a, not aminusb
    return _set_operation("set_difference", a, b, "a-b" if aminusb else "b-a", validate_indices)


def _size_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(None), _dtypes.int32)]


@register_op("SetSize", infer=_size_infer, lowering=device_lowering, default_name="SetSize",
             tf=TFOp(types={"T": 1}))
def _set_size_device(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("SetSize runs on the host")


@register_host("SetSize", always=True, infer=_size_infer)
def _host_set_size(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    group, sets = _sparse_sets(inputs[0], np.asarray(inputs[1]), np.asarray(inputs[2]))
    return (np.asarray([len(s) for s in sets], np.int32).reshape(group),)


def set_size(a: Any, validate_indices: bool = True) -> Any:
    """The number of distinct values in each set of the ``SparseTensor`` ``a``, as
    ``tf.sets.size`` / ``tf.compat.v1.sets.set_size``.

    Returns:
      int32 of shape ``a.dense_shape[:-1]`` (static shape unknown, as TF's).

    Raises:
      TypeError: ``a`` is not a ``SparseTensor`` (TF's message).
    """
    check_not_eager("set_size")
    if isinstance(a, SparseTensorValue):
        a = SparseTensor(a.indices, a.values, a.dense_shape)
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}.")
    if a.values.dtype not in _TYPES:
        raise TypeError(f"set_size: sets of {a.values.dtype.name} are not supported (int8-64, uint8/16 or string).")
    return apply_op("SetSize", (a.indices, a.values, a.dense_shape), {"validate_indices": bool(validate_indices)})
