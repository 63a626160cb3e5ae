"""TFRecord files, as ``tf.compat.v1.python_io`` (``tf.io``): ``TFRecordWriter``,
``tf_record_iterator``, ``TFRecordOptions``, ``TFRecordCompressionType``.

Re-exports :mod:`jaxsess._tf1.python_io`.
"""

from jaxsess._tf1.python_io import *  # noqa: F403
