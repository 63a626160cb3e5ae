"""RNN/NLP tutorial gaps (values are checked against TF in the corpus, v54_*)."""

from __future__ import annotations

import numpy as np
import pytest

import jaxsess as tf


def test_sequence_mask_maxlen_from_a_fed_shape() -> None:
    lengths = tf.placeholder(tf.int32, [None])
    targets = tf.placeholder(tf.int32, [None, None])
    mask = tf.sequence_mask(lengths, tf.shape(targets)[1], dtype=tf.float32)
    assert mask.shape.as_list() == [None, None]
    with tf.Session() as sess:
        got = sess.run(mask, {lengths: [1, 3], targets: np.zeros([2, 4], np.int32)})
    np.testing.assert_array_equal(got, [[1, 0, 0, 0], [1, 1, 1, 0]])
    assert got.dtype == np.float32


def test_sequence_mask_maxlen_from_fed_data_is_refused() -> None:
    lengths = tf.placeholder(tf.int32, [None])
    with pytest.raises(ValueError, match="sequence_mask: argument 'maxlen'"):
        tf.sequence_mask(lengths, tf.reduce_max(lengths))


def test_global_step_is_named_by_the_variable_scope() -> None:
    with tf.variable_scope("Model"):
        step = tf.train.get_or_create_global_step()
    assert step.name == "Model/global_step:0"
    assert tf.train.get_global_step() is step
    with tf.variable_scope("Model", reuse=True):
        assert tf.get_variable("global_step", dtype=tf.int64) is step
    assert step.dtype == tf.int64 and not step.trainable
