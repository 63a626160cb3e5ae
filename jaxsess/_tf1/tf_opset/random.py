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

TF's stateless ops draw TF's Philox numbers too, bit for bit for uniform and
integer values: ``StatelessRandomGetKeyCounter[Alg]`` derives the key and
counter of a ``seed`` as TF's ``GenerateKey`` does, and
``StatelessRandom{Uniform,Normal,UniformInt,UniformFullInt}V2`` /
``StatelessTruncatedNormalV2`` draw group ``g`` of their output from the
sample at ``counter + g`` (truncated normals: ``counter + 256 g``), as TF's
CPU kernels; the V1 ops (``seed`` input) likewise. ``alg`` must be Philox or
auto-select (which is Philox on TF's CPU); ThreeFry is refused, as TF's CPU
kernels refuse it. jaxsess's own ``tf.random.stateless_*`` build these same
ops (``jaxsess._tf1.ops.stateless_random_ops``), on the same ``_philox`` code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jax.numpy as jnp
import numpy as np

from jaxsess._tf1.ops import _philox
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


# -- stateless ops: TF's Philox streams from a seed, or from a key and a counter ---------------

_PHILOX, _THREEFRY, _AUTO_SELECT = 1, 2, 3  # TF's RNG_ALG_* ids
_FLOATS = (np.dtype(np.float16), np.dtype(jnp.bfloat16), np.dtype(np.float32))
_INTS = (np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.uint32), np.dtype(np.uint64))


def _philox_alg(ctx: Any, value: Any) -> None:
    """Checks an ``alg`` input: Philox, or auto-select (Philox on TF's CPU and GPU kernels)."""
    alg = host_int(ctx, value, "alg")
    if alg not in (_PHILOX, _AUTO_SELECT):
        raise node_error(ctx, f"Unsupported algorithm id: {alg} (TF's CPU kernels, whose numbers jaxsess "
                         f"computes, run Philox ({_PHILOX}) and auto-select ({_AUTO_SELECT}) only)")


def _key_counter_bits(ctx: Any, key: Any, counter: Any) -> Any:
    """The stream of a V2 op's ``key`` (``uint64 [1]``) and ``counter`` (``uint64 [2]``)."""
    if np.shape(key) != (1,) or np.ndim(counter) != 1 or np.shape(counter)[0] < 2:
        raise node_error(ctx, f"key must have shape [1] and counter at least [2] (Philox), got "
                         f"{list(np.shape(key))} and {list(np.shape(counter))}")
    return _philox.key_counter_bits(jnp.asarray(key), jnp.asarray(counter))


def _seed_bits(ctx: Any, seed: Any) -> Any:
    """The stream of a V1 op's ``seed`` (``int32``/``int64 [2]``), keyed by TF's ``GenerateKey``."""
    if np.shape(seed) != (2,):
        raise node_error(ctx, f"seed must have shape [2], not {list(np.shape(seed))}")
    return _philox.counter_bits(*_philox.key_counter_of_seed(jnp.asarray(seed)))


def _float_dtype(ctx: Any, attrs: Mapping[str, Any], allowed: tuple[np.dtype[Any], ...]) -> np.dtype[Any]:
    dt = np.dtype(dtype_of(attrs["dtype"]).np_dtype)
    if dt not in allowed:
        raise node_error(ctx, f"jaxsess does not compute TF's {ctx.op_type} values of dtype {dt} (it does "
                         f"{', '.join(str(d) for d in allowed)})", NotImplementedError)
    return dt


def _int_dtype(ctx: Any, attrs: Mapping[str, Any]) -> np.dtype[Any]:
    dt = np.dtype(dtype_of(attrs["dtype"]).np_dtype)
    if dt not in _INTS:
        raise node_error(ctx, f"dtype {dt} is not one of TF's {', '.join(str(d) for d in _INTS)}")
    return dt


def _int_range(ctx: Any, lo: Any, hi: Any) -> None:
    if isinstance(lo, np.ndarray) and isinstance(hi, np.ndarray) and not lo < hi:
        raise node_error(ctx, f"Need minval < maxval: {lo} >= {hi}")


