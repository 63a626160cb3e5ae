# Custom model_fn + numpy_input_fn, as in the TF1 "Creating Estimators" / layers tutorials.
import shutil
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

rng = np.random.RandomState(0)
x = rng.uniform(-1, 1, size=(24, 4)).astype(np.float32)
y = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(np.int32)


def model_fn(features, labels, mode, params):
    net = tf.layers.dense(features["x"], params["hidden"], activation=tf.nn.relu,
                          kernel_initializer=tf.constant_initializer(0.1), name="hidden")
    logits = tf.layers.dense(net, 2, kernel_initializer=tf.constant_initializer([[0.2, -0.2]] * params["hidden"]),
                             name="logits")
    predicted = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        predictions = {"class_ids": predicted[:, tf.newaxis], "probabilities": tf.nn.softmax(logits),
                       "logits": logits}
        return tf.estimator.EstimatorSpec(mode, predictions=predictions)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    accuracy = tf.metrics.accuracy(labels=labels, predictions=predicted, name="acc_op")
    metrics = {"accuracy": accuracy, "mean_logit": tf.metrics.mean(logits)}
    tf.summary.scalar("accuracy", accuracy[1])
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops=metrics)
    optimizer = tf.train.AdagradOptimizer(learning_rate=0.1)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


model_dir = tempfile.mkdtemp()
try:
    config = tf.estimator.RunConfig(model_dir=model_dir, save_checkpoints_steps=5, tf_random_seed=1,
                                    log_step_count_steps=100)
    classifier = tf.estimator.Estimator(model_fn=model_fn, params={"hidden": 3}, config=config)
    train_input = tf.estimator.inputs.numpy_input_fn(x={"x": x}, y=y, batch_size=8, num_epochs=None,
                                                     shuffle=False)
    classifier.train(input_fn=train_input, steps=7)
    RESULTS["global_step"] = classifier.get_variable_value("global_step")
    RESULTS["variable_names"] = sorted(classifier.get_variable_names())
    RESULTS["hidden_kernel"] = classifier.get_variable_value("hidden/kernel")
    RESULTS["latest"] = classifier.latest_checkpoint().rsplit("-", 1)[1]

    eval_input = tf.estimator.inputs.numpy_input_fn(x={"x": x}, y=y, batch_size=10, num_epochs=1, shuffle=False)
    metrics = classifier.evaluate(input_fn=eval_input)
    RESULTS["eval_keys"] = sorted(metrics)
    RESULTS["eval"] = {k: v for k, v in metrics.items()}
    RESULTS["eval_types"] = {k: type(v).__name__ for k, v in metrics.items()}

    predict_input = tf.estimator.inputs.numpy_input_fn(x={"x": x[:5]}, num_epochs=1, shuffle=False)
    preds = list(classifier.predict(input_fn=predict_input))
    RESULTS["n_preds"] = len(preds)
    RESULTS["pred_keys"] = sorted(preds[0])
    RESULTS["pred0"] = preds[0]
    only = list(classifier.predict(input_fn=predict_input, predict_keys=["class_ids"]))
    RESULTS["only_keys"] = sorted(only[0])
    RESULTS["only_ids"] = [p["class_ids"] for p in only]

    classifier.train(input_fn=train_input, max_steps=9)
    RESULTS["after_max_steps"] = classifier.get_variable_value("global_step")
finally:
    shutil.rmtree(model_dir, ignore_errors=True)
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
