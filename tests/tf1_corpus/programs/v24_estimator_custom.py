# Custom Estimator tutorial: a model_fn with tf.layers, trained on numpy_input_fn,
# evaluated and used to predict; checkpoints in model_dir. Fixed initial values so
# the losses compare with TF.
import os
import re
import shutil
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TRAIN_LOSSES = []


class LossHistory(tf.train.SessionRunHook):
    def __init__(self, loss):
        self.loss = loss

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(self.loss)

    def after_run(self, run_context, run_values):
        TRAIN_LOSSES.append(run_values.results)


def model_fn(features, labels, mode, params):
    x = features["x"]
    h = tf.layers.dense(x, 3, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(0.1),
                        bias_initializer=tf.constant_initializer(0.05), name="hidden")
    logits = tf.layers.dense(h, 2, kernel_initializer=tf.constant_initializer([[0.3, -0.2], [0.1, 0.4], [-0.5, 0.2]]),
                             name="logits")
    classes = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"classes": classes,
                                                             "probabilities": tf.nn.softmax(logits)})
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss)
    optimizer = tf.train.GradientDescentOptimizer(learning_rate=params["learning_rate"])
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=[LossHistory(loss)])


x_train = np.linspace(-1.0, 1.0, 20).reshape(10, 2).astype(np.float32)
y_train = (x_train[:, 0] + 0.3 * x_train[:, 1] > 0).astype(np.int32)

model_dir = tempfile.mkdtemp()
config = tf.estimator.RunConfig(save_checkpoints_steps=3, log_step_count_steps=2, tf_random_seed=1)
classifier = tf.estimator.Estimator(model_fn=model_fn, model_dir=model_dir, params={"learning_rate": 0.5},
                                    config=config)
RESULTS["model_dir"] = classifier.model_dir == model_dir

train_input_fn = tf.estimator.inputs.numpy_input_fn(x={"x": x_train}, y=y_train, batch_size=4, num_epochs=2,
                                                    shuffle=False)
classifier.train(input_fn=train_input_fn)
RESULTS["train_losses"] = list(TRAIN_LOSSES)
RESULTS["latest_checkpoint"] = os.path.basename(classifier.latest_checkpoint())
RESULTS["variable_names"] = classifier.get_variable_names()
for name in classifier.get_variable_names():
    RESULTS["value " + name] = classifier.get_variable_value(name)


def listing(d):
    # no .meta / graph.pbtxt compared: they are not written for graphs with tf.data iterators (a known difference)
    # a checkpoint's data shards listed as one "<prefix>.data" entry: the atomic re-save over
    # an existing prefix writes them as two shards (-of-00002) where TF overwrites one (a known difference)
    names = [n for n in sorted(os.listdir(d)) if not n.endswith(".meta") and n != "graph.pbtxt"]
    names = sorted({re.sub(r"\.data-\d{5}-of-\d{5}$", ".data", n) for n in names})
    return ["events" if n.startswith("events.out.tfevents.") else n for n in names]


RESULTS["files_after_train"] = listing(model_dir)
state = tf.train.get_checkpoint_state(model_dir)
RESULTS["checkpoints"] = [os.path.basename(p) for p in state.all_model_checkpoint_paths]

eval_input_fn = tf.estimator.inputs.numpy_input_fn(x={"x": x_train}, y=y_train, batch_size=4, shuffle=False)
metrics = classifier.evaluate(input_fn=eval_input_fn)
RESULTS["eval"] = metrics
RESULTS["eval_keys"] = sorted(metrics)
RESULTS["eval_dir"] = listing(os.path.join(model_dir, "eval"))

predict_input_fn = tf.estimator.inputs.numpy_input_fn(x={"x": x_train[:5]}, batch_size=2, shuffle=False)
predictions = list(classifier.predict(input_fn=predict_input_fn))
RESULTS["n_predictions"] = len(predictions)
RESULTS["predictions"] = predictions
RESULTS["class_ids"] = [p["classes"] for p in classifier.predict(input_fn=predict_input_fn, predict_keys=["classes"])]

# more training: steps counts from the restored global step; max_steps already reached skips
del TRAIN_LOSSES[:]
forever = tf.estimator.inputs.numpy_input_fn(x={"x": x_train}, y=y_train, batch_size=4, num_epochs=None,
                                             shuffle=False)
classifier.train(input_fn=forever, steps=2)
RESULTS["more_losses"] = list(TRAIN_LOSSES)
RESULTS["latest_after_steps"] = os.path.basename(classifier.latest_checkpoint())
classifier.train(input_fn=forever, max_steps=3)
RESULTS["latest_after_skip"] = os.path.basename(classifier.latest_checkpoint())
classifier.train(input_fn=forever, max_steps=9)
RESULTS["latest_after_max_steps"] = os.path.basename(classifier.latest_checkpoint())
RESULTS["global_step"] = classifier.get_variable_value("global_step")
state = tf.train.get_checkpoint_state(model_dir)
RESULTS["checkpoints_kept"] = [os.path.basename(p) for p in state.all_model_checkpoint_paths]
RESULTS["files_end"] = listing(model_dir)
shutil.rmtree(model_dir)
