"""Sparse ops on :class:`~jaxsess._tf1.ops.sparse_tensor.SparseTensor`, as ``tf.compat.v1``'s ``sparse_ops``.

Static shapes (see :mod:`jaxsess._tf1.ops.sparse_tensor`): the number of stored
values ``N`` may be unknown (one compiled plan per fed ``N``); a dense output
shape is an attribute, known when the graph is built or, for a
``sparse_placeholder`` without a full shape, when the run is traced (a
``Dynamic<Op>`` node, see :mod:`jaxsess._core.graph._dynamic`); otherwise the op
raises :class:`~jaxsess._tf1.ops.segment_ops.DataDependentShapeError` when the
graph is built. Ops whose *number of stored values* depends on the data
(``sparse_retain``, ``sparse_add`` of two sparse tensors, ``sparse.slice``,
``sparse.from_dense``) are built when the data that decides it is known when
the graph is built (constants), and raise ``DataDependentShapeError``
otherwise. ``string_split`` runs on the host (strings are host values), so
its ``N`` is simply the run's (and its dense shape reaches the plan as the
shape of an empty array, as a ``sparse_placeholder``'s).

Not checked at run time (TF raises ``InvalidArgumentError``): indices out of
the dense shape (their values are dropped), duplicate or unordered indices
with ``validate_indices=True`` (``to_dense`` keeps one of the duplicates).
Gradients flow to ``values`` and to the dense operands through the JAX
implementations. Embeddings of sparse ids live in
:mod:`jaxsess._tf1.ops.sparse_embedding_ops`, CTC in :mod:`jaxsess._tf1.ops.ctc_ops`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, constant, constant_value, convert_to_tensor
from jaxsess._core.graph._dynamic import Deferred, first_dtype, register_dynamic, trace_computable
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops
from jaxsess._tf1.ops._args import apply, op_scope, shape_arg, static, static_int
from jaxsess._tf1.ops.indexing_ops import strided_slice
from jaxsess._tf1.ops.segment_ops import DataDependentShapeError
from jaxsess._tf1.ops.shape_ops import shape as shape_of
from jaxsess._tf1.ops.sparse_tensor import SparseTensor, SparseTensorValue, as_sparse

__all__ = [
    "sparse_tensor_to_dense", "sparse_to_dense", "sparse_reduce_sum", "sparse_tensor_dense_matmul",
    "sparse_add", "sparse_reorder", "sparse_reshape", "sparse_retain", "sparse_concat", "sparse_softmax",
    "sparse_slice", "from_dense", "sparse_reduce_max", "sparse_transpose", "string_split", "dim_attr",
    "segment_sum_rows",
]


def _dense_shape(sp: SparseTensor, fn: str, dims: Sequence[int] | None = None) -> tuple[int, ...]:
    """The static dense shape of ``sp`` (the dims in ``dims``, or all of them, must be known).

    Raises:
      DataDependentShapeError: a needed dimension is unknown when the graph is built.
    """
    shape = sp.shape
    if shape.ndims is None:
        raise DataDependentShapeError(fn, sp.dense_shape, _NO_SHAPE_FIX)
    dl = shape.as_list()
    need = range(len(dl)) if dims is None else dims
    if any(dl[d] is None for d in need):
        raise DataDependentShapeError(fn, sp.dense_shape, _NO_SHAPE_FIX)
    return tuple(-1 if d is None else d for d in dl)


def _shape_attr(sp: SparseTensor, fn: str) -> tuple[int, ...] | Deferred:
    """The dense shape of ``sp`` as an op attribute: static, or computed when the
    run is traced (a ``sparse_placeholder`` without a full shape).

    Raises:
      DataDependentShapeError: the dense shape depends on fed or variable values.
    """
    if sp.shape.is_fully_defined():
        return tuple(int(d) for d in sp.shape.as_list())  # type: ignore[arg-type]
    if not trace_computable(sp.dense_shape, {}):
        raise DataDependentShapeError(fn, sp.dense_shape, _NO_SHAPE_FIX)
    d = shape_arg(sp.dense_shape, fn, "dense_shape")
    if isinstance(d, Deferred) and sp.shape.ndims is not None:  # what the SparseTensor knows beyond it
        part = d.partial if d.partial is not None else (None,) * sp.shape.ndims
        known = tuple(k if k is not None else p for k, p in zip(sp.shape.as_list(), part, strict=False))
        d = Deferred(d.tensor, d.convert, known)
    return d  # type: ignore[no-any-return]


def dim_attr(sp: SparseTensor, dim: int, fn: str) -> int | Deferred:
    """Dimension ``dim`` of ``sp``'s dense shape as an op attribute (see :func:`_shape_attr`)."""
    known = sp.shape.as_list()[dim] if sp.shape.ndims is not None else None
    if known is not None:
        return int(known)
    if not trace_computable(sp.dense_shape, {}):
        raise DataDependentShapeError(fn, sp.dense_shape, _NO_SHAPE_FIX)
    d = strided_slice(sp.dense_shape, [dim], [dim + 1], shrink_axis_mask=1)
    return shape_arg(d, fn, "dense_shape", kind="scalar")  # type: ignore[no-any-return]


