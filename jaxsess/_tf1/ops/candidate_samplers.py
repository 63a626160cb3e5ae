"""``all_candidate_sampler`` of ``tf.nn`` / ``tf.random`` (the other candidate
samplers, ``fixed_unigram_candidate_sampler`` included, are in
:mod:`jaxsess._tf1.ops.sampled_losses`)."""

from __future__ import annotations

from typing import Any, NamedTuple

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._tf1.ops import array_ops as array_ops
from jaxsess._tf1.ops._args import op_scope

__all__ = ["all_candidate_sampler"]


class AllCandidateSampler(NamedTuple):
    """What :func:`all_candidate_sampler` returns (TF's namedtuple name)."""

    sampled_candidates: Any
    true_expected_count: Any
    sampled_expected_count: Any


def all_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                          seed: int | None = None, name: str | None = None) -> AllCandidateSampler:
    """All classes ``0 .. num_sampled - 1`` with expected counts 1, as ``tf.random.all_candidate_sampler``."""
    with op_scope(name, "AllCandidateSampler", [true_classes]):
        tc = convert_to_tensor(true_classes, dtype=_dtypes.int64)
        sampled = array_ops.range(num_sampled, dtype=_dtypes.int64)
        true_exp = array_ops.ones_like(tc, dtype=_dtypes.float32)
        return AllCandidateSampler(sampled, true_exp, array_ops.ones([num_sampled], dtype=_dtypes.float32))
