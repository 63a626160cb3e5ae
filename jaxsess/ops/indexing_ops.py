"""Indexing and rearranging ops, as ``tf.compat.v1``: ``strided_slice``,
``scatter_nd``, ``roll``, ``sequence_mask``, ``meshgrid``, ``dimension_value``
(``reverse_sequence`` lives in :mod:`jaxsess._tf1.ops.rnn`).

Re-exports :mod:`jaxsess._tf1.ops.indexing_ops`.
"""

from jaxsess._tf1.ops.indexing_ops import *  # noqa: F403
