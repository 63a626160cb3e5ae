# Estimator training with hooks from the tf.estimator namespace (StopAtStepHook, NanTensorHook,
# LoggingTensorHook with a formatter, a custom SessionRunHook), keep_checkpoint_max, named
# evaluation, batch predictions (yield_single_examples=False) and numpy_input_fn with y=None.
import os
import shutil
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

x = np.arange(24, dtype=np.float32).reshape(12, 2) / 10.0
y = (x[:, :1] - 2.0 * x[:, 1:]).astype(np.float32)


class CountHook(tf.estimator.SessionRunHook):
    def begin(self):
        self.steps = 0
        self.losses = []

    def before_run(self, run_context):
        return tf.estimator.SessionRunArgs(tf.get_default_graph().get_tensor_by_name("loss:0"))

    def after_run(self, run_context, run_values):
        self.steps += 1
        self.losses.append(run_values.results)


def model_fn(features, labels, mode, params, config):
    w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(params["init"]))
    pred = tf.matmul(features["x"], w)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"pred": pred, "x": features["x"]})
    loss = tf.reduce_mean(tf.square(pred - labels), name="loss")
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=global_step)
    hooks = [tf.estimator.LoggingTensorHook({"loss": loss, "step": global_step}, every_n_iter=3,
                                            formatter=lambda v: "loss=%.3f" % v["loss"]),
             tf.estimator.NanTensorHook(loss)]
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=hooks,
                                      eval_metric_ops={"mse": tf.metrics.mean_squared_error(labels, pred)})


model_dir = tempfile.mkdtemp()
try:
    config = tf.estimator.RunConfig(model_dir=model_dir, save_checkpoints_steps=2, keep_checkpoint_max=2)
    est = tf.estimator.Estimator(model_fn=model_fn, config=config, params={"init": 0.5})
    RESULTS["model_dir_same"] = est.model_dir == model_dir
    RESULTS["params"] = est.params
    counter = CountHook()
    train_fn = tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=4, num_epochs=None, shuffle=False)
    est.train(train_fn, hooks=[counter, tf.estimator.StopAtStepHook(last_step=5)])
    RESULTS["hook_steps"] = counter.steps
    RESULTS["hook_losses"] = counter.losses
    RESULTS["step"] = est.get_variable_value("global_step")
    index_files = sorted(f for f in os.listdir(model_dir) if f.endswith(".index"))
    RESULTS["kept_checkpoints"] = index_files
    eval_fn = tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=12, num_epochs=1, shuffle=False)
    RESULTS["validation"] = est.evaluate(eval_fn, name="validation")
    RESULTS["eval_dir"] = os.path.basename(est.eval_dir("validation"))
    RESULTS["eval_dir_exists"] = os.path.isdir(est.eval_dir("validation"))
    pred_fn = tf.estimator.inputs.numpy_input_fn({"x": x[:5]}, batch_size=2, num_epochs=1, shuffle=False)
    batches = list(est.predict(pred_fn, yield_single_examples=False))
    RESULTS["batch_sizes"] = [b["pred"].shape[0] for b in batches]
    RESULTS["first_batch"] = batches[0]
finally:
    shutil.rmtree(model_dir, ignore_errors=True)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
