"""Writing SavedModels, as ``tf.compat.v1.saved_model.builder`` and ``simple_save``.

Re-exports :mod:`jaxsess._tf1.saved_model.builder`.
"""

from jaxsess._tf1.saved_model.builder import *  # noqa: F403
