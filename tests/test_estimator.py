"""``tf.estimator`` behaviour that the TF1 corpus (``v24_estimator_*``) cannot compare
with TF: error messages, files and events in ``model_dir``, logging, restarts."""

from __future__ import annotations

import logging
import os

import jaxsess.compat.v1 as tf
import numpy as np
import pytest

X = np.array([[0.5, -1.0], [1.0, 0.5], [-0.5, 2.0], [1.5, 0.0]], np.float32)
Y = np.array([1.0, 0.5, -1.0, 2.0], np.float32)


def linear_model_fn(features, labels, mode):
    w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer([[0.2], [-0.1]]))
    y = tf.squeeze(tf.matmul(features["x"], w), axis=1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": y})
    loss = tf.reduce_mean(tf.square(y - labels))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def constant_input_fn():
    return {"x": tf.constant(X)}, tf.constant(Y)


def numpy_input(num_epochs=1, batch_size=2):
    return tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=batch_size, num_epochs=num_epochs,
                                              shuffle=False)


# -- EstimatorSpec ---------------------------------------------------------------------------------------


def test_spec_requires_what_each_mode_needs():
    with tf.Graph().as_default():
        loss = tf.constant(1.0)
        with pytest.raises(ValueError, match=r"^Missing train_op\.$"):
            tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.TRAIN, loss=loss)
        with pytest.raises(ValueError, match=r"^Missing loss\.$"):
            tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.EVAL)
        with pytest.raises(ValueError, match=r"^Missing predictions\.$"):
            tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.PREDICT)
        spec = tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.EVAL, loss=tf.constant([2.0]))
        assert spec.loss.shape.as_list() == [] and spec.predictions == {} and spec.eval_metric_ops == {}
        assert isinstance(spec.scaffold, tf.train.Scaffold) and spec.training_hooks == ()


def test_spec_rejects_bad_values():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Loss must be scalar, given: "):
            tf.estimator.EstimatorSpec("eval", loss=tf.constant([1.0, 2.0]))
        with pytest.raises(TypeError, match="loss must be Tensor, given: 1.0"):
            tf.estimator.EstimatorSpec("eval", loss=1.0)
        with pytest.raises(TypeError, match=r"predictions\[p\] must be Tensor"):
            tf.estimator.EstimatorSpec("infer", predictions={"p": np.ones(2)})
        with pytest.raises(TypeError, match="All hooks must be SessionRunHook instances, given: 3"):
            tf.estimator.EstimatorSpec("eval", loss=tf.constant(1.0), evaluation_hooks=[3])
        with pytest.raises(TypeError, match="Values of eval_metric_ops must be"):
            tf.estimator.EstimatorSpec("eval", loss=tf.constant(1.0), eval_metric_ops={"m": tf.constant(1.0)})
        other = tf.Graph()
        with other.as_default():
            foreign = tf.constant(1.0, name="foreign")
        with pytest.raises(ValueError, match='loss with "foreign:0" must be from the default graph'):
            tf.estimator.EstimatorSpec("eval", loss=foreign)
        spec = tf.estimator.EstimatorSpec("eval", loss=tf.constant(1.0))
        with pytest.raises(ValueError, match="mode of EstimatorSpec cannot be changed."):
            spec._replace(mode="train")


# -- Estimator construction --------------------------------------------------------------------------------


def test_model_fn_arguments_are_checked(tmp_path):
    with pytest.raises(ValueError, match="must include features argument"):
        tf.estimator.Estimator(lambda x, labels, mode: None, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="does not include params argument"):
        tf.estimator.Estimator(linear_model_fn, model_dir=str(tmp_path), params={"a": 1})
    with pytest.raises(ValueError, match=r"has following not expected args: \['extra'\]"):
        tf.estimator.Estimator(lambda features, extra: None, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="config must be an instance of `RunConfig`"):
        tf.estimator.Estimator(linear_model_fn, config={"model_dir": "x"})
    with pytest.raises(ValueError, match="`model_dir` are set both in constructor and `RunConfig`"):
        tf.estimator.Estimator(linear_model_fn, model_dir=str(tmp_path / "a"),
                               config=tf.estimator.RunConfig(model_dir=str(tmp_path / "b")))


def test_temporary_model_dir_and_no_checkpoint(tmp_path):
    est = tf.estimator.Estimator(linear_model_fn)
    assert os.path.isdir(est.model_dir) and est.latest_checkpoint() is None
    with pytest.raises(ValueError, match="Could not find trained model in model_dir"):
        est.get_variable_names()


