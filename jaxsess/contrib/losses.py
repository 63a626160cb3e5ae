"""``tf.contrib.losses`` (TF 1.x): :mod:`jaxsess.losses` with contrib's argument order
(``predictions``/``logits`` first) and ``scope`` names; every loss is added to the ``LOSSES``
collection, as TF's. ``hinge_loss`` returns the unreduced per-element losses, as contrib's.

Re-exports :mod:`jaxsess._tf1.contrib.losses`.
"""

from jaxsess._tf1.contrib.losses import *  # noqa: F403
