"""Linear solves and spectral decompositions, as ``tf.compat.v1`` / ``tf.linalg``.

Re-exports :mod:`jaxsess._tf1.ops.linalg_solvers`.
"""

from jaxsess._tf1.ops.linalg_solvers import *  # noqa: F403