def _partial(shape: Any) -> list[int | None] | None:
    """A dense-shape attribute's build-time view (``Dynamic`` ops see the partial value) as dims."""
    if shape is None:
        return None
    return [d if isinstance(d, int) and not isinstance(d, bool) and d >= 0 else None for d in shape]


_NO_SHAPE_FIX = (
    "Give the SparseTensor a constant dense_shape, or feed it through tf.sparse_placeholder (whose "
    "dense shape is read when the run is traced), so that the dense shape is not a computed value."
)


def _cols(indices: Any) -> tuple[Any, ...]:
    return tuple(indices[:, k] for k in range(indices.shape[1]))


# -- to dense -------------------------------------------------------------------------------------


def _to_dense_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    return {"validate_indices": a["validate_indices"]}, [np.asarray(a["shape"], np.int64)]


@register_op("SparseToDense", default_name="SparseToDense",
             tf=TFOp(types={"T": 1, "Tindices": 0}, to_tf=_to_dense_tf, n_const=1, const_pos=1,
                     from_tf=lambda a, c: {"shape": tuple(int(x) for x in c[0]),
                                           "validate_indices": bool(a.get("validate_indices", True))}))
def _sparse_to_dense(indices: Any, values: Any, default_value: Any, *, shape: tuple[int, ...],
                     validate_indices: bool) -> Any:
    out = jnp.full(shape, default_value, values.dtype)
    if not shape:
        return jnp.where(jnp.size(indices) > 0, jnp.reshape(values, (-1,))[0] if values.size else out, out)
    idx = jnp.reshape(indices, (-1, len(shape))) if indices.ndim < 2 else indices
    vals = jnp.broadcast_to(values, (idx.shape[0],))
    return out.at[_cols(idx)].set(vals, mode="drop")


def sparse_to_dense(sparse_indices: Any, output_shape: Any, sparse_values: Any, default_value: Any = 0,
                    validate_indices: bool = True, name: str | None = None) -> Any:
    """A dense tensor with ``sparse_values`` at ``sparse_indices``, as ``tf.compat.v1.sparse_to_dense``.

    Args:
      sparse_indices: int32/int64 ``[N, rank]``, ``[N]`` (rank 1) or a scalar.
      output_shape: int vector, known when the graph is built.
      sparse_values: ``[N]`` or a scalar (used for every index).
      default_value: scalar for the other positions.

    Returns:
      A tensor of ``output_shape`` and ``sparse_values``' dtype.

    Raises:
      ValueError: ``output_shape`` is not known when the graph is built.
    """
    shape = tuple(int(d) for d in np.reshape(static(output_shape, "sparse_to_dense", "output_shape"), (-1,)))
    values = convert_to_tensor(sparse_values)
    idx = convert_to_tensor(sparse_indices)
    default = convert_to_tensor(default_value, dtype=values.dtype)
    return apply_op("SparseToDense", (idx, values, default),
                    {"shape": shape, "validate_indices": bool(validate_indices)}, name=name)


def sparse_tensor_to_dense(sp_input: Any, default_value: Any = None, validate_indices: bool = True,
                           name: str | None = None) -> Any:
    """The dense tensor of ``sp_input``, as ``tf.sparse.to_dense`` / ``tf.compat.v1.sparse_tensor_to_dense``.

    Args:
      sp_input: a ``SparseTensor`` whose static dense shape is fully known.
      default_value: scalar for the positions not stored (default 0, or ``b''``).

    Returns:
      A tensor of the dense shape and ``sp_input.dtype``.

    Raises:
      DataDependentShapeError: the dense shape is not known when the graph is built.
    """
    sp = as_sparse(sp_input, "sparse_tensor_to_dense")
    shape = _shape_attr(sp, "sparse_tensor_to_dense")
    if default_value is None:
        default_value = b"" if sp.dtype == _dtypes.string else 0
    default = convert_to_tensor(default_value, dtype=sp.dtype)
    return apply("SparseToDense", (sp.indices, sp.values, default),
                    {"shape": shape, "validate_indices": bool(validate_indices)}, name)


register_dynamic("SparseToDense", lambda shapes, a: TensorShape(_partial(a["shape"])),
                 lambda dtypes, a: dtypes[1])


# -- reductions ------------------------------------------------------------------------------------


@register_op("SparseReduceSum", default_name="SparseReduceSum")
def _sparse_reduce_sum(indices: Any, values: Any, *, shape: tuple[int, ...], axes: tuple[int, ...] | None,
                       keepdims: bool) -> Any:
    axes = tuple(range(len(shape))) if axes is None else tuple(a % len(shape) for a in axes)
    kept = [d for d in range(len(shape)) if d not in axes]
    if not kept:
        total = jnp.sum(values)
    else:
        total = jnp.zeros(tuple(shape[d] for d in kept), values.dtype).at[
            tuple(indices[:, d] for d in kept)].add(values, mode="drop")
    if keepdims:
        total = jnp.reshape(total, tuple(1 if d in axes else shape[d] for d in range(len(shape))))
    return total


