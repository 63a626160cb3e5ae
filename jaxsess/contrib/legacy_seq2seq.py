"""``jaxsess.contrib.legacy_seq2seq``: the list-of-tensors sequence-to-sequence
functions of TF1's ``tf.contrib.legacy_seq2seq`` (``rnn_decoder``,
``basic_rnn_seq2seq``, ``tied_rnn_seq2seq``, ``embedding_rnn_decoder``,
``sequence_loss_by_example``, ``sequence_loss``), with its variable scopes and
op names (``tensorflow/contrib/legacy_seq2seq/python/ops/seq2seq.py``, TF 1.15).

Re-exports :mod:`jaxsess._tf1.contrib.legacy_seq2seq`.
"""

from jaxsess._tf1.contrib.legacy_seq2seq import *  # noqa: F403
