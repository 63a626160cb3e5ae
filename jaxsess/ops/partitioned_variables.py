"""Partitioned variables, as ``tf.compat.v1``: the partitioners
(``fixed_size_partitioner``, ``variable_axis_size_partitioner``,
``min_max_variable_partitioner``), :class:`PartitionedVariable` (what
``get_variable(..., partitioner=...)`` returns), and the sharded-table
helper that ``embedding_lookup`` and the sampled losses use.

Re-exports :mod:`jaxsess._tf1.ops.partitioned_variables`.
"""

from jaxsess._tf1.ops.partitioned_variables import *  # noqa: F403
