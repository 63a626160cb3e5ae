"""``tf.contrib.opt`` (TF 1.x): ``LazyAdamOptimizer``."""

from __future__ import annotations

from jaxsess._tf1.train._optimizers import AdamOptimizer

__all__ = ["LazyAdamOptimizer"]


class LazyAdamOptimizer(AdamOptimizer):
    """Adam whose sparse updates touch only the gathered rows, as ``tf.contrib.opt.LazyAdamOptimizer``
    (default name ``'Adam'``, slots ``m``/``v``, as TF).

    Dense gradients: exactly :class:`~jaxsess.train.AdamOptimizer`. Known difference: jaxsess
    applies sparse (``IndexedSlices``) gradients densely too, so rows absent from a batch still
    see their moments decay and move, as plain Adam does.
    """
