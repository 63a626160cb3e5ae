"""``SignatureDef`` protos, as ``tf.compat.v1.saved_model.signature_def_utils``.

Re-exports :mod:`jaxsess._tf1.saved_model.signature_def_utils`.
"""

from jaxsess._tf1.saved_model.signature_def_utils import *  # noqa: F403
