"""More candidate samplers of ``tf.nn`` / ``tf.random``: ``fixed_unigram_candidate_sampler``
(word2vec tutorials' unigram^0.75 negatives) and ``all_candidate_sampler``.

As for the log-uniform sampler (:mod:`jaxsess.ops.sampled_losses`), draws
are JAX's, so the candidates differ from TF's for the same seed; the
distribution, the expected counts (``-expm1(tries * log1p(-p))`` for unique
draws, as TF) and the shapes/dtypes are TF's. ``vocab_file`` and sharding
are not supported (pass ``unigrams``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess import dtypes as _dtypes
from jaxsess.graph._registry import register_op
from jaxsess.ops import array_ops
from jaxsess.ops._args import op_scope
from jaxsess.ops._core import apply_op, convert_to_tensor
from jaxsess.ops.random_ops import seed_attrs
from jaxsess.ops.sampled_losses import _expected

__all__ = ["fixed_unigram_candidate_sampler", "all_candidate_sampler"]


class FixedUnigramCandidateSampler(NamedTuple):
    """What :func:`fixed_unigram_candidate_sampler` returns (TF's namedtuple name)."""

    sampled_candidates: Any
    true_expected_count: Any
    sampled_expected_count: Any


class AllCandidateSampler(NamedTuple):
    """What :func:`all_candidate_sampler` returns (TF's namedtuple name)."""

    sampled_candidates: Any
    true_expected_count: Any
    sampled_expected_count: Any


@register_op("FixedUnigramCandidateSampler", num_outputs=3, stateful=True, random=True,
             default_name="FixedUnigramCandidateSampler")
def _fixed_unigram(ctx: Any, true_classes: Any, *, probs: tuple[float, ...], num_sampled: int, unique: bool,
                   seed: int, seed2: int, seeded: bool) -> Any:
    key = ctx.rng_key(seed, seed2)
    p = jnp.asarray(probs, jnp.float32)
    logits = jnp.log(p)
    if not unique:
        samples = jax.random.categorical(key, logits, shape=(num_sampled,)).astype(jnp.int32)
        tries: Any = num_sampled
    else:
        def cond(st: Any) -> Any:
            return st[1] < num_sampled

        def body(st: Any) -> Any:
            samples, count, tries = st
            v = jax.random.categorical(jax.random.fold_in(key, tries), logits).astype(jnp.int32)
            seen = jnp.any((samples == v) & (jnp.arange(num_sampled) < count))
            samples = jnp.where(seen, samples, samples.at[count].set(v))
            return samples, count + jnp.where(seen, 0, 1), tries + 1

        init = (jnp.zeros((num_sampled,), jnp.int32), jnp.int32(0), jnp.int32(0))
        samples, _, tries = jax.lax.while_loop(cond, body, init)
    true_exp = _expected(p[true_classes.astype(jnp.int32)], num_sampled, tries, unique)
    sampled_exp = _expected(p[samples], num_sampled, tries, unique)
    return samples.astype(jnp.int64), true_exp, sampled_exp


def fixed_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                                    range_max: int, vocab_file: str = "", distortion: float = 1.0,
                                    num_reserved_ids: int = 0, num_shards: int = 1, shard: int = 0,
                                    unigrams: Sequence[float] = (), seed: int | None = None,
                                    name: str | None = None) -> FixedUnigramCandidateSampler:
    """Samples ``num_sampled`` classes with ``P(k)`` proportional to ``unigrams[k] ** distortion``
    (the first ``num_reserved_ids`` ids never drawn), as ``tf.random.fixed_unigram_candidate_sampler``.

    Returns:
      ``(sampled_candidates int64 [num_sampled], true_expected_count float32 [batch, num_true],
      sampled_expected_count float32 [num_sampled])``.

    Raises:
      ValueError: ``vocab_file`` or sharding, ``unigrams`` whose length is not
        ``range_max - num_reserved_ids``, or ``unique`` with ``num_sampled`` above the number of ids.
    """
    if vocab_file or num_shards != 1:
        raise ValueError("fixed_unigram_candidate_sampler: jaxsess supports `unigrams` only (no vocab_file, "
                         "no sharding).")
    counts = np.asarray(list(unigrams), np.float64)
    if counts.size != range_max - num_reserved_ids:
        raise ValueError(f"fixed_unigram_candidate_sampler: len(unigrams) is {counts.size}, expected "
                         f"range_max - num_reserved_ids = {range_max - num_reserved_ids}.")
    if unique and num_sampled > np.count_nonzero(counts):
        raise ValueError(f"fixed_unigram_candidate_sampler: num_sampled ({num_sampled}) exceeds the number of "
                         f"ids that can be drawn ({np.count_nonzero(counts)}) with unique=True.")
    weights = np.concatenate([np.zeros(num_reserved_ids), counts ** distortion])
    probs = tuple(float(v) for v in (weights / weights.sum()).astype(np.float32))
    tc = convert_to_tensor(true_classes, dtype=_dtypes.int64)
    attrs = {"probs": probs, "num_sampled": int(num_sampled), "unique": bool(unique), **seed_attrs(seed)}
    s, t, e = apply_op("FixedUnigramCandidateSampler", (tc,), attrs, name=name)
    return FixedUnigramCandidateSampler(s, t, e)


def all_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                          seed: int | None = None, name: str | None = None) -> AllCandidateSampler:
    """All classes ``0 .. num_sampled - 1`` with expected counts 1, as ``tf.random.all_candidate_sampler``."""
    with op_scope(name, "AllCandidateSampler", [true_classes]):
        tc = convert_to_tensor(true_classes, dtype=_dtypes.int64)
        sampled = array_ops.range(num_sampled, dtype=_dtypes.int64)
        true_exp = array_ops.ones_like(tc, dtype=_dtypes.float32)
        return AllCandidateSampler(sampled, true_exp, array_ops.ones([num_sampled], dtype=_dtypes.float32))
