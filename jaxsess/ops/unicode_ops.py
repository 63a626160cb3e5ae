"""Unicode and n-gram string ops, as ``tf.strings``: ``unicode_transcode``,
``unicode_encode`` (dense code points), ``unicode_decode``/``unicode_split``/``bytes_split``
of one string, and ``ngrams`` of dense token tensors.

Re-exports :mod:`jaxsess._tf1.ops.unicode_ops`.
"""

from jaxsess._tf1.ops.unicode_ops import *  # noqa: F403
