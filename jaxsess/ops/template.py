"""``tf.compat.v1.make_template``: a function whose ``get_variable`` variables are
created on the first call and shared by every later call.

Re-exports :mod:`jaxsess._tf1.ops.template`.
"""

from jaxsess._tf1.ops.template import *  # noqa: F403
