"""Linear solves and spectral decompositions, as ``tf.compat.v1`` / ``tf.linalg``.

``matrix_solve``, ``matrix_triangular_solve``, ``cholesky_solve``,
``matrix_solve_ls`` (``lstsq``), ``svd`` (TF's ``(s, u, v)`` order),
``self_adjoint_eig``/``self_adjoint_eigvals`` (``eigh``/``eigvalsh``),
``logdet``, ``slogdet``, ``adjoint`` and ``matvec``, each with TF1's op type,
dtypes and static shapes. Singular or non-positive-definite inputs give
non-finite values (XLA has no error path) where TF raises
``InvalidArgumentError``. Signs of singular and eigen vectors may differ from
TF's (both are valid decompositions). Gradients are JAX's.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._registry import register_op
from jaxsess._tf1.ops import array_ops as array_ops, math_ops as math_ops
from jaxsess._tf1.ops._args import label, op_scope, tensor_dtype
from jaxsess._tf1.ops.linalg_ops import (
    _at_least,
    _dims,
    _square_float,
    cholesky,
    matrix_diag_part,
    matrix_transpose,
)

__all__ = [
    "matrix_solve", "matrix_triangular_solve", "cholesky_solve", "matrix_solve_ls", "svd",
    "self_adjoint_eig", "self_adjoint_eigvals", "logdet", "slogdet", "adjoint", "matvec",
]


def _adj(x: Any) -> Any:
    return jnp.conj(jnp.swapaxes(x, -1, -2))


@register_op("MatrixSolve", default_name="MatrixSolve")
def _matrix_solve(a: Any, b: Any, *, adjoint: bool = False) -> Any:
    return jnp.linalg.solve(_adj(a) if adjoint else a, b)


@register_op("MatrixTriangularSolve", default_name="MatrixTriangularSolve")
def _triangular_solve(a: Any, b: Any, *, lower: bool = True, adjoint: bool = False) -> Any:
    batch = jnp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a, b = jnp.broadcast_to(a, (*batch, *a.shape[-2:])), jnp.broadcast_to(b, (*batch, *b.shape[-2:]))
    return jax.scipy.linalg.solve_triangular(a, b, lower=lower, trans="C" if adjoint else 0)


@register_op("MatrixSolveLs", default_name="MatrixSolveLs")
def _matrix_solve_ls(a: Any, b: Any, l2: Any, *, fast: bool = True) -> Any:
    m, n = a.shape[-2], a.shape[-1]
    ah = _adj(a)
    if not fast:
        return jnp.linalg.pinv(a) @ b
    if m >= n:
        gram = ah @ a + l2 * jnp.eye(n, dtype=a.dtype)
        return jnp.linalg.solve(gram, ah @ b)
    gram = a @ ah + l2 * jnp.eye(m, dtype=a.dtype)
    return ah @ jnp.linalg.solve(gram, b)


@register_op("Svd", num_outputs=3, default_name="Svd")
def _svd(x: Any, *, full_matrices: bool = False, compute_uv: bool = True) -> Any:
    if not compute_uv:
        s = jnp.linalg.svd(x, compute_uv=False)
        return s, jnp.zeros((0,), x.dtype), jnp.zeros((0,), x.dtype)
    u, s, vh = jnp.linalg.svd(x, full_matrices=full_matrices)
    return s, u, _adj(vh)


@register_op("SelfAdjointEigV2", num_outputs=2, default_name="SelfAdjointEigV2")
def _self_adjoint_eig(x: Any, *, compute_v: bool = True) -> Any:
    # TF reads the lower triangle only (recorded: tests/tf1_corpus/programs/v33_self_adjoint_eig.py);
    # JAX's eigh symmetrises its input by default, which also reads the upper one
    e, v = jnp.linalg.eigh(x, UPLO="L", symmetrize_input=False)
    if not compute_v:
        return e, jnp.zeros((0,), x.dtype)
    return e, v


@register_op("LogMatrixDeterminant", num_outputs=2, default_name="LogMatrixDeterminant")
def _slogdet(x: Any) -> Any:
    sign, logabs = jnp.linalg.slogdet(x)
    return sign.astype(x.dtype), logabs.astype(jnp.real(x).dtype)


def _float_matrix(x: Any, op: str) -> Any:
    """``x`` as a tensor of rank >= 2 and a float or complex dtype (names ``op``)."""
    x = convert_to_tensor(x)
    _at_least(x, 2, op)
    d = tensor_dtype(x)
    if not (d.is_floating or d.is_complex):
        raise TypeError(f"{op}: expected a float or complex tensor, got {d.name} ({label(x)}).")
    return x


def _check_rhs(fn: str, a: Any, b: Any) -> None:
    da, db = _dims(a), _dims(b)
    if len(db) < 2:
        raise ValueError(f"{fn}: rhs must have rank >= 2, got shape {db} ({getattr(b, 'name', '')}).")
    if da[-2] is not None and db[-2] is not None and da[-2] != db[-2]:
        raise ValueError(f"{fn}: matrix of shape {da} and rhs of shape {db} must have the same number of rows "
                         f"({da[-2]} != {db[-2]}).")
    if tensor_dtype(a) != tensor_dtype(b):
        raise TypeError(f"{fn}: matrix has dtype {tensor_dtype(a).name} but rhs has dtype {tensor_dtype(b).name}.")


def matrix_solve(matrix: Any, rhs: Any, adjoint: bool = False, name: str | None = None) -> Any:
    """Solves ``matrix @ x = rhs`` (``adjoint``: ``matrix^H @ x = rhs``), as ``tf.linalg.solve``.

    Args:
      matrix: ``[..., M, M]`` float16/32/64 or complex64/128.
      rhs: ``[..., M, K]`` of the same dtype.

    Returns:
      ``x``, ``[..., M, K]``.

    Raises:
      TypeError: an integer dtype, or dtypes differ.
      ValueError: not square, or the row counts differ.
    """
    a = _square_float(matrix, "MatrixSolve")
    b = convert_to_tensor(rhs, dtype=tensor_dtype(a))
    _check_rhs("MatrixSolve", a, b)
    return apply_op("MatrixSolve", (a, b), {"adjoint": bool(adjoint)}, name=name)


def matrix_triangular_solve(matrix: Any, rhs: Any, lower: bool = True, adjoint: bool = False,
                            name: str | None = None) -> Any:
    """Solves ``matrix @ x = rhs`` for a triangular ``matrix`` ``[..., M, M]`` (only its
    ``lower`` or upper triangle is read), as ``tf.linalg.triangular_solve``.

    Returns ``x``, ``[..., M, K]``; errors as :func:`matrix_solve`.
    """
    with op_scope(name, "triangular_solve", [matrix, rhs]):
        a = _square_float(matrix, "MatrixTriangularSolve")
        b = convert_to_tensor(rhs, dtype=tensor_dtype(a))
        _check_rhs("MatrixTriangularSolve", a, b)
        return apply_op("MatrixTriangularSolve", (a, b), {"lower": bool(lower), "adjoint": bool(adjoint)})


def cholesky_solve(chol: Any, rhs: Any, name: str | None = None) -> Any:
    """Solves ``A @ x = rhs`` given ``chol = tf.cholesky(A)`` ``[..., M, M]``, as
    ``tf.linalg.cholesky_solve``; returns ``[..., M, K]``."""
    with op_scope(name, "cholesky_solve", [chol, rhs]):
        c = _square_float(chol, "MatrixTriangularSolve")
        b = convert_to_tensor(rhs, dtype=tensor_dtype(c))
        _check_rhs("MatrixTriangularSolve", c, b)
        y = apply_op("MatrixTriangularSolve", (c, b), {"lower": True, "adjoint": False})
        return apply_op("MatrixTriangularSolve", (c, y), {"lower": True, "adjoint": True})


def matrix_solve_ls(matrix: Any, rhs: Any, l2_regularizer: Any = 0.0, fast: bool = True,
                    name: str | None = None) -> Any:
    """The least-squares solution of ``matrix @ x = rhs``, as ``tf.linalg.lstsq``.

    Args:
      matrix: ``[..., M, N]`` float32/64 or complex.
      rhs: ``[..., M, K]``.
      l2_regularizer: scalar ``>= 0`` added to the Gram matrix's diagonal (``fast=True``).
      fast: ``True``: normal equations (``(A^H A + l2 I)^-1 A^H b`` when
        ``M >= N``, else the minimum-norm form); ``False``: pseudo-inverse
        (``l2_regularizer`` ignored, as TF ignores it off the fast path).

    Returns:
      ``x``, ``[..., N, K]``.
    """
    with op_scope(name, "matrix_solve_ls", [matrix, rhs, l2_regularizer]) as scope:
        a = _float_matrix(matrix, "MatrixSolveLs")
        b = convert_to_tensor(rhs, dtype=tensor_dtype(a))
        _check_rhs("MatrixSolveLs", a, b)
        da = tensor_dtype(a)
        l2 = convert_to_tensor(l2_regularizer, dtype=da.real_dtype if da.is_complex else da)
        return apply_op("MatrixSolveLs", (a, b, l2), {"fast": bool(fast)}, name=scope)


def svd(tensor: Any, full_matrices: bool = False, compute_uv: bool = True, name: str | None = None) -> Any:
    """The singular value decomposition ``tensor = u @ diag(s) @ adjoint(v)``, as
    ``tf.linalg.svd`` — note TF's order ``(s, u, v)`` and ``v`` (not ``v^H``).

    Args:
      tensor: ``[..., M, N]`` float or complex.

    Returns:
      ``s`` ``[..., P]`` (``P = min(M, N)``, descending); with ``compute_uv``
      also ``u`` ``[..., M, P]`` (``[..., M, M]`` when ``full_matrices``) and
      ``v`` ``[..., N, P]`` (``[..., N, N]``). Without ``compute_uv``: ``s``
      alone.

    Raises:
      ValueError: rank below 2. TypeError: an integer dtype.
    """
    x = _float_matrix(tensor, "Svd")
    out = apply_op("Svd", (x,), {"full_matrices": bool(full_matrices), "compute_uv": bool(compute_uv)}, name=name)
    if not compute_uv:
        return out[0]
    return tuple(out)


def self_adjoint_eig(tensor: Any, name: str | None = None) -> tuple[Any, Any]:
    """Eigenvalues ``e`` ``[..., N]`` (ascending) and eigenvectors ``v`` ``[..., N, N]``
    (columns) of each Hermitian matrix ``[..., N, N]``, as ``tf.linalg.eigh``
    (only the lower triangle is read, as TF)."""
    x = _square_float(tensor, "SelfAdjointEigV2")
    e, v = apply_op("SelfAdjointEigV2", (x,), {"compute_v": True}, name=name)
    return e, v


def self_adjoint_eigvals(tensor: Any, name: str | None = None) -> Any:
    """The eigenvalues ``[..., N]`` (ascending) of each Hermitian matrix, as ``tf.linalg.eigvalsh``."""
    x = _square_float(tensor, "SelfAdjointEigV2")
    return apply_op("SelfAdjointEigV2", (x,), {"compute_v": False}, name=name)[0]


def slogdet(input: Any, name: str | None = None) -> tuple[Any, Any]:
    """``(sign, log|det|)`` of each square matrix ``[..., M, M]`` -> ``[...]`` each, as
    ``tf.linalg.slogdet`` (``sign`` has the input's dtype, ``log|det|`` its real dtype)."""
    x = _square_float(input, "LogMatrixDeterminant")
    sign, logabs = apply_op("LogMatrixDeterminant", (x,), name=name)
    return sign, logabs


def logdet(matrix: Any, name: str | None = None) -> Any:
    """``log(det(matrix))`` of each Hermitian positive-definite matrix ``[..., M, M]``
    (through its Cholesky factor), as ``tf.linalg.logdet``."""
    with op_scope(name, "logdet", [matrix]) as scope:
        diag = math_ops.log(math_ops.abs(matrix_diag_part(cholesky(matrix))))
        return math_ops.multiply(math_ops.cast(2.0, tensor_dtype(diag)), math_ops.reduce_sum(diag, axis=[-1]), name=scope)


def adjoint(matrix: Any, name: str | None = None) -> Any:
    """The conjugate transpose of each matrix ``[..., M, N]`` -> ``[..., N, M]``, as ``tf.linalg.adjoint``."""
    with op_scope(name, "adjoint", [matrix]):
        return matrix_transpose(matrix, conjugate=True)


def matvec(a: Any, b: Any, transpose_a: bool = False, adjoint_a: bool = False, a_is_sparse: bool = False,
           b_is_sparse: bool = False, name: str | None = None) -> Any:
    """``a @ b`` for matrices ``a`` ``[..., M, N]`` and vectors ``b`` ``[..., N]`` -> ``[..., M]``,
    as ``tf.linalg.matvec``."""
    with op_scope(name, "MatVec", [a, b]):
        col = array_ops.expand_dims(convert_to_tensor(b), -1)
        prod = math_ops.matmul(a, col, transpose_a=transpose_a, adjoint_a=adjoint_a)
        return array_ops.squeeze(prod, axis=[-1])
