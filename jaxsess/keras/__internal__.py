"""``jaxsess.keras.__internal__``: as ``tf.keras.__internal__`` (``tf_keras``), the one switch
of Keras' safe mode that it exports.

Re-exports :func:`jaxsess._tf1.keras._serialization.enable_unsafe_deserialization`.
"""

from jaxsess._tf1.keras._serialization import enable_unsafe_deserialization as enable_unsafe_deserialization

__all__ = ["enable_unsafe_deserialization"]