def sparse_reduce_sum(sp_input: Any, axis: Any = None, keepdims: bool | None = None,
                      reduction_axes: Any = None, keep_dims: bool | None = None, name: str | None = None) -> Any:
    """Sum of ``sp_input``'s values over ``axis``, as ``tf.compat.v1.sparse_reduce_sum``.

    Args:
      sp_input: a ``SparseTensor``; with an ``axis``, its dense shape must be known.
      axis: ``None`` (all), an int or ints (negative from the end); alias ``reduction_axes``.
      keepdims: keep reduced dims with size 1; alias ``keep_dims``.

    Returns:
      A dense tensor of ``sp_input.dtype``.

    Raises:
      DataDependentShapeError: the dense shape is needed and unknown.
    """
    sp = as_sparse(sp_input, "sparse_reduce_sum")
    return _reduce("SparseReduceSum", sp, reduction_axes if axis is None else axis,
                   bool(keep_dims if keepdims is None else keepdims), name)


def _reduce(op: str, sp: SparseTensor, axis: Any, keep: bool, name: str | None) -> Any:
    fn = "sparse_reduce_sum" if op == "SparseReduceSum" else "sparse_reduce_max"
    rank = sp.shape.ndims
    shape: tuple[int, ...] | Deferred
    axes: tuple[int, ...] | None = None
    if axis is None and not keep:
        shape = (0,) * (rank or 0)  # a full reduction: no dense shape needed
    else:
        shape = _shape_attr(sp, fn)
        if axis is not None:
            raw = np.reshape(static(axis, fn, "axis"), (-1,))
            part = shape.partial if isinstance(shape, Deferred) else shape
            # with an unknown rank, negative axes are resolved when the run is traced
            axes = tuple(sorted({int(a) % len(part) if part is not None else int(a) for a in raw}))
    return apply(op, (sp.indices, sp.values), {"shape": shape, "axes": axes, "keepdims": keep}, name)


def _reduce_sum_shape(shapes: Any, a: dict[str, Any]) -> TensorShape:
    dims = _partial(a["shape"])
    if dims is None:
        return TensorShape(None)
    if a["axes"] is None:
        return TensorShape([1] * len(dims) if a["keepdims"] else [])
    if a["keepdims"]:
        return TensorShape([1 if d in a["axes"] else x for d, x in enumerate(dims)])
    return TensorShape([x for d, x in enumerate(dims) if d not in a["axes"]])


register_dynamic("SparseReduceSum", _reduce_sum_shape, lambda dtypes, a: dtypes[1])


@register_op("SparseReduceMax", default_name="SparseReduceMax")
def _sparse_reduce_max(indices: Any, values: Any, *, shape: tuple[int, ...], axes: tuple[int, ...] | None,
                       keepdims: bool) -> Any:
    axes = tuple(range(len(shape))) if axes is None else tuple(a % len(shape) for a in axes)
    kept = [d for d in range(len(shape)) if d not in axes]
    dt = values.dtype
    low = jnp.finfo(dt).min if jnp.issubdtype(dt, jnp.floating) else jnp.iinfo(dt).min
    if not kept:
        top = jnp.max(values, initial=low) if values.shape[0] else jnp.zeros((), dt)
    else:
        out_shape = tuple(shape[d] for d in kept)
        at = tuple(indices[:, d] for d in kept)
        top = jnp.full(out_shape, low, dt).at[at].max(values, mode="drop")
        seen = jnp.zeros(out_shape, jnp.bool_).at[at].set(True, mode="drop")
        top = jnp.where(seen, top, jnp.zeros((), dt))  # an empty group gives 0, as TF
    if keepdims:
        top = jnp.reshape(top, tuple(1 if d in axes else shape[d] for d in range(len(shape))))
    return top


register_dynamic("SparseReduceMax", lambda shapes, a: _reduce_sum_shape(shapes, a), lambda dtypes, a: dtypes[1])


def sparse_reduce_max(sp_input: Any, axis: Any = None, keepdims: bool | None = None,
                      reduction_axes: Any = None, keep_dims: bool | None = None, name: str | None = None) -> Any:
    """Maximum of ``sp_input``'s *stored* values over ``axis``, as ``tf.compat.v1.sparse_reduce_max``
    (implicit zeros do not count; a group without stored values gives 0).

    Args: as :func:`sparse_reduce_sum`.

    Raises:
      DataDependentShapeError: the dense shape is needed and depends on fed values.
    """
    sp = as_sparse(sp_input, "sparse_reduce_max")
    return _reduce("SparseReduceMax", sp, reduction_axes if axis is None else axis,
                   bool(keep_dims if keepdims is None else keepdims), name)


# -- products and sums with dense tensors -------------------------------------------------------------


@register_op("SparseTensorDenseMatMul", default_name="SparseTensorDenseMatMul")
def _sparse_dense_matmul(indices: Any, values: Any, b: Any, *, shape: tuple[int, ...], adjoint_a: bool,
                         adjoint_b: bool) -> Any:
    rows, inner = (shape[1], shape[0]) if adjoint_a else (shape[0], shape[1])
    b_inner = b.shape[1 if adjoint_b else 0]
    if inner >= 0 and b_inner != inner:  # dense shapes known only when traced are checked here
        raise ValueError(f"Cannot multiply A and B because inner dimension does not match: {inner} vs. {b_inner}. "
                         f"Did you forget a transpose? Dimensions of A: [{shape[0]}, {shape[1]}]. "
                         f"Dimensions of B: {list(b.shape)}")
    r, c = indices[:, 0], indices[:, 1]
    if adjoint_a:
        r, c = c, r
        values = jnp.conj(values)
    if adjoint_b:
        b = jnp.conj(jnp.swapaxes(b, 0, 1))
    contrib = values[:, None] * jnp.take(b, c, axis=0, mode="fill", fill_value=0)
    return jnp.zeros((rows, b.shape[1]), contrib.dtype).at[r].add(contrib, mode="drop")


