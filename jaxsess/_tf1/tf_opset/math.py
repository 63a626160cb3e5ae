"""TF's reductions, scans, matrix products and sorting, as TF's ``OpDef``\\ s
list them: ``Sum(input, axis)`` with ``keep_dims``, ``Cumsum(x, axis)`` with
``exclusive``/``reverse``, ``BatchMatMulV2(x, y)`` with ``adj_x``/``adj_y``,
``Einsum(inputs..., equation)``, ``TopKV2(input, k)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._tf1.tf_opset._common import axes, host_int, impl, lowering, node_error, np_dtype

__all__: list[str] = []

for _t in ("Sum", "Mean", "Max", "Min", "Prod", "All", "Any", "EuclideanNorm"):
    def _reduce(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        x = inputs[0]
        a = axes(ctx, inputs[1], np.ndim(x))
        if not a:  # TF: reducing over no axis is the identity
            return x
        return impl(_t)(x, axis=a, keepdims=attrs["keep_dims"])
    lowering(_t, static_inputs=(1,))(_reduce)


for _t in ("ArgMax", "ArgMin"):
    def _arg(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        x = inputs[0]
        return impl(_t)(x, axis=axes(ctx, inputs[1], np.ndim(x), "dimension")[0], output_type=attrs["output_type"])
    lowering(_t, static_inputs=(1,))(_arg)


for _t in ("Cumsum", "Cumprod"):
    def _scan(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        x = inputs[0]
        return impl(_t)(x, axis=axes(ctx, inputs[1], np.ndim(x))[0], exclusive=attrs["exclusive"],
                        reverse=attrs["reverse"])
    lowering(_t, static_inputs=(1,))(_scan)


@lowering("CumulativeLogsumexp", static_inputs=(1,))
def _cumlogsumexp(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x = inputs[0]
    return impl("CumulativeLogsumexp")(x, axis=axes(ctx, inputs[1], np.ndim(x))[0], exclusive=attrs["exclusive"],
                                       reverse=attrs["reverse"])


def _matmul_spec(shapes: Sequence[Any], attrs: Mapping[str, Any], statics: Mapping[int, Any]) -> Any:
    """``TFLowering.spec`` of ``MatMul``: ``(m, n)`` of matrices whose inner sizes are known and equal."""
    a, b = shapes
    if a is None or b is None or len(a) != 2 or len(b) != 2:
        return None
    (m, k), (k2, n) = a[::-1] if attrs["transpose_a"] else a, b[::-1] if attrs["transpose_b"] else b
    return [(m, n)] if k is not None and k == k2 else None


@lowering("MatMul", spec=_matmul_spec)
def _matmul(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    a, b = inputs
    if np.ndim(a) != 2 or np.ndim(b) != 2:
        raise node_error(ctx, f"MatMul takes matrices, got shapes {list(np.shape(a))} and {list(np.shape(b))}")
    return impl("MatMul")(a, b, transpose_a=attrs["transpose_a"], transpose_b=attrs["transpose_b"])


def _adjoint(x: Any) -> Any:
    x = jnp.swapaxes(x, -1, -2)
    return jnp.conj(x) if jnp.iscomplexobj(x) else x


@lowering("BatchMatMul", "BatchMatMulV2", "BatchMatMulV3")
def _batch_matmul(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """``adj_x``/``adj_y`` take the adjoint (conjugate transpose) of the last two dimensions;
    ``BatchMatMulV2``/``V3`` broadcast the batch dimensions; ``V3`` casts to ``Tout``."""
    x, y = inputs
    if attrs["adj_x"]:
        x = _adjoint(x)
    if attrs["adj_y"]:
        y = _adjoint(y)
    if np.shape(x)[-1] != np.shape(y)[-2]:
        raise node_error(ctx, f"inner dimensions do not match: shapes {list(np.shape(x))} and {list(np.shape(y))} "
                              f"(after adj_x={attrs['adj_x']}, adj_y={attrs['adj_y']})")
    if "Tout" in attrs:
        out = np_dtype(attrs["Tout"])
        return jnp.matmul(x, y, preferred_element_type=out).astype(out)
    return jnp.matmul(x, y)


@lowering("Einsum")
def _einsum(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("Einsum")(*inputs, equation=attrs["equation"])


@lowering("TopKV2", static_inputs=(1,), multi=True)
def _top_k(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """Values and indices of the ``k`` largest along the last axis (ties: the lower index first, as TF)."""
    x = inputs[0]
    k = host_int(ctx, inputs[1], "k")
    if not 0 <= k <= np.shape(x)[-1]:
        raise node_error(ctx, f"k {k} must be in [0, {np.shape(x)[-1]}]")
    values, indices = jax.lax.top_k(x, k)
    return values, indices.astype(np_dtype(attrs.get("index_type", np.int32)))


@lowering("TopK", multi=True)
def _top_k_v1(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    values, indices = jax.lax.top_k(inputs[0], attrs["k"])
    return values, indices.astype(np.int32)
