"""Candidate sampling and sampled losses, as ``tf.compat.v1.nn``:
``log_uniform_candidate_sampler``, ``uniform_candidate_sampler``,
``compute_accidental_hits``, ``nce_loss`` and ``sampled_softmax_loss``.

Re-exports :mod:`jaxsess._tf1.ops.sampled_losses`.
"""

from jaxsess._tf1.ops.sampled_losses import *  # noqa: F403