def sparse_tensor_dense_matmul(sp_a: Any, b: Any, adjoint_a: bool = False, adjoint_b: bool = False,
                               name: str | None = None) -> Any:
    """``sp_a @ b`` for a rank-2 ``SparseTensor`` ``sp_a``, as ``tf.sparse.sparse_dense_matmul``.

    Args:
      sp_a: ``SparseTensor`` ``[M, K]`` (``[K, M]`` with ``adjoint_a``);
        the output's row count (``M``) must be known when the graph is built.
      b: dense ``[K, P]`` (``[P, K]`` with ``adjoint_b``) of ``sp_a``'s dtype.
      adjoint_a, adjoint_b: use the conjugate transpose.

    Returns:
      A dense ``[M, P]`` tensor. Duplicate indices add up, as TF.

    Raises:
      DataDependentShapeError: ``M`` is unknown when the graph is built.
      ValueError: ``sp_a`` is not of rank 2, or ``b``'s dtype differs.
    """
    sp = as_sparse(sp_a, "sparse_tensor_dense_matmul")
    if sp.shape.ndims not in (None, 2):
        raise ValueError(f"sparse_tensor_dense_matmul: sp_a must have rank 2, got dense shape {sp.shape}.")
    shape = _shape_attr(sp, "sparse_tensor_dense_matmul")
    part0 = shape.partial if isinstance(shape, Deferred) else shape
    if part0 is not None and len(part0) != 2:
        raise ValueError(f"sparse_tensor_dense_matmul: sp_a must have rank 2, got dense shape {sp.shape}.")
    dim = 1 if adjoint_a else 0
    part = _partial(shape.partial if isinstance(shape, Deferred) else shape) or [None, None]
    with op_scope(name, "SparseTensorDenseMatMul", [sp.values, b]):
        bt = convert_to_tensor(b, dtype=sp.dtype, name="b")
        k_a = part[1 - dim]
        bshape = TensorShape(bt.shape)  # a jax.Array's tuple when executing eagerly
        bs = bshape.as_list() if bshape.ndims is not None else None
        if bs is not None and len(bs) != 2:
            raise ValueError(f"sparse_tensor_dense_matmul: b must have rank 2, got shape {bshape}.")
        k_b = None if bs is None else bs[1 if adjoint_b else 0]
        if k_a is not None and k_b is not None and k_a != k_b:
            raise ValueError(
                f"sparse_tensor_dense_matmul: dimensions must be equal, but are {k_a} (sp_a, dense shape "
                f"{sp.shape}, adjoint_a={bool(adjoint_a)}) and {k_b} (b {getattr(bt, 'name', '')}, shape {bshape}, "
                f"adjoint_b={bool(adjoint_b)})."
            )
        return apply("SparseTensorDenseMatMul", (sp.indices, sp.values, bt),
                     {"shape": shape, "adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)}, None)


def _matmul_shape(shapes: Any, a: dict[str, Any]) -> TensorShape:
    dims = _partial(a["shape"]) or [None, None]
    b = TensorShape(shapes[2])
    cols = None if b.ndims is None else b.as_list()[0 if a["adjoint_b"] else 1]
    return TensorShape([dims[1 if a["adjoint_a"] else 0], cols])


register_dynamic("SparseTensorDenseMatMul", _matmul_shape, lambda dtypes, a: dtypes[1])


@register_op("SparseTensorDenseAdd", default_name="SparseTensorDenseAdd")
def _sparse_dense_add(indices: Any, values: Any, b: Any) -> Any:
    return b.at[_cols(indices)].add(values, mode="drop")


def sparse_add(a: Any, b: Any, threshold: Any = 0, thresh: Any = None, name: str | None = None) -> Any:
    """``a + b`` where at least one is a ``SparseTensor``, as ``tf.compat.v1.sparse_add``.

    A sparse and a dense operand give a dense tensor (duplicate indices add
    up). Two sparse operands give a ``SparseTensor`` whose indices are the
    merge of both (as TF's ``SparseAdd``, for indices in row-major order);
    its number of values depends on the indices, so both index tensors must
    be known when the graph is built, and ``threshold`` must be 0.

    Raises:
      DataDependentShapeError: two sparse operands with indices not known at build time.
      NotImplementedError: a nonzero ``threshold`` with two sparse operands.
      TypeError: neither operand is sparse.
    """
    thresh = threshold if thresh is None else thresh
    a_sp = isinstance(a, SparseTensor | SparseTensorValue)
    b_sp = isinstance(b, SparseTensor | SparseTensorValue)
    if not a_sp and not b_sp:
        raise TypeError("sparse_add: at least one of a and b must be a SparseTensor.")
    if a_sp != b_sp:
        sp = as_sparse(a if a_sp else b, "sparse_add")
        dense = b if a_sp else a
        d = convert_to_tensor(dense, dtype=sp.dtype)
        return apply_op("SparseTensorDenseAdd", (sp.indices, sp.values, d), {}, name=name)
    spa, spb = as_sparse(a, "sparse_add"), as_sparse(b, "sparse_add")
    ia, ib = constant_value(spa.indices), constant_value(spb.indices)
    if ia is None or ib is None:
        raise DataDependentShapeError("sparse_add", spa.indices if ia is None else spb.indices,
                                      "Add a SparseTensor to a dense tensor, or use constant indices.")
    t = constant_value(convert_to_tensor(thresh))
    if t is None or np.any(t != 0):
        raise NotImplementedError("sparse_add of two SparseTensors supports only threshold=0.")
    # TF's merge of two index lists (assumed row-major ordered).
    out: list[tuple[int, ...]] = []
    pos_a, pos_b = [], []
    i = j = 0
    la, lb = [tuple(r) for r in ia.tolist()], [tuple(r) for r in ib.tolist()]
    while i < len(la) and j < len(lb):
        if la[i] < lb[j]:
            pos_a.append(len(out))
            out.append(la[i])
            i += 1
        elif la[i] > lb[j]:
            pos_b.append(len(out))
            out.append(lb[j])
            j += 1
        else:
            pos_a.append(len(out))
            pos_b.append(len(out))
            out.append(la[i])
            i += 1
            j += 1
    for k in range(i, len(la)):
        pos_a.append(len(out))
        out.append(la[k])
    for k in range(j, len(lb)):
        pos_b.append(len(out))
        out.append(lb[k])
    rank = ia.shape[1]
    with op_scope(name, "SparseAdd", [spa.values, spb.values]):
        vb = convert_to_tensor(spb.values, dtype=spa.dtype)
        values = math_ops.add(
            segment_sum_rows(spa.values, constant(np.asarray(pos_a, np.int32)), len(out)),
            segment_sum_rows(vb, constant(np.asarray(pos_b, np.int32)), len(out)))
        indices = constant(np.asarray(out, np.int64).reshape(len(out), rank), name="indices")
        dense = math_ops.maximum(spa.dense_shape, spb.dense_shape)
    return SparseTensor(indices, values, dense)


def _cwise_impl(kind: str) -> Any:
    def impl(indices: Any, values: Any, dense: Any) -> Any:
        # dense broadcasts against the trailing dimensions of the dense shape
        r, rd = indices.shape[1], dense.ndim
        at = tuple(indices[:, r - rd + j] if dense.shape[j] != 1 else jnp.zeros_like(indices[:, 0])
                   for j in range(rd))
        other = dense[at] if rd else jnp.broadcast_to(dense, values.shape)
        return values * other if kind == "Mul" else values / other

    return impl


for _kind in ("Mul", "Div"):
    register_op("SparseDenseCwise" + _kind, default_name=_kind.lower())(_cwise_impl(_kind))


def _cwise(kind: str, sp: SparseTensor, dense: Any, name: str | None) -> SparseTensor:
    d = convert_to_tensor(dense, dtype=sp.dtype)
    dshape = TensorShape(d.shape)
    if dshape.ndims is not None and sp.shape.ndims is not None and dshape.ndims > sp.shape.ndims:
        raise ValueError(f"SparseTensor {kind.lower()}: the dense operand {getattr(d, 'name', '')} (shape {dshape}) has more "
                         f"dimensions than the SparseTensor (dense shape {sp.shape}).")
    values = apply_op("SparseDenseCwise" + kind, (sp.indices, sp.values, d), {}, name=name)
    out = SparseTensor(sp.indices, values, sp.dense_shape)
    out._shape = sp.shape
    out._shape_carrier = sp._shape_carrier
    return out


def _sparse_mul(self: SparseTensor, other: Any) -> SparseTensor:
    return _cwise("Mul", self, other, None)


def _sparse_div(self: SparseTensor, other: Any) -> SparseTensor:
    return _cwise("Div", self, other, None)


# As TF's SparseTensor: ``sp * dense`` and ``sp / dense`` (the dense side broadcasts) keep ``sp``'s indices.
for _name, _fn in (("__mul__", _sparse_mul), ("__truediv__", _sparse_div), ("__div__", _sparse_div)):
    setattr(SparseTensor, _name, _fn)


def sparse_transpose(sp_input: Any, perm: Any = None, name: str | None = None) -> SparseTensor:
    """``sp_input`` with its dimensions permuted, in row-major order, as ``tf.sparse.transpose``.

    Args:
      perm: a permutation known when the graph is built (default: reversed dims).

    Raises:
      ValueError: the rank is unknown, or ``perm`` is not a permutation of it.
    """
    sp = as_sparse(sp_input, "sparse.transpose")
    rank = sp.shape.ndims
    if rank is None:
        raise ValueError("sparse.transpose: the rank of the SparseTensor must be known when the graph is built.")
    p = list(range(rank))[::-1] if perm is None else [int(x) for x in np.reshape(
        static(perm, "sparse.transpose", "perm"), (-1,))]
    if sorted(p) != list(range(rank)):
        raise ValueError(f"sparse.transpose: perm {p} is not a permutation of {rank} dimensions.")
    with op_scope(name, "SparseTranspose", [sp.indices]):
        sel = constant(np.asarray(p, np.int32))
        moved = SparseTensor(array_ops.gather(sp.indices, sel, axis=1), sp.values,
                             array_ops.gather(sp.dense_shape, sel))
        known = sp.shape.as_list()
        moved._shape = TensorShape([known[i] for i in p])
        return sparse_reorder(moved)


# -- reordering, reshaping, concatenation -------------------------------------------------------------


@register_op("SparseReorder", num_outputs=2, default_name="SparseReorder")
def _sparse_reorder(indices: Any, values: Any) -> Any:
    order = jnp.lexsort(tuple(indices[:, k] for k in reversed(range(indices.shape[1]))))
    return indices[order], values[order]


def sparse_reorder(sp_input: Any, name: str | None = None) -> SparseTensor:
    """``sp_input`` with its values in row-major order of their indices, as ``tf.sparse.reorder``.

    Returns:
      A ``SparseTensor`` with the same ``dense_shape`` tensor.
    """
    sp = as_sparse(sp_input, "sparse_reorder")
    indices, values = apply_op("SparseReorder", (sp.indices, sp.values), {}, name=name)
    out = SparseTensor(indices, values, sp.dense_shape)
    out._shape = sp.shape
    return out


@register_op("SparseReshape", default_name="SparseReshape")
def _sparse_reshape(indices: Any, *, shape: tuple[int, ...], new_shape: tuple[int, ...]) -> Any:
    flat = jnp.zeros(indices.shape[:1], indices.dtype)
    for k, d in enumerate(shape):
        flat = flat * d + indices[:, k]
    cols = []
    for d in reversed(new_shape):
        cols.append(flat % d)
        flat = flat // d
    return jnp.stack(cols[::-1], axis=1) if cols else jnp.zeros((indices.shape[0], 0), indices.dtype)


def sparse_reshape(sp_input: Any, shape: Any, name: str | None = None) -> SparseTensor:
    """``sp_input`` with a new dense shape (row-major order kept), as ``tf.sparse.reshape``.

    Args:
      shape: int vector known when the graph is built; one dimension may be -1.

    Raises:
      DataDependentShapeError: ``sp_input``'s dense shape is unknown.
      ValueError: the sizes differ, or more than one -1.
    """
    sp = as_sparse(sp_input, "sparse_reshape")
    old = _dense_shape(sp, "sparse_reshape")
    new = [int(d) for d in np.reshape(static(shape, "sparse_reshape", "shape"), (-1,))]
    total = int(np.prod(old))
    if new.count(-1) > 1:
        raise ValueError(f"sparse_reshape: at most one dimension may be -1, got {new}.")
    if -1 in new:
        rest = int(np.prod([d for d in new if d != -1]))
        if rest == 0 or total % rest:
            raise ValueError(f"sparse_reshape: cannot reshape a SparseTensor of shape {list(old)} to {new}.")
        new[new.index(-1)] = total // rest
    if int(np.prod(new)) != total:
        raise ValueError(f"sparse_reshape: cannot reshape a SparseTensor of shape {list(old)} "
                         f"({total} elements) to {new}.")
    indices = apply_op("SparseReshape", (sp.indices,), {"shape": old, "new_shape": tuple(new)}, name=name)
    dense = constant(np.asarray(new, np.int64))
    return SparseTensor(indices, sp.values, dense)


@register_op("SparseConcat", num_outputs=2, default_name="SparseConcat")
def _sparse_concat(*xs: Any, axis: int, offsets: tuple[int, ...]) -> Any:
    n = len(offsets)
    parts = []
    for k in range(n):
        idx = xs[k]
        parts.append(idx.at[:, axis].add(offsets[k]))
    indices = jnp.concatenate(parts, axis=0)
    values = jnp.concatenate(xs[n:], axis=0)
    order = jnp.lexsort(tuple(indices[:, k] for k in reversed(range(indices.shape[1]))))
    return indices[order], values[order]


def sparse_concat(axis: Any, sp_inputs: Sequence[Any], name: str | None = None,
                  expand_nonconcat_dim: bool = False, concat_dim: Any = None,
                  expand_nonconcat_dims: bool | None = None) -> SparseTensor:
    """``sp_inputs`` joined along ``axis``, as ``tf.compat.v1.sparse_concat`` (output in row-major order).

    Args:
      axis: int known at build time (negative from the end); alias ``concat_dim``.
      sp_inputs: ``SparseTensor``s of one dtype and rank, with known dense shapes.
      expand_nonconcat_dim: other dims become their maximum (else they must match).

    Raises:
      DataDependentShapeError: a dense shape is unknown.
      ValueError: other dims differ without ``expand_nonconcat_dim``.
    """
    axis = concat_dim if concat_dim is not None else axis
    expand = expand_nonconcat_dim if expand_nonconcat_dims is None else expand_nonconcat_dims
    sps = [as_sparse(s, "sparse_concat") for s in sp_inputs]
    shapes = [_dense_shape(s, "sparse_concat") for s in sps]
    rank = len(shapes[0])
    ax = static_int(axis, "sparse_concat", "axis") % rank
    out_shape = list(shapes[0])
    for s in shapes[1:]:
        for d in range(rank):
            if d != ax and s[d] != out_shape[d]:
                if not expand:
                    raise ValueError(f"sparse_concat: input shapes {[list(x) for x in shapes]} differ in "
                                     f"dimension {d} (not the concat axis {ax}).")
                out_shape[d] = max(out_shape[d], s[d])
    offsets = tuple(int(o) for o in np.cumsum([0] + [s[ax] for s in shapes[:-1]]))
    out_shape[ax] = sum(s[ax] for s in shapes)
    vals = [convert_to_tensor(s.values, dtype=sps[0].dtype) for s in sps]
    indices, values = apply_op("SparseConcat", [s.indices for s in sps] + vals, {"axis": ax, "offsets": offsets},
                               name=name)
    dense = constant(np.asarray(out_shape, np.int64))
    return SparseTensor(indices, values, dense)


@register_op("SparseSoftmax", default_name="SparseSoftmax")
def _sparse_softmax(indices: Any, values: Any, *, shape: tuple[int, ...]) -> Any:
    group = jnp.zeros(indices.shape[:1], indices.dtype)
    for k, d in enumerate(shape[:-1]):
        group = group * d + indices[:, k]
    n = int(np.prod(shape[:-1]))
    top = jnp.full((n,), -jnp.inf, values.dtype).at[group].max(values, mode="drop")
    e = jnp.exp(values - top[group])
    total = jnp.zeros((n,), values.dtype).at[group].add(e, mode="drop")
    return e / total[group]


register_dynamic("SparseSoftmax", lambda shapes, a: TensorShape(shapes[1]), lambda dtypes, a: dtypes[1])


def sparse_softmax(sp_input: Any, name: str | None = None) -> SparseTensor:
    """Softmax over the stored values of each innermost row, as ``tf.sparse.softmax``.

    Args:
      sp_input: ``SparseTensor`` of rank >= 2 and known dense shape, values
        float; indices in row-major order.

    Returns:
      A ``SparseTensor`` with the same indices and dense shape.

    Raises:
      DataDependentShapeError: the dense shape is unknown.
    """
    sp = as_sparse(sp_input, "sparse_softmax")
    shape = _shape_attr(sp, "sparse_softmax")
    with op_scope(name, "SparseSoftmax", [sp.values]):
        values = apply("SparseSoftmax", (sp.indices, sp.values), {"shape": shape}, None)
    out = SparseTensor(sp.indices, values, sp.dense_shape)
    out._shape = sp.shape
    return out


# -- ops whose number of values depends on the data (known at build time) ------------------------------


def _known_indices(sp: SparseTensor, fn: str) -> np.ndarray:
    ia = constant_value(sp.indices)
    if ia is None:
        raise DataDependentShapeError(fn, sp.indices, "Use constant indices.")
    return np.asarray(ia, np.int64).reshape(-1, TensorShape(sp.indices.shape).as_list()[1] or ia.shape[-1])


def _gathered(sp: SparseTensor, keep: np.ndarray, indices: np.ndarray, dense: Any) -> SparseTensor:
    values = array_ops.gather(sp.values, constant(np.asarray(keep, np.int32)))
    return SparseTensor(constant(np.asarray(indices, np.int64).reshape(len(keep), -1)), values, dense)


def sparse_retain(sp_input: Any, to_retain: Any) -> SparseTensor:
    """The values of ``sp_input`` where ``to_retain`` is true, as ``tf.sparse.retain``.

    Args:
      to_retain: bool ``[N]``, known when the graph is built (it decides the output's ``N``).

    Raises:
      DataDependentShapeError: ``to_retain`` is not known when the graph is built.
    """
    sp = as_sparse(sp_input, "sparse_retain")
    mask = constant_value(convert_to_tensor(to_retain))
    if mask is None:
        raise DataDependentShapeError("sparse_retain", to_retain, "Pass a constant mask.")
    keep = np.flatnonzero(np.asarray(mask, bool))
    ia = constant_value(sp.indices)
    if ia is not None:
        return _gathered(sp, keep, np.asarray(ia)[keep], sp.dense_shape)
    with op_scope(None, "SparseRetain", [sp.indices]):
        sel = constant(np.asarray(keep, np.int32))
        return SparseTensor(array_ops.gather(sp.indices, sel), array_ops.gather(sp.values, sel), sp.dense_shape)


def sparse_slice(sp_input: Any, start: Any, size: Any, name: str | None = None) -> SparseTensor:
    """The part of ``sp_input`` in ``[start, start + size)``, as ``tf.sparse.slice``.

    ``sp_input``'s indices and dense shape must be known when the graph is built
    (they decide the output's ``N``).

    Raises:
      DataDependentShapeError: the indices are not known at build time.
    """
    sp = as_sparse(sp_input, "sparse_slice")
    ia = _known_indices(sp, "sparse.slice")
    shape = np.asarray(_dense_shape(sp, "sparse.slice"), np.int64)
    st = np.reshape(static(start, "sparse.slice", "start"), (-1,)).astype(np.int64)
    sz = np.reshape(static(size, "sparse.slice", "size"), (-1,)).astype(np.int64)
    end = np.minimum(st + sz, shape)
    inside = np.all((ia >= st) & (ia < end), axis=1) if ia.size else np.zeros((0,), bool)
    keep = np.flatnonzero(inside)
    with op_scope(name, "SparseSlice", [sp.values]):
        return _gathered(sp, keep, ia[keep] - st, constant(np.maximum(end - st, 0)))


def from_dense(tensor: Any, name: str | None = None) -> SparseTensor:
    """The non-zero elements of ``tensor`` as a ``SparseTensor``, as ``tf.sparse.from_dense``.

    ``tensor`` must be known when the graph is built (its zeros decide the output's ``N``).

    Raises:
      DataDependentShapeError: ``tensor`` is not known at build time.
    """
    t = convert_to_tensor(tensor)
    v = constant_value(t)
    if v is None:
        raise DataDependentShapeError("sparse.from_dense", t, "Pass a constant tensor.")
    v = np.asarray(v)
    zero = b"" if v.dtype == object else 0
    idx = np.argwhere(v != zero).astype(np.int64)
    with op_scope(name, "dense_to_sparse", [t]):
        return SparseTensor(constant(idx.reshape(-1, v.ndim)), constant(v[tuple(idx.T)], dtype=t.dtype),
                            constant(np.asarray(v.shape, np.int64)))


# -- segment sums with a number of segments known when traced ---------------------------------------


def segment_sum_rows(data: Any, segment_ids: Any, rows: int | Deferred) -> Any:
    """``unsorted_segment_sum`` with ``rows`` segments, a number known when the graph is built or traced."""
    return apply("UnsortedSegmentSum", (convert_to_tensor(data), segment_ids), {"num_segments": rows}, None)


def _segment_sum_shape(shapes: Any, a: dict[str, Any]) -> TensorShape:
    data, ids = TensorShape(shapes[0]), TensorShape(shapes[1])
    n = a["num_segments"]
    if data.ndims is None or ids.ndims is None:
        return TensorShape(None)
    return TensorShape([n if isinstance(n, int) and n >= 0 else None, *data.as_list()[ids.ndims:]])


register_dynamic("UnsortedSegmentSum", _segment_sum_shape, first_dtype)


# -- string_split (host) -------------------------------------------------------------------------------


def _string_split_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([None, 2]), _dtypes.int64), (TensorShape([None]), _dtypes.string),
            (TensorShape([2]), _dtypes.int64), (TensorShape([None, None, 0]), _dtypes.bool)]