def test_run_config_defaults_and_replace():
    cfg = tf.estimator.RunConfig()
    assert (cfg.save_checkpoints_secs, cfg.save_checkpoints_steps, cfg.save_summary_steps) == (600, None, 100)
    assert (cfg.keep_checkpoint_max, cfg.log_step_count_steps, cfg.is_chief) == (5, 100, True)
    steps = cfg.replace(save_checkpoints_steps=10)
    assert (steps.save_checkpoints_steps, steps.save_checkpoints_secs) == (10, None)
    with pytest.raises(ValueError, match="Replacing bogus is not supported"):
        cfg.replace(bogus=1)
    with pytest.raises(ValueError, match="model_dir should be non-empty"):
        tf.estimator.RunConfig(model_dir="")


# -- numpy_input_fn ---------------------------------------------------------------------------------------------


def test_numpy_input_fn_checks_its_arguments():
    with pytest.raises(ValueError, match="shuffle must be provided and explicitly set as boolean"):
        tf.estimator.inputs.numpy_input_fn({"x": X}, Y)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Length of tensors in x and y is mismatched"):
            tf.estimator.inputs.numpy_input_fn({"x": X}, Y[:3], shuffle=False)()
        with pytest.raises(ValueError, match="1 duplicate keys are found in both x and y"):
            tf.estimator.inputs.numpy_input_fn({"x": X}, {"x": Y}, shuffle=False)()
        with pytest.raises(TypeError, match="x must be a dict or array"):
            tf.estimator.inputs.numpy_input_fn([1, 2], shuffle=False)()


def test_numpy_input_fn_batches_and_static_shapes():
    with tf.Graph().as_default():
        features, labels = numpy_input(num_epochs=None, batch_size=3)()
        assert features["x"].shape.as_list() == [3, 2] and labels.shape.as_list() == [3]
        direct = tf.estimator.inputs.numpy_input_fn(X, batch_size=3, shuffle=False)()
        assert direct.shape.as_list() == [None, 2]
        with tf.Session() as sess:
            assert sess.run(direct).tolist() == X[:3].tolist()
            assert sess.run(direct).tolist() == X[3:].tolist()
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(direct)


# -- train / evaluate / predict ---------------------------------------------------------------------------------


