"""``tf.contrib.metrics``' streaming metrics (TF 1.x): :mod:`jaxsess.metrics` with contrib's
argument order (``predictions`` before ``labels``), each returning ``(value, update_op)``, plus
``aggregate_metrics``/``aggregate_metric_map``.

Re-exports :mod:`jaxsess._tf1.contrib.metrics`.
"""

from jaxsess._tf1.contrib.metrics import *  # noqa: F403
