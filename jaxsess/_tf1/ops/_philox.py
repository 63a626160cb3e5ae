"""TensorFlow's CPU random streams (Philox4x32-10), as JAX functions.

TF's stateful random ops (``RandomUniform``, ``RandomStandardNormal``,
``TruncatedNormal``, ``RandomUniformInt``) draw from a Philox4x32-10
generator keyed by the op's ``seed`` and started at a counter holding
``seed2`` (``GuardedPhiloxRandom::Init``). Each run of the op reserves
``256 * n`` 128-bit samples for its ``n`` outputs (``ReserveRandomOutputs``),
so a run starts ``256`` samples per value drawn before into the stream, and output group
``g`` (four values) uses sample ``start + g`` (``FillPhiloxRandomTask``).
Uniform floats take 23 random mantissa bits (``Uint32ToFloat``); normals are
Box-Muller pairs (``BoxMullerFloat``); a truncated normal's group ``g``
starts ``256 * g`` samples further and keeps, in order, the first four of
its Box-Muller values within ``(-2, 2)``. These functions compute the same
bits in ``uint32`` arithmetic (no 64-bit integers needed), so a seeded TF1
program draws TF's numbers: uniform and integer draws bit for bit, normal
ones up to the last-place differences of XLA's ``log``/``sin``/``cos``
against the C library's.

Semantics source: TensorFlow's ``philox_random.h``,
``random_distributions.h``, ``random_op.cc`` and
``guarded_philox_random.h``.

Every function takes ``drawn``: the number of values the op drew in its
earlier runs (a ``uint32`` scalar, the op's counter), which puts this run
``256 * drawn`` samples into the stream.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

__all__ = ["philox_bits", "uniform", "normal", "truncated_normal", "uniform_int", "RESERVED_PER_OUTPUT",
           "counter_bits", "key_counter_of_seed", "stateless_uniform", "stateless_normal",
           "stateless_truncated_normal", "stateless_uniform_int", "stateless_full_int", "multinomial_of",
           "seed_key_counter64", "key_counter_bits"]

RESERVED_PER_OUTPUT = 256  # 128-bit samples reserved per output value and run (TF's multiplier)

_M0, _M1 = 0xD2511F53, 0xCD9E8D57
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_U32 = jnp.uint32
_MASK16 = 0xFFFF


def _mulhilo(a: int, b: Any) -> tuple[Any, Any]:
    """The high and low 32 bits of the 64-bit product of the constant ``a``
    and the ``uint32`` array ``b``."""
    a_lo, a_hi = _U32(a & _MASK16), _U32(a >> 16)
    b_lo, b_hi = b & _U32(_MASK16), b >> _U32(16)
    lo_lo, hi_lo, lo_hi, hi_hi = a_lo * b_lo, a_hi * b_lo, a_lo * b_hi, a_hi * b_hi
    cross = (lo_lo >> _U32(16)) + (hi_lo & _U32(_MASK16)) + (lo_hi & _U32(_MASK16))
    hi = hi_hi + (hi_lo >> _U32(16)) + (lo_hi >> _U32(16)) + (cross >> _U32(16))
    return hi, _U32(a) * b


def _philox(c0: Any, c1: Any, c2: Any, c3: Any, k0: Any, k1: Any) -> tuple[Any, Any, Any, Any]:
    """Philox4x32-10 of the counters ``(c0, c1, c2, c3)`` (``uint32`` arrays
    that broadcast) under the key ``(k0, k1)`` (ints or ``uint32`` scalars).

    The ten rounds are a ``fori_loop``, not unrolled: XLA:CPU compiles the
    rolled loop in about half the time (an unrolled ``RandomStandardNormal``
    was ~1,500 lines of optimised HLO and 0.3-0.5 s to compile, per op) and
    runs it faster; the values are the same integers.
    """
    k0, k1 = jnp.asarray(k0 & 0xFFFFFFFF if isinstance(k0, int) else k0, jnp.uint32), jnp.asarray(
        k1 & 0xFFFFFFFF if isinstance(k1, int) else k1, jnp.uint32)

    def round_(r: Any, c: tuple[Any, Any, Any, Any]) -> tuple[Any, Any, Any, Any]:
        c0, c1, c2, c3 = c
        r = r.astype(jnp.uint32)
        key0, key1 = k0 + r * _U32(_W0), k1 + r * _U32(_W1)  # the round's key, mod 2**32
        hi0, lo0 = _mulhilo(_M0, c0)
        hi1, lo1 = _mulhilo(_M1, c2)
        return hi1 ^ c1 ^ key0, lo1, hi0 ^ c3 ^ key1, lo0

    counters = tuple(x.astype(jnp.uint32) for x in jnp.broadcast_arrays(c0, c1, c2, c3))
    return lax.fori_loop(0, 10, round_, counters)  # type: ignore[no-any-return]


def _add64(a_lo: Any, a_hi: Any, b_lo: Any, b_hi: Any) -> tuple[Any, Any]:
    lo = a_lo + b_lo
    return lo, a_hi + b_hi + (lo < a_lo).astype(jnp.uint32)


def _run_offset(drawn: Any) -> tuple[Any, Any]:
    """``drawn * 256`` (``drawn`` a ``uint32`` scalar) as a 64-bit (low, high) ``uint32`` pair."""
    drawn = jnp.asarray(drawn, jnp.uint32)
    return drawn << _U32(8), drawn >> _U32(24)


def philox_bits(seed: int, seed2: int, drawn: Any, offsets: np.ndarray) -> tuple[Any, Any, Any, Any]:
    """The four ``uint32`` words of the 128-bit samples at ``offsets`` (static,
    non-negative) into the run that starts ``256 * drawn`` samples into the
    stream of ``PhiloxRandom(seed, seed2)``.

    Returns:
      Four ``uint32`` arrays of ``offsets``' shape.
    """
    s, s2 = seed % 2**64, seed2 % 2**64
    k0, k1 = s & 0xFFFFFFFF, s >> 32
    r_lo, r_hi = _run_offset(drawn)
    offsets = np.asarray(offsets, np.uint64)
    o_lo = jnp.asarray((offsets & np.uint64(0xFFFFFFFF)).astype(np.uint32))
    o_hi = jnp.asarray((offsets >> np.uint64(32)).astype(np.uint32))
    c0, c1 = _add64(o_lo, o_hi, r_lo, r_hi)
    c2 = jnp.full(c0.shape, s2 & 0xFFFFFFFF, jnp.uint32)
    c3 = jnp.full(c0.shape, s2 >> 32, jnp.uint32)
    return _philox(c0, c1, c2, c3, k0, k1)


def counter_bits(key: tuple[Any, Any], counter: tuple[Any, Any, Any, Any]) -> Bits:
    """The stream of ``PhiloxRandom(counter, key)`` (``uint32`` words, scalars that may be traced):
    the sample at offset ``o`` is the one at the 128-bit counter ``counter + o``
    (``PhiloxRandom::Skip``), as TF's stateless kernels draw group ``o``."""
    k0, k1 = (jnp.asarray(k, jnp.uint32) for k in key)
    c0, c1, c2, c3 = (jnp.asarray(c, jnp.uint32) for c in counter)

    def bits(offsets: np.ndarray) -> tuple[Any, Any, Any, Any]:
        offsets = np.asarray(offsets, np.uint64)
        o_lo = jnp.asarray((offsets & np.uint64(0xFFFFFFFF)).astype(np.uint32))
        o_hi = jnp.asarray((offsets >> np.uint64(32)).astype(np.uint32))
        s0 = c0 + o_lo
        t = o_hi + (s0 < o_lo).astype(jnp.uint32)
        s1 = c1 + t
        s2 = c2 + (s1 < t).astype(jnp.uint32)
        s3 = c3 + ((s1 < t) & (s2 == _U32(0))).astype(jnp.uint32)
        return _philox(s0, s1, s2, s3, k0, k1)

    return bits


