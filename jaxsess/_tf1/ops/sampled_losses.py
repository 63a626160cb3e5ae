"""Candidate sampling and sampled losses, as ``tf.compat.v1.nn``:
``log_uniform_candidate_sampler``, ``uniform_candidate_sampler``,
``compute_accidental_hits``, ``nce_loss`` and ``sampled_softmax_loss``.

The losses follow TF's ``_compute_sampled_logits``: the true and sampled
classes' rows of ``weights``/``biases`` give logits ``[batch, num_true +
num_sampled]``, minus ``log(expected_count)`` (``subtract_log_q``), with
sampled classes that equal a true class of the row pushed to ``-FLT_MAX``
(``remove_accidental_hits``). The samplers draw from jaxsess's random
streams (seeded as every random op, see :mod:`jaxsess._tf1.ops.random_ops`), not
from TF's generator: the same seed gives other candidates than TF. Pass
``sampled_values=`` to a loss to fix them.
"""

from __future__ import annotations

import collections
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, convert_to_tensor, stop_gradient
from jaxsess._core.graph._registry import register_op
from jaxsess._tf1.ops import math_ops as math_ops, nn_ops as nn_ops
from jaxsess._tf1.ops._args import op_scope
from jaxsess._tf1.ops.partitioned_variables import sharded_table
from jaxsess._tf1.ops.random_ops import seed_attrs

__all__ = [
    "CandidateSamplerOutput", "log_uniform_candidate_sampler", "uniform_candidate_sampler",
    "fixed_unigram_candidate_sampler",
    "compute_accidental_hits", "nce_loss", "sampled_softmax_loss",
]

_FLT_MIN = float(np.finfo(np.float32).min)


class CandidateSamplerOutput(NamedTuple):
    """What a candidate sampler returns (shapes ``[num_sampled]``,
    ``[batch, num_true]``, ``[num_sampled]``)."""

    sampled_candidates: Any
    true_expected_count: Any
    sampled_expected_count: Any


# TF's samplers return namedtuples named after their ops, with CandidateSamplerOutput's fields.
_NAMED = {
    kind: collections.namedtuple(f"{title}CandidateSampler", CandidateSamplerOutput._fields)  # type: ignore[misc]
    for kind, title in (("log_uniform", "LogUniform"), ("uniform", "Uniform"), ("fixed_unigram", "FixedUnigram"))
}


def _log_uniform_prob(k: Any, range_max: int) -> Any:
    k = k.astype(jnp.float32)
    return (jnp.log(k + 2.0) - jnp.log(k + 1.0)) / np.float32(np.log1p(range_max))


def _draw(kind: str, key: Any, shape: tuple[int, ...], range_max: int, probs: tuple[float, ...] = ()) -> Any:
    u = jax.random.uniform(key, shape, jnp.float32)
    if kind == "fixed_unigram":
        cdf = jnp.cumsum(jnp.asarray(probs, jnp.float32))
        return jnp.clip(jnp.searchsorted(cdf, u * cdf[-1], side="right"), 0, range_max - 1).astype(jnp.int32)
    if kind == "log_uniform":
        v = jnp.floor(jnp.exp(u * np.float32(np.log1p(range_max)))) - 1.0
    else:
        v = jnp.floor(u * range_max)
    return jnp.clip(v, 0, range_max - 1).astype(jnp.int32)


def _prob(kind: str, k: Any, range_max: int, probs: tuple[float, ...] = ()) -> Any:
    if kind == "fixed_unigram":
        return jnp.asarray(probs, jnp.float32)[k.astype(jnp.int32)]
    if kind == "log_uniform":
        return _log_uniform_prob(k, range_max)
    return jnp.full(k.shape, 1.0 / range_max, jnp.float32)


def _expected(p: Any, num_sampled: int, num_tries: Any, unique: bool) -> Any:
    if not unique:
        return p * num_sampled
    tries = jnp.asarray(num_tries, jnp.float32)
    return jnp.where(num_tries == num_sampled, p * num_sampled, -jnp.expm1(tries * jnp.log1p(-p)))


