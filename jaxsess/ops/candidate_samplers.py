"""``all_candidate_sampler`` of ``tf.nn`` / ``tf.random`` (the other candidate
samplers, ``fixed_unigram_candidate_sampler`` included, are in
:mod:`jaxsess._tf1.ops.sampled_losses`).

Re-exports :mod:`jaxsess._tf1.ops.candidate_samplers`.
"""

from jaxsess._tf1.ops.candidate_samplers import *  # noqa: F403