_SEED_KEY = (0x3EC8F720, 0x02461E29)  # GenerateKey's fixed key (stateless_random_ops.cc)


def key_counter_of_seed(seed: Any) -> tuple[tuple[Any, Any], tuple[Any, Any, Any, Any]]:
    """TF's ``GenerateKey``: the Philox key and counter (``uint32`` words) of a stateless op's
    ``seed`` (``int32``/``int64 [2]``, sign-extended to 64 bits): one Philox sample of the
    seed words under a fixed key gives the key (words 0, 1) and the counter's high half
    (words 2, 3); its low half is zero."""
    words = []
    for k in range(2):
        v = seed[k]
        if np.dtype(v.dtype).itemsize == 8:
            words += [(v & 0xFFFFFFFF).astype(jnp.uint32), (v >> 32).astype(jnp.uint32)]
        else:
            v32 = lax.bitcast_convert_type(jnp.asarray(v, jnp.int32), jnp.uint32)
            words += [v32, jnp.where(v < 0, _U32(0xFFFFFFFF), _U32(0))]
    c0, c1, c2, c3 = words
    m = _philox(c0, c1, c2, c3, *_SEED_KEY)
    zero = jnp.zeros((), jnp.uint32)
    return (m[0], m[1]), (zero, zero, m[2], m[3])


