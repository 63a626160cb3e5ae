# Custom Estimator with tf.data input_fn, LoggingTensorHook, train_and_evaluate, and
# export_saved_model + loading the SavedModel back (the TF1 "serving" tutorial flow).
import os
import shutil
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

rng = np.random.RandomState(3)
x_data = rng.uniform(0, 1, size=(20, 3)).astype(np.float32)
y_data = (x_data @ np.array([[2.0], [-1.0], [0.5]], np.float32) + 0.25).astype(np.float32)


def input_fn(data, labels, batch_size, epochs):
    ds = tf.data.Dataset.from_tensor_slices(({"x": data}, labels))
    return ds.repeat(epochs).batch(batch_size)


def model_fn(features, labels, mode):
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer([[0.1], [0.1], [0.1]]))
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    y = tf.add(tf.matmul(features["x"], w), b, name="y")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": y, "double": 2.0 * y})
    loss = tf.losses.mean_squared_error(labels, y)
    rmse = tf.metrics.root_mean_squared_error(labels, y)
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_or_create_global_step())
    logging_hook = tf.estimator.LoggingTensorHook({"loss": loss}, every_n_iter=2)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops={"rmse": rmse},
                                      training_hooks=[logging_hook])


base = tempfile.mkdtemp()
try:
    est = tf.estimator.Estimator(model_fn, model_dir=os.path.join(base, "model"),
                                 config=tf.estimator.RunConfig(save_checkpoints_steps=4, save_summary_steps=4))
    train_spec = tf.estimator.TrainSpec(lambda: input_fn(x_data, y_data, 5, None), max_steps=8)
    eval_spec = tf.estimator.EvalSpec(lambda: input_fn(x_data, y_data, 10, 1), steps=None, throttle_secs=0)
    result = tf.estimator.train_and_evaluate(est, train_spec, eval_spec)
    metrics = result[0] if isinstance(result, tuple) else result
    RESULTS["metric_keys"] = sorted(metrics)
    RESULTS["metrics"] = metrics
    RESULTS["w"] = est.get_variable_value("w")

    def serving_input_receiver_fn():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        return tf.estimator.export.ServingInputReceiver({"x": x}, {"x": x})

    export_dir = est.export_saved_model(os.path.join(base, "export"), serving_input_receiver_fn)
    RESULTS["export_dir_type"] = type(export_dir).__name__
    RESULTS["exported_files"] = sorted(os.listdir(export_dir))
    RESULTS["variables_files"] = sorted(os.listdir(os.path.join(export_dir, b"variables")))

    raw_fn = tf.estimator.export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 3])})
    raw_dir = est.export_saved_model(os.path.join(base, "export_raw"), raw_fn)

    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
        sig = meta.signature_def[tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
        RESULTS["signatures"] = sorted(meta.signature_def)
        RESULTS["method"] = sig.method_name
        RESULTS["sig_inputs"] = sorted(sig.inputs)
        RESULTS["sig_outputs"] = sorted(sig.outputs)
        fetches = {k: sess.graph.get_tensor_by_name(v.name) for k, v in sig.outputs.items()}
        feed = {sess.graph.get_tensor_by_name(sig.inputs["x"].name): x_data[:4]}
        RESULTS["served"] = sess.run(fetches, feed)

    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], raw_dir)
        sig = meta.signature_def["serving_default"]
        RESULTS["raw_inputs"] = {k: v.tensor_shape.dim[1].size for k, v in sig.inputs.items()}
        out = sess.graph.get_tensor_by_name(sig.outputs["y"].name)
        RESULTS["raw_served"] = sess.run(out, {sess.graph.get_tensor_by_name(sig.inputs["x"].name): x_data[4:6]})

    preds = list(est.predict(lambda: tf.data.Dataset.from_tensor_slices({"x": x_data[:4]}).batch(2)))
    RESULTS["predicted"] = np.array([p["y"] for p in preds])
finally:
    shutil.rmtree(base, ignore_errors=True)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