def test_model_dir_files_graph_and_events(tmp_path):
    est = tf.estimator.Estimator(linear_model_fn, model_dir=str(tmp_path),
                                 config=tf.estimator.RunConfig(save_summary_steps=1))
    est.train(constant_input_fn, steps=3)
    names = sorted(os.listdir(tmp_path))
    for f in ("checkpoint", "graph.pbtxt", "model.ckpt-0.index", "model.ckpt-0.meta", "model.ckpt-3.index",
              "model.ckpt-3.meta"):
        assert f in names
    [events] = [n for n in names if n.startswith("events.out.tfevents.")]
    losses = [(e.step, v.simple_value) for e in tf.train.summary_iterator(str(tmp_path / events))
              for v in e.summary.value if v.tag == "loss"]
    assert [s for s, _ in losses] == [1, 2, 3]
    result = est.evaluate(constant_input_fn, steps=1)
    assert list(result) == ["loss", "global_step"] and result["global_step"] == 3
    assert losses[-1][1] > result["loss"]
    [eval_events] = os.listdir(tmp_path / "eval")
    evals = [(e.step, v.tag) for e in tf.train.summary_iterator(str(tmp_path / "eval" / eval_events))
             for v in e.summary.value]
    assert evals == [(3, "loss")]


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.fixture
def tf_log():
    logger = tf.logging.get_logger()  # configured first, as a program's own first log call would
    handler, level = _Records(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler.messages
    logger.removeHandler(handler)
    logger.setLevel(level)


def test_restart_continues_global_step_and_max_steps_skips(tmp_path, tf_log):
    est = tf.estimator.Estimator(linear_model_fn, model_dir=str(tmp_path),
                                 config=tf.estimator.RunConfig(log_step_count_steps=1))
    est.train(numpy_input())  # 2 batches of 2
    assert est.get_variable_value("global_step") == 2
    w2 = est.get_variable_value("w")
    assert any(m.startswith("loss = ") and m.endswith(", step = 0") for m in tf_log)
    assert any(m.startswith("Loss for final step: ") for m in tf_log)
    again = tf.estimator.Estimator(linear_model_fn, model_dir=str(tmp_path))
    again.train(numpy_input(num_epochs=None), steps=3)
    assert again.get_variable_value("global_step") == 5
    assert not np.array_equal(again.get_variable_value("w"), w2)
    tf_log.clear()
    again.train(numpy_input(num_epochs=None), max_steps=4)
    assert tf_log == ["Skipping training since max_steps has already saved."]
    assert again.get_variable_value("global_step") == 5
    again.train(numpy_input(num_epochs=None), max_steps=6)
    assert os.path.basename(again.latest_checkpoint()) == "model.ckpt-6"


def test_train_argument_errors(tmp_path):
    est = tf.estimator.Estimator(linear_model_fn, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="Must specify max_steps > 0, given: 0"):
        est.train(constant_input_fn, max_steps=0)
    with pytest.raises(TypeError, match="Hooks must be a SessionRunHook, given: 1"):
        est.train(constant_input_fn, hooks=[1], steps=1)
    with pytest.raises(TypeError, match="saving_listeners must be a list of CheckpointSaverListener, given: 2"):
        est.train(constant_input_fn, saving_listeners=[2], steps=1)
    with pytest.raises(ValueError, match="input_fn should return \\(features, labels\\) as a len 2 tuple"):
        est.train(lambda: ({"x": tf.constant(X)}, tf.constant(Y), 3), steps=1)
    with pytest.raises(ValueError, match="model_fn should return an EstimatorSpec"):
        tf.estimator.Estimator(lambda features, labels: None, model_dir=str(tmp_path)).train(constant_input_fn)
    assert est.latest_checkpoint() is None


def test_nan_loss_stops_training(tmp_path):
    def nan_model_fn(features, labels, mode):
        w = tf.get_variable("w", [], initializer=tf.zeros_initializer())
        loss = w / w
        train_op = tf.assign_add(tf.train.get_global_step(), 1)
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    est = tf.estimator.Estimator(nan_model_fn, model_dir=str(tmp_path))
    with pytest.raises(tf.train.NanLossDuringTrainingError):
        est.train(constant_input_fn, steps=2)


def test_evaluate_rejects_reserved_metric_names(tmp_path):
    def model_fn(features, labels, mode):
        loss = tf.reduce_mean(features["x"])
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"loss": (loss, tf.no_op())})

    est = tf.estimator.Estimator(model_fn, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match='Metric with name "loss" is not allowed'):
        est.evaluate(constant_input_fn, steps=1)


def test_predict_without_checkpoint_initializes(tmp_path):
    est = tf.estimator.Estimator(linear_model_fn, model_dir=str(tmp_path))
    preds = list(est.predict(numpy_input()))
    assert [sorted(p) for p in preds] == [["y"]] * 4
    np.testing.assert_allclose([p["y"] for p in preds], X @ np.array([0.2, -0.1], np.float32), rtol=1e-6)
    with pytest.raises(ValueError, match="Expected to run at least one output from"):
        list(est.predict(numpy_input(), predict_keys=["z"]))


# -- feature columns ------------------------------------------------------------------------------------------


def test_numeric_column_checks_its_arguments():
    with pytest.raises(ValueError, match="key must be a string"):
        tf.feature_column.numeric_column(1)
    with pytest.raises(ValueError, match="dtype must be convertible to float"):
        tf.feature_column.numeric_column("k", dtype=tf.string)
    with pytest.raises(TypeError, match="default_value must be compatible with dtype"):
        tf.feature_column.numeric_column("k", default_value="x")
    col = tf.feature_column.numeric_column("k", shape=3, dtype=tf.int32)
    assert (col.name, col.shape, col.dtype) == ("k", (3,), tf.int32)


def test_input_layer_errors_and_outputs():
    with tf.Graph().as_default():
        feats = {"a": tf.constant([[1, 2, 3]], tf.int32)}
        with pytest.raises(ValueError, match="feature_columns must not be empty"):
            tf.feature_column.input_layer(feats, [])
        with pytest.raises(ValueError, match="Items of feature_columns must be a _DenseColumn"):
            tf.feature_column.input_layer(feats, ["a"])
        with pytest.raises(ValueError, match="Cannot reshape"):
            tf.feature_column.input_layer(feats, [tf.feature_column.numeric_column("a", shape=(2,))])
        outs = {}
        col = tf.feature_column.numeric_column("a", shape=(3,), dtype=tf.int32)
        net = tf.feature_column.input_layer(feats, col, cols_to_output_tensors=outs)
        assert net.dtype == tf.float32 and list(outs) == [col]
        with tf.Session() as sess:
            assert sess.run(net).tolist() == [[1.0, 2.0, 3.0]]


