"""Keras 2 metric functions: ``tf.keras.metrics.get`` and the top-k / cosine metrics (values
as tf_keras 2.21, checked against real TF)."""

import numpy as np
import pytest

import jaxsess as tf
from jaxsess.keras import losses, metrics


def _run(t):
    with tf.Session() as sess:
        return sess.run(t)


def test_top_k_categorical_accuracy_matches_keras():
    y_true = np.array([[0, 0, 1], [0, 1, 0]], np.float32)
    y_pred = np.array([[0.1, 0.9, 0.8], [0.05, 0.95, 0]], np.float32)
    with tf.Graph().as_default():
        out = _run([metrics.top_k_categorical_accuracy(y_true, y_pred, k=1),
                    metrics.top_k_categorical_accuracy(y_true, y_pred, k=2),
                    metrics.sparse_top_k_categorical_accuracy(np.array([[2], [0]]), y_pred, k=2),
                    metrics.sparse_top_k_categorical_accuracy(np.array([2, 2]), y_pred, k=2)])
    np.testing.assert_array_equal(out[0], [0.0, 1.0])
    np.testing.assert_array_equal(out[1], [1.0, 1.0])
    np.testing.assert_array_equal(out[2], [[1.0], [1.0]])  # y_true's shape, as Keras
    np.testing.assert_array_equal(out[3], [1.0, 0.0])
    assert out[0].dtype == np.float32


def test_cosine_proximity_metric_is_positive_unlike_the_loss():
    a = np.array([[1.0, 0.0], [1.0, 1.0]], np.float32)
    b = np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)
    with tf.Graph().as_default():
        m, loss = _run([metrics.get("cosine_proximity")(a, b), losses.get("cosine_proximity")(a, b)])
    np.testing.assert_allclose(m, [1.0, np.sqrt(0.5)], rtol=1e-6)
    np.testing.assert_allclose(loss, -m, rtol=1e-6)


def test_get_falls_back_to_losses_and_rejects_unknown_names():
    assert metrics.get("mae") is losses.get("mae")
    with pytest.raises(ValueError, match="no_such_metric"):
        metrics.get("no_such_metric")
