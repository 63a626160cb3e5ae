# train_and_evaluate with exporters (LatestExporter, FinalExporter, BestExporter), a
# model_fn with explicit export_outputs, and build_raw_serving_input_receiver_fn.
import os
import shutil
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

x_data = np.linspace(-1, 1, 16, dtype=np.float32).reshape(8, 2)
y_data = (x_data.sum(axis=1, keepdims=True) * 1.5 - 0.5).astype(np.float32)


def model_fn(features, labels, mode, params):
    dense = tf.layers.Dense(1, kernel_initializer=tf.constant_initializer(0.2), name="linear")
    y = dense(features["x"])
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(
            mode, predictions={"y": y},
            export_outputs={"regress": tf.estimator.export.PredictOutput({"value": y}),
                            "serving_default": tf.estimator.export.PredictOutput(y)})
    loss = tf.losses.absolute_difference(labels, y)
    opt = tf.train.MomentumOptimizer(params["lr"], 0.9)
    train_op = opt.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      eval_metric_ops={"mae": tf.metrics.mean_absolute_error(labels, y)})


def train_input_fn():
    return tf.data.Dataset.from_tensor_slices(({"x": x_data}, y_data)).repeat().batch(4)


def eval_input_fn():
    return tf.data.Dataset.from_tensor_slices(({"x": x_data}, y_data)).batch(8)


model_dir = tempfile.mkdtemp()
try:
    est = tf.estimator.Estimator(model_fn, model_dir=model_dir, params={"lr": 0.05},
                                 config=tf.estimator.RunConfig(save_checkpoints_steps=3))
    serving_fn = tf.estimator.export.build_raw_serving_input_receiver_fn(
        {"x": tf.placeholder(tf.float32, [None, 2])})
    exporters = [tf.estimator.LatestExporter("latest", serving_fn, exports_to_keep=1),
                 tf.estimator.FinalExporter("final", serving_fn),
                 tf.estimator.BestExporter("best", serving_fn)]
    metrics, export_results = tf.estimator.train_and_evaluate(
        est, tf.estimator.TrainSpec(train_input_fn, max_steps=6),
        tf.estimator.EvalSpec(eval_input_fn, steps=None, exporters=exporters, throttle_secs=0))
    RESULTS["metrics"] = metrics
    RESULTS["n_export_results"] = len(export_results)
    RESULTS["export_result_types"] = [type(r).__name__ for r in export_results]
    RESULTS["export_subdirs"] = sorted(os.listdir(os.path.join(model_dir, "export")))
    RESULTS["latest_count"] = len(os.listdir(os.path.join(model_dir, "export", "latest")))
    RESULTS["final_count"] = len(os.listdir(os.path.join(model_dir, "export", "final")))
    final_dir = export_results[1]
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], final_dir)
        RESULTS["signatures"] = sorted(meta.signature_def)
        RESULTS["regress_outputs"] = sorted(meta.signature_def["regress"].outputs)
        sig = meta.signature_def["serving_default"]
        RESULTS["default_outputs"] = sorted(sig.outputs)
        RESULTS["served"] = sess.run(sig.outputs["output"].name, {sig.inputs["x"].name: x_data[:3]})
finally:
    shutil.rmtree(model_dir, ignore_errors=True)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