def seed_key_counter64(seed: Any) -> tuple[Any, Any]:
    """``StatelessRandomGetKeyCounter``'s outputs for ``seed``: ``key`` (``uint64 [1]``) and
    ``counter`` (``uint64 [2]``) of :func:`key_counter_of_seed` (computed under x64)."""
    (k0, k1), (c0, c1, c2, c3) = key_counter_of_seed(seed)
    join = lambda lo, hi: lo.astype(jnp.uint64) | (hi.astype(jnp.uint64) << jnp.uint64(32))  # noqa: E731
    return join(k0, k1)[None], jnp.stack([join(c0, c1), join(c2, c3)])


def _words64(v: Any) -> tuple[Any, Any]:
    v = jnp.asarray(v, jnp.uint64)
    return (v & jnp.uint64(0xFFFFFFFF)).astype(jnp.uint32), (v >> jnp.uint64(32)).astype(jnp.uint32)


def key_counter_bits(key: Any, counter: Any) -> Bits:
    """The stream of a V2 op's ``key`` (``uint64 [1]``) and ``counter`` (``uint64 [2]``, Philox)."""
    return counter_bits(_words64(key[0]), (*_words64(counter[0]), *_words64(counter[1])))


def stateless_uniform(bits: Bits, shape: tuple[int, ...], dtype: Any) -> Any:
    """``StatelessRandomUniform[V2]``'s ``[0, 1)`` values (float16/bfloat16/float32/float64)."""
    return _uniform_of(bits, shape, dtype)


def stateless_normal(bits: Bits, shape: tuple[int, ...], dtype: Any) -> Any:
    """``StatelessRandomNormal[V2]``'s values (float16/bfloat16/float32: computed in float32)."""
    return _normal_of(bits, shape, dtype)


def stateless_truncated_normal(bits: Bits, shape: tuple[int, ...], dtype: Any) -> Any:
    """``StatelessTruncatedNormal[V2]``'s values (float16/bfloat16/float32)."""
    return _truncated_normal_of(bits, shape, dtype)


def stateless_uniform_int(bits: Bits, shape: tuple[int, ...], lo: Any, hi: Any, dtype: Any) -> Any:
    """``StatelessRandomUniformInt[V2]``'s values in ``[lo, hi)`` (int32/int64/uint32/uint64)."""
    return _uniform_int_of(bits, shape, lo, hi, dtype)


def stateless_full_int(bits: Bits, shape: tuple[int, ...], dtype: Any) -> Any:
    """``StatelessRandomUniformFullInt[V2]``'s values: every bit pattern of ``dtype``."""
    dt = np.dtype(dtype)
    return lax.bitcast_convert_type(_full_of(bits, math.prod(shape), dt.itemsize), dt).reshape(shape)


def _interleave(parts: tuple[Any, ...] | list[Any]) -> Any:
    """``[p0[i], p1[i], ..., p0[i+1], ...]``: the arrays of one shape ``S``
    interleaved along a new last axis, shape ``S + (len(parts),)``. (A
    broadcast and a select: XLA:CPU runs ``stack(..., axis=-1)`` of long
    vectors some 25x slower.)"""
    k = len(parts)
    shape = (*parts[0].shape, k)
    lane = lax.broadcasted_iota(jnp.int32, shape, len(shape) - 1)
    return lax.select_n(lane, *[jnp.broadcast_to(p[..., None], shape) for p in parts])


Bits = Callable[[np.ndarray], "tuple[Any, Any, Any, Any]"]
"""A stream: the four ``uint32`` words of the 128-bit samples at static ``offsets``."""


def _stateful(seed: int, seed2: int, drawn: Any) -> Bits:
    return lambda offsets: philox_bits(seed, seed2, drawn, offsets)


