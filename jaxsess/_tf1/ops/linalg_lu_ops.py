"""LU factorisation and tridiagonal systems of ``tf.linalg``: ``lu``, ``lu_solve``,
``lu_reconstruct``, ``lu_matrix_inverse``, ``tridiagonal_solve``,
``tridiagonal_matmul``, and ``normalize``.

``lu`` is TF's ``Lu`` op (XLA's partial-pivoting LU): ``lower_upper`` holds
``L`` (unit diagonal, below) and ``U``; ``perm`` is the row permutation with
``P @ A = L @ U``, ``P[i, perm[i]] = 1``. Tridiagonal solves use XLA's Thomas
algorithm (no pivoting, where TF pivots by default): the same results for the
diagonally dominant systems tutorials solve; a zero pivot gives inf/NaN
rather than TF's ``InvalidArgumentError``.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._registry import register_op
from jaxsess._tf1.ops import array_ops as array_ops, linalg_ops as linalg_ops, math_ops as math_ops
from jaxsess._tf1.ops._args import label, op_scope, tensor_dtype
from jaxsess._tf1.ops.linalg_ops import _dims, _square_float

__all__ = ["lu", "lu_solve", "lu_reconstruct", "lu_matrix_inverse", "tridiagonal_solve", "tridiagonal_matmul",
           "normalize"]


@register_op("Lu", num_outputs=2, default_name="Lu")
def _lu(a: Any, *, output_idx_type: _dtypes.DType) -> Any:
    lu_, _, perm = jax.lax.linalg.lu(a)
    return lu_, perm.astype(output_idx_type.np_dtype)


def lu(input: Any, output_idx_type: Any = _dtypes.int32, name: str | None = None) -> tuple[Any, Any]:  # noqa: A002
    """The LU factorisation of square matrices ``[..., M, M]``, as ``tf.linalg.lu``.

    Returns:
      ``(lu, p)``: ``lu`` of ``input``'s shape and dtype (``L`` below the
      diagonal, unit diagonal implied, ``U`` on and above), ``p`` ``[..., M]``
      of ``output_idx_type`` (int32/int64).

    Raises:
      TypeError: not float/complex; ValueError: not square.
    """
    x = _square_float(input, "lu")
    out = apply_op("Lu", (x,), {"output_idx_type": _dtypes.as_dtype(output_idx_type)}, name=name)
    return out[0], out[1]


def _unpack(lu_: Any) -> tuple[Any, Any]:
    n = lu_.shape[-1]
    lower = jnp.tril(lu_, -1) + jnp.eye(n, dtype=lu_.dtype)
    return lower, jnp.triu(lu_)


@register_op("LuSolve", default_name="LuSolve")
def _lu_solve(lu_: Any, perm: Any, rhs: Any) -> Any:
    lower, upper = _unpack(lu_)
    pb = jnp.take_along_axis(rhs, jnp.broadcast_to(perm[..., None], perm.shape + rhs.shape[-1:]).astype(jnp.int32),
                             axis=-2)
    y = jax.lax.linalg.triangular_solve(lower, pb, left_side=True, lower=True, unit_diagonal=True)
    return jax.lax.linalg.triangular_solve(upper, y, left_side=True, lower=False)


@register_op("LuReconstruct", default_name="LuReconstruct")
def _lu_reconstruct(lu_: Any, perm: Any) -> Any:
    lower, upper = _unpack(lu_)
    pa = lower @ upper
    inv = jnp.argsort(perm, axis=-1)
    return jnp.take_along_axis(pa, jnp.broadcast_to(inv[..., None], pa.shape).astype(jnp.int32), axis=-2)


def _lu_args(lower_upper: Any, perm: Any, fn: str) -> tuple[Any, Any]:
    lu_ = _square_float(lower_upper, fn)
    p = convert_to_tensor(perm)
    if not tensor_dtype(p).is_integer:
        raise TypeError(f"{fn}: perm must be int32 or int64, got {tensor_dtype(p).name} ({label(p)}).")
    return lu_, p


def lu_solve(lower_upper: Any, perm: Any, rhs: Any, validate_args: bool = False, name: str | None = None) -> Any:
    """The solution ``X`` of ``A @ X = rhs`` from :func:`lu`'s factors, as ``tf.linalg.lu_solve``.

    Args:
      rhs: ``[..., M, K]`` of ``lower_upper``'s dtype.

    Raises:
      ValueError: ``rhs``' rows differ from the matrix size.
    """
    with op_scope(name, "lu_solve", [lower_upper, perm, rhs]) as scope:
        lu_, p = _lu_args(lower_upper, perm, "lu_solve")
        b = convert_to_tensor(rhs, dtype=tensor_dtype(lu_), name="rhs")
        dims, bd = _dims(lu_), _dims(b)
        if len(bd) < 2 or (bd[-2] is not None and dims[-1] is not None and bd[-2] != dims[-1]):
            raise ValueError(f"lu_solve: rhs {label(b)} of shape {bd} must be [..., {dims[-1]}, K].")
        return apply_op("LuSolve", (lu_, p, b), name=scope)


def lu_reconstruct(lower_upper: Any, perm: Any, validate_args: bool = False, name: str | None = None) -> Any:
    """The matrix ``A`` whose :func:`lu` factors are given, as ``tf.linalg.lu_reconstruct``."""
    with op_scope(name, "lu_reconstruct", [lower_upper, perm]) as scope:
        lu_, p = _lu_args(lower_upper, perm, "lu_reconstruct")
        return apply_op("LuReconstruct", (lu_, p), name=scope)


def lu_matrix_inverse(lower_upper: Any, perm: Any, validate_args: bool = False, name: str | None = None) -> Any:
    """The inverse of the matrix whose :func:`lu` factors are given, as ``tf.linalg.lu_matrix_inverse``."""
    with op_scope(name, "lu_matrix_inverse", [lower_upper, perm]):
        lu_, p = _lu_args(lower_upper, perm, "lu_matrix_inverse")
        eye = array_ops.broadcast_to(linalg_ops.eye(_dims(lu_)[-1], dtype=tensor_dtype(lu_)), array_ops.shape(lu_))
        return lu_solve(lu_, p, eye)


def _compact(diagonals: Any, fmt: str, fn: str) -> tuple[Any, Any, Any]:
    """``(super, main, sub)`` diagonals ``[..., M]`` of a tridiagonal system given in ``fmt``."""
    if fmt == "sequence":
        sup, main, sub = (convert_to_tensor(d) for d in diagonals)
        return sup, main, sub
    d = convert_to_tensor(diagonals)
    if fmt == "compact":
        return d[..., 0, :], d[..., 1, :], d[..., 2, :]
    if fmt == "matrix":
        m = _dims(d)[-1]
        if m is None:
            raise ValueError(f"{fn}: the matrix size of {label(d)} must be known when the graph is built.")
        zero = array_ops.zeros_like(d[..., :1, 0])
        sup = array_ops.concat([linalg_ops.matrix_diag_part(d[..., :-1, 1:]), zero], axis=-1)
        sub = array_ops.concat([zero, linalg_ops.matrix_diag_part(d[..., 1:, :-1])], axis=-1)
        return sup, linalg_ops.matrix_diag_part(d), sub
    raise ValueError(f"{fn}: unrecognized diagonals_format {fmt!r} (expected 'compact', 'sequence' or 'matrix').")


@register_op("TridiagonalSolve", default_name="TridiagonalSolve")
def _tridiagonal_solve(sup: Any, main: Any, sub: Any, rhs: Any) -> Any:
    dl = sub.at[..., 0].set(0)
    du = sup.at[..., -1].set(0)
    return jax.lax.linalg.tridiagonal_solve(dl, main, du, rhs)


@register_op("TridiagonalMatMul", default_name="TridiagonalMatMul")
def _tridiagonal_matmul(sup: Any, main: Any, sub: Any, rhs: Any) -> Any:
    pad = jnp.zeros_like(rhs[..., :1, :])
    above = jnp.concatenate([rhs[..., 1:, :], pad], axis=-2)
    below = jnp.concatenate([pad, rhs[..., :-1, :]], axis=-2)
    return main[..., :, None] * rhs + sup[..., :, None] * above + sub[..., :, None] * below


def tridiagonal_solve(diagonals: Any, rhs: Any, diagonals_format: str = "compact", transpose_rhs: bool = False,
                      conjugate_rhs: bool = False, name: str | None = None, partial_pivoting: bool = True,
                      perturb_singular: bool = False) -> Any:
    """The solution ``X`` of ``A @ X = rhs`` for tridiagonal ``A``, as ``tf.linalg.tridiagonal_solve``.

    Args:
      diagonals: ``'compact'``: ``[..., 3, M]`` (superdiagonal, diagonal,
        subdiagonal; the superdiagonal's last and the subdiagonal's first
        entries are ignored); ``'sequence'``: those three ``[..., M]``;
        ``'matrix'``: ``[..., M, M]``.
      rhs: ``[..., M, K]`` (or ``[..., M]``, or ``[..., K, M]`` with ``transpose_rhs``).
      partial_pivoting, perturb_singular: accepted (see the module docstring).

    Raises:
      ValueError: an unknown ``diagonals_format``.
    """
    with op_scope(name, "tridiagonal_solve", [diagonals, rhs]) as scope:
        sup, main, sub = _compact(diagonals, diagonals_format, "tridiagonal_solve")
        b = convert_to_tensor(rhs, dtype=tensor_dtype(main), name="rhs")
        vector = len(_dims(b)) == len(_dims(main))
        if vector:
            b = array_ops.expand_dims(b, -1)
        elif transpose_rhs:
            b = linalg_ops.matrix_transpose(b)
        if conjugate_rhs:
            b = linalg_ops.conj(b)
        x = apply_op("TridiagonalSolve", (sup, main, sub, b), name=None if vector else scope)
        return array_ops.squeeze(x, [-1], name=scope) if vector else x


def tridiagonal_matmul(diagonals: Any, rhs: Any, diagonals_format: str = "compact", name: str | None = None) -> Any:
    """``A @ rhs`` for tridiagonal ``A`` given as in :func:`tridiagonal_solve`, as
    ``tf.linalg.tridiagonal_matmul`` (``rhs`` ``[..., M, N]``)."""
    with op_scope(name, "tridiagonal_matmul", [diagonals, rhs]) as scope:
        sup, main, sub = _compact(diagonals, diagonals_format, "tridiagonal_matmul")
        b = convert_to_tensor(rhs, dtype=tensor_dtype(main), name="rhs")
        return apply_op("TridiagonalMatMul", (sup, main, sub, b), name=scope)


def normalize(tensor: Any, ord: Any = "euclidean", axis: Any = None, name: str | None = None) -> tuple[Any, Any]:  # noqa: A002
    """``(tensor / norm, norm)`` with ``norm`` as :func:`~jaxsess.norm` keeping dimensions, as
    ``tf.linalg.normalize``."""
    with op_scope(name, "normalize", [tensor]):
        t = convert_to_tensor(tensor)
        n = linalg_ops.norm(t, ord, axis, keepdims=True)
        n = math_ops.cast(n, tensor_dtype(t))
        return math_ops.truediv(t, n), n
