"""``tf.flags`` / ``tf.app.flags``: command-line flags on :mod:`absl.flags`, the
library TF1 itself used.

Re-exports :mod:`jaxsess._tf1.flags` (and, through it, the rest of :mod:`absl.flags`).
"""

from jaxsess._tf1.flags import *  # noqa: F403
from jaxsess._tf1.flags import __dir__ as __dir__, __getattr__ as __getattr__
