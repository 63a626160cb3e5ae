"""tfmetrics slice: TF1 conversion checks found by the v63_ metrics programs."""

import jaxsess.compat.v1 as tf
import numpy as np
import pytest


def test_constant_python_ints_to_bool_raise_as_tf1():
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="Expected bool, but got 0 of type 'int'"):
            tf.constant([0, 1, 1], tf.bool)
        with pytest.raises(TypeError, match="Expected bool, but got 1.0 of type 'float'"):
            tf.constant([1.0], tf.bool)
        assert tf.constant(np.array([0, 1]), tf.bool).dtype == tf.bool  # NumPy arrays cast, as TF1
        assert tf.constant([True, False], tf.bool).dtype == tf.bool


def test_auc_pr_careful_interpolation_names_as_tf1():
    with tf.Graph().as_default():
        v, u = tf.metrics.auc(tf.constant([0, 1]), tf.constant([0.3, 0.6]), curve="PR",
                              summation_method="careful_interpolation")
        assert (v.name, u.name) == ("auc/interpolate_pr_auc:0", "auc/interpolate_pr_auc_1:0")
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            sess.run(u)
            assert sess.run(v) == pytest.approx(1.0)  # the positive outranks the negative