def _words_of(bits: Bits, n: int) -> Any:
    """The first ``n`` ``uint32`` values of ``bits``' stream, one 128-bit sample per four (flat)."""
    groups = -(-n // 4)
    return _interleave(bits(np.arange(groups))).reshape(-1)[:n]


def _words(seed: int, seed2: int, drawn: Any, n: int) -> Any:
    """The first ``n`` ``uint32`` values of a run of a fixed-samples-per-output op (flat)."""
    return _words_of(_stateful(seed, seed2, drawn), n)


def _unit_float(x: Any) -> Any:
    """``Uint32ToFloat``: 23 mantissa bits as a float32 in ``[0, 1)``."""
    bits = (x & _U32(0x7FFFFF)) | _U32(127 << 23)
    return lax.bitcast_convert_type(bits, jnp.float32) - jnp.float32(1.0)


def _unit(x: Any, dtype: Any) -> Any:
    """TF's uniform ``[0, 1)`` value of ``dtype`` from a ``uint32`` (float16:
    10 bits, bfloat16: 7 bits, of its low 16)."""
    dt = np.dtype(dtype)
    if dt == np.float32:
        return _unit_float(x)
    if dt == np.float16:
        bits = ((x & _U32(0x3FF)) | _U32(15 << 10)).astype(jnp.uint16)
        return lax.bitcast_convert_type(bits, jnp.float16) - jnp.float16(1.0)
    if dt == jnp.bfloat16:
        bits = ((x & _U32(0x7F)) | _U32(127 << 7)).astype(jnp.uint16)
        return lax.bitcast_convert_type(bits, jnp.bfloat16) - jnp.bfloat16(1.0)
    raise TypeError(f"no TF Philox uniform for {dt}")


SUPPORTED_FLOATS = (np.dtype(np.float32), np.dtype(np.float16), np.dtype(jnp.bfloat16))


def uniform(seed: int, seed2: int, drawn: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    """``RandomUniform``'s ``[0, 1)`` values (float32, float16, bfloat16)."""
    return _uniform_of(_stateful(seed, seed2, drawn), shape, dtype)


def _uniform_of(bits: Bits, shape: tuple[int, ...], dtype: Any) -> Any:
    n = math.prod(shape)
    if np.dtype(dtype) == np.float64:  # Uint64ToDouble: two values of the stream, 52 mantissa bits
        w = _words_of(bits, 2 * n).reshape(n, 2)
        hi = (w[:, 0] & _U32(0xFFFFF)).astype(jnp.float64) * np.float64(2.0**-20)
        return (hi + w[:, 1].astype(jnp.float64) * np.float64(2.0**-52)).reshape(shape)
    return _unit(_words_of(bits, n), dtype).reshape(shape)


def _box_muller(x0: Any, x1: Any) -> tuple[Any, Any]:
    """``BoxMullerFloat``: two standard normals (float32) from two ``uint32``."""
    u1 = jnp.maximum(_unit_float(x0), jnp.float32(1.0e-7))
    # 2.0f * M_PI is a double: the angle is computed in double, then rounded.
    v1 = (_unit_float(x1) * jnp.float32(2.0 * math.pi)).astype(jnp.float32)
    u2 = jnp.sqrt(jnp.float32(-2.0) * jnp.log(u1))
    return jnp.sin(v1) * u2, jnp.cos(v1) * u2


def normal(seed: int, seed2: int, drawn: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    """``RandomStandardNormal``'s values (computed in float32)."""
    return _normal_of(_stateful(seed, seed2, drawn), shape, dtype)


def _unit_double(x0: Any, x1: Any) -> Any:
    """``Uint64ToDouble``: 52 mantissa bits (20 of ``x0``, 32 of ``x1``) as a float64 in ``[0, 1)``."""
    hi = (x0 & _U32(0xFFFFF)).astype(jnp.float64) * np.float64(2.0**-20)
    return hi + x1.astype(jnp.float64) * np.float64(2.0**-52)


def _box_muller_double(w: tuple[Any, Any, Any, Any]) -> tuple[Any, Any]:
    """``BoxMullerDouble``: two float64 standard normals from one 128-bit sample."""
    u1 = jnp.maximum(_unit_double(w[0], w[1]), np.float64(1.0e-7))
    v1 = np.float64(2.0 * math.pi) * _unit_double(w[2], w[3])
    u2 = jnp.sqrt(np.float64(-2.0) * jnp.log(u1))
    return jnp.sin(v1) * u2, jnp.cos(v1) * u2


def _normal_double_of(bits: Bits, n: int) -> Any:
    """``n`` float64 normals: sample ``g`` gives values ``2g`` and ``2g + 1``."""
    d0, d1 = _box_muller_double(bits(np.arange(-(-n // 2))))
    return _interleave([d0, d1]).reshape(-1)[:n]


def _truncated_double_of(bits: Bits, n: int) -> Any:
    """``n`` float64 normals within ``(-2, 2)``: group ``g`` (two values) starts ``128 g``
    samples in and keeps the first two in-range values of its Box-Muller pairs."""
    groups = -(-n // 2)
    per_group = 2 * RESERVED_PER_OUTPUT // 4
    offsets = np.arange(groups)[:, None] * per_group + np.arange(2 * _TRUNC_SAMPLES)[None, :]
    d0, d1 = _box_muller_double(bits(offsets))
    cands = [c[:, sample] for sample in range(2 * _TRUNC_SAMPLES) for c in (d0, d1)]
    kept = jnp.zeros((groups,), jnp.int32)
    vals = [jnp.zeros((groups,), jnp.float64) for _ in range(2)]
    for c in cands:
        ok = jnp.abs(c) < np.float64(2.0)
        vals = [jnp.where(ok & (kept == j), c, v) for j, v in enumerate(vals)]
        kept = kept + ok.astype(jnp.int32)
    return _interleave(vals).reshape(-1)[:n]


def _normal_of(bits: Bits, shape: tuple[int, ...], dtype: Any) -> Any:
    n = math.prod(shape)
    if np.dtype(dtype) == np.float64:
        return _normal_double_of(bits, n).reshape(shape)
    groups = -(-n // 4)
    w = bits(np.arange(groups))
    a0, b0 = _box_muller(w[0], w[1])
    a1, b1 = _box_muller(w[2], w[3])
    flat = _interleave([a0, b0, a1, b1]).reshape(-1)[:n]
    return flat.reshape(shape).astype(dtype)


# Samples drawn per truncated-normal group: 4 give 16 candidates for its 4
# values, each kept with probability 0.954 (fewer than 4 kept: about 2e-15 per
# group; such a group would get zeros for its missing values).
_TRUNC_SAMPLES = 4


def truncated_normal(seed: int, seed2: int, drawn: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    """``TruncatedNormal``'s values: standard normals within ``(-2, 2)``."""
    return _truncated_normal_of(_stateful(seed, seed2, drawn), shape, dtype)


def _truncated_normal_of(bits: Bits, shape: tuple[int, ...], dtype: Any) -> Any:
    n = math.prod(shape)
    if np.dtype(dtype) == np.float64:
        return _truncated_double_of(bits, n).reshape(shape)
    groups = -(-n // 4)
    per_group = 4 * RESERVED_PER_OUTPUT // 4  # kGeneratorSkipPerOutputGroup
    offsets = np.arange(groups)[:, None] * per_group + np.arange(_TRUNC_SAMPLES)[None, :]
    w = bits(offsets)  # 4 x [groups, samples]
    a0, b0 = _box_muller(w[0], w[1])
    a1, b1 = _box_muller(w[2], w[3])
    # each group's candidates in the order drawn: sample by sample, pair by pair, f0 before f1
    cands = [c[:, sample] for sample in range(_TRUNC_SAMPLES) for c in (a0, b0, a1, b1)]
    # the first four candidates within (-2, 2), in order (column by column:
    # XLA:CPU runs this some 15x faster than a cumsum or a sort over a matrix)
    kept = jnp.zeros((groups,), jnp.int32)
    vals = [jnp.zeros((groups,), jnp.float32) for _ in range(4)]
    for c in cands:
        ok = jnp.abs(c) < jnp.float32(2.0)
        vals = [jnp.where(ok & (kept == j), c, v) for j, v in enumerate(vals)]
        kept = kept + ok.astype(jnp.int32)
    return _interleave(vals).reshape(-1)[:n].reshape(shape).astype(dtype)


def uniform_int(seed: int, seed2: int, drawn: Any, shape: tuple[int, ...], lo: Any, hi: Any) -> Any:
    """``RandomUniformInt``'s int32 values in ``[lo, hi)``:
    ``lo + bits % (hi - lo)`` with the range taken unsigned, as TF's."""
    return _uniform_int_of(_stateful(seed, seed2, drawn), shape, lo, hi, np.int32)


def _uniform_int_of(bits: Bits, shape: tuple[int, ...], lo: Any, hi: Any, dtype: Any) -> Any:
    """Integers of ``dtype`` in ``[lo, hi)``; 64-bit ones take two values of the stream
    (``x0 | x1 << 32``), as TF's ``UniformDistribution`` (64-bit types: under x64)."""
    n = math.prod(shape)
    dt = np.dtype(dtype)
    unsigned = jnp.uint64 if dt.itemsize == 8 else jnp.uint32
    lo_u = lax.bitcast_convert_type(jnp.asarray(lo, dt), unsigned)
    hi_u = lax.bitcast_convert_type(jnp.asarray(hi, dt), unsigned)
    vals = lo_u + _full_of(bits, n, dt.itemsize) % (hi_u - lo_u)
    return lax.bitcast_convert_type(vals, dt).reshape(shape)


def _full_of(bits: Bits, n: int, itemsize: int) -> Any:
    """``n`` unsigned values of ``itemsize`` bytes (4 or 8) from the stream."""
    if itemsize == 8:
        w = _words_of(bits, 2 * n).reshape(n, 2).astype(jnp.uint64)
        return w[:, 0] | (w[:, 1] << jnp.uint64(32))
    return _words_of(bits, n)


def multinomial(seed: int, seed2: int, drawn: Any, logits: Any, num_samples: int) -> Any:
    """``Multinomial``'s class ids ``int32[batch, num_samples]`` for ``logits``
    ``[batch, classes]`` as TF's CPU kernel draws them when it runs as one shard
    (``multinomial_op.cc``): rows one after another from the run's start, each
    sample a double ``RandDouble()`` (two values of the stream, 52 mantissa
    bits) times the row's total of ``exp(logit - max)`` over finite logits,
    located in the running sums (``upper_bound``). Computed in ``float32``
    (TF: ``double``), so a draw within a float32 rounding of a class boundary
    may fall on the other side."""
    return multinomial_of(_stateful(seed, seed2, drawn), logits, num_samples)


def multinomial_of(bits: Bits, logits: Any, num_samples: int) -> Any:
    """:func:`multinomial` from the stream ``bits`` (``StatelessMultinomial``: the stream of
    its seed's key and counter, as TF's kernel runs the same functor on it)."""
    b, c = logits.shape
    words = _words_of(bits, 2 * b * num_samples).reshape(b, num_samples, 2)
    hi = (words[..., 0] & _U32(0xFFFFF)).astype(jnp.float32) * np.float32(2.0**-20)
    u = hi + words[..., 1].astype(jnp.float32) * np.float32(2.0**-52)
    lg = logits.astype(jnp.float32)
    finite = jnp.isfinite(lg)
    top = jnp.max(jnp.where(finite, lg, -jnp.inf), axis=-1, keepdims=True)
    cdf = jnp.cumsum(jnp.where(finite, jnp.exp(lg - top), 0.0), axis=-1)
    to_find = u * cdf[:, -1:]
    return jnp.sum(cdf[:, None, :] <= to_find[..., None], axis=-1).astype(jnp.int32)


def multinomial_one_shard(batch: int, classes: int, num_samples: int) -> bool:
    """Whether TF's CPU kernel runs ``Multinomial`` as one shard on any machine
    (Eigen's cost model: under about 1e5 cycles in all; ``cost`` as TF's)."""
    cost = 50 * (num_samples * math.log(classes) / math.log(2) + classes)
    return batch * cost < 100_000


def shuffle_permutation(seed: int, seed2: int, drawn: Any, n: int) -> Any:
    """``RandomShuffle``'s permutation of ``n`` rows (int32): TF's forward
    Fisher-Yates (``RandomShuffle`` in ``random_shuffle_op.cc``), swapping row
    ``i`` with row ``i + u_i % (n - i)`` for ``i < n - 1``, where ``u_i`` are
    the stream's 32-bit values in order. Unlike the ops above this one
    reserves only what it uses: ``drawn`` counts 128-bit samples here, and a
    run advances it by ``ceil((n - 1) / 4)`` (``ReserveSamples32``).
    """
    if n < 2:
        return jnp.arange(n, dtype=jnp.int32)
    groups = -(-(n - 1) // 4)
    s, s2 = seed % 2**64, seed2 % 2**64
    drawn = jnp.asarray(drawn, jnp.uint32)
    o_lo = jnp.asarray(np.arange(groups, dtype=np.uint32))
    c0 = o_lo + drawn
    c1 = (c0 < o_lo).astype(jnp.uint32)
    c2 = jnp.full(c0.shape, s2 & 0xFFFFFFFF, jnp.uint32)
    c3 = jnp.full(c0.shape, s2 >> 32, jnp.uint32)
    u = _interleave(_philox(c0, c1, c2, c3, s & 0xFFFFFFFF, s >> 32)).reshape(-1)[: n - 1]
    span = jnp.arange(n, 1, -1, dtype=jnp.uint32)  # n - i
    j = (jnp.arange(n - 1, dtype=jnp.uint32) + u % span).astype(jnp.int32)

    def swap(i: Any, perm: Any) -> Any:
        a, b = perm[i], perm[j[i]]
        return perm.at[i].set(b).at[j[i]].set(a)

    return lax.fori_loop(0, n - 1, swap, jnp.arange(n, dtype=jnp.int32))


def shuffle_samples(n: int) -> int:
    """The 128-bit samples one run of ``RandomShuffle`` over ``n`` rows reserves."""
    return -(-(n - 1) // 4) if n > 1 else 0


# -- on the host ----------------------------------------------------------------------------------


_philox_jit = jax.jit(_philox)


def _host_words(lo: Any, hi: Any, c2: Any, c3: Any, k0: Any, k1: Any) -> np.ndarray:
    """The ``uint32`` values of the 128-bit samples at counters ``(lo, hi, c2, c3)``, in stream order.
    (Interleaved by NumPy: XLA:CPU takes some 20 s to compile the interleave of 256 samples.)"""
    return np.stack([np.asarray(w) for w in _philox_jit(lo, hi, c2, c3, k0, k1)], axis=-1).reshape(-1)


class HostPhilox:
    """TF's ``SingleSampleAdapter<PhiloxRandom>(PhiloxRandom(seed, seed2))`` on
    the host: ``next()`` gives the stream's ``uint32`` values one at a time, as
    ``tf.data``'s shuffle and its seed generator draw them (semantics source:
    ``philox_random.h``, ``shuffle_dataset_op.cc``). Samples are computed in
    chunks by the same Philox function as the device ops, compiled once."""

    _CHUNK = 256  # 128-bit samples per NumPy call

    def __init__(self, seed: int, seed2: int) -> None:
        s, s2 = int(seed) % 2**64, int(seed2) % 2**64
        self._key = (s & 0xFFFFFFFF, s >> 32)
        self._c23 = (s2 & 0xFFFFFFFF, s2 >> 32)
        self._block = 0  # the next 128-bit sample to compute
        self._words = np.empty(0, np.uint32)
        self._pos = 0

    def next(self) -> int:
        """The next ``uint32`` value of the stream."""
        if self._pos == len(self._words):
            blocks = np.arange(self._block, self._block + self._CHUNK, dtype=np.uint64)
            lo = (blocks & np.uint64(0xFFFFFFFF)).astype(np.uint32)
            hi = (blocks >> np.uint64(32)).astype(np.uint32)
            self._words = _host_words(lo, hi, *(np.uint32(v) for v in (*self._c23, *self._key)))
            self._block += self._CHUNK
            self._pos = 0
        value = int(self._words[self._pos])
        self._pos += 1
        return value

    def align(self) -> None:
        """Skips the unused values of the current 128-bit sample, as a run of an op
        that reserved whole samples (``ReserveSamples32``) leaves them."""
        self._pos += -self._pos % 4

    def permutation(self, n: int) -> np.ndarray:
        """``RandomShuffle``'s permutation of ``n`` rows (see
        :func:`shuffle_permutation`), drawn from this stream, which then stands at
        the next run's first sample."""
        perm = np.arange(n)
        for i in range(n - 1):
            j = i + self.next() % (n - i)
            perm[i], perm[j] = perm[j], perm[i]
        self.align()
        return perm
