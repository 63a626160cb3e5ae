"""tfmetrics slice: TF1 metrics behaviour found by the v63_ metrics programs."""

import jaxsess.compat.v1 as tf
import pytest


def test_auc_pr_careful_interpolation_names_as_tf1():
    with tf.Graph().as_default():
        v, u = tf.metrics.auc(tf.constant([0, 1]), tf.constant([0.3, 0.6]), curve="PR",
                              summation_method="careful_interpolation")
        assert (v.name, u.name) == ("auc/interpolate_pr_auc:0", "auc/interpolate_pr_auc_1:0")
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            sess.run(u)
            assert sess.run(v) == pytest.approx(1.0)  # the positive outranks the negative