@lowering("StatelessRandomGetKeyCounter", multi=True)
def _get_key_counter(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """``key uint64 [1]``, ``counter uint64 [2]`` of ``seed`` (TF's ``GenerateKey``)."""
    seed = inputs[0]
    if np.shape(seed) != (2,):
        raise node_error(ctx, f"seed must have shape [2], not {list(np.shape(seed))}")
    return list(_philox.seed_key_counter64(jnp.asarray(seed)))


@lowering("StatelessRandomGetKeyCounterAlg", multi=True)
def _get_key_counter_alg(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """As ``StatelessRandomGetKeyCounter``, with the algorithm TF's CPU picks (Philox)."""
    return [*_get_key_counter(ctx, inputs, attrs), np.int32(_PHILOX)]


@lowering("StatelessRandomGetAlg")
def _get_alg(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    return np.int32(_PHILOX)


def _v1_or_v2(ctx: Any, inputs: Sequence[Any], v2: bool) -> tuple[Any, list[Any]]:
    """The stream and the inputs after it: V2 ``(shape, key, counter, alg, ...)``, V1 ``(shape, seed, ...)``."""
    if v2:
        _philox_alg(ctx, inputs[3])
        return _key_counter_bits(ctx, inputs[1], inputs[2]), list(inputs[4:])
    return _seed_bits(ctx, inputs[1]), list(inputs[2:])


def _stateless_floats(sample: Any) -> Any:
    """The lowering of a stateless float op (V1 or V2): ``sample(bits, shape, dtype)`` of
    float16/bfloat16/float32/float64 from TF's Philox stream."""

    def lower(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
        dt = _float_dtype(ctx, attrs, (*_FLOATS, np.dtype(np.float64)))
        bits, _ = _v1_or_v2(ctx, inputs, ctx.op_type.endswith("V2"))
        return sample(bits, _shape(ctx, inputs[0]), dt)

    return lower


# TF's Philox numbers in [0, 1); standard normals (Box-Muller); standard normals within (-2, 2)
_stateless_uniform_v2 = _stateless_floats(_philox.stateless_uniform)
_stateless_normal_v2 = _stateless_floats(_philox.stateless_normal)
_stateless_truncated_v2 = _stateless_floats(_philox.stateless_truncated_normal)
lowering("StatelessRandomUniformV2", static_inputs=(0, 3))(_stateless_uniform_v2)
lowering("StatelessRandomNormalV2", static_inputs=(0, 3))(_stateless_normal_v2)
lowering("StatelessTruncatedNormalV2", static_inputs=(0, 3))(_stateless_truncated_v2)


@lowering("StatelessRandomUniformIntV2", static_inputs=(0, 3))
def _stateless_uniform_int_v2(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """TF's Philox integers in ``[minval, maxval)`` (int32/int64/uint32/uint64)."""
    bits, (lo, hi) = _v1_or_v2(ctx, inputs, ctx.op_type.endswith("V2"))
    _int_range(ctx, lo, hi)
    return _philox.stateless_uniform_int(bits, _shape(ctx, inputs[0]), lo, hi, _int_dtype(ctx, attrs))


@lowering("StatelessRandomUniformFullIntV2", static_inputs=(0, 3))
def _stateless_full_int_v2(ctx: Any, inputs: Sequence[Any], attrs: Mapping[str, Any]) -> Any:
    """TF's Philox integers over every bit pattern of ``dtype`` (int32/int64/uint32/uint64)."""
    bits, _ = _v1_or_v2(ctx, inputs, ctx.op_type.endswith("V2"))
    return _philox.stateless_full_int(bits, _shape(ctx, inputs[0]), _int_dtype(ctx, attrs))


lowering("StatelessRandomUniform", static_inputs=(0,))(_stateless_uniform_v2)
lowering("StatelessRandomNormal", static_inputs=(0,))(_stateless_normal_v2)
lowering("StatelessTruncatedNormal", static_inputs=(0,))(_stateless_truncated_v2)
lowering("StatelessRandomUniformInt", static_inputs=(0,))(_stateless_uniform_int_v2)
lowering("StatelessRandomUniformFullInt", static_inputs=(0,))(_stateless_full_int_v2)
