# An Estimator warm-started with WarmStartSettings that remap an embedding to a new vocabulary
# (tf.estimator.VocabInfo) and rename a variable (var_name_to_prev_var_name).
import os
import shutil
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
work = tempfile.mkdtemp()
old_vocab, new_vocab = os.path.join(work, "old.txt"), os.path.join(work, "new.txt")
with open(old_vocab, "w") as f:
    f.write("a\nb\nc\n")
with open(new_vocab, "w") as f:
    f.write("c\nx\na\n")
IDS = np.array([0, 1, 2, 0], np.int64)
Y = np.array([1.0, 0.5, -1.0, 2.0], np.float32)


def model_fn(features, labels, mode, params):
    emb = tf.get_variable("emb", [params["rows"], 2], initializer=tf.constant_initializer(
        np.arange(params["rows"] * 2, dtype=np.float32).reshape(params["rows"], 2) / 10))
    w = tf.get_variable(params["w_name"], [2, 1], initializer=tf.constant_initializer([[0.2], [-0.1]]))
    y = tf.squeeze(tf.matmul(tf.nn.embedding_lookup(emb, features["ids"]), w), axis=1)
    loss = tf.reduce_mean(tf.square(y - labels))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn():
    return {"ids": tf.constant(IDS)}, tf.constant(Y)


base = tf.estimator.Estimator(model_fn, model_dir=os.path.join(work, "base"), params={"rows": 3, "w_name": "w"})
base.train(input_fn, steps=2)
RESULTS["base"] = (base.get_variable_value("emb"), base.get_variable_value("w"))
settings = tf.estimator.WarmStartSettings(
    ckpt_to_initialize_from=base.model_dir, vars_to_warm_start=".*",
    var_name_to_vocab_info={"emb": tf.estimator.VocabInfo(new_vocab, 3, 1, old_vocab)},
    var_name_to_prev_var_name={"proj": "w"})
new = tf.estimator.Estimator(model_fn, model_dir=os.path.join(work, "new"), params={"rows": 4, "w_name": "proj"},
                             warm_start_from=settings)
new.train(input_fn, steps=1)
RESULTS["new"] = (new.get_variable_value("emb"), new.get_variable_value("proj"), new.get_variable_value("global_step"))
shutil.rmtree(work)
