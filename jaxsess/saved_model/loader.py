"""Loading SavedModels into a session, as ``tf.compat.v1.saved_model.loader``
(``tf.compat.v1.saved_model.load``).

Re-exports :mod:`jaxsess._tf1.saved_model.loader`.
"""

from jaxsess._tf1.saved_model.loader import *  # noqa: F403