@register_op("CandidateSampler", num_outputs=3, stateful=True, random=True, default_name="candidate_sampler")
def _candidate_sampler(ctx: Any, true_classes: Any, *, kind: str, num_sampled: int, unique: bool, range_max: int,
                       out_dtype: Any, seed: int, seed2: int, seeded: bool, probs: tuple[float, ...] = ()) -> Any:
    key = ctx.rng_key(seed, seed2)
    if not unique:
        samples = _draw(kind, key, (num_sampled,), range_max, probs)
        tries: Any = num_sampled
    else:
        def cond(st: Any) -> Any:
            return st[1] < num_sampled

        def body(st: Any) -> Any:
            samples, count, tries = st
            v = _draw(kind, jax.random.fold_in(key, tries), (), range_max, probs)
            seen = jnp.any((samples == v) & (jnp.arange(num_sampled) < count))
            samples = jnp.where(seen, samples, samples.at[count].set(v))
            return samples, count + jnp.where(seen, 0, 1), tries + 1

        init = (jnp.zeros((num_sampled,), jnp.int32), jnp.int32(0), jnp.int32(0))
        samples, _, tries = jax.lax.while_loop(cond, body, init)
    true_exp = _expected(_prob(kind, true_classes, range_max, probs), num_sampled, tries, unique)
    sampled_exp = _expected(_prob(kind, samples, range_max, probs), num_sampled, tries, unique)
    return samples.astype(out_dtype.np_dtype), true_exp, sampled_exp


def _sampler(kind: str, true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
             seed: int | None, name: str | None, probs: tuple[float, ...] = ()) -> tuple[Any, Any, Any]:
    if unique and num_sampled > range_max:
        raise ValueError(f"{kind}_candidate_sampler: num_sampled ({num_sampled}) must be at most range_max "
                         f"({range_max}) when unique=True.")
    tc = convert_to_tensor(true_classes)
    if not _dtypes.as_dtype(tc.dtype).is_integer:
        raise TypeError(f"{kind}_candidate_sampler: true_classes must be integers, got {tc.dtype.name}.")
    attrs = {"kind": kind, "num_sampled": int(num_sampled), "unique": bool(unique), "range_max": int(range_max),
             "out_dtype": _dtypes.canonical(_dtypes.int64), **seed_attrs(seed)}
    if probs:
        attrs["probs"] = probs
    with op_scope(name, f"{kind.title().replace('_', '')}CandidateSampler", [tc]) as scope:
        s, t, e = apply_op("CandidateSampler", (tc,), attrs, name=scope)
    return _NAMED[kind](s, t, e)  # type: ignore[call-arg, no-any-return]


def log_uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
                                  seed: int | None = None, name: str | None = None) -> tuple[Any, Any, Any]:
    """Samples ``num_sampled`` classes from the log-uniform (Zipfian)
    distribution ``P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``, as
    ``tf.random.log_uniform_candidate_sampler``.

    Args:
      true_classes: ``[batch, num_true]`` integer classes.
      unique: sample without replacement (rejection, as TF); the expected
        counts are then ``-expm1(num_tries * log1p(-P(k)))``.
      range_max: the number of classes.

    Returns:
      ``CandidateSamplerOutput``: sampled classes ``[num_sampled]`` (int64,
      canonical), expected counts of the true classes ``[batch, num_true]``
      and of the sampled ones ``[num_sampled]`` (float32).

    Raises:
      ValueError: ``unique`` and ``num_sampled > range_max``.
    """
    return _sampler("log_uniform", true_classes, num_true, num_sampled, unique, range_max, seed, name)


def uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
                              seed: int | None = None, name: str | None = None) -> tuple[Any, Any, Any]:
    """As :func:`log_uniform_candidate_sampler` with ``P(k) = 1 / range_max``,
    as ``tf.random.uniform_candidate_sampler``."""
    return _sampler("uniform", true_classes, num_true, num_sampled, unique, range_max, seed, name)


