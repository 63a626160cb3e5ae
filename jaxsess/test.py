"""``tf.compat.v1.test``: the gradient checker (``compute_gradient``,
``compute_gradient_error``) and a minimal ``TestCase`` for TF1-style tests.

Re-exports :mod:`jaxsess._tf1.test`.
"""

from jaxsess._tf1.test import *  # noqa: F403
from jaxsess._tf1.test import (  # public names outside its __all__
    DEFAULT_GRAPH_SEED as DEFAULT_GRAPH_SEED,
)
