"""Sparse ops whose number of stored values depends on the data, run on the host:
``sparse.fill_empty_rows``, ``sparse.split``, ``sparse.maximum``/``minimum``
and ``edit_distance``, as ``tf.compat.v1``'s.

XLA compiles static shapes, and these ops' outputs have data-dependent
sizes, so they are host ops (:mod:`jaxsess._core.graph._host`): ``Session.run``
computes their inputs first (a plain run of the device plan), runs them on
NumPy values, and feeds their outputs to the device plan, which compiles
once per distinct output size (as for a fed ``sparse_placeholder``). A result
``SparseTensor`` whose dense shape is computed here carries it into the plan
as the shape of an empty array (:func:`sparse_result`), so ``sparse.to_dense``
and the other ops that need it work on it. Semantics follow TF's kernels
(``SparseFillEmptyRows``, ``SparseSplit``, ``SparseSparseMaximum``/``Minimum``,
``EditDistance``), checked against ``tensorflow-cpu`` 2.21. Like every host
op, they run only through ``Session.run`` (not ``make_callable``, export or
an ``EagerSession``), have no gradients, and expect sparse inputs in the
canonical row-major order (not checked).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, constant_value, convert_to_tensor
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import check_not_eager, device_lowering, register_host
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops._args import op_scope
from jaxsess._tf1.ops.indexing_ops import strided_slice
from jaxsess._tf1.ops.shape_ops import shape as shape_of
from jaxsess._tf1.ops.sparse_tensor import SparseTensor, SparseTensorValue, as_sparse

__all__ = [
    "sparse_result", "sparse_outputs", "pack_sparse", "sparse_fill_empty_rows", "sparse_split",
    "sparse_maximum", "sparse_minimum", "edit_distance",
]


def sparse_result(indices: Any, values: Any, carrier: Any) -> SparseTensor:
    """A ``SparseTensor`` of a host op's ``indices``, ``values`` and ``carrier``: an
    empty bool array of shape ``dense_shape + [0]`` (as ``string_split``'s), whose
    shape is the dense shape, so that ops needing it get it when the run is traced."""
    shape = strided_slice(shape_of(carrier, out_type=_dtypes.int64), [0], [-1])
    return SparseTensor(indices, values, shape)


def _with_dense_shape_of(sp: SparseTensor, indices: Any, values: Any) -> SparseTensor:
    """A ``SparseTensor`` of ``indices``/``values`` with ``sp``'s dense shape and what is
    known of it (its static shape, a ``sparse_placeholder``'s shape carrier)."""
    out = SparseTensor(indices, values, sp.dense_shape)
    out._shape = sp.shape
    out._shape_carrier = sp._shape_carrier
    return out


def sparse_outputs(rank: int | None, dtype: Any) -> list[tuple[TensorShape, Any]]:
    """Output specs ``(indices, values, dense_shape, carrier)`` of a host op with a sparse result."""
    return [(TensorShape([None, rank]), _dtypes.int64), (TensorShape([None]), dtype),
            (TensorShape([rank]), _dtypes.int64),
            (TensorShape(None if rank is None else [None] * rank + [0]), _dtypes.bool)]


def _values(values: list[Any], dtype: Any) -> np.ndarray:
    if dtype == _dtypes.string:
        out = np.empty((len(values),), dtype=object)
        out[:] = values
        return out
    return np.asarray(values, dtype=dtype.np_dtype).reshape(-1)


def pack_sparse(indices: Any, values: Any, dense_shape: Any, dtype: Any) -> tuple[Any, ...]:
    """Host outputs ``(indices, values, dense_shape, carrier)`` matching :func:`sparse_outputs`."""
    dense_shape = tuple(int(d) for d in dense_shape)
    vals = values if isinstance(values, np.ndarray) else _values(list(values), dtype)
    return (np.asarray(indices, np.int64).reshape(-1, len(dense_shape)), vals, np.asarray(dense_shape, np.int64),
            np.zeros((*dense_shape, 0), np.bool_))


def _host_device(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("this sparse op runs on the host")


def _rank(t: Any) -> int | None:
    return TensorShape(t).as_list()[0] if TensorShape(t).ndims == 1 else None


# -- fill_empty_rows ----------------------------------------------------------------------------------


def _fill_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    rank = _rank(specs[2][0])
    return [(TensorShape([None, rank]), _dtypes.int64), (TensorShape([None]), specs[1][1]),
            (TensorShape([None]), _dtypes.bool), (TensorShape([None]), _dtypes.int64)]


register_op("SparseFillEmptyRows", num_outputs=4, infer=_fill_infer, lowering=device_lowering,
            default_name="SparseFillEmptyRows", tf=TFOp(types={"T": 1}))(_host_device)


@register_host("SparseFillEmptyRows", always=True, infer=_fill_infer)
def _host_fill_empty_rows(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    indices, values, shape, default = (np.asarray(x) for x in inputs)
    rows = int(shape[0])
    row_of = indices[:, 0] if len(indices) else np.zeros((0,), np.int64)
    empty = np.ones((rows,), np.bool_)
    empty[row_of[(row_of >= 0) & (row_of < rows)]] = False
    missing = np.flatnonzero(empty)
    filler = np.zeros((len(missing), indices.shape[1] if indices.ndim == 2 else len(shape)), np.int64)
    filler[:, 0] = missing
    all_idx = np.concatenate([indices.reshape(-1, filler.shape[1]).astype(np.int64), filler])
    all_val = np.concatenate([values.reshape(-1), np.repeat(default.reshape(1), len(missing)).astype(values.dtype)])
    order = np.argsort(all_idx[:, 0], kind="stable")
    reverse = np.argsort(order, kind="stable")[: len(indices)].astype(np.int64)
    return all_idx[order], all_val[order], empty, reverse


def sparse_fill_empty_rows(sp_input: Any, default_value: Any, name: str | None = None) -> tuple[SparseTensor, Any]:
    """Adds ``default_value`` at ``[row, 0, ...]`` for each row of ``sp_input`` that has
    no value, as ``tf.sparse.fill_empty_rows`` / ``tf.compat.v1.sparse_fill_empty_rows``.

    Runs on the host (the number of values depends on the data).

    Args:
      sp_input: a ``SparseTensor`` ``[N, rank]`` in row-major order.
      default_value: a scalar of ``sp_input``'s dtype.

    Returns:
      ``(sp_output, empty_row_indicator)``: a ``SparseTensor`` with
      ``sp_input``'s dense shape, and bool ``[dense_shape[0]]`` (``True`` for
      the rows that were empty).

    Raises:
      TypeError: ``sp_input`` is not sparse.
    """
    check_not_eager("sparse_fill_empty_rows")
    sp = as_sparse(sp_input, "sparse_fill_empty_rows")
    with op_scope(name, "SparseFillEmptyRows", [sp.indices, sp.values]):
        default = convert_to_tensor(default_value, dtype=sp.values.dtype, name="default_value")
        idx, vals, empty, _ = apply_op("SparseFillEmptyRows", (sp.indices, sp.values, sp.dense_shape, default), {})
    return _with_dense_shape_of(sp, idx, vals), empty


# -- split --------------------------------------------------------------------------------------------


def _split_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    k = attrs["num_split"]
    rank = _rank(specs[2][0])
    spec = sparse_outputs(rank, specs[1][1])
    return [spec[0]] * k + [spec[1]] * k + [spec[2]] * k + [spec[3]] * k


def _split_to_tf(attrs: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[Any]]:
    return {"num_split": attrs["num_split"]}, [np.asarray(attrs["axis"], np.int64)]


register_op("SparseSplit", num_outputs=lambda a: 4 * a["num_split"], infer=_split_infer, lowering=device_lowering,
            default_name="SparseSplit", tf=TFOp(types={"T": 2}, to_tf=_split_to_tf, n_const=1, const_pos=0))(
    _host_device)


@register_host("SparseSplit", always=True, infer=_split_infer)
def _host_sparse_split(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    indices, values, shape = (np.asarray(x) for x in inputs)
    k, axis = op.attrs["num_split"], op.attrs["axis"]
    rank = len(shape)
    if not -rank <= axis < rank:
        raise errors.InvalidArgumentError(
            op.name, op, f"Input split_dim should be between {-rank} and {rank}, got {axis}")
    axis %= rank
    size = int(shape[axis])
    if k > size:
        raise errors.InvalidArgumentError(
            op.name, op, f"Input num_split should be between 1 and {size} but got: {k}")
    base, extra = divmod(size, k)
    starts = [i * base + min(i, extra) for i in range(k + 1)]
    outs: list[list[Any]] = [[], [], [], []]
    idx = indices.reshape(-1, rank).astype(np.int64)
    for i in range(k):
        keep = (idx[:, axis] >= starts[i]) & (idx[:, axis] < starts[i + 1])
        piece = idx[keep].copy()
        piece[:, axis] -= starts[i]
        dense = [int(d) for d in shape]
        dense[axis] = starts[i + 1] - starts[i]
        part = pack_sparse(piece, values.reshape(-1)[keep], dense, None)
        for j in range(4):
            outs[j].append(part[j])
    return tuple(x for group in outs for x in group)


def sparse_split(keyword_required: Any = None, sp_input: Any = None, num_split: int | None = None,
                 axis: int | None = None, name: str | None = None, split_dim: int | None = None) -> list[SparseTensor]:
    """Splits ``sp_input`` into ``num_split`` pieces along ``axis``, as
    ``tf.compat.v1.sparse.split`` / ``sparse_split`` (keyword arguments only, as TF).

    The first ``size % num_split`` pieces are one longer. Runs on the host;
    each piece's dense shape reaches the plan as a shape.

    Args:
      sp_input: a ``SparseTensor``.
      num_split: the number of pieces (a Python int).
      axis: the dimension to split (``split_dim``, its older name, is accepted and
        ignored, as TF 2.21 does: ``axis`` is required).

    Returns:
      A list of ``num_split`` ``SparseTensor``s.

    Raises:
      ValueError: positional arguments, or no ``num_split``/``axis``.
      InvalidArgumentError (at run time): ``axis`` out of range, or
        ``num_split`` larger than that dimension.
    """
    check_not_eager("sparse_split")
    if keyword_required is not None:
        raise ValueError("Keyword arguments are required for this function.")
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    if axis is None:  # TF 2.21 ignores the deprecated ``split_dim`` too
        raise ValueError("axis is required")
    sp = as_sparse(sp_input, "sparse_split")
    k = int(num_split)
    with op_scope(name, "SparseSplit", [sp.indices, sp.values]):
        outs = apply_op("SparseSplit", (sp.indices, sp.values, sp.dense_shape), {"num_split": k, "axis": int(axis)})
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    return [sparse_result(outs[i], outs[k + i], outs[3 * k + i]) for i in range(k)]


# -- maximum / minimum ------------------------------------------------------------------------------


def _minmax_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([None, None]), _dtypes.int64), (TensorShape([None]), specs[1][1])]  # as TF's


def _host_minmax(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    ai, av, ashape, bi, bv, bshape = (np.asarray(x) for x in inputs)
    if not np.array_equal(ashape, bshape):
        raise errors.InvalidArgumentError(
            op.name, op, f"Operands do not have the same ranks or shapes: {ashape.tolist()} vs {bshape.tolist()}")
    rank = len(ashape)
    ai, bi = ai.reshape(-1, rank).astype(np.int64), bi.reshape(-1, rank).astype(np.int64)
    keys = sorted({tuple(r) for r in ai.tolist()} | {tuple(r) for r in bi.tolist()})
    zero = np.zeros((), av.dtype)
    a_at = {tuple(r): v for r, v in zip(ai.tolist(), av.reshape(-1))}
    b_at = {tuple(r): v for r, v in zip(bi.tolist(), bv.reshape(-1))}
    f = np.maximum if op.type == "SparseSparseMaximum" else np.minimum
    vals = np.asarray([f(a_at.get(k, zero), b_at.get(k, zero)) for k in keys], av.dtype).reshape(-1)
    return np.asarray(keys, np.int64).reshape(-1, rank), vals


for _type in ("SparseSparseMaximum", "SparseSparseMinimum"):
    register_op(_type, num_outputs=2, infer=_minmax_infer, lowering=device_lowering, default_name=_type,
                tf=TFOp(types={"T": 1}))(_host_device)
    register_host(_type, always=True, infer=_minmax_infer)(_host_minmax)


def _minmax(op_type: str, fn: str, sp_a: Any, sp_b: Any, name: str | None) -> SparseTensor:
    check_not_eager(fn)
    a, b = as_sparse(sp_a, fn), as_sparse(sp_b, fn)
    if a.values.dtype != b.values.dtype:
        raise TypeError(f"{fn}: the operands' dtypes differ: {a.values.dtype.name} vs {b.values.dtype.name}.")
    if a.values.dtype in (_dtypes.string, _dtypes.bool):
        raise TypeError(f"{fn}: values must be real numbers, got {a.values.dtype.name}.")
    with op_scope(name, op_type, [a.indices, a.values, b.indices, b.values]):
        idx, vals = apply_op(op_type, (a.indices, a.values, a.dense_shape, b.indices, b.values, b.dense_shape), {})
    return _with_dense_shape_of(a, idx, vals)


def sparse_maximum(sp_a: Any, sp_b: Any, name: str | None = None) -> SparseTensor:
    """The element-wise maximum of two ``SparseTensor``s of one dense shape (absent
    entries count as zero), as ``tf.sparse.maximum``.

    Returns:
      A ``SparseTensor`` on the union of the indices, with ``sp_a``'s dense shape.

    Raises:
      TypeError: different or non-numeric dtypes.
      InvalidArgumentError (at run time): the dense shapes differ.
    """
    return _minmax("SparseSparseMaximum", "sparse_maximum", sp_a, sp_b, name)


def sparse_minimum(sp_a: Any, sp_b: Any, name: str | None = None) -> SparseTensor:
    """The element-wise minimum, as ``tf.sparse.minimum`` (see :func:`sparse_maximum`)."""
    return _minmax("SparseSparseMinimum", "sparse_minimum", sp_a, sp_b, name)


# -- edit_distance ------------------------------------------------------------------------------------


def _edit_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    shape = attrs.get("static_shape")
    return [(TensorShape(None if shape is None else list(shape)), _dtypes.float32)]


def _edit_to_tf(attrs: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[Any]]:
    return {"normalize": attrs["normalize"]}, []


register_op("EditDistance", infer=_edit_infer, lowering=device_lowering, default_name="edit_distance",
            tf=TFOp(types={"T": 1}, to_tf=_edit_to_tf))(_host_device)


def _levenshtein(a: list[Any], b: list[Any]) -> int:
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return prev[-1]


def _sequences(indices: np.ndarray, values: np.ndarray, group: tuple[int, ...]) -> dict[tuple[int, ...], list[Any]]:
    out: dict[tuple[int, ...], list[Any]] = {}
    for idx, v in zip(indices.tolist(), values.reshape(-1).tolist()):
        out.setdefault(tuple(idx[:-1]), []).append(v)
    return out


@register_host("EditDistance", always=True, infer=_edit_infer)
def _host_edit_distance(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    hi, hv, hs, ti, tv, ts = inputs
    hs, ts = np.asarray(hs, np.int64), np.asarray(ts, np.int64)
    if len(hs) != len(ts):
        raise errors.InvalidArgumentError(
            op.name, op, f"hypothesis and truth must have the same rank: {len(hs)} vs {len(ts)}")
    group = tuple(int(d) for d in np.maximum(hs[:-1], ts[:-1]))
    hyp = _sequences(np.asarray(hi).reshape(-1, len(hs)), np.asarray(hv), group)
    truth = _sequences(np.asarray(ti).reshape(-1, len(ts)), np.asarray(tv), group)
    out = np.zeros(group, np.float32)
    for pos in np.ndindex(*group):
        h, t = hyp.get(pos, []), truth.get(pos, [])
        d = float(_levenshtein(h, t))
        if op.attrs["normalize"]:
            d = d / len(t) if t else (np.inf if h else 0.0)
        out[pos] = d
    return (out,)


def edit_distance(hypothesis: Any, truth: Any, normalize: bool = True, name: str = "edit_distance") -> Any:
    """Levenshtein distances between the sequences (last dimension) of two
    ``SparseTensor``s, as ``tf.edit_distance``.

    Runs on the host.

    Args:
      hypothesis, truth: ``SparseTensor``s of one dtype and rank ``R``.
      normalize: divide by the truth's length (an empty truth gives ``inf``,
        or 0 when the hypothesis is empty too).

    Returns:
      float32 of shape ``max(hypothesis.dense_shape, truth.dense_shape)[:-1]``
      (known statically when both dense shapes are constants, as TF's).

    Raises:
      TypeError: not ``SparseTensor``s, or different dtypes.
      InvalidArgumentError (at run time): different ranks.
    """
    check_not_eager("edit_distance")
    if not isinstance(hypothesis, (SparseTensor, SparseTensorValue)):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, (SparseTensor, SparseTensorValue)):
        raise TypeError("Truth must be a SparseTensor.")
    h, t = as_sparse(hypothesis, "edit_distance"), as_sparse(truth, "edit_distance")
    if h.values.dtype != t.values.dtype:
        raise TypeError(f"edit_distance: hypothesis and truth dtypes differ: {h.values.dtype.name} vs "
                        f"{t.values.dtype.name}.")
    hs, ts = constant_value(h.dense_shape), constant_value(t.dense_shape)
    static = None
    if hs is not None and ts is not None and len(hs) == len(ts):
        static = tuple(int(d) for d in np.maximum(hs[:-1], ts[:-1]))
    return apply_op("EditDistance", (h.indices, h.values, h.dense_shape, t.indices, t.values, t.dense_shape),
                    {"normalize": bool(normalize), "static_shape": static}, name=name)
