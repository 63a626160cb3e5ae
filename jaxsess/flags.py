"""``tf.flags`` / ``tf.app.flags``: command-line flags on :mod:`absl.flags`, the
library TF1 itself used.

Re-exports :mod:`jaxsess._tf1.flags`.
"""

from jaxsess._tf1.flags import *  # noqa: F403
