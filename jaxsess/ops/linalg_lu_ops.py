"""LU factorisation and tridiagonal systems of ``tf.linalg``: ``lu``, ``lu_solve``,
``lu_reconstruct``, ``lu_matrix_inverse``, ``tridiagonal_solve``,
``tridiagonal_matmul``, and ``normalize``.

Re-exports :mod:`jaxsess._tf1.ops.linalg_lu_ops`.
"""

from jaxsess._tf1.ops.linalg_lu_ops import *  # noqa: F403