def fixed_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
                                    vocab_file: str = "", distortion: float = 1.0, num_reserved_ids: int = 0,
                                    num_shards: int = 1, shard: int = 0, unigrams: Any = (), seed: int | None = None,
                                    name: str | None = None) -> tuple[Any, Any, Any]:
    """As :func:`log_uniform_candidate_sampler` with ``P(k)`` proportional to
    ``unigrams[k - num_reserved_ids] ** distortion`` (reserved ids: 0), as
    ``tf.random.fixed_unigram_candidate_sampler``.

    Args:
      vocab_file: a text file whose lines end in a count (``word,count``);
        used instead of ``unigrams`` when given.
      unigrams: the counts (or probabilities) of the classes after the
        reserved ones.

    Raises:
      ValueError: ``range_max`` differs from ``num_reserved_ids`` plus the
        number of counts; neither ``vocab_file`` nor ``unigrams``.
      NotImplementedError: ``num_shards > 1``.
    """
    if num_shards != 1 or shard != 0:
        raise NotImplementedError("fixed_unigram_candidate_sampler: num_shards > 1 is not supported.")
    if vocab_file:
        with open(vocab_file, encoding="utf-8") as f:
            counts = [float(line.rstrip("\n").split(",")[-1]) for line in f if line.strip()]
    else:
        counts = [float(c) for c in unigrams]
    if not counts:
        raise ValueError("fixed_unigram_candidate_sampler: Must provide either vocab_file or unigrams.")
    weights = np.concatenate([np.zeros(num_reserved_ids), np.power(np.asarray(counts, np.float64), distortion)])
    if weights.size != range_max:
        raise ValueError(f"fixed_unigram_candidate_sampler: range_max ({range_max}) must equal num_reserved_ids "
                         f"({num_reserved_ids}) plus the number of unigrams ({len(counts)}).")
    probs = tuple(float(p) for p in weights / weights.sum())
    return _sampler("fixed_unigram", true_classes, num_true, num_sampled, unique, range_max, seed, name, probs)


def compute_accidental_hits(true_classes: Any, sampled_candidates: Any, num_true: int, seed: int | None = None,
                            name: str | None = None) -> Any:
    """Not supported: TF returns a data-dependent number of hits, which XLA cannot
    compile. ``nce_loss``/``sampled_softmax_loss`` handle accidental hits
    (``remove_accidental_hits=True``) with a mask instead.

    Raises:
      NotImplementedError: always.
    """
    raise NotImplementedError(
        "compute_accidental_hits returns a data-dependent number of hits, which XLA cannot compile; "
        "use remove_accidental_hits=True in nce_loss/sampled_softmax_loss."
    )


@register_op("ComputeSampledLogits", num_outputs=2, default_name="compute_sampled_logits")
def _sampled_logits(weights: Any, biases: Any, labels: Any, inputs: Any, sampled: Any, true_exp: Any,
                    sampled_exp: Any, *, num_true: int, remove_accidental_hits: bool, subtract_log_q: bool) -> Any:
    labels = labels.reshape(-1, num_true).astype(jnp.int32)
    sampled = sampled.astype(jnp.int32)
    true_w = weights[labels]  # [batch, num_true, dim]
    sampled_w = weights[sampled]  # [num_sampled, dim]
    sampled_logits = inputs @ sampled_w.T + biases[sampled]
    true_logits = jnp.sum(inputs[:, None, :] * true_w, axis=-1) + biases[labels]
    if remove_accidental_hits:
        hit = jnp.any(labels[:, :, None] == sampled[None, None, :], axis=1)
        sampled_logits = sampled_logits + jnp.where(hit, jnp.asarray(_FLT_MIN, sampled_logits.dtype), 0)
    if subtract_log_q:
        true_logits = true_logits - jnp.log(true_exp).astype(true_logits.dtype)
        sampled_logits = sampled_logits - jnp.log(sampled_exp).astype(sampled_logits.dtype)
    logits = jnp.concatenate([true_logits, sampled_logits], axis=1)
    out_labels = jnp.concatenate(
        [jnp.full(true_logits.shape, 1.0 / num_true, logits.dtype), jnp.zeros(sampled_logits.shape, logits.dtype)],
        axis=1,
    )
    return logits, out_labels


