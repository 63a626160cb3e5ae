"""TF's elementwise ops (``Relu``, ``AddV2``, ``Less``...) and the gradient
ops TF writes for them (``ReluGrad``, ``TanhGrad``...), as TF's ``OpDef``\\ s
list them: inputs ``x``/``y`` or ``features``/``gradients``, type attrs ``T``.

Values are jaxsess's own ops' implementations (the same functions
``tf.nn.relu`` and ``tf.add`` run); the gradient ops follow TF's kernels
(``tensorflow/core/kernels/relu_op_functor.h``, ``cwise_ops.h``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core.graph._tf_opset import Dims
from jaxsess._tf1.tf_opset._common import broadcast_spec, impl, lowering, same_shape_spec

__all__: list[str] = []

# TF op type -> jaxsess op whose implementation computes it (same inputs, no attributes)
_UNARY = {
    t: t for t in (
        "Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Cos", "Cosh", "Digamma", "Erf", "Erfc",
        "Erfinv", "Exp", "Expm1", "Floor", "IsFinite", "IsInf", "IsNan", "Lgamma", "Log", "Log1p", "LogicalNot",
        "Neg", "Reciprocal", "Relu", "Relu6", "Elu", "Selu", "Softplus", "Softsign", "Rint", "Round", "Rsqrt",
        "Sigmoid", "Sign", "Sin", "Sinh", "Sqrt", "Square", "Tan", "Tanh", "Real", "Imag", "Angle", "Conj",
        "Invert", "Ndtri", "BesselI0e", "BesselI1e", "Dawsn", "Expint", "Spence", "FresnelCos", "FresnelSin",
    )
} | {"Inv": "Reciprocal"}
_BINARY = {
    t: t for t in (
        "AddV2", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "Maximum", "Minimum", "Pow",
        "SquaredDifference", "Atan2", "DivNoNan", "Xdivy", "Xlogy", "Xlog1py", "MulNoNan",
        "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd",
        "LogicalOr", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift", "NextAfter", "Igamma",
        "Igammac", "Zeta", "Polygamma", "Complex",
    )
} | {"Add": "AddV2"}
# OnesLike/ZerosLike/Complex take extra type attrs; every other is fully typed by its inputs.


def _unary(op: str) -> None:
    def lower(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
        return impl(op)(inputs[0])
    lower.__name__ = f"_lower_{op}"
    lowering(*[t for t, o in _UNARY.items() if o == op], spec=same_shape_spec)(lower)


def _binary(op: str) -> None:
    def lower(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
        return impl(op)(inputs[0], inputs[1])
    lower.__name__ = f"_lower_{op}"
    lowering(*[t for t, o in _BINARY.items() if o == op], spec=broadcast_spec)(lower)


for _op in sorted(set(_UNARY.values())):
    _unary(_op)
for _op in sorted(set(_BINARY.values()) - {"Complex"}):
    _binary(_op)


@lowering("Complex")
def _complex(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("Complex")(inputs[0], inputs[1])


@lowering("Div")
def _div(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    x, y = inputs
    if jnp.issubdtype(jnp.result_type(x), jnp.integer):  # TF's Div on integers truncates, as C
        return impl("TruncateDiv")(*jnp.broadcast_arrays(x, y))
    return impl("RealDiv")(x, y)


@lowering("Mod")
def _mod(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """TF's ``Mod``: the remainder with the sign of ``x`` (C's ``%``, ``fmod`` for floats)."""
    x, y = jnp.broadcast_arrays(inputs[0], inputs[1])
    return impl("TruncateMod")(x, y) if jnp.issubdtype(x.dtype, jnp.integer) else jnp.fmod(x, y)


@lowering("LeakyRelu")
def _leaky_relu(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("LeakyRelu")(inputs[0], alpha=attrs["alpha"])


@lowering("Identity", "Snapshot", "CheckNumerics", "EnsureShape", "DebugGradientIdentity",
          "PlaceholderWithDefault", spec=same_shape_spec)
def _identity(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return inputs[0]


@lowering("StopGradient", "PreventGradient")
def _stop_gradient(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return jax.lax.stop_gradient(inputs[0])


def _identity_n_spec(shapes: Sequence[Dims | None], attrs: Mapping[str, Any], statics: Mapping[int, Any]
                     ) -> list[Dims] | None:
    return [s for s in shapes if s is not None] if None not in shapes else None


@lowering("IdentityN", multi=True, spec=_identity_n_spec)
def _identity_n(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return tuple(inputs)


@lowering("AddN", "AccumulateNV2")
def _add_n(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("AddN")(*inputs)


@lowering("ClipByValue")
def _clip(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("ClipByValue")(*inputs)


@lowering("Select")
def _select(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """TF1's ``Select``: ``condition`` of ``x``'s shape, a scalar, or a vector picking whole rows."""
    c, x, y = (jnp.asarray(v) for v in inputs)
    if c.ndim == 1 and x.ndim > 1:
        return impl("Select")(c, x, y)
    return jnp.where(c, x, y)


@lowering("OnesLike")
def _ones_like(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return jnp.ones(jnp.shape(inputs[0]), jnp.result_type(inputs[0]))


@lowering("ZerosLike")
def _zeros_like(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return jnp.zeros(jnp.shape(inputs[0]), jnp.result_type(inputs[0]))


for _t in ("TruncateDiv", "TruncateMod"):
    def _truncate(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any], _t: str = _t) -> Any:
        return impl(_t)(*jnp.broadcast_arrays(inputs[0], inputs[1]))
    lowering(_t)(_truncate)


@lowering("SelectV2")
def _select_v2(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("SelectV2")(*inputs)


@lowering("Cast")
def _cast(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("Cast")(inputs[0], DstT=attrs["DstT"])


@lowering("Bitcast")
def _bitcast(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("Bitcast")(inputs[0], type=attrs["type"])


# -- the gradient ops TF writes for them -------------------------------------------------------


def _zero(x: Any) -> Any:
    return jnp.zeros((), jnp.result_type(x))


@lowering("ReluGrad")
def _relu_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    g, f = inputs
    return jnp.where(f > 0, g, _zero(g))


@lowering("Relu6Grad")
def _relu6_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    g, f = inputs
    return jnp.where((f > 0) & (f < 6), g, _zero(g))


@lowering("LeakyReluGrad")
def _leaky_relu_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    g, f = inputs
    return jnp.where(f > 0, g, g * np.asarray(attrs["alpha"], jnp.result_type(g)))


@lowering("EluGrad")
def _elu_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    g, y = inputs  # y: Elu's outputs
    return jnp.where(y < 0, g * (y + 1), g)


_SELU_SCALE = 1.0507009873554804934193349852946
_SELU_ALPHA = 1.6732632423543772848170429916717


@lowering("SeluGrad")
def _selu_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    g, y = inputs  # y: Selu's outputs
    dt = jnp.result_type(g)
    scale, sa = np.asarray(_SELU_SCALE, dt), np.asarray(_SELU_SCALE * _SELU_ALPHA, dt)
    return jnp.where(y < 0, g * (y + sa), g * scale)


@lowering("SoftplusGrad")
def _softplus_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    g, f = inputs
    return g * jax.nn.sigmoid(f)


@lowering("SoftsignGrad")
def _softsign_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    g, f = inputs
    d = 1 + jnp.abs(f)
    return g / (d * d)


@lowering("TanhGrad")
def _tanh_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    y, dy = inputs
    return dy * (1 - y * y)


@lowering("SigmoidGrad")
def _sigmoid_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    y, dy = inputs
    return dy * (y * (1 - y))


@lowering("RsqrtGrad")
def _rsqrt_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    y, dy = inputs
    return dy * (y * y * y) * np.asarray(-0.5, jnp.result_type(y))


@lowering("SqrtGrad")
def _sqrt_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    y, dy = inputs
    return dy * np.asarray(0.5, jnp.result_type(y)) / y


@lowering("ReciprocalGrad", "InvGrad")
def _reciprocal_grad(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    y, dy = inputs
    return -dy * (y * y)
