"""Parsing of serialized ``tf.train.SequenceExample`` protos, as TF1's
``parse_single_sequence_example`` and ``tf.io.parse_sequence_example``: context features
(``FixedLenFeature``/``VarLenFeature``, as :func:`~jaxsess._tf1.ops.parsing_ops.parse_example`)
and feature lists (``FixedLenSequenceFeature``: a dense ``[time] + shape`` tensor;
``VarLenFeature``: a ``SparseTensor`` indexed by ``(time, value)``).

Re-exports :mod:`jaxsess._tf1.ops.sequence_parsing_ops`.
"""

from jaxsess._tf1.ops.sequence_parsing_ops import *  # noqa: F403
