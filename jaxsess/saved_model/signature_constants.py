"""``jaxsess.saved_model.signature_constants``: re-exports :mod:`jaxsess._tf1.saved_model.signature_constants`."""

from jaxsess._tf1.saved_model.signature_constants import *  # noqa: F403
