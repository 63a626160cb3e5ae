"""``jaxsess.linalg``: linear algebra with TF1's names, as ``tf.compat.v1.linalg``.

Only re-exports; the ops live in :mod:`jaxsess._tf1.ops.linalg_ops` (and
``matmul``/``einsum``/``l2_normalize`` where they were already).
"""

from jaxsess._tf1.ops.clip_ops import global_norm as global_norm
from jaxsess._tf1.ops.functional_ops import einsum as einsum
from jaxsess._tf1.ops.linalg_ops import (
    cholesky as cholesky,
    cross as cross,
    expm as expm,
    eye as eye,
    matrix_band_part,
    matrix_determinant,
    matrix_diag,
    matrix_diag_part,
    matrix_inverse,
    matrix_rank as matrix_rank,
    matrix_set_diag,
    matrix_transpose as matrix_transpose,
    norm as norm,
    pinv as pinv,
    qr as qr,
    tensordot as tensordot,
    trace as trace,
)
from jaxsess._tf1.ops.linalg_solvers import (
    adjoint as adjoint,
    cholesky_solve as cholesky_solve,
    logdet as logdet,
    matrix_solve,
    matrix_solve_ls,
    matrix_triangular_solve,
    matvec as matvec,
    self_adjoint_eig,
    self_adjoint_eigvals,
    slogdet as slogdet,
    svd as svd,
)
from jaxsess._tf1.ops.math_ops import matmul as matmul
from jaxsess._tf1.ops.nn_ops import l2_normalize as l2_normalize

band_part = matrix_band_part
det = matrix_determinant
diag = matrix_diag
diag_part = matrix_diag_part
inv = matrix_inverse
transpose = matrix_transpose
eigh = self_adjoint_eig
eigvalsh = self_adjoint_eigvals
lstsq = matrix_solve_ls
solve = matrix_solve
triangular_solve = matrix_triangular_solve
set_diag = matrix_set_diag
from jaxsess._tf1.ops.linalg_lu_ops import (  # noqa: E402
    lu as lu,
    lu_matrix_inverse as lu_matrix_inverse,
    lu_reconstruct as lu_reconstruct,
    lu_solve as lu_solve,
    normalize as normalize,
    tridiagonal_matmul as tridiagonal_matmul,
    tridiagonal_solve as tridiagonal_solve,
)
from jaxsess._tf1.ops.linalg_ops import diag as _diag, diag_part as _diag_part  # noqa: E402

tensor_diag = _diag  # tf.linalg.tensor_diag is tf.diag
tensor_diag_part = _diag_part
