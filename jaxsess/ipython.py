"""IPython and Jupyter integration: ``%load_ext jaxsess`` (or ``jaxsess.ipython``).

Re-exports :mod:`jaxsess._tf1.ipython`.
"""

from jaxsess._tf1.ipython import *  # noqa: F403
from jaxsess._tf1.ipython import (  # public names outside its __all__
    NO_SESSION_MESSAGE as NO_SESSION_MESSAGE,
)
