"""TF's stateful random ops with TF's signatures: ``RandomUniform(shape)``,
``RandomStandardNormal(shape)``, ``TruncatedNormal(shape)``,
``RandomUniformInt(shape, minval, maxval)``, ``Multinomial(logits,
num_samples)``, ``RandomShuffle(value)``, attributes ``seed``/``seed2``.

A seeded op (``seed`` or ``seed2`` non-zero) draws TF's own numbers from
TF's Philox stream where jaxsess's ``_philox`` computes them (float
uniform/normal/truncated normal, int32 uniform, one-shard multinomial), so
an initializer imported from a TF graph gives TF's initial values; an
unseeded op draws JAX's values from the node's key, as TF's unseeded draws
are not reproducible either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jax.numpy as jnp
import numpy as np

from jaxsess._tf1.tf_opset._common import dtype_of, host_int, host_ints, impl, lowering, node_error

__all__: list[str] = []


def _seeds(attrs: Mapping[str, Any]) -> dict[str, Any]:
    seed, seed2 = int(attrs.get("seed", 0)), int(attrs.get("seed2", 0))
    return {"seed": seed, "seed2": seed2, "seeded": bool(seed or seed2)}


def _shape(ctx: Any, value: Any) -> tuple[int, ...]:
    shape = host_ints(ctx, value, "shape")
    if any(d < 0 for d in shape):
        raise node_error(ctx, f"shape {list(shape)} has a negative dimension")
    return shape


@lowering("RandomUniform", static_inputs=(0,), stateful=True)
def _uniform(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """Uniform in ``[0, 1)``, ``dtype``; ``shape`` from the input."""
    dt = dtype_of(attrs["dtype"])
    return impl("RandomUniform")(ctx, np.zeros((), dt.np_dtype), np.ones((), dt.np_dtype),
                                 shape=_shape(ctx, inputs[0]), dtype=dt, **_seeds(attrs))


@lowering("RandomUniformInt", static_inputs=(0,), stateful=True)
def _uniform_int(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """Integers in ``[minval, maxval)``, ``Tout``."""
    shape, lo, hi = inputs
    if isinstance(lo, np.ndarray) and isinstance(hi, np.ndarray) and not lo < hi:
        raise node_error(ctx, f"minval {lo} must be less than maxval {hi}")
    return impl("RandomUniform")(ctx, lo, hi, shape=_shape(ctx, shape), dtype=dtype_of(attrs["Tout"]),
                                 **_seeds(attrs))


@lowering("RandomStandardNormal", static_inputs=(0,), stateful=True)
def _normal(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    dt = dtype_of(attrs["dtype"])
    return impl("RandomStandardNormal")(ctx, np.zeros((), dt.np_dtype), np.ones((), dt.np_dtype),
                                        shape=_shape(ctx, inputs[0]), dtype=dt, **_seeds(attrs))


@lowering("TruncatedNormal", static_inputs=(0,), stateful=True)
def _truncated(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """Standard normal, redrawn outside two standard deviations."""
    dt = dtype_of(attrs["dtype"])
    return impl("TruncatedNormal")(ctx, np.zeros((), dt.np_dtype), np.ones((), dt.np_dtype),
                                   shape=_shape(ctx, inputs[0]), dtype=dt, **_seeds(attrs))


@lowering("Multinomial", static_inputs=(1,), stateful=True)
def _multinomial(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """``[batch, num_samples]`` class indices drawn from ``logits [batch, classes]``."""
    logits = inputs[0]
    if np.ndim(logits) != 2:
        raise node_error(ctx, f"logits must be 2-D [batch, classes], got shape {list(np.shape(logits))}")
    return impl("Multinomial")(ctx, jnp.asarray(logits), num_samples=host_int(ctx, inputs[1], "num_samples"),
                               output_dtype=dtype_of(attrs["output_dtype"]), **_seeds(attrs))


@lowering("RandomShuffle", stateful=True)
def _shuffle(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return impl("RandomShuffle")(ctx, jnp.asarray(inputs[0]), **_seeds(attrs))
