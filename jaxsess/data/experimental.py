"""``tf.data.experimental``: transformations for ``Dataset.apply``, as
``tf.compat.v1.data.experimental`` (each one the ``Dataset`` method TF 2
moved it to).

Re-exports :mod:`jaxsess._tf1.data.experimental`.
"""

from jaxsess._tf1.data.experimental import *  # noqa: F403
