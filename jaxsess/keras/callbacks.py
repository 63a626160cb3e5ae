"""``jaxsess.keras.callbacks``: ``Callback`` and ``History``, as ``tf.keras.callbacks``
(``fit`` calls ``on_train_begin/end``, ``on_epoch_begin/end`` and ``on_batch_end``).

Re-exports :mod:`jaxsess._tf1.keras.callbacks`.
"""

from jaxsess._tf1.keras.callbacks import *  # noqa: F403
