"""Keras recurrent layers in TF1 graph mode, as ``tf.compat.v1.keras.layers``
(``SimpleRNN``, ``LSTM``, ``GRU``, ``RNN(cell)``, ``Bidirectional``, ``TimeDistributed``).

Re-exports :mod:`jaxsess._tf1.keras.recurrent`.
"""

from jaxsess._tf1.keras.recurrent import *  # noqa: F403
