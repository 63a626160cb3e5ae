"""``jaxsess.saved_model.constants``: re-exports :mod:`jaxsess._tf1.saved_model.constants`."""

from jaxsess._tf1.saved_model.constants import *  # noqa: F403