# Outputs: TF's (indices, values, shape), and an empty bool array of shape
# ``shape + [0]`` that carries the dense shape into the device plan as a shape.
@register_op("StringSplit", num_outputs=4, default_name="StringSplit", infer=_string_split_infer,
             lowering=device_lowering)
def _string_split_device(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("StringSplit runs on the host")


@register_host("StringSplit", infer=_string_split_infer)
def _host_string_split(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    source = np.asarray(inputs[0], dtype=object).reshape(-1)
    delim = bytes(np.asarray(inputs[1], dtype=object).reshape(-1)[0])
    skip_empty = op.attrs["skip_empty"]
    idx: list[tuple[int, int]] = []
    vals: list[bytes] = []
    width = 0
    for i, s in enumerate(source):
        s = s if isinstance(s, bytes) else str(s).encode("utf-8")
        parts = _split_any(s, delim) if delim else [s[k:k + 1] for k in range(len(s))]
        if skip_empty:
            parts = [p for p in parts if p]
        for j, p in enumerate(parts):
            idx.append((i, j))
            vals.append(p)
        width = max(width, len(parts))
    values = np.empty((len(vals),), dtype=object)
    values[:] = vals
    dense_shape = np.asarray([len(source), width], np.int64)
    return (np.asarray(idx, np.int64).reshape(-1, 2), values, dense_shape, np.zeros((len(source), width, 0), np.bool_))


def _split_any(s: bytes, delims: bytes) -> list[bytes]:
    """``s`` split at every byte of ``delims`` (TF's ``StringSplit``: each character is a delimiter)."""
    parts = [b""]
    for k in range(len(s)):
        ch = s[k:k + 1]
        if ch in delims:
            parts.append(b"")
        else:
            parts[-1] += ch
    return parts


def string_split(source: Any, sep: Any = None, skip_empty: bool = True, delimiter: Any = None,
                 result_type: str = "SparseTensor", name: str | None = None) -> SparseTensor:
    """Splits each string of the vector ``source``, as ``tf.compat.v1.string_split``.

    Runs on the host (strings are host values).

    Args:
      source: string vector ``[B]``.
      sep / delimiter: each of its characters splits (default ``' '``); ``''``
        splits into single bytes.
      skip_empty: drop empty tokens.

    Returns:
      A ``SparseTensor`` of strings: indices ``[N, 2]`` (string, token),
      dense shape ``[B, max tokens]`` (computed on the device from the shape
      of an empty array, so ops that need it, on a ``SparseTensor`` of these
      indices, compile once per distinct dense shape).

    Raises:
      NotImplementedError: ``result_type='RaggedTensor'``.
    """
    if result_type != "SparseTensor":
        raise NotImplementedError("string_split supports result_type='SparseTensor' only.")
    if delimiter is None:
        delimiter = " " if sep is None else sep
    src = convert_to_tensor(source, dtype=_dtypes.string)
    d = convert_to_tensor(delimiter, dtype=_dtypes.string)
    with op_scope(name, "StringSplit", [src]):
        indices, values, _, carrier = apply_op("StringSplit", (src, d), {"skip_empty": bool(skip_empty)})
        # the dense shape as a shape, so that ops needing it get it when the run is traced
        shape = strided_slice(shape_of(carrier, out_type=_dtypes.int64), [0], [-1])
    return SparseTensor(indices, values, shape)
