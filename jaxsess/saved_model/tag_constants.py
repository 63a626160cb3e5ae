"""``jaxsess.saved_model.tag_constants``: re-exports :mod:`jaxsess._tf1.saved_model.tag_constants`."""

from jaxsess._tf1.saved_model.tag_constants import *  # noqa: F403