# -- DNNClassifier -------------------------------------------------------------------------------------------


def test_dnn_classifier_binary_head_and_unsupported_options(tmp_path):
    cols = [tf.feature_column.numeric_column("x", shape=(2,))]
    with pytest.raises(ValueError, match="n_classes must be > 1"):
        tf.estimator.DNNClassifier([3], cols, n_classes=1)
    with pytest.raises(ValueError, match="label_vocabulary is not supported"):
        tf.estimator.DNNClassifier([3], cols, label_vocabulary=["a", "b"])
    est = tf.estimator.DNNClassifier([3], cols, model_dir=str(tmp_path), optimizer="SGD")
    labels = (X[:, 0] > 0.6).astype(np.int32)
    est.train(tf.estimator.inputs.numpy_input_fn({"x": X}, labels, batch_size=2, num_epochs=1, shuffle=False))
    assert list(est.get_variable_value("dnn/logits/kernel").shape) == [3, 1]
    result = est.evaluate(tf.estimator.inputs.numpy_input_fn({"x": X}, labels, batch_size=4, shuffle=False))
    assert sorted(result) == ["accuracy", "accuracy_baseline", "average_loss", "global_step", "label/mean", "loss",
                              "precision", "prediction/mean", "recall"]
    classes = np.array([p["class_ids"][0] for p in est.predict(
        tf.estimator.inputs.numpy_input_fn({"x": X}, batch_size=4, shuffle=False))])
    tp = np.sum((classes == 1) & (labels == 1))
    assert result["recall"] == np.float32(tp / 2)
    assert result["precision"] == np.float32(tp / classes.sum() if classes.sum() else 0.0)
    assert result["accuracy"] == np.float32(np.mean(classes == labels))
    assert result["label/mean"] == np.float32(0.5) and result["accuracy_baseline"] == np.float32(0.5)
    np.testing.assert_allclose(result["loss"], 4 * result["average_loss"], rtol=1e-6)
    [first, *_] = est.predict(tf.estimator.inputs.numpy_input_fn({"x": X}, batch_size=4, shuffle=False))
    assert list(first) == ["logits", "logistic", "probabilities", "class_ids", "classes", "all_class_ids",
                           "all_classes"]
    np.testing.assert_allclose(first["probabilities"][1], first["logistic"][0], rtol=1e-6)
    assert first["classes"].tolist() == [str(first["class_ids"][0]).encode()]


def test_logging_tensor_hook_takes_op_names(tmp_path, tf_log):
    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.5))
        y = tf.identity(tf.squeeze(tf.matmul(features["x"], w), axis=1), name="prediction")
        loss = tf.reduce_mean(tf.square(y - labels))
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    est = tf.estimator.Estimator(model_fn, model_dir=str(tmp_path))
    hook = tf.train.LoggingTensorHook(tensors={"pred": "prediction"}, every_n_iter=1)
    est.train(constant_input_fn, steps=1, hooks=[hook])
    assert [m for m in tf_log if m.startswith("pred = ")] == ["pred = " + str(X @ np.full(2, 0.5, np.float32))]
    bad = tf.train.LoggingTensorHook(tensors={"split": "split"}, every_n_iter=1)

    def split_model_fn(features, labels, mode):
        tf.split(features["x"], 2, axis=1, name="split")
        return model_fn(features, labels, mode)

    with pytest.raises(ValueError, match="Name split is ambiguous"):
        tf.estimator.Estimator(split_model_fn, model_dir=str(tmp_path / "s")).train(constant_input_fn, steps=1,
                                                                                    hooks=[bad])


def test_dnn_regressor_checks_label_dimension(tmp_path):
    cols = [tf.feature_column.numeric_column("x", shape=(2,))]
    with pytest.raises(ValueError, match="Invalid label_dimension 0"):
        tf.estimator.DNNRegressor([2], cols, label_dimension=0)
    est = tf.estimator.DNNRegressor([2], cols, label_dimension=2, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="Mismatched label shape. Expected labels dimension=2"):
        est.train(lambda: ({"x": tf.constant(X)}, tf.constant(Y)), steps=1)
