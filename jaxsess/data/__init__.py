"""``jaxsess.data``: input pipelines, as ``tf.compat.v1.data`` (see
:mod:`jaxsess._tf1.data._dataset`). The folder also holds the files of
:mod:`jaxsess.datasets` (``digits.npz``).

Re-exports :mod:`jaxsess._tf1.data`.
"""

from jaxsess._tf1.data import *  # noqa: F403