def _compute_sampled_logits(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int,
                            num_classes: int, num_true: int, sampled_values: Any, subtract_log_q: bool,
                            remove_accidental_hits: bool, seed: int | None,
                            partition_strategy: str) -> tuple[Any, Any]:
    w = convert_to_tensor(sharded_table(weights, partition_strategy, "weights"))
    b = convert_to_tensor(sharded_table(biases, partition_strategy, "biases"), dtype=w.dtype)
    x = convert_to_tensor(inputs, dtype=w.dtype)
    lab = convert_to_tensor(labels)
    if not _dtypes.as_dtype(lab.dtype).is_integer:
        lab = math_ops.cast(lab, _dtypes.int64)
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(
            lab, num_true, num_sampled, True, num_classes, seed=seed)
    s, te, se = (stop_gradient(v) for v in sampled_values)
    attrs = {"num_true": int(num_true), "remove_accidental_hits": bool(remove_accidental_hits),
             "subtract_log_q": bool(subtract_log_q)}
    logits, out_labels = apply_op("ComputeSampledLogits", (w, b, lab, x, s, te, se), attrs)
    return logits, out_labels


def nce_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
             num_true: int = 1, sampled_values: Any = None, remove_accidental_hits: bool = False,
             partition_strategy: str = "mod", name: str = "nce_loss") -> Any:
    """The noise-contrastive estimation loss, as ``tf.compat.v1.nn.nce_loss``.

    Args:
      weights: ``[num_classes, dim]`` class embeddings, or their shards (a
        list or a ``PartitionedVariable``, split by ``partition_strategy`` as
        in ``embedding_lookup``).
      biases: ``[num_classes]`` (or its shards).
      labels: ``[batch, num_true]`` integer classes.
      inputs: ``[batch, dim]`` activations.
      num_sampled: negative classes sampled per batch.
      sampled_values: a ``(sampled_candidates, true_expected_count,
        sampled_expected_count)`` tuple; default: drawn by
        :func:`log_uniform_candidate_sampler` (``unique=True``).

    Returns:
      ``[batch]`` per-example losses: the row sums of the sigmoid
      cross-entropies of the true (label ``1 / num_true``) and sampled
      (label 0) logits.
    """
    with op_scope(name, "nce_loss", [inputs, labels]) as scope:
        logits, lab = _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                              sampled_values, True, remove_accidental_hits, None,
                                              partition_strategy)
        losses = nn_ops.sigmoid_cross_entropy_with_logits(labels=lab, logits=logits, name="sampled_losses")
        return math_ops.reduce_sum(losses, 1, name=scope)


def sampled_softmax_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
                         num_true: int = 1, sampled_values: Any = None, remove_accidental_hits: bool = True,
                         partition_strategy: str = "mod", name: str = "sampled_softmax_loss",
                         seed: int | None = None) -> Any:
    """The sampled softmax loss, as ``tf.compat.v1.nn.sampled_softmax_loss``.

    Args: as :func:`nce_loss` (``remove_accidental_hits`` defaults to True).

    Returns:
      ``[batch]`` per-example softmax cross-entropies over the true and
      sampled logits (labels ``1 / num_true`` on the true classes).
    """
    with op_scope(name, "sampled_softmax_loss", [inputs, labels]) as scope:
        logits, lab = _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                              sampled_values, True, remove_accidental_hits, seed,
                                              partition_strategy)
        return nn_ops.softmax_cross_entropy_with_logits_v2(labels=stop_gradient(lab), logits=logits, name=scope)
