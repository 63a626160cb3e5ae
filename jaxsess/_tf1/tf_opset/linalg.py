"""TF's linear-algebra and spectral ops, as TF's ``OpDef``\\ s list them:
``Cholesky``, ``MatrixInverse(adjoint)``, ``MatrixDeterminant``,
``LogMatrixDeterminant`` (sign, log|det|), ``Qr(full_matrices)``,
``Svd(compute_uv, full_matrices)`` (s, u, v), ``SelfAdjointEigV2(compute_v)``,
``MatrixSolve``, ``MatrixTriangularSolve``, ``MatrixDiag``/``Part``/``SetDiag``,
``Cross``, ``FFT``/``IFFT``/``RFFT(input, fft_length)``/``IRFFT``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jax.numpy as jnp

from jaxsess._tf1.tf_opset._common import host_int, host_ints, impl, lowering, node_error

__all__: list[str] = []

for _t in ("Cholesky", "MatrixDeterminant", "MatrixDiag", "MatrixDiagPart", "Diag", "DiagPart", "FFT", "IFFT",
           "FFT2D", "IFFT2D", "FFT3D", "IFFT3D"):
    def _plain(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        return impl(_t)(inputs[0])
    lowering(_t)(_plain)

for _t in ("MatrixSetDiag", "Cross"):
    def _two(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        return impl(_t)(jnp.asarray(inputs[0]), jnp.asarray(inputs[1]))
    lowering(_t)(_two)


@lowering("LogMatrixDeterminant", multi=True)
def _log_det(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return tuple(impl("LogMatrixDeterminant")(inputs[0]))


@lowering("MatrixInverse")
def _inverse(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("MatrixInverse")(inputs[0], adjoint=attrs["adjoint"])


@lowering("Qr", multi=True)
def _qr(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return tuple(impl("Qr")(inputs[0], full_matrices=attrs["full_matrices"]))


@lowering("Svd", multi=True)
def _svd(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return tuple(impl("Svd")(inputs[0], full_matrices=attrs["full_matrices"], compute_uv=attrs["compute_uv"]))


@lowering("SelfAdjointEigV2", multi=True)
def _eig(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return tuple(impl("SelfAdjointEigV2")(inputs[0], compute_v=attrs["compute_v"]))


@lowering("MatrixSolve")
def _solve(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("MatrixSolve")(inputs[0], inputs[1], adjoint=attrs["adjoint"])


@lowering("MatrixTriangularSolve")
def _triangular_solve(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("MatrixTriangularSolve")(inputs[0], inputs[1], lower=attrs["lower"], adjoint=attrs["adjoint"])


for _t in ("RFFT", "IRFFT"):
    def _rfft(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        return impl(_t)(inputs[0], fft_length=host_ints(ctx, inputs[1], "fft_length"))
    lowering(_t, static_inputs=(1,))(_rfft)


def _main_diagonal(ctx: Any, k: Any) -> None:
    ks = host_ints(ctx, k, "k")
    if any(v != 0 for v in ks):
        raise node_error(ctx, f"only the main diagonal (k = 0) is supported, got k = {list(ks)}")


@lowering("MatrixDiagV3", "MatrixDiagV2", static_inputs=(1, 2, 3))
def _matrix_diag_v3(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """``diagonal [..., n]`` on the main diagonal of ``[..., rows, cols]`` (``-1``: ``n``), the rest
    ``padding_value``."""
    d, k, rows, cols, pad = inputs
    _main_diagonal(ctx, k)
    d = jnp.asarray(d)
    n = d.shape[-1]
    r, c = host_int(ctx, rows, "num_rows"), host_int(ctx, cols, "num_cols")
    r, c = (n if r < 0 else r), (n if c < 0 else c)
    eye = jnp.eye(r, c, dtype=bool)
    full = jnp.zeros((*d.shape[:-1], r, c), d.dtype)
    m = min(r, c, n)
    full = full.at[..., jnp.arange(m), jnp.arange(m)].set(d[..., :m])
    return jnp.where(eye, full, jnp.asarray(pad, d.dtype))


@lowering("MatrixDiagPartV3", "MatrixDiagPartV2", static_inputs=(1,))
def _matrix_diag_part_v3(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    _main_diagonal(ctx, inputs[1])
    return jnp.diagonal(jnp.asarray(inputs[0]), axis1=-2, axis2=-1)


@lowering("MatrixSetDiagV3", "MatrixSetDiagV2", static_inputs=(2,))
def _matrix_set_diag_v3(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    _main_diagonal(ctx, inputs[2])
    return impl("MatrixSetDiag")(jnp.asarray(inputs[0]), jnp.asarray(inputs[1]))
