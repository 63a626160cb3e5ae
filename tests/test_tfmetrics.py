"""tfmetrics slice: TF1 metrics behaviour found by the v63_ metrics programs."""

import jaxsess.compat.v1 as tf
import numpy as np
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


def test_at_k_metrics_count_labels_as_sets() -> None:
    # Recorded with TF 2.21: a repeated label counts once ([1, 1] with 1 in the
    # top 2 is one true positive, no false negative); recall 0.6, precision 0.5,
    # precision of class 3 0.5, with TF's local variable names.
    with tf.Graph().as_default():
        lab = tf.constant([[1, 1], [2, 7], [0, 3]], tf.int64)
        sc = tf.constant([[0.1, 0.9, 0.5, 0.2], [0.3, 0.2, 0.1, 0.9], [0.8, 0.1, 0.2, 0.7]])
        _, ru = tf.metrics.recall_at_k(lab, sc, 2)
        _, pu = tf.metrics.precision_at_k(lab, sc, 2)
        _, pcu = tf.metrics.precision_at_k(lab, sc, 2, class_id=3)
        with tf.Session() as s:
            s.run(tf.local_variables_initializer())
            got = s.run([ru, pu, pcu])
        names = [v.name for v in tf.local_variables()]
    assert [type(v) for v in got] == [np.float64] * 3
    np.testing.assert_allclose(got, [0.6, 0.5, 0.5])
    assert names == ["recall_at_2/true_positive_at_2:0", "recall_at_2/false_negative_at_2:0",
                     "precision_at_2/true_positive_at_2:0", "precision_at_2/false_positive_at_2:0",
                     "precision_at_2_class3/true_positive_at_2_class3:0",
                     "precision_at_2_class3/false_positive_at_2_class3:0"]
