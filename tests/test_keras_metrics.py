"""Keras 2 metric classes and metric names: behaviour beyond the v60_keras_metric_* corpus programs."""

from __future__ import annotations

import os

import jaxsess.compat.v1 as tf
import numpy as np
import pytest

from jaxsess.keras import losses, metrics


def test_reset_states_zeroes_the_accumulators_in_the_keras_session() -> None:
    with tf.Graph().as_default():
        m = tf.keras.metrics.Mean()
        update = m.update_state([2.0, 4.0])
        sess = tf.keras.backend.get_session()
        sess.run(update)
        assert sess.run(m.result()) == pytest.approx(3.0)
        m.reset_states()
        assert sess.run(m.result()) == 0.0  # div_no_nan of zero counts
        sess.run(m.update_state([10.0]))
        assert sess.run(m.result()) == pytest.approx(10.0)


def test_default_names_are_unique_per_graph_and_errors_name_the_argument() -> None:
    with tf.Graph().as_default():
        names = [tf.keras.metrics.AUC().name, tf.keras.metrics.AUC().name,
                 tf.keras.metrics.SparseTopKCategoricalAccuracy().name, tf.keras.metrics.TruePositives().name]
        assert names == ["auc", "auc_1", "sparse_top_k_categorical_accuracy", "true_positives"]
        with pytest.raises(ValueError, match='Invalid AUC curve value: "XY"'):
            tf.keras.metrics.AUC(curve="XY")
        with pytest.raises(ValueError, match="Invalid AUC summation method"):
            tf.keras.metrics.AUC(summation_method="trapezoid")
        with pytest.raises(NotImplementedError, match="top_k"):
            tf.keras.metrics.Precision(top_k=2)


def test_metric_objects_survive_model_save_and_load(tmp_path: os.PathLike[str]) -> None:
    with tf.Graph().as_default():
        m = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid", input_shape=(3,))])
        m.compile(optimizer="sgd", loss="binary_crossentropy",
                  metrics=[tf.keras.metrics.AUC(curve="PR", num_thresholds=30), "accuracy",
                           tf.keras.metrics.Precision(thresholds=0.2), tf.keras.metrics.BinaryAccuracy(threshold=0.3)])
        x = np.random.RandomState(0).rand(8, 3).astype(np.float32)
        y = (x[:, :1] > 0.5).astype(np.float32)
        m.fit(x, y, verbose=0)
        path = os.path.join(str(tmp_path), "m.h5")
        m.save(path)
        before = m.evaluate(x, y, verbose=0)
    with tf.Graph().as_default():
        loaded = tf.keras.models.load_model(path)
        auc, _, precision, binary = loaded._metric_specs
        assert (auc.curve, auc.num_thresholds, precision.thresholds, binary._fn_kwargs) == (
            "PR", 30, [0.2], {"threshold": 0.3})
        assert loaded.metrics_names == ["loss", "auc", "accuracy", "precision", "binary_accuracy"]
        np.testing.assert_allclose(loaded.evaluate(x, y, verbose=0), before, rtol=1e-5)


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
