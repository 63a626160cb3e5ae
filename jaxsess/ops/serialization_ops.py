"""Tensors to and from bytes, compressed strings and file globbing, as ``tf.io``'s
``serialize_tensor``/``parse_tensor``, ``decode_compressed``, ``matching_files`` and
``tf.train.match_filenames_once``.

Re-exports :mod:`jaxsess._tf1.ops.serialization_ops`.
"""

from jaxsess._tf1.ops.serialization_ops import *  # noqa: F403
