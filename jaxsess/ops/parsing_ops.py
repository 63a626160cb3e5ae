"""Parsing ops, as TF1's: ``parse_example`` / ``parse_single_example`` (dense
features of serialized ``tf.train.Example`` protos), ``decode_raw``,
``decode_csv`` and ``string_to_number``.

Re-exports :mod:`jaxsess._tf1.ops.parsing_ops`.
"""

from jaxsess._tf1.ops.parsing_ops import *  # noqa: F403
