"""``jaxsess.keras.metrics``: the metric functions, as ``tf.keras.metrics`` (per-sample values;
``compile`` averages them over each batch and the epoch): the accuracies, the top-k accuracies, and
the loss functions under their metric names (``mae``, ``mse``, ...). :func:`get` resolves the names
``compile(metrics=[...])`` takes.

Re-exports :mod:`jaxsess._tf1.keras.metrics`.
"""

from jaxsess._tf1.keras.metrics import *  # noqa: F403
